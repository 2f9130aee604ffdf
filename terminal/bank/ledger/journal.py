"""The journal of one game on a crash-safe SQLite file: :class:`Ledger`, the connection that reads and writes it.

One file per game (its tables: :mod:`terminal.bank.ledger.schema`). Every write is one transaction begun with
``BEGIN IMMEDIATE`` (:meth:`Ledger.writing`): all of an entry is in the file, or none of it, and a writer waits
out another one within the busy timeout. An entry is written by :meth:`Ledger.append`: its journal row, its
postings and the new projection in one transaction, committed durably (``synchronous=FULL``: the WAL's one flush)
before it returns; then, a step of its own, its line in the mirror (:mod:`terminal.bank.ledger.mirror`), flushed
with the WAL's folding into the file by :meth:`Ledger.settle_writes` after the entry's beep, off the path from the
tap to the beep. The entry's keyed hash
(:mod:`terminal.bank.ledger.keys`) chains it to the previous one; the keyed checkpoint moves forward as entries
are written (:mod:`terminal.bank.ledger.chain`). The time of each entry is read from the injected wall clock
(``clock``).
"""
from __future__ import annotations

import contextlib
import hmac
import json
import os
import sqlite3
from collections.abc import Callable, Collection, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import sqlite_utils

from terminal.bank.durable import fsync_directory, make_directories
from terminal.bank.ledger import chain, mirror, schema
from terminal.bank.ledger.batch import BATCH_ENTRIES, Batch
from terminal.bank.ledger.chain import Checkpoint
from terminal.bank.ledger.files import (
    AsFound,
    check_file,
    check_path,
    check_readonly,
    close_view,
    damaged,
    make_private_file,
    private_view,
)
from terminal.bank.ledger.keys import Keys, key_id
from terminal.bank.ledger.locks import lock_for_play
from terminal.bank.ledger.mirror import Mirror
from terminal.bank.ledger.projection import ProjectionText
from terminal.bank.ledger.records import (
    Entry,
    Row,
    canonical,
    entry_payload,
    keys_are_texts,
    posting_rows,
    rows_text,
    transfers,
)
from terminal.bank.types import Change, Posting, WallClock, system_clock
from terminal.errors import LedgerError, one_line


class WriteGuard(Protocol):
    """What the ledger asks before each entry it writes (:attr:`Ledger.guard`: the start-up checks of
    :mod:`terminal.bank.audit`, ``QuickCheckFirst`` or ``BackgroundAudit``)."""

    def before_write(self, ledger: Ledger) -> None:
        """Raise (a :class:`~terminal.errors.GameError`) to refuse the write; nothing is written then."""

    def stop(self) -> None:
        """The game is closed: stop any work still running."""

    def verdict(self) -> bool | None:
        """Whether the checks judged the game sound (True), damaged (False), or have not answered (None)."""

    def wait_verdict(self, timeout_s: float) -> bool | None:
        """:meth:`verdict`, waiting at most ``timeout_s`` seconds for checks still running to answer."""


