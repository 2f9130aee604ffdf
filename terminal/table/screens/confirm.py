"""A confirmation: an operation shown with everything it moves (who pays whom, how much, why, what stays owed)
before the touch that commits it. Opened by ``Table.ask_confirm``, which checks it by a preview first; OK or a
card of ``confirm_by`` commits it (every card of a trade's two players), cancel drops it."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import ClassVar

from terminal.bank.door import Preview
from terminal.bank.operations import DeclareBankruptcy, EndGame, Operation, PayRent, PayTax, Undo, UseJailCard
from terminal.bank.types import Debt, Posting
from terminal.table.i18n import N_, OPTIONS
from terminal.table.screens.bankruptcy import bankruptcy_lines
from terminal.table.screens.base import AfterCommit, Common, PlayerTap, RentAsk, Screen, Table, Tapped, inputs
from terminal.table.screens.decks import has_card
from terminal.table.screens.deeds import rent
from terminal.table.view import Msg, Option, Pending, View
from terminal.table.words import account_msg, joined

#: Confirmations with a long text to read, which take the long timeout wherever they are opened: a
#: bankruptcy's (what each creditor receives, the debts it ends) and an undo's (what is undone).
LONG_CONFIRMS: tuple[type[Operation], ...] = (DeclareBankruptcy, Undo)
#: The rent cards' options of a rent's confirmation, and the card each stands for.
RENT_CARDS: Mapping[str, str] = {"rent_railroad_card": "nearest_railroad", "rent_utility_card": "nearest_utility"}


def owes_warning(t: Table, owes: tuple[Debt, ...], postings: tuple[Posting, ...]) -> Msg:
    """"Chloé pays 915 €, still owes 485 € to Anne" (each debtor, each creditor)."""
    lines = []
    for debtor in dict.fromkeys(d.debtor for d in owes):
        paid = sum(a for p, _, a in postings if p == debtor)
        owed = joined([Msg("owes_to", {"amount": t.fmt(d.amount), "creditor": account_msg(d.creditor)},
                           f"{t.fmt(d.amount)} → {d.creditor}") for d in owes if d.debtor == debtor])
        lines.append(Msg("pays_owes", {"player": debtor, "pays": t.fmt(paid), "owes": owed},
                         f"{debtor} pays {t.fmt(paid)}, owes {owed.english}"))
    if len(lines) == 1:
        return lines[0]
    return Msg("pays_owes_more", {"first": lines[0], "n": len(lines) - 1}, "; ".join(m.english for m in lines))


def pending_of(t: Table, preview: Preview, purpose: Msg, confirm_by: tuple[str, ...] = (),
               warning: Msg | None = None) -> Pending:
    """What the confirmation of ``preview`` shows: the postings, the debts it would create (a charge beyond the
    payer's cash says what is paid and what stays owed) and what else moves (a bankruptcy's deeds, cards and
    ended debts; why an amount is what it is)."""
    op = preview.operation
    owes = () if isinstance(op, DeclareBankruptcy) else preview.debts_created
    if owes and warning is None:
        warning = owes_warning(t, owes, preview.postings)
    details = (bankruptcy_lines(t, op, preview.effects) if isinstance(op, DeclareBankruptcy)
               else t.board.reasons(t, preview))
    if isinstance(op, EndGame):  # no money moves: what the end does, rather than a bare "—"
        details = (Msg("why_end_game", {}, "The game ends now: the richest player (cash and deeds) wins."),)
    elif isinstance(op, UseJailCard) and op.deck:
        details = (Msg("why_use_jail_card", {"player": op.player, "deck_code": OPTIONS[op.deck]},
                       f"{op.player} leaves jail and hands back the card (no money moves)"),)
    return Pending(preview=preview, purpose=purpose, confirm_by=confirm_by, warning=warning, owes=owes,
                   details=details)


@dataclass
class Confirm(Screen):
    """A pending operation. ``double``: a second OK or tap is needed (second GO salary); ``card_only``: every
    party taps their card (``cards``: the players who have); ``rent``: set for a rent; ``back``: the trade
    or auction it closes (a timeout goes back to it instead of dropping it)."""

    name: ClassVar[str] = "confirm"
    takes: ClassVar[frozenset[str]] = inputs("player ok option")
    needs: ClassVar[str] = N_("part_card_ok")
    goes_to: ClassVar[frozenset[str]] = inputs("confirm trade auction")

    pending: Pending
    shown_at: float
    double: bool = False
    card_only: bool = False
    cards: set[str] = field(default_factory=set)
    rent: RentAsk | None = None
    back: Screen | None = None
    then: AfterCommit | None = None

    def _again(self, t: Table) -> None:
        """The first of two confirmations (a second GO salary): a new step, with its own screen version."""
        t.beep("accepted")
        t.go(replace(self, double=False, shown_at=t.now()))
        t.say(Msg("confirm_again", {}, "Tap again to confirm"))

    def on_ok(self, t: Table) -> None:
        if self.card_only:
            return t.refuse_needs()
        if self.double:
            return self._again(t)
        t.commit(self.pending.preview, then=self.then)

    def on_card(self, t: Table, tapped: Tapped) -> None:
        pending = self.pending
        if not isinstance(tapped, PlayerTap) or tapped.player not in pending.confirm_by:
            return t.refuse_needs()
        if t.now() - self.shown_at < t.settings.confirm_min_delay_s:
            return None  # the same hand tapping twice in a row: not a confirmation
        if self.card_only:
            self.cards.add(tapped.player)
            self.pending = replace(pending, confirmed_by=tuple(sorted(self.cards)))
            if self.cards >= set(pending.confirm_by):
                return t.commit(pending.preview, tapped.uid, then=self.then)
            return t.accept()
        if self.double:
            return self._again(t)
        t.commit(pending.preview, tapped.uid, then=self.then)

    def card_counted(self, player: str) -> None:
        """``player``'s card counts as theirs on a confirmation by every party's card (the card that opened it,
        on a trade's screen)."""
        if self.card_only and player in self.pending.confirm_by:
            self.cards.add(player)
            self.pending = replace(self.pending, confirmed_by=tuple(sorted(self.cards)))

    def on_option(self, t: Table, option_id: str) -> None:
        """A rent card's rule (nearest railroad or utility: twice the rent, ten times the dice), or its removal:
        the rent asked again."""
        asked = self.rent
        if asked is None or option_id not in RENT_CARDS:  # the rent options are shown only for a rent
            return t.refuse_needs()
        card = None if asked.card else RENT_CARDS[option_id]
        dice = asked.dice if option_id == "rent_utility_card" else None
        rent(t, asked.player, asked.square, dice=dice, card=card, now=False)

    def need(self, t: Table) -> Msg:
        by = self.pending.confirm_by
        if by and self.card_only:
            names = " + ".join(by)
            return Msg("need_cards", {"players": names}, f"the cards of {names}")
        if by:
            return Msg("need_card_or_ok", {"player": by[0]}, f"{by[0]}'s card or OK")
        return super().need(t)

    def waits_long(self) -> bool:
        """The long timeout inside a trade or an auction, for the long texts (:data:`LONG_CONFIRMS`) and for
        every confirmation that shows money (what is paid, what stays owed: read before it is confirmed)."""
        pending = self.pending
        return (self.back is not None or isinstance(pending.op, LONG_CONFIRMS) or bool(pending.postings)
                or bool(pending.owes))

    def kept(self) -> Screen | None:
        return self.back.kept() if self.back is not None else None

    def view(self, t: Table, base: Common) -> View:
        pending = self.pending
        options = []
        op = pending.op
        if isinstance(op, PayRent):
            kind = t.bank.edition.squares[op.square].kind
            if kind == "railroad" and has_card(t.bank.edition, "nearest_railroad"):
                options.append(Option("rent_railroad_card", Msg("opt_rent_railroad_card", {}, "Card: nearest railroad"),
                                      selected=op.card == "nearest_railroad"))
            if kind == "utility" and has_card(t.bank.edition, "nearest_utility"):
                options.append(Option("rent_utility_card", Msg("opt_rent_utility_card", {}, "Card: nearest utility"),
                                      selected=op.card == "nearest_utility"))
        square = getattr(op, "square", None)
        about_deed = isinstance(square, int) and not isinstance(op, PayTax) and t.board.confirm_shows_deed(pending)
        shown = t.board.deed_view(t, square) if about_deed and isinstance(square, int) else None
        return View("confirm", Msg("confirm_title", {}, "Confirm?"), pending=pending,
                    player=(pending.confirm_by or (None,))[0], deed=shown, options=tuple(options), **base)
