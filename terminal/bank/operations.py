"""The operations of ``docs/table-log.md`` as typed records, each checked when it is made.

One frozen record per operation (:class:`Buy`, :class:`Trade`...), built by the table (and the Game's facade)
directly: every field is checked for its JSON type as the record is made (:class:`~terminal.errors.
MalformedOperation`, ``wrong_type`` or ``missing_field``). :func:`parse_operation` turns a table-log line (a dict
read from a table log, or a journal entry read back) into its record, once, where it enters, and refuses a line of
the wrong shape: not an object, an unknown ``op``, an unknown field, a wrong JSON type, a missing field.
:meth:`Operation.to_json` gives back the dict the journal stores: the fields the line gave, without the
``refused`` marker.

A record says only that an operation is well formed; whether the rules allow it is the engine's business. An
optional field left out is ``None`` in the record (so that ``to_json`` gives back exactly the line's fields:
``"whole": false`` stays written out, an absent ``whole`` stays absent).
"""
from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, Union, get_args, get_origin, get_type_hints

from terminal.errors import MalformedOperation

__all__ = [
    "Operation", "TradeSide", "OPERATIONS", "parse_operation",
    "PassGo", "Buy", "Auction", "PayRent", "PayTax", "BankPays", "PayBank", "PayEachPlayer",
    "CollectFromEachPlayer", "Repairs", "JailFine", "GainJailCard", "UseJailCard", "FreeParking", "Build",
    "SellBuilding", "Mortgage", "Unmortgage", "Transfer", "Trade", "DeclareBankruptcy", "Undo", "EndGame",
    "PlayTime", "TimeLimit", "TimeUp", "CLOCK_OPERATIONS",
    "RaiseLevel", "SellProperty", "Location", "EventSwap", "EventResetLevel", "EventMaxLevel", "EventNeighbours",
    "EventSideUp", "EventSideDown", "EventGroupUp", "EventGroupDown", "EventPayPerProperty", "EventMarketSlump",
    "EventBothCollect", "EventMovement", "EventMoveToProperty", "EVENT_OPERATIONS", "ULTIMATE_OPERATIONS",
    "CLASSIC_OPERATIONS",
]


@dataclass(frozen=True, slots=True)
class TradeSide:
    """What one side of a trade gives (``{"cash": n, "squares": [..], "jail_cards": n}``); a key the line
    leaves out is ``None`` (no cash, no deed, no card)."""

    cash: int | None = None
    squares: tuple[int, ...] | None = None
    jail_cards: int | None = None

    #: The JSON type of each key.
    KINDS: ClassVar[dict[str, type]] = {"cash": int, "squares": list, "jail_cards": int}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.cash is not None:
            out["cash"] = self.cash
        if self.squares is not None:
            out["squares"] = list(self.squares)
        if self.jail_cards is not None:
            out["jail_cards"] = self.jail_cards
        return out

    def __post_init__(self) -> None:
        for name, kind in self.KINDS.items():
            value = getattr(self, name)
            if value is None:
                continue
            if kind is list:
                if not isinstance(value, (list, tuple)) or not all(_is(v, int) for v in value):
                    raise MalformedOperation(f"trade: {name} must list square numbers, not {value!r}.",
                                             code="wrong_type", params={"op": "trade", "field": name})
                object.__setattr__(self, name, tuple(value))
            elif not _is(value, kind):
                raise MalformedOperation(f"trade: {name} must be {kind.__name__}, not {value!r}.",
                                         code="wrong_type", params={"op": "trade", "field": name})

    @classmethod
    def of(cls, value: TradeSide | Mapping[str, Any], key: str = "a_gives") -> TradeSide:
        """``value`` as a record: a record as it is, or its table-log form ``{"cash", "squares", "jail_cards"}``
        checked (MalformedOperation for an unknown key or a wrong type, naming ``key``)."""
        if isinstance(value, TradeSide):
            return value
        if not isinstance(value, Mapping):
            raise MalformedOperation(f"trade: {key} must be an object, not {value!r}.", code="wrong_type",
                                     params={"op": "trade", "field": key})
        return _trade_side(Trade.op, key, dict(value))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TradeSide:
        squares = data.get("squares")
        return cls(cash=data.get("cash"), squares=None if squares is None else tuple(squares),
                   jail_cards=data.get("jail_cards"))


