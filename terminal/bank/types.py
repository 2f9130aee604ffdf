"""Types the Bank's modules share: a game's fixed configuration, the named records of money moved, debts
owed and state changed, and the recorded effects of one operation.

Kept apart from :mod:`terminal.bank.engine` so that the rules, bankruptcy and the transaction import them
without importing the engine (no import cycle). The records keep the journal's stored JSON as it always was:
a posting is the array ``[payer, payee, amount]``, a change ``[section, key, before, after]`` (a named tuple
is written as a JSON array), a debt the object ``{"debtor", "creditor", "amount"}`` (:meth:`Debt.to_json`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

from cards.editions import Edition

#: The wall clock the Bank reads (an aware ``datetime``, or a naive one in local time): when each journal entry is
#: recorded, when a game was created, and how much of an older game's ``end_time`` is left. Injected by whoever
#: makes or opens a game (:class:`terminal.Game`, :func:`terminal.bank.tablelog.replay`); play time never runs on
#: it (:mod:`terminal.bank.play_clock`).
WallClock = Callable[[], datetime]


def system_clock() -> datetime:
    """The system's wall clock, in UTC: what a game reads when it is given no other clock."""
    return datetime.now(UTC)


#: The settlement orders a game can be started with (:attr:`GameConfig.settlement`).
SETTLEMENTS = ("oldest_first", "passes_v1")
#: The order of games whose header names none: those started before the order was fixed.
LEGACY_SETTLEMENT = "passes_v1"
#: The versions of the boards' rules a game can be played by (:attr:`GameConfig.rules_version`), the current last.
#: 1: the electronic board's Event cards as read before their printed texts (docs/RULES.md, The Ultimate Banking
#: board, Rules versions); 2: as printed. The classic board's rules are the same in both.
RULES_VERSIONS = (1, 2)
#: The version every new game is started with.
RULES_VERSION = 2
#: The version of games whose header names none: those started before the version was recorded.
LEGACY_RULES_VERSION = 1


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
    #: such a game keeps the order it was started with.
    settlement: str = "oldest_first"
    #: The agreed length of a time-limited game in seconds of play (the header's ``length_minutes``), or None
    #: (no agreed length: none given, or a game started with a wall-clock ``end_time``; see
    #: :func:`terminal.bank.engine.time_limit`).
    time_limit_s: int | None = None
    #: The version of the board's rules the game is played by (:data:`RULES_VERSIONS`; the header's
    #: ``rules_version``): :data:`RULES_VERSION` for every game started by this version, 1 for games whose header
    #: has none. Their journal was computed by those rules, and the audit recomputes every entry with them.
    rules_version: int = RULES_VERSION

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


@dataclass(frozen=True, slots=True)
class Debt:
    """An outstanding debt, the one shape of a debt in the Bank: ``debtor`` owes ``amount`` (> 0; for
    :meth:`Effects.debts_created`, the amount more owed) to ``creditor`` (a player, ``"bank"`` or ``"pot"``).
    Stored (the state's ``debts`` section, the journal's changes) as :meth:`to_json`."""

    debtor: str
    creditor: str
    amount: int

    def to_json(self) -> dict[str, Any]:
        """The stored form, ``{"debtor", "creditor", "amount"}``."""
        return {"debtor": self.debtor, "creditor": self.creditor, "amount": self.amount}

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Debt:
        """The debt of the stored form ``value``."""
        return cls(value["debtor"], value["creditor"], value["amount"])


#: Why a rent is what it is (:attr:`Rent.reason`), with the numbers :attr:`Rent.detail` gives for each:
#:
#: - ``bare``: a street without buildings, its colour group not held whole (or the double lost to a mortgage).
#: - ``group``: a bare street of a colour group its owner holds whole: double rent (RULES.md, Title deeds).
#: - ``houses`` (``n``: 1-4 houses), ``hotel``: the printed rent for the buildings.
#: - ``railroads`` (``n``: railroads the owner holds, 1-4); ``railroad_card`` (``n``): the nearest-railroad
#:   card, twice that rent.
#: - ``dice`` (``times``: 4 or 10, the printed multiplier; ``dice``: the total, 2-12): a utility, times the dice
#:   (``times`` 10 with both utilities held or with the nearest-utility card).
#: - The electronic board: ``level`` (``level``: 1-5), the rent of the property's level; ``level_slump``
#:   (``level``: 1), the payer's market slump; ``level_group`` (``level``), the rent of the level doubled for a
#:   colour group held whole (``group_rent = "double"``).
RENT_REASONS = ("bare", "group", "houses", "hotel", "railroads", "railroad_card", "dice", "level", "level_slump",
                "level_group")


@dataclass(frozen=True, slots=True)
class Rent:
    """The rent ``payer`` owes ``owner`` on landing on a deed now: ``amount`` (an int of the edition's unit) and
    why, from the rules that computed it: ``reason`` (one of :data:`RENT_REASONS`) and its numbers ``detail``
    (``{"n": 3}`` for three houses; empty when the reason has none)."""

    amount: int
    owner: str
    reason: str
    detail: Mapping[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class Effects:
    """What one operation did: the ``postings`` (money moved, in order) and the ``changes`` of everything
    else, in order (what the journal records), and the ``rent`` it charged with its reason (not recorded: the
    postings are; None for an operation that charges no rent, and for effects read back from the journal)."""

    postings: list[Posting] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    rent: Rent | None = field(default=None, compare=False)

    def debts_created(self) -> tuple[Debt, ...]:
        """The debts these effects created or raised: for each debtor and creditor whose total owed grew, a
        :class:`Debt` of the amount more owed, in the order of the debts after them (from the first and the last
        recorded list of debts: the state before and after)."""
        lists = [c for c in self.changes if c.section == "debts"]
        if not lists:
            return ()

        def totals(debts: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], int]:
            out: dict[tuple[str, str], int] = {}
            for d in debts:
                key = (d["debtor"], d["creditor"])
                out[key] = out.get(key, 0) + d["amount"]
            return out
        before, after = totals(lists[0].before or ()), totals(lists[-1].after or ())
        return tuple(Debt(d, c, a - before.get((d, c), 0)) for (d, c), a in after.items() if a > before.get((d, c), 0))

    def to_json(self) -> dict[str, list[list[Any]]]:
        return {"postings": [list(p) for p in self.postings], "changes": [list(c) for c in self.changes]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Effects:
        return cls.recorded(data["postings"], data["changes"])

    @classmethod
    def recorded(cls, postings: Iterable[Sequence[Any]], changes: Iterable[Sequence[Any]]) -> Effects:
        """The effects a journal entry recorded (its postings and changes as read back, tuples or lists)."""
        return cls(postings=[Posting(*p) for p in postings], changes=[Change(*c) for c in changes])
