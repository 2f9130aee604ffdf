"""The history of the game, newest first (the screen pages through ``Game.history_pages``), with the banker's
undo."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from terminal.table.i18n import N_
from terminal.table.screens.base import Common, Screen, Table, inputs
from terminal.table.view import Msg, Option, View


@dataclass
class History(Screen):
    name: ClassVar[str] = "history"
    takes: ClassVar[frozenset[str]] = inputs("option")
    needs: ClassVar[str] = N_("part_card_choice")
    goes_to: ClassVar[frozenset[str]] = inputs("pin confirm")
    long: ClassVar[bool] = True

    def on_option(self, t: Table, option_id: str) -> None:
        if option_id == "undo":  # the banker's undo, from the history: the banker card or PIN first
            return t.ask_banker("undo")
        t.go_idle()

    def view(self, t: Table, base: Common) -> View:
        game = t.game
        return View("history", Msg("history_title", {}, "History"),
                    options=(Option("undo", Msg("opt_undo", {}, "Undo the last operation"),
                                    enabled=game is not None and game.last_undoable() is not None),
                             Option("back", Msg("opt_done", {}, "Done"))),
                    extra={"history": game.history_pages() if game else []}, **base)
