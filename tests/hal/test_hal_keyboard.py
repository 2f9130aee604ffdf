"""The USB keyboard reader (hal.evdev_reader) on the fake evdev: found, grabbed, digits assembled, a held card
read once, unplugged and found again. The reader contract suite runs it too (test_hal_contract_reader.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hal.errors import BackendUnavailableError, HalConfigError, HalDeviceError
from hal.evdev_reader import KeyboardReader
from hal.interfaces import CardPresented, CardRemoved, ReaderBack, ReaderLost
from hal.uid import UidForm
from tests.fakes.fake_evdev import CODES, EV_KEY, FakeEvdevWorld, InputEvent, key_events

BY_ID = "/dev/input/by-id/usb-Sycreader_USB_Reader-event-kbd"
NAME = "Sycreader RFID Technology Co., Ltd SYC ID&IC USB Reader"


def run(reader, clock, polls, step=0.05):
    events = []
    for _ in range(polls):
        events += reader.poll()
        clock.advance(step)
    return events


@pytest.fixture
def node(fake_evdev):
    return fake_evdev.add(BY_ID)


def test_found_by_name_among_the_input_devices_and_grabbed(fake_evdev, fake_clock):
    fake_evdev.add("/dev/input/event0", "AT Translated Set 2 keyboard")
    reader_node = fake_evdev.add("/dev/input/event5", NAME)
    with KeyboardReader(device="sycreader", clock=fake_clock) as reader:
        assert reader.device_path == "/dev/input/event5"
        assert reader_node.grabbed_by is not None and fake_evdev.nodes["/dev/input/event0"].grabbed_by is None
    assert reader_node.grabbed_by is None  # released at close


def test_a_device_another_program_holds_is_refused_with_the_fix(fake_evdev, node, fake_clock):
    holder = fake_evdev.module.InputDevice(BY_ID)
    holder.grab()
    with pytest.raises(HalDeviceError, match="another program holds"):
        KeyboardReader(device=BY_ID, clock=fake_clock)


def test_no_such_device_and_no_permission_say_what_to_do(fake_evdev, fake_clock):
    with pytest.raises(HalDeviceError, match="is the reader plugged in"):
        KeyboardReader(device=BY_ID, clock=fake_clock)
    fake_evdev.add(BY_ID).permitted = False
    with pytest.raises(HalDeviceError, match="group input"):
        KeyboardReader(device=BY_ID, clock=fake_clock)
    with pytest.raises(HalDeviceError, match="no input device named like 'nothing'"):
        KeyboardReader(device="nothing", clock=fake_clock)


@pytest.mark.parametrize(("typed", "how", "options", "uid"), [
    ("0012345678", {}, {}, "00BC614E"),                                   # 10 digits: decimal, leading zeros
    ("12345678", {}, {"uid_digits": "decimal"}, "00BC614E"),             # the same number without them
    ("0012345678", {"shift": True}, {}, "00BC614E"),                      # AZERTY-minded: Shift held for digits
    ("0012345678", {"numpad": True}, {}, "00BC614E"),                     # the numpad, and its Enter
    ("3283263748", {}, {"uid_order": "reversed"}, "04A1B2C3"),            # little-endian number
    ("04a1b2c3", {}, {}, "04A1B2C3"),                                     # hex
    ("04a1b2c3", {"azerty": True}, {"layout": "azerty"}, "04A1B2C3"),     # AZERTY: A is at KEY_Q
    ("c3b2a104", {}, {"uid_order": "reversed", "uid_digits": "hex"}, "04A1B2C3"),
    ("0A00BC614E", {}, {}, "0A00BC614E"),                                 # 5 bytes of an EM4100 tag, hex
])
def test_digits_are_assembled_into_the_canonical_uid(node, fake_clock, typed, how, options, uid):
    reader = KeyboardReader(device=BY_ID, clock=fake_clock, **options)
    node.type(typed, **how)
    assert run(reader, fake_clock, 2) == [CardPresented(uid)]


def test_a_held_card_is_read_once_and_removed_after_the_debounce(node, fake_clock):
    reader = KeyboardReader(device=BY_ID, clock=fake_clock)
    node.type("0012345678")
    events = run(reader, fake_clock, 60)  # 3 s: the reader typed once and says nothing more
    assert events == [CardPresented("00BC614E"), CardRemoved("00BC614E")]
    node.type("0012345678")  # presented again: a second tap
    assert run(reader, fake_clock, 5) == [CardPresented("00BC614E")]


def test_a_number_split_over_two_scans_and_noise_keys(node, fake_clock):
    reader = KeyboardReader(device=BY_ID, clock=fake_clock)
    events = key_events("0012345678")
    node.feed(events[:20])
    assert run(reader, fake_clock, 2) == []
    node.feed(events[20:])
    assert run(reader, fake_clock, 1) == [CardPresented("00BC614E")]
    node.feed([InputEvent(0, 0, EV_KEY, CODES["KEY_ESC"], 1), InputEvent(0, 0, EV_KEY, CODES["KEY_ENTER"], 1)])
    node.type("9" * 40)  # a stuck key: far too long for any UID
    assert run(reader, fake_clock, 3) == [] and reader.present_uid == "00BC614E"


def test_unplugged_then_plugged_back_on_another_event_number_is_found_again(fake_evdev, fake_clock):
    first = fake_evdev.add("/dev/input/event5", NAME)
    reader = KeyboardReader(device="SYC ID&IC", clock=fake_clock)
    first.type("0012345678")
    assert run(reader, fake_clock, 2) == [CardPresented("00BC614E")]
    first.unplug()
    del fake_evdev.nodes["/dev/input/event5"]
    events = run(reader, fake_clock, 10)
    assert [type(e) for e in events] == [ReaderLost] and "unplugged" in events[0].reason
    assert run(reader, fake_clock, 40) == []  # still lost: no repeated report
    again = fake_evdev.add("/dev/input/event7", NAME)
    events = run(reader, fake_clock, 60)  # found by the periodic look (recover_interval_s), then the debounce
    assert events == [ReaderBack(), CardRemoved("00BC614E")] and reader.device_path == "/dev/input/event7"
    assert again.grabbed_by is not None
    again.type("0012345678")
    assert run(reader, fake_clock, 2) == [CardPresented("00BC614E")]


def test_bad_options_are_refused(node, fake_clock):
    for options, words in (({}, "needs device"), ({"device": BY_ID, "layout": "dvorak"}, "layout"),
                           ({"device": BY_ID, "uid_order": "backwards"}, "UID order")):
        with pytest.raises(HalConfigError, match=words):
            KeyboardReader(clock=fake_clock, **options)


def test_without_python_evdev_it_says_which_extra_to_install(mocker, fake_clock):
    mocker.patch.dict(sys.modules, {"evdev": None})
    with pytest.raises(BackendUnavailableError, match=r"banquier\[keyboard\]"):
        KeyboardReader(device=BY_ID, clock=fake_clock)


def test_importing_hal_and_the_backend_does_not_import_evdev():
    code = ("import sys, hal, hal.evdev_reader, hal.registry; hal.registry.reader_backends(); "
            "assert 'evdev' not in sys.modules, 'evdev imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


@settings(max_examples=60, deadline=None)
@given(raw=st.binary(min_size=4, max_size=4) | st.binary(min_size=7, max_size=7),
       order=st.sampled_from(["sent", "reversed"]), digits=st.sampled_from(["auto", "hex", "decimal"]),
       numpad=st.booleans(), shift=st.booleans())
def test_whatever_form_a_reader_types_the_card_comes_out_canonical(raw, order, digits, numpad, shift):
    from tests.fakes.clock import FakeClock
    uid = raw.hex().upper()
    form = UidForm(order, digits)
    if digits != "hex" and len(raw) == 7 and form.canonical(form.write(uid)) != uid:
        return  # a 7-byte number whose first byte is 00 reads back shorter: refused at enrolment instead
    world = FakeEvdevWorld()
    node = world.add(BY_ID)
    clock = FakeClock()
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(sys.modules, "evdev", world.module)
        reader = KeyboardReader(device=BY_ID, uid_order=order, uid_digits=digits, clock=clock)
        node.type(form.write(uid), numpad=numpad, shift=shift)
        assert run(reader, clock, 2) == [CardPresented(uid)]
        reader.close()


def test_the_simulator_reads_a_configured_usb_reader_beside_its_tray(node, fake_clock):
    from hal.sim_reader import SimReader
    from host_ui.shell.config import parse_config
    from host_ui.sim import TrayAndReader, _real_reader

    assert _real_reader(parse_config("")) is None  # the simulator's own reader alone
    assert _real_reader(parse_config('[hardware.reader]\nbackend = "mfrc522"\n')) is None  # a Pi's header reader
    config = parse_config(f'[hardware.reader]\nbackend = "keyboard"\ndevice = "{BY_ID}"\n')
    real = _real_reader(config)
    real._clock = fake_clock
    tray = SimReader(clock=fake_clock)
    both = TrayAndReader(tray, real)
    tray.present("04A1B2C3")
    node.type("0012345678")
    events = []
    for _ in range(3):
        events += both.poll()
        fake_clock.advance(both.next_poll_in() or 0.05)
    assert events == [CardPresented("04A1B2C3"), CardPresented("00BC614E")]
    real.close()
