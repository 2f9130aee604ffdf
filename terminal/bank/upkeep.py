"""What a game's file needs beside its entries while it is played: the judgment of its start-up checks (which
may stop payments), and the upkeep of the history's index and the chart's summary, done on the terminal's tick
and at a clean close, never on the path of a payment."""
from __future__ import annotations

import logging
from pathlib import Path

from terminal.bank.audit import DAMAGE, BackgroundAudit
from terminal.bank.history import MAINTAIN_BUDGET_S, MAINTAIN_STRETCHES, keep, maintain_summary
from terminal.bank.ledger.journal import Ledger
from terminal.errors import GameError, one_line

_log = logging.getLogger("terminal.bank.game")


def payments_stopped(ledger: Ledger) -> str | None:
    """Why nothing more may be written to the game of ``ledger``, as soon as it is known and without waiting:
    the checks run beside play after start-up (SQLite's check, the full audit: see
    :class:`~terminal.bank.audit.BackgroundAudit`) found the file damaged. One line naming the problem, or None
    while nothing was found (the next payment would be refused with the same problem)."""
    guard = ledger.guard
    if guard is None:
        return None
    ledger.settle()  # judged meanwhile: checkpoints resume, or the files are put back as found
    name = Path(ledger.path).name
    kept = (" Its files were put back as they were found when it was resumed; every payment acknowledged since "
            "is kept in its mirror and comes back with its newest good backup.")
    if ledger.put_back_problem is not None:
        kept = f" {ledger.put_back_problem}."
    if getattr(guard, "quick", None) is False:
        return f"{name} is damaged (SQLite's check: {getattr(guard, 'quick_problem', '')}).{kept}"
    if getattr(guard, "full", None) is False:
        return f"the audit of {name} found {getattr(guard, 'full_summary', '')}".rstrip() + kept
    return None


def judged(ledger: Ledger, wait_s: float = 0.0) -> bool | None:
    """Whether the game's file was judged sound: True for a game created here, opened after a full audit or
    whose checks beside play passed; False once they found it damaged; None while they run (what is written
    meanwhile can still be put back: no backup is made of it then). ``wait_s`` (seconds, >= 0): how long to wait
    for checks still running to answer (0: not at all). Called by the thread that plays the game."""
    guard = ledger.guard
    if ledger.read_only or guard is None:
        return True
    if wait_s > 0:
        guard.wait_verdict(wait_s)
    ledger.settle()
    verdict = guard.verdict()
    if verdict is None and ledger.as_found is None and not isinstance(guard, BackgroundAudit):
        return True  # the in-process check before the first payment (background=False)
    return verdict


class Upkeep:
    """The chart's summary and the history's index of one game, kept up to date (:mod:`terminal.bank.history`)."""

    def __init__(self, ledger: Ledger) -> None:
        self._ledger = ledger
        self._failed = False  # the last maintain() failed (logged once)

    def at_close(self) -> None:
        """Bring the chart's summary and the history's index up to date (:func:`terminal.bank.history.keep`), so
        the screens of a long game read no more of its journal than they show; closing never fails for it."""
        ledger = self._ledger
        if ledger.read_only or not ledger.marked or payments_stopped(ledger) is not None:
            return  # (a game not yet judged gets it in its WAL, which is put back as found if it is judged damaged)
        try:
            keep(ledger)
        except (GameError, *DAMAGE):
            pass  # the screens then read the journal itself: the same lines and points, in more time

    def step(self, stretches: int = MAINTAIN_STRETCHES, budget_s: float = MAINTAIN_BUDGET_S) -> int:
        """A bounded step of the upkeep: :meth:`terminal.Game.maintain`. Returns how many rows were written."""
        ledger = self._ledger
        guard = ledger.guard
        if ledger.read_only or not ledger.marked or ledger.in_batch \
                or (guard is not None and getattr(guard, "quick", True) is not True) \
                or payments_stopped(ledger) is not None:
            return 0
        try:
            conn = ledger.db.conn
            if conn.in_transaction:
                return 0
            # Committed without a flush of its own: the summary is rebuilt from the journal when it lacks, and the
            # next entry's commit flushes it with the WAL; a tap is never kept waiting for a flush of the tick's.
            conn.execute("PRAGMA synchronous = OFF")
            try:
                written = maintain_summary(ledger, stretches=stretches, budget_s=budget_s)
            finally:
                conn.execute("PRAGMA synchronous = FULL")
        except (GameError, OSError, *DAMAGE) as exc:
            if not self._failed:
                _log.warning("the chart's summary of %s was not brought up to date (%s); play goes on, the chart "
                             "reads the journal where the summary lacks", Path(ledger.path).name, one_line(exc))
            self._failed = True
            return 0
        self._failed = False
        return written
