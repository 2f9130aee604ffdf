"""The device's secret key, used to sign the journal (tamper evidence, see :mod:`terminal.bank.ledger`).

The key lives outside the data directory, readable by its owner only (mode 0600), so a player who copies or
edits a game file with an SQLite browser cannot forge the keyed hashes. The threat is a player at the table,
not someone who can read the device's files.
"""
from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from terminal.errors import LedgerError

KEY_BYTES = 32


def default_key_path() -> Path:
    """``$BANQUIER_KEY_FILE``, else ``$XDG_CONFIG_HOME/banquier/device.key`` (``~/.config/...``)."""
    if os.environ.get("BANQUIER_KEY_FILE"):
        return Path(os.environ["BANQUIER_KEY_FILE"])
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "banquier" / "device.key"


def load_key(path: str | Path | None = None) -> bytes:
    """Read the device key at ``path`` (default :func:`default_key_path`) without ever creating one (for
    commands that only open existing games). Raises LedgerError if it is missing, unreadable or damaged."""
    path = Path(path) if path else default_key_path()
    try:
        key = path.read_bytes()
    except FileNotFoundError as exc:
        raise LedgerError(f"There is no device key at {path}: the games of this device were signed with another "
                          f"key file. Set BANQUIER_KEY_FILE (or storage.key_file) to it.", code="key_missing",
                          params={"path": str(path)}) from exc
    except OSError as exc:
        raise LedgerError(f"Cannot read the device key {path}: {exc.strerror or exc}.", code="key_unavailable",
                          params={"path": str(path)}) from exc
    if len(key) != KEY_BYTES:
        raise LedgerError(f"The device key {path} is damaged ({len(key)} bytes, expected {KEY_BYTES}).",
                          code="key_damaged", params={"path": str(path)})
    return key


def load_or_create_key(path: str | Path | None = None) -> bytes:
    """Read the device key at ``path`` (default :func:`default_key_path`), creating it (32 random bytes,
    mode 0600) if it does not exist. A key file readable by others is made private again.

    Raises :class:`~terminal.errors.LedgerError` if the key cannot be read or created, or has the wrong size.
    """
    path = Path(path) if path else default_key_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "wb") as f:
                f.write(secrets.token_bytes(KEY_BYTES))
                f.flush()
                os.fsync(f.fileno())
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            os.chmod(path, 0o600)
        key = path.read_bytes()
    except OSError as exc:
        raise LedgerError(f"Cannot read or create the device key {path}: {exc.strerror or exc}.",
                          code="key_unavailable", params={"path": str(path)}) from exc
    if len(key) != KEY_BYTES:
        raise LedgerError(f"The device key {path} is damaged ({len(key)} bytes, expected {KEY_BYTES}). "
                          f"Restore it from a backup: games signed with it cannot be verified without it.",
                          code="key_damaged", params={"path": str(path)})
    return key
