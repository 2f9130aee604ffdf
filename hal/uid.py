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

from hal.errors import InvalidUidError

__all__ = ["UID_LENGTHS", "normalize_uid", "uid_from_bytes", "bcc", "crc_a"]

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
