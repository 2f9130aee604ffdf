"""A player's screen (their card tapped): the money they receive or pay, their deeds, a payment to another
player, and bankruptcy when in debt; the board adds its own (a Chance card, the taxes, a trade on the classic
board; an Event card, a Location on the electronic one: :meth:`~terminal.table.screens.base.Board.player_options`).

In debt, a player's screen offers the ways to raise money first, and no voluntary spending (RULES.md, Debts and
bankruptcy)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from terminal.bank.operations import (
    BankPays,
    CollectFromEachPlayer,
    FreeParking,
    JailFine,
    Operation,
    PassGo,
    PayBank,
    PayEachPlayer,
    Transfer,
)
from terminal.errors import GameError
from terminal.table.i18n import N_, PURPOSES
from terminal.table.screens.bankruptcy import start_bankruptcy
from terminal.table.screens.base import (
    DEED_NEXT,
    ChoiceNext,
    Common,
    DeedTap,
    KeypadNext,
    PlayerTap,
    Screen,
    Table,
    Tapped,
    inputs,
)
from terminal.table.screens.deeds import deed_with_player, look_at_deed, pick_deed
from terminal.table.view import Msg, Option, View

#: The options whose amount is typed: the operation each makes...
AMOUNT_OPS: Mapping[str, type[PayBank | BankPays | PayEachPlayer | CollectFromEachPlayer]] = {
    "pay_bank": PayBank, "bank_pays": BankPays, "pay_each_player": PayEachPlayer,
    "collect_from_each_player": CollectFromEachPlayer}
#: ...and its purpose, shown above the keypad.
AMOUNT_PURPOSES: Mapping[str, str] = {
    "pay_bank": N_("purpose_pay_bank"), "bank_pays": N_("purpose_bank_pays"),
    "pay_each_player": N_("purpose_pay_each_player"),
    "collect_from_each_player": N_("purpose_collect_from_each_player")}


def open_tapped(t: Table, tapped: Tapped) -> None:
    """A card on a screen that opens what it names: a player's card their screen, a deed's sticker the deed."""
    t.accept()
    if isinstance(tapped, PlayerTap):
        t.go(PlayerScreen(tapped.player))
    else:
        look_at_deed(t, tapped.square)


def signed(t: Table, op: Operation, player: str) -> str:
    """What ``op`` would move for ``player``, signed: "+200 €" received from the Bank, "−100 €" charged (what is
    paid and what would stay owed), or "" (refused)."""
    try:
        preview = t.preview(op)
    except GameError:
        return ""
    received = sum(a for p, q, a in preview.postings if q == player and p == "bank")
    if received:
        return "+" + t.fmt(received)
    charged = sum(a for p, _, a in preview.postings if p == player) + sum(
        d.amount for d in preview.debts_created if d.debtor == player)
    return "−" + t.fmt(charged) if charged else ""


def amount_option(t: Table, option_id: str, label: Msg, op: Operation, player: str) -> Option:
    """An option that commits: its ``label`` names the amount it moves for ``player``."""
    amount = signed(t, op, player)
    if not amount:
        return Option(option_id, label)
    return Option(option_id, Msg("opt_amount", {"what": label, "amount": amount}, f"{label.english} {amount}"))


def pass_go(t: Table, player: str) -> None:
    """The GO salary: the button names it and commits; a second one within the window is confirmed twice."""
    op, purpose = PassGo(player), Msg("purpose_pass_go", {}, "GO salary")
    last = t.last_go(player)
    if last is not None and t.now() - last < t.settings.go_repeat_window_s:
        seconds = int(t.now() - last)
        warning = Msg("second_go", {"player": player, "seconds": seconds},
                      f"{player} already collected GO salary {seconds} s ago. Confirm again?")
        return t.ask_confirm(op, purpose, confirm_by=(player,), warning=warning, double=True)
    t.commit_or_confirm(op, purpose, (player,))


@dataclass
class PlayerScreen(Screen):
    """``player``'s screen: what they do now."""

    name: ClassVar[str] = "player"
    takes: ClassVar[frozenset[str]] = inputs("player deed option event")
    needs: ClassVar[str] = N_("part_card_choice")
    goes_to: ClassVar[frozenset[str]] = inputs("player bankruptcy event location " + DEED_NEXT)
    long: ClassVar[bool] = True  # a menu to read, as lists are (a deed tapped and not followed keeps the short one)

    player: str

    def on_card(self, t: Table, tapped: Tapped) -> None:
        """Another player's card opens theirs; a deed's sticker takes the deed into this player's context."""
        t.accept()
        if isinstance(tapped, DeedTap):
            return deed_with_player(t, tapped.square, self.player)
        t.go(PlayerScreen(tapped.player))

    def on_option(self, t: Table, option_id: str) -> None:
        player = self.player
        if t.board.player_chosen(t, player, option_id):
            return None
        if option_id == "pass_go":
            return pass_go(t, player)
        if option_id == "jail_fine":  # the button names the amount: it commits
            return t.commit_or_confirm(JailFine(player), Msg("purpose_jail_fine", {}, "Jail fine"), (player,))
        if option_id == "free_parking":
            return t.ask_confirm(FreeParking(player), Msg("purpose_free_parking", {}, "Free Parking"),
                                 confirm_by=(player,))
        if option_id in AMOUNT_OPS:
            purpose = Msg(AMOUNT_PURPOSES[option_id], {}, option_id.replace("_", " "))
            return t.ask_number(Msg("keypad_amount", {}, "Amount"), AmountOp(option_id, player), player=player,
                                purpose=purpose)
        if option_id == "transfer":
            return t.ask_number(Msg("keypad_amount", {}, "Amount"), TransferAmount(player), player=player,
                                purpose=Msg("purpose_transfer", {}, "Payment"))
        if option_id == "my_deeds":
            return pick_deed(t, player, mine=True)
        if option_id == "any_deed":
            return pick_deed(t, player)
        if option_id == "bankruptcy":
            return start_bankruptcy(t, player)

    def view(self, t: Table, base: Common) -> View:
        return View("player", Msg("player_context", {"player": self.player}, f"{self.player}: what now?"),
                    player=self.player, options=tuple(t.board.player_options(t, self.player)), **base)


