"""Files the commands write under a name the user gives (``export -o``, ``cards export FILE``): never over a
game, a card set or the device key.

One rule for every such output (:func:`write_output`):

- an existing file is refused unless the command was given ``--force``;
- even with ``--force``, a game file (or its ``-wal``/``-shm``/``-journal``), any file under the game folders
  of the data directory, the device key and the card set are refused: they are never an output;
- the text is written to a temporary file in the same folder, flushed to disk, renamed into place, and the
  folder is flushed too, so a crash leaves the old file or the new one, never half of one (and never a
  half-written file under the name asked for).

A game is recognised by its content (SQLite's header, a WAL's header), by its companions' names, and by the
folders of the data directory; the key and the card set by the very file (same inode, so a symbolic or hard
link to them is refused as well).
"""
from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO

from terminal.bank.durable import fsync_directory
from terminal.errors import GameError

__all__ = ["OutputRefused", "OutputFileError", "Protected", "write_output", "check_output", "is_game_file",
           "is_sqlite", "fsync_directory"]

SQLITE_MAGIC = b"SQLite format 3\x00"
WAL_MAGICS = (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83")
COMPANION_SUFFIXES = ("-wal", "-shm", "-journal")
GAME_FOLDERS = ("games", "archive", "replays", "backups")
OUTPUT_MODE = 0o600


class OutputRefused(GameError, ValueError):
    """An output path that would overwrite a file (without ``--force``) or a file that is never an output."""

    code = "output_refused"


class OutputFileError(GameError, OSError):
    """An output that could not be written (missing folder, no permission, full disk). Nothing was changed."""

    code = "output_unwritable"


class Protected:
    """The files no output may replace: ``key_files`` (the device key), ``card_sets``, and every game under
    ``data_dirs`` (its ``games``, ``archive``, ``replays`` and ``backups`` folders) or in ``game_folders``
    (besides any SQLite file anywhere)."""

    def __init__(self, *, key_files: Iterable[Path | None] = (), card_sets: Iterable[Path | None] = (),
                 data_dirs: Iterable[Path | None] = (), game_folders: Iterable[Path | None] = ()):
        self.key_files = [Path(p) for p in key_files if p is not None]
        self.card_sets = [Path(p) for p in card_sets if p is not None]
        self.game_folders = [Path(d) / f for d in data_dirs if d is not None for f in GAME_FOLDERS]
        self.game_folders += [Path(p) for p in game_folders if p is not None]


def is_game_file(path: Path) -> bool:
    """Whether ``path`` holds an SQLite database or WAL (by its first bytes), or is the ``-wal``/``-shm``/
    ``-journal`` companion of one."""
    head = _head(path)
    if head.startswith(SQLITE_MAGIC) or head[:4] in WAL_MAGICS:
        return True
    for suffix in COMPANION_SUFFIXES:
        if path.name.endswith(suffix):
            base = path.with_name(path.name[: -len(suffix)])
            if base.exists() or suffix != "-journal":
                return True
    return False


def is_sqlite(path: Path) -> bool:
    """Whether ``path`` starts with SQLite's header (a file that cannot be read is not)."""
    return _head(path) == SQLITE_MAGIC


def _head(path: Path) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC))
    except OSError:
        return b""


def _same(a: Path, b: Path) -> bool:
    with contextlib.suppress(OSError):
        return os.path.samefile(a, b)
    return os.path.abspath(a) == os.path.abspath(b)


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except (ValueError, OSError):
        return False
    return True


def _never_an_output(path: Path, protected: Protected) -> str | None:
    """Why ``path`` may never be replaced by an output (None when it may)."""
    for key in protected.key_files:
        if _same(path, key):
            return f"{path} is the device key: without it no game of this device can be verified"
    for cards in protected.card_sets:
        if _same(path, cards):
            return f"{path} is the card set: it says which card is whose"
    if path.exists() and is_game_file(path):
        return f"{path} is a game file"
    for folder in protected.game_folders:
        if _inside(path, folder) and (path.suffix == ".db" or any(
                path.name.endswith(".db" + s) for s in COMPANION_SUFFIXES)):
            return f"{path} is a game file"
    return None


