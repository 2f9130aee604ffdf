"""The view model: what the state machine asks the screen to show. Plain frozen data, no pygame.

Texts are :class:`Msg` (a message code, its parameters and an English fallback) so the screen can show them
in French, English or Ukrainian (:mod:`terminal.table.i18n`). Amounts are ints of the edition's unit; the screen
formats them with :func:`terminal.bank.money.format_amount` (digit grouping by the screen's language, from
Babel's CLDR data).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from terminal.bank.door import Preview
from terminal.bank.operations import Operation
from terminal.bank.types import Debt, Posting


@dataclass(frozen=True)
class Msg:
    """A translatable text: ``code`` (a key of :mod:`terminal.table.i18n`), ``params`` and the English text.
    ``exact``: the English text is the exact message of a refusal (with every name in it) and is shown as
    it is in English; otherwise the catalog's English is used. A param may itself be a Msg (translated in
    the same language)."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    english: str = ""
    exact: bool = False

    def __str__(self) -> str:
        return self.english or self.code


@dataclass(frozen=True)
class Option:
    """A choice on screen (also reachable by a function key). ``id`` is what :meth:`Terminal.choose` takes;
    ``why``: why a greyed-out option cannot apply now (the rule's message, shown when it is chosen anyway)."""

    id: str
    label: Msg
    enabled: bool = True
    selected: bool = False
    why: Msg | None = None


@dataclass(frozen=True)
class PlayerLine:
    """One player on the balances panel: ``cash`` (int), ``debts`` [(creditor, amount)], ``bankrupt``,
    ``jail_cards``: the Get Out of Jail Free cards they hold (0 to 2)."""

    name: str
    seat: int
    cash: int
    worth: int
    debts: tuple[tuple[str, int], ...] = ()
    bankrupt: bool = False
    jail_cards: int = 0


@dataclass(frozen=True)
class DeedView:
    """A title deed as drawn on screen: ``level`` 0-4 houses or 5 = hotel (on the electronic board, the rent
    level 1-5, 0 while the Bank holds it); ``rent`` the rent due now (None for utilities, whose rent depends on the
    dice, or when no rent is due); ``rents`` the printed table (on the electronic board, the five rents of the
    levels); ``name`` the edition's name (a :class:`cards.editions.Localized`: the screen shows it in its
    language). A board without mortgages or houses gives 0 for ``mortgage_value`` and ``house_cost``."""

    square: int
    name: str
    kind: str
    group: str
    price: int
    mortgage_value: int
    house_cost: int
    rents: tuple[int, ...]
    owner: str | None
    level: int
    mortgaged: bool
    rent: int | None


@dataclass(frozen=True)
class Pending:
    """An operation waiting for confirmation: who pays whom how much and why, before it commits.
    ``preview``: the Bank's computation of it (:class:`terminal.bank.door.Preview`: committed as it is when
    confirmed, unless the game moved meanwhile); ``warning``: shown in red (a second GO salary, or what stays
    owed); ``owes``: the debts it would create; ``details``: lines saying what else moves (a bankruptcy's deeds,
    cards and ended debts, why an amount is what it is)."""

    preview: Preview
    purpose: Msg
    confirm_by: tuple[str, ...] = ()
    confirmed_by: tuple[str, ...] = ()
    warning: Msg | None = None
    owes: tuple[Debt, ...] = ()
    details: tuple[Msg, ...] = ()

    @property
    def op(self) -> Operation:
        """The operation (a record of :mod:`terminal.bank.operations`)."""
        return self.preview.operation

    @property
    def postings(self) -> tuple[Posting, ...]:
        """``(payer, payee, amount)`` as the Bank will record them, in order."""
        return self.preview.postings


@dataclass(frozen=True)
class View:
    """Everything one screen shows. ``screen`` names the screen and its layout (a key of
    :data:`terminal.table.screens.SCREENS`); ``message`` is the last feedback with its ``message_kind`` (info,
    success, error); ``bank_houses`` and ``bank_hotels``: the Bank's stock of buildings (None without a game, and
    on a board without buildings); ``pot``: the Free Parking pot (None without the jackpot rule); ``time_left``: the
    play time left of a time-limited game and what happens at its end, in words (None in other games)."""

    screen: str
    title: Msg
    players: tuple[PlayerLine, ...] = ()
    player: str | None = None
    deed: DeedView | None = None
    options: tuple[Option, ...] = ()
    keypad: str | None = None
    keypad_label: Msg | None = None
    pending: Pending | None = None
    message: Msg | None = None
    message_kind: str = "info"
    bank_houses: int | None = None
    bank_hotels: int | None = None
    pot: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    reader_ok: bool = True
    edition: str = ""
    language: str = "fr"
    game_over: bool = False
    time_left: Msg | None = None
    #: Counts the screens shown: an input carries the version of the screen it was aimed at.
    screen_version: int = 0
