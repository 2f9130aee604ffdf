"""Work done beside the tap loop (the background audit, backups) yields the processor to it.

:func:`lower_priority` raises the niceness of the calling thread (Linux: a thread has its own) or process by
``step``. The installed service's system-call filter refuses ``@resources`` but lets ``setpriority`` through
again (deploy/banquier.service): lowering one's own priority needs no privilege, and without it a backup or the
audit would compete with the tap loop on a Pi Zero. A refusal is logged once (never silently ignored); the work
still runs.
"""
from __future__ import annotations

import logging
import os
import threading

__all__ = ["lower_priority", "BACKGROUND_NICE"]

log = logging.getLogger("banquier")

#: How much lower than the terminal's a background task's scheduling priority is (``nice``).
BACKGROUND_NICE = 10
_reported: set[str] = set()


def lower_priority(what: str, step: int = BACKGROUND_NICE, *, thread: bool = True) -> bool:
    """Lower the priority of this thread (``thread``) or of this whole process by ``step`` (capped at 19).
    Returns whether it was lowered; a refusal (a system-call filter, an old kernel) is logged once per
    ``what`` ("the backup", "the background audit")."""
    try:
        who = threading.get_native_id() if thread else 0
        now = os.getpriority(os.PRIO_PROCESS, who)
        os.setpriority(os.PRIO_PROCESS, who, min(19, now + step))
    except (OSError, AttributeError) as exc:
        if what not in _reported:
            _reported.add(what)
            log.warning("%s cannot lower its priority (%s): it competes with the tap loop for the processor",
                        what, getattr(exc, "strerror", None) or exc)
        return False
    return True
