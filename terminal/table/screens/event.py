"""An Event card of the electronic board (the "Ultimate Banking" edition): its sticker tapped (then the card of the
player who drew it), or the player's card then "Event card" and the card tapped or picked on screen. The screen
then asks for exactly what the card's effect needs (:data:`EVENT_SLOTS`): one of the drawer's properties, an
opponent's property, any owned property, an opponent's card, a colour group, a side of the board; each as a tap
or on screen. The effect is then shown on a confirmation (what moves, which levels change) and is one operation
of the journal; a refusal of the rules shows the Bank's message, changes nothing, and asks the last choice
again. A card that cannot apply now is set aside: nothing is recorded."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cards.editions import EventCard
from terminal.bank.operations import Operation
from terminal.bank.ultimate import EVENT_TARGETS, event_operation, side_of, sides
from terminal.errors import GameError
from terminal.table.i18n import N_, translate
from terminal.table.screens.base import Common, DeedTap, EventTap, PlayerTap, Screen, Table, Tapped, inputs
from terminal.table.screens.idle import Idle
from terminal.table.screens.player import PlayerScreen
from terminal.table.view import Msg, Option, View
from terminal.table.words import joined

#: What each Event action asks for, in order (the Bank's ``EVENT_TARGETS``): ``own_property`` (one of the
#: drawer's), ``opponent_property`` (another player's), ``owned_property`` (an owned property, anyone's),
#: ``opponent`` (another player, by their card), ``group`` (a colour group) and ``side`` (a side of the board 1-4):
#: one of the drawer's properties tapped, or on screen.
EVENT_SLOTS: Mapping[str, tuple[str, ...]] = EVENT_TARGETS
#: The target of :func:`terminal.bank.ultimate.event_operation` each slot fills.
SLOT_TARGETS: Mapping[str, str] = {"own_property": "square", "opponent_property": "other",
                                   "owned_property": "square", "opponent": "opponent", "group": "group",
                                   "side": "side", "any_property": "square"}
PROPERTY_SLOTS = frozenset({"own_property", "opponent_property", "owned_property", "any_property"})
#: Why an Event card cannot apply now, by the first target of ``Game.event_targets`` with no choice: the message
#: (nothing is recorded; the drawer sets the physical card aside), and its English.
CANNOT_APPLY: Mapping[str, str] = {
    "own_property": N_("ev_cannot_apply_own_property"), "opponent_property": N_("ev_cannot_apply_opponent_property"),
    "owned_property": N_("ev_cannot_apply_owned_property"), "opponent": N_("ev_cannot_apply_opponent"),
    "group": N_("ev_cannot_apply_group"), "side": N_("ev_cannot_apply_side"),
    "any_property": N_("ev_cannot_apply_any_property")}
_SET_ASIDE = " Nothing was recorded: set the Event card aside. ({card})"
_CANNOT_APPLY_EN: Mapping[str, str] = {
    "own_property": "{player} has no property this card can use." + _SET_ASIDE,
    "opponent_property": "No opponent of {player} has a property this card can use." + _SET_ASIDE,
    "owned_property": "No owned property can take this card now." + _SET_ASIDE,
    "opponent": "{player} has no opponent left in the game." + _SET_ASIDE,
    "group": "No colour group can take this card now." + _SET_ASIDE,
    "side": "No side of the board can take this card now." + _SET_ASIDE,
    "any_property": "No property can take this card for {player} now." + _SET_ASIDE}
#: The Event screen's title while it waits for a slot, and what the screen needs (its "this screen needs ...").
SLOT_TITLES: Mapping[str, str] = {
    "own_property": N_("ev_ask_own_property"), "opponent_property": N_("ev_ask_opponent_property"),
    "owned_property": N_("ev_ask_owned_property"), "opponent": N_("ev_ask_opponent"), "group": N_("ev_ask_group"),
    "side": N_("ev_ask_side"), "any_property": N_("ev_ask_any_property")}
SLOT_NEEDS: Mapping[str, str] = {
    "card": N_("part_event_card"), "player": N_("part_card_event_player"), "own_property": N_("part_own_property"),
    "opponent_property": N_("part_opponent_property"), "owned_property": N_("part_owned_property"),
    "opponent": N_("part_opponent"), "group": N_("part_group"), "side": N_("part_side"),
    "any_property": N_("part_any_property")}


def event_slots(card: EventCard) -> tuple[str, ...]:
    """What the Event ``card``'s effect asks for, in order (:data:`EVENT_SLOTS`)."""
    return EVENT_SLOTS.get(card.action, ())


