"""Which game the terminal resumes at start-up, and what it does with one that is damaged.

:func:`resume_at_startup` never raises: a damaged, foreign or edited current game is named in one line with
the fix (logged, and kept in :attr:`StartUp.problem` for the screen), left untouched for inspection, and the
terminal starts without a game (the banker menu offers a new one) instead of exiting, so the service does not
crash-loop at the table. :attr:`StartUp.backup` is the newest backup of that game that passes its full check;
:func:`restore_backup` restores it into a new game file (the damaged one is kept) and makes it the current game.
"""
from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from host_ui.shell.backup import list_backups
from terminal.bank.audit import DAMAGE
from terminal.bank.game import Game
from terminal.bank.ledger import one_line
from terminal.errors import GameError, LedgerError

__all__ = ["StartUp", "resume_at_startup", "newest_good_backup", "restore_backup"]

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
    from host_ui.shell.manage import current_game
    try:
        path = current_game(data, key_file)
    except (GameError, OSError, *DAMAGE) as exc:
        problem = f"cannot tell which game to resume ({one_line(exc)}): start a new game from the banker menu"
        log.error("%s", problem)
        return StartUp(problem=problem)
    if path is None:
        _name_the_unreadable(data, key_file)
        return StartUp()
    try:
        game = Game.open(path, key=key, clock=clock)
    except (GameError, OSError, *DAMAGE) as exc:
        found = newest_good_backup(path, backups, key) if backups is not None else None
        offer = (f"restore its newest good backup {found.name} (`banquier games restore {path.stem}`) or start "
                 f"a new game from the banker menu" if found is not None
                 else "start a new game from the banker menu (no good backup of it was found)")
        problem = f"cannot resume {path.name}: {one_line(exc)} The file is kept as it is; {offer}."
        log.error("%s", problem)
        return StartUp(path=path, problem=problem, backup=found)
    log.info("resumed %s", path.name)
    return StartUp(game=game, path=path)


def _name_the_unreadable(data: Path, key_file: Path | None) -> None:
    """No game to resume: say which game files could not be opened (kept as they are), one line each."""
    from host_ui.shell.manage import list_games
    try:
        rows = list_games(data, key_file)
    except (GameError, OSError, *DAMAGE):
        return
    for row in rows:
        if "problem" in row:
            log.warning("not resumed: %s (kept as it is; `banquier games restore %s` or a new game)",
                        row["problem"], row["name"])


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


def restore_backup(backup: Path, data: Path, key: bytes, *, stem: str,
                   clock: Callable[[], datetime] | None = None) -> Game:
    """Copy ``backup`` into a new game file ``DATA_DIR/games/<stem>-restored-<time>.db``, open it (full check)
    and make it the current game; the damaged game is not touched. Raises LedgerError or AuditFailed."""
    from host_ui.shell.manage import games_dir, set_current
    from host_ui.shell.outputs import fsync_directory
    folder = games_dir(data)
    folder.mkdir(parents=True, exist_ok=True)
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
    game = Game.open(target, key=key, check="full", clock=clock)
    set_current(data, target)
    log.info("restored %s into %s", backup.name, target.name)
    return game
