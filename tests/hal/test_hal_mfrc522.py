"""The MFRC522 backend: the real ``mfrc522`` package on the emulated chip (field-notes 3 to 9)."""

from __future__ import annotations

import importlib
import logging
import sys

import pytest

from hal.errors import BackendUnavailableError, HalConfigError, HalDeviceError, HalError
from hal.interfaces import CardPresented, CardRemoved, ReaderBack, ReaderLost
from hal.mfrc522_reader import Mfrc522Reader, Transceive
from tests.fakes.fake_gpio import BCM
from tests.fakes.fake_mfrc522 import COMM_IRQ, FakeCard

STEP = 0.05


def run(reader, clock, polls, step=STEP):
    events = []
    for _ in range(polls):
        events += reader.poll()
        clock.advance(step)
    return events


# -- cost of a poll ---------------------------------------------------------------------------------


def test_empty_poll_costs_a_handful_of_spi_transfers(make_rc522_reader, fake_mfrc522, fake_clock):
    reader = make_rc522_reader()
    run(reader, fake_clock, 2)  # the first poll also checks the chip's health
    before, irq_reads = fake_mfrc522.transfers, fake_mfrc522.reads.get(COMM_IRQ, 0)
    events = run(reader, fake_clock, 20)
    per_poll = (fake_mfrc522.transfers - before) / 20
    assert events == []
    assert per_poll <= 8  # 6 writes to start the exchange, 1 status read, nothing else
    assert (fake_mfrc522.reads[COMM_IRQ] - irq_reads) / 20 == 1  # stopped by the timer interrupt


def test_our_transceive_vs_the_package_tocard(make_rc522_reader, fake_mfrc522):
    reader = make_rc522_reader()
    chip = reader.chip
    before = fake_mfrc522.transfers
    assert reader.empty_poll() == Transceive.TIMEOUT
    ours = fake_mfrc522.transfers - before
    before = fake_mfrc522.transfers
    status, _ = chip.MFRC522_Request(chip.PICC_REQIDL)
    theirs = fake_mfrc522.transfers - before
    assert status == chip.MI_ERR
    assert theirs >= 2000  # it spins until its loop counter runs out, ignoring TimerIRq
    assert theirs / ours >= 200


def test_resting_card_poll_uses_wupa_and_halt(make_rc522_reader, fake_mfrc522, fake_clock):
    reader = make_rc522_reader()
    card = fake_mfrc522.enter("04A1B2C3")
    assert run(reader, fake_clock, 40) == [CardPresented("04A1B2C3")]
    assert card.state == "HALT"  # halted after each read, woken by WUPA at the next poll
    requests = [f for f in card.frames if len(f) == 1]
    assert set(requests) == {b"\x52"} and len(requests) == 40
    assert card.forbidden == []  # never writes to or authenticates with a card


# -- UIDs -------------------------------------------------------------------------------------------


def test_seven_byte_sticker_and_four_byte_card_with_same_first_bytes(make_rc522_reader, fake_mfrc522,
                                                                     fake_clock):
    reader = make_rc522_reader()
    events = []
    for uid in ("04A1B2C3", "04A1B2C3D4E5F6", "04A1B2FFEEDDCC"):
        card = fake_mfrc522.enter(uid)
        events += run(reader, fake_clock, 3)
        fake_mfrc522.leave(card)
        events += run(reader, fake_clock, 25)
    presented = [e.uid for e in events if isinstance(e, CardPresented)]
    assert presented == ["04A1B2C3", "04A1B2C3D4E5F6", "04A1B2FFEEDDCC"]


