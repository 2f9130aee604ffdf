"""Rotating backups of a game file, made with SQLite's online backup API (field-notes 19).

A backup is a consistent copy of the game at one moment, taken through a separate *read* connection
(``PRAGMA query_only``) while the game may stay open: in WAL mode the reader never blocks the terminal's
writes. The copy is written to a temporary file beside the backups, checked (``PRAGMA quick_check`` and
the journal's last ``seq``), switched to a self-contained rollback journal, flushed to disk, and only then
renamed into place (``os.replace``, atomic on one filesystem). A copy that fails its check is thrown away
and the older backups are kept: a damaged game never rotates the good backups out.

Names: ``<game stem>.seq<NNNNNN>.db`` in ``backup_dir``, where NNNNNN is the last journal entry the copy
holds (the journal's own sequence, never a clock: field-notes 22). Backing up twice at the same ``seq``
replaces that copy. The newest ``keep`` backups of each game are kept, older ones deleted.

A backup opens as a game with :meth:`terminal.Game.open` (with the device key that signed it). It was
copied from an open game, so its session is marked open and the first opening audits it in full.
"""
from __future__ import annotations

import _thread
import contextlib
import logging
import os
import re
import secrets
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from terminal.bank.audit import DAMAGE
from terminal.bank.background import lower_priority
from terminal.bank.durable import fsync_directory, make_directories
from terminal.bank.game import Game
from terminal.bank.ledger.files import make_private_file
from terminal.errors import AuditFailed, GameError, LedgerError, one_line

__all__ = ["BackupError", "BackupKeeper", "BackupWorker", "rotate_backup", "list_backups", "backup_name", "backup_due",
           "snapshot", "newest_good_backup", "restore_backup", "remove_stale_temporaries"]

BUSY_TIMEOUT_MS = 5000
STOP_WAIT_S = 5.0
"""How long a clean stop waits, in seconds, for what its last backup needs (the backup being made beside the loop
and the judgment of the checks beside play, together): well under the 15 s systemd gives a stopping terminal
before it kills it (``TimeoutStopSec`` in ``deploy/banquier.service``), so the copy and the close fit as well."""

log = logging.getLogger("banquier")


class BackupError(LedgerError):
    """A backup that could not be made (unreadable or damaged game, unwritable backup directory).

    The game file and the existing backups are left as they were."""

    code = "backup_failed"


def backup_name(game_path: str | os.PathLike[str], seq: int) -> str:
    """The file name of the backup of ``game_path`` holding journal entries up to ``seq``."""
    return f"{Path(game_path).stem}.seq{seq:06d}.db"


def list_backups(game_path: str | os.PathLike[str], backup_dir: str | os.PathLike[str]) -> list[Path]:
    """Backups of ``game_path`` in ``backup_dir``, newest (highest ``seq``) first."""
    pattern = re.compile(re.escape(Path(game_path).stem) + r"\.seq(\d+)\.db")
    found = []
    try:
        entries = list(Path(backup_dir).iterdir())
    except FileNotFoundError:
        return []
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if match and entry.is_file():
            found.append((int(match.group(1)), entry))
    return [path for _, path in sorted(found, reverse=True)]


def backup_due(seq: int, last_backup_seq: int | None, every: int) -> bool:
    """Whether a game at journal ``seq`` needs a backup, the last one holding ``last_backup_seq``
    (None: never backed up) and the configuration asking for one every ``every`` operations at least
    (``[storage] backup_every``; 0 = only when the terminal stops); the interval then grows with the game
    (see below)."""
    if every <= 0:
        return False
    if last_backup_seq is None:
        return True
    # A full copy costs the size of the game: at doubling intervals (every, then as many operations as the
    # last copy held) their total stays within a constant times the game's length, so a backup costs the same
    # per operation whatever the game's length. Every acknowledged entry in between is in the mirror
    # (terminal.bank.ledger, kept in the backups folder).
    return seq - last_backup_seq >= max(every, last_backup_seq)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


#: A backup being made: ``.<game stem>.<pid>.<8 hex digits>.tmp`` (and the ``-journal``, ``-wal`` and ``-shm``
#: SQLite makes beside it while the copy is checked and switched to a rollback journal).
_TEMPORARY = re.compile(r"\.(?P<stem>.+)\.(?P<pid>\d+)\.[0-9a-f]{8}\.tmp(?:-journal|-wal|-shm)?")


