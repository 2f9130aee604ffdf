"""Leaving a game as a process that dies leaves it (a power cut, ``kill -9``), inside one test process."""
from __future__ import annotations

import contextlib
import os
from typing import Any


def abandon(game: Any) -> None:
    """Drop ``game``'s connection without closing the game (its file stays marked in use, as after a crash) and
    release its play lock, which the dead process's kernel would release (:meth:`Ledger.lock_for_play`)."""
    ledger = game.ledger
    ledger.db.close()
    if ledger.play_lock is not None:
        with contextlib.suppress(OSError):
            os.close(ledger.play_lock)
        ledger.play_lock = None
