"""The poll schedule: an empty field watched at the idle rate, a card read at the base rate, the presence logic
unchanged (field-notes 1, 2 and 4). Time is the fake clock; nothing sleeps."""

from __future__ import annotations

import pytest

from hal.errors import HalConfigError
from hal.interfaces import CardPresented, CardRemoved, ReaderLost
from hal.mfrc522_reader import IDLE_POLL_INTERVAL_S
from hal.sim_reader import SimReader


def poll_until(reader, clock, until, events=None):
    """Poll at the reader's own schedule (sleeping ``next_poll_in``) until the clock reaches ``until``;
    return ``[(clock, event), ...]``."""
    events = [] if events is None else events
    while clock() < until:
        events += [(clock(), e) for e in reader.poll()]
        clock.advance(max(reader.next_poll_in(), 1e-6))
    return events


def test_mfrc522_watches_an_empty_field_every_20_ms_and_a_read_card_every_50(make_rc522_reader, fake_mfrc522,
                                                                            fake_clock):
    reader = make_rc522_reader()
    assert (reader.idle_poll_interval_s, reader.poll_interval_s) == (IDLE_POLL_INTERVAL_S, 0.05) == (0.02, 0.05)
    reader.poll()
    assert reader.next_poll_in() == pytest.approx(0.02)
    scans = reader.scans
    fake_clock.advance(0.019)
    assert reader.poll() == [] and reader.scans == scans  # not due yet
    fake_clock.advance(0.001)
    reader.poll()
    assert reader.scans == scans + 1
    card = fake_mfrc522.enter("04A1B2C3")
    fake_clock.advance(0.02)
    assert reader.poll() == [CardPresented("04A1B2C3")]
    assert reader.next_poll_in() == pytest.approx(0.05)  # a whole read per scan: as often as before
    start = reader.scans
    poll_until(reader, fake_clock, fake_clock() + 1.0)
    assert reader.scans - start == 20
    fake_mfrc522.leave(card)
    fake_clock.advance(0.05)
    assert reader.poll() == []  # not yet removed (debounce) ...
    assert reader.present_uid == "04A1B2C3"
    assert reader.next_poll_in() == pytest.approx(0.02)  # ... but the field looks empty: watched closely


@pytest.mark.parametrize("offset", [0.0, 0.001, 0.007, 0.0133, 0.019, 0.0199])
def test_a_card_entering_at_any_moment_is_seen_within_the_idle_interval(make_rc522_reader, fake_mfrc522,
                                                                       fake_clock, offset):
    reader = make_rc522_reader()
    poll_until(reader, fake_clock, fake_clock() + 0.2)
    entered = fake_clock() + offset
    seen = []
    while not seen:
        if fake_clock() >= entered and not fake_mfrc522.cards:
            fake_mfrc522.enter("04A1B2C3D4E5F6")
        seen = [fake_clock() for e in reader.poll() if isinstance(e, CardPresented)]
        fake_clock.advance(max(reader.next_poll_in(), 1e-6))
    assert 0 <= seen[0] - entered <= 0.02 + 1e-9


def test_the_next_card_within_the_debounce_of_the_last_is_seen_at_the_idle_rate(make_rc522_reader,
                                                                                fake_mfrc522, fake_clock):
    """A deed, then the payer's card a moment later: the second is not kept waiting by the first's debounce."""
    reader = make_rc522_reader()
    deed = fake_mfrc522.enter("04A1B2C3")
    events = poll_until(reader, fake_clock, fake_clock() + 0.3)
    fake_mfrc522.leave(deed)
    events = poll_until(reader, fake_clock, fake_clock() + 0.3)
    assert events == [] and reader.present_uid == "04A1B2C3"
    entered = fake_clock()
    fake_mfrc522.enter("04112233445566")
    events = poll_until(reader, fake_clock, fake_clock() + 0.1)
    assert [e for _, e in events] == [CardRemoved("04A1B2C3"), CardPresented("04112233445566")]
    assert events[1][0] - entered <= 0.02 + 1e-9