def remove_stale_temporaries(backup_dir: str | os.PathLike[str], keep: Path | None = None) -> list[Path]:
    """Remove the temporary files of backups that a crash or a power cut interrupted (issue 21, point 2): those of
    a process that is no longer running, and this process's own but ``keep`` (the one it is making). Returns what
    was removed. Never raises."""
    removed: list[Path] = []
    try:
        entries = list(Path(backup_dir).iterdir())
    except OSError:
        return removed
    for entry in entries:
        match = _TEMPORARY.fullmatch(entry.name)
        if match is None or (keep is not None and entry.name.startswith(keep.name)):
            continue
        pid = int(match.group("pid"))
        if pid != os.getpid() and _running(pid):
            continue  # another process's backup in progress
        if pid == os.getpid() and keep is None:
            continue  # this process's own: removed by the backup that made it
        with contextlib.suppress(OSError):
            entry.unlink()
            removed.append(entry)
    if removed:
        fsync_directory(Path(backup_dir))
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists (another user's)
    return True


def snapshot(game_path: str | os.PathLike[str], target: str | os.PathLike[str]) -> int:
    """Copy the game at ``game_path`` to the new file ``target`` through a read connection, check the
    copy and make it self-contained (no ``-wal`` file); return the last journal ``seq`` it holds.

    ``target`` is overwritten if it exists; on any failure it is removed. Raises :class:`BackupError`.
    """
    game_path, target = Path(game_path), Path(target)
    source = copy = None
    try:
        try:
            # mode=rw: never create a missing game; query_only: this connection cannot write the game.
            source = sqlite3.connect(f"{game_path.resolve().as_uri()}?mode=rw", uri=True,
                                     timeout=BUSY_TIMEOUT_MS / 1000)
            source.execute("PRAGMA query_only = ON")
            if target.exists():
                target.unlink()
            make_private_file(target)  # a backup is as private as the game, whatever the umask
            copy = sqlite3.connect(str(target))
            source.backup(copy)
            problems = [row[0] for row in copy.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise BackupError(f"{game_path} is damaged ({'; '.join(problems[:3])}): no backup was made and "
                                  f"the older backups were kept. Restore one of them.",
                                  code="backup_damaged", params={"path": str(game_path), "problems": problems})
            try:
                seq = copy.execute("SELECT MAX(seq) FROM journal").fetchone()[0]
            except sqlite3.DatabaseError:
                seq = None
            if seq is None:
                raise BackupError(f"{game_path} is not a Banquier game (no journal entries): nothing to back up.",
                                  code="backup_not_a_game", params={"path": str(game_path)})
            copy.execute("PRAGMA journal_mode = DELETE")
            copy.close()
            copy = None
            _fsync(target)
            return int(seq)
        except BackupError:
            raise
        except sqlite3.Error as exc:
            raise BackupError(f"Cannot back up {game_path} to {target}: {exc}. The game and the older backups "
                              f"were left as they were.", params={"path": str(game_path)}) from exc
        except OSError as exc:
            raise BackupError(f"Cannot back up {game_path} to {target}: {exc.strerror or exc}. The game and the "
                              f"older backups were left as they were.", params={"path": str(game_path)}) from exc
    except BaseException:
        if copy is not None:
            copy.close()
        for leftover in (target, Path(f"{target}-journal"), Path(f"{target}-wal"), Path(f"{target}-shm")):
            try:
                leftover.unlink()
            except OSError:
                pass
        raise
    finally:
        if source is not None:
            source.close()


def rotate_backup(game_path: str | os.PathLike[str], backup_dir: str | os.PathLike[str], keep: int) -> Path:
    """Back up the game at ``game_path`` into ``backup_dir`` and keep its newest ``keep`` backups.

    - ``game_path``: a game file (open or closed); it is only read.
    - ``backup_dir``: created if missing; may be shared by several games.
    - ``keep``: 1..1000 backups of this game kept (``[storage] backups_kept``); older ones are deleted.

    Returns the new backup's path (``<stem>.seq<NNNNNN>.db``). Raises :class:`BackupError` (an ``OSError``)
    if the game cannot be read or fails its check, or the directory cannot be written; nothing is then
    rotated. ``ValueError`` for a ``keep`` out of range.
    """
    if isinstance(keep, bool) or not isinstance(keep, int) or not 1 <= keep <= 1000:
        raise ValueError(f"keep={keep!r}: keep 1..1000 backups")
    game_path, backup_dir = Path(game_path), Path(backup_dir)
    if not game_path.is_file():
        raise BackupError(f"There is no game file {game_path} to back up.", params={"path": str(game_path)})
    try:
        make_directories(backup_dir)  # its name durable before the backups in it count on it
    except OSError as exc:
        raise BackupError(f"Cannot create the backup directory {backup_dir}: {exc.strerror or exc}.",
                          params={"path": str(game_path)}) from exc
    temporary = backup_dir / f".{game_path.stem}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    remove_stale_temporaries(backup_dir, keep=temporary)
    seq = snapshot(game_path, temporary)
    final = backup_dir / backup_name(game_path, seq)
    try:
        os.replace(temporary, final)
        fsync_directory(backup_dir)
    except OSError as exc:
        try:
            temporary.unlink()
        except OSError:
            pass
        raise BackupError(f"Cannot write the backup {final}: {exc.strerror or exc}.",
                          params={"path": str(game_path)}) from exc
    for old in list_backups(game_path, backup_dir)[keep:]:
        try:
            old.unlink()
        except FileNotFoundError:
            pass
    return final


class BackupWorker:
    """Backups made beside the tap loop, one at a time, in a thread of their own: :func:`rotate_backup` is
    SQLite's backup API, its check of the copy and the flushes to disk, which all let go of the interpreter
    while they work, so the terminal answers taps meanwhile however long the copy of a long game takes (and the
    game's WAL lets the table write while the copy reads). ``done(written, error)`` is called from that thread
    when the backup is made (``written``: its path) or has failed (``error``: the :class:`BackupError`)."""

    def __init__(self) -> None:
        self._idle = threading.Event()
        self._idle.set()

    def busy(self) -> bool:
        """Whether a backup is being made."""
        return not self._idle.is_set()

    def start(self, game_path: Path, backup_dir: Path, keep: int,
              done: Callable[[Path | None, OSError | None], None]) -> bool:
        """Start backing ``game_path`` up (as :func:`rotate_backup`); False (nothing started) while the previous
        backup is still being made."""
        if self.busy():
            return False
        self._idle.clear()

        def run() -> None:
            lower_priority("the backup")  # the tap loop goes first (this thread only, Linux); a refusal is logged
            try:
                try:
                    written = rotate_backup(game_path, backup_dir, keep)
                except OSError as exc:
                    done(None, exc)
                else:
                    done(written, None)
            finally:
                self._idle.set()
        # _thread: threading.Thread.start waits until the new thread runs, on a busy device a while of the loop's
        try:
            _thread.start_new_thread(run, ())
        except RuntimeError:
            self._idle.set()
            return False
        return True

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the backup being made, if any; True when none is being made any more."""
        return self._idle.wait(timeout)


class BackupKeeper:
    """Backs a game up every ``every`` operations (0: only with ``force``), keeping ``keep`` copies: beside the tap
    loop (:class:`BackupWorker`), except the last one at shutdown (``force``), made at once. A game is backed up
    only once it is judged sound (:attr:`terminal.Game.judged`): a damaged file found only by the checks beside
    play would otherwise push its good backups out of the rotation, one start-up after another."""

    def __init__(self, folder: Path, every: int, keep: int):
        self.folder, self.every, self.keep = folder, every, keep
        self._last: dict[Path, int] = {}
        self._worker = BackupWorker()

    def maybe(self, game: Game | None, force: bool = False) -> Path | None:
        """Start the backup that is due (returns None: it is made beside the loop); with ``force`` (a clean
        stop), make it now and return its path, after the backup being made, if any, and the judgment of the
        checks beside play, waiting for them at most :data:`STOP_WAIT_S` seconds in all. A last backup that
        cannot be made (the game not judged sound in that time, the copy failing) is logged in one line, and
        None returned."""
        if game is None:
            return None
        if force:
            return self._last_backup(game)
        if game.judged is not True:
            return None  # a game not yet judged (or judged damaged) is not copied over the good backups
        last = game.ledger.last_entry()
        seq = last[0] if last else 0
        path = Path(game.path)
        if self.every <= 0 or not backup_due(seq, self._last.get(path), self.every):
            return None

        def done(written: Path | None, exc: OSError | None) -> None:
            if exc is not None:  # a backup must never stop the game
                log.error("backup of %s failed: %s", path.name, exc)
                return
            self._last[path] = seq
            log.info("backed up %s at entry %d -> %s", path.name, seq, written)
        self._worker.start(path, self.folder, self.keep, done)
        return None

    def _last_backup(self, game: Game) -> Path | None:
        """The backup made at a clean stop (:meth:`maybe` with ``force``)."""
        path = Path(game.path)
        deadline = time.monotonic() + STOP_WAIT_S
        if not self._worker.wait(STOP_WAIT_S):
            log.warning("no backup of %s at stop: the backup being made did not finish within %g s",
                        path.name, STOP_WAIT_S)
            return None
        judged = game.await_judgment(max(0.0, deadline - time.monotonic()))
        if judged is not True:  # a game not judged sound is not copied over the good backups
            why = (f"the checks beside play found it damaged ({game.payments_stopped()})" if judged is False else
                   f"the checks beside play had not answered within {STOP_WAIT_S:g} s")
            log.warning("no backup of %s at stop: %s", path.name, one_line(why))
            return None
        last = game.ledger.last_entry()
        seq = last[0] if last else 0
        if self._last.get(path) == seq:
            return None
        try:
            written = rotate_backup(path, self.folder, self.keep)
        except OSError as exc:  # a backup must never stop the game
            log.error("backup of %s failed: %s", path.name, exc)
            return None
        self._last[path] = seq
        log.info("backed up %s at entry %d -> %s", path.name, seq, written)
        return written


def newest_good_backup(game_path: Path, backups: Path | None, key: bytes) -> Path | None:
    """The newest backup of ``game_path`` in ``backups`` that passes the full check (read without writing
    anything), or None."""
    if backups is None:
        return None
    for candidate in list_backups(game_path, backups):
        try:
            Game.open(candidate, key=key, check="full", read_only=True).close()
        except (GameError, OSError, *DAMAGE):
            continue
        return candidate
    return None


def restore_backup(backup: Path, folder: Path, key: bytes, *, stem: str,
                   clock: Callable[[], datetime] | None = None, mirrors: Path | None = None) -> Game:
    """Copy ``backup`` into a new game file ``folder/<stem>-restored-<time>.db`` and open it (full check); the
    damaged game is not touched.

    ``mirrors``: the folder of the mirrors of acknowledged entries (the backups folder). The damaged game's
    (``<stem>.mirror``) entries beyond the backup's end (the payments made after the backup, up to the last one
    acknowledged) are verified against the keyed chain and written into the restored game, so that restoring loses
    nothing that was acknowledged (issue 21, point 5); the restored game keeps its own mirror there from then on
    (``<new stem>.mirror``, begun as a copy of the damaged game's). When the mirror's entries do not follow from the
    backup (a mirror begun after it), the backup alone is restored, the copy is kept aside (``.unused-<time>``) and
    the problem is logged. ``Game.restored`` counts the entries brought back.

    Raises LedgerError or AuditFailed."""
    make_directories(folder)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = folder / f"{stem}-restored-{stamp}.db"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{stem}-restored-{stamp}-{n}.db"
    temporary = folder / f".{target.name}.restoring"
    try:
        shutil.copyfile(backup, temporary)
        os.chmod(temporary, 0o600)
        with open(temporary, "rb+") as f:
            os.fsync(f.fileno())
        os.link(temporary, target)  # never over a file that appeared meanwhile
        temporary.unlink()
        fsync_directory(folder)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise LedgerError(f"Cannot restore {backup} into {target}: {exc.strerror or exc}.",
                          code="ledger_unwritable", params={"path": str(target)}) from exc
    if mirrors is None:
        return Game.open(target, key=key, check="full", clock=clock)
    mirror_of, mirror = mirrors / f"{stem}.mirror", mirrors / f"{target.stem}.mirror"
    carried = mirror_of.is_file()
    if carried:
        try:
            make_directories(mirror.parent)
            shutil.copyfile(mirror_of, mirror)
        except OSError as exc:
            log.error("the mirror %s could not be copied for the restored game (%s): its entries after the backup "
                      "are not brought back", mirror_of, exc.strerror or exc)
            carried = False
            mirror.unlink(missing_ok=True)
    try:
        game = Game.open(target, key=key, check="full", clock=clock, mirror=mirror)
    except AuditFailed as exc:
        if not carried or exc.params.get("problems") != ["entries lost"]:
            raise
        # The mirror does not follow from the backup: the backup alone, and the mirror kept aside for inspection.
        aside = mirror.with_name(f"{mirror.name}.unused-{stamp}")
        os.replace(mirror, aside)
        log.error("restored %s without the mirror's entries after it: %s (kept as %s)", backup.name,
                  one_line(exc), aside.name)
        game = Game.open(target, key=key, check="full", clock=clock, mirror=mirror)
    if game.restored:
        log.warning("restored %s and the %d acknowledged entries after it from the mirror %s", backup.name,
                    game.restored, mirror_of)
    return game
