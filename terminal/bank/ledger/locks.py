"""The play lock: one Banquier at a time plays a game file (the terminal or a simulator); readers take none."""
from __future__ import annotations

import fcntl
import os
from pathlib import Path

from terminal.bank.ledger.files import check_file
from terminal.errors import LedgerError


def lock_for_play(path: str | Path) -> int:
    """Take ``path``'s play lock: an exclusive ``flock`` on the game file, held by the one Banquier that plays
    it (the terminal or a simulator) until it closes the game or its process ends (a crash or ``kill -9``
    releases it too). Readers (audit, export, doctor, the background audit) take no lock: they read a
    private snapshot. Returns the file descriptor that holds the lock (close it to release).

    Raises LedgerError (``ledger_in_use``) when another process, or another open game of this process,
    plays the file: two writers would each commit from their own copy of the state. Nothing is read before
    the lock is held (a missing path or a folder gets :func:`~terminal.bank.ledger.files.check_file`'s
    refusal)."""
    if not Path(path).is_file():
        check_file(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError as exc:
        raise LedgerError(f"{path} is not a readable game file ({exc.strerror or exc}). It was left "
                          f"untouched: restore a backup or start a new game.", code="ledger_unreadable",
                          params={"path": str(path), "reason": str(exc.strerror or exc)}) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        raise LedgerError(f"{path} is open in another Banquier (the terminal or a simulator): close that one "
                          f"first. The file was left untouched.", code="ledger_in_use",
                          params={"path": str(path)}) from exc
    return fd
