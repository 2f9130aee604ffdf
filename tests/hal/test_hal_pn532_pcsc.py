"""The PN532 (Adafruit's library) and PC/SC (pyscard) readers on fakes at their library's boundary: set-up,
the errors a person can act on, and what each scan asks of the library. Both also run the reader contract
suite (test_hal_contract_reader.py)."""

from __future__ import annotations

import sys

import pytest

from hal.errors import BackendUnavailableError, HalConfigError, HalDeviceError
from hal.interfaces import CardPresented
from hal.pcsc_reader import GET_UID, PcscReader
from hal.pn532_reader import Pn532Reader


def run(reader, clock, polls, step=0.05):
    events = []
    for _ in range(polls):
        events += reader.poll()
        clock.advance(step)
    return events


# ------------------------------------------------------------------------------------------------- PN532
def test_pn532_on_i2c_reads_a_7_byte_sticker_with_a_short_timeout(fake_pn532, fake_clock):
    reader = Pn532Reader(clock=fake_clock)
    (chip,) = fake_pn532.made
    assert chip.interface == "i2c" and chip.configured and reader.firmware == (0x32, 1, 6, 7)
    fake_pn532.enter("04A1B2C3D4E5F6")
    assert run(reader, fake_clock, 3) == [CardPresented("04A1B2C3D4E5F6")]
    assert set(fake_pn532.timeouts) == {0.02}


def test_pn532_on_spi_uses_the_chip_select_pin_as_blinka_names_it(fake_pn532, fake_clock):
    Pn532Reader(interface="spi", cs_pin=26, clock=fake_clock)
    (chip,) = fake_pn532.made
    assert chip.interface == "spi" and chip.args[1] == ("DigitalInOut", "board.D7")  # header pin 26 = GPIO7


def test_pn532_on_the_uart_opens_the_port_through_pyserial(fake_pn532, fake_serial, fake_clock):
    fake_serial.add("/dev/serial0")
    Pn532Reader(interface="uart", port="/dev/serial0", clock=fake_clock)
    (chip,) = fake_pn532.made
    assert chip.interface == "uart"
    with pytest.raises(HalConfigError, match="needs port"):
        Pn532Reader(interface="uart", clock=fake_clock)


def test_pn532_that_does_not_answer_says_what_to_check(fake_pn532, fake_clock):
    fake_pn532.disconnect()
    with pytest.raises(HalDeviceError, match=r"no PN532 answers on I²C .*do_i2c 0"):
        Pn532Reader(clock=fake_clock)
    fake_pn532.reconnect()
    fake_pn532.permitted = False
    with pytest.raises(HalDeviceError, match="usermod -aG i2c"):
        Pn532Reader(clock=fake_clock)


def test_pn532_without_the_library_names_the_extra(mocker, fake_clock):
    mocker.patch.dict(sys.modules, {"board": None, "busio": None, "adafruit_pn532": None,
                                    "adafruit_pn532.i2c": None})
    with pytest.raises(BackendUnavailableError, match=r"banquier\[pn532\]"):
        Pn532Reader(clock=fake_clock)


def test_pn532_bad_options(fake_pn532, fake_clock):
    with pytest.raises(HalConfigError, match="interface"):
        Pn532Reader(interface="usb", clock=fake_clock)
    with pytest.raises(HalConfigError):
        Pn532Reader(cs_pin=4, clock=fake_clock)  # not a GPIO header pin


# ------------------------------------------------------------------------------------------------- PC/SC
def test_pcsc_reads_the_uid_with_get_data_and_disconnects(fake_pcsc, fake_clock):
    fake_pcsc.add("Generic Smart Card Reader 00 00")
    device = fake_pcsc.add()
    reader = PcscReader(reader_name="ACR122", clock=fake_clock)
    assert reader.reader_name == "ACS ACR122U PICC Interface 00 00"
    device.card = "04A1B2C3"
    assert run(reader, fake_clock, 3) == [CardPresented("04A1B2C3")]
    assert device.connections == 3 and GET_UID == [0xFF, 0xCA, 0x00, 0x00, 0x00]


def test_pcsc_first_reader_when_no_name_is_given(fake_pcsc, fake_clock):
    fake_pcsc.add("SCM SCR3310 00 00")
    assert PcscReader(clock=fake_clock).reader_name == "SCM SCR3310 00 00"


def test_pcsc_errors_say_what_to_do(fake_pcsc, fake_clock, mocker):
    with pytest.raises(HalDeviceError, match=r"no PC/SC reader at all \(readers present: none\)"):
        PcscReader(clock=fake_clock)
    fake_pcsc.add("SCM SCR3310 00 00")
    with pytest.raises(HalDeviceError, match=r"named like 'acr122'.*SCM SCR3310"):
        PcscReader(reader_name="acr122", clock=fake_clock)
    fake_pcsc.running = False
    with pytest.raises(HalDeviceError, match=r"cannot reach pcscd.*apt install pcscd"):
        PcscReader(clock=fake_clock)
    mocker.patch.dict(sys.modules, {"smartcard": None, "smartcard.System": None})
    with pytest.raises(BackendUnavailableError, match=r"banquier\[pcsc\]"):
        PcscReader(clock=fake_clock)
