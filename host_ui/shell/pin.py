"""The banker PIN as a secret: stored as a salted scrypt hash, compared in constant time, slowed down after
wrong tries.

- :func:`hash_pin` makes the stored form ``scrypt$<n>$<r>$<p>$<salt hex>$<hash hex>`` (the configuration's
  ``[game] banker_pin_hash``); the PIN itself is never stored. ``sudo banquier pin set`` writes it
  (:func:`set_pin_in_config`: the configuration is root-owned, the service cannot write it).
- :class:`PinCheck` is what the terminal compares a typed PIN with (it is the table's
  :class:`terminal.table.settings.BankerPin`): :meth:`PinCheck.matches` compares the hash of the typed digits
  against the stored one with :func:`hmac.compare_digest`. After 3 wrong tries in a row every try waits: a try
  during the wait is refused whatever it is (so a right PIN after thousands of wrong ones does not open the
  banker menu), and the wait doubles with each further wrong try (1 s, 2 s, 4 s ... at most 5 minutes). Each
  wrong try is logged.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
import stat
import time
from collections.abc import Callable
from pathlib import Path

from host_ui.shell.outputs import replace_text_durably

__all__ = ["hash_pin", "is_pin_hash", "PinCheck", "set_pin_in_config", "valid_pin", "FREE_TRIES", "MAX_WAIT_S"]

log = logging.getLogger("banquier")

SCRYPT_N, SCRYPT_R, SCRYPT_P, SALT_BYTES, HASH_BYTES = 2 ** 14, 8, 1, 16, 32
FREE_TRIES = 3
FIRST_WAIT_S = 1.0
MAX_WAIT_S = 300.0
_FORMAT = re.compile(r"scrypt\$(\d{1,7})\$(\d{1,3})\$(\d{1,3})\$([0-9a-f]{16,128})\$([0-9a-f]{32,128})")


def valid_pin(pin: str) -> bool:
    """4 to 8 ASCII digits."""
    return isinstance(pin, str) and pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 8


def _derive(pin: str, salt: bytes, n: int, r: int, p: int, length: int) -> bytes:
    return hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=length, maxmem=256 * 1024 * 1024)


def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    """The stored form of ``pin`` (a new random salt each time). Raises ValueError for a PIN that is not 4 to
    8 digits."""
    if not valid_pin(pin):
        raise ValueError("a banker PIN is 4 to 8 digits")
    salt = salt if salt is not None else secrets.token_bytes(SALT_BYTES)
    digest = _derive(pin, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P, HASH_BYTES)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def is_pin_hash(text: str) -> bool:
    """Whether ``text`` has the stored form (parameters in sane ranges)."""
    match = _FORMAT.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return False
    n, r, p = (int(g) for g in match.groups()[:3])
    return 2 <= n <= 2 ** 20 and n & (n - 1) == 0 and 1 <= r <= 32 and 1 <= p <= 16 \
        and len(match.group(4)) % 2 == 0 and len(match.group(5)) % 2 == 0


class PinCheck:
    """The stored PIN hash, as the terminal compares a typed PIN with it (see the module docstring).

    ``clock``: seconds, monotonic (tests inject one)."""

    def __init__(self, encoded: str, *, clock: Callable[[], float] = time.monotonic):
        if not is_pin_hash(encoded):
            raise ValueError("not a banker PIN hash (run `sudo banquier pin set`)")
        _, n, r, p, salt, digest = encoded.split("$")
        self._params = (int(n), int(r), int(p))
        self._salt = bytes.fromhex(salt)
        self._digest = bytes.fromhex(digest)
        self._clock = clock
        self.wrong_in_a_row = 0
        self._wait_until = 0.0
        self._wait = 0.0

    def wait_s(self) -> float:
        """Seconds before the next try is looked at (0 when a try may be made now), for the screen."""
        return max(0.0, self._wait_until - self._clock())

    def matches(self, typed: str) -> bool:
        """Whether ``typed`` is the PIN. Refused without a look while a wait is running."""
        if self.wait_s() > 0:
            log.warning("banker PIN tried during the wait after %d wrong tries: refused", self.wrong_in_a_row)
            return False
        candidate = typed if isinstance(typed, str) else ""
        n, r, p = self._params
        computed = _derive(candidate, self._salt, n, r, p, len(self._digest)) if candidate.isascii() \
            else secrets.token_bytes(len(self._digest))
        if hmac.compare_digest(computed, self._digest):
            self.wrong_in_a_row, self._wait = 0, 0.0
            return True
        self.wrong_in_a_row += 1
        if self.wrong_in_a_row >= FREE_TRIES:
            self._wait = FIRST_WAIT_S if self._wait == 0 else min(MAX_WAIT_S, self._wait * 2)
            self._wait_until = self._clock() + self._wait
        log.warning("wrong banker PIN (%d in a row)%s", self.wrong_in_a_row,
                    f"; next try in {self._wait:g} s" if self.wrong_in_a_row >= FREE_TRIES else "")
        return False

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "PinCheck(<salted hash>)"


_PIN_LINE = re.compile(r"^\s*banker_pin(_hash)?\s*=")
_TABLE_LINE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def set_pin_in_config(path: Path, pin: str, check: Callable[[str], object]) -> None:
    """Store the hash of ``pin`` as ``[game] banker_pin_hash`` in the configuration file ``path`` (created
    if missing), removing any plaintext ``banker_pin``; the rest of the file (comments included) is kept. The
    new text is checked with ``check(text)`` (raising for a configuration that would not load) before it
    replaces the old one (temporary file, fsync, rename, folder fsync; the
    file's mode is kept, a new file is 0640). Raises ValueError (bad PIN) or OSError."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    lines = text.splitlines()
    out: list[str] = []
    section = ""
    placed = False
    entry = f'banker_pin_hash = "{hash_pin(pin)}"'
    for line in lines:
        table = _TABLE_LINE.match(line)
        if table:
            if section == "game" and not placed:
                out.append(entry)
                placed = True
            section = table.group(1).strip()
        if section == "game" and _PIN_LINE.match(line):
            continue
        out.append(line)
    if not placed:
        if section == "game":
            out.append(entry)
        else:
            out += (["", "[game]"] if out else ["[game]"]) + [entry]
    new_text = "\n".join(out) + "\n"
    check(new_text)  # never write a configuration that would not load
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o640
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_text_durably(path, new_text, mode)
