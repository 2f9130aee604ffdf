"""The transaction: a working copy of the state on which one operation is computed, recording each change.

:class:`Tx` holds the money primitives every operation is built from (a voluntary payment, a charge that may
become a debt, the settlement of debts) and the checks of names and amounts. The operations themselves are in
:mod:`terminal.bank.engine`; the rules in :mod:`terminal.bank.rules`.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from cards.editions import Square
from terminal.bank.money import check_amount, ten_percent
from terminal.bank.state import BANK, POT, State
from terminal.bank.types import Change, Debt, Effects, GameConfig, Posting, Rent
from terminal.errors import InsufficientCash, PlayerBankrupt, PlayerInDebt, RuleViolation, UnknownName


class BoardRules(Protocol):
    """What a transaction, and the operations computed on it, ask of the board the game is played on. The
    answers are :class:`terminal.bank.board.Board`'s (the classic board) or those of its subclass for the
    electronic board (:class:`terminal.bank.ultimate.UltimateBoard`)."""

    def in_debt(self, player: str, what: str, debts: Sequence[Debt]) -> PlayerInDebt:
        """The refusal of ``what`` (a voluntary payment) while ``player`` owes ``debts``: it says how the money
        is raised on this board."""

    def rent_due(self, state: State, config: GameConfig, payer: str, deed: Square, dice: int | None = None,
                 card: str | None = None) -> Rent:
        """The rent ``payer`` owes on landing on ``deed``, with its reason; raises RuleViolation when none is."""

    def raisable(self, state: State, config: GameConfig, player: str) -> int:
        """The cash ``player`` could still raise from the Bank before a bankruptcy."""

    def check_bankruptcy(self, player: str, owed: int, raisable: int, lift_now: Sequence[int],
                         state: State | None = None, config: GameConfig | None = None) -> None:
        """Refuse a bankruptcy this board does not allow: debts of ``owed`` that ``raisable`` covers, a
        ``lift_now`` it has no mortgages for, or (``state``, ``config``: the game now) holdings still to sell."""

    def hand_over(self, tx: Tx, player: str, creditor: str) -> None:
        """Pass a bankrupt ``player``'s cash and holdings to ``creditor`` (their buildings, deeds and cards as this
        board says), recording each change on ``tx``: its debts are already passed on, the settlement follows."""


class Tx:
    """A working copy of the state on which one operation is computed, recording each change. ``board``: the
    board the game is played on (its few different answers: :class:`BoardRules`)."""

    def __init__(self, state: State, config: GameConfig, board: BoardRules) -> None:
        self.s = state.copy()
        self.cfg = config
        self.ed = config.edition
        self.board = board
        self.effects = Effects()

    # -- primitive changes ---------------------------------------------------------------------------------
    def set(self, section: str, key: Any, value: Any) -> None:
        """Set ``key`` of ``section`` (a dict section of the state, not ``debts``: see :meth:`set_debts`) to
        ``value`` (``None``, a level 0 or an unmortgaged deed: the key goes), recording the change."""
        table = getattr(self.s, section)
        before = table.get(key)  # an absent key is None, as a value of None would be
        if before == value:
            return
        if value is None or (section in ("level",) and value == 0) or (section == "mortgaged" and not value):
            table.pop(key, None)
        else:
            table[key] = value
        self.effects.changes.append(Change(section, key, copy_value(before), copy_value(value)))

    def set_debts(self, debts: Iterable[Debt]) -> None:
        """Replace the outstanding debts by ``debts``, oldest first; those paid off (amount 0) go. Recorded as
        the journal has them: section ``debts``, key ``list``, the lists of stored debts before and after."""
        new = tuple(d for d in debts if d.amount > 0)
        if new == self.s.debts:
            return
        before = [d.to_json() for d in self.s.debts]
        self.s.debts = new
        self.effects.changes.append(Change("debts", "list", before, [d.to_json() for d in new]))

    def move(self, payer: str, payee: str, amount: int) -> None:
        """Move money. No check here: callers decide whether the payment is voluntary or a charge."""
        if amount <= 0 or payer == payee:
            return
        self.s.cash[payer] -= amount
        self.s.cash[payee] += amount
        self.effects.postings.append(Posting(payer, payee, amount))

    # -- money rules ---------------------------------------------------------------------------------------
    def pay_voluntary(self, payer: str, payee: str, amount: int, what: str) -> None:
        """A voluntary payment: refused without the cash, or while the payer is in debt (RULES.md, Debts)."""
        if payer != BANK:
            self.require_no_debt(payer, what)
            if self.s.cash[payer] < amount:
                raise InsufficientCash(
                    f"{payer} cannot pay {amount} for {what}: only {self.s.cash[payer]} in cash. "
                    f"Sell buildings or mortgage deeds first.",
                    params={"player": payer, "amount": amount, "cash": self.s.cash[payer], "what": what})
        self.move(payer, payee, amount)
        self.settle()

    def charge(self, debtor: str, creditor: str, amount: int) -> None:
        """A rules-driven charge: never refused for lack of cash. The creditor gets all the cash there is
        (after the debtor's older debts); the rest becomes a debt (RULES.md, Debts and bankruptcy).

        Our reading: each charge left unpaid is a debt of its own, even to a creditor already owed (RULES.md
        says charges "queue behind the first debt" and are "paid oldest first"): the table sees every charge.
        """
        if amount <= 0:
            return
        self.set_debts((*self.s.debts, Debt(debtor, creditor, amount)))
        self.settle()

    def bank_creditor(self) -> str:
        """Where a tax, fine, repair bill or card payment to the Bank goes: the Bank, or the Free Parking pot
        under the jackpot house rule (RULES.md, Free Parking; debts to the Bank are owed to the pot too)."""
        return POT if self.cfg.jackpot else BANK

    def settle(self) -> None:
        """Pay the outstanding debts from the cash their debtors now hold, each debtor's oldest debt first,
        until no player who holds cash still owes anything (RULES.md, Debts and bankruptcy: everything a
        player in debt receives goes to their creditors, oldest debt first). Money paid to a creditor who is
        in debt too is passed on the same way, however long the chain, within the same operation (one
        journal entry, undone as one).

        The order, the one place where it is decided: passes over the list of debts, oldest first. At each
        debt whose debtor holds cash, the debtor pays it, as much as the cash allows, only if it is the
        debtor's oldest outstanding debt; a debtor paid in the middle of a pass after the pass went by an
        older debt of theirs keeps the money until the next pass reaches that older debt. Passes repeat
        until one pays nothing; the list of debts is recorded once for each pass that paid. Debts owed by
        the Bank or the pot are never paid here (the Bank is no debtor).

        Every payment thus goes to the payer's oldest outstanding debt. The outcome is the same as restarting
        from the oldest debt of the whole list after every payment, or as any other order with that property:
        the amounts paid only grow, and each stays within what the rule allows for the money its debtor
        has received so far, so every such order ends on the same, smallest, settlement in which no debtor
        with cash owes anything.

        Termination: every payment is at least 1 and lowers the total outstanding debt (a whole number, never
        negative) by its amount, and a pass that pays nothing is the last; so there are at most as many
        payments as units of debt outstanding, and as many passes plus one.
        """
        # Our reading (RULES.md, Debts and bankruptcy): "every amount the debtor raises or receives goes to
        # the creditor" holds however the money reaches them, a payment from another debtor in the same
        # settlement included, and "debts are paid oldest first" is each debtor's own order: a debtor's money
        # never pays a newer debt of theirs while an older one is outstanding, even when the older debt comes
        # earlier in the list than the debt that just paid them. Money that comes back round a circle of debts
        # (Ann owes Bob, Bob owes Ann) is received again and paid on again, until the debts of the circle or
        # the money run out.
        # The passes keep the order the terminal has always recorded wherever each debtor's oldest debt was
        # already paid first, so those journal entries stay exactly what the rules give (the audit recomputes
        # every entry); only settlements that paid a newer debt first now come out differently.
        if self.cfg.settlement == "passes_v1":
            self._settle_passes_v1()
            return
        while True:
            debts = self.s.debts
            left = [d.amount for d in debts]
            paid = False
            owing: set[str] = set()  # debtors with an outstanding debt earlier in this pass
            for i, debt in enumerate(debts):
                debtor = debt.debtor
                if debtor in (BANK, POT):
                    continue
                available = self.s.cash[debtor]
                if debtor not in owing and available > 0 and left[i] > 0:
                    amount = min(available, left[i])
                    self.move(debtor, debt.creditor, amount)
                    left[i] -= amount
                    paid = True
                if left[i] > 0:
                    owing.add(debtor)
            if not paid:
                return
            self.set_debts(_with_amounts(debts, left))

    def _settle_passes_v1(self) -> None:
        """The settlement of games started before the order was fixed (:data:`~terminal.bank.types.
        LEGACY_SETTLEMENT`): passes over the list of debts in which every debtor with cash pays the debt at
        hand, so money received in the middle of a pass could pay a newer debt before an older one already
        passed. Kept, unchanged, only so that those games' journals still audit and play on the way they
        were computed; every new game uses the order of :meth:`settle`."""
        while True:
            debts = self.s.debts
            left = [d.amount for d in debts]
            paid = False
            for i, debt in enumerate(debts):
                debtor = debt.debtor
                if debtor in (BANK, POT):
                    continue
                available = self.s.cash[debtor]
                if available > 0 and left[i] > 0:
                    amount = min(available, left[i])
                    self.move(debtor, debt.creditor, amount)
                    left[i] -= amount
                    paid = True
            if not paid:
                return
            self.set_debts(_with_amounts(debts, left))

    def receive_mortgaged(self, taker: str, square: int, lift_now: bool) -> None:
        """A mortgaged deed received in a trade or a bankruptcy: 10 % interest to the Bank at once (a
        charge); lifting now also pays the mortgage value (voluntary, refused without the cash).
        RULES.md, Mortgages."""
        deed = self.ed.squares[square]
        # Our reading: the interest is owed to the Bank even under the Free Parking jackpot house rule, whose
        # pot takes "taxes, fines and street repairs" and card payments (docs/RULES.md, Free Parking):
        # mortgage interest is none of these, it is the Bank's charge for its loan.
        self.charge(taker, BANK, ten_percent(deed.mortgage, self.cfg.rounding))
        if lift_now:
            self.pay_voluntary(taker, BANK, deed.mortgage, f"lifting the mortgage on {deed.name} at once")
            self.set("mortgaged", square, False)

    # -- checks --------------------------------------------------------------------------------------------
    def player(self, name: object, role: str = "player") -> str:
        if not isinstance(name, str) or name not in self.s.players:
            raise UnknownName(f"There is no player {name!r} in this game (players: {', '.join(self.s.players)}).",
                              code="unknown_player", params={"player": name})
        if name in self.s.bankrupt_list:
            raise PlayerBankrupt(f"{name} is bankrupt and out of the game: nothing can be paid to or by them.",
                                 params={"player": name})
        return name

    def require_no_debt(self, player: str, what: str) -> None:
        """Refuse ``what`` (PlayerInDebt, saying how the money is raised on this board) while ``player`` owes
        anything (RULES.md, Debts: a player in debt makes no voluntary payment)."""
        debts = self.s.debts_of(player)
        if debts:
            raise self.board.in_debt(player, what, debts)

    def deed(self, square: object) -> Square:
        last = len(self.ed.squares) - 1
        if not isinstance(square, int) or isinstance(square, bool) or not 0 <= square <= last:
            raise UnknownName(f"There is no square {square!r}: squares are numbered 0 to {last}.",
                              code="unknown_square", params={"square": square})
        deed = self.ed.squares[square]
        if not deed.is_deed:
            raise RuleViolation(f"{deed.name} is not a title deed.", code="not_a_deed",
                                params={"square": square, "name": deed.name, "deed": deed.name})
        return deed

    def own_deed(self, player: str, square: int) -> Square:
        deed = self.deed(square)
        holder = self.s.owner.get(square)
        if holder != player:
            raise RuleViolation(
                f"{player} does not hold {deed.name}" + (f": {holder} does." if holder else ": the Bank does."),
                code="not_owner",
                params={"player": player, "square": square, "deed": deed.name, "owner": holder or BANK})
        return deed

    def amount(self, value: object, what: str = "amount", allow_zero: bool = False) -> int:
        return check_amount(value, self.ed, allow_zero=allow_zero, what=what)


def _with_amounts(debts: tuple[Debt, ...], amounts: list[int]) -> list[Debt]:
    """``debts`` with the amounts ``amounts`` (what is left of each after a pass of the settlement)."""
    return [Debt(d.debtor, d.creditor, a) for d, a in zip(debts, amounts, strict=True)]


def copy_value(value: Any) -> Any:
    if isinstance(value, list):
        return [dict(v) if isinstance(v, dict) else v for v in value]
    if isinstance(value, dict):
        return dict(value)
    return value


def account_name(account: str) -> str:
    """An account as a message names it: "the Bank" for the Bank and the Free Parking pot, else the player."""
    return "the Bank" if account in (BANK, POT) else account
