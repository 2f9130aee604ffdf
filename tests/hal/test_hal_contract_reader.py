"""The card reader contract, run against every reader backend.

Each backend runs its real code: the simulator as is, the MFRC522 reader with the unmodified
``mfrc522`` package on a fake ``spidev`` (an emulated chip and cards) and a fake ``RPi.GPIO``, the
serial reader on a fake pyserial port, in both protocols. A harness per backend knows how to put a card
on that hardware, take it away, make it miss a poll, garble a read, and break or repair the reader.
Scenarios are those of field-notes 1, 2 and 6.
"""

from __future__ import annotations

import dataclasses

import pytest

from hal.evdev_reader import KeyboardReader
from hal.interfaces import CardPresented, CardRemoved, ReaderBack, ReaderLost
from hal.pcsc_reader import PcscReader
from hal.pn532_reader import Pn532Reader
from hal.serial_frames import rdm6300_frame
from hal.serial_reader import SerialReader
from hal.sim_reader import SimReader

STEP = 0.05  # default poll interval


class SimHarness:
    uids = ("04A1B2C3", "04A1B2C3D4E5F6", "1A2B3C4D")

    def __init__(self, request, clock):
        self.reader = SimReader(clock=clock)

    def place(self, uid):
        self.reader.present(uid)

    def take(self, uid):
        self.reader.remove(uid)

    def miss(self, n=1):
        self.reader.miss(n)

    def garble(self, n=1):
        self.reader.garble(n)

    def break_(self):
        self.reader.fail()

    def repair(self):
        self.reader.repair()


class Mfrc522Harness:
    uids = ("04A1B2C3", "04A1B2C3D4E5F6", "1A2B3C4D")

    def __init__(self, request, clock):
        self.chip = request.getfixturevalue("fake_mfrc522")
        self.reader = request.getfixturevalue("make_rc522_reader")()
        self.cards = {}

    def place(self, uid):
        self.cards[uid] = self.chip.enter(uid)

    def take(self, uid):
        self.chip.leave(self.cards.pop(uid))

    def miss(self, n=1):
        for card in self.cards.values():
            card.missed += n

    def garble(self, n=1):
        for card in self.cards.values():
            card.corrupt += n

    def break_(self):
        self.chip.disconnect()

    def repair(self):
        self.chip.reconnect()


class SerialHarness:
    protocol = "rdm6300"
    uids = ("0A00BC614E", "0B00112233", "1A2B3C4D5E")
    path = "/dev/serial/by-id/usb-fake-reader-if00"

    def __init__(self, request, clock):
        self.world = request.getfixturevalue("fake_serial")
        self.port = self.world.add(self.path)
        self.reader = SerialReader(port=self.path, protocol=self.protocol, clock=clock)

    def frame(self, uid):
        return rdm6300_frame(uid)

    def bad_frame(self, uid):
        return rdm6300_frame(uid, checksum=0x00 if rdm6300_frame(uid)[11:13] != b"00" else 0x01)

    def place(self, uid):
        self.port.stream(self.frame(uid))

    def take(self, uid):
        self.port.stream(None)

    def miss(self, n=1):
        self.port.gaps += n

    def garble(self, n=1):
        for _ in range(n):
            self.port.feed(self.bad_frame(self.uids[0]))

    def break_(self):
        self.port.unplug()

    def repair(self):
        self.port.replug()


class LinesHarness(SerialHarness):
    protocol = "lines"
    uids = ("04A1B2C3", "04A1B2C3D4E5F6", "1A2B3C4D")

    def frame(self, uid):
        return uid.lower().encode() + b"\r\n"

    def garble(self, n=1):
        # No checksum in this protocol: a garbled line is noise, which the reader must shrug off.
        for _ in range(n):
            self.port.feed(b"04a1\x00\xff#b2c3\r\n")