def test_the_package_anticollision_alone_confuses_two_stickers(make_rc522_reader, fake_mfrc522):
    """Why we run cascade level 2 (field-notes 5): level 1 gives 0x88 + 3 bytes + BCC for both."""
    reader = make_rc522_reader()
    chip = reader.chip
    answers = []
    for uid in ("04A1B2C3D4E5F6", "04A1B2FFEEDDCC"):
        card = fake_mfrc522.enter(uid)
        chip.MFRC522_Request(chip.PICC_REQALL)  # status aside (their loop), the card is now READY
        _status, data = chip.MFRC522_Anticoll()
        answers.append(data)
        fake_mfrc522.leave(card)
    assert answers[0] == answers[1] and answers[0][0] == 0x88


def test_ten_byte_uid(make_rc522_reader, fake_mfrc522, fake_clock):
    reader = make_rc522_reader()
    fake_mfrc522.enter("04A1B2C3D4E5F6071829")
    assert run(reader, fake_clock, 3) == [CardPresented("04A1B2C3D4E5F6071829")]


def test_two_cards_at_once_collide_and_report_nothing_new(make_rc522_reader, fake_mfrc522, fake_clock):
    reader = make_rc522_reader()
    fake_mfrc522.enter("04A1B2C3")
    events = run(reader, fake_clock, 3)
    fake_mfrc522.enter("0411223344556F")
    events += run(reader, fake_clock, 40)  # the collision counts as "the card is still there"
    assert events == [CardPresented("04A1B2C3")]


# -- weak links (field-notes 2) ---------------------------------------------------------------------


@pytest.mark.parametrize("fault", ["missed", "corrupt", "bad_crc"])
def test_single_fault_while_resting_gives_no_event(make_rc522_reader, fake_mfrc522, fake_clock, fault):
    reader = make_rc522_reader()
    card = fake_mfrc522.enter("04A1B2C3D4E5F6")
    assert run(reader, fake_clock, 3) == [CardPresented("04A1B2C3D4E5F6")]
    setattr(card, fault, 1)
    assert run(reader, fake_clock, 40) == []
    assert getattr(card, fault) == 0  # the fault really happened


def test_crc_error_on_a_new_card_is_not_a_tap(make_rc522_reader, fake_mfrc522, fake_clock):
    reader = make_rc522_reader()
    card = fake_mfrc522.enter("04A1B2C3")
    card.bad_crc = 1
    events = run(reader, fake_clock, 1)
    assert events == []  # the garbled SAK was not believed ...
    assert run(reader, fake_clock, 2) == [CardPresented("04A1B2C3")]  # ... the next clean read was


# -- a reader that goes deaf (field-notes 6) -------------------------------------------------------


@pytest.mark.parametrize("fault", ["hang", "power_glitch"])
def test_deaf_chip_is_reported_reset_and_back(make_rc522_reader, fake_mfrc522, fake_clock, fault):
    reader = make_rc522_reader()
    fake_mfrc522.enter("04A1B2C3")
    assert run(reader, fake_clock, 3) == [CardPresented("04A1B2C3")]
    resets = fake_mfrc522.hard_resets
    getattr(fake_mfrc522, fault)()
    events = run(reader, fake_clock, 40)
    assert [type(e) for e in events] == [ReaderLost, ReaderBack]  # no double tap of the resting card
    assert fake_mfrc522.hard_resets == resets + 1  # through the reset pin
    assert reader.healthy and reader.present_uid == "04A1B2C3"


def test_disconnected_chip_stays_lost_and_retries_at_a_bounded_rate(make_rc522_reader, fake_mfrc522,
                                                                    fake_clock):
    reader = make_rc522_reader(recover_interval_s=1.0)
    fake_mfrc522.disconnect()
    events = run(reader, fake_clock, 3)
    assert [type(e) for e in events] == [ReaderLost]
    assert "version register reads 0x00" in events[0].reason
    resets = fake_mfrc522.hard_resets
    assert run(reader, fake_clock, 200) == []  # 10 s
    assert 9 <= fake_mfrc522.hard_resets - resets <= 11
    assert "0x00" in reader.lost_reason
    fake_mfrc522.reconnect()
    assert run(reader, fake_clock, 25) == [ReaderBack()]


