"""The end of the game: the standings (ranked by worth, RULES.md, End of the game) and everyone's worth over the
game (the host draws the chart). The banker's menu and the history stay on screen."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from terminal.table.i18n import N_
from terminal.table.screens.base import Common, Screen, Table, inputs
from terminal.table.screens.idle import idle_option
from terminal.table.view import Msg, Option, View


@dataclass
class GameOver(Screen):
    name: ClassVar[str] = "game_over"
    takes: ClassVar[frozenset[str]] = inputs("option")
    needs: ClassVar[str] = N_("part_card_banker")
    goes_to: ClassVar[frozenset[str]] = inputs("pin history")
    times_out: ClassVar[bool] = False

    def on_option(self, t: Table, option_id: str) -> None:
        idle_option(t, option_id)

    def view(self, t: Table, base: Common) -> View:
        return View("game_over", Msg("game_over_title", {}, "Game over"),
                    options=(Option("banker", Msg("banker_title", {}, "Banker")),
                             Option("history", Msg("opt_history", {}, "History"))),
                    extra={"standings": t.bank.standings()}, **base)
