"""Durable and safe file-system steps the Bank and the host share (no other import, so the host may load it at
start-up).

- :func:`fsync_directory`: make a rename in a folder durable.
- :func:`make_dirs`: make a folder and its missing parents with a fixed mode, whatever the umask.
- :func:`open_for_append`: open a file to append to it, never through a link planted at its name, a new file
  with a fixed mode whatever the umask.
- :func:`replace_file`: put bytes at a name whole or not at all (a new temporary file, never a link followed,
  renamed over the name), with a fixed mode.

A data folder is the service's own; these steps still never follow a link planted at a name they write (it
would make the write land wherever the link points), and never let the umask decide who may read a file.
"""
from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

__all__ = ["fsync_directory", "make_dirs", "open_for_append", "replace_file", "DIR_MODE"]

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


def make_dirs(folder: str | os.PathLike[str], mode: int = DIR_MODE) -> Path:
    """Make ``folder`` and its missing parents, each new one with ``mode`` exactly (the umask cannot widen or
    narrow it); folders that exist are left as they are. Returns the folder. Raises OSError (a file in the way,
    no permission)."""
    folder = Path(folder)
    missing = []
    probe = folder
    while not probe.is_dir():
        if probe.exists() or probe.is_symlink():
            raise NotADirectoryError(20, "Not a directory", str(probe))
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    for new in reversed(missing):
        try:
            os.mkdir(new, mode)
        except FileExistsError:
            if not new.is_dir():
                raise
            continue
        os.chmod(new, mode)
    return folder


def open_for_append(path: str | os.PathLike[str], mode: int) -> int:
    """A file descriptor to append to ``path``: created with ``mode`` exactly if missing, never opened through a
    symbolic link (ELOOP), nor when it is not a regular file. Raises OSError."""
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


def replace_file(path: str | os.PathLike[str], data: bytes, mode: int) -> None:
    """Put ``data`` at ``path`` whole or not at all: a new temporary file beside it (a random name created
    exclusively, so never a link followed; mode ``mode`` exactly), fsynced, renamed over ``path`` (a link there
    is replaced, not followed), the folder fsynced. Raises OSError; nothing is left behind on failure."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    try:
        try:
            os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    fsync_directory(path.parent)
