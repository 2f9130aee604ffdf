"""Durable file-system steps the Bank and the host share (no other import, so the host may load it at start-up).

A file's data is flushed by ``fsync`` of the file; its *name* (a new file, a rename, a new folder) only by ``fsync``
of the folder that holds it. Until then a power cut may leave the folder as it was: the file gone, the old name
back, an empty file under the new name. So:

- :func:`fsync_directory`: make a new name, a rename or a removal in a folder durable.
- :func:`make_directories`: ``mkdir -p`` whose every new folder's name is durable.
- :func:`replace_durably`: write a small file whole, under a temporary name, flushed, renamed into place and its
  name flushed (the ``current`` marker).
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["fsync_directory", "make_directories", "replace_durably"]


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


def make_directories(folder: Path, mode: int = 0o777) -> None:
    """``folder.mkdir(parents=True, exist_ok=True)``, and each folder it made has its name flushed in its parent
    before this returns (a game's ``games/`` or ``backups/`` folder made just before its first file is written
    must not vanish at a power cut, with every file in it). Raises OSError as ``mkdir`` does."""
    folder = Path(folder)
    missing: list[Path] = []
    probe = folder
    while not probe.is_dir():
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    folder.mkdir(mode=mode, parents=True, exist_ok=True)
    for made in reversed(missing):
        fsync_directory(made.parent)


def replace_durably(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Put ``data`` at ``path`` whole or not at all, durably: written to a temporary file beside it, flushed,
    renamed over ``path`` and the rename flushed. A power cut at any moment leaves the old file or the new one,
    never an empty one. Raises OSError (the temporary file is then removed)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()  # this process's own leftover (a write that failed half-way)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
        try:
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
