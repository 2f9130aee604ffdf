"""What the parts of the state machine share: its settings, the protocols of what it is given, and
:class:`TerminalParts`, the declaration of what the two mixins (:mod:`terminal.table.flows`,
:mod:`terminal.table.view_builder`) use of :class:`terminal.table.machine.Terminal`.

Terminal is made of the mixins (``class Terminal(TableFlows, ViewBuilder)``); each mixin subclasses
:class:`TerminalParts`, so what it reads of Terminal's state and which of its helpers it calls is declared
once, with types, and checked on both sides: the mixins' bodies against these declarations, and Terminal's
definitions against them (an incompatible override is a type error). The helpers are declared for the type
checker only: at run time TerminalParts is empty and a helper Terminal lacked would fail loudly.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from cards.registry import Enrolment, Role
from terminal.bank.game import Game
from terminal.bank.types import Effects
from terminal.errors import GameError
from terminal.table.dialogs import ChoiceNext, Dialog, KeypadNext, RentAsk
from terminal.table.dialogs import Gives as Gives  # re-exported (it lived here)
from terminal.table.i18n import N_
from terminal.table.view import DeedView, Msg, Option, View

D = TypeVar("D")


@dataclass
class TerminalSettings:
    """Tunable behaviour. Times in seconds of the injected clock.

    - ``timeout_s``: a pending step goes back to idle after this long without input (10).
    - ``long_timeout_s``: the same for auctions, trades and wizards (60).
    - ``go_repeat_window_s``: a second GO salary for the same player within this window needs a second
      confirmation (120).
    - ``confirm_min_delay_s``: a confirming card tap is ignored if it comes sooner than this after the
      confirmation appeared (0.5): a quick double tap never confirms by accident.
    - ``retap_guard_s``: the card that committed an operation is ignored for this long afterwards (1.5).
    - ``banker_protection``: banker functions need the banker card or ``banker_pin`` (True).
    - ``banker_pin``: None (banker card only), a :class:`BankerPin` check (what the host configures), or the PIN
      itself as digits (tests and scenes only; compared in constant time).
    - ``language``: ``fr``, ``en`` or ``uk``.
    """

    timeout_s: float = 10.0
    long_timeout_s: float = 60.0
    go_repeat_window_s: float = 120.0
    confirm_min_delay_s: float = 0.5
    retap_guard_s: float = 1.5
    banker_protection: bool = True
    banker_pin: str | BankerPin | None = None
    language: str = "fr"
    display: str = "plain"


@dataclass(frozen=True)
class Damage:
    """A game the terminal cannot play on (what the host found at start-up, or what stopped payments during
    play): ``problem``, one line naming it and the fix; ``backup``, the name of the newest good backup the
    host can restore (``Terminal(restore=...)``), or None."""

    problem: str
    backup: str | None = None


class BankerPin(Protocol):
    """A banker PIN check kept by the host (``host_ui.shell.pin.PinCheck``: a salted hash, slowing down wrong
    tries). ``matches(typed)``: whether the digits typed are the PIN (False, without a look, during a wait);
    ``wait_s()``: seconds (>= 0) before the next try is looked at."""

    def matches(self, typed: str) -> bool: ...

    def wait_s(self) -> float: ...


def owes_of(effects: Effects) -> tuple[tuple[str, str, int], ...]:
    """The debts an operation would create or raise (from its preview): ``(debtor, creditor, amount more
    owed)``."""
    lists = [c for c in effects.changes if c[0] == "debts"]
    if not lists:
        return ()

    def totals(debts: list[dict[str, Any]]) -> dict[tuple[str, str], int]:
        out: dict[tuple[str, str], int] = {}
        for debt in debts:
            key = (debt["debtor"], debt["creditor"])
            out[key] = out.get(key, 0) + debt["amount"]
        return out
    before, after = totals(lists[0][2]), totals(lists[-1][3])
    return tuple((d, c, a - before.get((d, c), 0)) for (d, c), a in after.items() if a > before.get((d, c), 0))


def joined(items: list[Msg]) -> Msg:
    """A list of texts, each translated in the reader's language, joined with commas."""
    if len(items) == 1:
        return items[0]
    rest = joined(items[1:])
    return Msg("joined_list", {"first": items[0], "rest": rest}, f"{items[0].english}, {rest.english}")