class KeyboardHarness:
    """A USB reader that types the card's number as 10 decimal digits (reversed bytes, as most do), again and
    again while the card is held, on the fake evdev; found by its /dev/input/by-id path."""

    uids = ("04A1B2C3", "1A2B3C4D", "C3B2A1F4")
    path = "/dev/input/by-id/usb-Sycreader_RFID_Technology_Co.__Ltd_SYC_ID_IC_USB_Reader_08FF20140315-event-kbd"

    def __init__(self, request, clock):
        self.world = request.getfixturevalue("fake_evdev")
        self.node = self.world.add(self.path)
        self.reader = KeyboardReader(device=self.path, uid_order="reversed", uid_digits="decimal", clock=clock)

    def place(self, uid):
        self.node.stream(self.reader.form.write(uid))

    def take(self, uid):
        self.node.stream(None)

    def miss(self, n=1):
        self.node.gaps += n

    def garble(self, n=1):
        for _ in range(n):
            self.node.type("12-45")  # a key that no number has: noise, shrugged off

    def break_(self):
        self.node.unplug()

    def repair(self):
        self.node.replug()


class Pn532Harness:
    """A PN532 on I²C through the Adafruit library's interface (fake ``adafruit_pn532`` and Blinka)."""

    uids = ("04A1B2C3", "04A1B2C3D4E5F6", "1A2B3C4D")
    interface = "i2c"

    def __init__(self, request, clock):
        self.world = request.getfixturevalue("fake_pn532")
        self.reader = Pn532Reader(interface=self.interface, port="/dev/serial0", clock=clock)

    def place(self, uid):
        if uid not in [b.hex().upper() for b in self.world.field]:
            self.world.enter(uid)

    def take(self, uid):
        self.world.leave(uid)

    def miss(self, n=1):
        self.world.missed += n

    def garble(self, n=1):
        self.world.garbled += n

    def break_(self):
        self.world.disconnect()

    def repair(self):
        self.world.reconnect()


class Pn532UartHarness(Pn532Harness):
    interface = "uart"

    def __init__(self, request, clock):
        request.getfixturevalue("fake_serial").add("/dev/serial0")
        super().__init__(request, clock)


class PcscHarness:
    """An ACR122U through pyscard (fake ``smartcard`` over a fake pcscd)."""

    uids = ("04A1B2C3", "04A1B2C3D4E5F6", "1A2B3C4D")

    def __init__(self, request, clock):
        self.world = request.getfixturevalue("fake_pcsc")
        self.device = self.world.add()
        self.reader = PcscReader(reader_name="acr122", clock=clock)

    def place(self, uid):
        self.device.card = uid

    def take(self, uid):
        self.device.card = None

    def miss(self, n=1):
        self.device.missed += n

    def garble(self, n=1):
        self.device.garbled += n

    def break_(self):
        self.device.unplug()

    def repair(self):
        self.device.replug()


HARNESSES = {"sim": SimHarness, "keyboard": KeyboardHarness, "pn532-i2c": Pn532Harness,
             "pn532-uart": Pn532UartHarness, "pcsc": PcscHarness, "mfrc522": Mfrc522Harness,
             "serial-rdm6300": SerialHarness, "serial-lines": LinesHarness}


@pytest.fixture(params=sorted(HARNESSES))
def hw(request, fake_clock):
    harness = HARNESSES[request.param](request, fake_clock)
    harness.clock = fake_clock
    yield harness
    harness.reader.close()


def run(hw, polls, step=STEP):
    """Poll ``polls`` times, ``step`` seconds apart; return all events."""
    events = []
    for _ in range(polls):
        events += hw.reader.poll()
        hw.clock.advance(step)
    return events


def test_resting_card_on_40_polls_gives_one_event(hw):
    uid = hw.uids[0]
    hw.place(uid)
    assert run(hw, 40) == [CardPresented(uid)]
    assert hw.reader.present_uid == uid


def test_poll_is_rate_limited(hw):
    hw.place(hw.uids[0])
    hw.reader.poll()
    scans = hw.reader.scans
    for _ in range(100):
        assert hw.reader.poll() == []
    assert hw.reader.scans == scans
    assert 0 < hw.reader.next_poll_in() <= hw.reader.poll_interval_s
    hw.clock.advance(hw.reader.next_poll_in())
    hw.reader.poll()
    assert hw.reader.scans == scans + 1


