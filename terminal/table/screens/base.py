"""What every screen is made of, and what a screen may ask of the machine.

- :class:`Screen`: the base of the screen classes (one per screen, in the modules of this package). A screen is
  a record (what it holds: a dataclass), the inputs it ``takes``, what it ``needs`` when it gets another
  input, the screens it ``goes_to``, whether it waits ``long``, one handler per input it takes (``on_card``,
  ``on_option``, ``on_ok``, ``on_digit``) and its :meth:`~Screen.view`. :func:`terminal.table.screens.check`
  checks every screen against these at import.
- :class:`Table`: what a screen may ask of the machine (:class:`terminal.table.machine.Terminal` is one): move
  to another screen, ask a number, show a choice or a confirmation, commit, refuse, say, beep. A screen never
  reaches into the machine otherwise.
- :class:`Board`: what differs between the boards the table plays (the classic board,
  :mod:`terminal.table.classic`; the electronic one, :mod:`terminal.table.ultimate`): the machine hands the
  screens the board of the game in play (``Table.board``), chosen once from its edition.
- What a card tap is (:class:`PlayerTap`, :class:`DeedTap`, :class:`EventTap`), and what a keypad or a list
  does next (:class:`KeypadNext`, :class:`ChoiceNext`: records that carry their next step, no closures).

Inputs: ``player`` (a player's card), ``deed`` (a deed's sticker), ``option`` (a choice on screen or a function
key), ``ok`` (the OK button), ``digit`` (a keypad key), ``event`` (an Event card's sticker: the electronic board's,
handled by its :class:`Board`). Two inputs are taken on every screen and are not listed: cancel (back to idle,
nothing recorded) and the banker card (the banker menu); the enrolment wizard also takes any card at all (to
give it a role). An input a screen does not take gets one message, the same for every kind of wrong card:
"this screen needs ..." with the screen's :meth:`~Screen.need`.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypedDict

from cards.editions import Edition
from cards.registry import Enrolment
from terminal.bank.door import Preview
from terminal.bank.game import Game
from terminal.bank.operations import Operation
from terminal.errors import GameError
from terminal.table.i18n import translate
from terminal.table.settings import Damage, GameFactory, PhonePage, Sounds, TerminalSettings
from terminal.table.view import DeedView, Msg, Option, Pending, PlayerLine, View

if TYPE_CHECKING:
    from cards.registry import Role

#: Every input a screen may take.
INPUTS = frozenset({"player", "deed", "option", "ok", "digit", "event"})
#: Screens every screen may go to: idle after a commit, a cancel or a timeout; the end of the game; the
#: banker menu (the banker card is taken everywhere); the damaged game's screen (the checks running beside
#: play may stop payments at any moment).
ALWAYS = frozenset({"idle", "game_over", "banker", "damaged"})


#: The screens a deed may lead to (its own, an offer, the owner's, the keypad for the dice, a confirmation, an
#: auction, a list).
DEED_NEXT = "deed offer own_deed keypad confirm auction choose"


def inputs(names: str) -> frozenset[str]:
    """``"player deed option"`` -> the set of those names (for the class attributes of a screen)."""
    return frozenset(names.split())


# -- what a card tap is --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PlayerTap:
    """A player's card, of a player in the game and not bankrupt."""

    player: str
    uid: str


@dataclass(frozen=True)
class DeedTap:
    """A title deed's sticker (on the electronic board, a property's): the square it names on this board."""

    square: int
    uid: str


@dataclass(frozen=True)
class EventTap:
    """An Event card's sticker: ``number`` is the card's number in the edition's Event deck (1-...)."""

    number: int
    uid: str


Tapped = PlayerTap | DeedTap


class Common(TypedDict, total=False):
    """What every screen's :class:`View` shows (built by the machine, completed by each screen's view)."""

    players: tuple[PlayerLine, ...]
    message: Msg | None
    message_kind: str
    reader_ok: bool
    language: str
    bank_houses: int | None
    bank_hotels: int | None
    pot: int | None
    edition: str
    game_over: bool
    screen_version: int
    time_left: Msg | None


@dataclass
class RentAsk:
    """What a rent confirmation was asked with, to ask it again with a card's rule."""

    player: str
    square: int
    dice: int | None
    card: str | None