def test_health_check_reads_the_version_register(make_rc522_reader, fake_mfrc522, fake_clock):
    reader = make_rc522_reader(health_check_interval_s=1.0)
    run(reader, fake_clock, 2)
    fake_mfrc522.version = 0x00
    events = run(reader, fake_clock, 100)
    assert [type(e) for e in events] == [ReaderLost]
    assert "version register reads 0x00" in events[0].reason
    fake_mfrc522.version = 0x91
    assert run(reader, fake_clock, 25) == [ReaderBack()]


# -- set-up and shutdown -----------------------------------------------------------------------------


def test_spi_clock_and_mode_are_explicit(make_rc522_reader, fake_mfrc522):
    make_rc522_reader().close()
    assert fake_mfrc522.speed_hz == 1_000_000
    make_rc522_reader(spi_speed_hz=400_000, reset_pin=22)
    assert fake_mfrc522.speed_hz == 400_000


def test_close_releases_only_our_pin_and_never_calls_close_mfrc522(make_rc522_reader, fake_gpio,
                                                                   fake_mfrc522, mocker):
    fake_gpio.claim_foreign(40)  # someone else's pin
    reader = make_rc522_reader()
    package_class = type(reader.chip)
    spy = mocker.patch.object(package_class, "Close_MFRC522", side_effect=AssertionError("called"))
    reader.close()
    reader.close()
    spy.assert_not_called()
    cleanups = [call for call in fake_gpio.calls if call[0] == "cleanup"]
    assert cleanups == [("cleanup", 22)]
    assert fake_gpio.is_setup(40) and fake_gpio.violations == []
    assert fake_mfrc522.bus.closed == [(0, 0)]


def test_numbering_agrees_with_other_gpio_code_in_bcm(make_rc522_reader, fake_gpio, fake_mfrc522):
    fake_gpio.setmode(BCM)  # some other code chose BCM first
    make_rc522_reader(reset_pin=22)
    assert ("setup", 25, 0, 20, -1) in fake_gpio.calls  # header pin 22 is BCM 25
    assert fake_gpio.is_setup(22)


def test_board_mode_is_set_once_and_kept(make_rc522_reader, fake_gpio):
    make_rc522_reader()
    assert fake_gpio.mode == 10
    assert [c for c in fake_gpio.calls if c[0] == "setmode"] == [("setmode", 10)]
    with pytest.raises(ValueError, match="different mode"):
        fake_gpio.module.setmode(BCM)  # the rule the fake enforces, like RPi.GPIO


def test_package_log_handlers_do_not_pile_up(make_rc522_reader):
    logger = logging.getLogger("mfrc522Logger")
    before = len(logger.handlers)
    for _ in range(3):
        make_rc522_reader().close()
    assert len(logger.handlers) == before


def test_spi_not_enabled_with_the_real_spidev(fake_gpio, mocker):
    """The real ``spidev`` on this PC: /dev/spidev0.0 does not exist, as on a Pi without SPI."""
    mocker.patch.dict(sys.modules)
    sys.modules.pop("spidev", None)
    importlib.import_module("spidev")
    with pytest.raises(HalDeviceError, match=r"raspi-config nonint do_spi 0 and reboot") as info:
        Mfrc522Reader(bus=0, device=0)
    assert isinstance(info.value, OSError) and "\n" not in str(info.value)
    assert not fake_gpio.is_setup(22)


def test_spi_permission_denied(fake_mfrc522):
    fake_mfrc522.bus.permission_denied = True
    with pytest.raises(HalDeviceError, match=r"usermod -aG spi"):
        Mfrc522Reader()


def test_wrong_bus_is_spi_not_enabled(fake_mfrc522):
    with pytest.raises(HalDeviceError, match=r"/dev/spidev1.0 is missing"):
        Mfrc522Reader(bus=1)


