"""Fake pyscard (``smartcard.System``, ``smartcard.Exceptions``) over a fake pcscd: USB readers with a card or
none, failing as pyscard does.

``FakePcscWorld.add(name)`` plugs a reader in; ``reader.card = "04A1B2C3"`` puts a card on it (None: none);
``reader.missed`` drops that many answers (the card did not answer in time: status 63 00); ``reader.garbled``
makes that many exchanges fail mid-way (``CardConnectionException``); ``unplug()`` / ``replug()`` take the
reader off pcscd's list and back; ``world.running = False`` is pcscd stopped (``readers()`` raises
``EstablishContextException``).
"""

from __future__ import annotations

import types


class SmartcardException(Exception):
    pass


class CardConnectionException(SmartcardException):
    pass


class NoCardException(SmartcardException):
    pass


class EstablishContextException(SmartcardException):
    pass


class FakePcscReader:
    def __init__(self, world: FakePcscWorld, name: str) -> None:
        self.world, self.name = world, name
        self.card: str | None = None
        self.missed = 0
        self.garbled = 0
        self.plugged = True
        self.connections = 0

    def __str__(self) -> str:
        return self.name

    def unplug(self) -> None:
        self.plugged = False

    def replug(self) -> None:
        self.plugged = True

    def createConnection(self):
        return FakeConnection(self)


class FakeConnection:
    def __init__(self, reader: FakePcscReader) -> None:
        self.reader = reader
        self.open = False

    def connect(self) -> None:
        reader = self.reader
        if not reader.plugged:
            raise CardConnectionException(f"Unable to connect with protocol: T0 or T1. {reader.name}: Unknown reader")
        if reader.card is None:
            raise NoCardException("Unable to connect: Card is not present")
        reader.connections += 1
        self.open = True

    def transmit(self, apdu):
        reader = self.reader
        if not self.open:
            raise CardConnectionException("Card not connected")
        if reader.garbled:
            reader.garbled -= 1
            raise CardConnectionException("Failed to transmit with protocol T1. Transaction failed.")
        if reader.missed:
            reader.missed -= 1
            return [], 0x63, 0x00
        if list(apdu) != [0xFF, 0xCA, 0x00, 0x00, 0x00]:
            return [], 0x6A, 0x81
        return list(bytes.fromhex(reader.card)), 0x90, 0x00

    def disconnect(self) -> None:
        self.open = False


class FakePcscWorld:
    def __init__(self) -> None:
        self.readers: list[FakePcscReader] = []
        self.running = True
        self.modules = self._make_modules()

    def add(self, name: str = "ACS ACR122U PICC Interface 00 00") -> FakePcscReader:
        reader = FakePcscReader(self, name)
        self.readers.append(reader)
        return reader

    def _make_modules(self) -> dict[str, types.ModuleType]:
        world = self
        package = types.ModuleType("smartcard")
        package.__path__ = []
        system = types.ModuleType("smartcard.System")

        def readers():
            if not world.running:
                raise EstablishContextException("Failed to establish context: Service not available. (0x8010001D)")
            return [r for r in world.readers if r.plugged]

        system.readers = readers
        exceptions = types.ModuleType("smartcard.Exceptions")
        for cls in (SmartcardException, CardConnectionException, NoCardException):
            setattr(exceptions, cls.__name__, cls)
        return {"smartcard": package, "smartcard.System": system, "smartcard.Exceptions": exceptions}
