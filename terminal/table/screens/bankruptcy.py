"""Bankruptcy (RULES.md, Debts and bankruptcy): only for a player who owes more than they could still raise. To a
player creditor who receives mortgaged deeds, that creditor first taps their card and chooses which mortgages to
lift at once; the confirmation lists what each creditor receives and the debts it ends."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from terminal.bank.money import ten_percent
from terminal.bank.operations import DeclareBankruptcy
from terminal.bank.types import Effects
from terminal.errors import GameError
from terminal.table.i18n import N_
from terminal.table.screens.base import Common, PlayerTap, Screen, Table, Tapped, inputs
from terminal.table.view import Msg, Option, View
from terminal.table.words import account_msg, joined


def _purpose(player: str) -> Msg:
    return Msg("purpose_declare_bankruptcy", {"player": player}, f"{player}'s bankruptcy")


def start_bankruptcy(t: Table, player: str) -> None:
    """``player``'s bankruptcy. One the rules refuse (no debt, or less owed than could still be raised) is refused
    at once, before anyone chooses anything: the Bank's dry run of it says why."""
    op = DeclareBankruptcy(player)
    try:
        preview = t.preview(op)
    except GameError as exc:
        return t.refuse_error(exc, money=("owed", "raisable"))
    state = t.bank.current
    debts = state.debts_of(player)
    lift_options: list[int] = []
    creditor = debts[0].creditor if debts else "bank"
    if creditor not in ("bank", "pot"):
        lift_options = [s for s in state.deeds_of(player) if state.mortgaged.get(s)]
    if not lift_options:
        return t.ask_confirm(op, _purpose(player), confirm_by=(player,), preview=preview)
    t.go(BankruptcyScreen(player=player, creditor=creditor, lift_options=lift_options))


def bankruptcy_lines(t: Table, op: DeclareBankruptcy, effects: Effects) -> tuple[Msg, ...]:
    """What a bankruptcy's confirmation lists besides the money: per creditor, the deeds (mortgaged ones with
    the 10 % due, or lifted at once), the Jail cards, the buildings sold back to the Bank, and the debts it
    ends."""
    debtor = op.player
    edition = t.bank.edition
    state = t.bank.current
    rounding = t.bank.config.rounding
    lifted = set(op.lift_now or ())
    received: dict[str, list[Msg]] = {}
    sold: list[Msg] = []
    ended: list[Msg] = []
    for change in effects.changes:
        section, key, before, after = change
        if section == "owner" and before == debtor:
            taker = after if after is not None else "bank"
            deed = edition.squares[key]
            item = Msg("name", {"name": deed.name}, deed.name)
            if state.mortgaged.get(key) and taker != "bank":
                interest = ten_percent(deed.mortgage, rounding)
                code = N_("bk_deed_lifted") if key in lifted else N_("bk_deed_mortgaged")
                amount = interest + deed.mortgage if key in lifted else interest
                item = Msg(code, {"deed": deed.name, "amount": t.fmt(amount)}, deed.name)
            received.setdefault(taker, []).append(item)
        elif section == "jail_card" and before == debtor:
            taker = after if after is not None else "bank"
            received.setdefault(taker, []).append(Msg("bk_jail_card", {}, "a Get Out of Jail Free card"))
        elif section == "level" and isinstance(before, int) and isinstance(after, int) and before > after:
            deed = edition.squares[key]
            if before > edition.houses_before_hotel:
                sold.append(Msg("bk_hotel_on", {"deed": deed.name}, deed.name))
            else:
                sold.append(Msg("bk_houses_on", {"n": before - after, "deed": deed.name}, deed.name))
        elif section == "debts" and not ended:
            for debt in before:
                if debt["debtor"] == debtor:
                    ended.append(Msg("bk_debt_ends", {"creditor": account_msg(str(debt["creditor"])),
                                                      "amount": t.fmt(int(debt["amount"]))},
                                     f"Debt ended: {debt['amount']} to {debt['creditor']}"))
    lines: list[Msg] = []
    for taker, items in received.items():
        lines.append(Msg("bk_receives", {"creditor": account_msg(taker), "items": joined(items)}, f"{taker} receives"))
    if sold:
        lines.append(Msg("bk_sold_back", {"items": joined(sold)}, "Sold back to the Bank"))
    return tuple(lines + ended)


@dataclass
class BankruptcyScreen(Screen):
    """A bankruptcy to a player who receives mortgaged deeds: the creditor taps their card (``decided``), then
    chooses which mortgages to lift at once."""

    name: ClassVar[str] = "bankruptcy"
    takes: ClassVar[frozenset[str]] = inputs("player option ok")
    needs: ClassVar[str] = N_("part_card_choice")
    goes_to: ClassVar[frozenset[str]] = inputs("bankruptcy confirm")
    long: ClassVar[bool] = True

    player: str
    creditor: str
    lift_options: list[int]
    lift_now: list[int] = field(default_factory=list)
    decided: bool = False

    def on_option(self, t: Table, option_id: str) -> None:
        if not self.decided:  # the options are disabled until the creditor's card: kept for the F keys
            return t.refuse_needs()
        if option_id == "done":
            return self.on_ok(t)
        square = int(option_id.split(":")[1])
        lift = self.lift_now
        lift.remove(square) if square in lift else lift.append(square)
        t.changed()

    def on_card(self, t: Table, tapped: Tapped) -> None:
        """The creditor's card: the choice of lifting mortgages at once is theirs."""
        if not isinstance(tapped, PlayerTap) or tapped.player != self.creditor or self.decided:
            return t.refuse_needs()
        self.decided = True
        t.accept()

    def on_ok(self, t: Table) -> None:
        if not self.decided:
            return t.refuse_needs()
        op = DeclareBankruptcy(self.player, tuple(sorted(self.lift_now)) or None)
        try:
            preview = t.preview(op)
        except GameError as exc:
            return t.refuse_error(exc, money=("owed", "raisable"))
        t.ask_confirm(op, _purpose(self.player), confirm_by=(self.player,), preview=preview)

    def need(self, t: Table) -> Msg:
        if not self.decided:
            return Msg("need_creditor_card", {"player": self.creditor}, f"{self.creditor}'s card")
        return super().need(t)

    def view(self, t: Table, base: Common) -> View:
        options = [Option(f"lift:{s}", Msg("opt_lift_now", {"deed": t.deed_name(s)}, "Lift now"),
                          selected=s in self.lift_now, enabled=self.decided) for s in self.lift_options]
        options.append(Option("done", Msg("opt_done", {}, "Done"), enabled=self.decided))
        player, creditor = self.player, self.creditor
        title = (Msg("bankruptcy_creditor_chooses", {"player": player, "creditor": creditor},
                     f"{player} goes bankrupt: {creditor} chooses what to lift now") if self.decided else
                 Msg("bankruptcy_creditor_taps", {"player": player, "creditor": creditor},
                     f"{player} goes bankrupt: {creditor}, tap your card"))
        return View("bankruptcy", title, player=creditor if self.decided else player, options=tuple(options),
                    extra={"debtor": player, "creditor": creditor, "decided": self.decided}, **base)