def test_removal_is_debounced_then_reported_once(hw):
    uid = hw.uids[0]
    hw.place(uid)
    assert run(hw, 2) == [CardPresented(uid)]
    hw.take(uid)
    assert run(hw, int(0.8 / STEP)) == []
    events = run(hw, 40)
    assert events == [CardRemoved(uid)]
    assert hw.reader.present_uid is None


def test_removal_and_represent_are_two_taps(hw):
    uid = hw.uids[0]
    hw.place(uid)
    events = run(hw, 10)
    hw.take(uid)
    events += run(hw, 30)
    hw.place(uid)
    events += run(hw, 10)
    assert events == [CardPresented(uid), CardRemoved(uid), CardPresented(uid)]


def test_quick_lift_and_put_back_within_debounce_is_one_tap(hw):
    uid = hw.uids[0]
    hw.place(uid)
    events = run(hw, 5)
    hw.take(uid)
    events += run(hw, 6)
    hw.place(uid)
    events += run(hw, 20)
    assert events == [CardPresented(uid)]


def test_missed_polls_while_resting_give_no_event(hw):
    uid = hw.uids[0]
    hw.place(uid)
    assert run(hw, 3) == [CardPresented(uid)]
    hw.miss(1)
    assert run(hw, 5) == []
    hw.miss(int(0.6 / STEP))  # several in a row, shorter than the debounce
    assert run(hw, 40) == []


def test_read_error_while_resting_gives_no_event(hw):
    uid = hw.uids[0]
    hw.place(uid)
    assert run(hw, 3) == [CardPresented(uid)]
    hw.garble(1)
    assert run(hw, 10) == []
    hw.garble(3)
    assert run(hw, 30) == []


def test_another_card_read_cleanly_replaces_the_first(hw):
    first, second = hw.uids[0], hw.uids[2]
    hw.place(first)
    events = run(hw, 3)
    hw.take(first)
    hw.place(second)
    events += run(hw, 3)
    assert events == [CardPresented(first), CardRemoved(first), CardPresented(second)]


def test_uids_keep_their_real_length(hw):
    for uid in hw.uids[:2]:
        hw.place(uid)
        events = run(hw, 3)
        hw.take(uid)
        events += run(hw, 30)
        assert events == [CardPresented(uid), CardRemoved(uid)]
        assert events[0].uid == uid.upper() and len(events[0].uid) == len(uid)


def test_reader_lost_and_back_without_double_tap(hw):
    uid = hw.uids[0]
    hw.place(uid)
    assert run(hw, 3) == [CardPresented(uid)]
    hw.break_()
    events = run(hw, 10)
    assert [type(e) for e in events] == [ReaderLost]
    assert events[0].reason and not hw.reader.healthy
    assert run(hw, 10) == []  # still lost: no repeated reports
    hw.repair()
    hw.place(uid)  # the card rested all along (the serial harness must restart its stream)
    events = run(hw, 60)
    assert events == [ReaderBack()]
    assert hw.reader.healthy and hw.reader.present_uid == uid


def test_card_taken_away_while_reader_lost_is_removed_after_it_is_back(hw):
    uid = hw.uids[0]
    hw.place(uid)
    run(hw, 3)
    hw.break_()
    run(hw, 5)
    hw.take(uid)
    hw.repair()
    events = run(hw, 60)
    assert events == [ReaderBack(), CardRemoved(uid)]


def test_events_are_frozen_and_timestamped_by_the_clock(hw):
    uid = hw.uids[0]
    hw.place(uid)
    before = hw.clock()
    (event,) = run(hw, 3)
    assert event.at == before
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.uid = "00000000"


def test_closed_reader_is_quiet_and_close_is_idempotent(hw):
    hw.place(hw.uids[0])
    hw.reader.close()
    hw.reader.close()
    assert hw.reader.closed
    assert run(hw, 5) == []
