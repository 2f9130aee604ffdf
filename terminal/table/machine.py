"""The tap machine: what a player touches.

:class:`Terminal` takes inputs (cards presented and removed, buttons, keypad digits, choices on screen, clock
ticks), hands each to the screen shown (a class of :mod:`terminal.table.screens`: what it holds, the inputs it
takes, its handlers and its view), and commits what the screens ask for to :class:`terminal.Game`; it produces a
:class:`~terminal.table.view.View` for the screen and beep patterns for the beeper. It imports no pygame and no
hardware library (only ``hal.interfaces``' event classes), and reads time only from the injected clock, so tests
drive it headless. The machine keeps the routing, the versions of the screens, the timeouts and the commit; the
screens ask it for what they need through :class:`~terminal.table.screens.base.Table`, which it is, and the board
of the game in play answers what differs between boards (:mod:`terminal.table.boards`).

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

- Idle shows every player's cash. A player card opens that player's screen; a deed card shows the deed, then a
  player card completes it: unowned -> the buyer's card buys it at the price shown (or Decline: auction);
  another's -> the payer's card pays the rent shown with its reason (a utility's dice typed first); one's own ->
  build, sell, mortgage, lift the mortgage.
- Every amount is on screen before the touch that commits it: two touches for GO salary, the taxes and the
  jail fine (the player's card, then the button naming the amount), for a rent and for buying (the deed
  card, then the payer's or buyer's card); three for a Chance or Community Chest card with a fixed amount.
  An explicit confirmation stays where a mistake costs more: a typed amount, a payment that creates a debt
  (it says what is paid and what stays owed), a second GO salary within the window, a trade, bankruptcy
  (it lists what each creditor receives and the debts it ends), undo, selling a whole group's buildings (a
  building, a sale of one, a mortgage and its lifting commit on the button that names the amount). OK or
  the acting player's card tapped again commits it; cancel drops it. Beeps come after the commit: one
  sound per action (``accepted`` for a tap that moves the flow on, ``success``/``bankruptcy``/``game_over``
  for a commit, ``refused`` for a refusal, which also shows the rule's message and changes nothing). The
  "done" message names what moved.
- A pending step times out back to idle (10 s by default; 60 s on the screens that wait ``long`` and on a keypad
  or confirmation inside a trade or an auction; any input restarts it); a trade or an auction already set up is
  shown again and asked about instead (:meth:`Terminal.tick`). A deed looked at never turns into a purchase
  later. A card resting or re-tapped at once never acts twice.
- In debt, a player's screen offers the ways to raise money (sell, mortgage, trade), the charges the rules
  still impose, the income that goes to the creditor, and bankruptcy; voluntary spending is not offered
  (RULES.md, Debts and bankruptcy).
- Banker functions (undo, adjustments, new game, enrolment, settings) need the banker card or PIN unless
  banker protection is off.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from cards.editions import Edition
from cards.registry import BankerCard, DeedCard, Enrolment, EventCard, PlayerCard, PropertyCard
from hal.interfaces import ButtonPressed, CardPresented, CardRemoved, ReaderBack, ReaderLost
from terminal.bank.door import Preview, Receipt
from terminal.bank.game import Game
from terminal.bank.money import format_amount
from terminal.bank.operations import DeclareBankruptcy, Operation, PassGo
from terminal.errors import AuditFailed, GameError
from terminal.table.boards import board_for
from terminal.table.done import done_message
from terminal.table.i18n import N_, translate
from terminal.table.screens import may_go
from terminal.table.screens.banker import Banker, ask_undo
from terminal.table.screens.base import (
    AfterCommit,
    Board,
    ChoiceNext,
    Common,
    DeedTap,
    EventTap,
    KeypadNext,
    PlayerTap,
    RentAsk,
    Screen,
    Tapped,
)
from terminal.table.screens.choose import Choice
from terminal.table.screens.confirm import Confirm, pending_of
from terminal.table.screens.damaged import Damaged, restore_backup
from terminal.table.screens.game_over import GameOver
from terminal.table.screens.idle import Idle
from terminal.table.screens.keypad import Keypad
from terminal.table.screens.new_game import start_new_game
from terminal.table.screens.pin import Pin, pin_wait, pin_wait_msg
from terminal.table.settings import CardLookup, Damage, GameFactory, PhonePage, Sounds, TerminalSettings
from terminal.table.view import Msg, Option, PlayerLine, View
from terminal.table.words import duration_msg

#: The warnings before the end of a time-limited game, in seconds of play left (10 minutes, 1 minute).
TIME_WARNINGS = (600, 60)

#: Seconds without an input after which the terminal's tick counts as idle time: the game's WAL is folded into its
#: file then (:meth:`terminal.Game.settle_writes`), not while a family is tapping a payment through.
IDLE_S = 0.4


class Terminal:
    """The tap machine. ``game`` may be None until a new game is started from the banker menu.

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
    - ``phone``: the phone page's switch and link (:class:`~terminal.table.settings.PhonePage`: the banker menu's
      "Phones", the idle screen's QR code), or None (no phone page: the option is not offered).
    """

    def __init__(self, game: Game | None, registry: CardLookup | None, beeper: Sounds | None,
                 clock: Callable[[], float], settings: TerminalSettings | None = None,
                 game_factory: GameFactory | None = None, enrolment_factory: Callable[[], Enrolment] | None = None,
                 notice: Msg | None = None, damage: Damage | None = None,
                 restore: Callable[[], Game] | None = None,
                 find_backup: Callable[[Game], tuple[str, Callable[[], Game]] | None] | None = None,
                 phone: PhonePage | None = None):
        self.game = game
        self.registry = registry
        self.beeper = beeper
        self.clock = clock
        self.settings = settings or TerminalSettings()
        self.game_factory = game_factory
        self.enrolment_factory = enrolment_factory
        #: Counts the changes of what is shown (the view is built again after each).
        self.version = 0
        self.screen_version = 0
        self.shown_version: int | None = None
        self.reader_ok = True
        self.dialog: Screen = Idle()
        self.message: Msg | None = notice
        self.message_kind = "info"
        self.last_input = clock()
        self.settle_due = False  # an entry was acknowledged whose mirror line settle_writes flushes
        self.beeps = 0  # patterns asked of the beeper so far (the screen loop lets its worker start each at once)
        self.damage = damage
        self.restore = restore
        self.find_backup = find_backup
        self.phone = phone
        self._after_banker: str | None = None  # what the banker was asked for before identifying ("undo")
        self._last_go: dict[str, float] = {}
        #: The message a cancel gives in the steps that follow a committed GO salary (:meth:`commit`), else None.
        self._stands: Msg | None = None
        self._guard_uid: str | None = None
        self._guard_until = 0.0
        self._view: View | None = None
        self._kept_at: float | None = None
        self._time_shown: int | None = None  # the play time left as last shown (minutes; seconds in the last one)
        self._warned: set[int] = set()  # the warnings before the end already given (TIME_WARNINGS)
        if damage is not None:
            self.dialog = Damaged(damage.problem, damage.backup, at_startup=game is None)
        elif game is not None and game.is_over():
            self.dialog = GameOver()

    @property
    def screen(self) -> Screen:
        """The screen shown (``screen.name`` is its name: ``View.screen``)."""
        return self.dialog

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
            self.changed()
        elif isinstance(event, ReaderBack):
            self.reader_ok = True
            self.changed()

    def shown(self, screen_version: int) -> None:
        """The host drew the screen of this version (``View.screen_version``)."""
        self.shown_version = screen_version

    def _aimed_elsewhere(self, version: int | None) -> bool:
        """An input aimed at a screen no longer shown: dropped with the refusal beep (nothing else moves but
        the timeout, which any input restarts)."""
        self._touch()
        if version is None or version == self.screen_version:
            return False
        self.beep("refused")
        return True

    def present(self, uid: str) -> None:
        """A card was presented (one event per real presentation, from ``hal``). Cards carry no screen
        version: they apply to the current screen (see the module docstring)."""
        now = self.clock()
        if uid == self._guard_uid and now < self._guard_until:
            return None  # the card that just committed: a re-tap never acts twice
        self._touch()
        role = self.registry.lookup(uid) if self.registry is not None else None
        if self.dialog.on_any_card(self, uid, role):
            return None  # a wizard's card: any card to enrol, a seat of the game being set up
        if role is None:
            return self.refuse(Msg("unknown_card", {}, "Unknown card: enrol it from the banker's menu."))
        if isinstance(role, BankerCard):
            return self._banker_card()
        if self.game is None:
            return self.refuse(Msg("no_game", {}, "No game: the banker starts one."))
        tapped: Tapped
        if isinstance(role, PlayerCard):
            player = self._player_of(uid, role)
            if player is None:
                return self.refuse(Msg("card_not_in_game", {}, "This player card is not in the game."))
            if player in self.game.current.bankrupt_list:
                return self.refuse(Msg("bankrupt_card", {"player": player}, f"{player} is bankrupt: out of the game."))
            tapped, kind = PlayerTap(player, uid), "player"
        elif isinstance(role, DeedCard | PropertyCard):
            square = self.board.sticker(self.game.edition, role)
            if isinstance(square, Msg):
                return self.refuse(square)
            tapped, kind = DeedTap(square, uid), "deed"
        elif isinstance(role, EventCard):
            return self.board.event_card(self, EventTap(role.number, uid))
        else:
            return self.refuse(Msg("unknown_card", {}, "Unknown card."))
        if kind not in self.dialog.takes:
            return self.refuse_needs()
        self.dialog.on_card(self, tapped)

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
        self.refuse_needs()

    def digit(self, char: str, version: int | None = None) -> None:
        """A keypad key: ``0``-``9``, ``C`` (clear), ``<`` (erase one) or ``OK`` (enter)."""
        if self._aimed_elsewhere(version):
            return None
        self._touch()
        if "digit" not in self.dialog.takes:
            return self.refuse_needs()
        self.dialog.on_digit(self, char)

    def choose(self, option_id: str, version: int | None = None) -> None:
        """Pick an option shown on screen by its ``id``."""
        if self._aimed_elsewhere(version):
            return None
        self._touch()
        if "option" not in self.dialog.takes:
            return self.refuse_needs()
        options = {o.id: o for o in self.view.options}
        if option_id not in options:
            return self.refuse(Msg("option_unknown", {"option": option_id}, "Unknown choice."))
        if not options[option_id].enabled:
            why = options[option_id].why
            if why is not None:
                return self.refuse(why)
            return self.refuse(Msg("not_allowed_now", {"what": option_id}, f"Not possible here: {option_id}."))
        self.dialog.on_option(self, option_id)

    def confirm(self, version: int | None = None) -> None:
        """The OK button: commit the pending operation, enter the keypad value, close an auction."""
        if self._aimed_elsewhere(version):
            return None
        self._touch()
        if "ok" not in self.dialog.takes:
            return self.refuse_needs()
        self.dialog.on_ok(self)

    def cancel(self, version: int | None = None) -> None:
        """The cancel button: drop what is pending and go back to idle (nothing is recorded). Taken on
        every screen."""
        if self._aimed_elsewhere(version):
            return
        self._touch()
        was_idle = self.dialog.name in ("idle", "game_over")
        stands = self._stands
        self.go_idle()
        if not was_idle:
            self.say(stands or Msg("cancelled", {}, "Cancelled."))

    # ------------------------------------------------------------------------------------------------------
    # Time
    # ------------------------------------------------------------------------------------------------------
    def timeout_s(self) -> float:
        """How long the current screen waits for an input (any input restarts it): the long timeout on the
        screens that wait long (lists, wizards, menus, auctions, trades, bankruptcy), on a keypad or a
        confirmation inside a trade or an auction, and on a confirmation with a long text (a bankruptcy's, an
        undo's); the short one elsewhere."""
        return self.settings.long_timeout_s if self.dialog.waits_long() else self.settings.timeout_s

    def tick(self) -> None:
        """Clock tick: stop payments on a game found damaged; time out a pending step (a trade or an auction
        already set up is shown again and asked about first); end a time-limited game whose time has come."""
        now = self.clock()
        if self.game is not None and self.damage is None:
            problem = self.game.payments_stopped()
            if problem is not None:
                return self._stop_payments(problem)
        self.dialog.tick(self)
        if self.dialog.times_out and now - self.last_input >= self.timeout_s():
            self._time_out()
        if self.game is not None and self.game.mode == "time_limit" and not self.game.is_over() \
                and self.damage is None:
            try:
                if self.game.play_clock.tick() is not None:
                    self._after_commit(None)
                else:
                    self._time_passes()
            except GameError:
                pass
        if self.game is not None and self.damage is None:
            self.settle_writes()
            if now - self.last_input >= IDLE_S:  # idle: the WAL is folded into the file when due
                self.game.settle_writes()
            self.game.maintain()  # the chart's summary, a bounded step (never raises; beeps and commits came first)

    def _time_passes(self) -> None:
        """A time-limited game's play time left: shown again when its shown figure changes (each minute, each
        second of the last one); a warning, with the ``alert`` beep, once at each of :data:`TIME_WARNINGS`."""
        left = self.bank.play_clock.time_left()
        if left is None:
            return
        shown = left if left < 60 else -(-left // 60) + 1000  # the minutes begun, as shown
        if shown != self._time_shown:
            self._time_shown = shown
            self.changed()
        due = [w for w in TIME_WARNINGS if left <= w and w not in self._warned]
        if due:
            self._warned.update(due)
            self.beep("alert")
            self.say(Msg("time_warning", {"left": duration_msg(left)},
                         f"{duration_msg(left).english} of play left: then the game ends, the richest player wins."),
                     "error")

    def _time_out(self) -> None:
        """A timeout drops the step in progress, except a trade or an auction already set up: the first
        timeout shows it again and asks (cancel drops it); only a second one with no input drops it."""
        kept = self.dialog.kept()
        if kept is not None and self._kept_at != self.last_input:
            self.go(kept)
            self._touch()
            self._kept_at = self.last_input
            code = N_("timeout_kept_trade") if kept.name == "trade" else N_("timeout_kept_auction")
            return self.say(Msg(code, {}, "Still there? Kept as it was: Cancel drops it."), "error")
        stands = self._stands
        self.go_idle()
        if kept is not None:
            return self.say(Msg("timed_out_dropped", {}, "Timed out again: dropped, nothing was done."))
        if stands is not None:  # a card's GO salary was recorded before the step that timed out
            return self.say(Msg("timed_out_salary_stands", dict(stands.params),
                                f"Timed out: {stands.params['player']}'s GO salary stands; nothing else was done."))
        self.say(Msg("timed_out", {}, "Timed out: nothing was done."))

    def _touch(self) -> None:
        self.last_input = self.clock()

    def now(self) -> float:
        return self.clock()

    # ------------------------------------------------------------------------------------------------------
    # The view
    # ------------------------------------------------------------------------------------------------------
    @property
    def view(self) -> View:
        """The current :class:`View` (rebuilt only after a change; ``version`` counts changes)."""
        if self._view is None:
            self._view = self.dialog.view(self, self._common())
        return self._view

    def _common(self) -> Common:
        base: Common = {"players": self._players(), "message": self.message, "message_kind": self.message_kind,
                        "reader_ok": self.reader_ok, "language": self.settings.language,
                        "screen_version": self.screen_version}
        if self.game is not None:
            state = self.game.current
            stock = self.board.has_buildings
            base.update({"bank_houses": state.bank["houses"] if stock else None,
                         "bank_hotels": state.bank["hotels"] if stock else None,
                         "pot": state.cash["pot"] if self.game.config.jackpot else None,
                         "edition": self.game.edition.name, "game_over": self.game.is_over(),
                         "time_left": self._time_left_msg()})
        return base

    def _time_left_msg(self) -> Msg | None:
        """The play time left of a time-limited game in play, and what its end does (None otherwise)."""
        game = self.game
        if game is None or game.mode != "time_limit" or game.is_over():
            return None
        left = game.play_clock.time_left()
        if left is None:
            return None
        return Msg("time_left", {"left": duration_msg(left)},
                   f"Play time left: {duration_msg(left).english}; then the game ends, the richest player wins")

    def _players(self) -> tuple[PlayerLine, ...]:
        if self.game is None:
            return ()
        state = self.game.current
        lines = []
        for seat, name in enumerate(state.players, start=1):
            # one line per creditor, the amounts owed to them added up (two rents owed to Ann read "owes 1 700 to
            # Ann", not two cut entries), in the order the debts were made; the pot is shown as the Bank
            owed: dict[str, int] = {}
            for d in state.debts_of(name):
                creditor = "bank" if d.creditor == "pot" else d.creditor
                owed[creditor] = owed.get(creditor, 0) + d.amount
            lines.append(PlayerLine(name, seat, state.cash[name], self.game.worth(name), tuple(owed.items()),
                                    name in state.bankrupt_list, len(state.jail_cards_of(name))))
        return tuple(lines)

    # ------------------------------------------------------------------------------------------------------
    # What a screen may ask (terminal.table.screens.base.Table)
    # ------------------------------------------------------------------------------------------------------
    @property
    def bank(self) -> Game:
        """The game in play, on the screens and in the flows that exist only with one (while there is none,
        :meth:`present` takes no card but the banker's and the options that need one are disabled)."""
        if self.game is None:
            raise AssertionError(f"no game on screen {self.dialog.name!r}")
        return self.game

    @property
    def board(self) -> Board:
        return board_for(self.bank.edition)

    def board_of(self, edition: Edition) -> Board:
        return board_for(edition)

    def changed(self) -> None:
        self.version += 1
        self._view = None

    def say(self, msg: Msg, kind: str = "info") -> None:
        self.message, self.message_kind = msg, kind
        self.changed()

    def beep(self, pattern: str) -> None:
        self.beeps += 1
        if self.beeper is not None:
            self.beeper.play(pattern)

    def refuse(self, msg: Msg) -> None:
        self.beep("refused")
        self.say(msg, "error")

    def refuse_error(self, error: GameError, money: tuple[str, ...] = ()) -> None:
        """Show a refusal of the rules. ``money``: the params that are amounts, shown with the currency
        (:func:`format_amount`), in the English text too."""
        params = dict(error.params or {})
        english = str(error)
        money = (*money, "owed")  # what a player in debt owes is always an amount (PlayerInDebt)
        formatted = {k: self.fmt(params[k]) for k in money if isinstance(params.get(k), int)}
        if formatted:
            params.update(formatted)
            english = translate(error.code, params, "en", english)
        self.refuse(Msg(error.code, params, english, exact=True))

    def refuse_needs(self) -> None:
        """An input the screen does not take: one message naming what this screen needs."""
        need = self.dialog.need(self)
        self.refuse(Msg("screen_needs", {"need": need}, f"This screen needs {need.english}."))

    def accept(self) -> None:
        self.beep("accepted")
        self.message = None
        self.changed()

    def go(self, screen: Screen) -> None:
        """Show another screen (a transition the screen shown must declare); the last message belongs to the
        screen it was said on and goes with it."""
        if not may_go(self.dialog.name, screen.name):
            raise AssertionError(f"undeclared transition {self.dialog.name} -> {screen.name}")
        self.dialog = screen
        self.screen_version += 1
        self.message = None
        self.changed()

    def go_idle(self) -> None:
        self._after_banker = None
        self._stands = None  # the flow after a commit is over
        if self.damage is not None:  # nothing is played on a damaged game: its screen stays
            return self.go(Damaged(self.damage.problem, self.damage.backup, at_startup=self.game is None))
        self.go(GameOver() if self.game is not None and self.game.is_over() else Idle())

    def ask_number(self, label: Msg, then: KeypadNext, kind: str = "amount", *, player: str | None,
                   purpose: Msg | None = None, square: int | None = None, back: Screen | None = None) -> None:
        """Open the keypad; on OK with a value, ``then`` goes on. ``player``, ``purpose`` and ``square`` say what
        the number is for (shown above the keypad)."""
        self.go(Keypad(label=label, then=then, kind=kind, back=back, player=player, purpose=purpose, square=square))

    def ask_choice(self, title: Msg, options: list[Option], then: ChoiceNext) -> None:
        self.go(Choice(title=title, options=options, then=then))

    def ask_confirm(self, op: Operation, purpose: Msg, confirm_by: tuple[str, ...] = (), warning: Msg | None = None,
                    double: bool = False, card_only: bool = False, rent: RentAsk | None = None,
                    preview: Preview | None = None, back: Screen | None = None,
                    then: AfterCommit | None = None) -> None:
        """Show a pending operation, computed by the Bank (``preview``, computed here when not given: a refusal is
        shown at once and nothing changes). A charge larger than the payer's cash says what is paid and what stays
        owed. Confirmed, that very computation is committed."""
        if preview is None:
            try:
                preview = self.preview(op)
            except GameError as exc:
                return self.refuse_error(exc)
        pending = pending_of(self, preview, purpose, confirm_by, warning)
        self.go(Confirm(pending=pending, shown_at=self.clock(), double=double, card_only=card_only, rent=rent,
                        back=back, then=then))

    def commit_or_confirm(self, op: Operation, purpose: Msg, confirm_by: tuple[str, ...] = (),
                          uid: str | None = None, rent: RentAsk | None = None, preview: Preview | None = None) -> None:
        """The touch that names the amount commits, unless the operation would create a debt: then its
        confirmation says what is paid and what stays owed. A refusal is shown and nothing changes. One
        computation: the preview decides, and is what is committed."""
        if preview is None:
            try:
                preview = self.preview(op)
            except GameError as exc:
                return self.refuse_error(exc)
        if preview.debts_created:
            return self.ask_confirm(op, purpose, confirm_by, rent=rent, preview=preview)
        self.commit(preview, uid)

    def preview(self, op: Operation) -> Preview:
        return self.bank.preview(op)

    def commit(self, preview: Preview, uid: str | None = None, then: AfterCommit | None = None) -> None:
        """Commit ``preview`` (computed again by the Bank only if the journal moved since); the done message says
        what moved. A refusal (the game moved since the preview) goes back to idle with the Bank's message; a file
        that cannot be written stops payments."""
        try:
            receipt = self.bank.commit(preview)
        except GameError as exc:
            if self._damage_of(exc):
                return None
            self.go_idle()
            return self.refuse_error(exc)
        if isinstance(receipt.operation, PassGo):
            self._last_go[receipt.operation.player] = self.clock()
        elif isinstance(receipt.undone, PassGo):  # an undone salary was not collected: no second-GO warning
            self._last_go.pop(receipt.undone.player, None)
        if uid is not None:
            self._guard_uid, self._guard_until = uid, self.clock() + self.settings.retap_guard_s
        self.go_idle()
        self._after_commit(receipt)
        if then is not None and not self.bank.is_over() and self.damage is None:
            done, kind = self.message, self.message_kind
            if isinstance(receipt.operation, PassGo):
                # What a cancel (or a timeout) of the steps that follow then says: the salary was recorded and
                # stays; only what followed it (a purchase, a rent, a tax...) is not done. Until idle again.
                player = receipt.operation.player
                self._stands = Msg("cancelled_salary_stands", {"player": player},
                                   f"Cancelled: {player}'s GO salary stands; nothing else was done.")
            then.after(self)
            if self.message is None:  # the next screen said nothing of its own: the done message stays
                self.say(done, kind) if done is not None else None

    def _after_commit(self, receipt: Receipt | None) -> None:
        """The beep of a commit (``receipt`` None: the end of a time-limited game, recorded by the clock), and the
        done message."""
        if self.bank.is_over():
            self.beep("game_over")
            self.go(GameOver())
        elif receipt is not None and isinstance(receipt.operation, DeclareBankruptcy):
            self.beep("bankruptcy")
        else:
            self.beep("success")
        self.settle_due = True  # the entry is durable and beeped: its mirror line once the tone has started
        self.say(done_message(self, receipt), "success")

    def settle_writes(self) -> None:
        """Flush the mirror's line of the entry acknowledged last (:meth:`terminal.Game.settle_writes`,
        ``fold=False``): the screen loop calls it at the end of the turn that beeped, once the beeper's worker has
        had its turn, before the next input is handled (else the next entry's commit flushes it first). Never
        raises."""
        if self.settle_due and self.game is not None:
            self.settle_due = False
            self.game.settle_writes(fold=False)

    def ask_banker(self, then: str | None = None) -> None:
        if then is not None:
            self._after_banker = then
        self._banker_card(touch=True)

    def _banker_card(self, touch: bool = False) -> None:
        """The banker card was tapped (``touch=False``), or a banker function was touched on screen."""
        if not touch:
            self.accept()
            return self.banker_ok()
        if not self.settings.banker_protection:
            return self.banker_ok()
        if self.settings.banker_pin:
            self.go(Pin())
            seconds = pin_wait(self.settings)
            if seconds:  # still waiting after wrong PINs: said at once
                self.say(pin_wait_msg(seconds), "error")
            return None
        self.say(Msg("needs_banker", {}, "Tap the banker card (no banker PIN is set on this terminal)"), "error")

    def banker_ok(self) -> None:
        """The banker is identified: run what was waiting for them, or open the banker menu."""
        then, self._after_banker = self._after_banker, None
        self.go(Banker())
        if then == "undo":
            ask_undo(self)
        elif then == "new_game":
            start_new_game(self)
        elif then == "restore":
            restore_backup(self)

    def take_game(self, game: Game) -> None:
        """``game`` becomes the game in play: the one before is closed, a damaged file's state is forgotten."""
        if self.game is not None:
            self.game.close()
        self.game, self.damage, self.restore = game, None, None
        self._last_go.clear()
        self._warned.clear()
        self._time_shown = None

    def last_go(self, player: str) -> float | None:
        return self._last_go.get(player)

    def fmt(self, amount: int) -> str:
        return format_amount(amount, self.bank.edition, self.settings.language, self.settings.display)

    def deed_name(self, square: int) -> str:
        return self.bank.edition.squares[square].name

    def in_debt(self, player: str) -> bool:
        return bool(self.bank.current.debts_of(player))

    # ------------------------------------------------------------------------------------------------------
    # A damaged game
    # ------------------------------------------------------------------------------------------------------
    def _stop_payments(self, problem: str) -> None:
        """The file of the game in play is damaged (a check beside play failed, or refused a payment): payments
        stop at once and the damaged game's screen says so, offering the newest good backup of the game when the
        host finds one."""
        backup = None
        if self.find_backup is not None and self.game is not None:
            try:
                found = self.find_backup(self.game)
            except (GameError, OSError):
                found = None
            if found is not None:
                backup, self.restore = found
        self.damage = Damage(problem, backup)
        self.beep("refused")
        self.go_idle()
        self.say(Msg("payments_stopped", {}, "Payments are stopped: the game's file is damaged."), "error")

    def _damage_of(self, exc: GameError) -> bool:
        """Whether a refused write was refused because the game's file is damaged (then payments stop)."""
        if isinstance(exc, AuditFailed) or exc.code == "ledger_damaged":
            self._stop_payments(str(exc))
            return True
        return False

    def _player_of(self, uid: str, role: PlayerCard) -> str | None:
        cards: Mapping[str, str] = self.bank.meta.get("player_cards") or {}
        if cards:
            for name, card_uid in cards.items():
                if card_uid == uid:
                    return name
            return None
        number = role.number
        return self.bank.players[number - 1] if 1 <= number <= len(self.bank.players) else None
