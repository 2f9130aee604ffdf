"""What comes out of the Bank's door (docs/bank-door.md): an operation computed but not committed
(:class:`Preview`) and an operation committed (:class:`Receipt`).

The door takes operation records (:mod:`terminal.bank.operations`): :meth:`terminal.Game.preview` computes one
on the game as it stands and :meth:`terminal.Game.commit` writes that very computation to the journal, unless
the journal has moved since (then the operation is computed again, and may be refused); the receipt carries the
record committed and the debts the commit created, in the one shape of a debt (:class:`~terminal.bank.types.
Debt`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from terminal.bank.operations import Operation
from terminal.bank.state import State
from terminal.bank.types import Debt, Effects, Posting, Rent

__all__ = ["Preview", "Receipt"]

@dataclass(frozen=True, slots=True)
class Preview:
    """An operation computed on the game as it stood (:meth:`terminal.Game.preview`), not committed: what it
    would move and change, to show before it is confirmed. Give it to :meth:`terminal.Game.commit` to commit it.

    - ``operation``: the record computed (:class:`~terminal.bank.operations.Undo` for an undo).
    - ``effects``: the postings (money moved, in order) and the changes it would record.
    - ``rent``: the rent it charges, with its reason (``pay_rent``; a Location landing on another's property);
      None for the other operations.
    - ``undone``: for an undo, the operation it would undo (as recorded); None otherwise.
    - ``basis``, ``after``: the state it was computed on and the state it leads to (for the commit: the same
      ``basis`` as the game's current state means the journal has not moved since).
    - ``undoes``: for an undo, the ``seq`` of the entry it undoes.
    """

    operation: Operation
    effects: Effects
    basis: State = field(repr=False, compare=False)
    after: State = field(repr=False, compare=False)
    rent: Rent | None = None
    undone: Operation | None = None
    undoes: int | None = None

    @property
    def postings(self) -> tuple[Posting, ...]:
        """The money it would move, in order: ``(payer, payee, amount)`` (a player, ``"bank"`` or ``"pot"``)."""
        return tuple(self.effects.postings)

    @property
    def debts_created(self) -> tuple[Debt, ...]:
        """The debts it would create or raise (:meth:`~terminal.bank.types.Effects.debts_created`)."""
        return self.effects.debts_created()

    def paid(self, payer: str, payee: str) -> int:
        """Total it would move from ``payer`` to ``payee``."""
        return sum(a for p, q, a in self.effects.postings if p == payer and q == payee)


@dataclass(frozen=True, slots=True)
class Receipt:
    """What a committed operation did.

    - ``seq``: its journal number.
    - ``operation``: the record committed (:class:`~terminal.bank.operations.Undo` for an undo); ``undone``: for
      an undo, the operation it undid (as recorded), else None.
    - ``postings``: the money moved, in order (``"bank"``, ``"pot"`` or a player); ``effects``: all it recorded.
    - ``debts_created``: the debts it created or raised, one :class:`~terminal.bank.types.Debt` per debtor and
      creditor with the amount more owed (:meth:`~terminal.bank.types.Effects.debts_created`).
    - ``rent``: the rent it charged, with its reason, or None (see :attr:`Preview.rent`).
    - ``followed_by``: the receipt of the entry this commit caused right after it, or None: the end of a
      time-limited game (``x_time_up``) after the ``x_play_time`` that reached the limit.
    """

    seq: int
    operation: Operation
    postings: tuple[Posting, ...]
    effects: Effects = field(default_factory=Effects, repr=False, compare=False)
    rent: Rent | None = None
    undone: Operation | None = None
    followed_by: Receipt | None = None

    @property
    def debts_created(self) -> tuple[Debt, ...]:
        """The debts it created or raised (:meth:`~terminal.bank.types.Effects.debts_created` of :attr:`effects`,
        its recorded effects)."""
        return self.effects.debts_created()

    def paid(self, payer: str, payee: str) -> int:
        """Total moved from ``payer`` to ``payee`` by this operation."""
        return sum(a for p, q, a in self.postings if p == payer and q == payee)
