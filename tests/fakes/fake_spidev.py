"""A fake ``spidev`` module whose devices are emulated chips (``FakeMFRC522``).

``FakeSpiBus`` is the machine: which ``/dev/spidevB.D`` exist and whether the user may open them.
``bus.module`` is the module to put in ``sys.modules["spidev"]``. Opening a device that does not exist
raises ``FileNotFoundError`` as the real ``spidev`` does when SPI is not enabled (field-notes 7).
"""

from __future__ import annotations

import errno
import types


class FakeSpiBus:
    """The SPI devices of a fake machine.

    Args:
        devices: ``{(bus, device): chip}``; a chip has ``transfer(list) -> list`` and ``speed_hz``.
        permission_denied: opening any device raises PermissionError (user not in group spi).
    """

    def __init__(self, devices: dict | None = None, *, permission_denied: bool = False) -> None:
        self.devices = dict(devices or {})
        self.permission_denied = permission_denied
        self.opened: list[tuple[int, int]] = []
        self.closed: list[tuple[int, int]] = []
        self.module = self._make_module()

    def _make_module(self) -> types.ModuleType:
        module = types.ModuleType("spidev")
        bus = self

        class SpiDev(FakeSpiDev):
            def __init__(self, *args):
                super().__init__(bus, *args)

        module.SpiDev = SpiDev
        module.FAKE = self
        return module


class FakeSpiDev:
    """``spidev.SpiDev``: open/close, mode, max_speed_hz, xfer/xfer2/writebytes/readbytes."""

    def __init__(self, bus: FakeSpiBus, *args) -> None:
        self._bus = bus
        self._chip = None
        self._address = None
        self.mode = 0
        self.bits_per_word = 8
        self._speed = 500_000
        if args:
            self.open(*args)

    def open(self, bus: int, device: int) -> None:
        path = f"/dev/spidev{bus}.{device}"
        if (bus, device) not in self._bus.devices:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory")
        if self._bus.permission_denied:
            raise PermissionError(errno.EACCES, "Permission denied")
        self._chip = self._bus.devices[(bus, device)]
        self._address = (bus, device)
        self._bus.opened.append((bus, device))
        self.path = path

    def close(self) -> None:
        if self._chip is not None:
            self._bus.closed.append(self._address)
        self._chip = None

    @property
    def max_speed_hz(self) -> int:
        return self._speed

    @max_speed_hz.setter
    def max_speed_hz(self, value: int) -> None:
        self._speed = int(value)
        if self._chip is not None:
            self._chip.speed_hz = self._speed

    def _need_open(self):
        if self._chip is None:
            raise OSError(errno.EBADF, "Bad file descriptor")
        self._chip.speed_hz = self._speed
        return self._chip

    def xfer2(self, data, *args) -> list[int]:
        return self._need_open().transfer(list(data))

    def xfer(self, data, *args) -> list[int]:
        return self._need_open().transfer(list(data))

    def writebytes(self, data) -> None:
        self._need_open().transfer(list(data))

    def readbytes(self, count: int) -> list[int]:
        self._need_open()
        return [0] * count
