"""The journal of one game on a crash-safe SQLite file (through sqlite-utils 4).

One file per game. Tables:

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

Every write is one transaction begun with ``BEGIN IMMEDIATE`` (:meth:`Ledger.writing`): all of an entry is in
the file, or none of it, and a writer waits out another one within the busy timeout.
The file runs with ``journal_mode=WAL`` and ``synchronous=FULL`` so a committed operation survives a power
cut (field-notes.md, Storage).
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import re
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import sqlite_utils

from terminal.bank.durable import fsync_directory, make_directories, open_for_append
from terminal.bank.operations import CLOCK_OPERATIONS
from terminal.bank.types import Change, Posting
from terminal.errors import LedgerError

SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 5000
WAL_PAGES = 64

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
_CHECKPOINT_TABLE = ("CREATE TABLE IF NOT EXISTS checkpoint (id INTEGER PRIMARY KEY CHECK (id = 1), "
                     "seq INTEGER NOT NULL, mac TEXT NOT NULL, cp_mac TEXT NOT NULL)")
CHECKPOINT_EVERY = 32  # entries between two checkpoints while the game is played (what an unclean
# resume verifies is up to this many entries; moving it costs about as much as often or not)
BATCH_ENTRIES = 1000  # entries per transaction of a replay (Ledger.batch)

# The play clock's entries (which the history screen leaves out), indexed so that a page of the history is found
# without reading the whole journal (terminal.bank.history). Created with a new file and, for a file written
# before it, at its first clean close (terminal.bank.history.keep); a file without it reads the same, slower.
# (An entry whose text is not JSON, in a damaged file, is simply not in the index.)
CLOCK_ENTRY = ("CASE WHEN json_valid(op) THEN json_extract(op, '$.op') END IN ('"
               + "', '".join(sorted(CLOCK_OPERATIONS)) + "')")
CLOCK_INDEX = f"CREATE INDEX IF NOT EXISTS journal_clock ON journal(seq) WHERE {CLOCK_ENTRY}"

_EXPECTED_SCHEMA = tuple(
    (kind.lower(), name) for kind, name in
    (line.split()[1:3] for line in _SCHEMA.splitlines() if line.startswith(("CREATE TABLE", "CREATE TRIGGER")))
)


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_encode_str: Callable[[str], str] = json.encoder.encode_basestring
# json.dumps builds an encoder on every call; the one spelling is made here once (the C encoder json.dumps uses,
# with the same options; no check for circular values, which a journal never holds: RecursionError then).
_c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
_ENCODE: Callable[[Any, int], Sequence[str]] | None = (
    None if _c_make_encoder is None else
    _c_make_encoder(None, _CANONICAL.default, _encode_str, None, ":", ",", True, False, True))


def canonical(value: Any) -> str:
    """The one JSON spelling hashed and stored: sorted keys, no spaces, UTF-8 kept (``json.dumps(value,
    sort_keys=True, separators=(",", ":"), ensure_ascii=False)``)."""
    if type(value) is str:
        return _encode_str(value)
    if _ENCODE is None:
        return _CANONICAL.encode(value)
    return "".join(_ENCODE(value, 0))


def _rows_text(rows: Sequence[Row]) -> str:
    """``canonical`` of the signed rows as lists (the form the keyed hash covers)."""
    parts = []
    for r in rows:
        if len(r) != 3 or type(r[0]) is not int or type(r[1]) is not str or type(r[2]) is not int:
            return canonical([list(r) for r in rows])
        parts.append(f"[{r[0]},{_encode_str(r[1])},{r[2]}]")
    return "[" + ",".join(parts) + "]"


def _keys_are_texts(value: Any) -> bool:
    """Whether every object inside ``value`` (lists, tuples, dicts of JSON values) has text keys only: then its
    canonical spelling is also that of the value it reads back as (``json.loads``)."""
    t = type(value)
    if t is dict:
        for k, v in value.items():
            if type(k) is not str or (type(v) not in _SCALARS and not _keys_are_texts(v)):
                return False
    elif t is list or isinstance(value, tuple):
        for v in value:
            if type(v) not in _SCALARS and not _keys_are_texts(v):
                return False
    return True


_SCALARS = frozenset((str, int, bool, float, type(None)))


def _entry_payload(prev_mac: Any, seq: int, kind: Any, op_text: str, undoes: Any, rows_text: str,
                   changes_text: str, recorded_at: Any) -> str:
    """The text an entry's keyed hash covers, ``canonical([prev_mac, seq, kind, op, undoes, rows, changes,
    recorded_at])``, put together from the canonical texts of ``op``, the rows and the changes (each a
    complete JSON value: a list's canonical spelling is its items' spellings joined by commas)."""
    u = "null" if undoes is None else (str(undoes) if type(undoes) is int else canonical(undoes))
    return (f"[{canonical(prev_mac)},{seq if type(seq) is int else canonical(seq)},{canonical(kind)},{op_text},"
            f"{u},{rows_text},{changes_text},{canonical(recorded_at)}]")  # canonical(str): one C call


#: A posting's signed row as stored: ``(n, account, amount)``.
Row = tuple[int, str, int]


@dataclass(frozen=True)
class Entry:
    """One journal entry as stored. ``postings``: the :class:`~terminal.bank.types.Posting` transfers rebuilt
    from the signed rows. ``changes``: ``[section, key, before, after]`` lists, exactly as read back (the keyed
    hash covers them in that form; :meth:`terminal.bank.types.Effects.recorded` makes them
    :class:`~terminal.bank.types.Change` records)."""

    seq: int
    kind: str
    op: dict[str, Any]
    undoes: int | None
    postings: list[Posting]
    changes: list[list[Any]]
    recorded_at: str
    mac: str


class WriteGuard(Protocol):
    """What the ledger asks before each entry it writes (:attr:`Ledger.guard`: the start-up checks of
    :mod:`terminal.bank.audit`, ``QuickCheckFirst`` or ``BackgroundAudit``)."""

    def before_write(self, ledger: Ledger) -> None:
        """Raise (a :class:`~terminal.errors.GameError`) to refuse the write; nothing is written then."""

    def stop(self) -> None:
        """The game is closed: stop any work still running."""

    def verdict(self) -> bool | None:
        """Whether the checks judged the game sound (True), damaged (False), or have not answered (None)."""


def posting_rows(postings: Sequence[tuple[str, str, int]]) -> list[Row]:
    """Signed rows ``(n, account, amount)``: a transfer of A to B of x is (A, -x) then (B, +x)."""
    rows: list[Row] = []
    for i, (payer, payee, amount) in enumerate(postings):
        rows.append((2 * i, payer, -amount))
        rows.append((2 * i + 1, payee, amount))
    return rows


def transfers(rows: Sequence[Sequence[Any]]) -> list[Posting]:
    """The transfers of an entry from its signed rows ``(n, account, amount)`` in order (:func:`posting_rows`
    read back)."""
    return [Posting(rows[i][1], rows[i + 1][1], rows[i + 1][2]) for i in range(0, len(rows) - 1, 2)]


class Ledger:
    """The SQLite file of one game. Use :meth:`create` or :meth:`open`; close with :meth:`close`.

    ``key``: the device's secret (bytes, see :mod:`host_ui.shell.device_key`) used for the keyed hashes.
    Raises :class:`~terminal.errors.LedgerError` (an ``OSError``) for a file that is not a Banquier game, is
    damaged, or cannot be written.
    """

    def __init__(self, path: Path, db: sqlite_utils.Database, key: bytes):
        self.path = path
        self.db = db
        self.key = key
        block = key if len(key) <= 64 else hashlib.sha256(key).digest()  # SHA-256's block: 64 bytes
        block = block.ljust(64, b"\0")
        self._hmac_inner = hashlib.sha256(bytes(b ^ 0x36 for b in block))
        self._hmac_outer = hashlib.sha256(bytes(b ^ 0x5C for b in block))
        self.was_unclean = False
        self.read_only = False
        self.marked = False
        self._private: Callable[[], None] | None = None
        self.guard: WriteGuard | None = None  # the start-up checks (see terminal.bank.audit), if any
        self._checkpoint: tuple[int, str] | None = None  # (seq, mac) of the last entry verified
        self.checkpoint_stored = 0  # the seq of the checkpoint the file records
        self.mirror: Path | None = None  # the append-only record of acknowledged entries, if kept
        self.mirror_problem: str | None = None
        self._mirror_fd: int | None = None
        self.play_lock: int | None = None  # the fd holding the play lock (see lock_for_play)
        self._state_parts: dict[str, tuple[Any, str]] = {}  # see _state_text
        self._state_keys: tuple[set[str], list[str]] = (set(), [])
        self._batch: _Batch | None = None  # see batch
        self._written: list[_Written] = []  # entries written since the entry self._checkpoint names, in order
        self._written_since = -1  # PRAGMA data_version when the first of them was written
        self._last_written: tuple[int, str, int] | None = None  # (seq, mac, data_version) of the last append
        self._recorded_second = -1
        self._recorded_text = ""
        self.as_found: AsFound | None = None  # the files as found, while the game is not yet judged (see below)
        self.put_back_problem: str | None = None  # why the files could not be put back as found, if they could not

    # -- opening -------------------------------------------------------------------------------------------
    @staticmethod
    def _connect(path: Path) -> sqlite_utils.Database:
        try:
            conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            db = sqlite_utils.Database(conn)
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            # A short WAL (folded into the file every WAL_PAGES pages): after a power cut SQLite rereads the
            # whole WAL to resume, so this bounds the cost of an unclean resume.
            db.execute(f"PRAGMA wal_autocheckpoint = {WAL_PAGES}")
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"{path} is not a readable game file ({exc}). It was left untouched; restore "
                              f"a backup or start a new game.", code="ledger_unreadable",
                              params={"path": str(path), "reason": str(exc)}) from exc
        if mode.lower() != "wal":
            raise LedgerError(f"{path}: SQLite could not switch to WAL mode (got {mode!r}); the data directory "
                              f"may be read-only or on a filesystem without shared memory.",
                              code="ledger_no_wal", params={"path": str(path)})
        return db

    @classmethod
    def create(cls, path: str | Path, key: bytes, meta: dict[str, Any],
               setup: tuple[Sequence[Posting], Sequence[Change], dict[str, Any]] | None = None) -> Ledger:
        """Create a new game file at ``path`` (which must not exist) with the header ``meta`` and, if given,
        the setup entry ``(postings, changes, state_json)``.

        The file is built under a temporary name beside ``path`` and renamed only once it is complete, so a
        crash or a failed write never leaves a half-made game at ``path`` (the path stays free to retry).
        """
        path = Path(path)
        if path.exists() or path.is_symlink():  # a link, even a broken one or a loop, is never replaced either
            raise LedgerError(f"{path} already exists: a game file is never overwritten.",
                              code="ledger_exists", params={"path": str(path)})
        try:
            make_directories(path.parent)  # a new games folder's name is durable before the game's
        except OSError as exc:
            raise LedgerError(f"Cannot create the data directory {path.parent}: {exc.strerror}.",
                              code="ledger_unwritable", params={"path": str(path)}) from exc
        building = path.with_name(f".{path.name}.creating")
        for leftover in (building, *(building.with_name(building.name + s) for s in ("-wal", "-shm", "-journal"))):
            leftover.unlink(missing_ok=True)  # a previous attempt that died half-way
        try:
            make_private_file(building)
        except OSError as exc:
            raise LedgerError(f"Cannot create the new game file {path}: {exc.strerror or exc}.",
                              code="ledger_unwritable", params={"path": str(path)}) from exc
        db = cls._connect(building)
        ledger = cls(building, db, key)
        meta = {**meta, "schema_version": SCHEMA_VERSION, "key_id": key_id(key)}
        try:
            with ledger.writing():
                for statement in _SCHEMA.split(";\n"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(_CHECKPOINT_TABLE)
                db.execute(CLOCK_INDEX)
                for name, value in meta.items():
                    db.execute("INSERT INTO meta(key, value) VALUES (?, ?)", [name, canonical(value)])
                db.execute("INSERT INTO meta(key, value) VALUES ('meta_mac', ?)", [canonical(ledger._meta_mac(meta))])
                db.execute("INSERT INTO session(id, open) VALUES (1, 0)")
                if setup is not None:
                    ledger.append("setup", {"op": "setup"}, None, *setup)
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except (sqlite3.Error, LedgerError) as exc:
            db.close()
            building.unlink(missing_ok=True)
            raise LedgerError(f"Cannot write the new game file {path}: {exc}.", code="ledger_unwritable",
                              params={"path": str(path)}) from exc
        db.close()
        try:
            os.rename(building, path)
            fsync_directory(path.parent)
        except OSError as exc:
            building.unlink(missing_ok=True)
            raise LedgerError(f"Cannot put the new game file in place at {path}: {exc.strerror}.",
                              code="ledger_unwritable", params={"path": str(path)}) from exc
        ledger = cls.open(path, key)
        ledger.mark_open()
        ledger._checkpoint = (0, ledger.genesis_mac())  # every entry of a new file is verified from its header
        return ledger

    @classmethod
    def open(cls, path: str | Path, key: bytes, *, read_only: bool = False, copy: bool = True,
             checked: bool = False) -> Ledger:
        """Open an existing game file; ``was_unclean`` tells whether the previous session ended without
        :meth:`close`. Nothing is written here: the caller marks the file open with :meth:`mark_open` once it
        trusts it (so a refused file is left byte for byte as it was).

        ``read_only``: for commands that only look (audit, export, list): the game is read from a private
        snapshot (see :func:`private_view`), so nothing of the game's files (the file, its WAL, its shared
        memory) is ever written or created, and every read sees one moment of the game. ``copy=False`` (with
        ``read_only``) reads a cleanly closed file in place, as immutable, instead of copying it. ``checked``:
        the caller has just looked at the file (:meth:`check_file`)."""
        private: Callable[[], None] | None = None  # what deletes the private snapshot, if any
        if read_only and not copy and not checked:  # the view that checks the file is the one read
            path = Path(path)
            cls._check_path(path)
            db, private = cls._check_readonly(path, keep=True)
        elif read_only:
            path = Path(path) if checked else cls.check_file(path)
            db, private = private_view(path, copy=copy)
        else:
            path = Path(path) if checked else cls.check_file(path)
            db = cls._connect(path)
        ledger = cls(path, db, key)
        ledger.read_only = read_only
        ledger._private = private
        try:
            tables = set(db.table_names())
            missing = {"meta", "journal", "postings", "projection", "session"} - tables
            if missing:
                raise LedgerError(f"{path} is not a Banquier game file (no {', '.join(sorted(missing))} table). "
                                  f"It was left untouched.", code="ledger_not_a_game", params={"path": str(path)})
            version = ledger.meta().get("schema_version")
            if version != SCHEMA_VERSION:
                raise LedgerError(f"{path} was written by another version of Banquier (schema {version!r}, "
                                  f"this one reads {SCHEMA_VERSION}).", code="ledger_schema",
                                  params={"path": str(path), "version": version})
            row = db.execute("SELECT open FROM session WHERE id = 1").fetchone()
            ledger.was_unclean = bool(row and row[0])
        except LedgerError:
            ledger._discard()
            raise
        except sqlite3.DatabaseError as exc:
            ledger._discard()
            raise damaged(path, exc) from exc
        return ledger

    def mark_open(self) -> None:
        """Record that the file is in use (cleared by :meth:`close`): an unclean stop is detected next time.

        Committed without a flush of its own (``synchronous = OFF`` for this one transaction, and no checkpoint
        after it: a checkpoint must flush what it folds into the file): the next entry's durable commit flushes
        the WAL, this record with it, and (SQLite's first flush of a new WAL) its folder, before that entry is
        acknowledged; a power cut before any entry finds the game as it was, which it still is (no entry was
        written). So resuming a game waits for no disk flush."""
        conn = self.db.conn
        try:
            conn.execute("PRAGMA wal_autocheckpoint = 0")
            conn.execute("PRAGMA synchronous = OFF")
            try:
                with self.writing():
                    conn.execute(_CHECKPOINT_TABLE)
                    conn.execute("INSERT OR REPLACE INTO session(id, open) VALUES (1, 1)")
            finally:
                conn.execute("PRAGMA synchronous = FULL")
                conn.execute(f"PRAGMA wal_autocheckpoint = {0 if self.as_found is not None else WAL_PAGES}")
        except sqlite3.Error as exc:
            raise LedgerError(f"Cannot write to {self.path} ({exc}): is the data directory read-only?",
                              code="ledger_unwritable", params={"path": str(self.path)}) from exc
        self.marked = True

    @classmethod
    def check_file(cls, path: str | Path) -> Path:
        """Refuse, without writing anything, a path that is not a Banquier game file (missing, a folder,
        another program's file, damaged). Returns the path."""
        path = Path(path)
        cls._check_path(path)
        cls._check_readonly(path)
        return path

    @staticmethod
    def _check_path(path: Path) -> None:
        if not path.is_file():
            what = f"{path} is a folder, not a game file" if path.is_dir() else f"There is no game file {path}"
            raise LedgerError(f"{what}.", code="ledger_missing", params={"path": str(path)})

    @classmethod
    def _check_readonly(cls, path: Path, keep: bool = False) -> tuple[sqlite_utils.Database, Callable[[], None] | None]:
        """Look at a file read-only before anything writes to it: it must be an SQLite database with every
        table of a Banquier game. Another program's file, a truncated or a damaged one is refused untouched.
        ``keep``: return the private view it looked through (see :func:`private_view`), to read the game from;
        else it is closed."""
        db, private = private_view(path, copy=False)
        try:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            missing = {"meta", "journal", "postings", "projection", "session"} - tables
            if missing:
                raise LedgerError(f"{path} is not a Banquier game file (no {', '.join(sorted(missing))} table). "
                                  f"It was left untouched.", code="ledger_not_a_game", params={"path": str(path)})
        except sqlite3.DatabaseError as exc:
            _close_view(db, private)
            raise LedgerError(f"{path} is not a readable game file ({one_line(exc)}). It was left untouched; "
                              f"restore a backup or start a new game.", code="ledger_unreadable",
                              params={"path": str(path), "reason": one_line(exc)}) from exc
        except BaseException:
            _close_view(db, private)
            raise
        if not keep:
            _close_view(db, private)
        return db, private

    @staticmethod
    def lock_for_play(path: str | Path) -> int:
        """Take ``path``'s play lock: an exclusive ``flock`` on the game file, held by the one Banquier that plays
        it (the terminal or a simulator) until it closes the game or its process ends (a crash or ``kill -9``
        releases it too). Readers (audit, export, doctor, the background audit) take no lock: they read a
        private snapshot. Returns the file descriptor that holds the lock (close it to release).

        Raises LedgerError (``ledger_in_use``) when another process, or another open game of this process,
        plays the file: two writers would each commit from their own copy of the state. Nothing is read before
        the lock is held (a missing path or a folder gets :meth:`check_file`'s refusal)."""
        if not Path(path).is_file():
            Ledger.check_file(path)
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

    def _discard(self) -> None:
        """Close without writing anything (a refused open)."""
        if self.play_lock is not None:
            with contextlib.suppress(OSError):
                os.close(self.play_lock)
            self.play_lock = None
        if self._mirror_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._mirror_fd)
            self._mirror_fd = None
        _close_view(self.db, self._private)
        self._private = None

    def close(self) -> None:
        """Mark the file cleanly closed (if it was marked open), checkpoint the WAL and close the connection.

        A game not yet judged (:attr:`as_found`: its checks beside play have not answered) is closed without a
        checkpoint, its WAL kept and its file as found; one judged damaged was put back as found (see
        :meth:`settle`)."""
        self.settle()
        unjudged = self.as_found is not None
        try:
            if self.marked:
                with self.writing():
                    self._advance_checkpoint()
                    self.db.execute("UPDATE session SET open = 0 WHERE id = 1")
                if not unjudged:
                    self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass
        finally:
            if unjudged:
                self._close_keeping_the_wal()
            self._discard()

    # -- the files as found, until the game is judged (issue 21, points 4 and 8) -----------------------------
    def hold(self, as_found: AsFound) -> None:
        """Keep the game's file as found until it is judged: ``as_found`` holds the bytes of its WAL (and shared
        memory) from before anything wrote to it, and no checkpoint runs meanwhile (only a checkpoint writes the
        file itself in WAL mode), so what was found can be put back exactly (:meth:`settle`)."""
        self.as_found = as_found
        self.db.execute("PRAGMA wal_autocheckpoint = 0")

    def settle(self) -> None:
        """Act on the judgment of a held game (:meth:`hold`) once its checks beside play (:attr:`guard`) answered:
        passed, the record of what was found is dropped and checkpoints resume; failed, the game's files are put
        back exactly as found (:meth:`put_back`) and payments stay stopped. Nothing while they have not answered.
        Called by the main thread (before each entry, on the terminal's tick, at close); never raises."""
        if self.as_found is None:
            return
        judged = self.guard.verdict() if self.guard is not None else None
        if judged is True:
            as_found, self.as_found = self.as_found, None
            as_found.drop()
            with contextlib.suppress(sqlite3.Error):
                self.db.execute(f"PRAGMA wal_autocheckpoint = {WAL_PAGES}")
        elif judged is False:
            self.put_back()

    def put_back(self) -> None:
        """Put the game's files back exactly as they were found when it was resumed (the file, its WAL and shared
        memory: hash for hash), the game being judged damaged: what is damaged stays as it was, for inspection and
        for ``banquier audit``. The entries written since it was resumed leave the file; each was acknowledged
        only once in the mirror (:attr:`mirror`), from which restoring the newest good backup brings them back
        (:func:`host_ui.shell.backup.restore_backup`). The connection is then a read-only one of the file as
        found; nothing more is ever written. Never raises: a failure is kept in :attr:`put_back_problem`."""
        as_found, self.as_found = self.as_found, None
        if as_found is None:
            return
        if self.guard is not None:
            self.guard.stop()  # the checks' process reads no more
        self._close_keeping_the_wal()
        with contextlib.suppress(sqlite3.Error):
            self.db.close()
        self.marked = False
        try:
            as_found.restore(self.path)
        except OSError as exc:
            self.put_back_problem = (f"{self.path.name} could not be put back as it was found ({exc.strerror or exc}); "
                                     f"its files as found are kept in {as_found.record}")
        else:
            as_found.drop()
        try:
            uri = f"{self.path.resolve().as_uri()}?immutable=1"
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA query_only = ON")
            self.db = sqlite_utils.Database(conn)
        except sqlite3.Error:
            self.db = sqlite_utils.Database(sqlite3.connect(":memory:", check_same_thread=False))

    def _close_keeping_the_wal(self) -> None:
        """Close the connection without the checkpoint SQLite makes when the last connection to a game closes
        (which would write the file itself): a read-only connection, which cannot checkpoint, is held open while
        it closes, then closed. The WAL and shared memory stay beside the file."""
        guard_conn = None
        try:
            guard_conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                         timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
            guard_conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        except sqlite3.Error:
            pass  # a file too damaged to read: SQLite cannot checkpoint it either
        try:
            with contextlib.suppress(sqlite3.Error):
                self.db.close()
        finally:
            if guard_conn is not None:
                guard_conn.close()

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """One write transaction, begun with ``BEGIN IMMEDIATE``: the write lock is taken first, waiting out
        another writer for up to the busy timeout (a deferred transaction that read first could not wait and
        would fail at once with "database is locked"). Committed at the end of the block, rolled back on any
        error. Nested blocks are savepoints."""
        conn = self.db.conn
        if not conn.in_transaction and self._batch is not None:
            conn.execute("BEGIN IMMEDIATE")  # the batch's transaction (committed by the batch)
        if conn.in_transaction:
            conn.execute("SAVEPOINT entry")
            try:
                yield
            except BaseException:
                if conn.in_transaction:  # an error may have ended the whole transaction already
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK TO SAVEPOINT entry")
                        conn.execute("RELEASE SAVEPOINT entry")
                raise
            conn.execute("RELEASE SAVEPOINT entry")
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise
        try:
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise

    # -- the keyed checkpoint ------------------------------------------------------------------------------
    def checkpoint_mac(self, seq: int, mac: str) -> str:
        return self._mac(canonical(["checkpoint", seq, mac]))

    def stored_checkpoint(self) -> tuple[int, str] | None:
        """``(seq, mac)`` of the last verified entry as the file records it; ``(0, header hash)`` when none is
        recorded (a new file, or one written before checkpoints). None when the record fails its keyed hash or
        names an entry that is not there as it was: edited."""
        if "checkpoint" not in set(self.db.table_names()):
            return 0, self.genesis_mac()
        row = self.db.execute("SELECT seq, mac, cp_mac FROM checkpoint WHERE id = 1").fetchone()
        if row is None:
            return 0, self.genesis_mac()
        seq, mac, cp_mac = row
        if not isinstance(seq, int) or not isinstance(mac, str) or not isinstance(cp_mac, str) \
                or not hmac.compare_digest(cp_mac, self.checkpoint_mac(seq, mac)):
            return None
        if seq == 0:
            return (0, mac) if mac == self.genesis_mac() else None
        entry = self.db.execute("SELECT mac FROM journal WHERE seq = ?", [seq]).fetchone()
        if entry is None or entry[0] != mac:
            return None
        return seq, mac

    def chain_since(self, seq: int, mac: str) -> tuple[list[str], int | None, tuple[int, str]]:
        """Verify the keyed hash chain of every entry after ``seq`` (whose hash is ``mac``): ``(problems,
        first_bad_seq, (last seq, last mac))``. Its cost follows the number of entries after ``seq``."""
        problems: list[str] = []
        first_bad: int | None = None
        postings: dict[int, list[Row]] = {}
        for s, n, account, amount in self.db.execute(
                "SELECT seq, n, account, amount FROM postings WHERE seq > ? ORDER BY seq, n", [seq]):
            postings.setdefault(s, []).append((n, account, amount))
        prev_seq, prev = seq, mac
        for s, kind, op, undoes, changes, recorded_at, entry_mac in self.db.execute(
                "SELECT seq, kind, op, undoes, changes, recorded_at, mac FROM journal WHERE seq > ? ORDER BY seq",
                [seq]):
            if s != prev_seq + 1:
                problems.append(f"Entry #{prev_seq + 1} is missing (next is #{s}).")
                first_bad = prev_seq + 1 if first_bad is None else first_bad
            computed = self._stored_entry_mac(prev, s, kind, op, undoes, postings.get(s, []), changes, recorded_at,
                                              entry_mac)
            if not hmac.compare_digest(computed, entry_mac if isinstance(entry_mac, str) else ""):
                problems.append(f"Entry #{s} does not match its keyed hash: it was edited outside the terminal.")
                first_bad = s if first_bad is None else first_bad
            prev_seq, prev = s, entry_mac
        return problems, first_bad, (prev_seq, prev)

    def _advance_checkpoint(self) -> None:
        """Inside a write transaction: verify the chain from the checkpoint to the end and, if it holds, move
        the checkpoint to the last entry. A chain that fails leaves the checkpoint where it was (the next
        start-up reports it)."""
        if self._checkpoint is None:
            return
        last = self._written_still_there()
        if last is None:
            self._written.clear()  # verified from the file below; memory is only kept for a chain that holds
            problems, _, last = self.chain_since(*self._checkpoint)
            if problems:
                return
        if last[0] == self.checkpoint_stored:
            return
        self.db.execute(_CHECKPOINT_TABLE)
        self.db.execute("INSERT OR REPLACE INTO checkpoint(id, seq, mac, cp_mac) VALUES (1, ?, ?, ?)",
                        [last[0], last[1], self.checkpoint_mac(*last)])
        self._checkpoint = last
        self.checkpoint_stored = last[0]
        self._written.clear()

    def _written_still_there(self) -> tuple[int, str] | None:
        """``(seq, mac)`` of the last entry when every entry after the verified one (:attr:`_checkpoint`) is one
        this ledger wrote, chained from it, and still stored exactly as written: no other connection has
        committed to the file since (``PRAGMA data_version``), or else the journal rows and postings read back
        (one query each) are those written. Their keyed hashes were computed here over those very values, so
        the chain holds as :meth:`chain_since` would find, without hashing them again. None when that cannot be
        told (an entry written by another connection, or one that differs): then the chain is verified."""
        assert self._checkpoint is not None
        seq, mac = self._checkpoint
        written = self._written
        if not written:
            return None
        for i, (prev, row, _) in enumerate(written):
            if row[0] != seq + 1 + i or prev != (mac if i == 0 else written[i - 1][1][6]):
                return None
        conn = self.db.conn
        if conn.execute("PRAGMA data_version").fetchone()[0] == self._written_since:
            # No other connection has committed anything to the file since the first of these entries was
            # written (SQLite changes data_version at every commit of another connection, of any process):
            # they are stored as this ledger wrote them.
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

    def set_checkpoint(self, seq: int, mac: str) -> None:
        """Record ``(seq, mac)`` as verified (a full audit passed up to it), if it is still that entry."""
        with self.writing():
            row = self.db.execute("SELECT mac FROM journal WHERE seq = ?", [seq]).fetchone()
            if row is None or row[0] != mac or (self._checkpoint is not None and seq <= self._checkpoint[0]):
                return
            self.db.execute(_CHECKPOINT_TABLE)
            self.db.execute("INSERT OR REPLACE INTO checkpoint(id, seq, mac, cp_mac) VALUES (1, ?, ?, ?)",
                            [seq, mac, self.checkpoint_mac(seq, mac)])
        self._checkpoint = (seq, mac)
        self.checkpoint_stored = seq
        self._written = [w for w in self._written if w[1][0] > seq]

    # -- keyed hashes --------------------------------------------------------------------------------------
    def _mac(self, payload: str) -> str:
        """HMAC-SHA256 of ``payload`` under the key, hex (RFC 2104, from the two keyed states made once)."""
        inner = self._hmac_inner.copy()
        inner.update(payload.encode("utf-8"))
        outer = self._hmac_outer.copy()
        outer.update(inner.digest())
        return outer.hexdigest()

    def _meta_mac(self, meta: dict[str, Any]) -> str:
        return self._mac(canonical({k: v for k, v in meta.items() if k != "meta_mac"}))

    def entry_mac(self, prev_mac: str, seq: int, kind: str, op: dict[str, Any], undoes: int | None,
                  rows: Sequence[Row], changes: Sequence[Sequence[Any]], recorded_at: str) -> str:
        """HMAC-SHA256 of the entry and of the previous entry's hash."""
        return self._mac(canonical([prev_mac, seq, kind, op, undoes, [list(r) for r in rows], changes, recorded_at]))

    def _stored_entry_mac(self, prev_mac: Any, seq: int, kind: Any, op: Any, undoes: Any, rows: Sequence[Row],
                          changes: Any, recorded_at: Any, stored_mac: Any) -> str:
        """:meth:`entry_mac` of an entry as stored (``op`` and ``changes``: the stored JSON texts), or "" when
        they are not JSON. Computed first over the stored texts themselves (valid JSON values, so the payload
        reads back the same: no decoding and spelling again); only when that does not give ``stored_mac``, over
        the decoded values, as the hash was always defined."""
        try:
            op_value, changes_value = json.loads(op), json.loads(changes)
        except (ValueError, TypeError, RecursionError):
            return ""
        if type(op) is str and type(changes) is str and isinstance(stored_mac, str):
            try:
                fast = self._mac(_entry_payload(prev_mac, seq, kind, op, undoes, _rows_text(rows), changes,
                                                recorded_at))
            except (ValueError, TypeError, RecursionError):
                fast = ""
            if hmac.compare_digest(fast, stored_mac):
                return fast
        try:
            return self.entry_mac(prev_mac, seq, kind, op_value, undoes, rows, changes_value, recorded_at)
        except (ValueError, TypeError, RecursionError):
            return ""

    def genesis_mac(self) -> str:
        """The 'previous hash' of the first entry: the hash of the header."""
        mac: str = self.meta().get("meta_mac", "")  # a JSON value of the header: a string unless edited
        return mac

    def projection_mac(self, seq: int, state_json: str, last_mac: str) -> str:
        if type(seq) is int and type(state_json) is str and type(last_mac) is str:
            return self._mac(f"[{seq},{_encode_str(state_json)},{_encode_str(last_mac)}]")  # canonical(), spelled
        return self._mac(canonical([seq, state_json, last_mac]))

    # -- reading -------------------------------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        """The game's header. Raises LedgerError for a value that is not JSON (an edited or damaged file)."""
        try:
            return {k: json.loads(v) for k, v in self.db.execute("SELECT key, value FROM meta").fetchall()}
        except (ValueError, TypeError, RecursionError) as exc:
            reason = one_line(exc)[:200]
            raise LedgerError(f"{self.path}: the game's header is damaged or was edited ({reason}). The file was "
                              f"left untouched; restore a backup.", code="ledger_damaged",
                              params={"path": str(self.path), "reason": reason}) from exc

    def projection(self) -> tuple[int, Any, str] | None:
        """``(seq, state_json_dict, mac)`` of the stored projection, or None before the setup entry. The state
        is the JSON value as stored: a dict unless the file was edited (the audit checks it)."""
        row: tuple[int, str, str] | None = self.db.execute(
            "SELECT seq, state, mac FROM projection WHERE id = 1").fetchone()
        if row is None:
            return None
        try:
            return row[0], json.loads(row[1]), row[2]
        except (ValueError, TypeError, RecursionError) as exc:
            reason = one_line(exc)[:200]
            raise LedgerError(f"{self.path}: the stored state is damaged ({reason}).", code="ledger_damaged",
                              params={"path": str(self.path), "reason": reason}) from exc

    def projection_raw(self) -> tuple[int, str, str] | None:
        row: tuple[int, str, str] | None = self.db.execute(
            "SELECT seq, state, mac FROM projection WHERE id = 1").fetchone()
        return row

    def last_entry(self) -> tuple[int, str] | None:
        """``(seq, mac)`` of the last entry."""
        row: tuple[int, str] | None = self.db.execute(
            "SELECT seq, mac FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
        return row

    def entries(self, start: int = 0) -> Iterator[Entry]:
        """Every entry from ``seq >= start`` in order, with its postings."""
        postings: dict[int, list[Row]] = {}
        for seq, n, account, amount in self.db.execute(
                "SELECT seq, n, account, amount FROM postings WHERE seq >= ? ORDER BY seq, n", [start]):
            postings.setdefault(seq, []).append((n, account, amount))
        for seq, kind, op, undoes, changes, recorded_at, mac in self.db.execute(
                "SELECT seq, kind, op, undoes, changes, recorded_at, mac FROM journal WHERE seq >= ? ORDER BY seq",
                [start]):
            yield Entry(seq, kind, json.loads(op), undoes, transfers(postings.get(seq, [])), json.loads(changes),
                        recorded_at, mac)

    def entry(self, seq: int) -> Entry | None:
        return next((e for e in self.entries(seq) if e.seq == seq), None)

    def entry_is_genuine(self, entry: Entry) -> bool:
        """Whether ``entry`` still matches its keyed hash (over itself and the previous entry's hash): a cheap
        check of one entry before it is relied on (an undo pays its postings back)."""
        seq = entry.seq
        if seq == 1:
            prev = self.genesis_mac()
        else:
            row = self.db.execute("SELECT mac FROM journal WHERE seq = ?", [seq - 1]).fetchone()
            if row is None:
                return False
            prev = row[0]
        mac = self.entry_mac(prev, seq, entry.kind, entry.op, entry.undoes, self.posting_rows_of(seq),
                             entry.changes, entry.recorded_at)
        return hmac.compare_digest(mac, entry.mac)

    def posting_rows_of(self, seq: int) -> list[Row]:
        return [tuple(r) for r in self.db.execute(
            "SELECT n, account, amount FROM postings WHERE seq = ? ORDER BY n", [seq]).fetchall()]

    def last_undoable(self, skip: Collection[str] = ()) -> int | None:
        """The ``seq`` of the last operation not yet undone, or None; operations named in ``skip`` (by their
        ``op``) are passed over."""
        names = sorted(skip)
        row = self.db.execute(
            "SELECT seq FROM journal AS j WHERE kind = 'op' AND NOT EXISTS "
            "(SELECT 1 FROM journal AS u WHERE u.undoes = j.seq) "
            f"AND json_extract(op, '$.op') NOT IN ({', '.join('?' * len(names))}) "
            "ORDER BY seq DESC LIMIT 1", names).fetchone()
        return row[0] if row else None

    def balances_by_sql(self) -> dict[str, int]:
        """Each account's balance summed straight from the postings (independent of the projection)."""
        return dict(self.db.execute("SELECT account, SUM(amount) FROM postings GROUP BY account"))

    def schema_problems(self) -> list[str]:
        """What is missing from the game's schema (a table, or a trigger that keeps the journal append-only
        and balanced): dropped or edited with another program. Empty when all is there."""
        have = {(kind, name) for kind, name in self.db.execute("SELECT type, name FROM sqlite_master")}
        return [f"the {kind} {name} is missing" for kind, name in _EXPECTED_SCHEMA if (kind, name) not in have]

    def pragma(self, name: str) -> Any:
        return self.db.execute(f"PRAGMA {name}").fetchone()[0]

    # -- writing -------------------------------------------------------------------------------------------
    def append(self, kind: str, op: dict[str, Any], undoes: int | None, postings: Sequence[tuple[str, str, int]],
               changes: Sequence[Sequence[Any]], state_json: dict[str, Any]) -> int:
        """Write one entry, its postings and the new projection in one transaction; return its ``seq``.

        Each JSON text is made once: the entry's keyed hash is computed over the very texts stored (see
        :func:`_entry_payload`), and the projection reuses the spelling of every section of ``state_json``
        that did not change since the last entry (``state_json`` is not changed afterwards by the caller).
        Inside :meth:`batch` the entry is a savepoint of the batch's transaction instead of its own.

        Raises :class:`LedgerError` if the file cannot be written; then nothing of the entry is written.
        """
        if self.guard is not None:
            self.settle()  # a game judged meanwhile: checkpoints resume, or its files are put back as found
            self.guard.before_write(self)  # raises once the start-up checks have failed
        rows = posting_rows(postings)
        recorded_at = self._recorded_at()
        op_text = canonical(op)
        changes_text = canonical(changes)
        if "{" in changes_text and not _keys_are_texts(changes):
            # objects keyed by other than texts: stored as they read back (keys as texts, sorted as texts)
            changes_text = canonical(json.loads(changes_text))
        rows_text = _rows_text(rows)
        state_text = self._state_text(state_json)
        conn = self.db.conn
        # One transaction (or, inside a batch, a savepoint of it), as writing() makes, spelled out: this is the
        # path of every operation.
        nested = conn.in_transaction or self._batch is not None
        try:
            if not conn.in_transaction:
                conn.execute("BEGIN IMMEDIATE")
            if nested:
                conn.execute("SAVEPOINT entry")
            try:
                # The last entry: the one this ledger wrote last, unless another connection has committed to
                # the file since (PRAGMA data_version changes then); else as stored.
                version = conn.execute("PRAGMA data_version").fetchone()[0]
                ours = self._last_written
                last = ours[:2] if ours is not None and ours[2] == version else conn.execute(
                    "SELECT seq, mac FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
                seq = (last[0] + 1) if last else 1
                prev = last[1] if last else self.genesis_mac()
                mac = self._mac(_entry_payload(prev, seq, kind, op_text, undoes, rows_text, changes_text,
                                               recorded_at))
                entry_row = (seq, kind, op_text, undoes, changes_text, recorded_at, mac)
                rows_stored = [(seq, n, account, amount) for n, account, amount in rows]
                if rows_stored:
                    conn.executemany("INSERT INTO postings(seq, n, account, amount) VALUES (?, ?, ?, ?)",
                                     rows_stored)
                conn.execute("INSERT INTO journal(seq, kind, op, undoes, changes, recorded_at, mac) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?)", entry_row)
                conn.execute("INSERT OR REPLACE INTO projection(id, seq, state, mac) VALUES (1, ?, ?, ?)",
                             (seq, state_text, self.projection_mac(seq, state_text, mac)))
                written = self._written
                if not written:  # what other connections have committed so far (see _written_still_there)
                    self._written_since = version
                written.append((prev, entry_row, rows_stored))
                try:
                    if self.marked and self._checkpoint is not None and \
                            seq - self.checkpoint_stored >= CHECKPOINT_EVERY:
                        self._advance_checkpoint()
                    conn.execute("RELEASE SAVEPOINT entry" if nested else "COMMIT")
                    self._last_written = (seq, mac, version)
                except BaseException:
                    if written and written[-1][1] is entry_row:
                        written.pop()
                    raise
            except BaseException:
                if conn.in_transaction:  # an error may have ended the whole transaction already
                    with contextlib.suppress(sqlite3.Error):
                        if nested:
                            conn.execute("ROLLBACK TO SAVEPOINT entry")
                            conn.execute("RELEASE SAVEPOINT entry")
                        else:
                            conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise LedgerError(f"The operation could not be written to {self.path} ({exc}); nothing was "
                              f"recorded.", code="ledger_write_failed",
                              params={"path": str(self.path), "reason": str(exc)}) from exc
        if self.mirror is not None:
            line = (f'{{"changes":{changes_text},"kind":{canonical(kind)},"mac":{canonical(mac)},"op":{op_text},'
                    f'"recorded_at":{canonical(recorded_at)},"rows":{rows_text},"seq":{seq},'
                    f'"undoes":{"null" if undoes is None else canonical(undoes)}}}')  # canonical() of the entry
            if self._batch is None:
                self._mirror_lines([line])
            else:
                self._batch.lines.append(line)
        if self._batch is not None:
            self._batch.entry(self)
        return seq

    def _recorded_at(self) -> str:
        """The time an entry is recorded, to the second (UTC, ISO 8601), spelled once per second."""
        second = int(time.time())
        if second != self._recorded_second:
            self._recorded_text = datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds")
            self._recorded_second = second
        return self._recorded_text

    def _state_text(self, state: Any) -> str:
        """``canonical(state)``, reusing the spelling of each top-level section equal (``==``, of the same type)
        to the one of the last call: most operations change one or two sections of the state. (Equal values
        spelled differently inside a section, as ``0`` and ``false``, would keep the first spelling: the state's
        values never change type, flags being booleans and counts and money integers.)"""
        if type(state) is not dict:
            return canonical(state)
        keys = self._state_keys
        if state.keys() != keys[0]:
            if not all(type(k) is str for k in state):
                return canonical(state)
            keys = self._state_keys = (set(state), sorted(state))
        cache = self._state_parts
        parts = []
        for k in keys[1]:
            v = state[k]
            hit = cache.get(k)
            if hit is None or hit[0] != v or type(hit[0]) is not type(v):
                hit = cache[k] = (v, f"{_encode_str(k)}:{canonical(v)}")
            parts.append(hit[1])
        return "{" + ",".join(parts) + "}"

    @contextlib.contextmanager
    def batch(self, every: int = BATCH_ENTRIES) -> Iterator[None]:
        """Write the entries appended in this block in transactions of up to ``every`` entries (a replay, never
        live play, which commits each entry durably before it is acknowledged): each entry is still its own
        journal entry, written whole or not at all (a savepoint of the batch's transaction), and checked as it
        is applied; what was appended is committed durably (``synchronous=FULL``) when the block ends, also
        when it ends with an error: the entries before the error are kept, as one transaction per entry would
        have kept them (a commit that fails then is not raised over the error). The mirror gets each entry once
        its transaction is committed. Raises LedgerError when the last commit fails."""
        if self._batch is not None or self.db.conn.in_transaction:
            yield  # already in a batch or a transaction: its commit is the one that counts
            return
        batch = _Batch(every)
        self._batch = batch
        try:
            yield
        except BaseException:
            self._batch = None
            with contextlib.suppress(sqlite3.Error, LedgerError):
                batch.commit(self)
            raise
        self._batch = None
        batch.commit(self)

    # -- the mirror of acknowledged entries -------------------------------------------------------------------
    def _mirror_lines(self, lines: list[str]) -> None:
        """Append committed entries (their canonical lines) to the mirror (:attr:`mirror`), flushed to disk before
        the operation is acknowledged: a second durable record, so a game file that lost the end of its journal
        (a damaged WAL frame makes SQLite drop every later frame) is noticed and mended at the next start. A
        mirror that cannot be written is logged by the caller through :attr:`mirror_problem`; the entry itself
        is committed."""
        if self.mirror is None or not lines:
            return
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        try:
            fd = self._mirror_fd
            opened = fd is None
            if fd is None:
                make_directories(self.mirror.parent)
                # never through a link planted at its name; a new one's mode whatever the umask
                fd = self._mirror_fd = open_for_append(self.mirror, FILE_MODE)
            os.write(fd, data)
            (os.fdatasync if hasattr(os, "fdatasync") else os.fsync)(fd)
            if opened:
                # The mirror's name (new, or made by a version that never flushed it) is durable before the
                # entry is acknowledged: fdatasync flushes the data, not the folder that names it (issue 21,
                # point 2: 15 of 109 power-loss states with a damaged WAL frame lost entries that way).
                fsync_directory(self.mirror.parent)
            self.mirror_problem = None
        except OSError as exc:
            self.mirror_problem = f"cannot write the mirror {self.mirror}: {exc.strerror or exc}"

    def mirror_entries(self, start: int) -> None:
        """Write the file's entries from ``start`` on to the mirror, as :meth:`append` writes each (the setup entry
        of a new game, written before the mirror was named)."""
        lines = []
        for e in self.entries(start):
            rows = self.posting_rows_of(e.seq)
            lines.append(canonical({"changes": e.changes, "kind": e.kind, "mac": e.mac, "op": e.op,
                                    "recorded_at": e.recorded_at, "rows": [list(r) for r in rows], "seq": e.seq,
                                    "undoes": e.undoes}))
        self._mirror_lines(lines)

    def mirrored_after(self, seq: int) -> list[dict[str, Any]]:
        """The mirror's entries after ``seq``, in order (only the mirror's end is read when it has few)."""
        if self.mirror is None or not self.mirror.is_file():
            return []
        with open(self.mirror, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            chunk = 64 * 1024
            while True:
                start = max(0, size - chunk)
                f.seek(start)
                data = f.read(size - start)
                lines = data.split(b"\n")
                if start > 0:
                    lines = lines[1:]  # a partial first line
                found: list[dict[str, Any]] = []
                first: int | None = None  # the seq of the chunk's first entry that reads
                for raw in lines:
                    if first is not None:
                        # A line as the mirror writes it (canonical: "seq" and "undoes" come last) that names an
                        # entry up to ``seq`` is not wanted, whether or not the rest of it reads: not decoded.
                        tail = _MIRROR_TAIL.search(raw, max(0, len(raw) - 64))
                        if tail is not None and int(tail.group(1)) <= seq:
                            continue
                    try:
                        entry = json.loads(raw)
                    except (ValueError, RecursionError):
                        continue  # a torn last line (a power cut while it was written) or damage
                    if isinstance(entry, dict) and isinstance(entry.get("seq"), int):
                        if first is None:
                            first = entry["seq"]
                        if entry["seq"] > seq:
                            found.append(entry)
                if start == 0 or (first is not None and first <= seq + 1):
                    return found
                chunk *= 4

    def restore_mirrored(self, entries: list[dict[str, Any]], state_json: dict[str, Any]) -> None:
        """Write back ``entries`` (the mirror's, verified by the caller against the keyed chain) exactly as
        they were recorded, and the projection ``state_json`` after them, in one transaction."""
        self._last_written = None
        with self.writing():
            for e in entries:
                rows = [tuple(r) for r in e["rows"]]
                self.db.conn.executemany("INSERT INTO postings(seq, n, account, amount) VALUES (?, ?, ?, ?)",
                                         [(e["seq"], n, account, amount) for n, account, amount in rows])
                self.db.execute("INSERT INTO journal(seq, kind, op, undoes, changes, recorded_at, mac) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                                [e["seq"], e["kind"], canonical(e["op"]), e["undoes"], canonical(e["changes"]),
                                 e["recorded_at"], e["mac"]])
            last = entries[-1]
            state_text = canonical(state_json)
            self.db.execute("INSERT OR REPLACE INTO projection(id, seq, state, mac) VALUES (1, ?, ?, ?)",
                            [last["seq"], state_text, self.projection_mac(last["seq"], state_text, last["mac"])])


#: An entry this ledger wrote, as stored: the hash it chained to, its journal row and its postings rows.
_Written = tuple[str, tuple[int, str, str, "int | None", str, str, str], list[tuple[int, int, str, int]]]


class _Batch:
    """The transaction of :meth:`Ledger.batch`: begun at its first entry, committed every ``every`` entries
    and at the end; the mirror's lines of its entries wait for the commit."""

    def __init__(self, every: int):
        self.every = max(1, every)
        self.count = 0
        self.lines: list[str] = []

    def entry(self, ledger: Ledger) -> None:
        self.count += 1
        if self.count % self.every == 0:
            self.commit(ledger)

    def commit(self, ledger: Ledger) -> None:
        conn = ledger.db.conn
        if conn.in_transaction:
            try:
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                self.lines = []
                ledger._last_written = None  # the batch's entries are not in the file
                ledger._written.clear()
                raise LedgerError(f"The operations could not be written to {ledger.path} ({exc}); the "
                                  f"last ones were not recorded.", code="ledger_write_failed",
                                  params={"path": str(ledger.path), "reason": str(exc)}) from exc
        lines, self.lines = self.lines, []
        ledger._mirror_lines(lines)


#: The end of a mirror's line: its entry's seq (then "undoes", the last key of the canonical spelling).
_MIRROR_TAIL = re.compile(rb',"seq":(\d+),"undoes":(?:null|-?\d+)\}\r?$')

FILE_MODE = 0o640  # the owner writes, the service's group may read; others nothing, whatever the umask


def make_private_file(path: Path, mode: int = FILE_MODE) -> None:
    """Create the empty file ``path`` (which must not exist) with ``mode`` exactly, whatever the umask; SQLite
    then gives the file's ``-wal`` and ``-shm`` the same mode. Raises OSError."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def one_line(exc: BaseException | str) -> str:
    """An error message on one line (SQLite's integrity messages span several)."""
    return "; ".join(part.strip() for part in str(exc).splitlines() if part.strip())


def damaged(path: Path, exc: BaseException) -> LedgerError:
    """The one-line refusal of a game file that SQLite cannot read (the file is left untouched)."""
    return LedgerError(f"{path} is damaged ({one_line(exc)}). It was left untouched; restore a backup.",
                       code="ledger_damaged", params={"path": str(path), "reason": one_line(exc)})


@dataclass
class AsFound:
    """A game's files as start-up found them, before anything wrote to them (issue 21, point 4): the bytes of its
    ``-wal`` and ``-shm`` (None: there was none) and, for a file not in WAL mode (a backup put in place of a game,
    whose header the switch to WAL rewrites), a byte copy of the file itself. Also kept on disk, beside the game,
    in ``record`` (``.<name>.as-found/``, not flushed: it costs the resume no disk wait), so that a process killed
    before the game was judged leaves it for the next start-up, which keeps the older record (the file itself has
    not changed since: nothing checkpoints a game not yet judged) and judges again.

    Made by :meth:`take` before the connection that plays is opened; :meth:`restore` puts it back, :meth:`drop`
    forgets it."""

    record: Path
    wal: bytes | None
    shm: bytes | None
    main: Path | None
    stat: tuple[int, int]  # (size, mtime_ns) of the file when taken

    FOUND = "found"

    @classmethod
    def take(cls, path: Path, shm: bytes | None) -> AsFound:
        """Record what is at ``path`` now, with ``shm``, the bytes of its ``-shm`` as found before anything opened it
        (None: there was none), or keep the record an unjudged session left, if the file has not changed since.
        Raises OSError when it cannot be read or recorded: then the game is not resumed."""
        path = Path(path)
        record = path.with_name(f".{path.name}.as-found")
        st = path.stat()
        stat = (st.st_size, st.st_mtime_ns)
        kept = cls._load(record, stat)
        if kept is not None:
            return kept
        shutil.rmtree(record, ignore_errors=True)
        wal = companions(path)[0]
        wal_bytes = wal.read_bytes() if wal.exists() else None
        shm_bytes = shm
        record.mkdir(mode=0o700)
        main = None
        if _head(path) != SQLITE_MAGIC or _journal_mode_byte(path) != 2:  # not in WAL mode: the switch writes it
            main = record / "db"
            shutil.copyfile(path, main)
        for name, data in (("wal", wal_bytes), ("shm", shm_bytes)):
            if data is not None:
                (record / name).write_bytes(data)
        (record / cls.FOUND).write_text(json.dumps({"size": stat[0], "mtime_ns": stat[1], "wal": wal_bytes is not None,
                                                    "shm": shm_bytes is not None, "db": main is not None}),
                                        encoding="utf-8")  # last: a record without it is incomplete
        return cls(record, wal_bytes, shm_bytes, main, stat)

    @classmethod
    def _load(cls, record: Path, stat: tuple[int, int]) -> AsFound | None:
        try:
            info = json.loads((record / cls.FOUND).read_text(encoding="utf-8"))
            if not isinstance(info, dict) or (info.get("size"), info.get("mtime_ns")) != stat:
                return None  # the file changed since (written by something else): that record is not of it
            wal = (record / "wal").read_bytes() if info.get("wal") else None
            shm = (record / "shm").read_bytes() if info.get("shm") else None
            main = record / "db" if info.get("db") else None
            if main is not None and not main.is_file():
                return None
        except (OSError, ValueError):
            return None
        return cls(record, wal, shm, main, stat)

    def restore(self, path: Path) -> None:
        """Put the files back at ``path`` as recorded (no connection may have the game open). Raises OSError."""
        wal, shm = companions(path)
        if self.main is not None:
            with open(self.main, "rb") as src, open(path, "r+b") as dst:  # in place: the same file, its lock kept
                shutil.copyfileobj(src, dst)
                dst.truncate()
        for side, data in ((wal, self.wal), (shm, self.shm)):
            if data is None:
                side.unlink(missing_ok=True)
                continue
            tmp = side.with_name(f".{side.name}.putback")
            tmp.write_bytes(data)
            os.replace(tmp, side)
        if self.main is not None:
            os.utime(path, ns=(time.time_ns(), self.stat[1]))

    def drop(self) -> None:
        shutil.rmtree(self.record, ignore_errors=True)


def _journal_mode_byte(path: Path) -> int:
    """The file format's write version (byte 18 of an SQLite header): 2 in WAL mode, 1 with a rollback journal."""
    try:
        with open(path, "rb") as f:
            header = f.read(19)
    except OSError:
        return 0
    return header[18] if len(header) > 18 else 0


def companions(path: Path) -> tuple[Path, Path]:
    """The game's ``-wal`` and ``-shm`` files (which may not exist)."""
    return path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


def _stat_key(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def private_view(path: Path, *, copy: bool = True) -> tuple[sqlite_utils.Database, Callable[[], None] | None]:
    """A connection that reads the game at ``path`` without writing or creating anything beside it, and the
    private folder to delete afterwards (None if there is none). Every read sees one moment of the game.

    - A game no connection has open (no ``-shm``, or no ``-wal``: a ``-shm`` alone is a dead process's) is
      copied, file and WAL (or rollback journal), byte for byte into a private folder and the copy is opened
      (SQLite applies the WAL, or rolls the journal back, on the copy, never on the game). The copy is taken
      again if the game changed while it was copied.
    - A game another connection has open (the terminal at the table) is copied through SQLite's backup API
      from a read-only connection: one read transaction, never a checkpoint.
    - ``copy=False`` (the terminal's own checks before it resumes a game, where a copy would cost too much):
      a cleanly closed game (no ``-wal``, no hot ``-journal``) is read in place as immutable; another is read in place
      through a read-only connection, and a ``-shm`` that SQLite had to create for it is removed afterwards
      (the game file and its WAL are never written).
    Raises LedgerError for a file SQLite cannot read.
    """
    wal, _ = companions(path)
    try:
        # No -wal: nothing but the file holds the game (a connection that has the game open has its -wal), and a
        # -shm left beside it by a process that died (a crash between a game's creation and its first entry) is
        # nothing to read: a connection that used it would create an empty -wal and grow it (issue 21, point 6).
        copy = copy or _journal(path).exists()  # a hot journal is rolled back on a private copy, never in place
        if not copy and not wal.exists():
            uri = f"{path.resolve().as_uri()}?immutable=1"
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA query_only = ON")
            return sqlite_utils.Database(conn), None
        if not copy and _head(path) == SQLITE_MAGIC:  # SQLite may drop the WAL of an empty or foreign file
            return _read_only_in_place(path)
        folder = Path(tempfile.mkdtemp(prefix="banquier-view-"))
    except sqlite3.DatabaseError as exc:
        raise LedgerError(f"{path} is not a readable game file ({one_line(exc)}). It was left untouched; restore "
                          f"a backup or start a new game.", code="ledger_unreadable",
                          params={"path": str(path), "reason": one_line(exc)}) from exc
    except OSError as exc:
        raise LedgerError(f"Cannot make a private copy of {path} to read it: {exc.strerror or exc}.",
                          code="ledger_unreadable", params={"path": str(path), "reason": str(exc)}) from exc
    target = folder / "game.db"
    try:
        private_copy(path, target)
        conn = sqlite3.connect(str(target), isolation_level=None, check_same_thread=False)
        return sqlite_utils.Database(conn), lambda: shutil.rmtree(folder, ignore_errors=True)
    except sqlite3.DatabaseError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise LedgerError(f"{path} is not a readable game file ({one_line(exc)}). It was left untouched; restore "
                          f"a backup or start a new game.", code="ledger_unreadable",
                          params={"path": str(path), "reason": one_line(exc)}) from exc
    except OSError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise LedgerError(f"Cannot read {path}: {exc.strerror or exc}. It was left untouched.",
                          code="ledger_unreadable", params={"path": str(path), "reason": str(exc)}) from exc
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


def private_copy(path: Path, target: Path) -> None:
    """Copy the game at ``path`` to ``target`` (in a private folder) without writing or creating anything
    beside ``path``: byte for byte when no connection has it open, else through SQLite's backup API (see
    :func:`private_view`). Raises OSError or sqlite3.Error."""
    if not _copy_quiet_game(path, target):
        _copy_live_game(path, target)


def _copy_quiet_game(path: Path, target: Path, attempts: int = 3) -> bool:
    """Copy the file and WAL (or hot rollback journal) of a game no connection has open; False if one has it open
    (or opened it meanwhile, every time). A ``-shm`` without a ``-wal`` is a dead process's: no connection has the
    game open (one that has, has its ``-wal``)."""
    wal, shm = companions(path)
    journal = _journal(path)
    sides = ((wal, target.with_name(target.name + "-wal")), (journal, target.with_name(target.name + "-journal")))

    def live() -> bool:
        return shm.exists() and wal.exists()
    for _ in range(attempts):
        if live():
            return False
        before = _stat_key(path), _stat_key(wal), _stat_key(journal)
        shutil.copyfile(path, target)
        copied = True
        for (side, target_side), stat in zip(sides, before[1:], strict=True):
            if stat is None:
                target_side.unlink(missing_ok=True)
                continue
            try:
                shutil.copyfile(side, target_side)
            except FileNotFoundError:
                target_side.unlink(missing_ok=True)
                copied = False
        if copied and not live() and (_stat_key(path), _stat_key(wal), _stat_key(journal)) == before:
            return True
    return False


def _journal(path: Path) -> Path:
    """The game's rollback journal (a backup, in ``journal_mode=DELETE``, that a crash left mid-transaction)."""
    return path.with_name(path.name + "-journal")


def _copy_live_game(path: Path, target: Path) -> None:
    """Copy a game another connection has open: SQLite's backup API, from a read-only connection, in one
    step (one read transaction)."""
    source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        source.execute("PRAGMA query_only = ON")
        dest = sqlite3.connect(str(target))
        try:
            source.backup(dest)
        finally:
            dest.close()
    finally:
        source.close()


SQLITE_MAGIC = b"SQLite format 3\x00"


def _head(path: Path) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC))
    except OSError:
        return b""


def _read_only_in_place(path: Path) -> tuple[sqlite_utils.Database, Callable[[], None] | None]:
    _, shm = companions(path)
    had_shm = shm.exists()
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None,
                           timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
    conn.execute("PRAGMA query_only = ON")

    def cleanup() -> None:
        if not had_shm:
            with contextlib.suppress(OSError):
                shm.unlink()
    return sqlite_utils.Database(conn), cleanup


def _close_view(db: sqlite_utils.Database, cleanup: Callable[[], None] | None) -> None:
    try:
        db.close()
    finally:
        if cleanup is not None:
            cleanup()


def key_id(key: bytes) -> str:
    """A short public fingerprint of a device key, stored in each game to tell 'another device's key'
    from 'edited'."""
    return hmac.new(key, b"banquier key id", hashlib.sha256).hexdigest()[:16]
