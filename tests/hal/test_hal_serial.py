"""Serial card readers: frame parsing (field-notes 10) and the reader on fake and real ports."""

from __future__ import annotations

import grp
import os
import pty
import time
import tty

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hal.errors import HalConfigError, HalDeviceError
from hal.interfaces import CardPresented, CardRemoved, ReaderBack, ReaderLost
from hal.serial_frames import LineParser, Rdm6300Parser, Read, rdm6300_frame
from hal.serial_reader import SerialReader, port_group

UID = "0A00BC614E"
FRAME = rdm6300_frame(UID)
PATH = "/dev/serial/by-id/usb-1a86_USB_Serial-if00-port0"


# -- the RDM6300 parser ----------------------------------------------------------------------------


def test_frame_layout():
    assert FRAME == b"\x020A00BC614E99\x03"  # 0x0A^0x00^0xBC^0x61^0x4E = 0x99


def test_split_frame_parses_once():
    parser = Rdm6300Parser()
    assert parser.feed(FRAME[:3]) == []
    assert parser.feed(FRAME[3:9]) == []
    assert parser.feed(FRAME[9:]) == [Read(uid=UID)]


def test_stream_starting_mid_frame_resyncs():
    parser = Rdm6300Parser()
    assert parser.feed(FRAME[6:] + FRAME) == [Read(uid=UID)]


def test_bad_checksum_is_garbled_not_a_uid():
    parser = Rdm6300Parser()
    assert parser.feed(rdm6300_frame(UID, checksum=0x98)) == [Read(garbled=True)]


def test_start_byte_inside_noise_does_not_swallow_the_next_frame():
    parser = Rdm6300Parser()
    assert parser.feed(b"\x02\x31\x32\x02" + FRAME) == [Read(uid=UID)]
    assert parser.feed(b"\x020A00BC614E99\x04" + FRAME) == [Read(uid=UID)]  # wrong end byte


def test_repeats_are_separate_reads_for_the_tracker_to_merge():
    assert Rdm6300Parser().feed(FRAME * 5) == [Read(uid=UID)] * 5


frames = st.lists(st.tuples(st.binary(min_size=5, max_size=5), st.booleans()), min_size=1, max_size=6)
noise = st.binary(max_size=12).map(lambda b: bytes(x for x in b if x != 0x02))


@settings(max_examples=200, deadline=None)
@given(frames=frames, gaps=st.lists(noise, min_size=7, max_size=7), cuts=st.lists(
    st.integers(min_value=0, max_value=200), max_size=15), lead=st.binary(max_size=13))
def test_any_chunking_and_noise_parse_each_frame_exactly_once_or_not_at_all(frames, gaps, cuts, lead):
    """Frames separated by noise (without start bytes), cut anywhere, after a partial frame."""
    stream = bytearray(lead.replace(b"\x02", b""))
    expected = []
    for i, (payload, good) in enumerate(frames):
        uid = payload.hex().upper()
        stream += gaps[i]
        right = rdm6300_frame(uid)
        stream += right if good else rdm6300_frame(uid, checksum=int(right[11:13], 16) ^ 0x5A)
        expected.append(Read(uid=uid) if good else Read(garbled=True))
    parser = Rdm6300Parser()
    reads = []
    start = 0
    for cut in sorted({c for c in cuts if c < len(stream)}) + [len(stream)]:
        reads += parser.feed(bytes(stream[start:cut]))
        start = cut
    assert reads == expected


@settings(max_examples=200, deadline=None)
@given(junk=st.binary(max_size=64))
def test_random_bytes_never_make_a_uid_that_was_not_sent(junk):
    reads = Rdm6300Parser().feed(junk)
    for read in reads:  # possible only if the junk contains a well-formed frame
        assert read.garbled or rdm6300_frame(read.uid) in junk


# -- the line parser ---------------------------------------------------------------------------------


@pytest.mark.parametrize("line, uid", [
    (b"04A1B2C3\n", "04A1B2C3"), (b"04:a1:b2:c3\r\n", "04A1B2C3"), (b"UID: 04 A1 B2 C3\r", "04A1B2C3"),
    (b"Card UID: 04A1B2C3D4E5F6\n", "04A1B2C3D4E5F6"), (b"0x04a1b2c3\n", "04A1B2C3"),
])
def test_line_formats(line, uid):
    assert LineParser().feed(line) == [Read(uid=uid)]


def test_lines_noise_split_and_overflow():
    parser = LineParser(max_line=32)
    assert parser.feed(b"PN532 ready\r\n04A1") == []
    assert parser.feed(b"B2C3\r\n" + b"F" * 100 + b"\n12\n") == [Read(uid="04A1B2C3")]
    assert parser.noise == 3


# -- the reader on the fake pyserial --------------------------------------------------------------------


@pytest.fixture
def port(fake_serial):
    return fake_serial.add(PATH)


def poll(reader, clock, polls, step=0.05):
    events = []
    for _ in range(polls):
        events += reader.poll()
        clock.advance(step)
    return events


def test_endless_repeats_are_one_presentation(port, fake_clock):
    reader = SerialReader(port=PATH, clock=fake_clock)
    port.stream(FRAME)
    assert poll(reader, fake_clock, 200) == [CardPresented(UID)]
    port.stream(None)
    assert poll(reader, fake_clock, 30) == [CardRemoved(UID)]
    assert port.settings == {"baudrate": 9600, "timeout": 0, "exclusive": True}


