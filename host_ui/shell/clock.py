"""The wall clock the composition roots give a game (:func:`wall_clock`), in a module of its own so that the
simulator does not load the device's composition root (and its backups and start-up checks) to read it."""
from __future__ import annotations

from datetime import datetime

__all__ = ["wall_clock"]


def wall_clock() -> datetime:
    """The local time, read once to convert the ``end_time`` of a game started by an older version into play
    time left (docs/table-log.md, Time limit); play time itself runs on ``time.monotonic``."""
    return datetime.now().astimezone()