@dataclass(frozen=True, slots=True)
class Operation:
    """An operation of the table log. ``op`` (a class attribute) is its name in the log."""

    op: ClassVar[str]

    def __post_init__(self) -> None:
        """Every field of its JSON type (MalformedOperation ``wrong_type`` otherwise), a list of squares kept as
        a tuple, a trade side given in its table-log form made a :class:`TradeSide`: a record built by hand is
        checked as :func:`parse_operation` checks a line (which builds its record the same way, once)."""
        for spec in _FIELDS[self.op]:
            value = getattr(self, spec.attr)
            if value is None:
                if spec.required:
                    raise MalformedOperation(f"{self.op}: missing field {spec.key!r}.", code="missing_field",
                                             params={"op": self.op, "field": spec.key})
                continue
            if spec.kind is dict:
                if not isinstance(value, TradeSide):
                    object.__setattr__(self, spec.attr, TradeSide.of(value, spec.key))
            elif spec.kind is list:
                if not isinstance(value, (list, tuple)) or not all(_is(v, int) for v in value):
                    raise MalformedOperation(f"{self.op}: {spec.key} must list square numbers.", code="wrong_type",
                                             params={"op": self.op, "field": spec.key})
                if not isinstance(value, tuple):
                    object.__setattr__(self, spec.attr, tuple(value))
            elif not _is(value, spec.kind):
                raise MalformedOperation(f"{self.op}: field {spec.key!r} must be {spec.kind.__name__}, not {value!r}.",
                                         code="wrong_type", params={"op": self.op, "field": spec.key})

    def to_json(self) -> dict[str, Any]:
        """The operation as the journal stores it: ``{"op": ..., field: value, ...}``, the fields given only."""
        out: dict[str, Any] = {"op": self.op}
        for spec in _FIELDS[self.op]:
            value = getattr(self, spec.attr)
            if value is None:
                continue
            if isinstance(value, TradeSide):
                value = value.to_json()
            elif isinstance(value, tuple):
                value = list(value)
            out[spec.key] = value
        return out


# -- the operations (docs/table-log.md, Operations), in the spec's order --------------------------------------
@dataclass(frozen=True, slots=True)
class PassGo(Operation):
    op: ClassVar[str] = "pass_go"
    player: str


@dataclass(frozen=True, slots=True)
class Buy(Operation):
    op: ClassVar[str] = "buy"
    player: str
    square: int


@dataclass(frozen=True, slots=True)
class Auction(Operation):
    op: ClassVar[str] = "auction"
    square: int
    winner: str
    price: int


@dataclass(frozen=True, slots=True)
class PayRent(Operation):
    op: ClassVar[str] = "pay_rent"
    player: str
    square: int
    dice: int | None = None
    card: str | None = None


@dataclass(frozen=True, slots=True)
class PayTax(Operation):
    op: ClassVar[str] = "pay_tax"
    player: str
    square: int
    choice: str | None = None


@dataclass(frozen=True, slots=True)
class BankPays(Operation):
    op: ClassVar[str] = "bank_pays"
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class PayBank(Operation):
    op: ClassVar[str] = "pay_bank"
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class PayEachPlayer(Operation):
    op: ClassVar[str] = "pay_each_player"
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class CollectFromEachPlayer(Operation):
    op: ClassVar[str] = "collect_from_each_player"
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class Repairs(Operation):
    op: ClassVar[str] = "repairs"
    player: str
    per_house: int
    per_hotel: int


@dataclass(frozen=True, slots=True)
class JailFine(Operation):
    op: ClassVar[str] = "jail_fine"
    player: str


@dataclass(frozen=True, slots=True)
class GainJailCard(Operation):
    op: ClassVar[str] = "gain_jail_card"
    player: str
    deck: str


@dataclass(frozen=True, slots=True)
class UseJailCard(Operation):
    op: ClassVar[str] = "use_jail_card"
    player: str
    deck: str | None = None


@dataclass(frozen=True, slots=True)
class FreeParking(Operation):
    op: ClassVar[str] = "free_parking"
    player: str


@dataclass(frozen=True, slots=True)
class Build(Operation):
    op: ClassVar[str] = "build"
    player: str
    square: int
    price: int | None = None


@dataclass(frozen=True, slots=True)
class SellBuilding(Operation):
    op: ClassVar[str] = "sell_building"
    player: str
    square: int
    whole: bool | None = None


