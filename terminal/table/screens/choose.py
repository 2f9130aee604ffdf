"""A list to choose from (an income tax's two ways, a Chance card, a deed, a payee...): the choice, or a card
tapped on it, goes to the flow that opened it (:class:`~terminal.table.screens.base.ChoiceNext`). Opened by
``Table.ask_choice``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from terminal.table.i18n import N_, translate
from terminal.table.screens.base import DEED_NEXT, ChoiceNext, Common, Screen, Table, Tapped, inputs
from terminal.table.view import Msg, Option, View


@dataclass
class Choice(Screen):
    """A list: ``title``, its ``options``, and ``then``, what a choice does."""

    name: ClassVar[str] = "choose"
    takes: ClassVar[frozenset[str]] = inputs("player deed option")
    needs: ClassVar[str] = N_("part_card_choice")
    goes_to: ClassVar[frozenset[str]] = inputs("choose trade player " + DEED_NEXT)
    long: ClassVar[bool] = True

    title: Msg
    options: list[Option]
    then: ChoiceNext

    def on_option(self, t: Table, option_id: str) -> None:
        self.then.chosen(t, option_id)

    def on_card(self, t: Table, tapped: Tapped) -> None:
        """A card on a list: taken by the lists that name a player or a deed, refused by the others."""
        if not self.then.card(t, tapped):
            t.refuse_needs()

    def need(self, t: Table) -> Msg:
        code = self.then.needs
        return Msg(code, {}, translate(code, {}, "en"))

    def view(self, t: Table, base: Common) -> View:
        return View("choose", self.title, options=tuple(self.options), **base)
