"""Which game the terminal (and the simulator: the same path) resumes at start-up, how a new one is made, and what
is done with one that is damaged.

The game is resumed with the start-up checks whose cost follows the entries written since the last keyed
checkpoint, and judged beside play by SQLite's check and the full audit in a separate process (payments stop at
once if either fails, and the files are put back as found: :meth:`terminal.Game.open`), with the mirror of
acknowledged entries in the backups folder (:func:`mirror_of`), which mends a game file that lost the end of its
journal and brings the entries after a backup back when the backup is restored (:class:`Recovery`). Every game
made by :func:`new_game` keeps a mirror too.

:func:`resume_at_startup` never raises: a damaged, foreign or edited current game is named in one line with
the fix (logged, and kept in :attr:`StartUp.problem` for the screen), left untouched for inspection, and the
terminal starts without a game (the banker menu offers a new one) instead of exiting, so the service does not
crash-loop at the table. :attr:`StartUp.backup` is the newest backup of that game that passes its full check;
:func:`host_ui.shell.backup.restore_backup` restores it into a new game file (the damaged one is kept).
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from host_ui.shell.backup import newest_good_backup, remove_stale_temporaries, restore_backup
from host_ui.shell.manage import GameRow, current_game_and_listing, games_dir, set_current
from terminal.bank.audit import DAMAGE
from terminal.bank.durable import make_directories
from terminal.bank.game import Game
from terminal.errors import GameError, LedgerError, one_line

__all__ = ["StartUp", "Recovery", "resume_at_startup", "restore_at_startup", "mirror_of", "new_game",
           "new_game_path", "playing"]

log = logging.getLogger("banquier")


@dataclass
class StartUp:
    """What start-up found: ``game`` (open, or None), ``path`` (the current game file, if any), ``problem``
    (one line: what is wrong and what to do; None when all is well) and ``backup`` (the newest good backup of
    a game that could not be resumed, or None)."""

    game: Game | None = None
    path: Path | None = None
    problem: str | None = None
    backup: Path | None = None


def resume_at_startup(data: Path, key: bytes, *, key_file: Path | None = None, backups: Path | None = None,
                      clock: Callable[[], datetime] | None = None) -> StartUp:
    """Resume the current game of ``data`` (see :func:`host_ui.shell.manage.current_game`) with ``key``.

    Never raises for what is in the files: see the module docstring. ``backups``: the backup folder, searched
    for a good copy of a game that cannot be resumed (and cleared of the temporary files of backups a crash
    interrupted)."""
    if backups is not None:
        remove_stale_temporaries(backups)
    try:
        path, rows = current_game_and_listing(data, key_file)
    except (GameError, OSError, *DAMAGE) as exc:
        problem = f"cannot tell which game to resume ({one_line(exc)}): start a new game from the banker menu"
        log.error("%s", problem)
        return StartUp(problem=problem)
    if path is None:
        _name_the_unreadable(rows or [])
        return StartUp()
    try:
        game = Game.open(path, key=key, clock=clock, background=True, mirror=mirror_of(path, backups))
    except (GameError, OSError, *DAMAGE) as exc:
        found = newest_good_backup(path, backups, key) if backups is not None else None
        offer = (f"restore its newest good backup {found.name} (`banquier games restore {path.stem}`) or start "
                 f"a new game from the banker menu" if found is not None
                 else "start a new game from the banker menu (no good backup of it was found)")
        problem = f"cannot resume {path.name}: {one_line(exc)} The file is kept as it is; {offer}."
        log.error("%s", problem)
        return StartUp(path=path, problem=problem, backup=found)
    log.info("resumed %s", path.name)
    if game.restored:
        log.warning("%s had lost its last %d acknowledged entries (its WAL was damaged): written back from the "
                    "mirror %s", path.name, game.restored, mirror_of(path, backups))
    return StartUp(game=game, path=path)


def restore_at_startup(found: StartUp, data: Path, key: bytes, *, backups: Path | None = None,
                       clock: Callable[[], datetime] | None = None) -> Game:
    """What ``banquier games restore`` does, for the game start-up could not resume: ``found.backup`` copied
    into a new game file (full check) with the entries the damaged game's mirror holds after it (``backups``: the
    folder of the mirrors), made the current game; the damaged file is kept as it is. Raises LedgerError (or
    AuditFailed) naming the problem."""
    if found.path is None or found.backup is None:
        raise LedgerError("No backup to restore: start a new game from the banker menu.", code="ledger_error")
    return Recovery(data, key, backups, clock).restore(found.path, found.backup)


class Recovery:
    """What the host does for a damaged game, at start-up or when the checks beside play stop its payments (issue
    21, point 5): find the newest backup of it that passes its full check, and restore it into a new game file
    with every acknowledged entry its mirror holds after it, made the current game (the damaged file is kept).

    ``data``: the data folder; ``backups``: the backups folder (where the mirrors are kept too), or None."""

    def __init__(self, data: Path, key: bytes, backups: Path | None, clock: Callable[[], datetime] | None = None):
        self.data, self.key, self.backups, self.clock = Path(data), key, backups, clock

    def find(self, game_path: Path) -> Path | None:
        """The newest good backup of ``game_path``, or None (read only: every candidate is fully checked)."""
        return newest_good_backup(Path(game_path), self.backups, self.key) if self.backups is not None else None

    def restore(self, game_path: Path, backup: Path) -> Game:
        """Restore ``backup`` of the damaged ``game_path``: a new game file, the current game. Raises LedgerError
        (or AuditFailed) naming the problem."""
        game_path = Path(game_path)
        try:
            game = restore_backup(backup, games_dir(self.data), self.key, stem=game_path.stem, clock=self.clock,
                                  mirrors=self.backups)
            set_current(self.data, game.path)
        except OSError as exc:
            if isinstance(exc, GameError):
                raise
            raise LedgerError(f"Cannot restore {backup.name}: {one_line(exc)} Start a new game from the banker "
                              f"menu.", code="ledger_unwritable", params={"path": str(backup)}) from exc
        log.warning("restored %s into %s (with %d entries from the mirror after it); %s is kept as it was",
                    backup.name, game.path.name, game.restored, game_path.name)
        return game

    def for_terminal(self, game: Game) -> tuple[str, Callable[[], Game]] | None:
        """For :class:`terminal.table.machine.Terminal` (``find_backup``), when the checks beside play stopped the
        payments of ``game``: the name of its newest good backup and what restores it, or None when there is
        none."""
        found = self.find(game.path)
        if found is None:
            log.error("%s is damaged and no backup of it passes its check: start a new game", game.path.name)
            return None
        log.error("%s is damaged: its newest good backup is %s (the banker menu restores it)", game.path.name,
                  found.name)
        damaged = Path(game.path)
        return found.name, lambda: self.restore(damaged, found)


def playing(make: Callable[[], Game], clock: Callable[[], float] = time.monotonic) -> Callable[[], Game]:
    """``make`` (what restores or opens a game: a backup offered on the damaged screen), its game's play clock
    started on ``clock`` (seconds, monotonic) as soon as it is made: the terminal plays what it returns."""
    def made() -> Game:
        game = make()
        game.play_clock.start(clock)
        return game
    return made


def new_game_path(data: Path, stem: str = "") -> Path:
    """A free name for a new game in ``data/games``: ``<stem>-<time>.db`` (``<time>.db`` without a stem; ``-2``,
    ``-3``... when taken). The folder is made (its name durable)."""
    target = games_dir(data)
    make_directories(target)
    stamp = f"{datetime.now():%Y%m%d-%H%M%S}"
    base = f"{stem}-{stamp}" if stem else stamp
    path, n = target / f"{base}.db", 1
    while path.exists():
        n += 1
        path = target / f"{base}-{n}.db"
    return path


def new_game(data: Path, key: bytes, edition: Any, players: Any, mode: str | None = None, *,
             backups: Path | None, stem: str = "", current: bool = True, **kwargs: Any) -> Game:
    """A new game in ``data/games`` (:func:`new_game_path`) keeping its mirror in ``backups`` (:func:`mirror_of`),
    made the current game (unless ``current`` is false: a demo). ``kwargs`` go to :meth:`terminal.Game.create`
    (rules, dealt, player_cards, length_minutes, clock...). Raises as it does."""
    path = new_game_path(data, stem)
    game = Game.create(path, edition, players, mode, key=key, mirror=mirror_of(path, backups), **kwargs)
    if current:
        set_current(data, path)
    return game


def mirror_of(game_path: Path, backups: Path | None) -> Path | None:
    """Where the mirror of acknowledged entries of ``game_path`` is kept: ``<backups>/<stem>.mirror``."""
    return backups / f"{Path(game_path).stem}.mirror" if backups is not None else None


def _name_the_unreadable(rows: list[GameRow]) -> None:
    """No game to resume: say which game files of ``rows`` (the listing that found none) could not be opened
    (kept as they are), one line each."""
    for row in rows:
        if "problem" in row:
            log.warning("not resumed: %s (kept as it is; `banquier games restore %s` or a new game)",
                        row["problem"], row["name"])
