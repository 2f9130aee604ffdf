"""The taps of the electronic board (the "Ultimate Banking" edition, ``Edition.is_ultimate``): rent levels,
Event cards, Location squares. A mixin of :class:`terminal.table.machine.Terminal`, which calls it from a few
hooks (a card presented, a deed's second touch, the player's options, the view of a deed); what it uses of
Terminal is declared by :class:`terminal.table.shared.TerminalParts` and, for the few helpers it adds, below.

On this board:

- A deed, then a player's card: the buyer's card buys it at the price shown (or Decline: auction), the
  payer's card pays the rent of its level (then its level rises), the owner's card raises its level. The deed
  screen shows the level and the five rents.
- A property's sticker (``cards.registry.PropertyCard``, ``property N``) names its property. The classic
  board's deed stickers serve too: a street's sticker stands for the property of the same rank on this board
  (its 22 properties are the classic board's 22 streets, colour for colour and in order:
  :func:`property_of_sticker`); a railroad's or a utility's sticker is no property here.
- An Event card: its sticker (``cards.registry.EventCard``, ``event N``) tapped (then the card of the player
  who drew it), or the player's card then
  "Event card" and the card tapped or picked on screen. The machine then asks for exactly what its effect
  needs (:data:`EVENT_SLOTS`): one of your properties, an opponent's property, any owned property, an
  opponent's card, a colour group, a side of the board; each as a tap or on screen. The effect is then shown
  on a confirmation (what moves, which levels change) and is one operation of the journal; a refusal of the
  rules shows the Bank's message, changes nothing, and asks the last choice again. The banker's undo undoes it.
- A Location square: the player's card, "Location", then the property chosen (its card or the list): the
  confirmation shows the fee and what follows (buying it, raising its level, its rent).
- Jail: the player's card, then the jail fee (one touch: the button names it). Bankruptcy ends the game
  (``declare_bankruptcy``, as on the classic board); the end screen ranks everyone by worth.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cards.editions import Edition, EventCard, load_edition
from cards.registry import EventCard as EventCardRole
from cards.registry import deed_squares
from terminal.bank.state import MODES
from terminal.bank.types import Effects
from terminal.bank.ultimate import EVENT_TARGETS, ULTIMATE, event_operation, level, sides, slump_of
from terminal.errors import GameError
from terminal.table.dialogs import DeedScreen, DeedTap, Idle, OwnDeed, PlayerScreen, PlayerTap, RentAsk, Tapped
from terminal.table.dialogs_ultimate import EventScreen, EventTap, LocationScreen
from terminal.table.i18n import N_, translate
from terminal.table.shared import TerminalParts, account_msg, joined
from terminal.table.states import STATES
from terminal.table.view import DeedView, Msg, Option, View

#: What each Event action asks for, in order (the Bank's ``EVENT_TARGETS``): ``own_property`` (one of the
#: drawer's), ``opponent_property`` (another player's), ``owned_property`` (an owned property, anyone's),
#: ``opponent`` (another player, by their card), ``group`` (a colour group, on screen), ``side`` (a side of the
#: board 1-4, on screen).
EVENT_SLOTS: Mapping[str, tuple[str, ...]] = EVENT_TARGETS
#: The target of :func:`terminal.bank.ultimate.event_operation` each slot fills.
SLOT_TARGETS: Mapping[str, str] = {"own_property": "square", "opponent_property": "other",
                                   "owned_property": "square", "opponent": "opponent", "group": "group",
                                   "side": "side"}
PROPERTY_SLOTS = frozenset({"own_property", "opponent_property", "owned_property"})
#: Why an Event card cannot apply now, by the first target of ``Game.event_targets`` with no choice: the message
#: (nothing is recorded; the drawer sets the physical card aside), and its English.
CANNOT_APPLY: Mapping[str, str] = {
    "own_property": N_("ev_cannot_apply_own_property"), "opponent_property": N_("ev_cannot_apply_opponent_property"),
    "owned_property": N_("ev_cannot_apply_owned_property"), "opponent": N_("ev_cannot_apply_opponent"),
    "group": N_("ev_cannot_apply_group"), "side": N_("ev_cannot_apply_side")}
_SET_ASIDE = " Nothing was recorded: set the Event card aside. ({card})"
_CANNOT_APPLY_EN: Mapping[str, str] = {
    "own_property": "{player} has no property this card can use." + _SET_ASIDE,
    "opponent_property": "No opponent of {player} has a property this card can use." + _SET_ASIDE,
    "owned_property": "No owned property can take this card now." + _SET_ASIDE,
    "opponent": "{player} has no opponent left in the game." + _SET_ASIDE,
    "group": "No colour group can take this card now." + _SET_ASIDE,
    "side": "No side of the board can take this card now." + _SET_ASIDE}
#: The Event screen's title while it waits for a slot, and what the screen needs (its "this screen needs ...").
SLOT_TITLES: Mapping[str, str] = {
    "own_property": N_("ev_ask_own_property"), "opponent_property": N_("ev_ask_opponent_property"),
    "owned_property": N_("ev_ask_owned_property"), "opponent": N_("ev_ask_opponent"), "group": N_("ev_ask_group"),
    "side": N_("ev_ask_side")}
SLOT_NEEDS: Mapping[str, str] = {
    "card": N_("part_event_card"), "player": N_("part_card_event_player"), "own_property": N_("part_own_property"),
    "opponent_property": N_("part_opponent_property"), "owned_property": N_("part_owned_property"),
    "opponent": N_("part_opponent"), "group": N_("part_group"), "side": N_("part_side")}
#: This board's rule flags in the new-game wizard, and their values (docs/RULES.md).
FLAG_NAMES: Mapping[str, str] = {
    "group_rent": N_("flag_group_rent"), "neighbours": N_("flag_neighbours"),
    "location_landing": N_("flag_location_landing"), "jail_fee": N_("flag_jail_fee"),
    "charge_beyond_cash": N_("flag_charge_beyond_cash")}
FLAG_VALUES: Mapping[str, str] = {
    "single": N_("flag_value_single"), "double": N_("flag_value_double"), "wrap": N_("flag_value_wrap"),
    "no_wrap": N_("flag_value_no_wrap"), "land": N_("flag_value_land"), "buy_or_raise": N_("flag_value_buy_or_raise"),
    "sell_to_bank": N_("flag_value_sell_to_bank"), "bankrupt": N_("flag_value_bankrupt")}
#: The label of each of the player's options on this board, by option id.
OPTION_LABELS: Mapping[str, str] = {
    "pass_go": N_("opt_pass_go"), "event": N_("opt_event"), "location": N_("opt_location"),
    "jail_fine": N_("opt_jail_fine"), "transfer": N_("opt_transfer"), "my_deeds": N_("opt_my_properties"),
    "any_deed": N_("opt_any_deed"), "pay_bank": N_("opt_pay_bank"), "bank_pays": N_("opt_bank_pays"),
    "free_parking": N_("opt_free_parking"), "pay_each_player": N_("opt_pay_each_player"),
    "collect_from_each_player": N_("opt_collect_from_each_player"), "bankruptcy": N_("opt_bankruptcy")}
#: The player's options on this board, in the order shown (the most used first: F1 stays the GO salary).
PLAYER_OPTIONS = ("pass_go", "event", "location", "jail_fine", "transfer", "my_deeds", "any_deed", "pay_bank",
                  "bank_pays", "free_parking", "pay_each_player", "collect_from_each_player", "bankruptcy")


def is_ultimate(edition: Edition) -> bool:
    """Whether ``edition`` is the electronic board."""
    return edition.is_ultimate


def board_mode(edition: str, mode: str) -> str:
    """The mode a new game of ``edition`` is played in: the electronic board's own (``ultimate``), else ``mode``
    (``classic`` when it was the electronic board's)."""
    if is_ultimate(load_edition(edition)):
        return ULTIMATE
    return mode if mode in MODES else MODES[0]


def event_number(role: object) -> int | None:
    """The number of the Event card a registry role names (None for any other role)."""
    return role.number if isinstance(role, EventCardRole) else None


def property_square(edition: Edition, number: int) -> int | None:
    """The square of property ``number`` (1-22, in board order) of the electronic board (None when no such)."""
    properties = [s.index for s in edition.squares if s.kind == "street"]
    return properties[number - 1] if 1 <= number <= len(properties) else None


def event_slots(card: EventCard) -> tuple[str, ...]:
    """What the Event ``card``'s effect asks for, in order (:data:`EVENT_SLOTS`)."""
    return EVENT_SLOTS.get(card.action, ())


@functools.cache
def _classic_streets() -> tuple[int, ...]:
    """The classic board's 22 street squares, in board order (their deed stickers)."""
    classic = load_edition("us")
    return tuple(s for s in sorted(deed_squares()) if classic.squares[s].kind == "street")


def property_of_sticker(edition: Edition, square: int) -> int | None:
    """The square of this board's property a deed sticker (enrolled on the classic board's ``square``) stands
    for: the street of the same rank (None for a railroad, a utility, or a square that is no street)."""
    streets = _classic_streets()
    if square not in streets:
        return None
    rank = streets.index(square)
    properties = [s.index for s in edition.squares if s.kind == "street"]
    return properties[rank] if rank < len(properties) else None


def sticker_of_property(edition: Edition, square: int) -> int | None:
    """The classic square whose deed sticker stands for this board's property on ``square`` (the inverse of
    :func:`property_of_sticker`)."""
    properties = [s.index for s in edition.squares if s.kind == "street"]
    if square not in properties:
        return None
    streets = _classic_streets()
    rank = properties.index(square)
    return streets[rank] if rank < len(streets) else None


class UltimateFlows(TerminalParts):
    """The electronic board's taps and views (see the module docstring)."""

    if TYPE_CHECKING:  # defined by Terminal and its other mixins
        def _signed(self, op: dict[str, Any], player: str) -> str: ...
        def _rent_shown(self, square: int, owner: str, dice: int | None, card: str | None) -> int | None: ...
        def _commit_or_confirm(self, op: Mapping[str, Any], purpose: Msg, confirm_by: tuple[str, ...] = (),
                               uid: str | None = None, rent: RentAsk | None = None) -> None: ...
        def _rent(self, player: str, square: int, dice: int | None = None, card: str | None = None,
                  uid: str | None = None, now: bool = True) -> None: ...

    # ------------------------------------------------------------------------------------------------------
    # What the board is
    # ------------------------------------------------------------------------------------------------------
    @property
    def _ultimate(self) -> bool:
        """Whether the game on the table is played on the electronic board."""
        return self.game is not None and is_ultimate(self.game.edition)

    def _events(self) -> tuple[EventCard, ...]:
        return self._game.edition.events

    def _event(self, number: int) -> EventCard | None:
        return next((c for c in self._events() if c.number == number), None)

    def _event_text(self, card: EventCard) -> str:
        return card.text_in(self.settings.language) or card.action

    def _group_msg(self, group: str) -> Msg:
        name = self._game.edition.group_name(group, self.settings.language)
        if name:
            return Msg("name", {"name": name}, name)
        return Msg("name", {"name": group.replace("_", " ")}, group)  # the edition names every colour group

    def _ub_level(self, square: int) -> int:
        """A property's rent level now (1-5; 0 while the Bank holds it)."""
        return level(self._game.current, square)

    # ------------------------------------------------------------------------------------------------------
    # Cards presented
    # ------------------------------------------------------------------------------------------------------
    def _ub_sticker(self, square: int) -> int | None:
        """The property a deed sticker stands for on this board (see :func:`property_of_sticker`)."""
        return property_of_sticker(self._game.edition, square)

    def _event_card_tapped(self, tapped: EventTap) -> None:
        """An Event card's sticker: on idle or a player's screen it starts the card's effect; on the Event
        screen it is the card asked for; elsewhere the screen's one message says what it needs."""
        if not self._ultimate:
            return self._refuse(Msg("ev_not_this_board", {}, "No Event cards on this board."))
        if self._event(tapped.number) is None:  # the box's 23rd card, which the edition does not know
            count = len(self._events())
            return self._refuse(Msg("ev_unknown_card", {"number": tapped.number, "count": count},
                                    f"Event card {tapped.number} is not in this edition (cards 1 to {count})."))
        if "event" not in STATES[self.screen].takes:
            return self._refuse_needs()
        dialog = self.dialog
        if isinstance(dialog, Idle):
            self._accept()
            return self._event_next(EventScreen(card=tapped.number))
        if isinstance(dialog, PlayerScreen):
            self._accept()
            return self._event_next(EventScreen(player=dialog.player, card=tapped.number))
        if isinstance(dialog, EventScreen):
            if dialog.card is not None:
                return self._refuse(Msg("ev_wrong_event", {}, "An Event card is already in play: finish it or "
                                                              "cancel."))
            self._accept()
            dialog.card = tapped.number
            return self._event_next(dialog)
        self._refuse_needs()

    # ------------------------------------------------------------------------------------------------------
    # Deeds on this board
    # ------------------------------------------------------------------------------------------------------
    @staticmethod
    def _board_mode(edition: str, mode: str) -> str:
        """:func:`board_mode` (for the new-game wizard of :mod:`terminal.table.flows`)."""
        return board_mode(edition, mode)

    def _ub_deed_with_owner(self, square: int, player: str, uid: str | None = None, confirm: bool = False) -> None:
        """The owner's card on their own property: its level rises by one (one touch: the deed screen said so;
        ``confirm``: reached from a list, so confirmed)."""
        name = self._deed_name(square)
        op = {"op": "raise_level", "player": player, "square": square}
        purpose = Msg("purpose_raise_level", {"deed": name}, f"Raising the level of {name}")
        if confirm:
            return self._ask_confirm(op, purpose, confirm_by=(player,))
        self._commit_or_confirm(op, purpose, (player,), uid=uid)

    def _ub_rent_differs(self, payer: str, square: int) -> bool:
        """Whether ``payer``'s rent on ``square`` is not the one the deed screen shows (their market slump):
        then it is confirmed, the amount on screen."""
        owner = self._game.current.owner.get(square)
        if owner is None or owner == payer:
            return False
        try:
            return self._game.rent(payer, square).amount != self._rent_shown(square, owner, None, None)
        except GameError:
            return False

    def _ub_choose_own_deed(self, option_id: str) -> None:
        """One's own property from the list: raise its level (landed on it), or sell it back to the Bank at its
        price (to pay a debt)."""
        own = self._at(OwnDeed)
        player, square = own.player, own.square
        name = self._deed_name(square)
        if option_id == "raise_level":
            return self._ub_deed_with_owner(square, player, confirm=True)
        if option_id == "sell_property":
            return self._ask_confirm({"op": "sell_property", "player": player, "square": square},
                                     Msg("purpose_sell_property", {"deed": name}, f"Selling {name} to the Bank"),
                                     confirm_by=(player,))
        self._refuse_needs()

    # ------------------------------------------------------------------------------------------------------
    # The player's options
    # ------------------------------------------------------------------------------------------------------
    def _ub_choose_player(self, player: str, option_id: str) -> bool:
        """The options of this board's own (True when handled here)."""
        if option_id == "event":
            self._go(EventScreen(player=player))
            return True
        if option_id == "location":
            self._go(LocationScreen(player=player))
            return True
        return False

    # ------------------------------------------------------------------------------------------------------
    # Event cards
    # ------------------------------------------------------------------------------------------------------
    def _event_slot(self, screen: EventScreen) -> str | None:
        """What the Event screen asks for now: ``player``, ``card``, one of the effect's slots, or None (all
        given)."""
        if screen.card is None:
            return "card"
        if screen.player is None:
            return "player"
        card = self._event(screen.card)
        if card is None:
            return "card"
        return next((slot for slot in event_slots(card) if slot not in screen.picks), None)

    def _event_op(self, screen: EventScreen) -> dict[str, Any]:
        assert screen.card is not None and screen.player is not None, "an Event's operation once card and player"
        targets = {SLOT_TARGETS[slot]: value for slot, value in screen.picks.items()}
        return event_operation(self._game.edition, screen.card, screen.player, **targets).to_json()

    def _event_choices(self, screen: EventScreen) -> dict[str, list[Any]]:
        """Where the effect would apply now, for each thing it asks for (the Bank's ``event_targets``)."""
        card = self._event(screen.card or 0)
        if card is None or screen.player is None:
            return {}
        return self._game.event_targets(screen.player, card.action)

    def _event_next(self, screen: EventScreen) -> None:
        """Ask for what the effect needs next, or, when everything is given, show the effect to confirm (a
        refusal of the rules is shown at once, changes nothing, and the last choice is asked again). A card
        that cannot apply now (nothing of what it asks for is there: no property to swap...) is set aside:
        nothing is recorded."""
        slot = self._event_slot(screen)
        card = self._event(screen.card or 0)
        if slot not in ("card", "player") and card is not None and screen.player is not None and not screen.picks:
            empty = [target for target, choices in self._event_choices(screen).items() if not choices]
            owns = screen.player in self._game.current.owner.values()
            if {"own_property", "opponent_property"} <= set(empty) and owns:
                empty.remove("own_property")  # a swap: the drawer has a property, no opponent has one
            if empty:
                self._go_idle()
                return self._refuse(self._cannot_apply(screen.player, empty[0], self._event_text(card)))
        if slot is not None:
            return self._go(screen) if self.dialog is not screen else self._changed()
        assert card is not None and screen.player is not None
        try:
            op = self._event_op(screen)
            effects = self._game.preview(op).effects
        except GameError as exc:  # the last choice is asked again (the card, when it asked for nothing)
            if screen.picks:
                screen.picks.popitem()
            else:
                screen.card = None
            if self.dialog is not screen:
                self._go(screen)
            return self._refuse_error(exc, money=("amount", "cash", "owed"))
        if card.action != "movement" and not effects.postings and not effects.changes:
            # nothing to move or change (M50 per property, with no property): never a confirmation of "—" nor an
            # empty entry to undo later
            self._go_idle()
            text = self._event_text(card)
            return self._refuse(Msg("ev_changes_nothing", {"player": screen.player, "card": text},
                                    f"This card changes nothing for {screen.player} now. Nothing was recorded: set "
                                    f"the Event card aside. ({text})"))
        purpose = Msg("deck_card", {"text": self._event_text(card)}, self._event_text(card))
        if card.action == "movement":  # no money, no level: recorded at once (the card said so)
            return self._commit_or_confirm(op, purpose, (screen.player,))
        self._ask_confirm(op, purpose, confirm_by=(screen.player,), effects=effects)

    @staticmethod
    def _cannot_apply(player: str, target: str, card: str) -> Msg:
        """Why an Event card cannot apply now: the first thing it needs that is not there (``target``, a key of
        the Bank's ``event_targets``), naming the player who drew it and the card's text."""
        code = CANNOT_APPLY.get(target, N_("ev_cannot_apply"))
        english = _CANNOT_APPLY_EN.get(target, "Cannot apply now, nothing was recorded: set the card aside. ({card})")
        return Msg(code, {"player": player, "card": card}, english.format(player=player, card=card))

    def _card_event(self, tapped: Tapped) -> None:
        """A player's card or a deed's sticker on the Event screen: the drawer, an opponent, a property."""
        screen = self._at(EventScreen)
        slot = self._event_slot(screen)
        if isinstance(tapped, PlayerTap):
            if slot == "player":
                self._accept()
                screen.player = tapped.player
                return self._event_next(screen)
            if slot == "opponent":
                if tapped.player == screen.player:
                    return self._refuse(Msg("ev_not_opponent", {"player": tapped.player},
                                            f"{tapped.player} cannot choose themselves: tap an opponent's card."))
                self._accept()
                screen.picks[slot] = tapped.player
                return self._event_next(screen)
            return self._refuse_needs()
        if isinstance(tapped, DeedTap) and slot in PROPERTY_SLOTS:
            return self._event_property(screen, slot, tapped.square)
        self._refuse_needs()

    def _event_property(self, screen: EventScreen, slot: str, square: int) -> None:
        state = self._game.current
        owner = state.owner.get(square)
        name = self._deed_name(square)
        player = screen.player or ""
        if slot == "own_property" and owner != player:
            return self._refuse(Msg("ev_not_yours", {"deed": name, "player": player},
                                    f"{name} is not {player}'s: tap one of their properties."))
        if slot == "opponent_property" and (owner is None or owner == player):
            return self._refuse(Msg("ev_not_opponents", {"deed": name, "player": player},
                                    f"{name} is not an opponent's of {player}: tap an opponent's property."))
        if slot == "owned_property" and owner is None:
            return self._refuse(Msg("ev_unowned", {"deed": name}, f"{name} belongs to the Bank: tap an owned "
                                                                   f"property."))
        self._accept()
        screen.picks[slot] = square
        self._event_next(screen)

    def _choose_event(self, option_id: str) -> None:
        """A choice on the Event screen: the card (``card:N``), the drawer or an opponent (``player:NAME``), a
        property (``square:N``), a colour group (``group:NAME``), a side (``side:N``)."""
        screen = self._at(EventScreen)
        slot = self._event_slot(screen)
        kind, _, value = option_id.partition(":")
        if kind == "card" and slot == "card":
            screen.card = int(value)
            return self._event_next(screen)
        if kind == "player":
            return self._card_event(PlayerTap(value, ""))
        if kind == "square":
            return self._card_event(DeedTap(int(value), ""))
        if kind == "group" and slot == "group":
            screen.picks[slot] = value
            return self._event_next(screen)
        if kind == "side" and slot == "side":
            screen.picks[slot] = int(value)
            return self._event_next(screen)
        self._refuse_needs()

    def _event_needs(self, screen: EventScreen) -> Msg:
        slot = self._event_slot(screen)
        if slot is None:
            return Msg("part_card_choice", {}, translate("part_card_choice", {}, "en"))
        return Msg(SLOT_NEEDS[slot], {}, translate(SLOT_NEEDS[slot], {}, "en"))

    # ------------------------------------------------------------------------------------------------------
    # Location squares
    # ------------------------------------------------------------------------------------------------------
    def _location(self, player: str, square: int, buy: bool | None = None) -> None:
        """The property chosen after a Location square: the Bank holds it, the player chooses to buy it or
        not (on the same screen); else the fee and what follows are confirmed."""
        name = self._deed_name(square)
        if buy is None and self._game.current.owner.get(square) is None:
            screen = self._at(LocationScreen)
            screen.square = square
            return self._changed()
        op: dict[str, Any] = {"op": "location", "player": player, "square": square}
        if buy:
            op["buy"] = True
        self._ask_confirm(op, Msg("purpose_location", {"deed": name}, f"Location: {name}"), confirm_by=(player,))

    def _card_location(self, tapped: Tapped) -> None:
        screen = self._at(LocationScreen)
        if not isinstance(tapped, DeedTap):
            return self._refuse_needs()
        self._accept()
        self._location(screen.player, tapped.square)

    def _choose_location(self, option_id: str) -> None:
        screen = self._at(LocationScreen)
        if option_id in ("buy", "no_buy") and screen.square is not None:
            return self._location(screen.player, screen.square, buy=option_id == "buy")
        if not option_id.isdigit():
            return self._refuse_needs()
        self._location(screen.player, int(option_id))

    # ------------------------------------------------------------------------------------------------------
    # Views
    # ------------------------------------------------------------------------------------------------------
    def _ub_player_options(self, player: str) -> list[Option]:
        """A player's options on this board: GO salary, an Event card, a Location, the jail fee (each naming
        its amount where it has one), a payment, the properties, bankruptcy (in debt only)."""
        in_debt = self._in_debt(player)
        fee = self._game.edition.location_fee

        def opt(option_id: str, english: str, enabled: bool = True) -> Option:
            return Option(option_id, Msg(OPTION_LABELS[option_id], {}, english), enabled=enabled)

        def amount_opt(option_id: str, english: str, op: dict[str, Any]) -> Option:
            amount = self._signed(op, player)
            if not amount:
                return opt(option_id, english)
            return Option(option_id, Msg("opt_amount", {"what": Msg(OPTION_LABELS[option_id], {}, english),
                                                        "amount": amount}, f"{english} {amount}"))
        location = Option("location", Msg("opt_amount", {"what": Msg(OPTION_LABELS["location"], {}, "Location"),
                                                         "amount": "−" + self._fmt(fee)}, "Location"))
        options = [amount_opt("pass_go", "GO salary", {"op": "pass_go", "player": player}),
                   opt("event", "Event card"), location,
                   amount_opt("jail_fine", "Jail fine", {"op": "jail_fine", "player": player}),
                   opt("transfer", "Pay an amount", enabled=not in_debt),
                   opt("my_deeds", "My properties"),
                   opt("any_deed", "Pick a title deed"), opt("pay_bank", "Pay the Bank"),
                   opt("bank_pays", "Receive from the Bank"), opt("free_parking", "Free Parking"),
                   opt("pay_each_player", "Pay each player"),
                   opt("collect_from_each_player", "Collect from each player"),
                   opt("bankruptcy", "Declare bankruptcy", enabled=in_debt)]
        if in_debt:  # the ways to raise money and bankruptcy first
            options.sort(key=lambda o: o.id not in ("my_deeds", "bankruptcy"))
        return options

    def _ub_deed_view(self, square: int, payer: str | None = None) -> DeedView:
        """A property as drawn: its level (1-5; 0 while the Bank holds it), its five rents, the rent due now."""
        state = self._game.current
        deed = self._game.edition.squares[square]
        owner = state.owner.get(square)
        rent = None
        other = payer if payer and payer != owner else next((p for p in state.active_players() if p != owner), None)
        if owner and other:
            try:
                rent = self._game.rent(other, square).amount
            except GameError:
                rent = None
        return DeedView(square=square, name=deed.name, kind=deed.kind, group=deed.group or "", price=deed.price,
                        mortgage_value=0, house_cost=0, rents=deed.rents, owner=owner, level=self._ub_level(square),
                        mortgaged=False, rent=rent, rent_levels=True)

    @staticmethod
    def _ub_flag_option(flag: str, value: object) -> Option:
        """A rule flag of this board in the new-game wizard: its name and value in the reader's language."""
        if isinstance(value, int):  # the jail fee
            return Option(f"flag:{flag}", Msg("opt_flag_amount", {"flag_code": FLAG_NAMES[flag], "value": value},
                                              f"{flag}: {value}"))
        return Option(f"flag:{flag}", Msg("opt_flag_named", {"flag_code": FLAG_NAMES[flag],
                                                             "value_code": FLAG_VALUES[str(value)]},
                                          f"{flag}: {value}"))

    def _ub_own_deed_options(self, square: int) -> list[Option]:
        price = self._fmt(self._game.edition.squares[square].price)
        return [Option("raise_level", Msg("opt_raise_level", {}, "Landed here: raise the level")),
                Option("sell_property", Msg("opt_sell_property", {"price": price}, f"Sell to the Bank {price}"))]

    def _ub_deed_screen_view(self, d: DeedScreen, base: Mapping[str, Any]) -> View:
        """A property looked at: unowned, the buyer's card buys it at the price shown (or Decline: auction);
        owned, the payer's card pays the rent of its level and the owner's card raises the level."""
        state = self._game.current
        square = d.square
        deed = self._game.edition.squares[square]
        owner = state.owner.get(square)
        options: list[Option] = []
        if owner is None:
            title = Msg("deed_tap_buyer", {"price": self._fmt(deed.price)}, "Buyer: tap your card")
            options.append(Option("decline", Msg("opt_decline", {}, "Decline: auction")))
        else:
            rent = self._rent_shown(square, owner, None, None)
            why = self._ub_rent_reason(square)
            if rent is None or why is None:
                title = Msg("deed_tap_player", {}, "Tap the player's card")
            else:
                title = Msg("deed_own_raise", {"rent": self._fmt(rent), "why": why},
                            f"Rent {rent} ({why.english}): the payer taps their card; the owner raises the level")
        return View("deed", title, deed=self._deed_view(square), options=tuple(options), **base)

    def _property_options(self, squares: list[int]) -> list[Option]:
        return [Option(f"square:{s}", Msg("deed_context", {"deed": self._deed_name(s)}, self._deed_name(s)))
                for s in squares]

    def _event_view(self, d: EventScreen, base: Mapping[str, Any]) -> View:
        slot = self._event_slot(d)
        state = self._game.current
        card = self._event(d.card) if d.card is not None else None
        player = d.player or ""
        options: list[Option] = []
        if slot == "card":
            title = Msg("ev_pick_card", {"player": player}, f"{player}: tap the Event card or pick it")
            options = [Option(f"card:{c.number}", Msg("deck_card", {"text": self._event_text(c)}, self._event_text(c)))
                       for c in self._events()]
        elif slot == "player":
            title = Msg("ev_tap_player", {}, "Event: who drew it? Tap your card")
            options = [Option(f"player:{p}", Msg("name", {"name": p}, p)) for p in state.active_players()]
        else:
            title = Msg(SLOT_TITLES[slot or ""], {"player": player}, f"{player}: {slot}")
            choices = self._event_choices(d).get(slot or "", [])
            if slot in PROPERTY_SLOTS:
                options = self._property_options([int(c) for c in choices])
            elif slot == "opponent":
                options = [Option(f"player:{p}", Msg("name", {"name": str(p)}, str(p))) for p in choices]
            elif slot == "group":
                options = [Option(f"group:{g}", self._group_msg(str(g))) for g in choices]
            elif slot == "side":
                options = [Option(f"side:{side}", self._pick_msg("side", side)) for side in choices]
        picked = [self._pick_msg(s, v) for s, v in d.picks.items()]
        extra = {"card": self._event_text(card) if card else None, "number": d.card, "slot": slot,
                 "picked": joined(picked) if picked else None, "player": d.player}
        return View("event", title, player=d.player, options=tuple(options), extra=extra, **base)

    def _pick_msg(self, slot: str, value: Any) -> Msg:
        if slot in PROPERTY_SLOTS:
            return Msg("name", {"name": self._deed_name(int(value))}, self._deed_name(int(value)))
        if slot == "group":
            return self._group_msg(str(value))
        if slot == "side":
            squares = sides(self._game.edition)[int(value)]  # its properties: the first and the last named
            return Msg("opt_side", {"side": value, "first": self._deed_name(squares[0]),
                                    "last": self._deed_name(squares[-1])}, f"Side {value}")
        return Msg("name", {"name": str(value)}, str(value))

    def _location_view(self, d: LocationScreen, base: Mapping[str, Any]) -> View:
        fee = self._game.edition.location_fee
        title = Msg("loc_title", {"player": d.player, "fee": self._fmt(fee)},
                    f"{d.player}: Location ({self._fmt(fee)}), tap the property you choose")
        if d.square is not None:  # the Bank holds the property chosen: buy it or not
            deed = self._game.edition.squares[d.square]
            title = Msg("loc_buy_or_not", {"player": d.player, "deed": deed.name},
                        f"{d.player}: Location on {deed.name}: buy it?")
            options = [Option("buy", Msg("opt_buy", {"price": self._fmt(deed.price)}, "Buy")),
                       Option("no_buy", Msg("opt_no_buy", {}, "Do not buy"))]
            return View("location", title, player=d.player, deed=self._deed_view(d.square), options=tuple(options),
                        extra={"fee": fee}, **base)
        options = [Option(str(s.index), Msg("deed_context", {"deed": s.name}, s.name))
                   for s in self._game.edition.deeds()]
        return View("location", title, player=d.player, options=tuple(options), extra={"fee": fee}, **base)

    def _ub_reasons(self, op: Mapping[str, Any], effects: Effects) -> tuple[Msg, ...]:
        """What a confirmation lists on this board besides the money: the rent's level, the levels that change,
        the properties that change hands."""
        lines: list[Msg] = []
        name = op.get("op")
        square = op.get("square")
        if name == "pay_rent" and isinstance(square, int):
            owner = self._game.current.owner.get(square)
            why = self._ub_rent_reason(square, str(op.get("player") or "")) if owner else None
            if why is not None:
                lines.append(why)
        edition = self._game.edition
        for section, key, before, after in effects.changes:
            # a level that moves (a purchase sets level 1, a return to the Bank takes it: their own lines say so)
            if section == "level" and isinstance(key, int) and isinstance(before, int) and isinstance(after, int) \
                    and before != after:
                lines.append(Msg("lv_change", {"deed": edition.squares[key].name, "before": before, "after": after},
                                 f"{edition.squares[key].name}: level {before} → {after}"))
            elif section == "owner" and isinstance(key, int) and name != "buy" and before is not None:
                deed = edition.squares[key].name
                if after is None:
                    lines.append(Msg("lv_back_to_bank", {"deed": deed}, f"{deed} goes back to the Bank"))
                else:
                    lines.append(Msg("lv_owner", {"deed": deed, "owner": account_msg(str(after))}, deed))
        return tuple(lines)

    def _ub_rent_reason(self, square: int, payer: str | None = None) -> Msg | None:
        """Why the rent is what it is: the property's level (level 1 during the payer's market slump)."""
        now = self._ub_level(square)
        if not now:
            return None
        if payer and slump_of(self._game.current, payer):
            return Msg("why_level_slump", {}, "market slump: level 1 rent")
        return Msg("why_level", {"level": now}, f"level {now}")