class Ledger:
    """The SQLite file of one game. Use :meth:`create` or :meth:`open`; close with :meth:`close` (or, for one
    that was refused, :meth:`discard`).

    ``key``: the device's secret (bytes, see :mod:`host_ui.shell.device_key`) used for the keyed hashes
    (:attr:`keys`). ``clock``: the wall clock the entries' times are read from. Raises
    :class:`~terminal.errors.LedgerError` (an ``OSError``) for a file that is not a Banquier game, is damaged, or
    cannot be written.
    """

    def __init__(self, path: Path, db: sqlite_utils.Database, key: bytes, clock: WallClock = system_clock):
        self.path = path
        self.db = db
        self.keys = Keys(key)
        self.clock = clock
        self.was_unclean = False
        self.read_only = False
        self.marked = False
        self._private: Callable[[], None] | None = None  # what removes a read-only view's private files
        self.guard: WriteGuard | None = None  # the start-up checks (see terminal.bank.audit), if any
        self.checkpoint = Checkpoint()  # the keyed checkpoint: the last entry verified, and since
        self._mirror: Mirror | None = None  # the append-only record of acknowledged entries, if kept
        self.play_lock: int | None = None  # the fd holding the play lock (see terminal.bank.ledger.locks)
        self._projection = ProjectionText()
        self._batch: Batch | None = None  # see batch
        self._last_written: tuple[int, str, int] | None = None  # (seq, mac, data_version) of the last append
        self._unfolded = 0  # entries committed since the WAL was last folded into the file (settle_writes)
        self._wal_flushed = True  # False: the WAL was written unflushed since it was opened (mark_open)
        self._recorded_second = -1
        self._recorded_text = ""
        self.as_found: AsFound | None = None  # the files as found, while the game is not yet judged (see hold)
        self.put_back_problem: str | None = None  # why the files could not be put back as found, if they could not

    # -- creating and opening ------------------------------------------------------------------------------
    @classmethod
    def create(cls, path: str | Path, key: bytes, meta: dict[str, Any],
               setup: tuple[Sequence[Posting], Sequence[Change], dict[str, Any]] | None = None, *,
               clock: WallClock = system_clock, play: bool = False, mirror_path: Path | None = None) -> Ledger:
        """Create a new game file at ``path`` (which must not exist) with the header ``meta`` and, if given,
        the setup entry ``(postings, changes, state_json)``; open it, marked in use.

        The file is built under a temporary name beside ``path`` and renamed only once it is complete, so a
        crash or a failed write never leaves a half-made game at ``path`` (the path stays free to retry).
        ``play``: take the file's play lock (:func:`~terminal.bank.ledger.locks.lock_for_play`). ``mirror_path``:
        keep the game's mirror there, from its first entry (a mirror an older game left there is set aside:
        :func:`terminal.bank.ledger.mirror.set_aside`).
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
        ledger = cls(building, db, key, clock)
        meta = {**meta, "schema_version": schema.SCHEMA_VERSION, "key_id": key_id(key)}
        try:
            with ledger.writing():
                schema.create_schema(db)
                for name, value in meta.items():
                    db.execute("INSERT INTO meta(key, value) VALUES (?, ?)", [name, canonical(value)])
                db.execute("INSERT INTO meta(key, value) VALUES ('meta_mac', ?)",
                           [canonical(ledger.keys.meta_mac(meta))])
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
        ledger = cls.open(path, key, clock=clock)
        ledger.mark_open()
        ledger.checkpoint.verified = (0, ledger.genesis_mac())  # every entry of a new file is verified from its header
        try:
            if play:
                ledger.play_lock = lock_for_play(path)
            if mirror_path is not None:  # a new game's mirror starts empty (one left by an older file is set aside)
                mirror.set_aside(mirror_path, clock)
                ledger.mirror = mirror_path
                ledger.mirror_entries(1)  # the setup entry: the mirror holds every acknowledged entry of the game
        except BaseException:
            ledger.discard()
            raise
        return ledger


    @classmethod
    def open(cls, path: str | Path, key: bytes, *, read_only: bool = False, copy: bool = True,
             checked: bool = False, clock: WallClock = system_clock) -> Ledger:
        """Open an existing game file; ``was_unclean`` tells whether the previous session ended without
        :meth:`close`. Nothing is written here: the caller marks the file open with :meth:`mark_open` once it
        trusts it (so a refused file is left byte for byte as it was).

        ``read_only``: for commands that only look (audit, export, list): the game is read from a private
        snapshot (see :func:`private_view`), so nothing of the game's files (the file, its WAL, its shared
        memory) is ever written or created, and every read sees one moment of the game. ``copy=False`` (with
        ``read_only``) reads a cleanly closed file in place, as immutable, instead of copying it. ``checked``:
        the caller has just looked at the file (:func:`~terminal.bank.ledger.files.check_file`)."""
        private: Callable[[], None] | None = None  # what deletes the private snapshot, if any
        if read_only and not copy and not checked:  # the view that checks the file is the one read
            path = Path(path)
            check_path(path)
            db, private = check_readonly(path, keep=True)
        elif read_only:
            path = Path(path) if checked else check_file(path)
            db, private = private_view(path, copy=copy)
        else:
            path = Path(path) if checked else check_file(path)
            db = cls._connect(path)
        ledger = cls(path, db, key, clock)
        ledger.read_only = read_only
        ledger._private = private
        try:
            tables = set(db.table_names())
            missing = schema.missing_tables(tables)
            if missing:
                raise LedgerError(f"{path} is not a Banquier game file (no {', '.join(sorted(missing))} table). "
                                  f"It was left untouched.", code="ledger_not_a_game", params={"path": str(path)})
            version = ledger.meta().get("schema_version")
            if version != schema.SCHEMA_VERSION:
                raise LedgerError(f"{path} was written by another version of Banquier (schema {version!r}, "
                                  f"this one reads {schema.SCHEMA_VERSION}).", code="ledger_schema",
                                  params={"path": str(path), "version": version})
            row = db.execute("SELECT open FROM session WHERE id = 1").fetchone()
            ledger.was_unclean = bool(row and row[0])
        except LedgerError:
            ledger.discard()
            raise
        except sqlite3.DatabaseError as exc:
            ledger.discard()
            raise damaged(path, exc) from exc
        return ledger

    @staticmethod
    def _connect(path: Path) -> sqlite_utils.Database:
        """The connection that writes (:func:`terminal.bank.ledger.schema.connect`; a seam for the tests that make
        it fail)."""
        return schema.connect(path)


    def play(self, *, seen: tuple[int, str] | None, as_found: AsFound | None = None,
             mirror_path: Path | None = None) -> Ledger:
        """The connection that plays this game, opened from this ledger, the read-only view (``copy=False``) that
        checked it while holding its play lock: the lock and the checkpoint the view verified pass on to it, as
        does the WAL index SQLite built for the checks; the view is discarded once the new connection is open
        (closing the view is then no last close). ``seen``: the last entry the checks saw; refused (LedgerError
        ``ledger_busy``) when the file no longer ends there. ``as_found``: the files as found, held until the game
        is judged (:meth:`hold`). The file is then marked in use (:meth:`mark_open`). On a refusal nothing is
        written but what is put back as found, and the lock is released."""
        lock, self.play_lock = self.play_lock, None
        self._private = None  # keep the WAL index SQLite built for the checks: the connection below reuses it
        try:
            ledger = Ledger.open(self.path, self.keys.key, checked=True, clock=self.clock)
        except BaseException:
            self.discard()
            if lock is not None:
                os.close(lock)
            if as_found is not None:
                as_found.drop()
            raise
        if as_found is not None:
            ledger.hold(as_found)  # before the first write (mark_open): no checkpoint until judged
        self.discard()  # once the connection that plays is open
        ledger.play_lock = lock
        ledger.mirror = mirror_path
        try:
            if ledger.last_entry() != seen:
                raise LedgerError(f"{self.path} changed while it was being checked: is another Banquier using it? "
                                  f"Stop it, then resume the game.", code="ledger_busy",
                                  params={"path": str(self.path)})
            ledger.mark_open()
        except BaseException:
            if as_found is not None:  # nothing was written but what is put back
                ledger.put_back()
            ledger.discard()
            raise
        ledger.checkpoint.take(self.checkpoint)
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
            conn.execute("PRAGMA synchronous = OFF")
            try:
                with self.writing():
                    conn.execute(schema.CHECKPOINT_TABLE)
                    conn.execute("INSERT OR REPLACE INTO session(id, open) VALUES (1, 1)")
            finally:
                conn.execute("PRAGMA synchronous = FULL")
            self._wal_flushed = False  # flushed by settle_writes before the first entry, if it runs first
        except sqlite3.Error as exc:
            raise LedgerError(f"Cannot write to {self.path} ({exc}): is the data directory read-only?",
                              code="ledger_unwritable", params={"path": str(self.path)}) from exc
        self.marked = True

    def discard(self) -> None:
        """Close without writing anything (a refused open, a view once its checks are done): the play lock is
        released, the mirror closed, a read-only view's private files removed."""
        if self.play_lock is not None:
            with contextlib.suppress(OSError):
                os.close(self.play_lock)
            self.play_lock = None
        if self._mirror is not None:
            self._mirror.close()
        close_view(self.db, self._private)
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
                    self.checkpoint.advance(self.db, self.keys)
                    self.db.execute("UPDATE session SET open = 0 WHERE id = 1")
                if not unjudged:
                    self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass
        finally:
            if unjudged:
                self._close_keeping_the_wal()
            self.discard()

    # -- the files as found, until the game is judged---------------------------- -----------------------------
    def hold(self, as_found: AsFound) -> None:
        """Keep the game's file as found until it is judged: ``as_found`` holds the bytes of its WAL (and shared
        memory) from before anything wrote to it, and no checkpoint runs meanwhile (only a checkpoint writes the
        file itself in WAL mode; :meth:`settle_writes` folds none while a game is held), so what was found can be
        put back exactly (:meth:`settle`)."""
        self.as_found = as_found

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
            as_found.drop()  # the WAL is folded again by settle_writes
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
        if self._mirror is not None:
            self._mirror.sync()  # the entries since the resume are about to be kept by the mirror alone
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
                                         timeout=schema.BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
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

    # -- the keyed chain and checkpoint (terminal.bank.ledger.chain) -------------------------------------------
    def genesis_mac(self) -> str:
        """The 'previous hash' of the first entry: the hash of the header."""
        mac: str = self.meta().get("meta_mac", "")  # a JSON value of the header: a string unless edited
        return mac

    def stored_checkpoint(self) -> tuple[int, str] | None:
        """:func:`terminal.bank.ledger.chain.stored_checkpoint` of this file."""
        return chain.stored_checkpoint(self.db, self.keys, self.genesis_mac())

    def chain_since(self, seq: int, mac: str) -> tuple[list[str], int | None, tuple[int, str]]:
        """:func:`terminal.bank.ledger.chain.verify_since` of this file: ``(problems, first_bad_seq, last)``."""
        return chain.verify_since(self.db, self.keys, seq, mac)

    def verify_chain(self) -> tuple[list[str], int | None]:
        """Verify the keyed hash chain from the file's keyed checkpoint to its end: ``(problems, first_bad_seq)``
        (a checkpoint whose own hash fails: one problem, no entry named). When it holds, its end is recorded as
        verified (:attr:`checkpoint`). Its cost follows the entries written since the checkpoint."""
        stored = self.stored_checkpoint()
        if stored is None:
            return ["The record of the last verified entry does not match its keyed hash."], None
        problems, first_bad, last = self.chain_since(*stored)
        if not problems:
            self.checkpoint.verified, self.checkpoint.stored = last, stored[0]
        return problems, first_bad

    def set_checkpoint(self, seq: int, mac: str) -> None:
        """Record ``(seq, mac)`` as verified (a full audit passed up to it), if it is still that entry. Committed
        without a flush of its own (the record only spares the next start-up some verifying): the next durable
        commit flushes it, as the first entry after the background audit passed does, whose path it is on."""
        conn = self.db.conn
        conn.execute("PRAGMA synchronous = OFF")
        try:
            with self.writing():
                self.checkpoint.record(self.db, self.keys, seq, mac)
        finally:
            conn.execute("PRAGMA synchronous = FULL")

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
        """Every entry from ``seq >= start`` in order, with its postings: streamed (the journal and the postings
        read side by side, in the order of their keys), so what is held does not grow with the game."""
        postings = self.db.execute(
            "SELECT seq, n, account, amount FROM postings WHERE seq >= ? ORDER BY seq, n", [start])
        pending = next(postings, None)
        for seq, kind, op, undoes, changes, recorded_at, mac in self.db.execute(
                "SELECT seq, kind, op, undoes, changes, recorded_at, mac FROM journal WHERE seq >= ? ORDER BY seq",
                [start]):
            rows: list[Row] = []
            while pending is not None and pending[0] <= seq:  # (postings of no entry are passed over)
                if pending[0] == seq:
                    rows.append((pending[1], pending[2], pending[3]))
                pending = next(postings, None)
            yield Entry(seq, kind, json.loads(op), undoes, transfers(rows), json.loads(changes), recorded_at, mac)

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
        mac = self.keys.entry_mac(prev, seq, entry.kind, entry.op, entry.undoes, self.posting_rows_of(seq),
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
        """:func:`terminal.bank.ledger.schema.schema_problems` of this file."""
        return schema.schema_problems(self.db)

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
        if self._mirror is not None:
            self._mirror.sync()  # the last entry's line, if settle_writes did not flush it after its beep
        rows = posting_rows(postings)
        recorded_at = self._recorded_at()
        op_text = canonical(op)
        changes_text = canonical(changes)
        if "{" in changes_text and not keys_are_texts(changes):
            # objects keyed by other than texts: stored as they read back (keys as texts, sorted as texts)
            changes_text = canonical(json.loads(changes_text))
        rows_text_ = rows_text(rows)
        state_text = self._projection.text(state_json)
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
                mac = self.keys.mac(entry_payload(prev, seq, kind, op_text, undoes, rows_text_, changes_text,
                                                  recorded_at))
                entry_row = (seq, kind, op_text, undoes, changes_text, recorded_at, mac)
                rows_stored = [(seq, n, account, amount) for n, account, amount in rows]
                if rows_stored:
                    conn.executemany("INSERT INTO postings(seq, n, account, amount) VALUES (?, ?, ?, ?)",
                                     rows_stored)
                conn.execute("INSERT INTO journal(seq, kind, op, undoes, changes, recorded_at, mac) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?)", entry_row)
                conn.execute("INSERT OR REPLACE INTO projection(id, seq, state, mac) VALUES (1, ?, ?, ?)",
                             (seq, state_text, self.keys.projection_mac(seq, state_text, mac)))
                checkpoint = self.checkpoint
                checkpoint.remember(prev, entry_row, rows_stored, version)
                try:
                    if self.marked and checkpoint.due(seq):
                        checkpoint.advance(self.db, self.keys)
                    conn.execute("RELEASE SAVEPOINT entry" if nested else "COMMIT")
                    self._last_written = (seq, mac, version)
                except BaseException:
                    checkpoint.forget(entry_row)
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
        line = None if self._mirror is None else Mirror.line(seq, kind, op_text, undoes, rows_text_, changes_text,
                                                             recorded_at, mac)
        if self._batch is not None:
            if self._batch.added(line):
                self._commit_batch(self._batch)
        else:
            self._unfolded += 1
            if self._mirror is not None and line is not None:
                # its own step, after the commit: the entry is durable in the WAL already; flushed after its beep
                self._mirror.write([line], sync=False)
        return seq

    def settle_writes(self, *, fold: bool = True) -> None:
        """What follows an acknowledged entry, off the path from the tap to the beep (the terminal calls it once
        the beep has started, ``fold=False``, and in idle time): the mirror's lines written since the last call
        flushed to disk (one ``fdatasync``; :meth:`append` flushes them first if this was not called); with
        ``fold``, once ``FOLD_ENTRIES`` entries were committed since the last time
        (:data:`terminal.bank.ledger.schema.FOLD_ENTRIES`; at four times that, also without ``fold``), the WAL
        folded into the file (a checkpoint: the WAL and the file flushed) and begun again by a write of the session
        record that is flushed by the next entry's commit, so that commit is the one flush between its tap and its
        beep; and the first flush of a WAL opened by :meth:`mark_open`. Nothing is folded while the game is held as
        found (:meth:`hold`), read-only, not marked open, or in a transaction or a batch. Never raises (a failure
        is kept in :attr:`mirror_problem`, or leaves the WAL longer until the next call)."""
        if self._mirror is not None:
            self._mirror.sync()
        if self._unfolded >= (schema.FOLD_ENTRIES if fold else 4 * schema.FOLD_ENTRIES):
            self.fold()
        elif fold and not self._wal_flushed:
            self._flush_wal()

    def _flush_wal(self) -> None:
        """The first flush of a WAL opened by :meth:`mark_open` (SQLite flushes a new WAL's folder with it), done
        on the tick before the first entry rather than by that entry's commit: a write of the session record as it
        is, committed durably. Not while payments are stopped or in a transaction; never raises."""
        conn = self.db.conn
        if self.read_only or not self.marked or self._batch is not None or conn.in_transaction \
                or (self.guard is not None and self.guard.verdict() is False):
            return
        try:
            with self.writing():
                # (a row written back as it was: SQLite skips a write that changes no byte)
                conn.execute("DELETE FROM session WHERE id = 1")
                conn.execute("INSERT INTO session(id, open) VALUES (1, 1)")
        except sqlite3.Error:
            return
        self._wal_flushed = True

    def fold(self) -> bool:
        """Fold the WAL into the file now (a passive checkpoint: it waits for no reader), then begin the WAL again
        when all of it was folded (see :meth:`settle_writes`). Returns whether it ran; never raises."""
        conn = self.db.conn
        if self.read_only or not self.marked or self.as_found is not None or self._batch is not None \
                or conn.in_transaction:
            return False
        try:
            busy, frames, folded = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            self._unfolded = 0
            if busy == 0 and frames > 0 and folded == frames:
                # The WAL begins again at the next write (its header rewritten and, with synchronous=FULL,
                # flushed: one more fsync). Done here, unflushed: the next entry's commit flushes the WAL, this
                # header with it; a power cut before finds the file holding everything (just folded and flushed).
                conn.execute("PRAGMA synchronous = OFF")
                try:
                    with self.writing():
                        # (a row written back as it was: SQLite skips a write that changes no byte)
                        conn.execute("DELETE FROM session WHERE id = 1")
                        conn.execute("INSERT INTO session(id, open) VALUES (1, 1)")
                finally:
                    conn.execute("PRAGMA synchronous = FULL")
        except sqlite3.Error:
            return False
        self._wal_flushed = True
        return True

    def _recorded_at(self) -> str:
        """The time an entry is recorded, to the second (UTC, ISO 8601), read from :attr:`clock` and spelled once
        per second."""
        second = int(self.clock().timestamp())
        if second != self._recorded_second:
            self._recorded_text = datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds")
            self._recorded_second = second
        return self._recorded_text

    @contextlib.contextmanager
    def batch(self, every: int = BATCH_ENTRIES) -> Iterator[None]:
        """Write the entries appended in this block in transactions of up to ``every`` entries (a replay, never
        live play, which commits each entry durably before it is acknowledged: :mod:`terminal.bank.ledger.batch`):
        each entry is still its own journal entry, written whole or not at all (a savepoint of the batch's
        transaction), and checked as it is applied; what was appended is committed durably
        (``synchronous=FULL``) when the block ends, also when it ends with an error: the entries before the error
        are kept, as one transaction per entry would have kept them (a commit that fails then is not raised over
        the error). The mirror gets each entry once its transaction is committed. Raises LedgerError when the
        last commit fails."""
        if self._batch is not None or self.db.conn.in_transaction:
            yield  # already in a batch or a transaction: its commit is the one that counts
            return
        batch = Batch(every)
        self._batch = batch
        try:
            yield
        except BaseException:
            self._batch = None
            with contextlib.suppress(sqlite3.Error, LedgerError):
                self._commit_batch(batch)
            raise
        self._batch = None
        self._commit_batch(batch)

    @property
    def in_batch(self) -> bool:
        """Whether entries are being written in a batch (:meth:`batch`): not yet committed."""
        return self._batch is not None

    def _commit_batch(self, batch: Batch) -> None:
        try:
            lines = batch.commit(self.db.conn, self.path)
        except LedgerError:
            self._last_written = None  # the batch's entries are not in the file
            self.checkpoint.written.clear()
            raise
        if self._mirror is not None:
            self._mirror.write(lines)

    # -- the mirror of acknowledged entries (terminal.bank.ledger.mirror) ------------------------------------
    @property
    def mirror(self) -> Path | None:
        """Where the mirror of this game's acknowledged entries is kept (None: none is kept)."""
        return None if self._mirror is None else self._mirror.path

    @mirror.setter
    def mirror(self, path: Path | None) -> None:
        if self._mirror is not None:
            self._mirror.close()
        self._mirror = None if path is None else Mirror(Path(path))

    @property
    def mirror_problem(self) -> str | None:
        """Why the mirror's last write failed (None: it did not, or no mirror is kept)."""
        return None if self._mirror is None else self._mirror.problem

    def mirror_entries(self, start: int) -> None:
        """Write the file's entries from ``start`` on to the mirror, as :meth:`append` writes each (the setup entry
        of a new game, written before the mirror was named)."""
        if self._mirror is None:
            return
        lines = []
        for e in self.entries(start):
            rows = self.posting_rows_of(e.seq)
            lines.append(canonical({"changes": e.changes, "kind": e.kind, "mac": e.mac, "op": e.op,
                                    "recorded_at": e.recorded_at, "rows": [list(r) for r in rows], "seq": e.seq,
                                    "undoes": e.undoes}))
        self._mirror.write(lines)

    def mirrored_after(self, seq: int) -> list[dict[str, Any]]:
        """The mirror's entries after ``seq``, in order (:func:`terminal.bank.ledger.mirror.entries_after`)."""
        return mirror.entries_after(self.mirror, seq)

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
                            [last["seq"], state_text, self.keys.projection_mac(last["seq"], state_text, last["mac"])])


#: An entry this ledger wrote, as stored: the hash it chained to, its journal row and its postings rows.
