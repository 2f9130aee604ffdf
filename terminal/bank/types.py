"""Types the Bank's modules share: a game's fixed configuration, the named records of money moved, debts
owed and state changed, and the recorded effects of one operation.

Kept apart from :mod:`terminal.bank.engine` so that the rules, bankruptcy and the transaction import them
without importing the engine (no import cycle). The records keep the journal's stored JSON as it always was:
a posting is the array ``[payer, payee, amount]``, a change ``[section, key, before, after]`` (a named tuple
is written as a JSON array), a debt the object ``{"debtor", "creditor", "amount"}`` (:meth:`Debt.to_json`).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypedDict

from cards.editions import Edition

#: The settlement orders a game can be started with (:attr:`GameConfig.settlement`).
SETTLEMENTS = ("oldest_first", "passes_v1")
#: The order of games whose header names none: those started before the order was fixed (issue 17).
LEGACY_SETTLEMENT = "passes_v1"


@dataclass(frozen=True)
class GameConfig:
    """What is fixed for a whole game: the edition, the mode and the rule flags (edition defaults merged
    with the game's choices)."""

    edition: Edition
    mode: str
    rules: Mapping[str, Any]
    #: How debts are settled (see :meth:`terminal.bank.tx.Tx.settle`): ``oldest_first`` for every game
    #: started by this version; ``passes_v1`` for games started before it, whose header has no
    #: ``settlement`` field: their journal was computed that way, and the audit recomputes every entry, so
    #: such a game keeps the order it was started with (issue 17).
    settlement: str = "oldest_first"
    #: The agreed length of a time-limited game in seconds of play (the header's ``length_minutes``), or None
    #: (no agreed length: none given, or a game started with a wall-clock ``end_time``; see
    #: :func:`terminal.bank.engine.time_limit`).
    time_limit_s: int | None = None

    @property
    def houses_before_hotel(self) -> int:
        """4 houses before a hotel; 3 in the quick game (RULES.md, End of the game, Quick game)."""
        return 3 if self.mode == "quick" else self.edition.houses_before_hotel

    @property
    def jackpot(self) -> bool:
        return bool(self.rules.get("free_parking_jackpot"))

    @property
    def rounding(self) -> str:
        return str(self.rules.get("interest_rounding", "up"))


class Posting(NamedTuple):
    """Money one operation moved: ``amount`` (> 0) from ``payer`` to ``payee`` (a player, ``"bank"`` or
    ``"pot"``)."""

    payer: str
    payee: str
    amount: int


class Change(NamedTuple):
    """One recorded change of the state besides cash: in ``section`` (a :class:`~terminal.bank.state.State`
    section: ``owner``, ``level``, ``mortgaged``, ``jail_card``, ``debts``, ``bankrupt``, ``bank``, ``game``),
    the value at ``key`` went from ``before`` to ``after`` (``None``: absent). Keys are squares (ints), decks
    or names; values are JSON values as stored (the debts as :meth:`Debt.to_json` objects)."""

    section: str
    key: Any
    before: Any
    after: Any


_DEBT_FIELDS = ("debtor", "creditor", "amount")


@dataclass(frozen=True, slots=True)
class Debt(Mapping[str, Any]):
    """An outstanding debt: ``debtor`` owes ``amount`` (> 0) to ``creditor`` (a player, ``"bank"`` or
    ``"pot"``). Read by attribute; it also reads as the mapping it is stored as (``debt["amount"]``,
    ``dict(debt)``), for callers written against the stored form."""

    debtor: str
    creditor: str
    amount: int

    def __getitem__(self, key: str) -> Any:
        if key not in _DEBT_FIELDS:
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(_DEBT_FIELDS)

    def __len__(self) -> int:
        return len(_DEBT_FIELDS)

    def to_json(self) -> dict[str, Any]:
        """The stored form, ``{"debtor", "creditor", "amount"}``."""
        return {"debtor": self.debtor, "creditor": self.creditor, "amount": self.amount}

    @classmethod
    def of(cls, value: Mapping[str, Any]) -> Debt:
        """The debt ``value`` describes (a :class:`Debt`, or its stored form)."""
        if isinstance(value, Debt):
            return value
        return cls(value["debtor"], value["creditor"], value["amount"])


class Owed(TypedDict):
    """One outstanding debt as the table sees it (``Game.debts``, the table log's ``debt`` check): to whom
    (``"bank"`` for the Bank and the Free Parking pot) and how much."""

    to: str
    amount: int


@dataclass
class Effects:
    """What one operation did: the ``postings`` (money moved, in order) and the ``changes`` of everything
    else, in order."""

    postings: list[Posting] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)

    def to_json(self) -> dict[str, list[list[Any]]]:
        return {"postings": [list(p) for p in self.postings], "changes": [list(c) for c in self.changes]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Effects:
        return cls.recorded(data["postings"], data["changes"])

    @classmethod
    def recorded(cls, postings: Iterable[Sequence[Any]], changes: Iterable[Sequence[Any]]) -> Effects:
        """The effects a journal entry recorded (its postings and changes as read back, tuples or lists)."""
        return cls(postings=[Posting(*p) for p in postings], changes=[Change(*c) for c in changes])


@dataclass(frozen=True)
class Receipt:
    """What a committed operation did. ``seq``: its journal number; ``op``: the operation as recorded;
    ``postings``: the money moved, in order (``"bank"``, ``"pot"`` or a player);
    ``debts``: each player's outstanding debts after it (``{player: [{"to", "amount"}]}``)."""

    seq: int
    op: dict[str, Any]
    postings: tuple[Posting, ...]
    debts: Mapping[str, list[Owed]]

    def paid(self, payer: str, payee: str) -> int:
        """Total moved from ``payer`` to ``payee`` by this operation."""
        return sum(a for p, q, a in self.postings if p == payer and q == payee)