def test_frame_split_across_polls_is_one_event(port, fake_clock):
    reader = SerialReader(port=PATH, clock=fake_clock)
    port.feed_split(b"\x17\x99" + FRAME[5:] + FRAME + FRAME, 3)
    assert poll(reader, fake_clock, 20) == [CardPresented(UID)]


def test_noise_and_bad_checksums_make_no_tap(port, fake_clock):
    reader = SerialReader(port=PATH, clock=fake_clock)
    port.feed(b"\xff\x00\x02zz", rdm6300_frame(UID, checksum=0), b"\x03\x03")
    assert poll(reader, fake_clock, 40) == []
    assert reader.noise > 0


def test_unplug_and_replug_reconnects_without_restart(port, fake_clock):
    reader = SerialReader(port=PATH, clock=fake_clock, recover_interval_s=0.5)
    port.stream(FRAME)
    assert poll(reader, fake_clock, 3) == [CardPresented(UID)]
    port.unplug()
    events = poll(reader, fake_clock, 20)
    assert [type(e) for e in events] == [ReaderLost]
    assert "device disconnected" in events[0].reason
    assert "no serial device" in reader.lost_reason  # reopening fails while unplugged
    port.replug()
    port.stream(FRAME[7:] + FRAME)  # the new stream starts mid-frame
    events = poll(reader, fake_clock, 20)
    assert events == [ReaderBack()]  # the card rested on it: no second tap
    assert port.opens == 2 and port.open_handles == 1


def test_permission_error_names_the_group(port, fake_clock):
    port.permission_denied = True
    with pytest.raises(HalDeviceError, match=r"group dialout\): run sudo usermod -aG dialout \$USER"):
        SerialReader(port=PATH, clock=fake_clock)


def test_missing_port_says_plug_in_and_by_id(fake_serial, fake_clock):
    with pytest.raises(HalDeviceError, match=r"no serial device at /dev/ttyUSB7.*by-id") as info:
        SerialReader(port="/dev/ttyUSB7", clock=fake_clock)
    assert isinstance(info.value, OSError)


@pytest.mark.parametrize("options", [{}, {"port": PATH, "protocol": "wiegand"},
                                     {"port": PATH, "baudrate": 12}])
def test_bad_options(fake_serial, options):
    with pytest.raises(HalConfigError):
        SerialReader(**options)


def test_port_group_reads_the_device_group(tmp_path):
    device = tmp_path / "ttyFAKE"
    device.write_bytes(b"")
    group = grp.getgrgid(os.stat(device).st_gid).gr_name
    assert port_group(str(device)) == group
    assert port_group(str(tmp_path / "absent")) == "dialout"


# -- the real pyserial on a pseudo-terminal ------------------------------------------------------------


def test_real_pyserial_on_a_pty(fake_clock):
    """No fake at all: pyserial opens a pty; frames written in pieces arrive as one presentation."""
    master, slave = pty.openpty()
    tty.setraw(master)
    path = os.ttyname(slave)
    reader = SerialReader(port=path, clock=fake_clock)
    try:
        os.write(master, b"\x99" + FRAME[:6])
        events = []
        deadline = time.monotonic() + 10  # wide margin; we assert what arrives, not when
        pieces = [FRAME[6:], FRAME * 3]
        while time.monotonic() < deadline and not events:
            if pieces:
                os.write(master, pieces.pop(0))
            time.sleep(0.02)
            events += poll(reader, fake_clock, 1)
        events += poll(reader, fake_clock, 5)
        assert events == [CardPresented(UID)]
        os.close(master)  # the device goes away
        master = None
        lost = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not lost:
            lost += poll(reader, fake_clock, 1)
            time.sleep(0.01)
        assert [type(e) for e in lost] == [ReaderLost]
    finally:
        reader.close()
        if master is not None:
            os.close(master)
        os.close(slave)


def test_a_lines_reader_that_prints_reversed_decimal_numbers_gives_canonical_uids(fake_serial, fake_clock):
    from hal.interfaces import CardPresented
    from hal.serial_reader import SerialReader

    port = fake_serial.add("/dev/ttyUSB7")
    reader = SerialReader(port="/dev/ttyUSB7", protocol="lines", uid_order="reversed", uid_digits="decimal",
                          clock=fake_clock)
    port.feed(b"card: 3283263748\r\n")
    events = []
    for _ in range(3):
        events += reader.poll()
        fake_clock.advance(0.05)
    assert events == [CardPresented("04A1B2C3")]
    reader.close()


def test_a_lines_reader_in_hex_keeps_reading_as_before(fake_serial, fake_clock):
    from hal.serial_frames import LineParser
    from hal.uid import UidForm

    assert [r.uid for r in LineParser().feed(b"UID 0012345678\n")] == ["0012345678"]  # hex, as before
    assert [r.uid for r in LineParser(form=UidForm(digits="auto")).feed(b"UID 0012345678\n")] == ["00BC614E"]
    assert [r.uid for r in LineParser(form=UidForm("reversed")).feed(b"c3:b2:a1:04\n")] == ["04A1B2C3"]
