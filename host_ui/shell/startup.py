"""Which game the terminal resumes at start-up, and what it does with one that is damaged.

The game is resumed with the start-up checks whose cost follows the entries written since the last keyed
checkpoint, the full audit in a separate process (payments stop at once if it fails), and the mirror of
acknowledged entries in the backups folder (:func:`mirror_of`), which mends a game file that lost the end of
its journal.

:func:`resume_at_startup` never raises: a damaged, foreign or edited current game is named in one line with
the fix (logged, and kept in :attr:`StartUp.problem` for the screen), left untouched for inspection, and the
terminal starts without a game (the banker menu offers a new one) instead of exiting, so the service does not
crash-loop at the table. :attr:`StartUp.backup` is the newest backup of that game that passes its full check;
:func:`host_ui.shell.backup.restore_backup` restores it into a new game file (the damaged one is kept).
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from host_ui.shell.backup import newest_good_backup, restore_backup
from host_ui.shell.manage import GameRow, current_game_and_listing, games_dir, set_current
from terminal.bank.audit import DAMAGE
from terminal.bank.game import Game
from terminal.bank.ledger import one_line
from terminal.errors import GameError, LedgerError

__all__ = ["StartUp", "resume_at_startup", "restore_at_startup", "mirror_of"]

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
    for a good copy of a game that cannot be resumed."""
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


def restore_at_startup(found: StartUp, data: Path, key: bytes, *,
                       clock: Callable[[], datetime] | None = None) -> Game:
    """What ``banquier games restore`` does, for the game start-up could not resume: ``found.backup`` copied
    into a new game file (full check), made the current game; the damaged file is kept as it is. Raises
    LedgerError (or AuditFailed) naming the problem."""
    if found.path is None or found.backup is None:
        raise LedgerError("No backup to restore: start a new game from the banker menu.", code="ledger_error")
    try:
        game = restore_backup(found.backup, games_dir(data), key, stem=found.path.stem, clock=clock)
        set_current(data, game.path)
    except OSError as exc:
        if isinstance(exc, GameError):
            raise
        raise LedgerError(f"Cannot restore {found.backup.name}: {one_line(exc)} Start a new game from the banker "
                          f"menu.", code="ledger_unwritable", params={"path": str(found.backup)}) from exc
    log.warning("restored %s into %s (start-up); %s is kept as it was", found.backup.name, game.path.name,
                found.path.name)
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
