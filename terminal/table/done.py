"""What the "done" message after a commit says: what the operation moved, in words (the deed bought, the building
built, the card kept, the deeds traded, what an undo undid), the money moved, and the debts it created."""
from __future__ import annotations

from terminal.bank.door import Receipt
from terminal.bank.operations import (
    Auction,
    BankPays,
    Build,
    Buy,
    CollectFromEachPlayer,
    DeclareBankruptcy,
    EndGame,
    EventMovement,
    FreeParking,
    GainJailCard,
    JailFine,
    Mortgage,
    PassGo,
    PayBank,
    PayEachPlayer,
    PayRent,
    PayTax,
    Repairs,
    SellBuilding,
    Trade,
    TradeSide,
    Transfer,
    Undo,
    Unmortgage,
    UseJailCard,
)
from terminal.table.screens.base import Table
from terminal.table.view import Msg
from terminal.table.words import account_label, account_msg, describe_undo, joined


def done_message(t: Table, receipt: Receipt | None) -> Msg:
    """The message after a commit (``receipt``: what the Bank recorded; None for the end of a time-limited game,
    recorded by the clock): what moved, and who owes what to whom now (the debts the commit created; the Free
    Parking pot is shown as the Bank)."""
    language = t.settings.language
    moved = ", ".join(f"{account_label(p, language)} → {account_label(q, language)} {t.fmt(a)}" for p, q, a in
                      (receipt.postings if receipt else ()))
    if receipt is None:
        return Msg("done_time_up", {}, "Play time is up: the game is over, the richest player wins.")
    what = what_happened(t, receipt)
    if receipt is not None and not isinstance(receipt.operation, Undo | DeclareBankruptcy):
        # a charge beyond the payer's cash: the done message says who owes what to whom now
        owed: dict[tuple[str, str], int] = {}
        for debt in receipt.debts_created:
            key = (debt.debtor, "bank" if debt.creditor == "pot" else debt.creditor)
            owed[key] = owed.get(key, 0) + debt.amount
        created = [Msg("did_owe", {"player": d, "amount": t.fmt(a), "creditor": account_msg(c)},
                       f"{d} owes {c} {t.fmt(a)}") for (d, c), a in owed.items()]
        if created:
            owes = joined(created)
            what = owes if what is None else Msg("did_with_debt", {"what": what, "owes": owes},
                                                 f"{what.english}; {owes.english}")
    if what is None:
        return Msg("done", {"detail": moved}, ("Done. " + moved).strip())
    return Msg("done_what", {"what": what, "detail": moved}, f"Done: {what.english}. {moved}".strip())


