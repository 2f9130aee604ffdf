"""The Ultimate Banking board: rent levels, Location squares, Event cards, sales to the Bank and the end.

Everything that differs on the electronic board is in this file: its answers to the Bank's board questions
(:class:`UltimateBoard`, a :class:`terminal.bank.board.Board`) and its own computations of the operations. A game
of an edition with ``board = "ultimate"`` (``cards/data/ultimate.toml``) is played in the mode :data:`ULTIMATE`
by these rules (docs/RULES.md, The Ultimate Banking board); :func:`terminal.bank.engine.apply` asks
:meth:`UltimateBoard.handler` how each operation is computed. The state is the
classic one: ``level`` holds each owned property's rent level (1 to 5; absent: the Bank holds it) and the
``game`` section the market slump (``slump_all``: the table's rent payments left at level 1; a game of rules
version 1: ``slump``, {player: their rent payments left at level 1}) and, once over, the ``standings``. A game's
``rules_version`` (:attr:`terminal.bank.types.GameConfig.rules_version`) says how its Event cards are read: 2, as
printed (docs/RULES.md, The Ultimate Banking board, Rules versions); 1, as before, for games started then. Every
change is recorded like any other, so an undo restores it exactly.

The public API (through :class:`terminal.bank.game.Game`, one method per operation, each one journal entry):

- ``buy(player, square)``: a property at its printed price; its level is 1. ``auction(square, winner, price)``
  the same at the winning bid.
- ``pay_rent(player, square)``: the rent at the property's level (level 1 during a market slump; doubled for a
  whole colour group under ``group_rent = "double"``), then the level rises by one, up to 5. A charge: what the
  cash does not cover becomes a debt.
- ``raise_level(player, square)``: the owner landed on their own property: +1 level (refused at 5).
- ``location(player, square, buy=False)``: the Location fee, then the chosen property's landing: buy it
  (``buy=True``) when unowned, +1 level when the player's own, the rent and +1 level when another's
  (``location_landing = "land"``; refused under ``"buy_or_raise"``, the default). The "move to any property"
  Event cards (``event_move_to_property``) are the same landing without the fee.
- ``sell_property(player, square)``: a player in debt sells a property back to the Bank at its printed price;
  the property returns unowned (``charge_beyond_cash = "sell_to_bank"``).
- ``event(player, card, **targets)``: plays Event card number ``card`` of the edition (see :func:`event_operation`:
  the operation it is and the targets its action needs, :data:`EVENT_TARGETS`); or one method per effect
  (``event_swap``, ``event_reset_level``...). :func:`event_targets` lists where an effect would apply.
- ``jail_fine(player)``: the Jail fee (flag ``jail_fee``); ``pass_go``, ``bank_pays``, ``pay_bank`` and
  ``transfer`` as on the classic board (``pay_each_player``, ``collect_from_each_player`` and ``free_parking``
  only in a game of rules version 1).
- ``declare_bankruptcy(player)``: when nothing is left to sell (``charge_beyond_cash = "sell_to_bank"``: what
  the properties fetch goes to the creditor first; under ``"bankrupt"`` at once, the properties unsold); their
  properties return to the Bank unowned, their cash to the creditor; the game ends (first bankruptcy) and the
  standings by worth (cash + printed prices) are recorded in the journal.

Refused with a :class:`~terminal.errors.RuleViolation` whose ``code`` names the reason: ``not_on_this_board``
(houses, mortgages, trades, taxes, Jail cards, time limits), ``level_at_max``, ``level_at_min``,
``level_unowned``, ``event_no_effect``, ``swap_unowned``, ``swap_own``, ``event_opponent_self``,
``event_card_mismatch``, ``event_side_not_yours``, ``event_group_not_yours``, ``bad_side``, ``unknown_group``,
``location_not_yours``, ``sell_not_in_debt``, ``sell_not_allowed``, ``rent_no_card``, ``property_owned``,
``bankruptcy_can_sell``, ``bankruptcy_sell_first``, ``no_mortgages_here``, ``bad_slump``, ``unknown_event_card``,
``event_targets``, ``unknown_event_action``; a classic game refuses
this board's operations (``ultimate_only``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from cards.editions import COLOR_GROUPS, ULTIMATE_CORNERS, ULTIMATE_LEVELS, Edition, EventCard, Square
from terminal.bank.board import Board, Handler, owed_text
from terminal.bank.operations import (
    EVENT_OPERATIONS,
    Auction,
    BankPays,
    Buy,
    CollectFromEachPlayer,
    DeclareBankruptcy,
    EventBothCollect,
    EventGroupDown,
    EventGroupUp,
    EventMarketSlump,
    EventMaxLevel,
    EventMovement,
    EventMoveToProperty,
    EventNeighbours,
    EventPayPerProperty,
    EventResetLevel,
    EventSideDown,
    EventSideUp,
    EventSwap,
    FreeParking,
    JailFine,
    Location,
    Operation,
    PassGo,
    PayBank,
    PayEachPlayer,
    PayRent,
    RaiseLevel,
    SellProperty,
    Transfer,
    Undo,
    parse_operation,
)
from terminal.bank.state import BANK, POT, State, standings
from terminal.bank.tx import Tx
from terminal.bank.types import LEGACY_RULES_VERSION, RULES_VERSION, Debt, GameConfig, Rent
from terminal.errors import PlayerInDebt, RuleViolation

__all__ = ["ULTIMATE", "BOARD", "UltimateBoard", "SIDES", "EVENT_TARGETS", "rent_at_level", "raisable", "level",
           "side_of", "sides", "property_number", "neighbours", "event_operation", "event_targets", "slump_of"]

#: The four sides of the board, numbered 1 to 4 from GO: side 1 holds squares 1-8, side 2 10-17, side 3
#: 19-26, side 4 28-35 (the corners belong to no side).
SIDES = (1, 2, 3, 4)
_SIDE_LENGTH = 9

#: What each Event action asks the table for, in this order: ``own_property`` (a property the player holds),
#: ``opponent_property`` (a property an opponent holds), ``owned_property`` (any property someone holds),
#: ``side`` (1-4), ``group`` (a colour group), ``opponent`` (another player still in the game), ``any_property``
#: (any property: unowned, the player's, or another's as ``location_landing`` allows).
EVENT_TARGETS: Mapping[str, tuple[str, ...]] = {
    "swap": ("own_property", "opponent_property"),
    "reset_level": ("owned_property",),
    "max_level": ("own_property",),
    "neighbours": ("own_property",),
    "side_up": ("side",),
    "side_down": ("side",),
    "group_up": ("group",),
    "group_down": ("group",),
    "pay_per_property": (),
    "market_slump": (),
    "both_collect": ("opponent",),
    "movement": (),
    "move_to_property": ("any_property",),
}

#: The operations this board plays as the classic board does (the engine's handlers): GO salary, card payments,
#: transfers, Free Parking, bankruptcy (its hand-over is this board's: :meth:`UltimateBoard.hand_over`), undo.
_SHARED: frozenset[type[Operation]] = frozenset({
    PassGo, BankPays, PayBank, PayEachPlayer, CollectFromEachPlayer, Transfer, FreeParking, DeclareBankruptcy, Undo})

#: The classic operations of the Chance and Community Chest cards and the Free Parking jackpot: taken by games of
#: rules version 1 only (no card or square of this board asks for them).
_CLASSIC_CARDS: frozenset[type[Operation]] = frozenset({PayEachPlayer, CollectFromEachPlayer, FreeParking})

#: The mode of every game on this board: its own rules, the game ending at the first bankruptcy.
ULTIMATE = "ultimate"

#: This board's own computations of the operations (the others it takes are the engine's: terminal/bank/engine.py).
_HANDLERS: dict[type[Operation], Handler] = {}


def _handles(kind: type[Operation]) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        _HANDLERS[kind] = handler
        return handler
    return register


# -- the board -------------------------------------------------------------------------------------------------
def properties(edition: Edition) -> tuple[Square, ...]:
    """The 22 properties in board order."""
    return edition.deeds()


def property_number(edition: Edition, square: int) -> int:
    """The number (1-22, in board order) of the property on ``square``. Raises ValueError for another square."""
    return [s.index for s in properties(edition)].index(square) + 1


def side_of(square: int) -> int | None:
    """The side (1-4) of ``square``, or None for a corner."""
    if square in ULTIMATE_CORNERS:
        return None
    return square // _SIDE_LENGTH + 1


def sides(edition: Edition) -> dict[int, tuple[int, ...]]:
    """The property squares of each side, in board order."""
    out: dict[int, tuple[int, ...]] = dict.fromkeys(SIDES, ())
    for deed in properties(edition):
        side = side_of(deed.index)
        if side is not None:
            out[side] += (deed.index,)
    return out


def neighbours(edition: Edition, square: int, wrap: bool = True) -> tuple[int, ...]:
    """The previous and next property of ``square`` in board order (flag ``neighbours``: ``wrap`` makes the last
    and the first neighbours; ``no_wrap`` gives them one neighbour each)."""
    order = [s.index for s in properties(edition)]
    i = order.index(square)
    out = []
    if i > 0 or wrap:
        out.append(order[i - 1])
    if i < len(order) - 1 or wrap:
        out.append(order[(i + 1) % len(order)])
    return tuple(dict.fromkeys(out))


def level(state: State, square: int) -> int:
    """The rent level (1-5) of an owned property; 0 for a property the Bank holds."""
    return int(state.level.get(square, 0)) if square in state.owner else 0


def _slumps(state: State) -> dict[str, int]:
    """The market slumps of rules version 1 running: {player: their rent payments left at level 1} (a copy)."""
    recorded: Any = state.game.get("slump")
    return dict(recorded) if isinstance(recorded, dict) else {}


def _slump_all(state: State) -> int:
    """The market slump of rules version 2: how many of the next rent payments at the table, by anyone, are at
    level 1 (the ``game`` section's ``slump_all``; 0: none running)."""
    recorded: Any = state.game.get("slump_all")
    return recorded if isinstance(recorded, int) else 0


def slump_of(state: State, player: str) -> int:
    """How many of the player's next rent payments are at level 1 (a market slump): their own (rules version 1)
    or, from version 2, the table's next rent payments whoever pays them."""
    return max(_slumps(state).get(player, 0), _slump_all(state))


def _printed(tx: Tx) -> bool:
    """Whether the game reads the Event cards as printed (rules version 2 on; docs/RULES.md, Rules versions)."""
    return tx.cfg.rules_version >= 2


# -- money questions -------------------------------------------------------------------------------------------
def rent_at_level(state: State, config: GameConfig, owner: str, payer: str, deed: Square) -> Rent:
    """The rent of ``deed`` held by ``owner`` that ``payer`` owes (:class:`~terminal.bank.types.Rent`): the rent at
    its level (reason ``level``), at level 1 while the payer's market slump lasts (``level_slump``), doubled for a
    whole colour group one owner holds when ``group_rent = "double"`` (``level_group``)."""
    slump = bool(slump_of(state, payer))
    at = 1 if slump else level(state, deed.index)
    rent = deed.rents[at - 1]
    if config.rules.get("group_rent") == "double" and all(
            state.owner.get(s) == owner for s in config.edition.group_of(deed.index)):
        return Rent(rent * 2, owner, "level_group", {"level": at})
    return Rent(rent, owner, "level_slump" if slump else "level", {"level": at})


def raisable(state: State, config: GameConfig, player: str) -> int:
    """The cash a player could still raise: their properties sold back to the Bank at their printed price
    (``charge_beyond_cash = "sell_to_bank"``); nothing under ``"bankrupt"``."""
    if config.rules.get("charge_beyond_cash") == "bankrupt":
        return 0
    return sum(config.edition.squares[s].price for s in state.deeds_of(player))


# -- levels ----------------------------------------------------------------------------------------------------
def _set_level(tx: Tx, square: int, value: int) -> None:
    tx.set("level", square, max(1, min(ULTIMATE_LEVELS, value)))


def _land(tx: Tx, player: str, deed: Square) -> None:
    """The landing on an owned property (after a Location's fee, or a roll): the rent to another's owner, then
    +1 level (the owner's own landing included)."""
    owner = tx.s.owner[deed.index]
    if owner != player:
        rent = tx.effects.rent = tx.board.rent_due(tx.s, tx.cfg, player, deed)
        left = _slumps(tx.s).get(player, 0)
        if _slump_all(tx.s):
            tx.set("game", "slump_all", _slump_all(tx.s) - 1 or None)
        elif left:
            slump = {p: n for p, n in _slumps(tx.s).items() if p != player}
            if left > 1:
                slump[player] = left - 1
            tx.set("game", "slump", slump or None)
        tx.charge(player, rent.owner, rent.amount)
    _set_level(tx, deed.index, level(tx.s, deed.index) + 1)


def _property(tx: Tx, square: object) -> Square:
    return tx.deed(square)


def _owned(tx: Tx, square: object) -> Square:
    deed = _property(tx, square)
    if deed.index not in tx.s.owner:
        raise RuleViolation(f"{deed.name} has no rent level: nobody owns it.", code="level_unowned",
                            params={"square": deed.index, "deed": deed.name})
    return deed


@_handles(Buy)
def _buy(tx: Tx, op: Buy) -> None:
    """Buy an unowned property at its printed price (voluntary); its rent level is 1."""
    player = tx.player(op.player)
    deed = _property(tx, op.square)
    _take_from_bank(tx, player, deed, deed.price, f"buying {deed.name}")


def _take_from_bank(tx: Tx, player: str, deed: Square, price: int, what: str) -> None:
    holder = tx.s.owner.get(deed.index)
    if holder:
        raise RuleViolation(f"{deed.name} already belongs to {holder}.", code="property_owned",
                            params={"square": deed.index, "deed": deed.name, "owner": holder})
    tx.pay_voluntary(player, BANK, price, what)
    tx.set("owner", deed.index, player)
    tx.set("level", deed.index, 1)


@_handles(Auction)
def _auction(tx: Tx, op: Auction) -> None:
    """The Bank sells an unowned property to the highest bidder (voluntary); its rent level is 1."""
    winner = tx.player(op.winner, "winner")
    deed = _property(tx, op.square)
    price = tx.amount(op.price, "winning bid")
    _take_from_bank(tx, winner, deed, price, f"the auction of {deed.name}")


@_handles(PayRent)
def _pay_rent(tx: Tx, op: PayRent) -> None:
    """Rent at the property's level, then its level rises by one (up to 5)."""
    payer = tx.player(op.player)
    deed = _property(tx, op.square)
    tx.board.rent_due(tx.s, tx.cfg, payer, deed, op.dice, op.card)  # refuses an unowned or own property, dice, card
    _land(tx, payer, deed)


@_handles(RaiseLevel)
def _raise_level(tx: Tx, op: RaiseLevel) -> None:
    """The owner lands on their own property: +1 level; refused at level 5."""
    player = tx.player(op.player)
    deed = tx.own_deed(player, op.square)
    if level(tx.s, deed.index) >= ULTIMATE_LEVELS:
        raise RuleViolation(f"{deed.name} is at rent level {ULTIMATE_LEVELS} already, the highest.",
                            code="level_at_max", params={"square": deed.index, "deed": deed.name})
    _land(tx, player, deed)


@_handles(Location)
def _location(tx: Tx, op: Location) -> None:
    """A Location square: the fee (a charge), then the chosen property's landing."""
    _move_to(tx, tx.player(op.player), _property(tx, op.square), bool(op.buy), tx.ed.location_fee)


def _move_to(tx: Tx, player: str, deed: Square, buy: bool, fee: int) -> None:
    """A move to a chosen property (a Location square after its ``fee``, a "move to any property" card without
    one): buy it when unowned (``buy``), +1 level when the player's own (refused at 5 by a card), the rent and +1
    level when another's (``location_landing = "land"``; refused under ``"buy_or_raise"``)."""
    owner = tx.s.owner.get(deed.index)
    if buy and owner is not None:
        raise RuleViolation(f"{deed.name} already belongs to {owner}.", code="property_owned",
                            params={"square": deed.index, "deed": deed.name, "owner": owner})
    if owner not in (None, player) and tx.cfg.rules.get("location_landing") == "buy_or_raise":
        raise RuleViolation(f"After a Location, choose an unowned property or one of your own, not {owner}'s "
                            f"{deed.name}.", code="location_not_yours",
                            params={"square": deed.index, "deed": deed.name, "owner": owner})
    if not fee and owner == player and level(tx.s, deed.index) >= ULTIMATE_LEVELS:
        raise RuleViolation(f"{deed.name} is at rent level {ULTIMATE_LEVELS} already, the highest.",
                            code="level_at_max", params={"square": deed.index, "deed": deed.name})
    if buy and owner is None:  # refused before the fee: the debt shown is the one the player has now
        tx.require_no_debt(player, f"buying {deed.name}")
    if fee:
        tx.charge(player, BANK, fee)
    if owner is None:
        if buy:
            _take_from_bank(tx, player, deed, deed.price, f"buying {deed.name}")
        return
    _land(tx, player, deed)


@_handles(SellProperty)
def _sell_property(tx: Tx, op: SellProperty) -> None:
    """A player in debt sells a property back to the Bank at its printed price; it returns unowned."""
    player = tx.player(op.player)
    deed = tx.own_deed(player, op.square)
    if tx.cfg.rules.get("charge_beyond_cash") == "bankrupt":
        raise RuleViolation("Under this game's rules a charge beyond the cash is a bankruptcy: nothing is sold "
                            "back to the Bank.", code="sell_not_allowed",
                            params={"square": deed.index, "deed": deed.name})
    if not tx.s.debts_of(player):
        raise RuleViolation(f"{player} owes nothing: a property is sold back to the Bank only to cover a charge.",
                            code="sell_not_in_debt", params={"player": player, "square": deed.index,
                                                             "deed": deed.name})
    tx.set("owner", deed.index, None)
    tx.set("level", deed.index, None)
    tx.move(BANK, player, deed.price)
    tx.settle()


@_handles(JailFine)
def _jail_fine(tx: Tx, op: JailFine) -> None:
    """The fee to leave Jail (flag ``jail_fee``). A charge."""
    player = tx.player(op.player)
    tx.charge(player, BANK, int(tx.cfg.rules.get("jail_fee", tx.ed.jail_fine)))


# -- Event cards -----------------------------------------------------------------------------------------------
def _card(tx: Tx, op: Any, action: str, **amounts: int) -> None:
    """Check the optional ``card`` of an Event operation against the edition's card, as the game's rules version
    reads it (a card its deck does not hold is no card of any operation)."""
    if op.card is None:
        return
    card: EventCard | None = tx.ed.event_card(op.card, tx.cfg.rules_version)
    if card is None or card.action != action or any(card.params.get(k) != v for k, v in amounts.items()):
        raise RuleViolation(f"Event card {op.card} is not a card of this operation ({op.op}).",
                            code="event_card_mismatch", params={"card": op.card, "op": op.op})


def _levels_changed(tx: Tx, before: int, what: str) -> None:
    if len(tx.effects.changes) == before:
        raise RuleViolation(f"This Event changes no rent level on {what}: choose another.",
                            code="event_no_effect", params={"what": what})


def _step(tx: Tx, squares: tuple[int, ...], delta: int, what: str) -> None:
    before = len(tx.effects.changes)
    for square in squares:
        if square in tx.s.owner:
            _set_level(tx, square, level(tx.s, square) + delta)
    _levels_changed(tx, before, what)


def _opponent_property(tx: Tx, player: str, square: object) -> Square:
    deed = _property(tx, square)
    holder = tx.s.owner.get(deed.index)
    if holder is None:
        raise RuleViolation(f"{deed.name} belongs to nobody: swap with an opponent's property.",
                            code="swap_unowned", params={"square": deed.index, "deed": deed.name})
    if holder == player:
        raise RuleViolation(f"{deed.name} is already {player}'s: swap with an opponent's property.",
                            code="swap_own", params={"square": deed.index, "deed": deed.name, "player": player})
    return deed


@_handles(EventSwap)
def _event_swap(tx: Tx, op: EventSwap) -> None:
    """Swap one of the player's properties with an opponent's; each keeps its rent level."""
    player = tx.player(op.player)
    _card(tx, op, "swap")
    mine = tx.own_deed(player, op.square)
    theirs = _opponent_property(tx, player, op.other)
    opponent = tx.s.owner[theirs.index]
    tx.set("owner", mine.index, opponent)
    tx.set("owner", theirs.index, player)


@_handles(EventResetLevel)
def _event_reset_level(tx: Tx, op: EventResetLevel) -> None:
    """Any owned property back to level 1."""
    tx.player(op.player)
    _card(tx, op, "reset_level")
    deed = _owned(tx, op.square)
    if level(tx.s, deed.index) == 1:
        raise RuleViolation(f"{deed.name} is at rent level 1 already, the lowest.", code="level_at_min",
                            params={"square": deed.index, "deed": deed.name})
    _set_level(tx, deed.index, 1)


@_handles(EventMaxLevel)
def _event_max_level(tx: Tx, op: EventMaxLevel) -> None:
    """One of the player's properties to level 5."""
    player = tx.player(op.player)
    _card(tx, op, "max_level")
    deed = tx.own_deed(player, op.square)
    if level(tx.s, deed.index) == ULTIMATE_LEVELS:
        raise RuleViolation(f"{deed.name} is at rent level {ULTIMATE_LEVELS} already, the highest.",
                            code="level_at_max", params={"square": deed.index, "deed": deed.name})
    _set_level(tx, deed.index, ULTIMATE_LEVELS)


@_handles(EventNeighbours)
def _event_neighbours(tx: Tx, op: EventNeighbours) -> None:
    """+1 level on one of the player's properties, -1 on each owned neighbour (levels stay within 1-5)."""
    player = tx.player(op.player)
    _card(tx, op, "neighbours")
    deed = tx.own_deed(player, op.square)
    before = len(tx.effects.changes)
    _set_level(tx, deed.index, level(tx.s, deed.index) + 1)
    for square in neighbours(tx.ed, deed.index, tx.cfg.rules.get("neighbours", "wrap") == "wrap"):
        if square in tx.s.owner:
            _set_level(tx, square, level(tx.s, square) - 1)
    _levels_changed(tx, before, f"{deed.name} and its neighbours")


def _side(tx: Tx, side: int) -> tuple[int, ...]:
    if side not in SIDES:
        raise RuleViolation(f"The board has sides 1 to 4 (side 1 runs from GO to Jail), not {side!r}.",
                            code="bad_side", params={"side": side})
    return sides(tx.ed)[side]


def _group(tx: Tx, group: str) -> tuple[int, ...]:
    if group not in COLOR_GROUPS:
        raise RuleViolation(f"{group!r} is not a colour group ({', '.join(COLOR_GROUPS)}).", code="unknown_group",
                            params={"group": group})
    return tx.ed.groups[group]


def _through_own(tx: Tx, player: str, squares: tuple[int, ...], side: int | None = None,
                 group: str | None = None) -> None:
    """A side or colour-set card acts through one of the drawer's own properties (the printed cards: "tap this
    card, then one of your property cards"): refused when ``player`` owns nothing on the ``side``
    (``event_side_not_yours``) or in the ``group`` (``event_group_not_yours``). Rules version 1 takes any."""
    if not _printed(tx) or any(tx.s.owner.get(s) == player for s in squares):
        return
    if side is not None:
        raise RuleViolation(f"{player} owns nothing on side {side}: this card acts through one of the drawer's own "
                            f"properties.", code="event_side_not_yours", params={"player": player, "side": side})
    raise RuleViolation(f"{player} owns nothing in the {group} group: this card acts through one of the drawer's "
                        f"own properties.", code="event_group_not_yours", params={"player": player, "group": group})


@_handles(EventSideUp)
def _event_side_up(tx: Tx, op: EventSideUp) -> None:
    """+1 level on every owned property of a side of one of the drawer's properties."""
    player = tx.player(op.player)
    _card(tx, op, "side_up")
    squares = _side(tx, op.side)
    _through_own(tx, player, squares, side=op.side)
    _step(tx, squares, +1, f"side {op.side}")


@_handles(EventSideDown)
def _event_side_down(tx: Tx, op: EventSideDown) -> None:
    """-1 level on every owned property of a side of one of the drawer's properties."""
    player = tx.player(op.player)
    _card(tx, op, "side_down")
    squares = _side(tx, op.side)
    _through_own(tx, player, squares, side=op.side)
    _step(tx, squares, -1, f"side {op.side}")


@_handles(EventGroupUp)
def _event_group_up(tx: Tx, op: EventGroupUp) -> None:
    """+1 level on every owned property of the colour set of one of the drawer's properties."""
    player = tx.player(op.player)
    _card(tx, op, "group_up")
    squares = _group(tx, op.group)
    _through_own(tx, player, squares, group=op.group)
    _step(tx, squares, +1, f"the {op.group} group")


@_handles(EventGroupDown)
def _event_group_down(tx: Tx, op: EventGroupDown) -> None:
    """-1 level on every owned property of the colour set of one of the drawer's properties."""
    player = tx.player(op.player)
    _card(tx, op, "group_down")
    squares = _group(tx, op.group)
    _through_own(tx, player, squares, group=op.group)
    _step(tx, squares, -1, f"the {op.group} group")


@_handles(EventPayPerProperty)
def _event_pay_per_property(tx: Tx, op: EventPayPerProperty) -> None:
    """The player pays the Bank ``amount`` per property owned (a charge). With no property it changes nothing:
    refused (``event_no_effect``: the card is set aside); rules version 1 recorded it as a payment of 0."""
    player = tx.player(op.player)
    amount = tx.amount(op.amount, "amount per property")
    _card(tx, op, "pay_per_property", amount=amount)
    owned = len(tx.s.deeds_of(player))
    if not owned and _printed(tx):
        raise RuleViolation(f"This Event changes nothing for {player}, who owns no property: set the card aside.",
                            code="event_no_effect", params={"what": player, "player": player})
    tx.charge(player, BANK, amount * owned)


@_handles(EventMarketSlump)
def _event_market_slump(tx: Tx, op: EventMarketSlump) -> None:
    """The next ``payments`` rent payments at the table, by anyone, are at level 1; a slump still running is set
    back to ``payments``, not added to (the printed card: "players pay level 1 rent only, for the next two rent
    payments"). Rules version 1: the drawer's own next ``payments``."""
    player = tx.player(op.player)
    if op.payments < 1 or op.payments > 10:
        raise RuleViolation(f"A market slump lasts 1 to 10 rent payments, not {op.payments}.",
                            code="bad_slump", params={"payments": op.payments})
    _card(tx, op, "market_slump", payments=op.payments)
    if _printed(tx):
        tx.set("game", "slump_all", op.payments)
        return
    slump = _slumps(tx.s)
    slump[player] = op.payments
    tx.set("game", "slump", slump)


@_handles(EventBothCollect)
def _event_both_collect(tx: Tx, op: EventBothCollect) -> None:
    """The player and the opponent of their choice each collect ``amount`` from the Bank."""
    player = tx.player(op.player)
    opponent = tx.player(op.opponent, "opponent")
    if opponent == player:
        raise RuleViolation(f"{player} chooses an opponent, not themselves.", code="event_opponent_self",
                            params={"player": player})
    amount = tx.amount(op.amount)
    _card(tx, op, "both_collect", amount=amount)
    tx.move(BANK, player, amount)
    tx.move(BANK, opponent, amount)
    tx.settle()


@_handles(EventMoveToProperty)
def _event_move_to_property(tx: Tx, op: EventMoveToProperty) -> None:
    """"Move to any property space, to buy it or raise its level +1" (the printed card): the landing of a
    Location without its fee: buy it (``buy``) when unowned, +1 level when the player's own (refused at 5),
    another's as ``location_landing`` says."""
    player = tx.player(op.player)
    _card(tx, op, "move_to_property")
    _move_to(tx, player, _property(tx, op.square), bool(op.buy), 0)


@_handles(EventMovement)
def _event_movement(tx: Tx, op: EventMovement) -> None:
    """A card that only moves a token: recorded, nothing changes (the landing that follows is its own
    operation)."""
    tx.player(op.player)
    _card(tx, op, "movement")


def event_operation(edition: Edition, number: int, player: str, rules_version: int = RULES_VERSION,
                    **targets: Any) -> Operation:
    """The operation (its record) that plays Event card ``number`` of ``edition`` for ``player`` in a game of
    ``rules_version`` (its deck), with the ``targets`` its action needs (:data:`EVENT_TARGETS`): ``square``
    (own/owned/any property), ``other`` (the opponent's property of a swap), ``side``, ``group``, ``opponent``,
    and ``buy`` (a "move to any property" card on an unowned one: buy it). Raises RuleViolation for a card the
    deck does not hold (``unknown_event_card``) or a missing or unexpected target (``event_targets``)."""
    deck = edition.deck(rules_version)
    card = edition.event_card(number, rules_version) if type(number) is int else None
    if card is None:
        numbers = ", ".join(str(c.number) for c in deck)
        raise RuleViolation(f"There is no Event card {number!r}: the cards are {numbers}.",
                            code="unknown_event_card", params={"card": number, "cards": numbers})
    needs = EVENT_TARGETS[card.action]
    buy = targets.pop("buy", None)
    fields = {"own_property": "square", "owned_property": "square", "opponent_property": "other", "side": "side",
              "group": "group", "opponent": "opponent", "any_property": "square"}
    wanted = {fields[n] for n in needs}
    given = {k for k, v in targets.items() if v is not None}
    if given != wanted:
        missing = ", ".join(sorted(wanted - given)) or "nothing"
        raise RuleViolation(f"Event card {number} ({card.action}) needs {', '.join(sorted(wanted)) or 'no target'}; "
                            f"missing: {missing}.", code="event_targets",
                            params={"card": number, "needs": list(needs)})
    extra = {"buy": True} if buy and card.action == "move_to_property" else {}
    return parse_operation({"op": EVENT_OPERATIONS[card.action].op, "player": player,
                            **{k: targets[k] for k in sorted(wanted)}, **extra, **dict(card.params), "card": number})


def event_targets(state: State, config: GameConfig, player: str, action: str) -> dict[str, list[Any]]:
    """Where Event ``action`` would apply for ``player`` now: for each target it needs (:data:`EVENT_TARGETS`),
    the choices that would be accepted on their own (squares, sides, groups or players: from rules version 2 only
    the sides and colour sets of the player's own properties). An empty list means the card cannot apply: the table
    says so and the card is set aside without an operation (``pay_per_property`` with no property answers
    ``{"own_property": []}``)."""
    edition = config.edition
    owned = sorted(state.owner)
    mine = [s for s in owned if state.owner[s] == player]
    theirs = [s for s in owned if state.owner[s] != player]
    top = ULTIMATE_LEVELS
    wrap = config.rules.get("neighbours", "wrap") == "wrap"

    printed = config.rules_version >= 2

    def moves(squares: tuple[int, ...], delta: int) -> bool:
        return any(s in state.owner and 1 <= level(state, s) + delta <= top for s in squares)

    def through(squares: tuple[int, ...]) -> bool:  # a side or set of one of the drawer's properties (printed)
        return not printed or any(state.owner.get(s) == player for s in squares)

    choices: dict[str, dict[str, list[Any]]] = {
        "swap": {"own_property": mine if theirs else [], "opponent_property": theirs if mine else []},
        "reset_level": {"owned_property": [s for s in owned if level(state, s) > 1]},
        "max_level": {"own_property": [s for s in mine if level(state, s) < top]},
        "neighbours": {"own_property": [s for s in mine if level(state, s) < top
                                        or moves(neighbours(edition, s, wrap), -1)]},
        "side_up": {"side": [k for k, v in sides(edition).items() if moves(v, +1) and through(v)]},
        "side_down": {"side": [k for k, v in sides(edition).items() if moves(v, -1) and through(v)]},
        "group_up": {"group": [g for g in COLOR_GROUPS if moves(edition.groups[g], +1) and through(edition.groups[g])]},
        "group_down": {"group": [g for g in COLOR_GROUPS
                                 if moves(edition.groups[g], -1) and through(edition.groups[g])]},
        "both_collect": {"opponent": [p for p in state.active_players() if p != player]},
        "move_to_property": {"any_property": [
            d.index for d in properties(edition)
            if d.index not in state.owner or (state.owner[d.index] == player and level(state, d.index) < top)
            or (state.owner[d.index] != player and config.rules.get("location_landing") == "land")]},
    }
    if printed and not mine:  # M50 per property with none: nothing to pay (the card is set aside)
        choices["pay_per_property"] = {"own_property": []}
    if action not in EVENT_TARGETS:
        raise RuleViolation(f"Unknown Event action {action!r}.", code="unknown_event_action",
                            params={"action": action})
    return choices.get(action, {})


# -- the board's answers (terminal/bank/board.py asks them) ------------------------------------------------------
class UltimateBoard(Board):
    """The Ultimate Banking board's answers to what differs between boards (:class:`terminal.bank.board.Board`)."""

    name: ClassVar[str] = "ultimate"
    modes: ClassVar[tuple[str, ...]] = (ULTIMATE,)
    #: Its own operations (computed here) and those it plays as the classic board does; any other is refused.
    operations: ClassVar[frozenset[type[Operation]]] = frozenset(_HANDLERS) | _SHARED
    #: Every table log of this board written before version 2 named none: it keeps the reading before (version 1).
    unnamed_rules_version: ClassVar[int] = LEGACY_RULES_VERSION

    def handler(self, kind: type[Operation], config: GameConfig | None = None) -> Handler | None:
        """This board's computation of ``kind`` (Buy, Auction, PayRent, JailFine and its own operations), None
        for the operations it plays as the classic board does (GO salary, the banker's adjustments, transfers,
        bankruptcy). Raises RuleViolation (``not_on_this_board``) for the classic board's own: houses,
        mortgages, trades, taxes, Jail cards, time limits, and, from rules version 2 (``config``), the Free
        Parking jackpot and the payments to or from each player, which no card or square of this board asks
        for."""
        if kind not in self.operations or (kind in _CLASSIC_CARDS and config is not None
                                           and config.rules_version >= 2):
            raise RuleViolation(f"The Ultimate Banking board has no {kind.op.replace('_', ' ')}: no houses, no "
                                f"mortgages, no trades, no taxes, no Jail cards, no Free Parking jackpot, no "
                                f"payments to or from each player, no time limit.",
                                code="not_on_this_board", params={"op": kind.op})
        return _HANDLERS.get(kind)

    def after(self, tx: Tx) -> None:
        """The game ends at the first bankruptcy (or when one player is left); once over, the standings by worth
        (cash + printed prices) are recorded in the journal (the ``game`` section)."""
        self.end_if_over(tx, 1)
        if tx.s.game.get("over") and "standings" not in tx.s.game:
            tx.set("game", "standings", standings(tx.s, tx.ed, 0))

    def rent_of(self, state: State, config: GameConfig, owner: str, payer: str, deed: Square, dice: int | None,
                card: str | None) -> Rent:
        """The rent at the property's level (:func:`rent_at_level`). No dice and no rent cards here:
        ``rent_no_dice``, ``rent_no_card``."""
        if dice is not None:
            raise RuleViolation(f"Rent on {deed.name} does not depend on the dice; leave the dice out.",
                                code="rent_no_dice", params={"square": deed.index, "deed": deed.name})
        if card is not None:
            raise RuleViolation("The Ultimate Banking board has no rent cards; leave the card out.",
                                code="rent_no_card", params={"square": deed.index, "deed": deed.name, "card": card})
        return rent_at_level(state, config, owner, payer, deed)

    def raisable(self, state: State, config: GameConfig, player: str) -> int:
        """What ``player`` could still raise: :func:`raisable` (their properties sold back at the printed price)."""
        return raisable(state, config, player)

    def in_debt(self, player: str, what: str, debts: Sequence[Debt]) -> PlayerInDebt:
        """The money is raised by selling properties back to the Bank (no buildings, no mortgages here)."""
        return PlayerInDebt(
            f"{player} owes {owed_text(debts)}: {what} must wait. Raise the money by selling properties back to the "
            f"Bank, or declare bankruptcy.",
            params={"player": player, "what": what, "debts": [d.to_json() for d in debts],
                    "owed": sum(d.amount for d in debts), "creditor_list": [d.creditor for d in debts],
                    "remedy_code": "part_debt_remedy_ultimate"})

    def check_bankruptcy(self, player: str, owed: int, raisable: int, lift_now: Sequence[int],
                         state: State | None = None, config: GameConfig | None = None) -> None:
        """No mortgages to lift (``no_mortgages_here``); refused while selling properties back could still pay
        the debts (``bankruptcy_can_sell``); then, from rules version 2 under ``charge_beyond_cash = "sell_to_bank"``,
        refused while the player still holds a property (``bankruptcy_sell_first``, naming them): what they fetch
        goes to the creditor, and a player is bankrupt only when nothing is left to sell (the guide's reading
        kept by the fan simulator; docs/RULES.md, The Ultimate Banking board)."""
        if lift_now:
            raise RuleViolation("The Ultimate Banking board has no mortgages: leave lift_now out.",
                                code="no_mortgages_here", params={"square": lift_now[0]})
        if owed <= raisable:
            raise RuleViolation(
                f"{player} owes {owed} but could still raise {raisable} by selling properties back to the Bank: "
                f"sell them instead of going bankrupt.", code="bankruptcy_can_sell",
                params={"player": player, "owed": owed, "raisable": raisable})
        if (state is not None and config is not None and config.rules_version >= 2
                and config.rules.get("charge_beyond_cash") != "bankrupt" and state.deeds_of(player)):
            deeds = [config.edition.squares[s] for s in state.deeds_of(player)]
            names = ", ".join(f"{d.name} ({d.price})" for d in deeds)
            raise RuleViolation(
                f"{player} still holds {names}: sell to the Bank first, what it fetches goes to the creditor; "
                f"bankruptcy comes only when nothing is left to sell.", code="bankruptcy_sell_first",
                params={"player": player, "deeds": names, "squares": [d.index for d in deeds],
                        "raisable": raisable, "owed": owed})

    def hand_over(self, tx: Tx, player: str, creditor: str) -> None:
        """The bankrupt's cash to the creditor; their properties return to the Bank unowned (their levels go),
        and their market slump ends."""
        state = tx.s
        tx.move(player, creditor, state.cash[player])
        for square in state.deeds_of(player):
            tx.set("owner", square, None)
            tx.set("level", square, None)
        slump = _slumps(state)
        if player in slump:
            del slump[player]
            tx.set("game", "slump", slump or None)

    def event_operation(self, edition: Edition, number: int, player: str, rules_version: int = RULES_VERSION,
                        **targets: Any) -> Operation:
        """:func:`event_operation`."""
        return event_operation(edition, number, player, rules_version, **targets)

    def event_targets(self, state: State, config: GameConfig, player: str, action: str) -> dict[str, list[Any]]:
        """:func:`event_targets`."""
        return event_targets(state, config, player, action)

    def checks(self, state: State, config: GameConfig, common: Mapping[str, Any]) -> dict[str, Any]:
        """The checks of a table log on this board: ``owner`` covers its 22 properties, ``levels`` {"square": 1-5,
        0 unowned} replaces ``buildings``, ``slump`` {player: rent payments left at level 1} is added; no
        mortgages, Jail cards, houses or hotels (``mortgaged`` [], ``jail_cards`` 0 each, ``bank`` 0 and 0 and the
        pot)."""
        deeds = [d.index for d in config.edition.deeds()]
        return {
            "cash": common["cash"],
            "owner": common["owner"],
            "levels": {str(i): level(state, i) for i in deeds},
            "slump": {p: slump_of(state, p) for p in state.players},
            "mortgaged": [],
            "debt": common["debt"],
            "jail_cards": dict.fromkeys(state.players, 0),
            "bankrupt": common["bankrupt"],
            "bank": {"houses": 0, "hotels": 0, "pot": state.cash[POT]},
            "worth": common["worth"],
            "standings": common["standings"],
            "game_over": common["game_over"],
        }


#: The Ultimate Banking board.
BOARD = UltimateBoard()