@dataclass(frozen=True, slots=True)
class Mortgage(Operation):
    op: ClassVar[str] = "mortgage"
    player: str
    square: int


@dataclass(frozen=True, slots=True)
class Unmortgage(Operation):
    op: ClassVar[str] = "unmortgage"
    player: str
    square: int


@dataclass(frozen=True, slots=True)
class Transfer(Operation):
    """``from`` and ``to`` in the log (``payer``, ``payee`` here: ``from`` is a Python keyword)."""

    op: ClassVar[str] = "transfer"
    payer: str = field(metadata={"json": "from"})
    payee: str = field(metadata={"json": "to"})
    amount: int


@dataclass(frozen=True, slots=True)
class Trade(Operation):
    op: ClassVar[str] = "trade"
    a: str
    b: str
    a_gives: TradeSide
    b_gives: TradeSide
    lift_now: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class DeclareBankruptcy(Operation):
    op: ClassVar[str] = "declare_bankruptcy"
    player: str
    lift_now: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Undo(Operation):
    op: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class EndGame(Operation):
    op: ClassVar[str] = "end_game"


# -- the terminal's own operations of a time-limited game (docs/table-log.md, Time limit) ---------------------
@dataclass(frozen=True, slots=True)
class PlayTime(Operation):
    """``seconds`` (>= 1) of play went by, counted on the terminal's monotonic clock."""

    op: ClassVar[str] = "x_play_time"
    seconds: int


@dataclass(frozen=True, slots=True)
class TimeLimit(Operation):
    """The game ends after ``seconds`` (>= 0) more of play: the limit of a game that has none yet (a game
    started with a wall-clock ``end_time``, converted once)."""

    op: ClassVar[str] = "x_time_limit"
    seconds: int


@dataclass(frozen=True, slots=True)
class TimeUp(Operation):
    """The agreed time is up: the game ends (recorded by the terminal after the play time that reached it)."""

    op: ClassVar[str] = "x_time_up"


# -- the Ultimate Banking board (docs/table-log.md, The Ultimate Banking board) ---------------------------------
# Valid only in a game of an Ultimate-board edition. Squares are that board's (0-35). Each Event operation takes
# an optional ``card``: the number of the Event card played (1-based, in the edition's order), checked against
# the card's action and amounts when given.
@dataclass(frozen=True, slots=True)
class RaiseLevel(Operation):
    """The owner lands on their own property: its rent level rises by one."""

    op: ClassVar[str] = "raise_level"
    player: str
    square: int


@dataclass(frozen=True, slots=True)
class SellProperty(Operation):
    """A player in debt sells a property back to the Bank at its printed price (its level goes)."""

    op: ClassVar[str] = "sell_property"
    player: str
    square: int


@dataclass(frozen=True, slots=True)
class Location(Operation):
    """A Location square: the fee, then the chosen property's landing (``buy``: buy it when unowned)."""

    op: ClassVar[str] = "location"
    player: str
    square: int
    buy: bool | None = None


@dataclass(frozen=True, slots=True)
class EventSwap(Operation):
    """Swap the player's property ``square`` with an opponent's property ``other`` (levels stay on them)."""

    op: ClassVar[str] = "event_swap"
    player: str
    square: int
    other: int
    card: int | None = None


@dataclass(frozen=True, slots=True)
class EventResetLevel(Operation):
    """Any owned property ``square`` back to rent level 1."""

    op: ClassVar[str] = "event_reset_level"
    player: str
    square: int
    card: int | None = None


@dataclass(frozen=True, slots=True)
class EventMaxLevel(Operation):
    """One of the player's properties to rent level 5."""

    op: ClassVar[str] = "event_max_level"
    player: str
    square: int
    card: int | None = None


@dataclass(frozen=True, slots=True)
class EventNeighbours(Operation):
    """+1 level on the player's property ``square``, -1 on its two neighbours."""

    op: ClassVar[str] = "event_neighbours"
    player: str
    square: int
    card: int | None = None


@dataclass(frozen=True, slots=True)
class EventSideUp(Operation):
    """+1 level on every owned property of one ``side`` of the board (1-4)."""

    op: ClassVar[str] = "event_side_up"
    player: str
    side: int
    card: int | None = None


@dataclass(frozen=True, slots=True)
class EventSideDown(Operation):
    """-1 level on every owned property of one ``side`` of the board (1-4)."""

    op: ClassVar[str] = "event_side_down"
    player: str
    side: int
    card: int | None = None


