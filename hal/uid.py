"""Card UIDs as text, and the two checksums of ISO/IEC 14443-3 type A.

A UID is always the hex of the card's real bytes, upper case, without separators:
``"04A1B2C3"`` (4 bytes, MIFARE Classic), ``"04A1B2C3D4E5F6"`` (7 bytes, NTAG / Ultralight stickers),
10 bytes for triple-size UIDs, and 5 bytes for 125 kHz EM4100 tags read by an RDM6300. The cascade tag
(0x88) and the BCC checksum byte are never part of a UID (field-notes 5), and UIDs are compared as these
strings only, never as integers made by some library.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from hal.errors import InvalidUidError

__all__ = ["UID_LENGTHS", "UID_ORDERS", "UID_DIGITS", "UidForm", "normalize_uid", "uid_from_bytes", "reversed_uid",
           "bcc", "crc_a"]

#: Byte lengths a UID may have: 4/7/10 (ISO 14443A single/double/triple size), 5 (EM4100, 125 kHz).
UID_LENGTHS = (4, 5, 7, 10)

_SEPARATORS = re.compile(r"[\s:\-.]")
_HEX = re.compile(r"[0-9A-F]+")


def normalize_uid(text: str) -> str:
    """Return the canonical form of a UID typed by a person or printed by a reader.

    Accepts upper or lower case, an optional ``0x`` prefix, and ``:``, ``-``, ``.`` or blanks between
    digits: ``"04:a1:b2:c3"`` -> ``"04A1B2C3"``.

    Raises:
        InvalidUidError: not hex, an odd number of digits, or not 4, 5, 7 or 10 bytes long.
    """
    if not isinstance(text, str):
        raise InvalidUidError(f"a UID must be text such as '04A1B2C3', not {type(text).__name__}")
    cleaned = _SEPARATORS.sub("", text).upper()
    if cleaned.startswith("0X"):
        cleaned = cleaned[2:]
    if not cleaned or not _HEX.fullmatch(cleaned):
        raise InvalidUidError(f"{text!r} is not a card UID: use hex digits such as '04A1B2C3'")
    if len(cleaned) % 2 or len(cleaned) // 2 not in UID_LENGTHS:
        raise InvalidUidError(
            f"{text!r} is {len(cleaned) / 2:g} bytes long; a card UID has 4, 5, 7 or 10 bytes"
        )
    return cleaned


def uid_from_bytes(data: Iterable[int]) -> str:
    """Return the canonical UID text of raw UID bytes (each 0..255; 4, 5, 7 or 10 of them).

    Raises:
        InvalidUidError: a byte out of range or a length that no UID has.
    """
    raw = list(data)
    if any(not isinstance(b, int) or not 0 <= b <= 0xFF for b in raw):
        raise InvalidUidError(f"UID bytes must be integers 0..255, got {raw!r}")
    if len(raw) not in UID_LENGTHS:
        raise InvalidUidError(f"a UID has 4, 5, 7 or 10 bytes, got {len(raw)}")
    return bytes(raw).hex().upper()


def bcc(data: Iterable[int]) -> int:
    """Return the Block Check Character of ISO 14443-3: the XOR of the bytes (0..255)."""
    value = 0
    for b in data:
        value ^= b
    return value & 0xFF


def crc_a(data: Iterable[int]) -> bytes:
    """Return CRC_A of ISO 14443-3 (polynomial x^16+x^12+x^5+1, preset 0x6363), low byte first.

    This is what the MFRC522's coprocessor computes with ModeReg CRCPreset = 01 (0x6363), and what a
    card appends to its SAK. ``crc_a(b"\\x00\\x00") == b"\\xa0\\x1e"``.
    """
    crc = 0x6363
    for b in data:
        b = (b ^ (crc & 0xFF)) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


#: How a reader orders a UID's bytes: ``sent`` (the card's own order, the first byte it sends first: what
#: ISO 14443-3 anticollision gives, and every chip reader here) or ``reversed`` (the last byte first: many
#: USB readers that type a number, which print the UID as a little-endian integer).
UID_ORDERS = ("sent", "reversed")
#: How a reader writes the number: ``hex`` (two digits a byte), ``decimal`` (a number, 10 digits for 4 bytes,
#: leading zeros kept or not) or ``auto`` (10 decimal digits and nothing else is decimal, anything else hex).
UID_DIGITS = ("hex", "decimal", "auto")


def reversed_uid(uid: str) -> str:
    """The canonical UID with its bytes in the other order: ``"04A1B2C3"`` -> ``"C3B2A104"``."""
    uid = normalize_uid(uid)
    return "".join(reversed([uid[i:i + 2] for i in range(0, len(uid), 2)]))


def _bytes_of_number(value: int, text: str) -> bytes:
    for size in UID_LENGTHS:
        if value < 1 << (8 * size):
            return value.to_bytes(size, "big")
    raise InvalidUidError(f"{text!r} is too large a number for a card UID (at most 10 bytes)")


@dataclass(frozen=True, slots=True)
class UidForm:
    """How one reader writes a UID, and the way back to the canonical form (the hex of the card's bytes in the
    order it sends them, :func:`normalize_uid`).

    ``order``: one of :data:`UID_ORDERS`; ``digits``: one of :data:`UID_DIGITS`. A decimal number is read as the
    fewest bytes of :data:`UID_LENGTHS` that hold it (4 up to 4 294 967 295, then 5, 7, 10), most significant
    first; so a 10-digit ``"0012345678"`` is 4 bytes ``00BC614E``, and its leading zeros do not matter.

    Raises:
        ValueError: an order or digits that is not one of the above.
    """

    order: str = "sent"
    digits: str = "hex"

    def __post_init__(self) -> None:
        if self.order not in UID_ORDERS:
            raise ValueError(f"UID order {self.order!r}: use one of {', '.join(UID_ORDERS)}")
        if self.digits not in UID_DIGITS:
            raise ValueError(f"UID digits {self.digits!r}: use one of {', '.join(UID_DIGITS)}")

    def is_decimal(self, text: str) -> bool:
        """Whether ``text`` (digits as the reader wrote them) is read as a decimal number in this form."""
        cleaned = _SEPARATORS.sub("", text)
        if self.digits == "auto":
            return len(cleaned) == 10 and cleaned.isascii() and cleaned.isdigit()
        return self.digits == "decimal"

    def canonical(self, text: str) -> str:
        """The canonical UID of ``text`` as this reader writes it.

        Raises:
            InvalidUidError: not a number in this form, or a length no UID has.
        """
        if self.is_decimal(text):
            cleaned = _SEPARATORS.sub("", text)
            if not cleaned or not (cleaned.isascii() and cleaned.isdigit()):
                raise InvalidUidError(f"{text!r} is not a card number: use decimal digits such as '0012345678'")
            raw = _bytes_of_number(int(cleaned), text)
            uid = raw.hex().upper()
        else:
            uid = normalize_uid(text)
        return reversed_uid(uid) if self.order == "reversed" else uid

    def write(self, uid: str) -> str:
        """How this reader writes the canonical ``uid`` (decimal: 10 digits with leading zeros for 4 bytes, as
        the USB readers type it). ``canonical(write(uid)) == uid`` for every UID whose decimal form is not
        shorter in bytes (a decimal UID whose first byte is 00 comes back shorter: refused at enrolment).

        Raises:
            InvalidUidError: ``uid`` is not a UID.
        """
        uid = normalize_uid(uid)
        ordered = reversed_uid(uid) if self.order == "reversed" else uid
        if self.digits == "decimal" or (self.digits == "auto" and len(ordered) == 8):
            return f"{int(ordered, 16):010d}" if len(ordered) == 8 else str(int(ordered, 16))
        return ordered
