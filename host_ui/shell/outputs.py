"""Files the commands write under a name the user gives (``export -o``, ``cards export FILE``, ``sim
--screenshot FILE``): never over a game, a card set, the device key, the configuration or what the terminal keeps
beside its games.

One rule for every such output (:func:`write_output`):

- an existing file is refused unless the command was given ``--force``; a folder, a device, a pipe or a socket
  is always refused (nothing is ever opened or renamed over one);
- even with ``--force``, a game file (or its ``-wal``/``-shm``/``-journal``), any file under the game folders
  of the data directory, a game's mirror (``*.mirror``), the ``current`` marker of the data directory, the
  device key, the card set and the configuration files are refused: they are never an output (a symbolic or
  hard link to one is refused as well);
- the text is written to a new temporary file in the same folder (its name never followed as a link), flushed
  to disk, renamed into place (a link at the name is replaced, never followed), and the folder is flushed too,
  so a crash leaves the old file or the new one, never half of one (and never a half-written file under the
  name asked for). The new file's mode is :data:`OUTPUT_MODE` (0640: its owner and the owner's group, whatever
  the umask), a replaced file's mode is kept.

A name that the system refuses to look at (too long, a loop of links, a folder that may not be searched) is
an :class:`OutputFileError` with the system's reason; nothing is written.

A game is recognised by its content (SQLite's header, a WAL's header), by its companions' names, and by the
folders of the data directory; the key, the card set and the configuration by the very file (same inode).
"""
from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

from cards.inputs import shown_path
from terminal.bank.durable import fsync_directory
from terminal.errors import GameError

__all__ = ["OutputRefused", "OutputFileError", "Protected", "write_output", "write_binary_output", "check_output",
           "is_game_file", "is_sqlite", "fsync_directory", "OUTPUT_MODE"]

