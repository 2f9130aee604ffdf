"""Bankruptcy (RULES.md, Debts and bankruptcy), on every board.

A player who owes more than they could ever raise leaves the game; everything they have goes to the creditor of
their oldest debt: another player, or the Bank. What they could raise, and what passes to the creditor, are the
board's answers (:class:`terminal.bank.board.Board`: :meth:`~terminal.bank.board.Board.raisable`,
:meth:`~terminal.bank.board.Board.check_bankruptcy`, :meth:`~terminal.bank.board.Board.hand_over`).
"""
from __future__ import annotations

from dataclasses import replace

from terminal.bank import rules
from terminal.bank.state import BANK, POT
from terminal.bank.tx import Tx
from terminal.bank.types import Debt
from terminal.errors import RuleViolation


def declare_bankruptcy(tx: Tx, player: str, lift_now: list[int]) -> None:
    """Take ``player`` through bankruptcy to the creditor of their oldest debt.

    Refused for a player with no debt (``bankruptcy_no_debt``), and as the board says
    (:meth:`~terminal.bank.board.Board.check_bankruptcy`: while the debts are no larger than what the player could
    still raise, the message saying how much that is; a ``lift_now`` on a board without mortgages).

    Later debts of the bankrupt to other creditors are cancelled; debts others owed the bankrupt pass to the
    creditor (cancelled where the creditor is the one who owes). The board then hands over the cash and holdings
    (:meth:`~terminal.bank.board.Board.hand_over`) and the debts are settled; a player creditor pays 10 % at once
    on each mortgaged deed received and lifts those in ``lift_now`` for their mortgage value (RULES.md, Mortgages).
    """
    board = tx.board
    state = tx.s
    debts = state.debts_of(player)
    if not debts:
        raise RuleViolation(f"{player} owes nothing: bankruptcy is only for a player who cannot pay a debt.",
                            code="bankruptcy_no_debt", params={"player": player})
    board.check_bankruptcy(player, sum(d.amount for d in debts), board.raisable(state, tx.cfg, player), lift_now,
                           state=state, config=tx.cfg)
    creditor = debts[0].creditor
    to_player = creditor not in (BANK, POT)
    mortgaged = [s for s in state.deeds_of(player) if state.mortgaged.get(s)]
    for square in lift_now:
        if not to_player or square not in mortgaged:
            raise RuleViolation(f"lift_now names square {square}, which is not a mortgaged deed passing to a "
                                f"player in this bankruptcy.", code="lift_now_not_received",
                                params={"square": square, "deed": rules.square_name(tx.ed, square)})

    remaining: list[Debt] = []
    for debt in state.debts:
        if debt.debtor == player:
            continue  # the oldest is settled by the assets, the later ones are cancelled
        if debt.creditor == player:
            if debt.debtor == creditor:
                continue
            debt = replace(debt, creditor=creditor)
        remaining.append(debt)
    tx.set_debts(remaining)
    tx.set("bankrupt", "list", state.bankrupt_list + [player])
    board.hand_over(tx, player, creditor)
    tx.settle()
    if to_player:
        for square in mortgaged:
            tx.receive_mortgaged(creditor, square, square in lift_now)
