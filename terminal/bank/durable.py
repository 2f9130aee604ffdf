"""Durable and safe file-system steps the Bank and the host share (no other import, so the host may load it at
start-up).

A file's data is flushed by ``fsync`` of the file; its *name* (a new file, a rename, a new folder) only by ``fsync``
of the folder that holds it. Until then a power cut may leave the folder as it was: the file gone, the old name
back, an empty file under the new name. And a data folder is the service's own, but a step that writes a name
never follows a link planted there (it would make the write land wherever the link points), and never lets the
umask decide who may read what it makes. So:

- :func:`fsync_directory`: make a new name, a rename or a removal in a folder durable.
- :func:`make_directories`: ``mkdir -p`` whose every new folder has a fixed mode and a durable name.
- :func:`replace_durably`: write a small file whole, under a new temporary name (never a link followed), with a
  fixed mode, flushed, renamed into place (a link at the name is replaced, not followed) and its name flushed
  (the ``current`` marker, the banker PIN's tries).
- :func:`open_for_append`: open a file to append to it (a game's mirror), never through a link planted at its
  name, a new one with a fixed mode.
"""
from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

__all__ = ["fsync_directory", "make_directories", "replace_durably", "open_for_append", "DIR_MODE"]

#: A data folder's mode: its owner writes, the service's group may look in, others nothing.
DIR_MODE = 0o750


def fsync_directory(folder: Path) -> None:
    """Make a rename in ``folder`` durable (a power cut after it keeps the new name). Systems that cannot open or
    sync a folder skip it: never raises."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def make_directories(folder: str | os.PathLike[str], mode: int = DIR_MODE) -> Path:
    """``folder.mkdir(parents=True, exist_ok=True)``, each folder it makes with ``mode`` exactly (the umask can
    neither widen nor narrow it) and its name flushed in its parent before this returns (a game's ``games/`` or
    ``backups/`` folder made just before its first file is written must not vanish at a power cut, with every
    file in it). Folders that exist are left as they are. Returns the folder. Raises OSError as ``mkdir`` does
    (a file in the way, no permission)."""
    folder = Path(folder)
    missing: list[Path] = []
    probe = folder
    while not probe.is_dir():
        if probe.exists() or probe.is_symlink():
            raise NotADirectoryError(20, "Not a directory", str(probe))
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    for made in reversed(missing):
        try:
            os.mkdir(made, mode)
        except FileExistsError:
            if not made.is_dir():
                raise
            continue
        os.chmod(made, mode)
        fsync_directory(made.parent)
    return folder


def replace_durably(path: str | os.PathLike[str], data: bytes, mode: int = 0o644) -> None:
    """Put ``data`` at ``path`` whole or not at all, durably: written to a new temporary file beside it (a random
    name created exclusively, so never a link followed; mode ``mode`` exactly), flushed, renamed over ``path`` (a
    link there is replaced, not followed) and the rename flushed. A power cut at any moment leaves the old file
    or the new one, never an empty one. Raises OSError (the temporary file is then removed)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
        try:
            os.fchmod(fd, mode)  # the mode asked for, not the umask's
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    fsync_directory(path.parent)


def open_for_append(path: str | os.PathLike[str], mode: int) -> int:
    """A file descriptor to append to ``path``: created with ``mode`` exactly if missing, never opened through a
    symbolic link (ELOOP), nor when it is not a regular file (a FIFO is never waited on). Raises OSError."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, mode)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(21, f"{path} is not a regular file")
        if info.st_size == 0 and stat.S_IMODE(info.st_mode) != mode:
            os.fchmod(fd, mode)  # a file just made: its mode is ours, not the umask's
    except BaseException:
        os.close(fd)
        raise
    return fd