def deck(t: Table) -> tuple[EventCard, ...]:
    """The Event cards of the game at the table, as its rules version reads them."""
    return t.bank.edition.deck(t.bank.config.rules_version)


def _event(t: Table, number: int) -> EventCard | None:
    return t.bank.edition.event_card(number, t.bank.config.rules_version)


def _event_text(t: Table, card: EventCard) -> str:
    return card.text_in(t.settings.language) or card.action


def group_msg(t: Table, group: str) -> Msg:
    """A colour group's name in the screen's language."""
    name = t.bank.edition.group_name(group, t.settings.language)
    if name:
        return Msg("name", {"name": name}, name)
    return Msg("name", {"name": group.replace("_", " ")}, group)  # the edition names every colour group


def event_tapped(t: Table, tapped: EventTap) -> None:
    """An Event card's sticker: on idle or a player's screen it starts the card's effect; on the Event screen it is
    the card asked for; elsewhere the screen's one message says what it needs."""
    if _event(t, tapped.number) is None:  # a card the game's deck does not hold (the box's 23rd card...)
        count = len(deck(t))
        return t.refuse(Msg("ev_unknown_card", {"number": tapped.number, "count": count},
                            f"Event card {tapped.number} is not in this game's deck ({count} cards)."))
    screen = t.screen
    if "event" not in screen.takes:
        return t.refuse_needs()
    if isinstance(screen, Idle):
        t.accept()
        return EventScreen(card=tapped.number).next(t)
    if isinstance(screen, PlayerScreen):
        t.accept()
        return EventScreen(player=screen.player, card=tapped.number).next(t)
    if isinstance(screen, EventScreen):
        if screen.card is not None:
            return t.refuse(Msg("ev_wrong_event", {}, "An Event card is already in play: finish it or cancel."))
        t.accept()
        screen.card = tapped.number
        return screen.next(t)
    t.refuse_needs()


def _cannot_apply(player: str, target: str, card: str) -> Msg:
    """Why an Event card cannot apply now: the first thing it needs that is not there (``target``, a key of the
    Bank's ``event_targets``), naming the player who drew it and the card's text."""
    code = CANNOT_APPLY.get(target, N_("ev_cannot_apply"))
    english = _CANNOT_APPLY_EN.get(target, "Cannot apply now, nothing was recorded: set the card aside. ({card})")
    return Msg(code, {"player": player, "card": card}, english.format(player=player, card=card))


