"""The game file's schema and connection: its tables, indexes and triggers, the pragmas every connection runs with.

- ``meta``: the game's header (edition, players, mode, rule flags, deal...) and a keyed hash of it.
- ``journal``: one append-only entry per operation (``setup``, ``op`` or ``undo``), numbered by ``seq``
  (its own sequence, never a timestamp), each with a keyed hash (HMAC-SHA256) of itself and of the previous
  entry's hash. Triggers refuse UPDATE and DELETE.
- ``postings``: the money each entry moved, one signed row per account (sum per entry = 0, enforced by a
  trigger when the entry is written).
- ``projection``: the current state (see :class:`terminal.bank.state.State`) and the ``seq`` it reflects, with a
  keyed hash tying it to the last entry, written in the same transaction as the entry; resuming reads this
  one row whatever the length of the game.
- ``session``: whether the file was closed cleanly (after an unclean stop the game is audited on opening).
- ``checkpoint``: the last entry whose keyed hash chain was verified (:mod:`terminal.bank.ledger.chain`).
- the history's and the chart's (:mod:`terminal.bank.history`): the index of the play clock's entries, the
  chart's summary.

Every connection runs with ``journal_mode=WAL`` and ``synchronous=FULL``, so a committed operation survives a
power cut. sqlite-utils (the design card's) wraps each connection
(:class:`sqlite_utils.Database`): its ``table_names()`` is how the checks list a file's tables, its ``execute()``
runs the statements, which are spelled out in SQL here and in :mod:`terminal.bank.ledger.journal` (the path of
every entry goes straight to the ``sqlite3`` connection, ``db.conn``).
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

import sqlite_utils

from terminal.bank.operations import CLOCK_OPERATIONS
from terminal.errors import LedgerError

SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 5000
#: Entries between two foldings of the WAL into the file while a game is played (a checkpoint, then the WAL begun
#: again: :meth:`terminal.bank.ledger.journal.Ledger.settle_writes`, after an entry's beep, never on its path). A short
#: WAL: after a power cut SQLite rereads the whole WAL to resume, so this bounds the cost of an unclean resume.
FOLD_ENTRIES = 10
#: The tables every game file has (a file without one of them is no game).
GAME_TABLES = frozenset({"meta", "journal", "postings", "projection", "session"})

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE journal (
    seq INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('setup', 'op', 'undo')),
    op TEXT NOT NULL,
    undoes INTEGER UNIQUE REFERENCES journal(seq),
    changes TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    mac TEXT NOT NULL
);
CREATE TABLE postings (
    seq INTEGER NOT NULL,
    n INTEGER NOT NULL,
    account TEXT NOT NULL,
    amount INTEGER NOT NULL CHECK (amount != 0),
    PRIMARY KEY (seq, n)
);
CREATE INDEX postings_account ON postings(account);
CREATE TABLE projection (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, state TEXT NOT NULL,
                         mac TEXT NOT NULL);
CREATE TABLE session (id INTEGER PRIMARY KEY CHECK (id = 1), open INTEGER NOT NULL);
CREATE TRIGGER journal_append_only_update BEFORE UPDATE ON journal
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only: entries cannot be changed'); END;
CREATE TRIGGER journal_append_only_delete BEFORE DELETE ON journal
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only: entries cannot be deleted'); END;
CREATE TRIGGER postings_append_only_update BEFORE UPDATE ON postings
    BEGIN SELECT RAISE(ABORT, 'postings are append-only: they cannot be changed'); END;
CREATE TRIGGER postings_append_only_delete BEFORE DELETE ON postings
    BEGIN SELECT RAISE(ABORT, 'postings are append-only: they cannot be deleted'); END;
CREATE TRIGGER postings_of_new_entries_only BEFORE INSERT ON postings
    WHEN EXISTS (SELECT 1 FROM journal WHERE seq = NEW.seq)
    BEGIN SELECT RAISE(ABORT, 'postings belong to the entry being written, not to a recorded one'); END;
CREATE TRIGGER journal_entries_balance BEFORE INSERT ON journal
    WHEN (SELECT COALESCE(SUM(amount), 0) FROM postings WHERE seq = NEW.seq) != 0
    BEGIN SELECT RAISE(ABORT, 'the postings of an entry must sum to zero'); END;
"""


