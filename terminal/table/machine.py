"""The tap-driven state machine: what a player touches.

:class:`Terminal` takes inputs (cards presented and removed, buttons, keypad digits, choices on screen, clock
ticks), drives :class:`terminal.Game`, and produces a :class:`~terminal.table.view.View` for the screen and beep
patterns for the beeper. It imports no pygame and no hardware library (only ``hal.interfaces``' event
classes), and reads time only from the injected clock, so tests drive it headless.

The screens, the inputs each takes and the screens each may open are declared in
:mod:`terminal.table.states`; what a screen holds is a typed record of :mod:`terminal.table.dialogs` (``dialog``).
Inputs are dispatched through :data:`HANDLERS` (one entry per state, checked against the table at import).
An input a screen does not take gets one message naming what the screen needs, whatever the input was.

Inputs aimed at a screen: every screen change counts one ``screen_version`` (shown in ``View.screen_version``).
A touch, a key or an option carries the version of the screen it was aimed at (``version=``): one aimed at a
screen no longer shown is dropped with the refusal beep, so nothing commits from a confirmation that was not
drawn. The host says which version it drew (:meth:`Terminal.shown`); the hardware buttons (``ButtonPressed``
events) are matched against it. Card taps carry no version: a card laid on the reader is not aimed at a drawn
button, so it always applies to the current screen (a confirmation by card is still ignored when it comes
sooner than ``confirm_min_delay_s`` after the confirmation appeared, and the card that committed is ignored
for ``retap_guard_s``). Typing on the keypad, toggling a trade's items or a message do not change the
version: a quick second digit aimed at the same keypad is typed.

Flows, each ending in one committed operation or in nothing:

- Idle shows every player's cash. A player card opens that player's context; a deed card shows the deed,
  then a player card completes it: unowned -> the buyer's card buys it at the price shown (or Decline:
  auction); another's -> the payer's card pays the rent shown with its reason (a utility's dice typed
  first); one's own -> build, sell, mortgage, lift the mortgage.
- Every amount is on screen before the touch that commits it: two touches for GO salary, the taxes and the
  jail fine (the player's card, then the button naming the amount), for a rent and for buying (the deed
  card, then the payer's or buyer's card); three for a Chance or Community Chest card with a fixed amount.
  An explicit confirmation stays where a mistake costs more: a typed amount, a payment that creates a debt
  (it says what is paid and what stays owed), a second GO salary within the window, a trade, bankruptcy
  (it lists what each creditor receives and the debts it ends), undo, building, selling and mortgages. OK or
  the acting player's card tapped again commits it; cancel drops it. Beeps come after the commit: one
  sound per action (``accepted`` for a tap that moves the flow on, ``success``/``bankruptcy``/``game_over``
  for a commit, ``refused`` for a refusal, which also shows the rule's message and changes nothing). The
  "done" message names what moved.
- A pending step times out back to idle (10 s by default; 60 s on the screens the table marks ``long`` and on
  a keypad or confirmation inside a trade or an auction; any input restarts it); a trade or an auction
  already set up is shown again and asked about instead (:meth:`Terminal._time_out`). A deed looked at
  never turns into a purchase later. A card resting or re-tapped at once never acts twice.
- In debt, a player's context offers the ways to raise money (sell, mortgage, trade), the charges the rules
  still impose, the income that goes to the creditor, and bankruptcy; voluntary spending is not offered
  (RULES.md, Debts and bankruptcy).
- Banker functions (undo, adjustments, new game, enrolment, settings) need the banker card or PIN unless
  banker protection is off.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from cards.editions import DeckCard
from cards.registry import BankerCard, DeedCard, Enrolment, PlayerCard, PropertyCard
from hal.interfaces import ButtonPressed, CardPresented, CardRemoved, ReaderBack, ReaderLost
from terminal.bank.door import Receipt
from terminal.bank.game import Game
from terminal.bank.money import format_amount
from terminal.bank.types import Effects, Owed
from terminal.errors import AuditFailed, GameError
from terminal.table import flows_ultimate  # the electronic board's taps
from terminal.table.dialogs import (
    Adjust,
    AdjustPlayer,
    Advance,
    AmountOp,
    AuctionScreen,
    BankruptcyScreen,
    Bid,
    BuildPrice,
    Choice,
    ChoiceNext,
    Confirm,
    Damaged,
    DeckPick,
    DeedDice,
    DeedPick,
    DeedScreen,
    DeedTap,
    Dialog,
    Dice,
    Enrol,
    EventScreen,
    EventTap,
    GameOver,
    History,
    Idle,
    JailDeck,
    Keypad,
    KeypadNext,
    Nearest,
    NewGame,
    Offer,
    OwnDeed,
    Partner,
    Payee,
    PayOrDraw,
    Pin,
    PlayerScreen,
    PlayerTap,
    RentAsk,
    RepairsPerHotel,
    RepairsPerHouse,
    Tapped,
    TaxChoice,
    TradeCash,
    TradeScreen,
    TransferAmount,
)
from terminal.table.flows import TableFlows
from terminal.table.i18n import N_, OPTIONS, PURPOSES, translate
from terminal.table.shared import CardLookup, Damage, GameFactory, Sounds, account_msg, joined, owes_of
from terminal.table.shared import TerminalSettings as TerminalSettings  # re-exported: the hosts import it from here
from terminal.table.states import LONG_CONFIRMS, STATES, may_go
from terminal.table.view import Msg, Option, Pending, View
from terminal.table.view_builder import ViewBuilder

DIGITS = "0123456789"
#: Chance and Community Chest cards with a fixed amount: their tile shows it and the touch on it commits.
_FIXED_CARDS = ("collect", "pay", "pay_each_player", "collect_from_each_player", "advance_to_go")
MAX_DIGITS = 9

D = TypeVar("D")


class Terminal(flows_ultimate.UltimateFlows, TableFlows, ViewBuilder):
    """The state machine. ``game`` may be None until a new game is started from the banker menu.

    - ``registry``: maps a UID to a role (``lookup(uid)``; see ``cards.registry``).
    - ``beeper``: anything with ``play(pattern)`` (a ``hal.interfaces.Beeper``).
    - ``clock``: callable returning monotonic seconds.
    - ``game_factory``: ``(edition, players, mode, rules, player_cards, minutes=None) -> Game`` for the
      new-game wizard; ``minutes`` is the length of a time-limited game in minutes of play (counted on the
      game's play clock: the wall clock, which the terminal never reads, ends no game).
    - ``enrolment_factory``: ``() -> cards.registry.Enrolment`` for the enrolment wizard.
    - ``notice``: a message shown on the first screen (the host's "game resumed" after a restart).
    - ``damage``: what start-up found when the current game could not be resumed (the problem, the newest
      good backup): the terminal opens on the damaged game's screen, which offers that backup and a new
      game. ``restore``: ``() -> Game``, restores that backup into a new game file and opens it (the host's
      restore; the damaged file is kept). During play, a failed check of the file stops payments and opens
      the same screen (:meth:`tick`), with the newest good backup ``find_backup(game)`` names: ``(backup name,
      restore)`` or None (the host's; without it, no backup is offered then).
    """

    def __init__(self, game: Game | None, registry: CardLookup | None, beeper: Sounds | None,
                 clock: Callable[[], float], settings: TerminalSettings | None = None,
                 game_factory: GameFactory | None = None, enrolment_factory: Callable[[], Enrolment] | None = None,
                 notice: Msg | None = None, damage: Damage | None = None,
                 restore: Callable[[], Game] | None = None,
                 find_backup: Callable[[Game], tuple[str, Callable[[], Game]] | None] | None = None):
        self.game = game
        self.registry = registry
        self.beeper = beeper
        self.clock = clock
        self.settings = settings or TerminalSettings()
        self.game_factory = game_factory
        self.enrolment_factory = enrolment_factory
        self.version = 0
        self.screen_version = 0
        self.shown_version: int | None = None
        self.reader_ok = True
        self.dialog: Dialog = Idle()
        self.message: Msg | None = None
        self.message_kind = "info"
        self.last_input = clock()
        self.banker_unlocked = False
        self._after_banker: str | None = None  # what the banker was asked for before identifying ("undo")
        self._last_go: dict[str, float] = {}
        self._guard_uid: str | None = None
        self._guard_until = 0.0
        self._view: View | None = None
        self._kept_at: float | None = None
        self.message = notice
        self.damage = damage
        self.restore = restore
        self.find_backup = find_backup
        if damage is not None:
            self.dialog = Damaged(damage.problem, damage.backup, at_startup=game is None)
        elif game is not None and game.is_over():
            self.dialog = GameOver()

    @property
    def screen(self) -> str:
        """The current screen's name (a key of :data:`terminal.table.states.STATES`)."""
        return self.dialog.screen

    # ------------------------------------------------------------------------------------------------------
    # Inputs
    # ------------------------------------------------------------------------------------------------------
    def handle(self, event: object) -> None:
        """Feed one ``hal`` event (card presented/removed, button pressed, reader lost/back). A button is
        matched against the screen the host last drew (:meth:`shown`)."""
        if isinstance(event, CardPresented):
            self.present(event.uid)
        elif isinstance(event, CardRemoved):
            pass  # removal matters only to the reader's own debouncing
        elif isinstance(event, ButtonPressed):
            self.press(event.button, version=self.shown_version)
        elif isinstance(event, ReaderLost):
            self.reader_ok = False
            self._changed()
        elif isinstance(event, ReaderBack):
            self.reader_ok = True
            self._changed()

    def shown(self, screen_version: int) -> None:
        """The host drew the screen of this version (``View.screen_version``)."""
        self.shown_version = screen_version

    def _aimed_elsewhere(self, version: int | None) -> bool:
        """An input aimed at a screen no longer shown: dropped with the refusal beep (nothing else moves but
        the timeout, which any input restarts)."""
        self._touch()
        if version is None or version == self.screen_version:
            return False
        self._beep("refused")
        return True

    def present(self, uid: str) -> None:
        """A card was presented (one event per real presentation, from ``hal``). Cards carry no screen
        version: they apply to the current screen (see the module docstring)."""
        now = self.clock()
        if uid == self._guard_uid and now < self._guard_until:
            return None  # the card that just committed: a re-tap never acts twice
        self._touch()
        role = self.registry.lookup(uid) if self.registry is not None else None
        if isinstance(self.dialog, Enrol):
            return self._card_enrol(uid, role)
        if role is None:
            return self._refuse(Msg("unknown_card", {}, "Unknown card: enrol it from the banker's menu."))
        if isinstance(role, BankerCard):
            return self._banker_card()
        if isinstance(self.dialog, NewGame) and isinstance(role, PlayerCard):
            # a seat of the game being set up: the game on the table (over, or about to be replaced) has no say,
            # a card of a player who went bankrupt in it is as free as any other
            return self._new_game_card(uid)
        if self.game is None:
            return self._refuse(Msg("no_game", {}, "No game: the banker starts one."))
        tapped: Tapped
        if isinstance(role, PlayerCard):
            player = self._player_of(uid, role)
            if player is None:
                return self._refuse(Msg("card_not_in_game", {}, "This player card is not in the game."))
            if player in self.game.current.bankrupt_list:
                return self._refuse(Msg("bankrupt_card", {"player": player},
                                        f"{player} is bankrupt: out of the game."))
            tapped, kind = PlayerTap(player, uid), "player"
        elif isinstance(role, DeedCard):
            square: int | None = role.square
            if self._ultimate:  # the electronic board: a street's sticker stands for its property here
                square = self._ub_sticker(role.square)
                if square is None:
                    return self._refuse(Msg("not_a_property_here", {}, "This deed is not a property of this board."))
            elif not self.game.edition.squares[role.square].is_deed:
                return self._refuse(Msg("unknown_card", {}, "Unknown card: enrol it from the banker's menu."))
            assert square is not None
            tapped, kind = DeedTap(square, uid), "deed"
        elif isinstance(role, PropertyCard):  # a property's sticker (the electronic board)
            square = flows_ultimate.property_square(self.game.edition, role.number) if self._ultimate else None
            if square is None:
                return self._refuse(Msg("not_a_property_here", {}, "This deed is not a property of this board."))
            tapped, kind = DeedTap(square, uid), "deed"
        elif (number := flows_ultimate.event_number(role)) is not None:  # an Event card (the electronic board)
            return self._event_card_tapped(EventTap(number, uid))
        else:
            return self._refuse(Msg("unknown_card", {}, "Unknown card."))
        handler = HANDLERS[self.screen].card
        if kind not in STATES[self.screen].takes or handler is None:
            return self._refuse_needs()
        handler(self, tapped)

    def press(self, button: str, version: int | None = None) -> None:
        """A button: ``confirm``, ``cancel`` or a function key ``f1``..``f4`` (the first options)."""
        if self._aimed_elsewhere(version):
            return None
        self._touch()
        if button == "cancel":
            return self.cancel()
        if button == "confirm":
            return self.confirm()
        if button.startswith("f") and button[1:].isdigit():
            options = [o for o in self.view.options if o.enabled]
            index = int(button[1:]) - 1
            if 0 <= index < len(options):
                return self.choose(options[index].id)
        self._refuse_needs()

    def digit(self, char: str, version: int | None = None) -> None:
        """A keypad key: ``0``-``9``, ``C`` (clear), ``<`` (erase one) or ``OK`` (enter)."""
        if self._aimed_elsewhere(version):
            return None
        self._touch()
        handler = HANDLERS[self.screen].digit
        if "digit" not in STATES[self.screen].takes or handler is None:
            return self._refuse_needs()
        handler(self, char)

    def type_amount(self, value: int) -> None:
        """Type a whole amount on the keypad and press OK (for tests and scripted demos)."""
        self.digit("C")
        for char in str(value):
            self.digit(char)
        self.digit("OK")

    def choose(self, option_id: str, version: int | None = None) -> None:
        """Pick an option shown on screen by its ``id``."""
        if self._aimed_elsewhere(version):
            return None
        self._touch()
        handler = HANDLERS[self.screen].option
        if "option" not in STATES[self.screen].takes or handler is None:
            return self._refuse_needs()
        options = {o.id: o for o in self.view.options}
        if option_id not in options:
            return self._refuse(Msg("option_unknown", {"option": option_id}, "Unknown choice."))
        if not options[option_id].enabled:
            return self._refuse(Msg("not_allowed_now", {"what": option_id}, f"Not possible here: {option_id}."))
        handler(self, option_id)

    def confirm(self, version: int | None = None) -> None:
        """The OK button: commit the pending operation, enter the keypad value, close an auction."""
        if self._aimed_elsewhere(version):
            return None
        self._touch()
        handler = HANDLERS[self.screen].ok
        if "ok" not in STATES[self.screen].takes or handler is None:
            return self._refuse_needs()
        handler(self)

    def cancel(self, version: int | None = None) -> None:
        """The cancel button: drop what is pending and go back to idle (nothing is recorded). Taken on
        every screen."""
        if self._aimed_elsewhere(version):
            return
        self._touch()
        was_idle = isinstance(self.dialog, Idle | GameOver)
        self._go_idle()
        if not was_idle:
            self._say(Msg("cancelled", {}, "Cancelled."))

    def timeout_s(self) -> float:
        """How long the current screen waits for an input (any input restarts it): the long timeout on the
        screens the table marks ``long`` (lists, wizards, menus, auctions, trades, bankruptcy), on a keypad or a
        confirmation inside a trade or an auction, and on a confirmation with a long text (a bankruptcy's, an
        undo's: :data:`terminal.table.states.LONG_CONFIRMS`); the short one elsewhere."""
        dialog = self.dialog
        inside = isinstance(dialog, Keypad | Confirm) and isinstance(dialog.back, TradeScreen | AuctionScreen)
        inside = inside or (isinstance(dialog, Confirm) and dialog.pending.op.get("op") in LONG_CONFIRMS)
        return self.settings.long_timeout_s if STATES[self.screen].long or inside else self.settings.timeout_s

    def tick(self) -> None:
        """Clock tick: time out a pending step; end a time-limited game whose time has come."""
        now = self.clock()
        if self.game is not None and self.damage is None:
            problem = self.game.payments_stopped()
            if problem is not None:
                return self._stop_payments(problem)
        if isinstance(self.dialog, Pin):
            self._pin_tick()
        if not isinstance(self.dialog, Idle | GameOver | Damaged) and now - self.last_input >= self.timeout_s():
            self._time_out()
        if self.game is not None and self.game.mode == "time_limit" and not self.game.is_over() \
                and self.damage is None:
            try:
                if self.game.tick() is not None:
                    self._after_commit("end_game")
            except GameError:
                pass
        if self.game is not None and self.damage is None:
            self.game.maintain()  # the chart's summary, a bounded step (never raises; beeps and commits came first)

    def _set_up_under(self) -> TradeScreen | AuctionScreen | None:
        """The trade or auction already set up (something given, a bid made) on screen or under the keypad
        or the confirmation on screen."""
        dialog = self.dialog
        under = dialog.back if isinstance(dialog, Keypad | Confirm) else dialog
        if isinstance(under, TradeScreen | AuctionScreen) and under.set_up():
            return under
        return None

    def _time_out(self) -> None:
        """A timeout drops the step in progress, except a trade or an auction already set up: the first
        timeout shows it again and asks (cancel drops it); only a second one with no input drops it."""
        kept = self._set_up_under()
        if kept is not None and self._kept_at != self.last_input:
            self._go(kept)
            self._touch()
            self._kept_at = self.last_input
            code = N_("timeout_kept_trade") if isinstance(kept, TradeScreen) else N_("timeout_kept_auction")
            english = "Still there? Kept as it was: Cancel drops it."
            return self._say(Msg(code, {}, english), "error")
        self._go_idle()
        if kept is not None:
            return self._say(Msg("timed_out_dropped", {}, "Timed out again: dropped, nothing was done."))
        self._say(Msg("timed_out", {}, "Timed out: nothing was done."))

    # ------------------------------------------------------------------------------------------------------
    # Helpers
    # ------------------------------------------------------------------------------------------------------
    def _touch(self) -> None:
        self.last_input = self.clock()

    def _changed(self) -> None:
        self.version += 1
        self._view = None

    def _say(self, msg: Msg, kind: str = "info") -> None:
        self.message, self.message_kind = msg, kind
        self._changed()

    def _beep(self, pattern: str) -> None:
        if self.beeper is not None:
            self.beeper.play(pattern)

    def _refuse(self, msg: Msg) -> None:
        self._beep("refused")
        self._say(msg, "error")

    def _refuse_error(self, error: GameError, money: tuple[str, ...] = ()) -> None:
        """Show a refusal of the rules. ``money``: the params that are amounts, shown with the currency
        (:func:`format_amount`), in the English text too."""
        params = dict(error.params or {})
        english = str(error)
        money = (*money, "owed")  # what a player in debt owes is always an amount (PlayerInDebt)
        formatted = {k: self._fmt(params[k]) for k in money if isinstance(params.get(k), int)}
        if formatted:
            params.update(formatted)
            english = translate(error.code, params, "en", english)
        self._refuse(Msg(error.code, params, english, exact=True))

    def _needs(self) -> Msg:
        """What the current screen waits for (the same whatever wrong input came)."""
        dialog = self.dialog
        if isinstance(dialog, Confirm):
            by = dialog.pending.confirm_by
            if by and dialog.card_only:
                names = " + ".join(by)
                return Msg("need_cards", {"players": names}, f"the cards of {names}")
            if by:
                return Msg("need_card_or_ok", {"player": by[0]}, f"{by[0]}'s card or OK")
            return Msg("part_card_ok", {}, "the OK button")
        if isinstance(dialog, EventScreen):
            return self._event_needs(dialog)
        if isinstance(dialog, BankruptcyScreen) and not dialog.decided:
            return Msg("need_creditor_card", {"player": dialog.creditor}, f"{dialog.creditor}'s card")
        if isinstance(dialog, DeedScreen):
            unowned = self._game.current.owner.get(dialog.square) is None
            code = N_("part_card_buyer") if unowned else N_("part_card_payer")
            return Msg(code, {}, translate(code, {}, "en"))
        if isinstance(dialog, Keypad) and isinstance(dialog.then, DeedDice):
            return Msg("part_dice_then_payer", {}, "the dice total, then the payer's card")
        if isinstance(dialog, Choice):
            code = {Payee: N_("part_card_payee"), DeedPick: N_("part_card_deed"), Partner: N_("part_card_other_player"),
                    AdjustPlayer: N_("part_card_player")}.get(type(dialog.then), N_("part_card_choice"))
            return Msg(code, {}, translate(code, {}, "en"))
        code = STATES[self.screen].needs
        return Msg(code, {}, translate(code, {}, "en"))

    def _refuse_needs(self) -> None:
        """An input the screen does not take: one message naming what this screen needs."""
        need = self._needs()
        self._refuse(Msg("screen_needs", {"need": need}, f"This screen needs {need.english}."))

    def _accept(self) -> None:
        self._beep("accepted")
        self.message = None
        self._changed()

    def _go(self, dialog: Dialog) -> None:
        """Show another screen (a transition the table must declare); the last message belongs to the
        screen it was said on and goes with it."""
        if not may_go(self.screen, dialog.screen):
            raise AssertionError(f"undeclared transition {self.screen} -> {dialog.screen}")
        self.dialog = dialog
        self.screen_version += 1
        self.message = None
        self._changed()

    def _back_to(self, dialog: Dialog) -> None:
        """Return to a screen a keypad was opened from (a trade, an auction), as it was."""
        self._go(dialog)

    def _go_idle(self) -> None:
        self._after_banker = None
        if self.damage is not None:  # nothing is played on a damaged game: its screen stays
            return self._go(Damaged(self.damage.problem, self.damage.backup, at_startup=self.game is None))
        self._go(GameOver() if self.game is not None and self.game.is_over() else Idle())

    def _stop_payments(self, problem: str) -> None:
        """The file of the game in play is damaged (a check beside play failed, or refused a payment):
        payments stop at once and the damaged game's screen says so, offering the newest good backup of the game
        when the host finds one (issue 21, point 5: it said "No good backup" although one was there)."""
        backup = None
        if self.find_backup is not None and self.game is not None:
            try:
                found = self.find_backup(self.game)
            except (GameError, OSError):
                found = None
            if found is not None:
                backup, self.restore = found
        self.damage = Damage(problem, backup)
        self._beep("refused")
        self._go_idle()
        self._say(Msg("payments_stopped", {}, "Payments are stopped: the game's file is damaged."), "error")

    def _damage_of(self, exc: GameError) -> bool:
        """Whether a refused write was refused because the game's file is damaged (then payments stop)."""
        if isinstance(exc, AuditFailed) or exc.code == "ledger_damaged":
            self._stop_payments(str(exc))
            return True
        return False

    def _at(self, kind: type[D]) -> D:
        """The current screen's record, of the kind the handler was registered for."""
        if not isinstance(self.dialog, kind):
            raise AssertionError(f"screen {self.screen!r} is not a {kind.__name__}")
        return self.dialog

    @property
    def _game(self) -> Game:
        """The game in play, on the screens and in the flows that exist only with one (while there is none,
        :meth:`present` takes no card but the banker's and the options that need one are disabled)."""
        if self.game is None:
            raise AssertionError(f"no game on screen {self.screen!r}")
        return self.game

    def _player_of(self, uid: str, role: PlayerCard) -> str | None:
        cards: Mapping[str, str] = self._game.meta.get("player_cards") or {}
        if cards:
            for name, card_uid in cards.items():
                if card_uid == uid:
                    return name
            return None
        number = role.number
        return self._game.players[number - 1] if 1 <= number <= len(self._game.players) else None

    def _fmt(self, amount: int) -> str:
        return format_amount(amount, self._game.edition, self.settings.language, self.settings.display)

    def _deed_name(self, square: int) -> str:
        return self._game.edition.squares[square].name

    def _in_debt(self, player: str) -> bool:
        return bool(self._game.current.debts_of(player))

    # -- keypad, choice and confirmation sub-flows ----------------------------------------------------------
    def _ask_number(self, label: Msg, then: KeypadNext, kind: str = "amount", *, player: str,
                    purpose: Msg | None = None, square: int | None = None, back: Dialog | None = None) -> None:
        """Open the keypad; on OK with a value, :meth:`_entered` goes on according to ``then``. ``player``,
        ``purpose`` and ``square`` say what the number is for (shown above the keypad)."""
        self._go(Keypad(label=label, then=then, kind=kind, back=back, player=player, purpose=purpose,
                        square=square))

    def _digit_keypad(self, char: str) -> None:
        dialog = self.dialog
        if not isinstance(dialog, Keypad | Pin):
            raise AssertionError("digits only on a keypad")
        buffer = dialog.buffer
        if char == "C":
            buffer = ""
        elif char == "<":
            buffer = buffer[:-1]
        elif char == "OK":
            return self.confirm()
        elif char in DIGITS and len(char) == 1:
            if len(buffer) >= MAX_DIGITS:
                return self._refuse(Msg("amount_too_long", {}, "Amount too large."))
            buffer = (buffer + char).lstrip("0") or ("0" if char == "0" else "")
        else:
            return self._refuse_needs()
        dialog.buffer = buffer
        self._changed()

    def _confirm_keypad(self) -> None:
        keypad = self._at(Keypad)
        if not keypad.buffer:
            return self._refuse(Msg("empty_amount", {}, "Type an amount."))
        self._entered(keypad, int(keypad.buffer))

    def _entered(self, keypad: Keypad, value: int) -> None:
        """What a number typed on the keypad does (``keypad.then``)."""
        then = keypad.then
        match then:
            case AmountOp(op=op, player=player):
                purpose = keypad.purpose or Msg(PURPOSES[op], {}, op)
                self._ask_confirm({"op": op, "player": player, "amount": value}, purpose, confirm_by=(player,))
            case TransferAmount(player=player):
                self._choose_payee(player, value)
            case RepairsPerHouse(player=player):
                self._ask_number(Msg("keypad_per_hotel", {}, "Price per hotel"), RepairsPerHotel(player, value),
                                 player=player, purpose=keypad.purpose)
            case RepairsPerHotel(player=player, per_house=per_house):
                self._ask_confirm({"op": "repairs", "player": player, "per_house": per_house, "per_hotel": value},
                                  Msg("purpose_repairs", {}, "Repairs"), confirm_by=(player,))
            case BuildPrice(player=player, square=square):
                name = self._deed_name(square)
                self._ask_confirm({"op": "build", "player": player, "square": square, "price": value},
                                  Msg("purpose_build", {"deed": name}, f"Building on {name}"), confirm_by=(player,))
            case Dice(player=player, square=square, card=card):
                self._rent(player, square, dice=value, card=card, now=False)
            case DeedDice(square=square):
                self._go(DeedScreen(square, dice=value))
            case Bid():
                self._bid(keypad, then, value)
            case TradeCash():
                self._trade_cash(keypad, then, value)
            case Adjust(player=player, give=give):
                move: dict[str, Any] = ({"op": "transfer", "from": "bank", "to": player, "amount": value} if give
                                        else {"op": "transfer", "from": player, "to": "bank", "amount": value})
                self._ask_confirm(move, Msg("purpose_transfer", {}, "Payment"))

    def _card_keypad(self, tapped: Tapped) -> None:
        """A card on the keypad: taken only on a utility's dice (its owner's card opens the owner's context;
        another player's card, once the dice are typed, pays the rent)."""
        keypad = self._at(Keypad)
        then = keypad.then
        if not isinstance(then, DeedDice) or not isinstance(tapped, PlayerTap):
            return self._refuse_needs()
        if self._game.current.owner.get(then.square) == tapped.player:
            self._accept()
            return self._go(OwnDeed(square=then.square, player=tapped.player))
        if not keypad.buffer:
            return self._refuse_needs()
        self._rent(tapped.player, then.square, dice=int(keypad.buffer), uid=tapped.uid)

    def _owes(self, effects: Effects) -> tuple[tuple[str, str, int], ...]:
        return owes_of(effects)

    def _owes_warning(self, owes: tuple[tuple[str, str, int], ...],
                      postings: tuple[tuple[str, str, int], ...]) -> Msg:
        """"Chloé pays 915 €, still owes 485 € to Anne" (each debtor, each creditor)."""
        lines = []
        for debtor in dict.fromkeys(d for d, _, _ in owes):
            paid = sum(a for p, _, a in postings if p == debtor)
            owed = joined([Msg("owes_to", {"amount": self._fmt(a), "creditor": account_msg(c)},
                               f"{self._fmt(a)} → {c}") for d, c, a in owes if d == debtor])
            lines.append(Msg("pays_owes", {"player": debtor, "pays": self._fmt(paid), "owes": owed},
                             f"{debtor} pays {self._fmt(paid)}, owes {owed.english}"))
        if len(lines) == 1:
            return lines[0]
        return Msg("pays_owes_more", {"first": lines[0], "n": len(lines) - 1},
                   "; ".join(m.english for m in lines))

    def _ask_confirm(self, op: Mapping[str, Any], purpose: Msg, confirm_by: tuple[str, ...] = (),
                     warning: Msg | None = None, double: bool = False, card_only: bool = False,
                     rent: RentAsk | None = None, effects: Effects | None = None, back: Dialog | None = None) -> None:
        """Show a pending operation (checked by a preview: a refusal is shown at once and nothing changes).
        A charge larger than the payer's cash says what is paid and what stays owed."""
        if effects is None:
            try:
                effects = self._game.preview(op).effects
            except GameError as exc:
                return self._refuse_error(exc)
        postings = tuple(effects.postings)
        owes = self._owes(effects) if op.get("op") != "declare_bankruptcy" else ()
        if owes and warning is None:
            warning = self._owes_warning(owes, postings)
        pending = Pending(op=dict(op), purpose=purpose, postings=postings, confirm_by=confirm_by,
                          warning=warning, owes=owes, details=self._details(op, effects))
        self._go(Confirm(pending=pending, shown_at=self.clock(), double=double, card_only=card_only, rent=rent,
                         back=back))

    def _commit_or_confirm(self, op: Mapping[str, Any], purpose: Msg, confirm_by: tuple[str, ...] = (),
                           uid: str | None = None, rent: RentAsk | None = None) -> None:
        """The touch that names the amount commits, unless the operation would create a debt: then its
        confirmation says what is paid and what stays owed. A refusal is shown and nothing changes."""
        try:
            effects = self._game.preview(op).effects
        except GameError as exc:
            return self._refuse_error(exc)
        if self._owes(effects):
            return self._ask_confirm(op, purpose, confirm_by, rent=rent, effects=effects)
        self._commit(op, uid)

    def _again(self, confirm: Confirm) -> None:
        """The first of two confirmations (a second GO salary): a new step, with its own screen version."""
        self._beep("accepted")
        self._go(replace(confirm, double=False, shown_at=self.clock()))
        self._say(Msg("confirm_again", {}, "Tap again to confirm"))

    def _confirm_confirm(self) -> None:
        confirm = self._at(Confirm)
        if confirm.card_only:
            return self._refuse_needs()
        if confirm.double:
            return self._again(confirm)
        self._commit(confirm.pending.op)

    def _card_confirm(self, tapped: Tapped) -> None:
        confirm = self._at(Confirm)
        pending = confirm.pending
        if not isinstance(tapped, PlayerTap) or tapped.player not in pending.confirm_by:
            return self._refuse_needs()
        if self.clock() - confirm.shown_at < self.settings.confirm_min_delay_s:
            return None  # the same hand tapping twice in a row: not a confirmation
        if confirm.card_only:
            confirm.cards.add(tapped.player)
            confirm.pending = replace(pending, confirmed_by=tuple(sorted(confirm.cards)))
            if confirm.cards >= set(pending.confirm_by):
                return self._commit(pending.op, tapped.uid)
            return self._accept()
        if confirm.double:
            return self._again(confirm)
        self._commit(pending.op, tapped.uid)

    def _commit(self, op: Mapping[str, Any], uid: str | None = None) -> None:
        debts_before = self._game.debts()
        try:
            receipt = self._game.apply(op) if op.get("op") != "undo" else self._game.undo()
        except GameError as exc:
            if self._damage_of(exc):
                return None
            self._go_idle()
            return self._refuse_error(exc)
        if op.get("op") == "pass_go":
            self._last_go[op["player"]] = self.clock()
        if uid is not None:
            self._guard_uid, self._guard_until = uid, self.clock() + self.settings.retap_guard_s
        self._go_idle()
        self._after_commit(op.get("op"), receipt, debts_before)

    @staticmethod
    def _debts_created(before: Mapping[str, list[Owed]],
                       after: Mapping[str, list[Owed]]) -> list[tuple[str, str, int]]:
        """The debts an operation created or raised: ``(debtor, creditor, amount more owed)``."""
        def totals(debts: Mapping[str, list[Owed]]) -> dict[tuple[str, str], int]:
            out: dict[tuple[str, str], int] = {}
            for debtor, owed in debts.items():
                for debt in owed:
                    out[(debtor, debt["to"])] = out.get((debtor, debt["to"]), 0) + debt["amount"]
            return out
        old, new = totals(before), totals(after)
        return [(d, c, a - old.get((d, c), 0)) for (d, c), a in new.items() if a > old.get((d, c), 0)]

    def _after_commit(self, name: str | None, receipt: Receipt | None = None,
                      debts_before: Mapping[str, list[Owed]] | None = None) -> None:
        if self._game.is_over():
            self._beep("game_over")
            self._go(GameOver())
        elif name == "declare_bankruptcy":
            self._beep("bankruptcy")
        else:
            self._beep("success")
        moved = ", ".join(f"{self._label(p)} → {self._label(q)} {self._fmt(a)}" for p, q, a in
                          (receipt.postings if receipt else ()))
        what = self._what_happened(receipt) if receipt is not None else None
        if receipt is not None and debts_before is not None and name not in ("undo", "declare_bankruptcy"):
            # a charge beyond the payer's cash: the done message says who owes what to whom now
            created = [Msg("did_owe", {"player": d, "amount": self._fmt(a), "creditor": account_msg(c)},
                           f"{d} owes {c} {self._fmt(a)}")
                       for d, c, a in self._debts_created(debts_before, receipt.debts)]
            if created:
                owes = joined(created)
                what = owes if what is None else Msg("did_with_debt", {"what": what, "owes": owes},
                                                     f"{what.english}; {owes.english}")
        if what is None:
            return self._say(Msg("done", {"detail": moved}, ("Done. " + moved).strip()), "success")
        self._say(Msg("done_what", {"what": what, "detail": moved}, f"Done: {what.english}. {moved}".strip()),
                  "success")

    def _label(self, account: str) -> str:
        names = {"bank": N_("ui_bank_name"), "pot": N_("ui_pot_name")}
        return translate(names[account], {}, self.settings.language) if account in names else account

    def _choose(self, title: Msg, options: list[Option], then: ChoiceNext) -> None:
        self._go(Choice(title=title, options=options, then=then))

    def _choose_choose(self, option_id: str) -> None:
        """A choice on a list: what it does depends on the list (``then``)."""
        then = self._at(Choice).then
        match then:
            case TaxChoice(player=player):  # each choice names its amount: it commits
                tax = self._game.edition.squares[4].name
                self._commit_or_confirm({"op": "pay_tax", "player": player, "square": 4, "choice": option_id},
                                        Msg("purpose_pay_tax", {"tax": tax}, tax), (player,))
            case JailDeck(player=player):
                self._ask_confirm({"op": "use_jail_card", "player": player, "deck": option_id},
                                  Msg("purpose_use_jail_card", {}, "Leaving jail with the card"), confirm_by=(player,))
            case Payee(player=player, amount=amount):
                self._pay_to(player, amount, "bank")
            case DeedPick(player=player):
                self._deed_picked(player, int(option_id))
            case DeckPick(player=player, deck=deck):
                self._deck_card(player, self._game.edition.decks[deck][int(option_id) - 1])
            case Advance(player=player, square=square):
                self._advance(player, square, option_id == "passed")
            case Nearest(player=player, action=action):
                self._nearest(player, int(option_id), action)
            case PayOrDraw(player=player, amount=amount, deck=deck):
                if option_id == "pay":
                    text = Msg("purpose_pay_bank", {}, "Payment to the Bank")
                    self._ask_confirm({"op": "pay_bank", "player": player, "amount": amount}, text, (player,))
                else:
                    self._pick_deck_card(player, deck)
            case AdjustPlayer(give=give):
                self._adjust_amount(option_id, give)
            case Partner():
                pass  # a partner is chosen by their card only (the list has no option)

    def _card_choose(self, tapped: Tapped) -> None:
        """A card on a list: taken by the lists that name a player or a deed, refused by the others."""
        then = self._at(Choice).then
        match then, tapped:
            case Payee(player=player, amount=amount), PlayerTap(player=payee):
                self._accept()
                self._pay_to(player, amount, payee)
            case DeedPick(player=player), DeedTap(square=square):
                self._deed_picked(player, square)
            case Partner(player=player), PlayerTap(player=other):
                self._start_trade(player, other)
            case AdjustPlayer(give=give), PlayerTap(player=player):
                self._adjust_amount(player, give)
            case _:
                self._refuse_needs()

    # ------------------------------------------------------------------------------------------------------
    # Idle, deed and player contexts
    # ------------------------------------------------------------------------------------------------------
    def _card_idle(self, tapped: Tapped) -> None:
        self._accept()
        if isinstance(tapped, PlayerTap):
            self._open_player(tapped.player)
        else:
            self._look_at_deed(tapped.square)

    def _choose_idle(self, option_id: str) -> None:
        if option_id == "any_deed":
            self._pick_deed(None)
        elif option_id == "banker":
            self._banker_card(touch=True)
        elif option_id == "history":
            self._go(History())

    def _look_at_deed(self, square: int) -> None:
        """A deed card tapped: the deed, its price or its owner and rent; a utility another player owns opens
        the keypad for the dice at once."""
        owner = self._game.current.owner.get(square)
        deed = self._game.edition.squares[square]
        if owner is not None and deed.kind == "utility" and not self._game.current.mortgaged.get(square):
            return self._go(Keypad(label=Msg("keypad_dice", {}, "Dice total (2 to 12)"), then=DeedDice(square),
                                   kind="dice", square=square,
                                   purpose=Msg("purpose_pay_rent", {"deed": deed.name}, f"Rent on {deed.name}")))
        self._go(DeedScreen(square))

    def _card_deed(self, tapped: Tapped) -> None:
        """The second touch on a deed: the buyer's card buys it, the payer's card pays the rent shown, the
        owner's card opens the owner's context."""
        if isinstance(tapped, DeedTap):
            self._accept()
            return self._look_at_deed(tapped.square)
        screen = self._at(DeedScreen)
        square, player = screen.square, tapped.player
        owner = self._game.current.owner.get(square)
        if owner is None:
            name = self._deed_name(square)
            return self._commit_or_confirm({"op": "buy", "player": player, "square": square},
                                           Msg("purpose_buy", {"deed": name}, f"Buying {name}"), (player,),
                                           uid=tapped.uid)
        if owner == player:
            if self._ultimate:  # the owner's card raises the level (the deed screen said so)
                return self._ub_deed_with_owner(square, player, uid=tapped.uid)
            self._accept()
            return self._go(OwnDeed(square=square, player=player))
        if self._ultimate and self._ub_rent_differs(player, square):  # not the rent shown (a market slump)
            return self._rent(player, square, now=False)
        self._rent(player, square, dice=screen.dice, card=screen.card, uid=tapped.uid)

    def _choose_deed(self, option_id: str) -> None:
        screen = self._at(DeedScreen)
        if option_id == "decline":
            return self._start_auction(screen.square)
        cards = {"rent_railroad_card": "nearest_railroad", "rent_utility_card": "nearest_utility"}
        if option_id in cards:
            screen.card = None if screen.card else cards[option_id]
            return self._changed()
        self._refuse_needs()

    def _deed_with_player(self, square: int, player: str) -> None:
        owner = self._game.current.owner.get(square)
        deed = self._game.edition.squares[square]
        if owner is None:
            return self._go(Offer(square=square, player=player))
        if owner == player:
            return self._go(OwnDeed(square=square, player=player))
        if deed.kind == "utility":
            return self._ask_number(Msg("keypad_dice", {}, "Dice total (2 to 12)"), Dice(player, square), kind="dice",
                                    player=player,
                                    purpose=Msg("purpose_pay_rent", {"deed": deed.name}, f"Rent on {deed.name}"),
                                    square=square)
        self._rent(player, square, now=False)  # reached from a list: its confirmation shows the rent

    def _rent(self, player: str, square: int, dice: int | None = None, card: str | None = None,
              uid: str | None = None, now: bool = True) -> None:
        """The rent: committed at once (the payer's card was the touch that commits, the rent was on screen)
        unless it would create a debt, or ``now`` is False (asked again on its confirmation)."""
        op: dict[str, Any] = {"op": "pay_rent", "player": player, "square": square}
        if dice is not None:
            op["dice"] = dice
        if card:
            op["card"] = card
        purpose = Msg("purpose_pay_rent", {"deed": self._deed_name(square)}, f"Rent on {self._deed_name(square)}")
        ask = RentAsk(player, square, dice, card)
        if now:
            return self._commit_or_confirm(op, purpose, (player,), uid=uid, rent=ask)
        self._ask_confirm(op, purpose, confirm_by=(player,), rent=ask)

    def _choose_confirm(self, option_id: str) -> None:
        rent = self._at(Confirm).rent
        if rent is None:  # the rent options are shown only for a rent
            return self._refuse_needs()
        if option_id == "rent_railroad_card":
            self._rent(rent.player, rent.square, card=None if rent.card else "nearest_railroad", now=False)
        elif option_id == "rent_utility_card":
            self._rent(rent.player, rent.square, dice=rent.dice, card=None if rent.card else "nearest_utility",
                       now=False)

    def _choose_offer(self, option_id: str) -> None:
        offer = self._at(Offer)
        player, square = offer.player, offer.square
        if option_id == "buy":  # the button names the price: it commits
            name = self._deed_name(square)
            self._commit_or_confirm({"op": "buy", "player": player, "square": square},
                                    Msg("purpose_buy", {"deed": name}, f"Buying {name}"), (player,))
        elif option_id == "decline":
            self._start_auction(square)

    def _card_offer(self, tapped: Tapped) -> None:
        self._accept()
        if isinstance(tapped, DeedTap):
            return self._look_at_deed(tapped.square)
        dialog = self.dialog
        if not isinstance(dialog, Offer | OwnDeed):
            raise AssertionError("a deed context")
        self._deed_with_player(dialog.square, tapped.player)

    def _choose_own_deed(self, option_id: str) -> None:
        if self._ultimate:  # the electronic board: raise the level, or sell it back to the Bank
            return self._ub_choose_own_deed(option_id)
        own = self._at(OwnDeed)
        player, square = own.player, own.square
        name = self._deed_name(square)
        ops = {
            "build": ({"op": "build", "player": player, "square": square}, N_("purpose_build"), f"Building on {name}"),
            "sell_building": ({"op": "sell_building", "player": player, "square": square}, N_("purpose_sell_building"),
                              f"Selling a building on {name}"),
            "sell_whole": ({"op": "sell_building", "player": player, "square": square, "whole": True},
                           N_("purpose_sell_building"), f"Selling the buildings of {name}'s group"),
            "mortgage": ({"op": "mortgage", "player": player, "square": square}, N_("purpose_mortgage"),
                         f"Mortgaging {name}"),
            "unmortgage": ({"op": "unmortgage", "player": player, "square": square}, N_("purpose_unmortgage"),
                           f"Lifting the mortgage on {name}"),
        }
        if option_id == "build_price":
            return self._ask_number(Msg("keypad_price", {}, "Auction price"), BuildPrice(player, square),
                                    player=player, purpose=Msg("purpose_build", {"deed": name}, f"Building on {name}"),
                                    square=square)
        op, code, english = ops[option_id]
        self._ask_confirm(op, Msg(code, {"deed": name}, english), confirm_by=(player,))

    def _open_player(self, player: str) -> None:
        self._go(PlayerScreen(player))

    def _card_player(self, tapped: Tapped) -> None:
        self._accept()
        if isinstance(tapped, DeedTap):
            return self._deed_with_player(tapped.square, self._at(PlayerScreen).player)
        self._open_player(tapped.player)

    def _choose_player(self, option_id: str) -> None:
        player = self._at(PlayerScreen).player
        if self._ultimate and self._ub_choose_player(player, option_id):
            return None
        edition = self._game.edition
        luxury = edition.squares[38].name if len(edition.squares) > 38 else ""  # the electronic board has none
        simple: dict[str, tuple[dict[str, Any], Msg]] = {
            "pass_go": ({"op": "pass_go", "player": player}, Msg("purpose_pass_go", {}, "GO salary")),
            "luxury_tax": ({"op": "pay_tax", "player": player, "square": 38},
                           Msg("purpose_pay_tax", {"tax": luxury}, luxury)),
            "jail_fine": ({"op": "jail_fine", "player": player}, Msg("purpose_jail_fine", {}, "Jail fine")),
            "free_parking": ({"op": "free_parking", "player": player}, Msg("purpose_free_parking", {}, "Free Parking")),
        }
        if option_id == "pass_go":
            last = self._last_go.get(player)
            warning = None
            if last is not None and self.clock() - last < self.settings.go_repeat_window_s:
                seconds = int(self.clock() - last)
                warning = Msg("second_go", {"player": player, "seconds": seconds},
                              f"{player} already collected GO salary {seconds} s ago. Confirm again?")
            op, purpose = simple[option_id]
            if warning is not None:  # a second GO salary within the window: confirmed explicitly, twice
                return self._ask_confirm(op, purpose, confirm_by=(player,), warning=warning, double=True)
            return self._commit_or_confirm(op, purpose, (player,))
        if option_id in ("luxury_tax", "jail_fine"):  # the button names the amount: it commits
            op, purpose = simple[option_id]
            return self._commit_or_confirm(op, purpose, (player,))
        if option_id in simple:
            op, purpose = simple[option_id]
            return self._ask_confirm(op, purpose, confirm_by=(player,))
        if option_id == "income_tax":
            return self._income_tax(player)
        if option_id in ("chance", "community_chest"):
            return self._pick_deck_card(player, option_id)
        if option_id == "use_jail_card":
            return self._use_jail_card(player)
        amount_ops = {"pay_bank": N_("purpose_pay_bank"), "bank_pays": N_("purpose_bank_pays"),
                      "pay_each_player": N_("purpose_pay_each_player"),
                      "collect_from_each_player": N_("purpose_collect_from_each_player")}
        if option_id in amount_ops:
            purpose = Msg(amount_ops[option_id], {}, option_id.replace("_", " "))
            return self._ask_number(Msg("keypad_amount", {}, "Amount"), AmountOp(option_id, player), player=player,
                                    purpose=purpose)
        if option_id == "transfer":
            return self._ask_number(Msg("keypad_amount", {}, "Amount"), TransferAmount(player), player=player,
                                    purpose=Msg("purpose_transfer", {}, "Payment"))
        if option_id == "repairs":
            return self._ask_number(Msg("keypad_per_house", {}, "Price per house"), RepairsPerHouse(player),
                                    player=player, purpose=Msg("purpose_repairs", {}, "Repairs"))
        if option_id == "trade":
            return self._choose(Msg("choose_partner", {}, "With whom? Tap their card"), [], Partner(player))
        if option_id == "my_deeds":
            return self._pick_deed(player, mine=True)
        if option_id == "any_deed":
            return self._pick_deed(player)
        if option_id == "bankruptcy":
            return self._bankruptcy(player)

    def _income_tax(self, player: str) -> None:
        op = {"op": "pay_tax", "player": player, "square": 4}
        tax = self._game.edition.squares[4].name
        purpose = Msg("purpose_pay_tax", {"tax": tax}, tax)
        if not self._game.config.rules.get("income_tax_percent"):
            return self._commit_or_confirm(op, purpose, (player,))
        options = []
        for choice in ("flat", "percent"):
            try:
                amount = sum(a for p, _, a in self._game.preview({**op, "choice": choice}).postings if p == player)
            except GameError:
                amount = 0
            options.append(Option(choice, Msg(OPTIONS[choice], {"amount": self._fmt(amount)}, choice)))
        self._choose(purpose, options, TaxChoice(player))

    def _use_jail_card(self, player: str) -> None:
        held = self._game.current.jail_cards_of(player)
        purpose = Msg("purpose_use_jail_card", {}, "Leaving jail with the card")
        # Always ask which card: the player knows which deck's card they hold.
        self._choose(purpose, [Option(d, Msg(OPTIONS[d], {}, d)) for d in held], JailDeck(player))

    def _choose_payee(self, player: str, amount: int) -> None:
        self._choose(Msg("choose_payee", {}, "To whom?"), [Option("bank", Msg("opt_bank", {}, "The Bank"))],
                     Payee(player, amount))

    def _pay_to(self, player: str, amount: int, payee: str) -> None:
        if payee == player:
            return self._refuse(Msg("pay_self", {"player": player}, f"{player} cannot pay themselves."))
        self._ask_confirm({"op": "transfer", "from": player, "to": payee, "amount": amount},
                          Msg("purpose_transfer", {}, "Payment"), confirm_by=(player,))

    def _pick_deed(self, player: str | None, mine: bool = False) -> None:
        """The list of title deeds (``player``'s own with ``mine``); a deed card picks one too."""
        state = self._game.current
        squares = state.deeds_of(player) if mine and player else [d.index for d in self._game.edition.deeds()]
        options = [Option(str(s), Msg("deed_context", {"deed": self._deed_name(s)}, self._deed_name(s)))
                   for s in squares]
        self._choose(Msg("choose_deed", {}, "Choose a title deed"), options, DeedPick(player))

    def _deed_picked(self, player: str | None, square: int) -> None:
        if player is None:
            return self._look_at_deed(square)
        self._deed_with_player(square, player)

    # -- Chance and Community Chest ---------------------------------------------------------------------------
    def _pick_deck_card(self, player: str, deck: str) -> None:
        cards = self._game.edition.decks[deck]
        language = self.settings.language
        options = []
        for c in cards:
            text = c.text_in(language)
            amount = self._deck_amount(c)
            label = (Msg("deck_card_amount", {"text": text, "amount": amount}, f"{amount} · {text}") if amount
                     else Msg("deck_card", {"text": text}, text))
            options.append(Option(str(c.number), label))
        self._choose(Msg(OPTIONS[deck], {}, deck), options, DeckPick(player, deck))

    def _deck_amount(self, card: DeckCard) -> str:
        """A fixed amount a card moves, signed for the player who drew it ("+100 €", "−15 €"), or ""."""
        amount = card.params.get("amount")
        if card.action == "advance_to_go":
            amount = self._game.edition.go_salary
        if not isinstance(amount, int) or card.action not in _FIXED_CARDS:
            return ""
        sign = "+" if card.action in ("collect", "collect_from_each_player", "advance_to_go") else "−"
        each = card.action in ("pay_each_player", "collect_from_each_player")
        return f"{sign}{self._fmt(amount)}" + (" ×" if each else "")

    def _deck_card(self, player: str, card: DeckCard) -> None:
        p = card.params
        said = card.text_in(self.settings.language)
        text = Msg("deck_card", {"text": said}, said)
        action = card.action
        # a card with a fixed amount: its tile showed the amount, the touch on it commits
        if action == "collect":
            return self._commit_or_confirm({"op": "bank_pays", "player": player, "amount": p["amount"]}, text,
                                           (player,))
        if action == "pay":
            return self._commit_or_confirm({"op": "pay_bank", "player": player, "amount": p["amount"]}, text,
                                           (player,))
        if action in ("pay_each_player", "collect_from_each_player"):
            return self._commit_or_confirm({"op": action, "player": player, "amount": p["amount"]}, text, (player,))
        if action == "repairs":
            return self._ask_confirm({"op": "repairs", "player": player, "per_house": p["per_house"],
                                      "per_hotel": p["per_hotel"]}, text, (player,))
        if action == "jail_card":
            return self._commit_or_confirm({"op": "gain_jail_card", "player": player, "deck": card.deck}, text,
                                           (player,))
        if action == "advance_to_go":
            return self._commit_or_confirm({"op": "pass_go", "player": player}, text, (player,))
        if action == "advance":
            passes = self._passes_go(card.deck, p["square"])
            if passes is not None:  # the same from every square of this deck: no question to ask
                return self._advance(player, p["square"], passes)
            return self._choose(text, [Option("passed", Msg("opt_passed_go", {}, "Passed GO: salary")),
                                       Option("not_passed", Msg("opt_not_passed_go", {}, "Did not pass GO"))],
                                Advance(player, p["square"]))
        if action in ("nearest_railroad", "nearest_utility"):
            kind = action.split("_")[1]
            squares = [s.index for s in self._game.edition.deeds() if s.kind == kind]
            options = [Option(str(s), Msg("deed_context", {"deed": self._deed_name(s)}, self._deed_name(s)))
                       for s in squares]
            return self._choose(text, options, Nearest(player, action))
        if action == "pay_or_draw":
            return self._choose(text, [Option("pay", Msg("opt_pay_fine", {"amount": self._fmt(p["amount"])}, "Pay")),
                                       Option("draw", Msg("opt_draw_chance", {}, "Draw a Chance card"))],
                                PayOrDraw(player, p["amount"], p.get("deck", "chance")))
        self._go_idle()
        self._say(Msg("nothing_to_pay", {}, "Nothing to pay for this card."))

    def _passes_go(self, deck: str, target: int) -> bool | None:
        """Whether a card of ``deck`` moving the token forward to square ``target`` passes GO: True or False when
        the answer is the same from every square of the board where that deck is drawn, None when it depends on
        which one (then the player says). The terminal does not track tokens; the board does: moving forward
        from square ``origin`` to ``target`` passes GO exactly when ``target < origin`` (RULES.md, cards that
        advance: "salary if you pass GO"; e.g. the French Chance card "Rendez-vous rue de la Paix", square 39,
        never passes GO from the Chance squares 7, 22 and 36, so it asks nothing)."""
        origins = [s.index for s in self._game.edition.squares if s.kind == deck]
        answers = {target < origin for origin in origins}
        return answers.pop() if len(answers) == 1 else None

    def _advance(self, player: str, square: int, passed_go: bool) -> None:
        if passed_go:
            self._ask_confirm({"op": "pass_go", "player": player}, Msg("purpose_pass_go", {}, "GO salary"), (player,))
            return
        if self._game.edition.squares[square].is_deed:
            self._deed_with_player(square, player)
        else:
            self._go_idle()

    def _nearest(self, player: str, square: int, action: str) -> None:
        owner = self._game.current.owner.get(square)
        if owner is None or owner == player:
            return self._deed_with_player(square, player)
        if action == "nearest_utility":
            name = self._deed_name(square)
            return self._ask_number(Msg("keypad_dice", {}, "Dice total"), Dice(player, square, action), kind="dice",
                                    player=player, purpose=Msg("purpose_pay_rent", {"deed": name}, f"Rent on {name}"),
                                    square=square)
        self._rent(player, square, card=action, now=False)


# ----------------------------------------------------------------------------------------------------------
# Dispatch: what each state does with the inputs it takes (checked against the table at import)
# ----------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Handlers:
    """The handlers of one state's inputs; None for an input it does not take."""

    card: Callable[[Terminal, Tapped], None] | None = None
    option: Callable[[Terminal, str], None] | None = None
    ok: Callable[[Terminal], None] | None = None
    digit: Callable[[Terminal, str], None] | None = None


HANDLERS: Mapping[str, Handlers] = {
    "idle": Handlers(card=Terminal._card_idle, option=Terminal._choose_idle),
    "game_over": Handlers(option=Terminal._choose_game_over),
    "deed": Handlers(card=Terminal._card_deed, option=Terminal._choose_deed),
    "offer": Handlers(card=Terminal._card_offer, option=Terminal._choose_offer),
    "own_deed": Handlers(card=Terminal._card_offer, option=Terminal._choose_own_deed),
    "player": Handlers(card=Terminal._card_player, option=Terminal._choose_player),
    "keypad": Handlers(card=Terminal._card_keypad, ok=Terminal._confirm_keypad, digit=Terminal._digit_keypad),
    "pin": Handlers(ok=Terminal._confirm_pin, digit=Terminal._digit_pin),
    "confirm": Handlers(card=Terminal._card_confirm, option=Terminal._choose_confirm, ok=Terminal._confirm_confirm),
    "choose": Handlers(card=Terminal._card_choose, option=Terminal._choose_choose),
    "auction": Handlers(card=Terminal._card_auction, option=Terminal._choose_auction, ok=Terminal._confirm_auction),
    "trade": Handlers(card=Terminal._card_trade, option=Terminal._choose_trade),
    "bankruptcy": Handlers(card=Terminal._card_bankruptcy, option=Terminal._choose_bankruptcy,
                           ok=Terminal._confirm_bankruptcy),
    "banker": Handlers(card=Terminal._card_idle, option=Terminal._choose_banker),
    "history": Handlers(option=Terminal._choose_history),
    "new_game": Handlers(card=Terminal._card_new_game, option=Terminal._choose_new_game),
    "enrol": Handlers(option=Terminal._choose_enrol),
    "damaged": Handlers(option=Terminal._choose_damaged),
    "event": Handlers(card=Terminal._card_event, option=Terminal._choose_event),
    "location": Handlers(card=Terminal._card_location, option=Terminal._choose_location),
}


def _check_handlers() -> None:
    """Every state has its handlers, and a handler for each input it takes and none for the others."""
    if set(HANDLERS) != set(STATES):
        raise AssertionError(f"handlers and states differ: {sorted(set(HANDLERS) ^ set(STATES))}")
    for name, state in STATES.items():
        h = HANDLERS[name]
        has = {"player": h.card, "deed": h.card, "option": h.option, "ok": h.ok, "digit": h.digit}
        for kind, handler in has.items():
            if (kind in state.takes) != (handler is not None) and kind not in ("player", "deed"):
                raise AssertionError(f"state {name}: input {kind} declared {kind in state.takes}, handler {handler}")
        if bool(state.takes & {"player", "deed"}) != (h.card is not None):
            raise AssertionError(f"state {name}: cards declared {sorted(state.takes)}, handler {h.card}")


_check_handlers()