@pytest.mark.parametrize("version", [0x00, 0xFF])
def test_no_chip_answering_names_the_wiring(fake_mfrc522, fake_gpio, version):
    fake_mfrc522.version = version
    with pytest.raises(HalDeviceError, match=r"check the wiring") as info:
        Mfrc522Reader(wait=fake_mfrc522.advance)
    assert f"0x{version:02X}" in str(info.value)
    assert not fake_gpio.is_setup(22)  # what was set up is released again
    assert fake_mfrc522.bus.closed == [(0, 0)]


def test_clone_chip_version_is_accepted(make_rc522_reader, fake_mfrc522, fake_clock):
    fake_mfrc522.version = 0x12
    reader = make_rc522_reader()
    fake_mfrc522.enter("04A1B2C3")
    assert run(reader, fake_clock, 2) == [CardPresented("04A1B2C3")]


def test_pin_clash_with_the_beeper(make_rc522_reader, fake_gpio):
    from hal.gpio_beeper import GpioBeeper

    make_rc522_reader(reset_pin=22)
    with pytest.raises(HalConfigError, match=r"pin 22 is already used by the card reader; choose "
                                             r"another pin for the card reader"):
        make_rc522_reader(reset_pin=22)
    with pytest.raises(HalConfigError, match=r"pin 22 is already used by the card reader"):
        GpioBeeper(pin=22)
    with pytest.raises(HalConfigError, match=r"pin 24 is already used by the card reader"):
        GpioBeeper(pin=24)  # SPI CE0


@pytest.mark.parametrize("options", [
    {"bus": -1}, {"device": 3}, {"spi_speed_hz": 50}, {"reset_pin": 1}, {"reset_pin": 41},
    {"response_timeout_s": 1.0}, {"poll_interval_s": 0}, {"removal_debounce_s": 0.01},
    {"max_status_reads": 1},
])
def test_bad_options_are_refused(fake_mfrc522, options):
    with pytest.raises(HalConfigError) as info:
        Mfrc522Reader(**options)
    assert isinstance(info.value, ValueError) and isinstance(info.value, HalError)


class _Raising:
    """A meta path finder that makes ``import RPi.GPIO`` fail the way it fails in the field."""

    def __init__(self, error):
        self.error = error

    def find_spec(self, name, path=None, target=None):
        if name in ("RPi", "RPi.GPIO"):
            raise self.error
        return


@pytest.mark.parametrize("error, expected", [
    (RuntimeError("Cannot determine SOC peripheral base address"), "rpi-lgpio"),
    (RuntimeError("This module can only be run on a Raspberry Pi!"), "BANQUIER_READER=sim"),
    (ModuleNotFoundError("No module named 'RPi'"), "pip install rpi-lgpio"),
])
def test_gpio_import_failures_name_the_fix(mocker, error, expected):
    mocker.patch.dict(sys.modules)
    for name in ("RPi", "RPi.GPIO"):
        sys.modules.pop(name, None)
    mocker.patch.object(sys, "meta_path", [_Raising(error)] + sys.meta_path)
    with pytest.raises(BackendUnavailableError, match=expected) as info:
        Mfrc522Reader()
    assert isinstance(info.value, ImportError)


def test_the_real_rpi_gpio_on_this_pc_says_use_the_simulator(mocker):
    mocker.patch.dict(sys.modules)
    for name in ("RPi", "RPi.GPIO"):
        sys.modules.pop(name, None)
    with pytest.raises(BackendUnavailableError, match="only runs on a Raspberry Pi"):
        Mfrc522Reader()


def test_remove_then_present_gives_events_in_order(make_rc522_reader, fake_mfrc522, fake_clock):
    reader = make_rc522_reader()
    card = FakeCard("04A1B2C3")
    events = []
    for _ in range(3):
        fake_mfrc522.enter(card)
        events += run(reader, fake_clock, 5)
        fake_mfrc522.leave(card)
        events += run(reader, fake_clock, 25)
    assert events == [CardPresented("04A1B2C3"), CardRemoved("04A1B2C3")] * 3
