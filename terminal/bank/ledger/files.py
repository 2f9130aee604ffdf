"""A game's files besides the connection that plays it: reading a game without writing anything beside it
(private views and copies), refusing a path that is no game, the files as start-up found them (:class:`AsFound`),
new files made private whatever the umask.

Nothing here writes to a game's file, its WAL or its shared memory, except :meth:`AsFound.restore`, which puts
them back as they were found.
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from terminal.bank.ledger.schema import BUSY_TIMEOUT_MS, missing_tables
from terminal.errors import LedgerError, one_line

FILE_MODE = 0o640  # the owner writes, the service's group may read; others nothing, whatever the umask


def make_private_file(path: Path, mode: int = FILE_MODE) -> None:
    """Create the empty file ``path`` (which must not exist) with ``mode`` exactly, whatever the umask; SQLite
    then gives the file's ``-wal`` and ``-shm`` the same mode. Raises OSError."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        os.fchmod(fd, mode)
    finally:
        os.close(fd)



def damaged(path: Path, exc: BaseException) -> LedgerError:
    """The one-line refusal of a game file that SQLite cannot read (the file is left untouched)."""
    return LedgerError(f"{path} is damaged ({one_line(exc)}). It was left untouched; restore a backup.",
                       code="ledger_damaged", params={"path": str(path), "reason": one_line(exc)})



def check_file(path: str | Path) -> Path:
    """Refuse, without writing anything, a path that is not a Banquier game file (missing, a folder,
    another program's file, damaged). Returns the path."""
    path = Path(path)
    check_path(path)
    check_readonly(path)
    return path

def check_path(path: Path) -> None:
    if not path.is_file():
        what = f"{path} is a folder, not a game file" if path.is_dir() else f"There is no game file {path}"
        raise LedgerError(f"{what}.", code="ledger_missing", params={"path": str(path)})

def check_readonly(path: Path, keep: bool = False) -> tuple[sqlite_utils.Database, Callable[[], None] | None]:
    """Look at a file read-only before anything writes to it: it must be an SQLite database with every
    table of a Banquier game. Another program's file, a truncated or a damaged one is refused untouched.
    ``keep``: return the private view it looked through (see :func:`private_view`), to read the game from;
    else it is closed."""
    db, private = private_view(path, copy=False)
    try:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = missing_tables(tables)
        if missing:
            raise LedgerError(f"{path} is not a Banquier game file (no {', '.join(sorted(missing))} table). "
                              f"It was left untouched.", code="ledger_not_a_game", params={"path": str(path)})
    except sqlite3.DatabaseError as exc:
        close_view(db, private)
        raise LedgerError(f"{path} is not a readable game file ({one_line(exc)}). It was left untouched; "
                          f"restore a backup or start a new game.", code="ledger_unreadable",
                          params={"path": str(path), "reason": one_line(exc)}) from exc
    except BaseException:
        close_view(db, private)
        raise
    if not keep:
        close_view(db, private)
    return db, private



@dataclass
class AsFound:
    """A game's files as start-up found them, before anything wrote to them: the bytes of its
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
        if head(path) != SQLITE_MAGIC or journal_mode_byte(path) != 2:  # not in WAL mode: the switch writes it
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
        if self.main is not None:  # its time of change as found (the atime is left as the copy made it)
            os.utime(path, ns=(path.stat().st_atime_ns, self.stat[1]))

    def drop(self) -> None:
        shutil.rmtree(self.record, ignore_errors=True)


def journal_mode_byte(path: Path) -> int:
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


def stat_key(path: Path) -> tuple[int, int, int] | None:
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
        # nothing to read: a connection that used it would create an empty -wal and grow it.
        copy = copy or rollback_journal(path).exists()  # a hot journal is rolled back on a private copy, never in place
        if not copy and not wal.exists():
            uri = f"{path.resolve().as_uri()}?immutable=1"
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA query_only = ON")
            return sqlite_utils.Database(conn), None
        if not copy and head(path) == SQLITE_MAGIC:  # SQLite may drop the WAL of an empty or foreign file
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
    journal = rollback_journal(path)
    sides = ((wal, target.with_name(target.name + "-wal")), (journal, target.with_name(target.name + "-journal")))

    def live() -> bool:
        return shm.exists() and wal.exists()
    for _ in range(attempts):
        if live():
            return False
        before = stat_key(path), stat_key(wal), stat_key(journal)
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
        if copied and not live() and (stat_key(path), stat_key(wal), stat_key(journal)) == before:
            return True
    return False


def rollback_journal(path: Path) -> Path:
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


def head(path: Path) -> bytes:
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


def close_view(db: sqlite_utils.Database, cleanup: Callable[[], None] | None) -> None:
    try:
        db.close()
    finally:
        if cleanup is not None:
            cleanup()

