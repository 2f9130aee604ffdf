"""Fake ``adafruit_pn532`` (Adafruit's CircuitPython PN532 library) and Blinka's ``board``, ``busio`` and
``digitalio``: a PN532 board with a field of ISO 14443A cards, failing as the library does.

``FakePn532World.enter(uid)`` / ``leave(uid)`` put a card in the field and take it away; ``missed`` makes that
many scans see no card although one rests; ``garbled`` makes that many scans fail with the library's
checksum error; ``disconnect()`` makes every call fail as a board that stopped answering does (I²C's
``OSError`` Remote I/O error, or ``RuntimeError`` "Did not receive expected ACK" on SPI and the UART),
``reconnect()`` brings it back. The library's objects record the calls: ``world.made`` (each interface object,
with its bus), ``world.scans``.
"""

from __future__ import annotations

import errno
import types


class FakePn532World:
    def __init__(self) -> None:
        self.field: list[bytes] = []
        self.missed = 0
        self.garbled = 0
        self.connected = True
        self.permitted = True
        self.made: list[FakePn532] = []
        self.scans = 0
        self.timeouts: list[float] = []
        self.modules = self._make_modules()

    def enter(self, uid: str) -> None:
        self.field.append(bytes.fromhex(uid))

    def leave(self, uid: str) -> None:
        self.field.remove(bytes.fromhex(uid))

    def disconnect(self) -> None:
        self.connected = False

    def reconnect(self) -> None:
        self.connected = True

    def _make_modules(self) -> dict[str, types.ModuleType]:
        world = self
        board = types.ModuleType("board")
        for name in ("SCL", "SDA", "SCK", "MOSI", "MISO"):
            setattr(board, name, f"board.{name}")
        for n in range(28):
            setattr(board, f"D{n}", f"board.D{n}")
        busio = types.ModuleType("busio")

        class Bus:
            def __init__(self, *pins):
                if not world.permitted:
                    raise PermissionError(errno.EACCES, "Permission denied", "/dev/i2c-1")
                self.pins, self.closed = pins, False

            def deinit(self):
                self.closed = True

        busio.I2C = type("I2C", (Bus,), {})
        busio.SPI = type("SPI", (Bus,), {})
        digitalio = types.ModuleType("digitalio")
        digitalio.DigitalInOut = lambda pin: ("DigitalInOut", pin)
        package = types.ModuleType("adafruit_pn532")
        package.__path__ = []
        modules = {"board": board, "busio": busio, "digitalio": digitalio, "adafruit_pn532": package}
        for interface, cls in (("i2c", "PN532_I2C"), ("spi", "PN532_SPI"), ("uart", "PN532_UART")):
            module = types.ModuleType(f"adafruit_pn532.{interface}")

            def make(*args, _interface=interface, debug=False, **kwargs):
                chip = FakePn532(world, _interface, args)
                world.made.append(chip)
                return chip

            setattr(module, cls, make)
            modules[module.__name__] = module
        return modules


class FakePn532:
    def __init__(self, world: FakePn532World, interface: str, args: tuple) -> None:
        self.world, self.interface, self.args = world, interface, args
        self.configured = False

    def _answer(self) -> None:
        if not self.world.connected:
            if self.interface == "i2c":
                raise OSError(errno.EREMOTEIO, "Remote I/O error")
            raise RuntimeError("Did not receive expected ACK from PN532!")

    @property
    def firmware_version(self) -> tuple[int, int, int, int]:
        self._answer()
        return (0x32, 1, 6, 7)

    def SAM_configuration(self) -> None:
        self._answer()
        self.configured = True

    def read_passive_target(self, card_baud: int = 0, timeout: float = 1) -> bytearray | None:
        self._answer()
        world = self.world
        world.scans += 1
        world.timeouts.append(timeout)
        if not self.configured:
            raise RuntimeError("SAM_configuration was not called")
        if world.garbled:
            world.garbled -= 1
            raise RuntimeError("Response checksum did not match expected value")
        if world.missed:
            world.missed -= 1
            return None
        return bytearray(world.field[0]) if world.field else None