class Screen:
    """A screen of the tap machine. Subclasses are dataclasses (what the screen holds) and set the class
    attributes below; each defines the handlers of the inputs it takes and no others (checked at import:
    :func:`terminal.table.screens.check`).

    - ``name``: the screen's name (``View.screen``: the host's layout for it);
    - ``takes``: the inputs it handles (:data:`INPUTS`);
    - ``needs``: the catalog code of what it waits for (what :meth:`need` says by default);
    - ``goes_to``: the screens it may open, besides :data:`ALWAYS`;
    - ``long``: whether it waits the long timeout (lists, wizards, menus, the bankruptcy flow);
    - ``times_out``: whether a step is pending on it (False on the screens the machine rests on: idle, the end
      of the game, a damaged game)."""

    name: ClassVar[str]
    takes: ClassVar[frozenset[str]] = frozenset()
    needs: ClassVar[str]
    goes_to: ClassVar[frozenset[str]] = frozenset()
    long: ClassVar[bool] = False
    times_out: ClassVar[bool] = True

    def on_any_card(self, t: Table, uid: str, role: Role | None) -> bool:
        """A card, before the machine looks at it as a tap in the game in play: True when this screen took it
        (the wizards: any card to enrol, the seats of a new game), False to let the machine go on."""
        return False

    # -- the handlers (a screen defines those of the inputs it takes) -----------------------------------------
    def on_card(self, t: Table, tapped: Tapped) -> None:
        """A player's card or a deed's sticker (``takes`` ``player`` or ``deed``)."""
        raise AssertionError(f"screen {self.name} takes no card")

    def on_option(self, t: Table, option_id: str) -> None:
        """An option of the view, enabled (``takes`` ``option``)."""
        raise AssertionError(f"screen {self.name} takes no option")

    def on_ok(self, t: Table) -> None:
        """The OK button (``takes`` ``ok``)."""
        raise AssertionError(f"screen {self.name} takes no OK")

    def on_digit(self, t: Table, char: str) -> None:
        """A keypad key: ``0``-``9``, ``C``, ``<`` or ``OK`` (``takes`` ``digit``)."""
        raise AssertionError(f"screen {self.name} takes no digit")

    # -- what it shows and how long it waits -----------------------------------------------------------------
    def view(self, t: Table, base: Common) -> View:
        """The :class:`View` of this screen; ``base`` holds what every screen shows."""
        raise NotImplementedError(self.name)

    def need(self, t: Table) -> Msg:
        """What this screen waits for (the same whatever wrong input came)."""
        return Msg(self.needs, {}, translate(self.needs, {}, "en"))

    def waits_long(self) -> bool:
        """Whether this screen waits the long timeout (``long`` by default)."""
        return self.long

    def kept(self) -> Screen | None:
        """The screen a timeout shows again instead of dropping it (a trade or an auction already set up, on
        screen or under the keypad or confirmation on screen), or None."""
        return None

    def tick(self, t: Table) -> None:
        """A clock tick while this screen is shown (the PIN screen counts its wait down)."""


class KeypadNext:
    """What a number typed on the keypad is for (a record of the flow that opened the keypad, carrying its next
    step): :meth:`entered` goes on with the number. A keypad that also takes a card (a utility's dice, then the
    payer's card) handles it in :meth:`card`; one that shows more than the number, in :meth:`view`."""

    def entered(self, t: Table, keypad: Any, value: int) -> None:
        """The number ``value`` entered on ``keypad`` (a :class:`terminal.table.screens.keypad.Keypad`)."""
        raise NotImplementedError(type(self).__name__)

    def card(self, t: Table, keypad: Any, tapped: Tapped) -> bool:
        """A card tapped on the keypad: False (refused with what the keypad needs) unless this step takes one."""
        return False

    def need(self) -> Msg | None:
        """What the keypad waits for, when it is not the keypad's usual (None)."""
        return None

    def extra(self, keypad: Any) -> dict[str, Any]:
        """What the keypad's view shows besides the number (``View.extra``: the best bid of an auction)."""
        return {}

    def view(self, t: Table, keypad: Any, extra: dict[str, Any], base: Common) -> View | None:
        """The keypad's view when this step shows more than the number (None: the keypad's own)."""
        return None


class ChoiceNext:
    """What a list does (a record of the flow that opened it, carrying its next step): :meth:`chosen` with the
    option chosen, :meth:`card` with a card tapped on it; :attr:`needs` names what the list waits for."""

    #: The catalog code of what the list waits for.
    needs: ClassVar[str] = "part_card_choice"

    def chosen(self, t: Table, option_id: str) -> None:
        """An option of the list chosen."""
        raise NotImplementedError(type(self).__name__)

    def card(self, t: Table, tapped: Tapped) -> bool:
        """A card tapped on the list: False (refused with what the list needs) unless this list takes it."""
        return False


