"""Games as the host application opens them: the device key file is read here, never inside the Bank.

:class:`terminal.Game` receives the key's bytes; this module finds them (:mod:`host_ui.shell.device_key`) so
that the commands and composition roots share one way to open a game file.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from host_ui.shell.device_key import load_key, load_or_create_key
from terminal.bank.game import Game
from terminal.table.view import Msg


def open_game(path: str | Path, *, key_path: str | Path | None = None, **kwargs: Any) -> Game:
    """Open the game file ``path`` with the device key at ``key_path`` (default: the usual key file).

    A path that is no game file is refused before any key is looked for, so ``banquier audit notes.txt`` says
    "not a game" rather than "no device key". ``kwargs`` go to :meth:`terminal.Game.open` (``check``,
    ``read_only``, ``clock``). Raises LedgerError (no game, no key, damaged) or AuditFailed."""
    Game.check_file(path)
    return Game.open(path, key=load_key(key_path), **kwargs)


def key_for_new_game(key_path: str | Path | None = None, *, data: str | Path | None = None) -> bytes:
    """The device key for a game about to be created: read, or made on the first game (mode 0600), never
    made anew while games of the data directory ``data`` were signed with a key that is now missing.
    Raises LedgerError when it cannot be read or made."""
    return load_or_create_key(key_path, data=data)


def resumed_notice(game: Game) -> Msg:
    """What the first screen says about a game resumed at start-up: after an unexpected stop (the file was not
    closed), that every confirmed operation is recorded and one not yet confirmed is to be done again (nothing
    says whether one was in progress: the notice claims no more than it knows)."""
    if game.ledger.was_unclean:
        return Msg("game_resumed_unclean", {}, "Game resumed after an unexpected stop: everything confirmed is "
                                               "recorded; an operation not yet confirmed is to be done again.")
    return Msg("game_resumed", {}, "Game resumed where it stopped.")
