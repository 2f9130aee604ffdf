"""Replay batches: the entries a replay appends, committed together every so many (a replay, never live play,
which commits each entry durably before it is acknowledged). Each entry is still its own journal entry, written
whole or not at all (a savepoint of the batch's transaction); the mirror gets each entry once its transaction is
committed."""
from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from terminal.errors import LedgerError

BATCH_ENTRIES = 1000  # entries per transaction of a replay


class Batch:
    """The transaction of a batch: begun at its first entry, committed every ``every`` entries (:meth:`added`
    says when) and at the end; the mirror's lines of its entries wait for the commit."""

    def __init__(self, every: int = BATCH_ENTRIES):
        self.every = max(1, every)
        self.count = 0
        self.lines: list[str] = []

    def added(self, line: str | None) -> bool:
        """An entry was written in the batch (``line``: its mirror line, None without a mirror). Whether the batch
        is to be committed now."""
        if line is not None:
            self.lines.append(line)
        self.count += 1
        return self.count % self.every == 0

    def commit(self, conn: sqlite3.Connection, path: Path) -> list[str]:
        """Commit the batch's transaction, if one is open (durably: ``synchronous=FULL``). Returns the mirror's
        lines of the entries it committed. Raises LedgerError (``ledger_write_failed``) when the commit fails:
        the transaction is rolled back and its entries are not in the file (their lines are dropped)."""
        lines, self.lines = self.lines, []
        if conn.in_transaction:
            try:
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise LedgerError(f"The operations could not be written to {path} ({exc}); the last ones were "
                                  f"not recorded.", code="ledger_write_failed",
                                  params={"path": str(path), "reason": str(exc)}) from exc
        return lines