SQLITE_MAGIC = b"SQLite format 3\x00"
WAL_MAGICS = (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83")
COMPANION_SUFFIXES = ("-wal", "-shm", "-journal")
GAME_FOLDERS = ("games", "archive", "replays", "backups")
#: A new output's mode: readable by its owner's group too (on the device, the group banquier, which the user
#: who installed Banquier joins), whatever the umask.
OUTPUT_MODE = 0o640
#: The marker naming the game the terminal resumes (:mod:`host_ui.shell.manage`), in the data directory.
CURRENT_MARKER = "current"
#: A game's mirror of acknowledged entries, in the backup folder.
MIRROR_SUFFIX = ".mirror"


class OutputRefused(GameError, ValueError):
    """An output path that would overwrite a file (without ``--force``) or a file that is never an output."""

    code = "output_refused"


class OutputFileError(GameError, OSError):
    """An output that could not be written (missing folder, no permission, full disk). Nothing was changed."""

    code = "output_unwritable"


class Protected:
    """The files no output may replace: ``key_files`` (the device key), ``card_sets``, ``config_files``, and
    every game and mirror under ``data_dirs`` (its ``games``, ``archive``, ``replays`` and ``backups`` folders)
    or in ``game_folders`` (besides any SQLite file anywhere), and the ``current`` marker of each data
    directory."""

    def __init__(self, *, key_files: Iterable[Path | None] = (), card_sets: Iterable[Path | None] = (),
                 data_dirs: Iterable[Path | None] = (), game_folders: Iterable[Path | None] = (),
                 config_files: Iterable[Path | None] = ()):
        self.key_files = [Path(p) for p in key_files if p is not None]
        self.card_sets = [Path(p) for p in card_sets if p is not None]
        self.config_files = [Path(p) for p in config_files if p is not None]
        dirs = [Path(d) for d in data_dirs if d is not None]
        self.markers = [d / CURRENT_MARKER for d in dirs]
        self.game_folders = [d / f for d in dirs for f in GAME_FOLDERS]
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
    with contextlib.suppress(OSError, ValueError):
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
            return f"{shown_path(path)} is the device key: without it no game of this device can be verified"
    for cards in protected.card_sets:
        if _same(path, cards):
            return f"{shown_path(path)} is the card set: it says which card is whose"
    for config in protected.config_files:
        if _same(path, config):
            return f"{shown_path(path)} is a configuration file"
    try:
        real = path.resolve()  # a link is judged by what it leads to as well as by its own name
    except (OSError, RuntimeError):
        real = path
    names = {path, real}
    for marker in protected.markers:
        if any(_same(n, marker) or (_same(n.parent, marker.parent) and n.name.startswith(CURRENT_MARKER + "."))
               for n in names):
            return f"{shown_path(path)} is the marker of the game the terminal resumes"
    if path.exists() and is_game_file(path):
        return f"{shown_path(path)} is a game file"
    for folder in protected.game_folders:
        if not _inside(path, folder):
            continue
        if any(n.suffix == ".db" or any(n.name.endswith(".db" + s) for s in COMPANION_SUFFIXES) for n in names):
            return f"{shown_path(path)} is a game file"
        if any(n.name.endswith(MIRROR_SUFFIX) for n in names):
            return f"{shown_path(path)} is a game's mirror (the record of its acknowledged entries)"
    return None


def check_folder(path: str | os.PathLike[str]) -> Path:
    """Refuse (:class:`OutputFileError`) a file to create in a folder that does not exist: it is said before any
    work is done (a simulator's run, an export's reading, a replay), and no folder is ever made for it. Returns
    the path."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OutputFileError(f"cannot write {shown_path(path)}: there is no folder {shown_path(folder)}; nothing "
                              f"was written.", params={"path": str(path)})
    return path


def check_output(path: str | os.PathLike[str], *, force: bool, protected: Protected, what: str = "output") -> Path:
    """Refuse ``path`` as an output (:class:`OutputRefused`) if it is a game, the key or the card set (even with
    ``force``), a folder, or an existing file without ``force``. Returns the path."""
    path = Path(path)
    try:
        os.lstat(path.parent if str(path.parent) else ".")
        os.stat(path)
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as exc:  # too long, a loop of links, a folder that may not be searched
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise OutputFileError(f"cannot write {shown_path(path)}: {why}; nothing was written.",
                              params={"path": str(path)}) from exc
    check_folder(path)
    if path.exists() and not path.is_file() and not path.is_dir():
        # A device, a pipe or a socket: renaming a new file over it would replace it (even /dev/full); and it is
        # never opened here (reading a FIFO would wait for a writer).
        raise OutputRefused(f"{shown_path(path)} is not a regular file: nothing was written. To write to standard "
                            f"output, leave out -o.", code="output_not_a_file", params={"path": str(path)})
    reason = _never_an_output(path, protected)
    if reason is not None:
        raise OutputRefused(f"{reason}: the {what} is written to a new file, never over a game, the card set, "
                            f"the key or the configuration, even with --force. Name another file.",
                            code="output_protected", params={"path": str(path)})
    if path.is_dir():
        raise OutputRefused(f"{shown_path(path)} is a folder: name a file to write.", code="output_is_folder",
                            params={"path": str(path)})
    if (path.exists() or path.is_symlink()) and not force:
        raise OutputRefused(f"{shown_path(path)} already exists: nothing was written. Name a new file, or add "
                            f"--force to replace it.", code="output_exists", params={"path": str(path)})
    return path


def replace_text_durably(path: Path, text: str, mode: int, *, owner: tuple[int, int] | None = None) -> None:
    """Put ``text`` at ``path`` whole or not at all: a temporary file beside it (mode ``mode``, whatever the
    umask; owned by ``owner`` (uid, gid) when given and allowed), fsynced, renamed over ``path`` (a link there
    is replaced, never followed), the folder fsynced. No check of what ``path`` is: callers that write a
    user-named file use :func:`write_output`. Raises OSError; nothing is left behind on failure."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            if owner is not None and owner != (os.geteuid(), os.getegid()):
                try:
                    os.fchown(f.fileno(), *owner)
                except PermissionError:  # not root: the file stays the writer's
                    pass
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
    return _write(path, write, force=force, protected=protected, what=what, binary=False)


def write_binary_output(path: str | os.PathLike[str], write: Callable[[IO[bytes]], object], *, force: bool,
                        protected: Protected, what: str = "output") -> Path:
    """:func:`write_output` for bytes (a PNG screenshot): ``write(file)`` gets a binary file."""
    return _write(path, write, force=force, protected=protected, what=what, binary=True)


def _write(path: str | os.PathLike[str], write: Callable[[Any], object], *, force: bool, protected: Protected,
           what: str, binary: bool) -> Path:
    path = check_output(path, force=force, protected=protected, what=what)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, temp_name = tempfile.mkstemp(dir=folder, prefix=f".{path.name[:80]}.", suffix=".tmp")
    except OSError as exc:
        raise OutputFileError(f"cannot write {shown_path(path)}: {exc.strerror or exc}.",
                              params={"path": str(path)}) from exc
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            mode = OUTPUT_MODE
            with contextlib.suppress(OSError):
                if path.is_file() and not path.is_symlink():
                    mode = stat.S_IMODE(os.stat(path).st_mode)
            os.fchmod(f.fileno(), mode)
            write(f)
            f.flush()
            os.fsync(f.fileno())
        _put_in_place(temp, path, force=force, protected=protected, what=what)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            temp.unlink()
        if isinstance(exc, OSError) and not isinstance(exc, GameError):
            raise OutputFileError(f"cannot write {shown_path(path)}: {exc.strerror or exc}.",
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
        raise OutputRefused(f"{shown_path(path)} already exists: nothing was written. Name a new file, or add --force "
                            f"to replace it.", code="output_exists", params={"path": str(path)}) from exc
    except OSError:  # no hard links here (FAT, some FUSE): the check above is the guard
        os.replace(temp, path)
        return
    temp.unlink()

