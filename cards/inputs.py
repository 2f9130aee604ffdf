"""Reading a file a user names (a table log, a card set, the device key, a file to import) without waiting for
ever or reading without end.

It lives in the lowest layer (``cards``) so that the Bank's table logs, the card sets and the host's commands all
read through it. :func:`read_input` opens without blocking (a FIFO with no writer does not hold the command),
refuses what is not a regular file (a folder, a device such as ``/dev/zero`` that never ends, a pipe, a socket)
and a file larger than the caller's limit, each as an :class:`OSError` with the file's name and a one-line
reason (``strerror``), before anything is read.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

__all__ = ["read_input", "NotARegularFile", "shown_path"]


class NotARegularFile(OSError):
    """The name is a folder, a device, a pipe or a socket: never read as a file."""


def shown_path(path: str | os.PathLike[str]) -> str:
    """A path as a one-line message shows it: a very long one (thousands of characters) shortened to its start,
    its end and its length."""
    text = os.fsdecode(path) if isinstance(path, (bytes, os.PathLike)) else str(path)
    return text if len(text) <= 200 else f"{text[:100]}...{text[-60:]} ({len(text)} characters)"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def read_input(path: str | os.PathLike[str], *, limit: int) -> bytes:
    """The bytes of the regular file ``path`` (links followed), at most ``limit`` of them.

    Raises FileNotFoundError (missing), :class:`NotARegularFile` (a folder, device, pipe or socket; nothing is
    read), ``OSError(EFBIG)`` (larger than ``limit``), or the system's OSError (too long a name, a loop of links,
    no permission)."""
    path = Path(path)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = _kind(info.st_mode)
            raise NotARegularFile(errno.EINVAL, f"it is {kind}, not a file" if kind.startswith("a ") else kind,
                                  str(path))
        if info.st_size > limit:
            raise OSError(errno.EFBIG, f"larger than {limit} bytes", str(path))
        os.set_blocking(fd, True)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # grew while it was read
            raise OSError(errno.EFBIG, f"larger than {limit} bytes", str(path))
        return b"".join(chunks)
    finally:
        os.close(fd)
