"""A Location square of the electronic board (the "Ultimate Banking" edition): the player's card, "Location", then
the property chosen (its card or the list). The Bank holds it: buy it or not (on the same screen); else the
confirmation shows the fee and what follows (raising its level, its rent)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from terminal.bank.operations import Location
from terminal.table.i18n import N_
from terminal.table.screens.base import Common, DeedTap, Screen, Table, Tapped, inputs
from terminal.table.view import Msg, Option, View


@dataclass
class LocationScreen(Screen):
    """``player`` pays the fee, then chooses the property they move to; ``square``: the property chosen when the
    Bank holds it (the player then chooses to buy it or not)."""

    name: ClassVar[str] = "location"
    takes: ClassVar[frozenset[str]] = inputs("player deed option")
    needs: ClassVar[str] = N_("part_card_location_deed")
    goes_to: ClassVar[frozenset[str]] = inputs("location confirm offer")
    long: ClassVar[bool] = True

    player: str
    square: int | None = None

    def _chosen(self, t: Table, square: int, buy: bool | None = None) -> None:
        name = t.deed_name(square)
        if buy is None and t.bank.current.owner.get(square) is None:
            self.square = square
            return t.changed()
        t.ask_confirm(Location(self.player, square, True if buy else None),
                      Msg("purpose_location", {"deed": name}, f"Location: {name}"), confirm_by=(self.player,))

    def on_card(self, t: Table, tapped: Tapped) -> None:
        if not isinstance(tapped, DeedTap):
            return t.refuse_needs()
        t.accept()
        self._chosen(t, tapped.square)

    def on_option(self, t: Table, option_id: str) -> None:
        if option_id in ("buy", "no_buy") and self.square is not None:
            return self._chosen(t, self.square, buy=option_id == "buy")
        if not option_id.isdigit():
            return t.refuse_needs()
        self._chosen(t, int(option_id))

    def view(self, t: Table, base: Common) -> View:
        fee = t.bank.edition.location_fee
        title = Msg("loc_title", {"player": self.player, "fee": t.fmt(fee)},
                    f"{self.player}: Location ({t.fmt(fee)}), tap the property you choose")
        if self.square is not None:  # the Bank holds the property chosen: buy it or not
            deed = t.bank.edition.squares[self.square]
            title = Msg("loc_buy_or_not", {"player": self.player, "deed": deed.name},
                        f"{self.player}: Location on {deed.name}: buy it?")
            options = [Option("buy", Msg("opt_buy", {"price": t.fmt(deed.price)}, "Buy")),
                       Option("no_buy", Msg("opt_no_buy", {}, "Do not buy"))]
            return View("location", title, player=self.player, deed=t.board.deed_view(t, self.square),
                        options=tuple(options), extra={"fee": fee}, **base)
        options = [Option(str(s.index), Msg("deed_context", {"deed": s.name}, s.name)) for s in t.bank.edition.deeds()]
        return View("location", title, player=self.player, options=tuple(options), extra={"fee": fee}, **base)