class AfterCommit:
    """What follows a confirmed operation (a record of the flow, as :class:`ChoiceNext`): a card's GO salary,
    then the square the card moved the token to."""

    def after(self, t: Table) -> None:
        """The operation was committed and the game goes on: open what follows."""
        raise NotImplementedError(type(self).__name__)


class Board(Protocol):
    """What the table does differently on one board (each board's answers in its own module:
    :mod:`terminal.table.classic`, :mod:`terminal.table.ultimate`)."""

    #: The edition's ``board`` this answers for (``classic``, ``ultimate``).
    name: str
    #: Whether the Bank holds houses and hotels on this board (the idle screen shows its stock).
    has_buildings: bool

    def sticker(self, edition: Edition, role: Role) -> int | Msg:
        """The square a sticker (a deed's or a property's card) names on this board, or the refusal to show."""
        ...

    def event_card(self, t: Table, tapped: EventTap) -> None:
        """An Event card's sticker was tapped."""
        ...

    def deed_view(self, t: Table, square: int, payer: str | None = None) -> DeedView:
        """A deed as drawn, with the rent ``payer`` (or another player) would pay now."""
        ...

    def owned_deed_title(self, t: Table, square: int, owner: str, dice: int | None,
                         card: str | None) -> tuple[Msg, list[Option]]:
        """The deed screen's title and options for a deed someone owns: the rent shown and why, and the rent
        cards' options."""
        ...

    def owner_tapped(self, t: Table, square: int, tapped: PlayerTap) -> None:
        """The owner's card on the deed screen of their own deed."""
        ...

    def payer_tapped(self, t: Table, square: int, tapped: PlayerTap, dice: int | None, card: str | None) -> None:
        """A payer's card on the deed screen of another's deed: the rent shown."""
        ...

    def own_deed_options(self, t: Table, square: int, player: str) -> list[Option]:
        """What the owner may do with their own deed."""
        ...

    def own_deed_chosen(self, t: Table, square: int, player: str, option_id: str) -> None:
        """One of :meth:`own_deed_options` chosen."""
        ...

    def player_options(self, t: Table, player: str) -> list[Option]:
        """A player's options on their screen, the most used first."""
        ...

    def player_chosen(self, t: Table, player: str, option_id: str) -> bool:
        """One of the board's own player options chosen: True when it was one (handled), else False."""
        ...

    def reasons(self, t: Table, preview: Preview) -> tuple[Msg, ...]:
        """What the confirmation of ``preview`` lists besides the money: why a computed amount is what it is."""
        ...

    def confirm_shows_deed(self, pending: Pending) -> bool:
        """Whether the confirmation of ``pending`` (about a square) shows the deed's card."""
        ...

    def game_mode(self, mode: str) -> str:
        """The mode a new game on this board is played in when ``mode`` was chosen."""
        ...

    def idle_notices(self, t: Table) -> tuple[Msg, ...]:
        """What the idle screen shows of the game in play besides the players' cash (a market slump running)."""
        ...

    def flag_option(self, flag: str, value: object) -> Option:
        """A rule flag of this board in the new-game wizard: its name and value."""
        ...


