"""A trade between two players (RULES.md, Trades): each side's deeds (toggled on screen or by their stickers),
cash (typed) and Get Out of Jail Free cards; mortgaged deeds received may be lifted at once. "Done", or either
player's card, shows the trade to confirm: both players tap their cards (a card that opened the confirmation
counts as its player's).

A deed sold for an amount ("A gives a deed, B pays"), the most common trade, starts from the deed's screen:
"Sell to a player", the buyer's card, the amount on the keypad (OK), then the two cards: 7 touches and the
digits of the amount."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, TypedDict

from terminal.bank.operations import Trade, TradeSide
from terminal.table.i18n import N_
from terminal.table.screens.base import (
    ChoiceNext,
    Common,
    DeedTap,
    KeypadNext,
    PlayerTap,
    Screen,
    Table,
    Tapped,
    inputs,
)
from terminal.table.view import Msg, Option, View


class Gives(TypedDict):
    """What one side of a trade gives: cash, deeds (squares) and Get Out of Jail Free cards."""

    cash: int
    squares: list[int]
    jail_cards: int


def start_trade(t: Table, a: str, b: str) -> None:
    """A trade between ``a`` and ``b`` (refused with oneself)."""
    if b == a:
        return t.refuse(Msg("pay_self", {"player": a}, f"{a} cannot trade with themselves."))
    t.accept()
    t.go(TradeScreen(a=a, b=b, gives={a: {"cash": 0, "squares": [], "jail_cards": 0},
                                      b: {"cash": 0, "squares": [], "jail_cards": 0}}))


def _side(gives: Gives) -> TradeSide:
    """What one side gives, as the operation says it (nothing given: left out)."""
    return TradeSide(cash=gives["cash"] or None, squares=tuple(gives["squares"]) or None,
                     jail_cards=gives["jail_cards"] or None)


@dataclass
class TradeScreen(Screen):
    """The trade being set up between ``a`` and ``b``: what each ``gives``, the mortgages lifted at once."""

    name: ClassVar[str] = "trade"
    takes: ClassVar[frozenset[str]] = inputs("player deed option")
    needs: ClassVar[str] = N_("part_card_trade_deed")
    goes_to: ClassVar[frozenset[str]] = inputs("trade keypad confirm")
    long: ClassVar[bool] = True

    a: str
    b: str
    gives: dict[str, Gives]
    lift_now: list[int] = field(default_factory=list)

    def kept(self) -> Screen | None:
        """Kept by a timeout once anything was put in the trade."""
        set_up = any(side["cash"] or side["squares"] or side["jail_cards"] for side in self.gives.values())
        return self if set_up else None

    def on_option(self, t: Table, option_id: str) -> None:
        gives = self.gives
        kind, _, rest = option_id.partition(":")
        if kind == "deed":
            giver, square_id = rest.split(":")
            squares = gives[giver]["squares"]
            square = int(square_id)
            squares.remove(square) if square in squares else squares.append(square)
            if square not in squares and square in self.lift_now:
                self.lift_now.remove(square)
            t.changed()
        elif kind == "jail":
            held = len(t.bank.current.jail_cards_of(rest))
            gives[rest]["jail_cards"] = (gives[rest]["jail_cards"] + 1) % (held + 1)
            t.changed()
        elif kind == "lift":
            lifted = int(rest)
            lift = self.lift_now
            lift.remove(lifted) if lifted in lift else lift.append(lifted)
            t.changed()
        elif kind == "cash":
            t.ask_number(Msg("keypad_amount", {}, "Amount"), TradeCash(rest), player=rest,
                         purpose=Msg("trade_title", {"a": self.a, "b": self.b}, f"Trade {self.a} ↔ {self.b}"),
                         back=self)
        elif option_id == "done":
            self._confirm(t)

    def on_card(self, t: Table, tapped: Tapped) -> None:
        """A deed's sticker of either player: given or taken back. Either player's card: done, and that
        player's confirmation (the other's card, on the confirmation that shows everything, commits)."""
        if isinstance(tapped, DeedTap):
            owner = t.bank.current.owner.get(tapped.square)
            if owner in (self.a, self.b):
                return self.on_option(t, f"deed:{owner}:{tapped.square}")
        if isinstance(tapped, PlayerTap) and tapped.player in (self.a, self.b):
            return self._confirm(t, by=tapped.player)
        t.refuse_needs()

    def _confirm(self, t: Table, by: str | None = None) -> None:
        a, b, gives = self.a, self.b, self.gives
        op = Trade(a, b, _side(gives[a]), _side(gives[b]), tuple(sorted(self.lift_now)) or None)
        t.ask_confirm(op, Msg("purpose_trade", {}, "Trade"), confirm_by=(a, b), card_only=True, back=self)
        counted = getattr(t.screen, "card_counted", None)  # the confirmation opened (not a refusal)
        if by is not None and counted is not None:
            counted(by)
            t.accept()

    def view(self, t: Table, base: Common) -> View:
        return View("trade", Msg("trade_title", {"a": self.a, "b": self.b}, "Trade"), options=tuple(self._options(t)),
                    extra={"a": self.a, "b": self.b, "gives": self.gives, "lift_now": self.lift_now}, **base)

    def _options(self, t: Table) -> list[Option]:
        a, b, gives = self.a, self.b, self.gives
        state = t.bank.current
        options = []
        for giver in (a, b):
            for square in state.deeds_of(giver):
                options.append(Option(f"deed:{giver}:{square}", Msg("opt_trade_give_deed", {
                    "player": giver, "deed": t.deed_name(square)}, f"{giver} gives {t.deed_name(square)}"),
                    selected=square in gives[giver]["squares"]))
            options.append(Option(f"cash:{giver}", Msg("opt_trade_cash", {
                "player": giver, "amount": t.fmt(gives[giver]["cash"])}, f"{giver} gives cash")))
            if state.jail_cards_of(giver):
                options.append(Option(f"jail:{giver}", Msg("opt_trade_jail", {
                    "player": giver, "count": gives[giver]["jail_cards"]}, f"{giver} gives a Jail card")))
        for giver in (a, b):
            for square in gives[giver]["squares"]:
                if state.mortgaged.get(square):
                    options.append(Option(f"lift:{square}", Msg("opt_lift_now", {"deed": t.deed_name(square)},
                                                                 f"Lift now: {t.deed_name(square)}"),
                                          selected=square in self.lift_now))
        options.append(Option("done", Msg("opt_done", {}, "Done")))
        return options


@dataclass(frozen=True)
class TradeCash(KeypadNext):
    """The cash ``giver`` gives in the trade the keypad was opened from."""

    giver: str

    def entered(self, t: Table, keypad: Any, value: int) -> None:
        trade = keypad.back
        if not isinstance(trade, TradeScreen):
            raise AssertionError("a trade's keypad comes from a trade")
        trade.gives[self.giver]["cash"] = value
        t.go(trade)


def sell_deed(t: Table, square: int) -> None:
    """Its owner sells the deed on ``square`` to another player for an amount: the buyer's card, then the
    amount (a trade: the deed against the buyer's cash, confirmed by both cards)."""
    owner = t.bank.current.owner.get(square)
    if owner is None:
        return t.refuse_needs()
    name = t.deed_name(square)
    t.ask_choice(Msg("choose_buyer", {"deed": name, "player": owner}, f"{owner} sells {name}: buyer, tap your card"),
                 [], Buyer(owner, square))


@dataclass(frozen=True)
class Partner(ChoiceNext):
    """Whom ``player`` trades with: their card (the list has no option)."""

    needs: ClassVar[str] = N_("part_card_other_player")
    player: str

    def chosen(self, t: Table, option_id: str) -> None:
        pass  # a partner is chosen by their card only

    def card(self, t: Table, tapped: Tapped) -> bool:
        if not isinstance(tapped, PlayerTap):
            return False
        start_trade(t, self.player, tapped.player)
        return True


@dataclass(frozen=True)
class Buyer(Partner):
    """Who buys ``player``'s deed on ``square``: their card (the list has no option), as a :class:`Partner`; the
    trade opens with the deed given and the amount typed next."""

    square: int

    def card(self, t: Table, tapped: Tapped) -> bool:
        if not isinstance(tapped, PlayerTap) or not super().card(t, tapped):
            return False
        trade = t.screen
        if isinstance(trade, TradeScreen):  # else refused (oneself): said
            trade.gives[self.player]["squares"].append(self.square)
            trade.on_option(t, f"cash:{tapped.player}")
        return True
