"""The banker PIN as a secret: stored as a salted scrypt hash, compared in constant time, slowed down after
wrong tries, the slowing down kept on disk.

- :func:`hash_pin` makes the stored form ``scrypt$<n>$<r>$<p>$<salt hex>$<hash hex>`` (the configuration's
  ``[game] banker_pin_hash``); the PIN itself is never stored. ``sudo banquier pin set`` writes it
  (:func:`set_pin_in_config`: the configuration is root's, readable by the service's group, never by others:
  the hash of a 4-digit PIN falls to an offline search in minutes, so whoever can read it knows the PIN).
- :func:`is_pin_hash` accepts only parameters the terminal can afford: scrypt's memory (128 x r x (n + p + 2)
  bytes) at most :data:`MAX_MEMORY` and its work (n x r x p) at most :data:`MAX_WORK`, so a hash that the
  configuration accepts can never make a typed PIN fail (a hash with n = 2^20, r = 32 needs 4 GiB: refused when
  the configuration is read, with the command that makes a good one).
- :class:`PinCheck` is what the terminal compares a typed PIN with (it is the table's
  :class:`terminal.table.settings.BankerPin`): :meth:`PinCheck.matches` compares the hash of the typed digits
  against the stored one with :func:`hmac.compare_digest`. After 3 wrong tries in a row every try waits: a try
  during the wait is refused whatever it is (so a right PIN after thousands of wrong ones does not open the
  banker menu), and the wait doubles with each further wrong try (1 s, 2 s, 4 s ... at most 5 minutes). Each
  wrong try is logged. The count and the wait are kept in the data folder (``state_file``, written whole under
  a lock of its folder): a restart, a power cut or a second process does not give fresh tries. A new PIN
  (another hash) starts from none.

What a PIN protects against: a player at the table reaching the banker's menu (undo, adjustments, a new game,
card enrolment) by trying PINs on the screen. Not against someone who can read the device's files or take
its SD card: they can read the configuration, the games and the key anyway.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host_ui.shell.outputs import replace_text_durably
from terminal.bank.durable import make_directories, replace_durably

__all__ = ["hash_pin", "is_pin_hash", "PinCheck", "set_pin_in_config", "valid_pin", "FREE_TRIES", "MAX_WAIT_S",
           "MAX_MEMORY", "MAX_WORK", "PIN_STATE", "CONFIG_MODE"]

log = logging.getLogger("banquier")

SCRYPT_N, SCRYPT_R, SCRYPT_P, SALT_BYTES, HASH_BYTES = 2 ** 14, 8, 1, 16, 32
#: The most memory a stored hash may make scrypt use (bytes): 64 MiB (the default parameters use 16 MiB).
MAX_MEMORY = 64 * 1024 * 1024
#: The most work (n x r x p) a stored hash may ask: 8 times the default's, a few seconds on a Pi Zero 2.
MAX_WORK = 8 * SCRYPT_N * SCRYPT_R * SCRYPT_P
FREE_TRIES = 3
FIRST_WAIT_S = 1.0
MAX_WAIT_S = 300.0
#: The file of the data folder that keeps the wrong tries and the wait.
PIN_STATE = ".banker-pin-tries"
#: A configuration's mode after `pin set`: the owner writes, its group (the service's) reads, others nothing.
CONFIG_MODE = 0o640
_FORMAT = re.compile(r"scrypt\$(\d{1,7})\$(\d{1,3})\$(\d{1,3})\$([0-9a-f]{16,128})\$([0-9a-f]{32,128})")


def valid_pin(pin: str) -> bool:
    """4 to 8 ASCII digits."""
    return isinstance(pin, str) and pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 8


def scrypt_memory(n: int, r: int, p: int) -> int:
    """The bytes scrypt needs for these parameters (OpenSSL's own reckoning: 128 r (n + 2) + 128 r p)."""
    return 128 * r * (n + 2) + 128 * r * p


def _derive(pin: str, salt: bytes, n: int, r: int, p: int, length: int) -> bytes:
    return hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=length, maxmem=2 * MAX_MEMORY)


