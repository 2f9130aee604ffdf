"""UIDs, checksums, the presence tracker, the simulated reader's script, and wait_for_card."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hal
from hal.errors import HalConfigError, InvalidUidError
from hal.interfaces import CardPresented, CardRemoved, ReaderBack, ReaderLost
from hal.presence import PresenceTracker, ScanResult
from hal.sim_reader import SimReader, parse_script
from hal.uid import bcc, crc_a, normalize_uid, uid_from_bytes

# -- UIDs --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, uid", [
    ("04a1b2c3", "04A1B2C3"), ("04:A1:B2:C3", "04A1B2C3"), ("04 a1-b2.c3", "04A1B2C3"),
    ("0x04A1B2C3D4E5F6", "04A1B2C3D4E5F6"), ("0a00bc614e", "0A00BC614E"),
])
def test_normalize_uid(text, uid):
    assert normalize_uid(text) == uid


@pytest.mark.parametrize("text", ["", "04A1B2", "04A1B2C3D", "04A1B2C3D4E5", "zz112233", 12345678,
                                  "04A1B2C3D4E5F60718293A"])
def test_invalid_uids(text):
    with pytest.raises(InvalidUidError):
        normalize_uid(text)


@given(st.sampled_from([4, 5, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n)))
def test_uid_round_trip(raw):
    uid = uid_from_bytes(raw)
    assert normalize_uid(uid.lower()) == uid and bytes.fromhex(uid) == raw


def test_checksums_match_iso_14443_examples():
    assert crc_a(b"\x00\x00") == b"\xa0\x1e"
    assert crc_a(b"\x12\x34") == b"\x26\xcf"
    assert crc_a(b"\x50\x00") == b"\x57\xcd"  # the HALT frame everybody knows
    assert bcc([0x88, 0x04, 0xA1, 0xB2]) == 0x88 ^ 0x04 ^ 0xA1 ^ 0xB2


# -- the tracker: properties over any sequence of scans ----------------------------------------------


scans = st.lists(st.one_of(
    st.just(ScanResult()), st.just(ScanResult(errors=1)), st.just(ScanResult(failure="x")),
    st.sampled_from(["04A1B2C3", "04A1B2C3D4E5F6"]).map(lambda u: ScanResult(uids=(u,))),
), max_size=80)


@settings(max_examples=300)
@given(scans)
def test_tracker_edges_alternate_and_match_the_uid(results):
    tracker = PresenceTracker(1.0)
    current = None
    for i, result in enumerate(results):
        for event in tracker.update(i * 0.05, result):
            if isinstance(event, CardPresented):
                assert current is None
                current = event.uid
            else:
                assert isinstance(event, CardRemoved) and event.uid == current
                current = None
    assert tracker.current == current


@settings(max_examples=300)
@given(st.lists(st.tuples(st.integers(1, 10), st.integers(0, 18)), min_size=1, max_size=20))
def test_one_card_with_gaps_shorter_than_the_debounce_is_one_tap(stretches):
    """Any pattern of sightings and misses (each gap under 1 s at 20 Hz) is a single presentation."""
    tracker = PresenceTracker(1.0)
    seen, nothing = ScanResult(uids=("04A1B2C3",)), ScanResult()
    events, tick = [], 0
    for visible, gap in stretches:
        for result in [seen] * visible + [nothing] * gap:
            events += tracker.update(tick * 0.05, result)
            tick += 1
    assert events == [CardPresented("04A1B2C3")]


# -- the simulated reader ----------------------------------------------------------------------------


def test_script_replays_taps_faults_and_health(fake_clock):
    reader = SimReader(clock=fake_clock, script="""
        # seconds action argument
        0.10  present 04:a1:b2:c3
        0.50  miss    2
        0.80  garble
        1.00  remove  04A1B2C3
        3.00  tap     04A1B2C3D4E5F6
        6.00  fail
        8.00  repair
    """)
    events = []
    for _ in range(200):
        events += reader.poll()
        fake_clock.advance(0.05)
    assert [type(e).__name__ for e in events] == [
        "CardPresented", "CardRemoved", "CardPresented", "CardRemoved", "ReaderLost", "ReaderBack"]
    assert events[2] == CardPresented("04A1B2C3D4E5F6")


def test_script_from_a_file_and_from_tuples(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("2 remove 04A1B2C3\n1 present 04A1B2C3\n")
    assert parse_script(path) == [(1.0, "present", "04A1B2C3"), (2.0, "remove", "04A1B2C3")]
    assert parse_script(str(path)) == parse_script([(2, "remove", "04a1b2c3"), (1, "present", "04a1b2c3")])


@pytest.mark.parametrize("script, message", [
    ("1 dance 04A1B2C3", "unknown action"), ("x present 04A1B2C3", "is not seconds"),
    ("1 present", "needs a UID"), ("1 miss lots", "takes a count"), ([(1,)], "expected"),
])
def test_bad_scripts(script, message):
    with pytest.raises(HalConfigError, match=message):
        parse_script(script)


def test_bad_uid_in_a_script_is_a_value_error():
    with pytest.raises(InvalidUidError):
        parse_script("1 present 04A1B2")


def test_sim_tap_of_a_resting_card_is_not_a_new_presentation(sim_reader, fake_clock):
    sim_reader.present("04A1B2C3")
    assert sim_reader.poll() == [CardPresented("04A1B2C3")]
    sim_reader.tap("04A1B2C3")
    fake_clock.advance(0.05)
    assert sim_reader.poll() == []


def test_sim_two_cards_at_once_collide(sim_reader, fake_clock):
    sim_reader.present("04A1B2C3")
    sim_reader.present("04A1B2C4")
    assert sim_reader.poll() == []
    assert sim_reader.field == ("04A1B2C3", "04A1B2C4")


@pytest.mark.parametrize("options", [{"poll_interval_s": 0.001}, {"removal_debounce_s": 0.04},
                                     {"failures_before_lost": 0}, {"recover_interval_s": "soon"}])
def test_bad_timing_options(options):
    with pytest.raises(HalConfigError):
        SimReader(**options)


# -- wait_for_card (real time, wide margins) ------------------------------------------------------------


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_wait_for_card_returns_the_tap_and_passes_other_events_on():
    reader = SimReader(script="0.1 tap 04A1B2C3")
    reader.fail()
    seen = []
    threading.Timer(0.2, reader.repair).start()
    event = hal.wait_for_card(reader, timeout_s=30, on_event=seen.append)
    assert event == CardPresented("04A1B2C3")
    assert [type(e) for e in seen] == [ReaderLost, ReaderBack]
    reader.close()


def test_wait_for_card_honours_a_cancel_and_a_timeout():
    reader = SimReader()
    stop = threading.Event()
    threading.Timer(0.1, stop.set).start()
    assert hal.wait_for_card(reader, stop=stop, timeout_s=30) is None
    assert stop.is_set()
    assert hal.wait_for_card(reader, timeout_s=0.1) is None
    reader.close()
    assert hal.wait_for_card(reader, timeout_s=30) is None  # a closed reader ends the wait
