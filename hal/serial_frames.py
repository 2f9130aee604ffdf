"""Parsers for the byte streams of serial card readers. Pure: bytes in, reads out, no I/O.

* ``Rdm6300Parser``: the RDM6300 125 kHz module's frames at 9600 baud: ``0x02``, ten ASCII hex digits
  (the EM4100 tag's 5 bytes), two ASCII hex digits of checksum (XOR of the 5 bytes), ``0x03``. The
  stream starts mid-frame, arrives in arbitrary chunks and carries noise (field-notes 10): the parser
  resynchronises on the start byte, never on line ends, and a frame counts only when its end byte,
  digits and checksum are all right.
* ``LineParser``: boards that print one UID in hex per line (``04A1B2C3``, ``04:a1:b2:c3``,
  ``UID: 04 A1 B2 C3``), as many USB and PN532-based readers do.

``feed(data)`` returns a list of ``Read`` results: a UID read cleanly, or a garbled frame (structurally
complete, wrong checksum), which the reader counts as "a card is there" without believing its UID.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from hal.errors import InvalidUidError
from hal.uid import UidForm, bcc, normalize_uid

__all__ = ["Read", "FrameParser", "Rdm6300Parser", "LineParser", "rdm6300_frame"]

STX, ETX = 0x02, 0x03
FRAME_LENGTH = 14
_HEX_DIGITS = frozenset(b"0123456789ABCDEFabcdef")


@dataclass(frozen=True, slots=True)
class Read:
    """One result: ``uid`` (canonical hex) for a clean read, or ``garbled`` = True."""

    uid: str | None = None
    garbled: bool = False


class FrameParser(Protocol):
    """What a serial reader needs of a parser: ``feed`` and the ``noise`` count (both parsers below)."""

    noise: int

    def feed(self, data: bytes) -> list[Read]: ...


def rdm6300_frame(uid: str, *, checksum: int | None = None) -> bytes:
    """Build the frame an RDM6300 sends for a 5-byte UID (for tests, tools and the simulator).

    ``checksum`` overrides the right one (to make a bad frame). Raises InvalidUidError.
    """
    data = bytes.fromhex(normalize_uid(uid))
    if len(data) != 5:
        raise InvalidUidError(f"an RDM6300 (EM4100) UID has 5 bytes, {uid!r} has {len(data)}")
    value = bcc(data) if checksum is None else checksum
    return bytes([STX]) + data.hex().upper().encode() + f"{value:02X}".encode() + bytes([ETX])


class Rdm6300Parser:
    """Streaming parser of RDM6300 frames. ``noise`` counts bytes thrown away while resynchronising."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self.noise = 0

    def feed(self, data: bytes) -> list[Read]:
        buffer = self._buffer
        buffer += data
        reads: list[Read] = []
        while True:
            start = buffer.find(STX)
            if start < 0:
                self.noise += len(buffer)
                buffer.clear()
                break
            if start:
                self.noise += start
                del buffer[:start]
            # Reject as early as possible: a non-hex byte inside the frame means we locked on noise.
            body = buffer[1:min(len(buffer), FRAME_LENGTH - 1)]
            bad = next((i for i, b in enumerate(body) if b not in _HEX_DIGITS), None)
            if bad is not None:
                self.noise += 1
                del buffer[:1]
                continue
            if len(buffer) < FRAME_LENGTH:
                break
            if buffer[FRAME_LENGTH - 1] != ETX:
                self.noise += 1
                del buffer[:1]
                continue
            frame = bytes(buffer[:FRAME_LENGTH])
            del buffer[:FRAME_LENGTH]
            payload = bytes.fromhex(frame[1:11].decode())
            if bcc(payload) != int(frame[11:13].decode(), 16):
                reads.append(Read(garbled=True))
            else:
                reads.append(Read(uid=payload.hex().upper()))
        return reads


_DIGITS_AT_END = re.compile(r"(?<![0-9A-Fa-f])([0-9]+)$")
_UID_IN_LINE = re.compile(
    r"(?:0x)?([0-9A-Fa-f]{2}(?:[ :\-]?[0-9A-Fa-f]{2}){3,9})\s*$"
)


class LineParser:
    """Streaming parser of one-UID-per-line output (``\\n``, ``\\r\\n`` or ``\\r`` line ends).

    A line without a 4, 5, 7 or 10 byte hex UID at its end is noise (a banner, a prompt); a line longer
    than ``max_line`` characters is dropped whole. ``form`` says how the reader writes the UID (default: hex in
    the card's own order); a decimal form reads the run of digits at the line's end as the number.
    """

    def __init__(self, max_line: int = 128, form: UidForm | None = None) -> None:
        self._form = form or UidForm()
        self._buffer = bytearray()
        self._max_line = max_line
        self._overflow = False
        self.noise = 0

    def feed(self, data: bytes) -> list[Read]:
        reads: list[Read] = []
        for byte in data:
            if byte in (0x0A, 0x0D):
                if self._buffer and not self._overflow:
                    read = self._parse(bytes(self._buffer))
                    if read is None:
                        self.noise += 1
                    else:
                        reads.append(read)
                self._buffer.clear()
                self._overflow = False
            elif len(self._buffer) >= self._max_line:
                if not self._overflow:
                    self.noise += 1
                self._overflow = True
            else:
                self._buffer.append(byte)
        return reads

    def _parse(self, line: bytes) -> Read | None:
        text = line.decode("ascii", errors="replace").strip()
        number = _DIGITS_AT_END.search(text)
        if number is not None and self._form.is_decimal(number.group(1)):
            try:
                return Read(uid=self._form.canonical(number.group(1)))
            except InvalidUidError:
                return None
        match = _UID_IN_LINE.search(text)
        if match is None:
            return None
        try:
            return Read(uid=self._form.canonical(normalize_uid(match.group(1))) if self._form.order != "sent"
                        else normalize_uid(match.group(1)))
        except InvalidUidError:
            return None
