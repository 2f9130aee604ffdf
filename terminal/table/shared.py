"""What the parts of the state machine share: its settings, the context a screen carries, and
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
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, Unpack

from cards.registry import Enrolment, Role
from terminal.bank.auction import DeedAuction
from terminal.bank.game import Game
from terminal.errors import GameError
from terminal.table.view import Msg, Option, Pending, View


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
    - ``language``: ``fr``, ``en`` or ``uk``.
    """

    timeout_s: float = 10.0
    long_timeout_s: float = 60.0
    go_repeat_window_s: float = 120.0
    confirm_min_delay_s: float = 0.5
    retap_guard_s: float = 1.5
    banker_protection: bool = True
    banker_pin: str | None = None
    language: str = "fr"
    display: str = "plain"


#: What a card tap does on a screen: ``(kind, who, uid)``, ``kind`` ``"player"`` (``who`` the player's name)
#: or ``"deed"`` (``who`` the square). ``who`` is loose until the machine's inputs are typed records.
CardHandler = Callable[[str, Any, str], None]


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


class Gives(TypedDict):
    """What one side of a trade gives: cash, deeds (squares) and Get Out of Jail Free cards."""

    cash: int
    squares: list[int]
    jail_cards: int


class Ctx(TypedDict, total=False):
    """What the current screen carries (``Terminal.ctx``), by screen. A key is there only on the screens
    that set it."""

    # keypad and PIN: the digits typed; the keypad's label, what OK does with the value, what the number is
    # (amount, dice, bid), the screen to go back to, and what it is for (shown above the keypad)
    buffer: str
    label: Msg
    on_enter: Callable[[int], None]
    kind: str
    back: tuple[str, Ctx]
    purpose: Msg | None
    # the deed and player contexts (also the keypad's subject, and the bankrupt player)
    player: str
    square: int
    # confirm: the pending operation, when it appeared, whether it needs a second tap or every party's card,
    # the cards tapped so far; for a rent, what it was asked with (to ask it again with a card's rule)
    pending: Pending
    shown_at: float
    double: bool
    card_only: bool
    cards: set[str]
    rent_player: str
    rent_square: int
    rent_dice: int | None
    rent_card: str | None
    # choose: a list of options, and what a choice or a card tap does
    title: Msg
    options: list[Option]
    on_choose: Callable[[str], None]
    on_card: CardHandler | None
    # auction
    auction: DeedAuction
    # trade (players a and b; lift_now also in bankruptcy)
    a: str
    b: str
    gives: dict[str, Gives]
    lift_now: list[int]
    # bankruptcy
    lift_options: list[int]
    # new-game wizard
    edition: str
    mode: str
    rules: dict[str, Any]
    seats: list[tuple[str, str]]
    editions: list[str]
    minutes: int
    # enrolment wizard
    enrolment: Enrolment


class TerminalParts:
    """What the mixins use of :class:`terminal.table.machine.Terminal`: its state (set by its ``__init__``)
    and the helpers it defines. See the module docstring."""

    game: Game | None
    beeper: Sounds | None
    settings: TerminalSettings
    game_factory: GameFactory | None
    enrolment_factory: Callable[[], Enrolment] | None
    reader_ok: bool
    screen: str
    ctx: Ctx
    message: Msg | None
    message_kind: str
    banker_unlocked: bool
    _after_banker: Callable[[], None] | None
    _last_go: dict[str, float]
    _view: View | None

    if TYPE_CHECKING:  # defined by Terminal
        @property
        def _game(self) -> Game: ...
        def _changed(self) -> None: ...
        def _say(self, msg: Msg, kind: str = "info") -> None: ...
        def _beep(self, pattern: str) -> None: ...
        def _accept(self) -> None: ...
        def _refuse(self, msg: Msg) -> None: ...
        def _refuse_error(self, error: GameError, money: tuple[str, ...] = ()) -> None: ...
        def _wrong_card_code(self, code: str) -> None: ...
        def _go(self, screen: str, **ctx: Unpack[Ctx]) -> None: ...
        def _go_idle(self) -> None: ...
        def _fmt(self, amount: int) -> str: ...
        def _deed_name(self, square: int) -> str: ...
        def _in_debt(self, player: str) -> bool: ...
        def _ask_number(self, label: Msg, on_enter: Callable[[int], None], kind: str = "amount", *, player: str,
                        purpose: Msg | None = None, square: int | None = None) -> None: ...
        def _ask_confirm(self, op: Mapping[str, Any], purpose: Msg, confirm_by: tuple[str, ...] = (),
                         warning: Msg | None = None, double: bool = False, card_only: bool = False) -> None: ...
        def _choose(self, title: Msg, options: list[Option], on_choose: Callable[[str], None],
                    on_card: CardHandler | None = None) -> None: ...
        def _card_idle(self, kind: str, who: Any, uid: str) -> None: ...
        def _choose_idle(self, option_id: str) -> None: ...
