"""The device's secret key, used to sign the journal (tamper evidence, see :mod:`terminal.bank.ledger`).

The key lives outside the data directory, readable by its owner only (mode 0600), so a player who copies or
edits a game file with an SQLite browser cannot forge the keyed hashes. The threat is a player at the table,
not someone who can read the device's files.
"""
from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

from cards.inputs import read_input, shown_path
from host_ui.shell.outputs import fsync_directory
from terminal.errors import LedgerError

KEY_BYTES = 32


#: The most read from a key file: a damaged one is reported with its size, a huge one refused.
MAX_KEY_FILE_BYTES = 1024 * 1024


def _read(path: Path) -> bytes:
    return read_input(path, limit=MAX_KEY_FILE_BYTES)


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
    shown = shown_path(path)  # a very long name shortened in the messages
    try:
        key = _read(path)
    except FileNotFoundError as exc:
        raise LedgerError(f"There is no device key at {shown}: the games of this device were signed with another "
                          f"key file. Set BANQUIER_KEY_FILE (or storage.key_file) to it.", code="key_missing",
                          params={"path": str(path)}) from exc
    except OSError as exc:
        raise LedgerError(f"Cannot read the device key {shown}: {exc.strerror or exc}.", code="key_unavailable",
                          params={"path": str(path)}) from exc
    if len(key) != KEY_BYTES:
        raise LedgerError(f"The device key {shown} is damaged ({len(key)} bytes, expected {KEY_BYTES}).",
                          code="key_damaged", params={"path": str(path)})
    return key


def games_signed_here(data: str | Path | None) -> list[Path]:
    """The game files under the data directory ``data`` (games, archive, replays, backups): they were signed
    with this device's key, so a missing key must be restored, never silently replaced."""
    if data is None or not Path(data).is_dir():
        return []
    return sorted(p for p in Path(data).rglob("*.db") if p.is_file() and not p.name.startswith("."))


def load_or_create_key(path: str | Path | None = None, *, data: str | Path | None = None) -> bytes:
    """Read the device key at ``path`` (default :func:`default_key_path`), creating it (32 random bytes,
    mode 0600, the file and its folder flushed to disk) if it does not exist and no game of the data
    directory ``data`` was signed with it. A key file readable by others is made private again.

    Raises :class:`~terminal.errors.LedgerError` if the key cannot be read or created, has the wrong size, or
    is missing while games exist (restore it; ``banquier key new`` makes a new one when the banker asks).
    """
    path = Path(path) if path else default_key_path()
    shown = shown_path(path)  # a very long name shortened in the messages
    try:
        if not path.exists():
            games = games_signed_here(data)
            if games:
                raise LedgerError(
                    f"There is no device key at {shown}, but {len(games)} game file(s) in {data} were signed with "
                    f"it: restore {shown} from your backup of it (no new key is made, it would not match). To "
                    f"start over with a new key (those games then read as unverified): sudo banquier key new.",
                    code="key_missing", params={"path": str(path)})
            _create_key(path)
        key = _read(path)  # a FIFO or a device at its name is refused, never waited on or read without end
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            os.chmod(path, 0o600)
    except OSError as exc:
        if isinstance(exc, LedgerError):
            raise
        raise LedgerError(f"Cannot read or create the device key {shown}: {exc.strerror or exc}.",
                          code="key_unavailable", params={"path": str(path)}) from exc
    if len(key) != KEY_BYTES:
        raise LedgerError(f"The device key {shown} is damaged ({len(key)} bytes, expected {KEY_BYTES}). "
                          f"Restore it from a backup: games signed with it cannot be verified without it "
                          f"(`sudo banquier key new` makes a new one; those games then read as unverified).",
                          code="key_damaged", params={"path": str(path)})
    return key


def new_key(path: str | Path | None = None, *, data: str | Path | None = None, force: bool = False) -> Path:
    """``banquier key new``: make a new device key at ``path`` when it is missing or damaged (a damaged one is
    kept beside it as ``<name>.damaged-<n>``). Refuses (LedgerError ``key_exists``) a good key, and without
    ``force`` a missing key while games signed with it exist (they would read as unverified)."""
    path = Path(path) if path else default_key_path()
    shown = shown_path(path)  # a very long name shortened in the messages
    try:
        # A folder, a device or a FIFO at the key's name is refused here: it is never renamed aside.
        current = _read(path) if path.exists() or path.is_symlink() else None
    except OSError as exc:
        raise LedgerError(f"Cannot read the device key {shown}: {exc.strerror or exc}.", code="key_unavailable",
                          params={"path": str(path)}) from exc
    if current is not None and len(current) == KEY_BYTES:
        raise LedgerError(f"The device key {shown} is there and intact: it is never replaced (every game of this "
                          f"device is signed with it).", code="key_exists", params={"path": str(path)})
    games = games_signed_here(data)
    if games and not force:
        raise LedgerError(f"{len(games)} game file(s) in {data} were signed with the old key: with a new key "
                          f"they read as unverified. Restore the old key if you can; else run again with "
                          f"--force.", code="key_exists", params={"path": str(path)})
    try:
        if current is not None:
            n = 1
            while path.with_name(f"{path.name}.damaged-{n}").exists():
                n += 1
            os.rename(path, path.with_name(f"{path.name}.damaged-{n}"))
        _create_key(path)
    except OSError as exc:
        raise LedgerError(f"Cannot create the device key {shown}: {exc.strerror or exc}.", code="key_unavailable",
                          params={"path": str(path)}) from exc
    return path


def _create_key(path: Path) -> None:
    """Write a new key durably: folders made (and flushed), a temporary file written, flushed and linked to
    ``path`` (never over a key another process made meanwhile), the folder flushed. Raises OSError."""
    made = []
    folder = path.parent
    while not folder.exists():
        made.append(folder)
        folder = folder.parent
    for new in reversed(made):
        with contextlib.suppress(FileExistsError):
            os.mkdir(new, 0o700)
        fsync_directory(new.parent)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(secrets.token_bytes(KEY_BYTES))
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass  # another process made the key first: keep theirs
        except OSError:  # no hard links on this file system
            if not path.exists():
                os.rename(temporary, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
    fsync_directory(path.parent)
