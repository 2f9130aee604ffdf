"""Durable file-system steps the Bank and the host share (no other import, so the host may load it at start-up).

- :func:`fsync_directory`: make a rename in a folder durable.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["fsync_directory"]


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
