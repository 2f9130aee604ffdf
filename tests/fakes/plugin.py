"""pytest fixtures over the fakes, reusable by any test folder.

Register once in a root ``conftest.py``::

    pytest_plugins = ["tests.fakes.plugin"]

(``tests/conftest.py`` does.) Fixtures:

* ``fake_clock``: a ``FakeClock`` (call it for seconds, ``advance(s)`` to move it).
* ``fake_gpio``: a ``FakeGPIO`` installed as ``RPi.GPIO`` (pin history, rules of the real library).
* ``fake_mfrc522``: a ``FakeMFRC522`` chip on ``/dev/spidev0.0`` (fake ``spidev``), its reset wired to
  header pin 22 of ``fake_gpio``; ``fake_mfrc522.bus`` is the ``FakeSpiBus``.
* ``make_rc522_reader``: ``make_rc522_reader(**options)`` builds a real ``Mfrc522Reader`` (running the
  real ``mfrc522`` package) on the fake chip, with ``fake_clock`` and the chip's virtual time.
* ``fake_serial``: a ``FakeSerialWorld`` installed as ``serial``; ``fake_serial.add(path)`` makes a port.
* ``fake_evdev``: a ``FakeEvdevWorld`` installed as ``evdev``; ``fake_evdev.add(path, name)`` makes a USB reader
  that types card numbers.
* ``fake_pn532``: a ``FakePn532World`` installed as ``adafruit_pn532`` (and Blinka's ``board``, ``busio``,
  ``digitalio``); ``enter(uid)``/``leave(uid)`` a card.
* ``fake_pcsc``: a ``FakePcscWorld`` installed as pyscard's ``smartcard``; ``add(name)`` plugs a reader in.
* ``sim_reader``, ``sim_beeper``, ``sim_buttons``: the simulator backends on ``fake_clock`` (silent).
"""

from __future__ import annotations

import os
import sys

import pytest

from hal import advice, rpi_gpio
from hal.buttons import SimButtons
from hal.sim_beeper import SimBeeper
from hal.sim_reader import SimReader
from tests.fakes.clock import FakeClock
from tests.fakes.fake_evdev import FakeEvdevWorld
from tests.fakes.fake_gpio import FakeGPIO
from tests.fakes.fake_mfrc522 import FakeMFRC522
from tests.fakes.fake_pcsc import FakePcscWorld
from tests.fakes.fake_pn532 import FakePn532World
from tests.fakes.fake_serial import FakeSerialWorld
from tests.fakes.fake_spidev import FakeSpiBus
from tests.fakes.install import purge_mfrc522, vendor_modules

__all__ = ["fake_clock", "fake_gpio", "fake_mfrc522", "make_rc522_reader", "fake_serial", "fake_evdev", "fake_pn532",
           "fake_pcsc", "sim_reader", "sim_beeper", "sim_buttons"]


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def fake_gpio(mocker, tmp_path_factory):
    gpio = FakeGPIO()
    # A Pi's /dev/gpiomem is there, crw-rw---- root:gpio (its absence is a kernel without the driver, which has
    # its own advice), and this process is not in the group gpio.
    gpiomem = tmp_path_factory.mktemp("dev") / "gpiomem"
    gpiomem.touch()
    mocker.patch.object(rpi_gpio, "GPIOMEM", str(gpiomem))
    real_stat, gpio_gid = advice._stat, 60993
    mocker.patch.object(advice, "_stat", lambda path: os.stat_result(
        (0o20660, 0, 0, 1, 0, gpio_gid, 0, 0, 0, 0)) if str(path) == str(gpiomem) else real_stat(path))
    real_name = advice._group_name
    mocker.patch.object(advice, "_group_name", lambda gid: "gpio" if gid == gpio_gid else real_name(gid))
    mocker.patch.dict(sys.modules, vendor_modules(gpio=gpio))
    purge_mfrc522()
    rpi_gpio.forget_all()
    yield gpio
    rpi_gpio.forget_all()


@pytest.fixture
def fake_mfrc522(fake_gpio, mocker) -> FakeMFRC522:
    chip = FakeMFRC522()
    bus = FakeSpiBus({(0, 0): chip})
    mocker.patch.dict(sys.modules, vendor_modules(spi=bus))
    purge_mfrc522()
    fake_gpio.watch(22, chip.reset_pin_changed)
    chip.bus = bus
    chip.gpio = fake_gpio
    return chip


@pytest.fixture
def make_rc522_reader(fake_mfrc522, fake_clock):
    from hal.mfrc522_reader import Mfrc522Reader

    made = []

    def make(**options) -> Mfrc522Reader:
        options.setdefault("clock", fake_clock)
        options.setdefault("wait", fake_mfrc522.advance)
        reader = Mfrc522Reader(**options)
        made.append(reader)
        return reader

    yield make
    for reader in made:
        reader.close()


@pytest.fixture
def fake_serial(mocker) -> FakeSerialWorld:
    world = FakeSerialWorld()
    mocker.patch.dict(sys.modules, vendor_modules(serial=world))
    return world


@pytest.fixture
def fake_evdev(mocker) -> FakeEvdevWorld:
    world = FakeEvdevWorld()
    mocker.patch.dict(sys.modules, vendor_modules(evdev=world))
    return world


@pytest.fixture
def fake_pn532(mocker) -> FakePn532World:
    world = FakePn532World()
    mocker.patch.dict(sys.modules, world.modules)
    return world


@pytest.fixture
def fake_pcsc(mocker) -> FakePcscWorld:
    world = FakePcscWorld()
    mocker.patch.dict(sys.modules, world.modules)
    return world


@pytest.fixture
def sim_reader(fake_clock):
    reader = SimReader(clock=fake_clock)
    yield reader
    reader.close()


@pytest.fixture
def sim_beeper(fake_clock):
    beeper = SimBeeper(audio=False, clock=fake_clock)
    yield beeper
    beeper.close()


@pytest.fixture
def sim_buttons(fake_clock):
    buttons = SimButtons(clock=fake_clock)
    yield buttons
    buttons.close()
