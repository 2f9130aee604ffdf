"""The keyed hash chain of a game's journal and its keyed checkpoint.

Each entry's keyed hash covers the entry and the previous entry's hash (the header's hash for the first): an
entry edited without the device key breaks the chain there. The checkpoint records the last entry whose chain was
verified (from the header or the previous checkpoint), under its own keyed hash; a start-up verifies the chain
from it to the end, so its cost follows the entries written since (:func:`verify_since`). While a game is played,
:class:`Checkpoint` moves it forward every :data:`CHECKPOINT_EVERY` entries and at a clean close, over the
entries this connection wrote itself without hashing them again when nothing else wrote to the file.
"""
from __future__ import annotations

import hmac

import sqlite_utils

from terminal.bank.ledger.keys import Keys
from terminal.bank.ledger.records import Row
from terminal.bank.ledger.schema import CHECKPOINT_TABLE

CHECKPOINT_EVERY = 32  # entries between two checkpoints while the game is played (what an unclean
# resume verifies is up to this many entries; moving it costs about as much as often or not)

#: An entry a connection wrote, as stored: the hash it chained to, its journal row and its postings rows.
Written = tuple[str, tuple[int, str, str, "int | None", str, str, str], list[tuple[int, int, str, int]]]


def stored_checkpoint(db: sqlite_utils.Database, keys: Keys, genesis: str) -> tuple[int, str] | None:
    """``(seq, mac)`` of the last verified entry as the file records it; ``(0, genesis)`` (the header's hash) when
    none is recorded (a new file, or one written before checkpoints). None when the record fails its keyed hash
    or names an entry that is not there as it was: edited."""
    if "checkpoint" not in set(db.table_names()):
        return 0, genesis
    row = db.execute("SELECT seq, mac, cp_mac FROM checkpoint WHERE id = 1").fetchone()
    if row is None:
        return 0, genesis
    seq, mac, cp_mac = row
    if not isinstance(seq, int) or not isinstance(mac, str) or not isinstance(cp_mac, str) \
            or not hmac.compare_digest(cp_mac, keys.checkpoint_mac(seq, mac)):
        return None
    if seq == 0:
        return (0, mac) if mac == genesis else None
    entry = db.execute("SELECT mac FROM journal WHERE seq = ?", [seq]).fetchone()
    if entry is None or entry[0] != mac:
        return None
    return seq, mac


def verify_since(db: sqlite_utils.Database, keys: Keys, seq: int, mac: str
                 ) -> tuple[list[str], int | None, tuple[int, str]]:
    """Verify the keyed hash chain of every entry after ``seq`` (whose hash is ``mac``): ``(problems,
    first_bad_seq, (last seq, last mac))``. Its cost follows the number of entries after ``seq``."""
    problems: list[str] = []
    first_bad: int | None = None
    postings: dict[int, list[Row]] = {}
    for s, n, account, amount in db.execute(
            "SELECT seq, n, account, amount FROM postings WHERE seq > ? ORDER BY seq, n", [seq]):
        postings.setdefault(s, []).append((n, account, amount))
    prev_seq, prev = seq, mac
    for s, kind, op, undoes, changes, recorded_at, entry_mac in db.execute(
            "SELECT seq, kind, op, undoes, changes, recorded_at, mac FROM journal WHERE seq > ? ORDER BY seq",
            [seq]):
        if s != prev_seq + 1:
            problems.append(f"Entry #{prev_seq + 1} is missing (next is #{s}).")
            first_bad = prev_seq + 1 if first_bad is None else first_bad
        computed = keys.stored_entry_mac(prev, s, kind, op, undoes, postings.get(s, []), changes, recorded_at,
                                         entry_mac)
        if not hmac.compare_digest(computed, entry_mac if isinstance(entry_mac, str) else ""):
            problems.append(f"Entry #{s} does not match its keyed hash: it was edited outside the terminal.")
            first_bad = s if first_bad is None else first_bad
        prev_seq, prev = s, entry_mac
    return problems, first_bad, (prev_seq, prev)