# The keyed checkpoint: the last entry whose hash chain was verified (from the header or the previous
# checkpoint). Start-up verifies the chain from it to the end, so its cost follows the entries written since.
CHECKPOINT_TABLE = ("CREATE TABLE IF NOT EXISTS checkpoint (id INTEGER PRIMARY KEY CHECK (id = 1), "
                     "seq INTEGER NOT NULL, mac TEXT NOT NULL, cp_mac TEXT NOT NULL)")

# The play clock's entries (which the history screen leaves out), indexed so that a page of the history is found
# without reading the whole journal (terminal.bank.history). Created with a new file and, for a file written
# before it, at its first clean close (terminal.bank.history.keep); a file without it reads the same, slower.
# (An entry whose text is not JSON, in a damaged file, is simply not in the index.)
CLOCK_ENTRY = ("CASE WHEN json_valid(op) THEN json_extract(op, '$.op') END IN ('"
               + "', '".join(sorted(CLOCK_OPERATIONS)) + "')")
CLOCK_INDEX = f"CREATE INDEX IF NOT EXISTS journal_clock ON journal(seq) WHERE {CLOCK_ENTRY}"

EXPECTED_SCHEMA = tuple(
    (kind.lower(), name) for kind, name in
    (line.split()[1:3] for line in _SCHEMA.splitlines() if line.startswith(("CREATE TABLE", "CREATE TRIGGER")))
)


def create_schema(db: sqlite_utils.Database) -> None:
    """Create every table, index and trigger of a game file in ``db`` (a new, empty file; inside a transaction)."""
    for statement in _SCHEMA.split(";\n"):
        if statement.strip():
            db.execute(statement)
    db.execute(CHECKPOINT_TABLE)
    db.execute(CLOCK_INDEX)


def schema_problems(db: sqlite_utils.Database) -> list[str]:
    """What is missing from the game's schema (a table, or a trigger that keeps the journal append-only
    and balanced): dropped or edited with another program. Empty when all is there."""
    have = {(kind, name) for kind, name in db.execute("SELECT type, name FROM sqlite_master")}
    return [f"the {kind} {name} is missing" for kind, name in EXPECTED_SCHEMA if (kind, name) not in have]


def missing_tables(tables: set[str]) -> set[str]:
    """The tables of a game file (:data:`GAME_TABLES`) that ``tables`` lacks."""
    return set(GAME_TABLES - tables)


def connect(path: Path) -> sqlite_utils.Database:
    """A connection to write the game file at ``path``: WAL, ``synchronous=FULL``, foreign keys, the busy timeout,
    and no checkpoint inside a commit (the WAL is folded into the file by the connection that plays, after a beep:
    ``FOLD_ENTRIES``; by SQLite when the last connection closes). Raises LedgerError (``ledger_unreadable``,
    ``ledger_no_wal``)."""
    try:
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        db = sqlite_utils.Database(conn)
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        # No checkpoint inside a commit: a checkpoint flushes the WAL and the file (two more fsyncs), and the commit
        # after it begins the WAL again (one more): none of them on the path of an entry to its beep.
        db.execute("PRAGMA wal_autocheckpoint = 0")
    except sqlite3.DatabaseError as exc:
        raise LedgerError(f"{path} is not a readable game file ({exc}). It was left untouched; restore "
                          f"a backup or start a new game.", code="ledger_unreadable",
                          params={"path": str(path), "reason": str(exc)}) from exc
    if mode.lower() != "wal":
        raise LedgerError(f"{path}: SQLite could not switch to WAL mode (got {mode!r}); the data directory "
                          f"may be read-only or on a filesystem without shared memory.",
                          code="ledger_no_wal", params={"path": str(path)})
    return db