@dataclass(frozen=True, slots=True)
class EventGroupUp(Operation):
    """+1 level on every owned property of one colour ``group``."""

    op: ClassVar[str] = "event_group_up"
    player: str
    group: str
    card: int | None = None


@dataclass(frozen=True, slots=True)
class EventGroupDown(Operation):
    """-1 level on every owned property of one colour ``group``."""

    op: ClassVar[str] = "event_group_down"
    player: str
    group: str
    card: int | None = None


@dataclass(frozen=True, slots=True)
class EventPayPerProperty(Operation):
    """The player pays the Bank ``amount`` for each property they own (a charge)."""

    op: ClassVar[str] = "event_pay_per_property"
    player: str
    amount: int
    card: int | None = None


@dataclass(frozen=True, slots=True)
class EventMarketSlump(Operation):
    """The player's next ``payments`` rent payments are at level 1."""

    op: ClassVar[str] = "event_market_slump"
    player: str
    payments: int
    card: int | None = None


@dataclass(frozen=True, slots=True)
class EventBothCollect(Operation):
    """The player and the ``opponent`` they choose each collect ``amount`` from the Bank."""

    op: ClassVar[str] = "event_both_collect"
    player: str
    opponent: str
    amount: int
    card: int | None = None


@dataclass(frozen=True, slots=True)
class EventMovement(Operation):
    """An Event card that only moves a token: recorded, no money and no level changes."""

    op: ClassVar[str] = "event_movement"
    player: str
    card: int | None = None


@dataclass(frozen=True, slots=True)
class EventMoveToProperty(Operation):
    """An Event card "move to any property space, to buy it or raise its level": the chosen property's landing
    as after a Location, without the fee (``buy``: buy it when unowned)."""

    op: ClassVar[str] = "event_move_to_property"
    player: str
    square: int
    buy: bool | None = None
    card: int | None = None


#: The Event operations, by the Event card action they carry out (``cards.editions.EVENT_ACTIONS``).
_EVENTS: tuple[type[Operation], ...] = (
    EventSwap, EventResetLevel, EventMaxLevel, EventNeighbours, EventSideUp, EventSideDown, EventGroupUp,
    EventGroupDown, EventPayPerProperty, EventMarketSlump, EventBothCollect, EventMovement, EventMoveToProperty)
EVENT_OPERATIONS: dict[str, type[Operation]] = {cls.op.removeprefix("event_"): cls for cls in _EVENTS}
#: The operations only a game of the Ultimate board takes.
ULTIMATE_OPERATIONS: frozenset[type[Operation]] = frozenset({RaiseLevel, SellProperty, Location,
                                                             *EVENT_OPERATIONS.values()})

#: Every operation's record, by its name in the log.
_ALL: tuple[type[Operation], ...] = (
    PassGo, Buy, Auction, PayRent, PayTax, BankPays, PayBank, PayEachPlayer, CollectFromEachPlayer, Repairs,
    JailFine, GainJailCard, UseJailCard, FreeParking, Build, SellBuilding, Mortgage, Unmortgage, Transfer, Trade,
    DeclareBankruptcy, Undo, EndGame, PlayTime, TimeLimit, TimeUp,
    RaiseLevel, SellProperty, Location, *_EVENTS)
OPERATIONS: dict[str, type[Operation]] = {cls.op: cls for cls in _ALL}
#: The operations a game of the classic board takes (``undo`` included: the ledger's).
CLASSIC_OPERATIONS: frozenset[type[Operation]] = frozenset(_ALL) - ULTIMATE_OPERATIONS

#: The clock's entries: recorded by the terminal, never undone (an undo skips them).
CLOCK_OPERATIONS: frozenset[str] = frozenset({PlayTime.op, TimeLimit.op})


# -- parsing ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Field:
    """One field of an operation as the log writes it: the record's attribute, the line's key, the JSON type
    (``str``, ``int``, ``bool``, ``dict`` for a trade side, ``list`` for a list of squares), required or not."""

    attr: str
    key: str
    kind: type
    required: bool


_SCALARS: dict[object, type] = {str: str, int: int, bool: bool}