class Checkpoint:
    """The keyed checkpoint as one connection keeps it: ``verified``, the ``(seq, mac)`` of the last entry
    verified (None: not verified, nothing is checkpointed), ``stored``, the seq of the checkpoint the file
    records, and the entries this connection wrote since ``verified`` (:meth:`remember`)."""

    def __init__(self) -> None:
        self.verified: tuple[int, str] | None = None
        self.stored = 0
        self.written: list[Written] = []
        self.written_since = -1  # PRAGMA data_version when the first of them was written

    def take(self, other: Checkpoint) -> None:
        """What ``other`` verified (the checks of a view, handed to the connection that plays)."""
        self.verified, self.stored = other.verified, other.stored

    def remember(self, prev: str, entry_row: tuple[int, str, str, int | None, str, str, str],
                 rows: list[tuple[int, int, str, int]], version: int) -> None:
        """An entry this connection is writing (its hash chained to ``prev``, its journal row, its postings rows),
        ``version`` being ``PRAGMA data_version`` as it is written."""
        if not self.written:  # what other connections have committed so far (see still_there)
            self.written_since = version
        self.written.append((prev, entry_row, rows))

    def forget(self, entry_row: tuple[int, str, str, int | None, str, str, str]) -> None:
        """The entry of ``entry_row`` was not committed after all."""
        if self.written and self.written[-1][1] is entry_row:
            self.written.pop()

    def due(self, seq: int) -> bool:
        """Whether the checkpoint is moved as entry ``seq`` is written (every :data:`CHECKPOINT_EVERY`)."""
        return self.verified is not None and seq - self.stored >= CHECKPOINT_EVERY

    def advance(self, db: sqlite_utils.Database, keys: Keys) -> None:
        """Inside a write transaction: verify the chain from the checkpoint to the end and, if it holds, move
        the checkpoint to the last entry. A chain that fails leaves the checkpoint where it was (the next
        start-up reports it)."""
        if self.verified is None:
            return
        last = self.still_there(db)
        if last is None:
            self.written.clear()  # verified from the file below; memory is only kept for a chain that holds
            problems, _, last = verify_since(db, keys, *self.verified)
            if problems:
                return
        if last[0] == self.stored:
            return
        self._store(db, keys, last)
        self.written.clear()

    def record(self, db: sqlite_utils.Database, keys: Keys, seq: int, mac: str) -> None:
        """Inside a write transaction: record ``(seq, mac)`` as verified (a full audit passed up to it), if it is
        still that entry and beyond the checkpoint."""
        row = db.execute("SELECT mac FROM journal WHERE seq = ?", [seq]).fetchone()
        if row is None or row[0] != mac or (self.verified is not None and seq <= self.verified[0]):
            return
        self._store(db, keys, (seq, mac))
        self.written = [w for w in self.written if w[1][0] > seq]

    def _store(self, db: sqlite_utils.Database, keys: Keys, last: tuple[int, str]) -> None:
        db.execute(CHECKPOINT_TABLE)
        db.execute("INSERT OR REPLACE INTO checkpoint(id, seq, mac, cp_mac) VALUES (1, ?, ?, ?)",
                   [last[0], last[1], keys.checkpoint_mac(*last)])
        self.verified = last
        self.stored = last[0]

    def still_there(self, db: sqlite_utils.Database) -> tuple[int, str] | None:
        """``(seq, mac)`` of the last entry when every entry after the verified one is one this connection
        wrote, chained from it, and still stored exactly as written: no other connection has committed to the
        file since (``PRAGMA data_version``), or else the journal rows and postings read back (one query each) are
        those written. Their keyed hashes were computed here over those very values, so the chain holds as
        :func:`verify_since` would find, without hashing them again. None when that cannot be told (an entry
        written by another connection, or one that differs): then the chain is verified."""
        assert self.verified is not None
        seq, mac = self.verified
        written = self.written
        if not written:
            return None
        for i, (prev, row, _) in enumerate(written):
            if row[0] != seq + 1 + i or prev != (mac if i == 0 else written[i - 1][1][6]):
                return None
        conn = db.conn
        if conn.execute("PRAGMA data_version").fetchone()[0] == self.written_since:
            # No other connection has committed anything to the file since the first of these entries was
            # written (SQLite changes data_version at every commit of another connection, of any process):
            # they are stored as this connection wrote them.
            return written[-1][1][0], written[-1][1][6]
        stored = conn.execute("SELECT seq, kind, op, undoes, changes, recorded_at, mac FROM journal WHERE seq > ? "
                              "ORDER BY seq", (seq,)).fetchall()
        if stored != [w[1] for w in written]:
            return None
        postings = conn.execute("SELECT seq, n, account, amount FROM postings WHERE seq > ? ORDER BY seq, n",
                                (seq,)).fetchall()
        if postings != [p for w in written for p in w[2]]:
            return None
        return written[-1][1][0], written[-1][1][6]