@dataclass
class EventScreen(Screen):
    """An Event card's effect in progress. ``player``: who drew it (None until their card is tapped, when the
    Event sticker was tapped first); ``card``: the card's number (None until it is tapped or picked on screen);
    ``picks``: what was chosen so far for the effect (``slot -> value``), in the order the effect asks for them
    (:func:`event_slots`)."""

    name: ClassVar[str] = "event"
    takes: ClassVar[frozenset[str]] = inputs("player deed option event")
    needs: ClassVar[str] = N_("part_event_needs")
    goes_to: ClassVar[frozenset[str]] = inputs("event confirm")
    long: ClassVar[bool] = True

    player: str | None = None
    card: int | None = None
    picks: dict[str, Any] = field(default_factory=dict)

    def slot(self, t: Table) -> str | None:
        """What the screen asks for now: ``player``, ``card``, one of the effect's slots, or None (all given)."""
        if self.card is None:
            return "card"
        if self.player is None:
            return "player"
        card = _event(t, self.card)
        if card is None:
            return "card"
        return next((slot for slot in event_slots(card) if slot not in self.picks), None)

    def _operation(self, t: Table) -> Operation:
        assert self.card is not None and self.player is not None, "an Event's operation once card and player"
        targets = {SLOT_TARGETS[slot]: value for slot, value in self.picks.items()}
        if "any_property" in self.picks and self.picks["any_property"] not in t.bank.current.owner:
            targets["buy"] = True  # an unowned property: the buy offered at once (cancel declines it)
        return event_operation(t.bank.edition, self.card, self.player, t.bank.config.rules_version, **targets)

    def choices(self, t: Table) -> dict[str, list[Any]]:
        """Where the effect would apply now, for each thing it asks for (the Bank's ``event_targets``)."""
        card = _event(t, self.card or 0)
        if card is None or self.player is None:
            return {}
        return t.bank.event_targets(self.player, card.action)

    def next(self, t: Table) -> None:
        """Ask for what the effect needs next, or, when everything is given, show the effect to confirm (a refusal
        of the rules is shown at once, changes nothing, and the last choice is asked again). A card that cannot
        apply now (nothing of what it asks for is there: no property to swap...) is set aside: nothing is
        recorded."""
        slot = self.slot(t)
        card = _event(t, self.card or 0)
        if slot not in ("card", "player") and card is not None and self.player is not None and not self.picks:
            empty = [target for target, choices in self.choices(t).items() if not choices]
            owns = self.player in t.bank.current.owner.values()
            if {"own_property", "opponent_property"} <= set(empty) and owns:
                empty.remove("own_property")  # a swap: the drawer has a property, no opponent has one
            if empty and not event_slots(card):  # a money card with nothing to act on (M50 per property, none)
                return self._set_aside(t, card)
            if empty:
                t.go_idle()
                return t.refuse(_cannot_apply(self.player, empty[0], _event_text(t, card)))
        if slot is not None:
            return t.go(self) if t.screen is not self else t.changed()
        assert card is not None and self.player is not None
        try:
            op = self._operation(t)
            preview = t.preview(op)
        except GameError as exc:  # the last choice is asked again (the card, when it asked for nothing)
            if self.picks:
                self.picks.popitem()
            else:
                self.card = None
            if t.screen is not self:
                t.go(self)
            return t.refuse_error(exc, money=("amount", "cash", "owed"))
        purpose = Msg("deck_card", {"text": _event_text(t, card)}, _event_text(t, card))
        if card.action != "movement" and not preview.effects.postings and not preview.effects.changes:
            if t.bank.config.rules_version >= 2:
                # nothing to move or change: never a confirmation of "—" nor an empty entry to undo later
                return self._set_aside(t, card)
            # the first rules recorded M50 per property with no property as a payment of M0 (RULES.md, Rules
            # versions): recorded at once, as the game's own journal and its table log have it
            return t.commit_or_confirm(op, purpose, (self.player,), preview=preview)
        if card.action == "movement":  # no money, no level: recorded at once (the card said so)
            return t.commit_or_confirm(op, purpose, (self.player,), preview=preview)
        t.ask_confirm(op, purpose, confirm_by=(self.player,), preview=preview)

    def _set_aside(self, t: Table, card: EventCard) -> None:
        """The card changes nothing for the drawer now: said, nothing recorded, the card set aside."""
        t.go_idle()
        text = _event_text(t, card)
        return t.refuse(Msg("ev_changes_nothing", {"player": self.player, "card": text},
                            f"This card changes nothing for {self.player} now. Nothing was recorded: set the "
                            f"Event card aside. ({text})"))

    def on_card(self, t: Table, tapped: Tapped) -> None:
        """A player's card or a property's sticker: the drawer, an opponent, a property."""
        slot = self.slot(t)
        if isinstance(tapped, PlayerTap):
            if slot == "player":
                t.accept()
                self.player = tapped.player
                return self.next(t)
            if slot == "opponent":
                if tapped.player == self.player:
                    return t.refuse(Msg("ev_not_opponent", {"player": tapped.player},
                                        f"{tapped.player} cannot choose themselves: tap an opponent's card."))
                t.accept()
                self.picks[slot] = tapped.player
                return self.next(t)
            return t.refuse_needs()
        if isinstance(tapped, DeedTap) and slot in PROPERTY_SLOTS:
            return self._property(t, slot, tapped.square)
        if isinstance(tapped, DeedTap) and slot in ("side", "group"):
            return self._through(t, slot, tapped.square)
        t.refuse_needs()

    def _through(self, t: Table, slot: str, square: int) -> None:
        """A side or colour-set card: one of the drawer's properties tapped names its side or its colour set (the
        printed cards: "tap this card, then one of your property cards")."""
        name = t.deed_name(square)
        player = self.player or ""
        if t.bank.current.owner.get(square) != player:
            return t.refuse(Msg("ev_not_yours", {"deed": name, "player": player},
                                f"{name} is not {player}'s: tap one of their properties."))
        t.accept()
        deed = t.bank.edition.squares[square]
        self.picks[slot] = side_of(square) if slot == "side" else deed.group
        self.next(t)

    def _property(self, t: Table, slot: str, square: int) -> None:
        owner = t.bank.current.owner.get(square)
        name = t.deed_name(square)
        player = self.player or ""
        if slot == "own_property" and owner != player:
            return t.refuse(Msg("ev_not_yours", {"deed": name, "player": player},
                                f"{name} is not {player}'s: tap one of their properties."))
        if slot == "opponent_property" and (owner is None or owner == player):
            return t.refuse(Msg("ev_not_opponents", {"deed": name, "player": player},
                                f"{name} is not an opponent's of {player}: tap an opponent's property."))
        if slot == "owned_property" and owner is None:
            return t.refuse(Msg("ev_unowned", {"deed": name}, f"{name} belongs to the Bank: tap an owned property."))
        t.accept()
        self.picks[slot] = square
        self.next(t)

    def on_option(self, t: Table, option_id: str) -> None:
        """A choice: the card (``card:N``), the drawer or an opponent (``player:NAME``), a property (``square:N``), a
        colour group (``group:NAME``), a side (``side:N``)."""
        slot = self.slot(t)
        kind, _, value = option_id.partition(":")
        if kind == "card" and slot == "card":
            self.card = int(value)
            return self.next(t)
        if kind == "player":
            return self.on_card(t, PlayerTap(value, ""))
        if kind == "square":
            return self.on_card(t, DeedTap(int(value), ""))
        if kind == "group" and slot == "group":
            self.picks[slot] = value
            return self.next(t)
        if kind == "side" and slot == "side":
            self.picks[slot] = int(value)
            return self.next(t)
        t.refuse_needs()

    def need(self, t: Table) -> Msg:
        slot = self.slot(t)
        if slot is None:
            return Msg("part_card_choice", {}, translate("part_card_choice", {}, "en"))
        return Msg(SLOT_NEEDS[slot], {}, translate(SLOT_NEEDS[slot], {}, "en"))

    def _pick_msg(self, t: Table, slot: str, value: Any) -> Msg:
        if slot in PROPERTY_SLOTS:
            return Msg("name", {"name": t.deed_name(int(value))}, t.deed_name(int(value)))
        if slot == "group":
            return group_msg(t, str(value))
        if slot == "side":
            squares = sides(t.bank.edition)[int(value)]  # its properties: the first and the last named
            return Msg("opt_side", {"side": value, "first": t.deed_name(squares[0]),
                                    "last": t.deed_name(squares[-1])}, f"Side {value}")
        return Msg("name", {"name": str(value)}, str(value))

    def view(self, t: Table, base: Common) -> View:
        slot = self.slot(t)
        state = t.bank.current
        card = _event(t, self.card) if self.card is not None else None
        player = self.player or ""
        options: list[Option] = []
        if slot == "card":
            title = Msg("ev_pick_card", {"player": player}, f"{player}: tap the Event card or pick it")
            options = [Option(f"card:{c.number}", Msg("deck_card", {"text": _event_text(t, c)}, _event_text(t, c)))
                       for c in deck(t)]
        elif slot == "player":
            title = Msg("ev_tap_player", {}, "Event: who drew it? Tap your card")
            options = [Option(f"player:{p}", Msg("name", {"name": p}, p)) for p in state.active_players()]
        else:
            title = Msg(SLOT_TITLES[slot or ""], {"player": player}, f"{player}: {slot}")
            choices = self.choices(t).get(slot or "", [])
            if slot in PROPERTY_SLOTS:
                options = [Option(f"square:{s}", Msg("deed_context", {"deed": t.deed_name(s)}, t.deed_name(s)))
                           for s in (int(c) for c in choices)]
            elif slot == "opponent":
                options = [Option(f"player:{p}", Msg("name", {"name": str(p)}, str(p))) for p in choices]
            elif slot == "group":
                options = [Option(f"group:{g}", group_msg(t, str(g))) for g in choices]
            elif slot == "side":
                options = [Option(f"side:{side}", self._pick_msg(t, "side", side)) for side in choices]
        picked = [self._pick_msg(t, s, v) for s, v in self.picks.items()]
        extra = {"card": _event_text(t, card) if card else None, "number": self.card, "slot": slot,
                 "picked": joined(picked) if picked else None, "player": self.player}
        return View("event", title, player=self.player, options=tuple(options), extra=extra, **base)
