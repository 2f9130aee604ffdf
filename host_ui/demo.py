"""Play a table log through the state machine as a person would (used by the tests and the simulator's demo).

:class:`TableDriver` translates each table-log operation into the inputs a person makes at the table: cards
presented through the simulated reader, buttons, keypad digits and choices on screen, nothing else. It
never calls :class:`terminal.Game`; it only looks at the screen (the view model) to decide what to touch
next, as a player looks at the terminal. When the screen does not offer what the operation needs (a deed
the player does not hold, a card option that does not exist) the person gives up with cancel, which is how
a refusal looks at the table.

``pause`` (optional) is called with the seconds of table time after every input: the simulator's demo uses
it to draw the screen and wait, so a log plays visibly at a chosen speed.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cards.registry import (
    EVENT_NUMBERS,
    PROPERTY_NUMBERS,
    BankerCard,
    CardRegistry,
    DeedCard,
    EventCard,
    PlayerCard,
    PropertyCard,
    Role,
)
from hal.sim_reader import SimReader
from terminal.bank.operations import OPERATIONS, parse_operation
from terminal.errors import GameError, RuleViolation
from terminal.table.machine import Terminal
from terminal.table.ultimate import sticker_of_property

#: One operation of a table log (``docs/table-log.md``), as its line's JSON object.
Op = Mapping[str, Any]

BANKER_UID = "BA0000B1"


def player_uid(seat: int) -> str:
    return f"C0FFEE{seat:02X}"


def deed_uid(square: int) -> str:
    return f"04D0{square:02X}11223344"


def event_uid(number: int) -> str:
    """The sticker of Event card ``number`` of the electronic board."""
    return f"0EE0{number:02X}11223344"


def property_uid(number: int) -> str:
    """The sticker of property ``number`` (1-22) of the electronic board."""
    return f"0BB0{number:02X}11223344"


UNKNOWN_UID = "DEADBEEF"


def type_amount(terminal: Terminal, value: int) -> None:
    """Type the whole amount ``value`` on the keypad shown and press OK, as fast as keys go (the scenes' and the
    tests' shortcut; :meth:`TableDriver.type_number` types as a person does)."""
    terminal.digit("C")
    for char in str(value):
        terminal.digit(char)
    terminal.digit("OK")


class GaveUp(Exception):
    """The screen did not offer what the operation needs."""


@dataclass
class FakeClock:
    now: float = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class TableDriver:
    """Drives ``terminal`` (a :class:`Terminal`) with the inputs of ``players`` (names in play order)."""

    terminal: Terminal
    reader: SimReader
    clock: FakeClock
    players: list[str]
    confirm_with_card_every: int = 3
    inputs: list[tuple[str, str | int]] = field(default_factory=list)
    pause: Callable[[float], None] | None = None
    #: The game's play clock (``Game.play_clock``), advanced only by the log's ``x_play_time`` lines.
    play_clock: FakeClock | None = None
    _count: int = 0

    # -- the person's hands -----------------------------------------------------------------------------
    def _step(self, seconds: float = 1.0) -> None:
        if self.pause is not None:
            self.pause(seconds)
        self.clock.advance(seconds)

    def tap(self, uid: str) -> None:
        """Present a card on the simulated reader and take it away again (a real tap)."""
        self._step()
        self.reader.present(uid)
        for event in self.reader.poll():
            self.terminal.handle(event)
        self.inputs.append(("tap", uid))
        self.reader.remove(uid)
        self.clock.advance(self.reader.removal_debounce_s + self.reader.poll_interval_s)
        for event in self.reader.poll():
            self.terminal.handle(event)

    def _aim(self) -> int:
        """The screen the person looks at: every key and touch carries its version."""
        return self.terminal.view.screen_version

    def button(self, name: str) -> None:
        self._step()
        self.terminal.press(name, version=self._aim())
        self.inputs.append(("button", name))

    def choose(self, option_id: str | None) -> None:
        self._step()
        ids = {o.id: o for o in self.terminal.view.options}
        if option_id is None or option_id not in ids or not ids[option_id].enabled:
            raise GaveUp(f"no option {option_id!r} on screen {self.terminal.view.screen}")
        self.terminal.choose(option_id, version=self._aim())
        self.inputs.append(("choose", option_id))

    def type_number(self, value: int) -> None:
        if self.terminal.view.screen != "keypad":
            raise GaveUp(f"expected the keypad, screen is {self.terminal.view.screen}")
        if value < 0:
            raise GaveUp("a keypad cannot type a negative number")
        self.terminal.digit("C", version=self._aim())
        for char in str(value):
            self._step(0.2)
            self.terminal.digit(char, version=self._aim())
        self._step(0.2)
        self.terminal.digit("OK", version=self._aim())
        self.inputs.append(("type", value))

    def card_of(self, name: str) -> str:
        return player_uid(self.players.index(name) + 1) if name in self.players else UNKNOWN_UID

    def expect_screen(self, *screens: str) -> None:
        if self.terminal.view.screen not in screens:
            raise GaveUp(f"screen is {self.terminal.view.screen}, not {screens}")

    def confirm(self, payer: str | None) -> None:
        """Confirm the pending operation: tap the payer's card again, or press OK."""
        self.expect_screen("confirm")
        self._count += 1
        pending = self.terminal.view.pending
        assert pending is not None, "the confirm screen always shows the operation to confirm"
        use_card = payer is not None and self._count % self.confirm_with_card_every == 0
        if pending.warning is not None and pending.warning.code == "second_go":  # a second GO salary: twice
            self.button("confirm")
        if use_card and payer is not None and payer in pending.confirm_by:
            self.tap(self.card_of(payer))
        else:
            self.button("confirm")

    # -- operations -----------------------------------------------------------------------------------------
    def play(self, op: Op) -> None:
        """Make the inputs for one operation. Raises GaveUp when the screen does not allow it."""
        self._step(2.0)
        name = op["op"]
        self._taken(name)
        getattr(self, f"_op_{name}")(op)

    def _taken(self, name: str) -> None:
        """Give up, before any tap, on an operation the game's board does not take (a house on the electronic
        board, where tapping the deed and then the owner's card would raise its level)."""
        game = self.terminal.game
        kind = OPERATIONS.get(name)
        if game is None or kind is None:
            return
        try:
            game.board.handler(kind, game.config)
        except GameError as exc:
            raise GaveUp(f"{name} is not offered on this board: {exc}") from None

    def settle(self, payer: str | None) -> None:
        """After the touch that commits (the one that named the amount): a confirmation appears only where
        the terminal keeps one (a payment that creates a debt, a second GO salary); a screen left open means
        the terminal said no."""
        if self.terminal.view.screen == "confirm":
            return self.confirm(payer)
        if self.terminal.view.screen not in ("idle", "game_over"):
            raise GaveUp(f"refused: {self.terminal.view.message}")

    def give_up(self) -> None:
        """Cancel back to idle, as a person does when the terminal says no."""
        if self.terminal.view.screen not in ("idle", "game_over"):
            self.button("cancel")

    def _context(self, player: str) -> None:
        self.tap(self.card_of(player))
        self.expect_screen("player")

    def _simple(self, player: str, option: str) -> None:
        self._context(player)
        self.choose(option)
        self.settle(player)

    def _op_pass_go(self, op: Op) -> None:
        self._simple(op["player"], "pass_go")

    def _op_jail_fine(self, op: Op) -> None:
        self._simple(op["player"], "jail_fine")

    def _op_free_parking(self, op: Op) -> None:
        self._simple(op["player"], "free_parking")

    def _op_pay_tax(self, op: Op) -> None:
        square = op["square"]
        if square not in (4, 38):
            raise GaveUp("no such tax on the screen")
        self._context(op["player"])
        self.choose("income_tax" if square == 4 else "luxury_tax")
        if self.terminal.view.screen == "choose":
            self.choose(op.get("choice", "flat"))
        elif "choice" in op:
            raise GaveUp("the screen offers no choice of tax")
        self.settle(op["player"])

    def _amount_op(self, op: Op, option: str) -> None:
        self._context(op["player"])
        self.choose(option)
        self.type_number(op["amount"])
        self.confirm(op["player"])

    def _op_bank_pays(self, op: Op) -> None:
        self._amount_op(op, "bank_pays")

    def _op_pay_bank(self, op: Op) -> None:
        self._amount_op(op, "pay_bank")

    def _op_pay_each_player(self, op: Op) -> None:
        self._amount_op(op, "pay_each_player")

    def _op_collect_from_each_player(self, op: Op) -> None:
        self._amount_op(op, "collect_from_each_player")

    def _op_repairs(self, op: Op) -> None:
        self._context(op["player"])
        self.choose("repairs")
        self.type_number(op["per_house"])
        self.type_number(op["per_hotel"])
        self.confirm(op["player"])

    def _op_gain_jail_card(self, op: Op) -> None:
        deck = op["deck"]
        if deck not in ("chance", "community_chest"):
            raise GaveUp("no such deck")
        self._context(op["player"])
        self.choose(deck)
        view = self.terminal.view
        # Find the deck's Get Out of Jail Free card by its text, as a person reads the list.
        jail = [o.id for o in view.options if "jail" in o.label.english.lower() or "prison" in o.label.english.lower()]
        if not jail:
            raise GaveUp("no Get Out of Jail Free card in the list")
        self.choose(jail[0])
        self.settle(op["player"])

    def _op_use_jail_card(self, op: Op) -> None:
        self._context(op["player"])
        self.choose("use_jail_card")
        if self.terminal.view.screen == "choose":  # both cards held: which one (one held: no question)
            ids = [o.id for o in self.terminal.view.options]
            self.choose(op.get("deck") or ids[0])
        self.confirm(op["player"])

    def _look(self, square: int) -> str | None:
        """Tap a deed's card; returns its owner as the screen shows it (the deed card, or the keypad that a
        utility someone owns opens for the dice)."""
        if not 0 <= square < 40:
            raise GaveUp("no such square")
        self.tap(self._deed_card(square))
        self.expect_screen("deed", "keypad")
        deed = self.terminal.view.deed
        if deed is None:
            raise GaveUp("the screen does not show the deed")
        return deed.owner

    def _op_buy(self, op: Op) -> None:
        if self._look(op["square"]) is not None:
            raise GaveUp("the deed is not for sale")
        self.tap(self.card_of(op["player"]))  # the buyer's card buys at the price shown
        self.settle(op["player"])

    def _op_auction(self, op: Op) -> None:
        winner = op["winner"]
        if self._look(op["square"]) is not None:
            raise GaveUp("the deed is not for sale")
        self.choose("decline")
        self.expect_screen("auction")
        self.tap(self.card_of(winner))
        self.type_number(op["price"])
        self.expect_screen("auction")
        if self.terminal.view.extra["best"] != (winner, op["price"]):
            raise GaveUp("the bid was refused")
        self.button("confirm")
        self.confirm(winner)

    def _op_pay_rent(self, op: Op) -> None:
        square, player = op["square"], op["player"]
        owner = self._look(square)
        if self.terminal.view.screen == "keypad":
            if "dice" not in op:
                raise GaveUp("the terminal asks for the dice, which the log does not give")
            self.type_number(op["dice"])
            self.expect_screen("deed")
        elif "dice" in op:
            raise GaveUp("the terminal does not ask for dice here")
        if owner is None or owner == player:
            raise GaveUp("no rent: the payer's card would buy the deed or open the owner's context")
        card = op.get("card")
        if card:
            option = {"nearest_railroad": "rent_railroad_card", "nearest_utility": "rent_utility_card"}.get(card)
            self.choose(option or card)
        self.tap(self.card_of(player))  # the payer's card pays the rent shown
        self.settle(player)

    def _own_deed(self, op: Op, option: str) -> None:
        if self._look(op["square"]) != op["player"]:
            raise GaveUp("not the player's deed")
        self.tap(self.card_of(op["player"]))
        self.expect_screen("own_deed")
        self.choose(option)

    def _op_build(self, op: Op) -> None:
        if "price" in op:
            self._own_deed(op, "build_price")
            self.type_number(op["price"])
            return self.confirm(op["player"])
        self._own_deed(op, "build")  # the button names the amount: it commits
        self.settle(op["player"])

    def _op_sell_building(self, op: Op) -> None:
        if op.get("whole"):
            self._own_deed(op, "sell_whole")
            return self.confirm(op["player"])
        self._own_deed(op, "sell_building")
        self.settle(op["player"])

    def _op_mortgage(self, op: Op) -> None:
        self._own_deed(op, "mortgage")
        self.settle(op["player"])

    def _op_unmortgage(self, op: Op) -> None:
        self._own_deed(op, "unmortgage")
        self.settle(op["player"])

    def _banker(self) -> None:
        self.tap(BANKER_UID)
        self.expect_screen("banker")

    def _op_transfer(self, op: Op) -> None:
        payer, payee, amount = op["from"], op["to"], op["amount"]
        if payer == "bank":
            self._banker()
            self.choose("adjust_give")
            self.choose(payee) if payee in self.players else (_ for _ in ()).throw(GaveUp("unknown payee"))
            self.type_number(amount)
            return self.confirm(None)
        self._context(payer)
        self.choose("transfer")
        self.type_number(amount)
        self.expect_screen("choose")
        if payee == "bank":
            self.choose("bank")
        else:
            self.tap(self.card_of(payee))
        self.confirm(payer)

    def _op_trade(self, op: Op) -> None:
        a, b = op["a"], op["b"]
        self._context(a)
        self.choose("trade")
        self.tap(self.card_of(b))
        self.expect_screen("trade")
        for giver, side in ((a, op["a_gives"]), (b, op["b_gives"])):
            for square in side.get("squares", []):
                self.choose(f"deed:{giver}:{square}")
            if side.get("cash"):
                self.choose(f"cash:{giver}")
                self.type_number(side["cash"])
                self.expect_screen("trade")
            for _ in range(side.get("jail_cards", 0)):
                self.choose(f"jail:{giver}")
            shown = self.terminal.view.extra["gives"][giver]
            if (shown["jail_cards"], shown["cash"], sorted(shown["squares"])) != (
                    side.get("jail_cards", 0), side.get("cash", 0), sorted(side.get("squares", []))):
                raise GaveUp("the trade screen does not show what was agreed")
        for square in op.get("lift_now", []):
            self.choose(f"lift:{square}")
        self.choose("done")
        self.expect_screen("confirm")
        self.tap(self.card_of(a))
        self.tap(self.card_of(b))

    def _op_declare_bankruptcy(self, op: Op) -> None:
        player = op["player"]
        self._context(player)
        self.choose("bankruptcy")
        if self.terminal.view.screen == "bankruptcy":
            self.tap(self.card_of(self.terminal.view.extra["creditor"]))  # the creditor decides on their tap
            for square in op.get("lift_now", []):
                self.choose(f"lift:{square}")
            self.choose("done")
        elif op.get("lift_now"):
            raise GaveUp("nothing to lift")
        self.confirm(player)

    def _op_undo(self, op: Op) -> None:
        self._banker()
        self.choose("undo")
        self.confirm(None)

    # -- the electronic board (the "Ultimate Banking" edition) ------------------------------------------------
    def _deed_card(self, square: int) -> str:
        """The sticker a person taps for the deed on ``square``: on the electronic board, the sticker of the
        classic street that stands for its property (``terminal.table.ultimate``)."""
        game = self.terminal.game
        if game is None or not game.edition.is_ultimate:
            return deed_uid(square)
        sticker = sticker_of_property(game.edition, square) if 0 <= square < len(game.edition.squares) else None
        if sticker is None:
            raise GaveUp("no property on that square")
        return deed_uid(sticker)

    def _op_raise_level(self, op: Op) -> None:
        if self._look(op["square"]) != op["player"]:
            raise GaveUp("not the player's property")
        self.tap(self.card_of(op["player"]))  # the owner's card raises the level, as the screen says
        self.settle(op["player"])

    def _op_sell_property(self, op: Op) -> None:
        self._context(op["player"])
        self.choose("my_deeds")
        self.expect_screen("choose")
        self.choose(str(op["square"]))
        self.expect_screen("own_deed")
        self.choose("sell_property")
        self.confirm(op["player"])

    def _op_location(self, op: Op) -> None:
        self._context(op["player"])
        self.choose("location")
        self.expect_screen("location")
        self.tap(self._deed_card(op["square"]))
        if self.terminal.view.screen == "location":  # the Bank holds it: buy it or not
            self.choose("buy" if op.get("buy") else "no_buy")
        elif op.get("buy"):
            raise GaveUp("the screen offers no purchase")
        self.confirm(op["player"])

    def _event(self, op: Op) -> None:
        """An Event card: the player's card, "Event card", the card picked on screen (the log's, else the first
        of its effect with the log's amounts), then what the effect asks for: the properties' stickers, the
        opponent's card, the group or side on screen."""
        from terminal.bank.operations import EVENT_OPERATIONS
        from terminal.bank.ultimate import EVENT_TARGETS
        game = self.terminal.game
        if game is None or not game.edition.is_ultimate:
            raise GaveUp("no Event cards on this board")
        events = game.edition.deck(game.config.rules_version)
        matching = [c for c in events if EVENT_OPERATIONS[c.action].op == op["op"]
                    and all(op.get(k) == v for k, v in c.params.items())]
        number = op.get("card")  # absent: the first card of its effect; any number given must be that card
        card = next((c for c in matching if number is None or c.number == number), None)
        if card is None:
            raise GaveUp("no such Event card")
        if card.action == "move_to_property":
            owned = op["square"] in game.current.owner
            if owned == bool(op.get("buy")):  # the table offers the purchase of an unowned one, only that
                raise GaveUp("the screen offers the purchase of an unowned property, and only that")
        player = op["player"]
        self._context(player)
        self.choose("event")
        self.expect_screen("event")
        self.choose(f"card:{card.number}")
        for slot in EVENT_TARGETS[card.action]:
            self.expect_screen("event")
            if slot in ("own_property", "owned_property", "any_property"):
                self.tap(self._deed_card(op["square"]))
            elif slot == "opponent_property":
                self.tap(self._deed_card(op["other"]))
            elif slot == "opponent":
                self.tap(self.card_of(op["opponent"]))
            else:
                self.choose(f"{slot}:{op[slot]}")
        self.settle(player)

    _op_event_swap = _op_event_reset_level = _op_event_max_level = _op_event_neighbours = _event
    _op_event_side_up = _op_event_side_down = _op_event_group_up = _op_event_group_down = _event
    _op_event_pay_per_property = _op_event_market_slump = _op_event_both_collect = _op_event_movement = _event
    _op_event_move_to_property = _event

    def _op_end_game(self, op: Op) -> None:
        self._banker()
        self.choose("end_game")
        self.confirm(None)

    # -- the terminal's own entries of a time-limited game (docs/table-log.md, Time limit) --------------------
    def _op_x_play_time(self, op: Op) -> None:
        """Play time goes by: the play clock moves on and the terminal ticks (it records the time, and ends the
        game when it reaches the limit)."""
        if self.play_clock is None or self.terminal.game is None:
            raise GaveUp("no play clock: play time cannot go by")
        self.play_clock.advance(op["seconds"])
        self.terminal.tick()

    def _op_x_time_up(self, op: Op) -> None:
        self.terminal.tick()  # the terminal records the end of a time that is up by itself

    def _op_x_time_limit(self, op: Op) -> None:
        """Recorded by the terminal itself when it opens an end_time game (no person's input). Raises GaveUp when
        the Bank refuses it (a classic game counts no play time): the demo then checks that the log marks it
        refused, as ``banquier replay`` does."""
        if self.terminal.game is None:
            raise GaveUp("no game")
        try:
            self.terminal.game.apply(parse_operation(dict(op)))
        except RuleViolation as exc:
            raise GaveUp(f"refused: {exc}") from None


DEED_SQUARES = (1, 3, 5, 6, 8, 9, 11, 12, 13, 14, 15, 16, 18, 19, 21, 23, 24, 25, 26, 27, 28, 29, 31, 32, 34, 35, 37,
                39)


def with_ultimate_cards(registry: CardRegistry) -> CardRegistry:
    """``registry`` with the stickers of the electronic board: its 22 properties (:func:`property_uid`) and its
    Event cards (:func:`event_uid`)."""
    for number in PROPERTY_NUMBERS:
        registry.enrol(property_uid(number), PropertyCard(number), replace=True)
    for number in EVENT_NUMBERS:
        registry.enrol(event_uid(number), EventCard(number), replace=True)
    return registry


def make_registry(players: int) -> CardRegistry:
    """An in-memory card registry: the banker card, ``players`` bank cards and a sticker on every deed, with
    the UIDs of :func:`player_uid`, :func:`deed_uid` and :data:`BANKER_UID`."""
    cards: dict[str, Role] = {BANKER_UID: BankerCard()}
    cards.update({player_uid(n): PlayerCard(n) for n in range(1, players + 1)})
    cards.update({deed_uid(s): DeedCard(s) for s in DEED_SQUARES})
    return CardRegistry(None, cards)
