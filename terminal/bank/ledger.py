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

Every write is one transaction (``Database.atomic``): all of an entry is in the file, or none of it.
The file runs with ``journal_mode=WAL`` and ``synchronous=FULL`` so a committed operation survives a power
cut (field-notes.md, Storage).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import sqlite3
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlite_utils

from terminal.errors import LedgerError

SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 5000

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


def canonical(value: Any) -> str:
    """The one JSON spelling hashed and stored: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Entry:
    """One journal entry as stored. ``postings``: ``(payer, payee, amount)`` transfers rebuilt from the signed
    rows. ``changes``: ``[section, key, before, after]`` lists."""

    seq: int
    kind: str
    op: dict
    undoes: int | None
    postings: list[tuple[str, str, int]]
    changes: list[list]
    recorded_at: str
    mac: str


def posting_rows(postings: list[tuple[str, str, int]]) -> list[tuple[int, str, int]]:
    """Signed rows ``(n, account, amount)``: a transfer of A to B of x is (A, -x) then (B, +x)."""
    rows = []
    for i, (payer, payee, amount) in enumerate(postings):
        rows.append((2 * i, payer, -amount))
        rows.append((2 * i + 1, payee, amount))
    return rows


def _transfers(rows: list[tuple[int, str, int]]) -> list[tuple[str, str, int]]:
    out = []
    for i in range(0, len(rows) - 1, 2):
        (_, payer, _debit), (_, payee, credit) = rows[i], rows[i + 1]
        out.append((payer, payee, credit))
    return out


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
        self.was_unclean = False
        self.read_only = False
        self.marked = False

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
               setup: tuple[list, list, dict] | None = None) -> Ledger:
        """Create a new game file at ``path`` (which must not exist) with the header ``meta`` and, if given,
        the setup entry ``(postings, changes, state_json)``.

        The file is built under a temporary name beside ``path`` and renamed only once it is complete, so a
        crash or a failed write never leaves a half-made game at ``path`` (the path stays free to retry).
        """
        path = Path(path)
        if path.exists():
            raise LedgerError(f"{path} already exists: a game file is never overwritten.",
                              code="ledger_exists", params={"path": str(path)})
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LedgerError(f"Cannot create the data directory {path.parent}: {exc.strerror}.",
                              code="ledger_unwritable", params={"path": str(path)}) from exc
        building = path.with_name(f".{path.name}.creating")
        for leftover in (building, *(building.with_name(building.name + s) for s in ("-wal", "-shm", "-journal"))):
            leftover.unlink(missing_ok=True)  # a previous attempt that died half-way
        db = cls._connect(building)
        ledger = cls(building, db, key)
        meta = {**meta, "schema_version": SCHEMA_VERSION, "key_id": key_id(key)}
        try:
            with db.atomic():
                for statement in _SCHEMA.split(";\n"):
                    if statement.strip():
                        db.execute(statement)
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
            _fsync_directory(path.parent)
        except OSError as exc:
            building.unlink(missing_ok=True)
            raise LedgerError(f"Cannot put the new game file in place at {path}: {exc.strerror}.",
                              code="ledger_unwritable", params={"path": str(path)}) from exc
        ledger = cls.open(path, key)
        ledger.mark_open()
        return ledger

    @classmethod
    def open(cls, path: str | Path, key: bytes, *, read_only: bool = False) -> Ledger:
        """Open an existing game file; ``was_unclean`` tells whether the previous session ended without
        :meth:`close`. Nothing is written here: the caller marks the file open with :meth:`mark_open` once it
        trusts it (so a refused file is left byte for byte as it was). ``read_only``: for commands that only
        look (audit, export, list): SQLite opens the file read-only and nothing can ever be written."""
        path = cls.check_file(path)
        db = cls._connect_read_only(path) if read_only else cls._connect(path)
        ledger = cls(path, db, key)
        ledger.read_only = read_only
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
            db.close()
            raise
        except sqlite3.DatabaseError as exc:
            db.close()
            raise LedgerError(f"{path} is damaged ({exc}). It was left untouched; restore a backup.",
                              code="ledger_damaged", params={"path": str(path), "reason": str(exc)}) from exc
        return ledger

    def mark_open(self) -> None:
        """Record that the file is in use (cleared by :meth:`close`): an unclean stop is detected next time."""
        try:
            with self.db.atomic():
                self.db.execute("INSERT OR REPLACE INTO session(id, open) VALUES (1, 1)")
        except sqlite3.Error as exc:
            raise LedgerError(f"Cannot write to {self.path} ({exc}): is the data directory read-only?",
                              code="ledger_unwritable", params={"path": str(self.path)}) from exc
        self.marked = True

    @staticmethod
    def _read_only_uri(path: Path) -> str:
        """A URI that reads ``path`` without writing anything beside it: a cleanly closed game (no WAL content)
        is read as immutable, so SQLite creates no ``-wal``/``-shm`` file; after an unclean stop the WAL is
        read too (``mode=ro``)."""
        wal = path.with_name(path.name + "-wal")
        has_wal = wal.exists() and wal.stat().st_size > 0
        return f"{path.resolve().as_uri()}?{'mode=ro' if has_wal else 'immutable=1'}"

    @classmethod
    def _connect_read_only(cls, path: Path) -> sqlite_utils.Database:
        try:
            conn = sqlite3.connect(cls._read_only_uri(path), uri=True, isolation_level=None)
            return sqlite_utils.Database(conn)
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"{path} is not a readable game file ({exc}). It was left untouched.",
                              code="ledger_unreadable", params={"path": str(path), "reason": str(exc)}) from exc

    @classmethod
    def check_file(cls, path: str | Path) -> Path:
        """Refuse, without writing anything, a path that is not a Banquier game file (missing, a folder,
        another program's file, damaged). Returns the path."""
        path = Path(path)
        if not path.is_file():
            what = f"{path} is a folder, not a game file" if path.is_dir() else f"There is no game file {path}"
            raise LedgerError(f"{what}.", code="ledger_missing", params={"path": str(path)})
        cls._check_readonly(path)
        return path

    @classmethod
    def _check_readonly(cls, path: Path) -> None:
        """Look at a file read-only before anything writes to it: it must be an SQLite database with every
        table of a Banquier game. Another program's file, a truncated or a damaged one is refused untouched."""
        try:
            conn = sqlite3.connect(cls._read_only_uri(path), uri=True)
            try:
                tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            finally:
                conn.close()
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"{path} is not a readable game file ({exc}). It was left untouched; restore a "
                              f"backup or start a new game.", code="ledger_unreadable",
                              params={"path": str(path), "reason": str(exc)}) from exc
        missing = {"meta", "journal", "postings", "projection", "session"} - tables
        if missing:
            raise LedgerError(f"{path} is not a Banquier game file (no {', '.join(sorted(missing))} table). "
                              f"It was left untouched.", code="ledger_not_a_game", params={"path": str(path)})

    def close(self) -> None:
        """Mark the file cleanly closed (if it was marked open), checkpoint the WAL and close the connection."""
        try:
            if self.marked:
                with self.db.atomic():
                    self.db.execute("UPDATE session SET open = 0 WHERE id = 1")
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass
        finally:
            self.db.close()

    # -- keyed hashes --------------------------------------------------------------------------------------
    def _mac(self, payload: str) -> str:
        return hmac.new(self.key, payload.encode("utf-8"), hashlib.sha256).hexdigest()

    def _meta_mac(self, meta: dict[str, Any]) -> str:
        return self._mac(canonical({k: v for k, v in meta.items() if k != "meta_mac"}))

    def entry_mac(self, prev_mac: str, seq: int, kind: str, op: dict, undoes: int | None,
                  rows: list[tuple[int, str, int]], changes: list, recorded_at: str) -> str:
        """HMAC-SHA256 of the entry and of the previous entry's hash."""
        return self._mac(canonical([prev_mac, seq, kind, op, undoes, [list(r) for r in rows], changes, recorded_at]))

    def genesis_mac(self) -> str:
        """The 'previous hash' of the first entry: the hash of the header."""
        return self.meta().get("meta_mac", "")

    def projection_mac(self, seq: int, state_json: str, last_mac: str) -> str:
        return self._mac(canonical([seq, state_json, last_mac]))

    # -- reading -------------------------------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        """The game's header. Raises LedgerError for a value that is not JSON (an edited or damaged file)."""
        try:
            return {k: json.loads(v) for k, v in self.db.execute("SELECT key, value FROM meta").fetchall()}
        except (json.JSONDecodeError, TypeError) as exc:
            raise LedgerError(f"{self.path}: the game's header is damaged or was edited ({exc}). The file was "
                              f"left untouched; restore a backup.", code="ledger_damaged",
                              params={"path": str(self.path), "reason": str(exc)}) from exc

    def projection(self) -> tuple[int, dict, str] | None:
        """``(seq, state_json_dict, mac)`` of the stored projection, or None before the setup entry."""
        row = self.db.execute("SELECT seq, state, mac FROM projection WHERE id = 1").fetchone()
        if row is None:
            return None
        try:
            return row[0], json.loads(row[1]), row[2]
        except (json.JSONDecodeError, TypeError) as exc:
            raise LedgerError(f"{self.path}: the stored state is damaged ({exc}).", code="ledger_damaged",
                              params={"path": str(self.path), "reason": str(exc)}) from exc

    def projection_raw(self) -> tuple[int, str, str] | None:
        return self.db.execute("SELECT seq, state, mac FROM projection WHERE id = 1").fetchone()

    def last_entry(self) -> tuple[int, str] | None:
        """``(seq, mac)`` of the last entry."""
        return self.db.execute("SELECT seq, mac FROM journal ORDER BY seq DESC LIMIT 1").fetchone()

    def entries(self, start: int = 0) -> Iterator[Entry]:
        """Every entry from ``seq >= start`` in order, with its postings."""
        postings: dict[int, list] = {}
        for seq, n, account, amount in self.db.execute(
                "SELECT seq, n, account, amount FROM postings WHERE seq >= ? ORDER BY seq, n", [start]):
            postings.setdefault(seq, []).append((n, account, amount))
        for seq, kind, op, undoes, changes, recorded_at, mac in self.db.execute(
                "SELECT seq, kind, op, undoes, changes, recorded_at, mac FROM journal WHERE seq >= ? ORDER BY seq",
                [start]):
            yield Entry(seq, kind, json.loads(op), undoes, _transfers(postings.get(seq, [])), json.loads(changes),
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

    def posting_rows_of(self, seq: int) -> list[tuple[int, str, int]]:
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

    def pragma(self, name: str) -> Any:
        return self.db.execute(f"PRAGMA {name}").fetchone()[0]

    # -- writing -------------------------------------------------------------------------------------------
    def append(self, kind: str, op: dict, undoes: int | None, postings: list[tuple[str, str, int]],
               changes: list, state_json: dict) -> int:
        """Write one entry, its postings and the new projection in one transaction; return its ``seq``.

        Raises :class:`LedgerError` if the file cannot be written; then nothing of the entry is written.
        """
        rows = posting_rows(postings)
        recorded_at = datetime.now(UTC).isoformat(timespec="seconds")
        changes = json.loads(canonical(changes))  # as it will read back
        try:
            with self.db.atomic():
                last = self.last_entry()
                seq = (last[0] + 1) if last else 1
                prev = last[1] if last else self.genesis_mac()
                mac = self.entry_mac(prev, seq, kind, op, undoes, rows, changes, recorded_at)
                self.db.conn.executemany("INSERT INTO postings(seq, n, account, amount) VALUES (?, ?, ?, ?)",
                                         [(seq, n, account, amount) for n, account, amount in rows])
                self.db.execute("INSERT INTO journal(seq, kind, op, undoes, changes, recorded_at, mac) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                                [seq, kind, canonical(op), undoes, canonical(changes), recorded_at, mac])
                state_text = canonical(state_json)
                self.db.execute("INSERT OR REPLACE INTO projection(id, seq, state, mac) VALUES (1, ?, ?, ?)",
                                [seq, state_text, self.projection_mac(seq, state_text, mac)])
        except sqlite3.Error as exc:
            raise LedgerError(f"The operation could not be written to {self.path} ({exc}); nothing was "
                              f"recorded.", code="ledger_write_failed",
                              params={"path": str(self.path), "reason": str(exc)}) from exc
        return seq


def _fsync_directory(folder: Path) -> None:
    """Make a rename in ``folder`` durable (a power cut after it keeps the new name)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def key_id(key: bytes) -> str:
    """A short public fingerprint of a device key, stored in each game to tell 'another device's key'
    from 'edited'."""
    return hmac.new(key, b"banquier key id", hashlib.sha256).hexdigest()[:16]