def what_happened(t: Table, receipt: Receipt) -> Msg | None:
    """What a committed operation moved, in words (the money moved is listed after it), or None (the money says
    it all)."""
    op = receipt.operation
    edition = t.bank.edition
    square = getattr(op, "square", None)
    deed = edition.squares[square].name if isinstance(square, int) and 0 <= square < len(edition.squares) else ""
    player = str(getattr(op, "player", ""))
    paid = sum(a for p, _, a in receipt.postings if p == player)
    got = sum(a for _, q, a in receipt.postings if q == player)
    match op:
        case Undo():
            if receipt.undone is None:
                return None
            return Msg("did_undo", {"what": describe_undo(receipt.undone, edition, plain=True)}, "Undone")
        case Buy():
            return Msg("did_buy", {"player": player, "deed": deed, "amount": t.fmt(paid)}, f"{player} buys {deed}")
        case Auction(winner=winner, price=price):
            return Msg("did_auction", {"player": winner, "deed": deed, "amount": t.fmt(price)},
                       f"{winner} wins {deed} at auction")
        case PayRent(square=rented):
            # the owner from the deed, not from the money moved: a payer with no cash moves none
            owner = t.bank.current.owner.get(rented) or next((q for p, q, _ in receipt.postings if p == player), "")
            return Msg("did_rent", {"player": player, "deed": deed, "owner": owner, "amount": t.fmt(paid)},
                       f"{player} pays the rent on {deed}")
        case Build(square=built):
            level = t.bank.current.level.get(built, 0)
            if level > t.bank.config.houses_before_hotel:
                return Msg("did_build_hotel", {"deed": deed, "amount": t.fmt(paid)}, f"Built on {deed}")
            return Msg("did_build_house", {"deed": deed, "amount": t.fmt(paid), "n": level}, f"Built on {deed}")
        case SellBuilding(square=sold, whole=whole) if not whole and (
                t.bank.current.level.get(sold, 0) == t.bank.config.houses_before_hotel):
            return Msg("did_sell_hotel", {"deed": deed, "amount": t.fmt(got),
                                          "houses": t.bank.config.houses_before_hotel},
                       f"Hotel on {deed} sold: {t.bank.config.houses_before_hotel} houses again")
        case SellBuilding():
            return Msg("did_sell_building", {"deed": deed, "amount": t.fmt(got)}, f"Sold on {deed}")
        case Mortgage():
            return Msg("did_mortgage", {"deed": deed, "amount": t.fmt(got)}, f"{deed} mortgaged")
        case Unmortgage():
            return Msg("did_unmortgage", {"deed": deed, "amount": t.fmt(paid)}, f"Mortgage on {deed} lifted")
        case Trade(a=a, b=b, a_gives=a_gives, b_gives=b_gives):
            return Msg("did_trade", {"a": a, "b": b, "a_gives": _gives_msg(t, a_gives),
                                     "b_gives": _gives_msg(t, b_gives)}, f"Trade {a} ↔ {b}")
        case GainJailCard():
            return Msg("did_gain_jail_card", {"player": player}, f"{player} keeps a Get Out of Jail Free card")
        case UseJailCard():
            return Msg("did_use_jail_card", {"player": player}, f"{player} leaves jail with the card")
        case EndGame():
            return Msg("did_end_game", {}, "the game is over: the richest player wins")
        case DeclareBankruptcy():
            # the deeds each creditor received (the cash is in the money moved, after this)
            taken: dict[str, list[Msg]] = {}
            for section, key, before, after in receipt.effects.changes:
                if section == "owner" and before == player and isinstance(key, int):
                    name = edition.squares[key].name
                    taken.setdefault(after or "bank", []).append(Msg("name", {"name": name}, name))
            if not taken:
                return Msg("did_bankruptcy", {"player": player}, f"{player} is bankrupt")
            parts = [Msg("did_deeds_to", {"taker": account_msg(taker), "deeds": joined(deeds)},
                         f"{joined(deeds).english} → {taker}") for taker, deeds in taken.items()]
            return Msg("did_bankruptcy_deeds", {"player": player, "deeds": joined(parts)},
                       f"{player} is bankrupt; deeds: {joined(parts).english}")
        case PassGo() | BankPays() | FreeParking() | CollectFromEachPlayer() if got:
            return Msg("did_receive", {"player": player, "amount": t.fmt(got)}, f"{player} receives {got}")
        case PayTax() | PayBank() | JailFine() | Repairs() | PayEachPlayer():
            return Msg("did_pay", {"player": player, "amount": t.fmt(paid)}, f"{player} pays {paid}")
        case EventMovement(card=number):
            # a card that moves tokens only: its text says what the table does (the Bank records the card alone)
            card = edition.event_card(number, t.bank.config.rules_version) if number is not None else None
            text = card.text_in(t.settings.language).rstrip(".") if card is not None else ""
            return Msg("did_event_card", {"player": player, "card": text}, f"{player}: {text}")
        case Transfer(payer=payer, payee=payee, amount=amount):
            return Msg("did_transfer", {"payer": account_msg(payer), "payee": account_msg(payee),
                                        "amount": t.fmt(amount)}, "Payment")
    return None


def _gives_msg(t: Table, side: TradeSide) -> Msg:
    """One side of a trade in words: its deeds, cash and Jail cards (or nothing)."""
    items = [Msg("name", {"name": t.deed_name(s)}, t.deed_name(s)) for s in side.squares or ()]
    if side.cash:
        cash = t.fmt(side.cash)
        items.append(Msg("name", {"name": cash}, cash))
    if side.jail_cards:
        items.append(Msg("gives_jail_cards", {"n": side.jail_cards}, "Jail card(s)"))
    return joined(items) if items else Msg("gives_nothing", {}, "nothing")
