"""The title deeds at the table: a deed looked at (its sticker tapped, or picked on a list), then the next card
says what it is for: unowned, the buyer's card buys it at the price shown (or Decline: auction); another's, the
payer's card pays the rent shown with its reason (a utility's dice typed first); one's own, the owner's screen
(build, sell, mortgage, lift the mortgage: :meth:`~terminal.table.screens.base.Board.own_deed_options`).

A deed looked at never turns into a purchase later: it times out like every pending step."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from terminal.bank.operations import Build, Buy, PayRent
from terminal.bank.types import Rent
from terminal.errors import GameError
from terminal.table.i18n import N_, translate
from terminal.table.screens.auction import start_auction
from terminal.table.screens.base import (
    DEED_NEXT,
    ChoiceNext,
    Common,
    DeedTap,
    KeypadNext,
    PlayerTap,
    RentAsk,
    Screen,
    Table,
    Tapped,
    inputs,
)
from terminal.table.screens.keypad import Keypad
from terminal.table.screens.trade import sell_deed
from terminal.table.view import Msg, Option, View

#: A deed screen's rent cards' options, and the card's rule each stands for.
RENT_CARD_OPTIONS = {"rent_railroad_card": "nearest_railroad", "rent_utility_card": "nearest_utility"}


def look_at_deed(t: Table, square: int) -> None:
    """A deed card tapped: the deed, its price or its owner and rent; a utility another player owns opens the
    keypad for the dice at once."""
    owner = t.bank.current.owner.get(square)
    deed = t.bank.edition.squares[square]
    if owner is not None and deed.kind == "utility" and not t.bank.current.mortgaged.get(square):
        return t.go(Keypad(label=Msg("keypad_dice", {}, "Dice total (2 to 12)"), then=DeedDice(square), kind="dice",
                           square=square, purpose=Msg("purpose_pay_rent", {"deed": deed.name}, f"Rent on {deed.name}")))
    t.go(DeedScreen(square))


def deed_with_player(t: Table, square: int, player: str) -> None:
    """A deed in ``player``'s context (their screen, a list, a card): to buy it, their own, or the rent (its
    confirmation shows the rent: no touch on screen named it)."""
    owner = t.bank.current.owner.get(square)
    deed = t.bank.edition.squares[square]
    if owner is None:
        return t.go(Offer(square=square, player=player))
    if owner == player:
        return t.go(OwnDeed(square=square, player=player))
    if deed.kind == "utility":
        return t.ask_number(Msg("keypad_dice", {}, "Dice total (2 to 12)"), Dice(player, square), kind="dice",
                            player=player, purpose=Msg("purpose_pay_rent", {"deed": deed.name}, f"Rent on {deed.name}"),
                            square=square)
    rent(t, player, square, now=False)


def rent(t: Table, player: str, square: int, dice: int | None = None, card: str | None = None, uid: str | None = None,
         now: bool = True) -> None:
    """The rent ``player`` pays on ``square``: committed at once (the payer's card was the touch that commits, the
    rent was on screen) unless it would create a debt, or ``now`` is False (asked again on its confirmation)."""
    op = PayRent(player, square, dice, card or None)
    name = t.deed_name(square)
    purpose = Msg("purpose_pay_rent", {"deed": name}, f"Rent on {name}")
    ask = RentAsk(player, square, dice, card)
    if now:
        return t.commit_or_confirm(op, purpose, (player,), uid=uid, rent=ask)
    t.ask_confirm(op, purpose, confirm_by=(player,), rent=ask)


def rent_shown(t: Table, square: int, owner: str, dice: int | None, card: str | None) -> Rent | None:
    """The rent another player would pay now, with its reason (the rules'), or None when it cannot be said yet
    (a utility's dice not typed)."""
    payer = next((p for p in t.bank.current.active_players() if p != owner), None)
    if payer is None:
        return None
    try:
        return t.bank.rent(payer, square, dice, card)
    except GameError:
        return None


def rent_why(rent: Rent | None) -> Msg | None:
    """Why ``rent`` is what it is, in words: the reason the rules that computed it gave (``Rent.reason``, one of
    ``terminal.bank.types.RENT_REASONS``, and its numbers); None for a bare street's rent, or no rent."""
    if rent is None:
        return None
    n, level = rent.detail.get("n", 0), rent.detail.get("level", 0)
    match rent.reason:
        case "group":
            return Msg("why_group", {}, "whole colour group: double rent")
        case "houses":
            return Msg("why_houses", {"n": n}, f"{n} house(s)")
        case "hotel":
            return Msg("why_hotel", {}, "a hotel")
        case "railroads":
            return Msg("why_railroads", {"n": n}, f"{n} railroad(s)")
        case "railroad_card":
            return Msg("why_railroad_card", {"n": n}, f"{n} railroad(s), card: twice the rent")
        case "dice":
            times, dice = rent.detail["times"], rent.detail["dice"]
            return Msg("why_dice", {"times": times, "dice": dice}, f"{times} × {dice}")
        case "level":
            return Msg("why_level", {"level": level}, f"level {level}")
        case "level_slump":
            return Msg("why_level_slump", {}, "market slump: level 1 rent")
        case "level_group":
            return Msg("why_level_group", {"level": level}, f"level {level}, whole colour group: double rent")
    return None


def pick_deed(t: Table, player: str | None, mine: bool = False) -> None:
    """The list of title deeds (``player``'s own with ``mine``); a deed card picks one too."""
    state = t.bank.current
    squares = state.deeds_of(player) if mine and player else [d.index for d in t.bank.edition.deeds()]
    options = [Option(str(s), Msg("deed_context", {"deed": t.deed_name(s)}, t.deed_name(s))) for s in squares]
    t.ask_choice(Msg("choose_deed", {}, "Choose a title deed"), options, DeedPick(player))


def deed_picked(t: Table, player: str | None, square: int) -> None:
    if player is None:
        return look_at_deed(t, square)
    deed_with_player(t, square, player)


def card_on_deed(t: Table, square: int, tapped: Tapped) -> None:
    """A card on an offer or on one's own deed: another deed is looked at; a player's card takes the deed into
    their context."""
    t.accept()
    if isinstance(tapped, DeedTap):
        return look_at_deed(t, tapped.square)
    deed_with_player(t, square, tapped.player)


# -- the screens -----------------------------------------------------------------------------------------------
@dataclass
class DeedScreen(Screen):
    """A deed looked at: the next player card says what it is for. ``card``: a rent card's rule chosen on
    screen (nearest railroad / utility); ``dice``: the dice typed for a utility's rent."""

    name: ClassVar[str] = "deed"
    takes: ClassVar[frozenset[str]] = inputs("player deed option")
    needs: ClassVar[str] = N_("part_card_player")
    goes_to: ClassVar[frozenset[str]] = inputs(DEED_NEXT)

    square: int
    card: str | None = None
    dice: int | None = None

    def on_card(self, t: Table, tapped: Tapped) -> None:
        """The second touch on a deed: the buyer's card buys it, the payer's card pays the rent shown, the
        owner's card is the board's (:meth:`~terminal.table.screens.base.Board.owner_tapped`)."""
        if isinstance(tapped, DeedTap):
            t.accept()
            return look_at_deed(t, tapped.square)
        square, player = self.square, tapped.player
        owner = t.bank.current.owner.get(square)
        if owner is None:
            name = t.deed_name(square)
            return t.commit_or_confirm(Buy(player, square), Msg("purpose_buy", {"deed": name}, f"Buying {name}"),
                                       (player,), uid=tapped.uid)
        if owner == player:
            return t.board.owner_tapped(t, square, tapped)
        t.board.payer_tapped(t, square, tapped, self.dice, self.card)

    def on_option(self, t: Table, option_id: str) -> None:
        if option_id == "decline":
            return start_auction(t, self.square)
        if option_id == "sell_deed":
            return sell_deed(t, self.square)
        if option_id in RENT_CARD_OPTIONS:
            self.card = None if self.card else RENT_CARD_OPTIONS[option_id]
            return t.changed()
        t.refuse_needs()

    def need(self, t: Table) -> Msg:
        unowned = t.bank.current.owner.get(self.square) is None
        code = N_("part_card_buyer") if unowned else N_("part_card_payer")
        return Msg(code, {}, translate(code, {}, "en"))

    def view(self, t: Table, base: Common) -> View:
        """Unowned: the buyer's card buys it at the price shown (or Decline: auction); owned: the board says the
        rent and what the next card does."""
        square = self.square
        deed = t.bank.edition.squares[square]
        owner = t.bank.current.owner.get(square)
        if owner is None:
            title = Msg("deed_tap_buyer", {"price": t.fmt(deed.price)}, "Buyer: tap your card")
            options = [Option("decline", Msg("opt_decline", {}, "Decline: auction"))]
        else:
            title, options = t.board.owned_deed_title(t, square, owner, self.dice, self.card)
        return View("deed", title, deed=t.board.deed_view(t, square), options=tuple(options), **base)


@dataclass
class Offer(Screen):
    """A deed the Bank holds, in ``player``'s context: buy it (the button names the price) or Decline: auction."""

    name: ClassVar[str] = "offer"
    takes: ClassVar[frozenset[str]] = inputs("player deed option")
    needs: ClassVar[str] = N_("part_card_player")
    goes_to: ClassVar[frozenset[str]] = inputs(DEED_NEXT)

    square: int
    player: str

    def on_card(self, t: Table, tapped: Tapped) -> None:
        card_on_deed(t, self.square, tapped)

    def on_option(self, t: Table, option_id: str) -> None:
        player, square = self.player, self.square
        if option_id == "buy":  # the button names the price: it commits
            name = t.deed_name(square)
            t.commit_or_confirm(Buy(player, square), Msg("purpose_buy", {"deed": name}, f"Buying {name}"), (player,))
        elif option_id == "decline":
            start_auction(t, square)

    def view(self, t: Table, base: Common) -> View:
        price = t.bank.edition.squares[self.square].price
        return View("offer", Msg("deed_unowned_now", {"deed": t.deed_name(self.square)}, "Buy or auction"),
                    player=self.player, deed=t.board.deed_view(t, self.square, self.player),
                    options=(Option("buy", Msg("opt_buy", {"price": t.fmt(price)}, "Buy"),
                                    enabled=not t.in_debt(self.player)),
                             Option("decline", Msg("opt_decline", {}, "Decline: auction"))), **base)


@dataclass
class OwnDeed(Screen):
    """``player``'s own deed: what they may do with it is the board's."""

    name: ClassVar[str] = "own_deed"
    takes: ClassVar[frozenset[str]] = inputs("player deed option")
    needs: ClassVar[str] = N_("part_card_player")
    goes_to: ClassVar[frozenset[str]] = inputs(DEED_NEXT)

    square: int
    player: str

    def on_card(self, t: Table, tapped: Tapped) -> None:
        card_on_deed(t, self.square, tapped)

    def on_option(self, t: Table, option_id: str) -> None:
        t.board.own_deed_chosen(t, self.square, self.player, option_id)

    def view(self, t: Table, base: Common) -> View:
        deed = t.bank.edition.squares[self.square]
        return View("own_deed", Msg("deed_context", {"deed": deed.name}, deed.name), player=self.player,
                    deed=t.board.deed_view(t, self.square),
                    options=tuple(t.board.own_deed_options(t, self.square, self.player)), **base)


# -- what a keypad or a list opened for a deed does next ---------------------------------------------------------
@dataclass(frozen=True)
class Dice(KeypadNext):
    """The dice total for ``player``'s rent on the utility ``square`` (``rule``: a card's rule)."""

    player: str
    square: int
    rule: str | None = None

    def entered(self, t: Table, keypad: Any, value: int) -> None:
        rent(t, self.player, self.square, dice=value, card=self.rule, now=False)


@dataclass(frozen=True)
class DeedDice(KeypadNext):
    """The dice total for the rent on a utility looked at (its deed card tapped): the payer's card follows, and
    the rent shows on the keypad as soon as the dice are typed."""

    square: int

    def entered(self, t: Table, keypad: Any, value: int) -> None:
        t.go(DeedScreen(self.square, dice=value))

    def card(self, t: Table, keypad: Any, tapped: Tapped) -> bool:
        """The owner's card opens the owner's context; another player's card, once the dice are typed, pays."""
        if not isinstance(tapped, PlayerTap):
            return False
        if t.bank.current.owner.get(self.square) == tapped.player:
            t.accept()
            t.go(OwnDeed(square=self.square, player=tapped.player))
            return True
        if not keypad.buffer:
            return False
        rent(t, tapped.player, self.square, dice=int(keypad.buffer), uid=tapped.uid)
        return True

    def need(self) -> Msg:
        return Msg("part_dice_then_payer", {}, "the dice total, then the payer's card")

    def view(self, t: Table, keypad: Any, extra: dict[str, Any], base: Common) -> View | None:
        """The rent, live, before the payer's card commits it."""
        if not keypad.buffer:
            return None
        owner = t.bank.current.owner.get(self.square)
        shown = rent_shown(t, self.square, owner, int(keypad.buffer), None) if owner else None
        why = rent_why(shown)
        if shown is None or why is None:
            return None
        title = Msg("deed_rent_why_tap_payer", {"rent": t.fmt(shown.amount), "why": why},
                    f"Rent {shown.amount}: payer, tap your card")
        return View("keypad", title, keypad=keypad.buffer, keypad_label=keypad.label, extra=extra,
                    deed=t.board.deed_view(t, self.square), **base)


@dataclass(frozen=True)
class BuildPrice(KeypadNext):
    """The price of a house bought at a building auction (housing shortage)."""

    player: str
    square: int

    def entered(self, t: Table, keypad: Any, value: int) -> None:
        name = t.deed_name(self.square)
        t.ask_confirm(Build(self.player, self.square, price=value), Msg("purpose_build", {"deed": name},
                                                                         f"Building on {name}"),
                      confirm_by=(self.player,))


@dataclass(frozen=True)
class DeedPick(ChoiceNext):
    """A title deed, from the list or by its card: looked at (``player`` None) or in ``player``'s context."""

    needs: ClassVar[str] = N_("part_card_deed")
    player: str | None

    def chosen(self, t: Table, option_id: str) -> None:
        deed_picked(t, self.player, int(option_id))

    def card(self, t: Table, tapped: Tapped) -> bool:
        if not isinstance(tapped, DeedTap):
            return False
        deed_picked(t, self.player, tapped.square)
        return True
