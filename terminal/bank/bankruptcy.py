"""Bankruptcy (RULES.md, Debts and bankruptcy; End of the game, Quick game).

A player who owes more than they could ever raise leaves the game; everything they have goes to the
creditor of their oldest debt: another player, or the Bank (whose deeds are then auctioned).
"""
from __future__ import annotations

from dataclasses import replace

from terminal.bank import rules
from terminal.bank.money import half
from terminal.bank.state import BANK, HOTEL, POT
from terminal.bank.tx import Tx
from terminal.bank.types import Debt
from terminal.errors import RuleViolation


def declare_bankruptcy(tx: Tx, player: str, lift_now: list[int]) -> None:
    """Take ``player`` through bankruptcy to the creditor of their oldest debt.

    Refused for a player with no debt, and while the total of their debts is no larger than what they could
    still raise from the Bank (:func:`terminal.bank.rules.raisable`); the message says how much that is.

    - To a player: the debtor's buildings go back to the Bank at half price (in the quick game they pass to
      the creditor standing); the creditor gets all the cash, every deed and every Get Out of Jail Free card,
      pays 10 % at once on each mortgaged deed and lifts those in ``lift_now`` for their mortgage value.
    - To the Bank (or the Free Parking pot under the jackpot rule, for the cash): buildings return to the
      Bank's supply, deeds return to the Bank unmortgaged (to be auctioned), Jail cards go back under their
      decks.
    Later debts of the bankrupt to other creditors are cancelled; debts others owed the bankrupt pass to the
    creditor (cancelled where the creditor is the one who owes).
    """
    state = tx.s
    debts = state.debts_of(player)
    if not debts:
        raise RuleViolation(f"{player} owes nothing: bankruptcy is only for a player who cannot pay a debt.",
                            code="bankruptcy_no_debt", params={"player": player})
    total = sum(d.amount for d in debts)
    could_raise = rules.raisable(state, tx.cfg, player)
    if total <= could_raise:
        raise RuleViolation(
            f"{player} owes {total} but could still raise {could_raise} by selling buildings and mortgaging "
            f"deeds: raise the money instead of going bankrupt.", code="bankruptcy_can_pay",
            params={"player": player, "owed": total, "raisable": could_raise})
    creditor = debts[0].creditor
    to_player = creditor not in (BANK, POT)
    deeds = state.deeds_of(player)
    mortgaged = [s for s in deeds if state.mortgaged.get(s)]
    for square in lift_now:
        if not to_player or square not in mortgaged:
            raise RuleViolation(f"lift_now names square {square}, which is not a mortgaged deed passing to a "
                                f"player in this bankruptcy.", code="lift_now_not_received",
                                params={"square": square, "deed": rules.square_name(tx.ed, square)})

    remaining: list[Debt] = []
    for debt in state.debt_list:
        if debt.debtor == player:
            continue  # the oldest is settled by the assets, the later ones are cancelled
        if debt.creditor == player:
            if debt.debtor == creditor:
                continue
            debt = replace(debt, creditor=creditor)
        remaining.append(debt)
    tx.set_debts(remaining)
    tx.set("bankrupt", "list", state.bankrupt_list + [player])

    hbh = tx.cfg.houses_before_hotel
    keep_buildings = to_player and tx.cfg.mode == "quick"
    houses_back = hotels_back = refund = 0
    for square in deeds:
        level = state.level.get(square, 0)
        if not level or keep_buildings:
            continue
        cost = tx.ed.squares[square].house_cost
        if level == HOTEL:
            hotels_back += 1
            refund += half(cost * (hbh + 1))
        else:
            houses_back += level
            refund += half(cost * level)
        tx.set("level", square, 0)
    tx.set("bank", "houses", state.bank["houses"] + houses_back)
    tx.set("bank", "hotels", state.bank["hotels"] + hotels_back)
    if to_player:
        tx.move(BANK, player, refund)  # sold to the Bank at half price; the cash goes to the creditor
    tx.move(player, creditor, state.cash[player])
    for square in deeds:
        if to_player:
            tx.set("owner", square, creditor)
        else:
            tx.set("owner", square, None)
            tx.set("mortgaged", square, False)
    for deck in state.jail_cards_of(player):
        tx.set("jail_card", deck, creditor if to_player else None)
    tx.settle()
    if to_player:
        for square in mortgaged:
            tx.receive_mortgaged(creditor, square, square in lift_now)