# -- what a keypad or a list opened from a player's screen does next ------------------------------------------------
@dataclass(frozen=True)
class AmountOp(KeypadNext):
    """An amount for ``op`` (``pay_bank``, ``bank_pays``, ``pay_each_player``, ``collect_from_each_player``: a key of
    :data:`AMOUNT_OPS`) by ``player``."""

    op: str
    player: str

    def entered(self, t: Table, keypad: Any, value: int) -> None:
        record = AMOUNT_OPS[self.op]
        purpose = keypad.purpose or Msg(PURPOSES[self.op], {}, self.op)
        t.ask_confirm(record(self.player, value), purpose, confirm_by=(self.player,))


@dataclass(frozen=True)
class TransferAmount(KeypadNext):
    """The amount ``player`` pays someone; the payee is asked next (the Bank on the list, or a player's card)."""

    player: str

    def entered(self, t: Table, keypad: Any, value: int) -> None:
        amount = t.fmt(value)
        t.ask_choice(Msg("choose_payee_amount", {"player": self.player, "amount": amount},
                         f"{self.player} pays {amount}: to whom?"),
                     [Option("bank", Msg("opt_bank", {}, "The Bank"))], Payee(self.player, value))


def pay_to(t: Table, player: str, amount: int, payee: str) -> None:
    """``player`` pays ``amount`` to ``payee`` (confirmed; refused to oneself)."""
    if payee == player:
        return t.refuse(Msg("pay_self", {"player": player}, f"{player} cannot pay themselves."))
    t.ask_confirm(Transfer(player, payee, amount), Msg("purpose_transfer", {}, "Payment"), confirm_by=(player,))


@dataclass(frozen=True)
class Payee(ChoiceNext):
    """Whom ``player`` pays ``amount``: the Bank (an option) or a player (their card)."""

    needs: ClassVar[str] = N_("part_card_payee")
    player: str
    amount: int

    def chosen(self, t: Table, option_id: str) -> None:
        pay_to(t, self.player, self.amount, "bank")

    def card(self, t: Table, tapped: Tapped) -> bool:
        if not isinstance(tapped, PlayerTap):
            return False
        t.accept()
        pay_to(t, self.player, self.amount, tapped.player)
        return True