def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    """The stored form of ``pin`` (a new random salt each time). Raises ValueError for a PIN that is not 4 to
    8 digits."""
    if not valid_pin(pin):
        raise ValueError("a banker PIN is 4 to 8 digits")
    salt = salt if salt is not None else secrets.token_bytes(SALT_BYTES)
    digest = _derive(pin, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P, HASH_BYTES)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def is_pin_hash(text: str) -> bool:
    """Whether ``text`` has the stored form, with parameters the terminal can afford (module docstring): n a
    power of two from 2, r 1..32, p 1..16, memory at most :data:`MAX_MEMORY`, work at most :data:`MAX_WORK`."""
    match = _FORMAT.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return False
    n, r, p = (int(g) for g in match.groups()[:3])
    return 2 <= n <= 2 ** 20 and n & (n - 1) == 0 and 1 <= r <= 32 and 1 <= p <= 16 \
        and scrypt_memory(n, r, p) <= MAX_MEMORY and n * r * p <= MAX_WORK \
        and len(match.group(4)) % 2 == 0 and len(match.group(5)) % 2 == 0


class PinCheck:
    """The stored PIN hash, as the terminal compares a typed PIN with it (see the module docstring).

    ``clock``: wall-clock seconds (tests inject one). ``state_file``: where the wrong tries and the wait are kept
    (the data folder's :data:`PIN_STATE`; None: in memory only). A state file that cannot be read or written
    is logged once, and the tries are then counted in memory meanwhile."""

    def __init__(self, encoded: str, *, clock: Callable[[], float] = time.time, state_file: Path | None = None):
        if not is_pin_hash(encoded):
            raise ValueError("not a banker PIN hash (run `sudo banquier pin set`)")
        _, n, r, p, salt, digest = encoded.split("$")
        self._params = (int(n), int(r), int(p))
        self._salt = bytes.fromhex(salt)
        self._digest = bytes.fromhex(digest)
        self._id = hashlib.sha256(encoded.encode("ascii")).hexdigest()[:16]  # which PIN the state is about
        self._clock = clock
        self.state_file = Path(state_file) if state_file is not None else None
        self.wrong_in_a_row = 0
        self._wait_until = 0.0
        self._wait = 0.0
        self._state_problem: str | None = None

    # -- the state on disk -------------------------------------------------------------------------------
    def _load(self) -> None:
        """Take the state from the file (another process's tries count too); a missing or foreign one is none."""
        if self.state_file is None:
            return
        try:
            fd = os.open(self.state_file, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
        except FileNotFoundError:
            return
        except OSError as exc:
            self._problem(exc)
            return
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(f"{self.state_file} is not a regular file")
            data: Any = json.loads(os.read(fd, 4096).decode("utf-8"))
        except (OSError, ValueError) as exc:
            self._problem(exc)
            return
        finally:
            os.close(fd)
        if not isinstance(data, dict) or data.get("pin") != self._id:
            return  # another PIN's tries (a new one was set): none for this one
        try:
            wrong, wait, until = int(data["wrong"]), float(data["wait"]), float(data["until"])
        except (KeyError, TypeError, ValueError):
            return
        wait = min(max(wait, 0.0), MAX_WAIT_S)
        self.wrong_in_a_row, self._wait = max(wrong, self.wrong_in_a_row), max(wait, self._wait)
        self._wait_until = max(self._wait_until, until)

    def _save(self) -> None:
        if self.state_file is None:
            return
        text = json.dumps({"pin": self._id, "wrong": self.wrong_in_a_row, "wait": self._wait,
                           "until": self._wait_until}) + "\n"
        try:
            make_directories(self.state_file.parent)
            replace_durably(self.state_file, text.encode("utf-8"), 0o600)
        except OSError as exc:
            self._problem(exc)
            return
        self._state_problem = None

    def _problem(self, exc: BaseException) -> None:
        text = f"the banker PIN's wrong tries cannot be kept in {self.state_file}: {exc} (counted in memory)"
        if text != self._state_problem:
            log.error("%s", text)
        self._state_problem = text

    @contextlib.contextmanager
    def _locked(self) -> Any:
        """The state file's folder locked for one try (two processes never count the same try twice)."""
        fd = None
        if self.state_file is not None:
            with contextlib.suppress(OSError):
                fd = os.open(self.state_file.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
                fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            if fd is not None:
                os.close(fd)

    # -- the checks ----------------------------------------------------------------------------------------
    def wait_s(self) -> float:
        """Seconds before the next try is looked at (0 when a try may be made now), for the screen."""
        self._load()
        now = self._clock()
        if self._wait_until - now > self._wait:  # the clock was set back: the wait never grows for it
            self._wait_until = now + self._wait
        return max(0.0, self._wait_until - now)

    def matches(self, typed: str) -> bool:
        """Whether ``typed`` is the PIN. Refused without a look while a wait is running."""
        with self._locked():
            return self._matches(typed)

    def _matches(self, typed: str) -> bool:
        if self.wait_s() > 0:
            log.warning("banker PIN tried during the wait after %d wrong tries: refused", self.wrong_in_a_row)
            return False
        candidate = typed if isinstance(typed, str) else ""
        n, r, p = self._params
        try:
            computed = _derive(candidate, self._salt, n, r, p, len(self._digest)) if candidate.isascii() \
                else secrets.token_bytes(len(self._digest))
        except (ValueError, MemoryError) as exc:  # never a stopped terminal; is_pin_hash keeps this from happening
            log.error("the banker PIN cannot be checked (%s): run `sudo banquier pin set` again", exc)
            computed = secrets.token_bytes(len(self._digest))
        if hmac.compare_digest(computed, self._digest):
            if self.wrong_in_a_row or self._wait:
                self.wrong_in_a_row, self._wait, self._wait_until = 0, 0.0, 0.0
                self._save()
            return True
        self.wrong_in_a_row += 1
        if self.wrong_in_a_row >= FREE_TRIES:
            self._wait = FIRST_WAIT_S if self._wait == 0 else min(MAX_WAIT_S, self._wait * 2)
            self._wait_until = self._clock() + self._wait
        self._save()
        log.warning("wrong banker PIN (%d in a row)%s", self.wrong_in_a_row,
                    f"; next try in {self._wait:g} s" if self.wrong_in_a_row >= FREE_TRIES else "")
        return False

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "PinCheck(<salted hash>)"


_PIN_LINE = re.compile(r"^\s*banker_pin(_hash)?\s*=")
_TABLE_LINE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def set_pin_in_config(path: Path, pin: str, check: Callable[[str], object], *,
                      new_owner: tuple[int, int] | None = None) -> None:
    """Store the hash of ``pin`` as ``[game] banker_pin_hash`` in the configuration file ``path`` (created
    if missing), removing any plaintext ``banker_pin``; the rest of the file (comments included) is kept. The
    new text is checked with ``check(text)`` (raising for a configuration that would not load) before it
    replaces the old one (temporary file, fsync, rename, folder fsync). The file keeps its owner and group (the
    service reads /etc/banquier/config.toml through its group) and its mode less anything for others (it holds
    the PIN's hash): a new file is :data:`CONFIG_MODE`, owned by ``new_owner`` (uid, gid) when given.
    Raises ValueError (bad PIN) or OSError."""
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
    owner: tuple[int, int] | None
    try:
        info = path.stat()
        mode, owner = stat.S_IMODE(info.st_mode) & ~0o007, (info.st_uid, info.st_gid)
    except FileNotFoundError:
        mode, owner = CONFIG_MODE, new_owner
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_text_durably(path, new_text, mode, owner=owner)