def check_output(path: str | os.PathLike[str], *, force: bool, protected: Protected, what: str = "output") -> Path:
    """Refuse ``path`` as an output (:class:`OutputRefused`) if it is a game, the key or the card set (even with
    ``force``), a folder, or an existing file without ``force``. Returns the path."""
    path = Path(path)
    if path.exists() and not path.is_file() and not path.is_dir():
        # A device, a pipe or a socket: renaming a new file over it would replace it (even /dev/full); and it is
        # never opened here (reading a FIFO would wait for a writer).
        raise OutputRefused(f"{path} is not a regular file: nothing was written. To write to standard output, "
                            f"leave out -o.", code="output_not_a_file", params={"path": str(path)})
    reason = _never_an_output(path, protected)
    if reason is not None:
        raise OutputRefused(f"{reason}: the {what} is written to a new text file, never over a game, the card set "
                            f"or the key, even with --force. Name another file.", code="output_protected",
                            params={"path": str(path)})
    if path.is_dir():
        raise OutputRefused(f"{path} is a folder: name a file to write.", code="output_is_folder",
                            params={"path": str(path)})
    if (path.exists() or path.is_symlink()) and not force:
        raise OutputRefused(f"{path} already exists: nothing was written. Name a new file, or add --force to "
                            f"replace it.", code="output_exists", params={"path": str(path)})
    return path


def replace_text_durably(path: Path, text: str, mode: int) -> None:
    """Put ``text`` at ``path`` whole or not at all: a temporary file beside it (mode ``mode``), fsynced, renamed
    over ``path``, the folder fsynced. No check of what ``path`` is: callers that write a user-named file use
    :func:`write_output`. Raises OSError; nothing is left behind on failure."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            os.fchmod(f.fileno(), mode)
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    fsync_directory(path.parent)


def write_output(path: str | os.PathLike[str], write: Callable[[IO[str]], object], *, force: bool,
                 protected: Protected, what: str = "output") -> Path:
    """Check ``path`` (:func:`check_output`), then call ``write(file)`` on a temporary text file beside it
    and put it in place durably. Returns the path.

    Raises :class:`OutputRefused` (nothing written) or :class:`OutputFileError` (the folder cannot be
    written); an exception from ``write`` leaves no temporary file and ``path`` unchanged."""
    path = check_output(path, force=force, protected=protected, what=what)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, temp_name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputFileError(f"cannot write {path}: {exc.strerror or exc}.", params={"path": str(path)}) from exc
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            with contextlib.suppress(OSError):
                mode = stat.S_IMODE(os.stat(path).st_mode) if path.exists() else OUTPUT_MODE
                os.fchmod(f.fileno(), mode)
            write(f)
            f.flush()
            os.fsync(f.fileno())
        _put_in_place(temp, path, force=force, protected=protected, what=what)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            temp.unlink()
        if isinstance(exc, OSError) and not isinstance(exc, GameError):
            raise OutputFileError(f"cannot write {path}: {exc.strerror or exc}.",
                                  params={"path": str(path)}) from exc
        raise
    fsync_directory(folder)
    return path


def _put_in_place(temp: Path, path: Path, *, force: bool, protected: Protected, what: str) -> None:
    """Rename ``temp`` to ``path``; without ``force`` never over a file that appeared meanwhile (a hard link
    fails if the name is taken, where the file system has them)."""
    check_output(path, force=force, protected=protected, what=what)  # again: the write may have taken a while
    if force:
        os.replace(temp, path)
        return
    try:
        os.link(temp, path)
    except FileExistsError as exc:
        raise OutputRefused(f"{path} already exists: nothing was written. Name a new file, or add --force to "
                            f"replace it.", code="output_exists", params={"path": str(path)}) from exc
    except OSError:  # no hard links here (FAT, some FUSE): the check above is the guard
        os.replace(temp, path)
        return
    temp.unlink()

