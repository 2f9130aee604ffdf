"""A damaged game's screen: the game's file is damaged (found at start-up, or by the checks running beside play)
and nothing more is written to it; the banker restores its newest good backup or starts a new game."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from terminal.errors import GameError
from terminal.table.i18n import N_
from terminal.table.screens.base import Common, Screen, Table, inputs
from terminal.table.view import Msg, Option, View


def restore_backup(t: Table) -> None:
    """The newest good backup of the damaged game, restored into a new game file by the host (the damaged file is
    kept), becomes the game in play."""
    restore, damage = t.restore, t.damage
    if restore is None or damage is None or damage.backup is None:
        return t.refuse(Msg("not_allowed_now", {"what": "restore"}, "Not possible here: restore."))
    try:
        game = restore()
    except GameError as exc:
        return t.refuse_error(exc)
    t.take_game(game)
    t.beep("success")
    t.go_idle()
    t.say(Msg("backup_restored", {"backup": damage.backup},
              f"Backup {damage.backup} restored: the game goes on. The old file is kept."), "success")


@dataclass
class Damaged(Screen):
    """``problem``: one line naming what is wrong; ``backup``: the newest good backup offered, or None;
    ``at_startup``: the game was not resumed (else it was being played when payments stopped)."""

    name: ClassVar[str] = "damaged"
    takes: ClassVar[frozenset[str]] = inputs("option")
    needs: ClassVar[str] = N_("part_damaged")
    goes_to: ClassVar[frozenset[str]] = inputs("pin new_game")
    times_out: ClassVar[bool] = False

    problem: str
    backup: str | None = None
    at_startup: bool = True

    def on_option(self, t: Table, option_id: str) -> None:
        if option_id not in ("restore", "new_game"):
            return t.refuse_needs()
        t.ask_banker(option_id)

    def view(self, t: Table, base: Common) -> View:
        """What is wrong (one line, as the host or the Bank named it), and the newest good backup or a new game,
        for the banker."""
        said = (Msg("damaged_startup", {}, "This game's file is damaged: it was not resumed.") if self.at_startup
                else Msg("damaged_play", {}, "This game's file is damaged: payments are stopped; the banker can "
                                             "restore a backup or start a new game."))
        restore = (Option("restore", Msg("opt_restore_backup", {}, "Restore the backup"),
                          enabled=t.restore is not None) if self.backup is not None
                   else Option("restore", Msg("no_good_backup", {}, "No good backup"), enabled=False))
        options = (restore, Option("new_game", Msg("opt_new_game", {}, "New game"),
                                   enabled=t.game_factory is not None))
        return View("damaged", Msg("damaged_title", {}, "Damaged game file"), options=options,
                    extra={"said": said, "problem": self.problem, "backup": self.backup,
                           "at_startup": self.at_startup}, **base)