def _kind(hint: Any) -> type:
    """The JSON type of a record field from its annotation (``int | None`` -> ``int``)."""
    if get_origin(hint) in (Union, types.UnionType):
        (hint,) = [arg for arg in get_args(hint) if arg is not type(None)]
    if hint is TradeSide:
        return dict
    if get_origin(hint) is tuple:
        return list
    kind = _SCALARS.get(hint)
    if kind is not None:
        return kind
    raise TypeError(f"an operation field cannot be of type {hint!r}")


def _fields_of(cls: type[Operation]) -> tuple[_Field, ...]:
    hints = get_type_hints(cls)
    return tuple(_Field(f.name, f.metadata.get("json", f.name), _kind(hints[f.name]),
                        f.default is MISSING and f.default_factory is MISSING) for f in fields(cls))


#: Each operation's fields, in the order the records (and the spec) list them.
_FIELDS: dict[str, tuple[_Field, ...]] = {name: _fields_of(cls) for name, cls in OPERATIONS.items()}
_BY_KEY: dict[str, dict[str, _Field]] = {name: {f.key: f for f in specs} for name, specs in _FIELDS.items()}


def _is(value: object, kind: type) -> bool:
    """Whether ``value`` is of the JSON type ``kind`` (a JSON ``true`` is no number)."""
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def parse_operation(line: object) -> Operation:
    """The record of the operation ``line`` (a dict shaped like a table-log line; a record is returned as it
    is). The ``refused`` marker is checked and left out.

    Raises :class:`MalformedOperation` (code ``not_an_operation``, ``unknown_operation``, ``unknown_field``,
    ``wrong_type`` or ``missing_field``) for a line that is not of docs/table-log.md's shape; not whether the
    rules allow the operation.
    """
    if isinstance(line, Operation):
        return line
    if not isinstance(line, dict) or not isinstance(line.get("op"), str):
        raise MalformedOperation(f"Not an operation: {line!r}.", code="not_an_operation")
    name: str = line["op"]
    if name not in OPERATIONS:
        raise MalformedOperation(f"Unknown operation {name!r}.", code="unknown_operation", params={"op": name})
    by_key = _BY_KEY[name]
    for key, value in line.items():
        if key in ("op", "refused"):
            continue
        spec = by_key.get(key)
        if spec is None:
            raise MalformedOperation(f"{name}: unknown field {key!r}.", code="unknown_field",
                                     params={"op": name, "field": key})
        if not _is(value, spec.kind):
            raise MalformedOperation(f"{name}: field {key!r} must be {spec.kind.__name__}, not {value!r}.",
                                     code="wrong_type", params={"op": name, "field": key})
    for spec in _FIELDS[name]:
        if spec.required and spec.key not in line:
            raise MalformedOperation(f"{name}: missing field {spec.key!r}.", code="missing_field",
                                     params={"op": name, "field": spec.key})
    if "refused" in line and not isinstance(line["refused"], bool):
        raise MalformedOperation(f"{name}: 'refused' must be true or false.", code="wrong_type")
    values: dict[str, Any] = {}
    for spec in _FIELDS[name]:
        if spec.key in line and spec.kind is dict:
            values[spec.attr] = _trade_side(name, spec.key, line[spec.key])
    for spec in _FIELDS[name]:
        if spec.key in line and spec.kind is list:
            if not all(_is(s, int) for s in line[spec.key]):
                raise MalformedOperation(f"{name}: {spec.key} must list square numbers.", code="wrong_type")
            values[spec.attr] = tuple(line[spec.key])
    for spec in _FIELDS[name]:
        if spec.key in line and spec.attr not in values:
            values[spec.attr] = line[spec.key]
    # Every field was checked above: the record is built without checking them again (its __post_init__).
    record = object.__new__(OPERATIONS[name])
    for spec in _FIELDS[name]:
        object.__setattr__(record, spec.attr, values.get(spec.attr))
    return record


def _trade_side(name: str, key: str, side: dict[str, Any]) -> TradeSide:
    for field_name, value in side.items():
        if field_name not in TradeSide.KINDS or not _is(value, TradeSide.KINDS[field_name]):
            raise MalformedOperation(f"{name}: {key}.{field_name} is not a valid field ({value!r}).",
                                     code="wrong_type", params={"op": name, "field": f"{key}.{field_name}"})
    if not all(_is(s, int) for s in side.get("squares", [])):
        raise MalformedOperation(f"{name}: {key}.squares must be square numbers.", code="wrong_type")
    return TradeSide.from_json(side)