def test_a_failing_reader_is_scanned_at_the_base_rate(make_rc522_reader, fake_mfrc522, fake_clock):
    reader = make_rc522_reader(failures_before_lost=3)
    poll_until(reader, fake_clock, fake_clock() + 0.1)
    fake_mfrc522.disconnect()
    fake_clock.advance(reader.next_poll_in())
    reader.poll()
    assert reader.next_poll_in() == pytest.approx(0.05)
    events = poll_until(reader, fake_clock, fake_clock() + 0.2)
    assert [type(e) for _, e in events] == [ReaderLost]
    assert events[0][0] - fake_clock() <= -0.05  # two more failed scans, 50 ms apart


def scenario(reader, clock):
    """A table's worth of presence: taps, a card resting with a missed poll and a garbled read, a quick lift,
    a card swapped within the debounce, two cards at once. Returns ``[(clock, event), ...]``."""
    t0 = clock()
    steps = [(0.10, "present", "04A1B2C3"), (0.40, "remove", "04A1B2C3"),        # a tap
             (2.00, "present", "04A1B2C3"), (2.50, "miss", 1), (2.80, "garble", 1),  # resting, a weak link
             (3.00, "remove", "04A1B2C3"), (3.40, "present", "04A1B2C3"),            # lifted and put back
             (4.00, "remove", "04A1B2C3"), (4.30, "present", "04112233445566"),      # swapped within 1 s
             (4.60, "present", "1A2B3C4D"), (5.00, "remove", None),                  # two at once
             (7.00, "present", "1A2B3C4D"), (7.05, "remove", None)]                  # a very quick tap
    events = []
    for at, action, argument in steps:
        poll_until(reader, clock, t0 + at, events)
        getattr(reader, action)(*(() if argument is None else (argument,)))
    poll_until(reader, clock, t0 + 9.0, events)
    return [(round(t - t0, 3), e) for t, e in events]


def test_presence_events_are_those_of_the_old_schedule(fake_clock):
    """The idle rate changes when an empty field is looked at, never what the presence logic reports."""
    old = scenario(SimReader(clock=fake_clock), fake_clock)
    new = scenario(SimReader(clock=fake_clock, idle_poll_interval_s=0.02), fake_clock)
    assert [e for _, e in new] == [e for _, e in old] == [
        CardPresented("04A1B2C3"), CardRemoved("04A1B2C3"),
        CardPresented("04A1B2C3"), CardRemoved("04A1B2C3"), CardPresented("04112233445566"),
        CardRemoved("04112233445566"),
        CardPresented("1A2B3C4D"), CardRemoved("1A2B3C4D")]
    for (t_new, event), (t_old, _) in zip(new, old, strict=True):
        # a card is never seen later; a removal comes one debounce after the card was last seen, each
        # schedule's last sighting and first look after the debounce being up to a base poll apart
        assert abs(t_new - t_old) <= 2 * 0.05 + 1e-9
        if isinstance(event, CardPresented):
            assert t_new <= t_old + 1e-9


def test_timing_options():
    assert SimReader().idle_poll_interval_s == SimReader().poll_interval_s == 0.05  # unchanged by default
    assert SimReader(idle_poll_interval_s=0.01).idle_poll_interval_s == 0.01
    with pytest.raises(HalConfigError, match="idle_poll_interval_s"):
        SimReader(idle_poll_interval_s=0.1)  # slower than the base rate
    with pytest.raises(HalConfigError, match="idle_poll_interval_s"):
        SimReader(idle_poll_interval_s=0.001)


def test_mfrc522_idle_rate_follows_a_faster_base_rate(make_rc522_reader):
    for base, idle in ((0.015, 0.015), (0.2, 0.02)):
        reader = make_rc522_reader(poll_interval_s=base)
        assert reader.idle_poll_interval_s == idle
        reader.close()


def test_serial_reader_never_waits_for_bytes(fake_serial, fake_clock):
    """The serial reader reads what has arrived (timeout 0) once per scan, at the poll rate: no busy wait."""
    from hal.serial_reader import SerialReader
    port = fake_serial.add("/dev/serial/by-id/usb-fake-if00")
    reader = SerialReader(port=port.path, clock=fake_clock)
    assert port.settings["timeout"] == 0
    reads = port.reads
    for _ in range(100):  # a loop calling poll() far too often touches the port only when a scan is due
        reader.poll()
    assert port.reads - reads == 1
    poll_until(reader, fake_clock, fake_clock() + 1.0)
    assert port.reads - reads == 21  # 20 Hz
    reader.close()
