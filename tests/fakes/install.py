"""Put fakes into ``sys.modules`` for the duration of a ``with`` block (scripts, subprocesses).

pytest code should use the fixtures of ``tests.fakes.plugin`` instead, which do the same with
pytest-mock. The ``mfrc522`` package binds ``RPi.GPIO`` and ``spidev`` when it is imported, so it is
dropped from ``sys.modules`` here and re-imported against the fakes.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from unittest import mock

from hal import rpi_gpio


def vendor_modules(gpio=None, spi=None, serial=None, evdev=None) -> dict:
    """The ``sys.modules`` entries that replace the vendor libraries with the given fakes."""
    modules = {}
    if gpio is not None:
        modules["RPi"] = gpio.package()
        modules["RPi.GPIO"] = gpio.module
    if spi is not None:
        modules["spidev"] = spi.module
    if serial is not None:
        modules["serial"] = serial.module
    if evdev is not None:
        modules["evdev"] = evdev.module
    return modules


def purge_mfrc522() -> None:
    """Forget an imported ``mfrc522`` package so its next import binds the current fakes."""
    for name in [n for n in sys.modules if n == "mfrc522" or n.startswith("mfrc522.")]:
        del sys.modules[name]


@contextmanager
def installed(gpio=None, spi=None, serial=None):
    """``with installed(gpio=FakeGPIO(), spi=FakeSpiBus(...)):`` runs the real backends on fakes."""
    with mock.patch.dict(sys.modules, vendor_modules(gpio, spi, serial)):
        purge_mfrc522()
        rpi_gpio.forget_all()
        try:
            yield
        finally:
            rpi_gpio.forget_all()