def account_msg(account: str) -> Msg:
    """An account's name: the Bank and the Free Parking pot in the reader's language, a player as named."""
    names = {"bank": (N_("ui_bank_name"), "Bank"), "pot": (N_("ui_pot_name"), "Free Parking")}
    if account in names:
        code, english = names[account]
        return Msg(code, {}, english)
    return Msg("name", {"name": account}, account)


class CardLookup(Protocol):
    """The card registry as the machine uses it (``cards.registry.CardRegistry``)."""

    def lookup(self, uid: str, /) -> Role | None: ...


class Sounds(Protocol):
    """The beeper as the machine uses it (a ``hal.interfaces.Beeper``); ``muted`` is used when it has one.
    What ``play`` returns (a Beeper says whether it took the pattern) is not used."""

    def play(self, pattern: str, /) -> object: ...


class GameFactory(Protocol):
    """The new-game wizard's factory: ``(edition, players, mode, rules, player_cards, minutes=None) -> Game``;
    ``minutes``: the length of a time-limited game, in minutes of play (``Game.create(length_minutes=...)``)."""

    def __call__(self, edition: str, players: list[str], mode: str, rules: dict[str, Any],
                 player_cards: dict[str, str], /, minutes: int | None = None) -> Game: ...


class TerminalParts:
    """What the mixins use of :class:`terminal.table.machine.Terminal`: its state (set by its ``__init__``)
    and the helpers it defines. See the module docstring."""

    game: Game | None
    beeper: Sounds | None
    clock: Callable[[], float]
    settings: TerminalSettings
    game_factory: GameFactory | None
    enrolment_factory: Callable[[], Enrolment] | None
    reader_ok: bool
    dialog: Dialog
    message: Msg | None
    message_kind: str
    screen_version: int
    banker_unlocked: bool
    _after_banker: str | None
    damage: Damage | None
    restore: Callable[[], Game] | None
    _last_go: dict[str, float]
    _view: View | None

    if TYPE_CHECKING:  # defined by Terminal
        @property
        def screen(self) -> str: ...
        @property
        def _game(self) -> Game: ...
        def _changed(self) -> None: ...
        def _say(self, msg: Msg, kind: str = "info") -> None: ...
        def _beep(self, pattern: str) -> None: ...
        def _accept(self) -> None: ...
        def _refuse(self, msg: Msg) -> None: ...
        def _refuse_error(self, error: GameError, money: tuple[str, ...] = ()) -> None: ...
        def _refuse_needs(self) -> None: ...
        def _go(self, dialog: Dialog) -> None: ...
        def _back_to(self, dialog: Dialog) -> None: ...
        def _go_idle(self) -> None: ...
        def _at(self, kind: type[D]) -> D: ...
        def _fmt(self, amount: int) -> str: ...
        def _deed_name(self, square: int) -> str: ...
        def _in_debt(self, player: str) -> bool: ...
        def _ask_number(self, label: Msg, then: KeypadNext, kind: str = "amount", *, player: str,
                        purpose: Msg | None = None, square: int | None = None, back: Dialog | None = None) -> None: ...
        def _ask_confirm(self, op: Mapping[str, Any], purpose: Msg, confirm_by: tuple[str, ...] = (),
                         warning: Msg | None = None, double: bool = False, card_only: bool = False,
                         rent: RentAsk | None = None, effects: Effects | None = None,
                         back: Dialog | None = None) -> None: ...
        def _choose(self, title: Msg, options: list[Option], then: ChoiceNext) -> None: ...
        def _choose_idle(self, option_id: str) -> None: ...
        def _digit_keypad(self, char: str) -> None: ...
        def _pin_wait(self) -> int: ...
        def _deed_view(self, square: int, payer: str | None = None) -> DeedView: ...
        def _label(self, account: str) -> str: ...
        def _rent_reason(self, square: int, owner: str, dice: int | None, card: str | None) -> Msg | None: ...