class Table(Protocol):
    """What a screen may ask of the machine (:class:`terminal.table.machine.Terminal`).

    What it holds: ``settings``, ``game`` (None until a game is started), ``message`` (the last feedback),
    ``damage`` and ``restore`` (a damaged game and how to restore its backup), ``game_factory`` and
    ``enrolment_factory`` (the wizards' factories: None when the host has none), ``beeper``, ``phone`` (the
    phone page's switch and link, or None)."""

    settings: TerminalSettings
    game: Game | None
    message: Msg | None
    damage: Damage | None
    restore: Callable[[], Game] | None
    game_factory: GameFactory | None
    enrolment_factory: Callable[[], Enrolment] | None
    beeper: Sounds | None
    phone: PhonePage | None

    @property
    def screen(self) -> Screen:
        """The screen shown."""
        ...

    @property
    def bank(self) -> Game:
        """The game in play (raises AssertionError when there is none: a screen that needs one opens only
        with one)."""
        ...

    @property
    def board(self) -> Board:
        """The board of the game in play (:class:`Board`)."""
        ...

    def board_of(self, edition: Edition) -> Board:
        """The board of ``edition`` (the new-game wizard's, before the game exists)."""
        ...

    def now(self) -> float:
        """The injected clock's seconds."""
        ...

    # -- moving on --------------------------------------------------------------------------------------------
    def go(self, screen: Screen) -> None:
        """Show ``screen`` (a transition its screen must declare); the last message goes with the old one."""
        ...

    def go_idle(self) -> None:
        """Back to idle (or the end of the game, or the damaged game's screen)."""
        ...

    def changed(self) -> None:
        """What the screen shows changed (the view is built again)."""
        ...

    # -- feedback ---------------------------------------------------------------------------------------------
    def accept(self) -> None:
        """The ``accepted`` beep; the last message goes."""
        ...

    def say(self, msg: Msg, kind: str = "info") -> None:
        """Show ``msg`` in the message band: ``info``, ``success`` or ``error``."""
        ...

    def beep(self, pattern: str) -> None: ...

    def refuse(self, msg: Msg) -> None:
        """The refusal beep and ``msg`` as an error; nothing changes."""
        ...

    def refuse_error(self, error: GameError, money: tuple[str, ...] = ()) -> None:
        """A refusal of the rules; ``money`` names the params that are amounts (shown with the currency)."""
        ...

    def refuse_needs(self) -> None:
        """An input this screen does not take: "this screen needs ..." (:meth:`Screen.need`)."""
        ...

    # -- asking -----------------------------------------------------------------------------------------------
    def ask_number(self, label: Msg, then: KeypadNext, kind: str = "amount", *, player: str | None,
                   purpose: Msg | None = None, square: int | None = None, back: Screen | None = None) -> None:
        """Open the keypad; a number entered goes to ``then``. ``back``: the trade or auction it returns to."""
        ...

    def ask_choice(self, title: Msg, options: list[Option], then: ChoiceNext) -> None:
        """Open a list; a choice (or a card tapped on it) goes to ``then``."""
        ...

    def ask_confirm(self, op: Operation, purpose: Msg, confirm_by: tuple[str, ...] = (), warning: Msg | None = None,
                    double: bool = False, card_only: bool = False, rent: RentAsk | None = None,
                    preview: Preview | None = None, back: Screen | None = None,
                    then: AfterCommit | None = None) -> None:
        """Show ``op`` to be confirmed, with what it moves: its ``preview`` (computed here when not given: a refusal
        is shown at once). Confirmed, that very preview is committed, and ``then`` goes on (the done message
        stays on its screen)."""
        ...

    def commit_or_confirm(self, op: Operation, purpose: Msg, confirm_by: tuple[str, ...] = (),
                          uid: str | None = None, rent: RentAsk | None = None, preview: Preview | None = None) -> None:
        """Commit ``op`` (the touch that named its amount), unless it would create a debt: then confirm it. One
        computation: its ``preview`` (computed here when not given) is what is committed."""
        ...

    def commit(self, preview: Preview, uid: str | None = None, then: AfterCommit | None = None) -> None:
        """Commit ``preview`` (``uid``: the card that committed it, ignored for a moment after); the done message
        says what moved; ``then``, when the commit went through and the game goes on, opens what follows."""
        ...

    def preview(self, op: Operation) -> Preview:
        """What ``op`` would do now (raises the Bank's refusal)."""
        ...

    # -- the banker and the game in play -----------------------------------------------------------------------
    def ask_banker(self, then: str | None = None) -> None:
        """A banker function touched on screen: the banker card or PIN first, then ``then`` (``undo``,
        ``new_game``, ``restore``) or the banker menu."""
        ...

    def banker_ok(self) -> None:
        """The banker is identified (the PIN typed): what was waiting for them, or the banker menu."""
        ...

    def take_game(self, game: Game) -> None:
        """``game`` becomes the game in play (the one before is closed)."""
        ...

    def last_go(self, player: str) -> float | None:
        """When ``player`` last collected the GO salary (the clock's seconds), or None."""
        ...

    # -- words --------------------------------------------------------------------------------------------------
    def fmt(self, amount: int) -> str:
        """An amount of the game's edition, formatted in the screen's language."""
        ...

    def deed_name(self, square: int) -> str: ...

    def in_debt(self, player: str) -> bool: ...
