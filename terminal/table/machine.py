"""The tap-driven state machine: what a player touches.

:class:`Terminal` takes inputs (cards presented and removed, buttons, keypad digits, choices on screen, clock
ticks), drives :class:`terminal.Game`, and produces a :class:`~terminal.table.view.View` for the screen and beep
patterns for the beeper. It imports no pygame and no hardware library (only ``hal.interfaces``' event
classes), and reads time only from the injected clock, so tests drive it headless.

Flows, each ending in one committed operation or in nothing:

- Idle shows every player's cash. A player card opens that player's context; a deed card shows the deed,
  then a player card completes it: unowned -> buy or decline into an auction; another's -> rent; one's own
  -> build, sell, mortgage, lift the mortgage.
- Every money movement is shown (payer -> payee, amount, purpose) before it commits; OK or the acting
  player's card tapped again commits it; cancel drops it. Beeps come after the commit: one sound per action
  (``accepted`` for a tap that moves the flow on, ``success``/``bankruptcy``/``game_over`` for a commit,
  ``refused`` for a refusal, which also shows the rule's message and changes nothing).
- A pending step times out back to idle (10 s by default; auctions and trades 60 s); a deed looked at never
  turns into a purchase later. A card resting or re-tapped at once never acts twice.
- In debt, a player's context offers the ways to raise money (sell, mortgage, trade), the charges the rules
  still impose, the income that goes to the creditor, and bankruptcy; voluntary spending is not offered
  (RULES.md, Debts and bankruptcy). This reading is ours: the issue says "only the ways to raise money and
  bankruptcy", and rents and taxes still fall due at the table.
- Banker functions (undo, adjustments, new game, enrolment, settings) need the banker card or PIN unless
  banker protection is off.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Unpack

from cards.editions import DeckCard
from cards.registry import BankerCard, DeedCard, Enrolment, PlayerCard
from hal.interfaces import ButtonPressed, CardPresented, CardRemoved, ReaderBack, ReaderLost
from terminal.bank.game import Game
from terminal.bank.money import format_amount
from terminal.bank.types import Receipt
from terminal.errors import GameError
from terminal.table.flows import TableFlows
from terminal.table.i18n import translate
from terminal.table.shared import CardHandler, CardLookup, Ctx, GameFactory, Sounds
from terminal.table.shared import TerminalSettings as TerminalSettings  # re-exported: the hosts import it from here
from terminal.table.view import Msg, Option, Pending, View
from terminal.table.view_builder import ViewBuilder

DIGITS = "0123456789"
MAX_DIGITS = 9


_LONG_SCREENS = {"auction", "trade", "new_game", "enrol", "history", "banker", "game_over"}


class Terminal(TableFlows, ViewBuilder):
    """The state machine. ``game`` may be None until a new game is started from the banker menu.

    - ``registry``: maps a UID to a role (``lookup(uid)``; see ``cards.registry``).
    - ``beeper``: anything with ``play(pattern)`` (a ``hal.interfaces.Beeper``).
    - ``clock``: callable returning monotonic seconds.
    - ``game_factory``: ``(edition, players, mode, rules, player_cards, minutes=None) -> Game`` for the
      new-game wizard; ``minutes`` is the length of a time-limited game (the factory sets its end time from
      the wall clock, which the terminal never reads).
    - ``enrolment_factory``: ``() -> cards.registry.Enrolment`` for the enrolment wizard.
    - ``notice``: a message shown on the first screen (the host's "game resumed" after a restart).
    """

    def __init__(self, game: Game | None, registry: CardLookup | None, beeper: Sounds | None,
                 clock: Callable[[], float], settings: TerminalSettings | None = None,
                 game_factory: GameFactory | None = None, enrolment_factory: Callable[[], Enrolment] | None = None,
                 notice: Msg | None = None):
        self.game = game
        self.registry = registry
        self.beeper = beeper
        self.clock = clock
        self.settings = settings or TerminalSettings()
        self.game_factory = game_factory
        self.enrolment_factory = enrolment_factory
        self.version = 0
        self.reader_ok = True
        self.screen = "idle"
        self.ctx: Ctx = {}
        self.message: Msg | None = None
        self.message_kind = "info"
        self.last_input = clock()
        self.banker_unlocked = False
        self._after_banker: Callable[[], None] | None = None
        self._last_go: dict[str, float] = {}
        self._guard_uid: str | None = None
        self._guard_until = 0.0
        self._view: View | None = None
        self.message = notice
        if game is not None and game.is_over():
            self.screen = "game_over"

    # ------------------------------------------------------------------------------------------------------
    # Inputs
    # ------------------------------------------------------------------------------------------------------
    def handle(self, event: object) -> None:
        """Feed one ``hal`` event (card presented/removed, button pressed, reader lost/back)."""
        if isinstance(event, CardPresented):
            self.present(event.uid)
        elif isinstance(event, CardRemoved):
            pass  # removal matters only to the reader's own debouncing
        elif isinstance(event, ButtonPressed):
            self.press(event.button)
        elif isinstance(event, ReaderLost):
            self.reader_ok = False
            self._changed()
        elif isinstance(event, ReaderBack):
            self.reader_ok = True
            self._changed()

    def present(self, uid: str) -> None:
        """A card was presented (one event per real presentation, from ``hal``)."""
        now = self.clock()
        if uid == self._guard_uid and now < self._guard_until:
            return None  # the card that just committed: a re-tap never acts twice
        self._touch()
        role = self.registry.lookup(uid) if self.registry is not None else None
        handler: CardHandler | None = getattr(self, f"_card_{self.screen}", None)
        if self.screen == "enrol":
            return self._card_enrol(uid, role)
        if role is None:
            return self._refuse(Msg("unknown_card", {}, "Unknown card: enrol it from the banker's menu."))
        if isinstance(role, BankerCard):
            return self._banker_card()
        if self.game is None:
            if self.screen == "new_game" and isinstance(role, PlayerCard):
                return self._new_game_card(uid)
            return self._refuse(Msg("no_game", {}, "No game: the banker starts one."))
        if isinstance(role, PlayerCard):
            player = self._player_of(uid, role)
            if player is None:
                if self.screen == "new_game":
                    return self._new_game_card(uid)
                return self._refuse(Msg("card_not_in_game", {}, "This player card is not in the game."))
            if player in self.game.current.bankrupt_list:
                return self._refuse(Msg("bankrupt_card", {"player": player},
                                        f"{player} is bankrupt: out of the game."))
            if handler is None:
                return self._wrong_card_code("part_card_deed_or_banker")
            return handler("player", player, uid)
        if isinstance(role, DeedCard):
            if not self.game.edition.squares[role.square].is_deed:
                return self._refuse(Msg("unknown_card", {}, "Unknown card: enrol it from the banker's menu."))
            if handler is None:
                return self._wrong_card_code("part_card_player")
            return handler("deed", role.square, uid)
        return self._refuse(Msg("unknown_card", {}, "Unknown card."))

    def press(self, button: str) -> None:
        """A button: ``confirm``, ``cancel`` or a function key ``f1``..``f4`` (the first options)."""
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
        self._refuse(Msg("not_allowed_now", {"what": button}, f"Not possible here: {button}."))

    def digit(self, char: str) -> None:
        """A keypad key: ``0``-``9``, ``C`` (clear), ``<`` (erase one) or ``OK`` (enter)."""
        self._touch()
        if self.screen not in ("keypad", "pin"):
            return self._refuse(Msg("not_allowed_now", {"what": char}, f"Not possible here: {char}."))
        buffer = self.ctx.get("buffer", "")
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
            return self._refuse(Msg("not_allowed_now", {"what": char}, f"Not possible here: {char}."))
        self.ctx["buffer"] = buffer
        self._changed()

    def type_amount(self, value: int) -> None:
        """Type a whole amount on the keypad and press OK (for tests and scripted demos)."""
        self.digit("C")
        for char in str(value):
            self.digit(char)
        self.digit("OK")

    def choose(self, option_id: str) -> None:
        """Pick an option shown on screen by its ``id``."""
        self._touch()
        options = {o.id: o for o in self.view.options}
        if option_id not in options:
            return self._refuse(Msg("option_unknown", {"option": option_id}, "Unknown choice."))
        if not options[option_id].enabled:
            return self._refuse(Msg("not_allowed_now", {"what": option_id}, f"Not possible here: {option_id}."))
        handler = getattr(self, f"_choose_{self.screen}")
        handler(option_id)

    def confirm(self) -> None:
        """The OK button: commit the pending operation, enter the keypad value, close an auction."""
        self._touch()
        handler = getattr(self, f"_confirm_{self.screen}", None)
        if handler is None:
            return self._refuse(Msg("not_allowed_now", {"what": "OK"}, "Not possible here: OK."))
        handler()

    def cancel(self) -> None:
        """The cancel button: drop what is pending and go back to idle (nothing is recorded)."""
        self._touch()
        was_idle = self.screen == "idle"
        self._go_idle()
        if not was_idle:
            self._say(Msg("cancelled", {}, "Cancelled."))

    def tick(self) -> None:
        """Clock tick: time out a pending step; end a time-limited game whose time has come."""
        now = self.clock()
        limit = self.settings.long_timeout_s if self.screen in _LONG_SCREENS else self.settings.timeout_s
        if self.screen not in ("idle", "game_over") and now - self.last_input >= limit:
            self._go_idle()
            self._say(Msg("timed_out", {}, "Timed out: nothing was done."))
        if self.game is not None and self.game.mode == "time_limit" and not self.game.is_over():
            try:
                if self.game.tick() is not None:
                    self._after_commit("end_game")
            except GameError:
                pass

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
        formatted = {k: self._fmt(params[k]) for k in money if isinstance(params.get(k), int)}
        if formatted:
            params.update(formatted)
            english = translate(error.code, params, "en", english)
        self._refuse(Msg(error.code, params, english, exact=True))

    def _wrong_card(self, expected: str) -> None:
        """A card of the wrong kind; ``expected``: the names of the players whose card would do."""
        self._refuse(Msg("wrong_card", {"expected": expected}, f"Not that card here: this step needs {expected}."))

    def _wrong_card_code(self, code: str) -> None:
        """A card of the wrong kind; ``code``: a ``part_card_*`` text saying which card the step needs."""
        english = translate(code, {}, "en")
        self._refuse(Msg("wrong_card_kind", {"expected_code": code}, f"Not that card here: this step needs {english}."))

    def _accept(self) -> None:
        self._beep("accepted")
        self.message = None
        self._changed()

    def _go(self, screen: str, **ctx: Unpack[Ctx]) -> None:
        """Show another screen; the last message belongs to the screen it was said on and goes with it."""
        self.screen = screen
        self.ctx = ctx
        self.message = None
        self._changed()

    def _go_idle(self) -> None:
        self._after_banker = None
        self._go("game_over" if self.game is not None and self.game.is_over() else "idle")

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
    def _ask_number(self, label: Msg, on_enter: Callable[[int], None], kind: str = "amount", *, player: str,
                    purpose: Msg | None = None, square: int | None = None) -> None:
        """Open the keypad; ``on_enter(value)`` runs on OK with a positive whole value. ``player``,
        ``purpose`` and ``square`` say what the number is for (shown above the keypad)."""
        ctx: Ctx = {"buffer": "", "label": label, "on_enter": on_enter, "kind": kind, "back": (self.screen, self.ctx),
                    "player": player, "purpose": purpose}
        if square is not None:
            ctx["square"] = square
        self._go("keypad", **ctx)

    def _confirm_keypad(self) -> None:
        buffer = self.ctx.get("buffer", "")
        if not buffer:
            return self._refuse(Msg("empty_amount", {}, "Type an amount."))
        self.ctx["on_enter"](int(buffer))

    def _ask_confirm(self, op: Mapping[str, Any], purpose: Msg, confirm_by: tuple[str, ...] = (),
                     warning: Msg | None = None, double: bool = False, card_only: bool = False) -> None:
        """Show a pending operation (checked by a preview: a refusal is shown at once and nothing changes)."""
        try:
            effects = self._game.preview(op)
        except GameError as exc:
            return self._refuse_error(exc)
        pending = Pending(op=dict(op), purpose=purpose, postings=tuple(effects.postings), confirm_by=confirm_by,
                          warning=warning)
        self._go("confirm", pending=pending, shown_at=self.clock(), double=double, card_only=card_only,
                 cards=set())

    def _confirm_confirm(self) -> None:
        if self.ctx.get("card_only"):
            return self._refuse(Msg("trade_hint", {}, "Both players tap their cards to agree"))
        if self.ctx.get("double"):
            self.ctx["double"] = False
            self._beep("accepted")
            self._say(Msg("confirm_again", {}, "Tap again to confirm"))
            return None
        self._commit(self.ctx["pending"].op)

    def _card_confirm(self, kind: str, who: Any, uid: str) -> None:
        pending: Pending = self.ctx["pending"]
        if kind != "player" or who not in pending.confirm_by:
            if not pending.confirm_by:
                return self._wrong_card_code("part_card_ok")
            return self._wrong_card(" / ".join(pending.confirm_by))
        if self.clock() - self.ctx["shown_at"] < self.settings.confirm_min_delay_s:
            return None  # the same hand tapping twice in a row: not a confirmation
        if self.ctx.get("card_only"):
            cards = self.ctx["cards"]
            cards.add(who)
            self.ctx["pending"] = replace(pending, confirmed_by=tuple(sorted(cards)))
            if cards >= set(pending.confirm_by):
                return self._commit(pending.op, uid)
            return self._accept()
        if self.ctx.get("double"):
            self.ctx["double"] = False
            self._beep("accepted")
            self._say(Msg("confirm_again", {}, "Tap again to confirm"))
            return None
        self._commit(pending.op, uid)

    def _commit(self, op: Mapping[str, Any], uid: str | None = None) -> None:
        try:
            receipt = self._game.apply(op) if op.get("op") != "undo" else self._game.undo()
        except GameError as exc:
            self._go_idle()
            return self._refuse_error(exc)
        if op.get("op") == "pass_go":
            self._last_go[op["player"]] = self.clock()
        if uid is not None:
            self._guard_uid, self._guard_until = uid, self.clock() + self.settings.retap_guard_s
        self._go_idle()
        self._after_commit(op.get("op"), receipt)

    def _after_commit(self, name: str | None, receipt: Receipt | None = None) -> None:
        if self._game.is_over():
            self._beep("game_over")
            self._go("game_over")
        elif name == "declare_bankruptcy":
            self._beep("bankruptcy")
        else:
            self._beep("success")
        moved = ", ".join(f"{self._label(p)} → {self._label(q)} {self._fmt(a)}" for p, q, a in
                          (receipt.postings if receipt else ()))
        self._say(Msg("done", {"detail": moved}, ("Done. " + moved).strip()), "success")

    def _label(self, account: str) -> str:
        names = {"bank": "ui_bank_name", "pot": "ui_pot_name"}
        return translate(names[account], {}, self.settings.language) if account in names else account

    def _choose(self, title: Msg, options: list[Option], on_choose: Callable[[str], None],
                on_card: CardHandler | None = None) -> None:
        self._go("choose", title=title, options=options, on_choose=on_choose, on_card=on_card)

    def _choose_choose(self, option_id: str) -> None:
        self.ctx["on_choose"](option_id)

    def _card_choose(self, kind: str, who: Any, uid: str) -> None:
        on_card = self.ctx.get("on_card")
        if on_card is None:
            return self._wrong_card_code("part_card_choice")
        on_card(kind, who, uid)

    # ------------------------------------------------------------------------------------------------------
    # Idle, deed and player contexts
    # ------------------------------------------------------------------------------------------------------
    def _card_idle(self, kind: str, who: Any, uid: str) -> None:
        self._accept()
        if kind == "player":
            self._open_player(who)
        else:
            self._go("deed", square=who)

    _card_game_over = None  # a game that is over takes no card but the banker's

    def _choose_idle(self, option_id: str) -> None:
        if option_id == "any_deed":
            self._pick_deed(None, lambda square: self._go("deed", square=square))
        elif option_id == "banker":
            self._banker_card(touch=True)
        elif option_id == "history":
            self._go("history")

    def _card_deed(self, kind: str, who: Any, uid: str) -> None:
        if kind == "deed":
            self._accept()
            return self._go("deed", square=who)
        self._accept()
        self._deed_with_player(self.ctx["square"], who)

    def _deed_with_player(self, square: int, player: str) -> None:
        owner = self._game.current.owner.get(square)
        deed = self._game.edition.squares[square]
        if owner is None:
            return self._go("offer", square=square, player=player)
        if owner == player:
            return self._go("own_deed", square=square, player=player)
        if deed.kind == "utility":
            return self._ask_number(Msg("keypad_dice", {}, "Dice total (2 to 12)"),
                                    lambda dice: self._rent(player, square, dice=dice), kind="dice", player=player,
                                    purpose=Msg("purpose_pay_rent", {"deed": deed.name}, f"Rent on {deed.name}"),
                                    square=square)
        self._rent(player, square)

    def _rent(self, player: str, square: int, dice: int | None = None, card: str | None = None) -> None:
        op: dict[str, Any] = {"op": "pay_rent", "player": player, "square": square}
        if dice is not None:
            op["dice"] = dice
        if card:
            op["card"] = card
        self._ask_confirm(op, Msg("purpose_pay_rent", {"deed": self._deed_name(square)},
                                  f"Rent on {self._deed_name(square)}"), confirm_by=(player,))
        if self.screen == "confirm":
            self.ctx.update({"rent_player": player, "rent_square": square, "rent_dice": dice, "rent_card": card})

    def _choose_confirm(self, option_id: str) -> None:
        # the rent options are shown only for a rent, asked by _rent, which set these
        player, square = self.ctx["rent_player"], self.ctx["rent_square"]
        if option_id == "rent_railroad_card":
            self._rent(player, square, card=None if self.ctx.get("rent_card") else "nearest_railroad")
        elif option_id == "rent_utility_card":
            self._rent(player, square, dice=self.ctx.get("rent_dice"),
                       card=None if self.ctx.get("rent_card") else "nearest_utility")

    def _choose_offer(self, option_id: str) -> None:
        player, square = self.ctx["player"], self.ctx["square"]
        if option_id == "buy":
            name = self._deed_name(square)
            self._ask_confirm({"op": "buy", "player": player, "square": square},
                              Msg("purpose_buy", {"deed": name}, f"Buying {name}"), confirm_by=(player,))
        elif option_id == "decline":
            self._start_auction(square)

    def _card_offer(self, kind: str, who: Any, uid: str) -> None:
        if kind == "deed":
            self._accept()
            return self._go("deed", square=who)
        self._accept()
        self._deed_with_player(self.ctx["square"], who)

    def _choose_own_deed(self, option_id: str) -> None:
        player, square = self.ctx["player"], self.ctx["square"]
        name = self._deed_name(square)
        ops = {
            "build": ({"op": "build", "player": player, "square": square}, "purpose_build", f"Building on {name}"),
            "sell_building": ({"op": "sell_building", "player": player, "square": square}, "purpose_sell_building",
                              f"Selling a building on {name}"),
            "sell_whole": ({"op": "sell_building", "player": player, "square": square, "whole": True},
                           "purpose_sell_building", f"Selling the buildings of {name}'s group"),
            "mortgage": ({"op": "mortgage", "player": player, "square": square}, "purpose_mortgage",
                         f"Mortgaging {name}"),
            "unmortgage": ({"op": "unmortgage", "player": player, "square": square}, "purpose_unmortgage",
                           f"Lifting the mortgage on {name}"),
        }
        if option_id == "build_price":
            return self._ask_number(Msg("keypad_price", {}, "Auction price"), lambda price: self._ask_confirm(
                {"op": "build", "player": player, "square": square, "price": price},
                Msg("purpose_build", {"deed": name}, f"Building on {name}"), confirm_by=(player,)),
                player=player, purpose=Msg("purpose_build", {"deed": name}, f"Building on {name}"), square=square)
        op, code, english = ops[option_id]
        self._ask_confirm(op, Msg(code, {"deed": name}, english), confirm_by=(player,))

    _card_own_deed = _card_offer

    def _open_player(self, player: str) -> None:
        self._go("player", player=player)

    def _card_player(self, kind: str, who: Any, uid: str) -> None:
        if kind == "deed":
            self._accept()
            return self._deed_with_player(who, self.ctx["player"])
        self._accept()
        self._open_player(who)

    def _choose_player(self, option_id: str) -> None:
        player = self.ctx["player"]
        edition = self._game.edition
        simple: dict[str, tuple[dict[str, Any], Msg]] = {
            "pass_go": ({"op": "pass_go", "player": player}, Msg("purpose_pass_go", {}, "GO salary")),
            "luxury_tax": ({"op": "pay_tax", "player": player, "square": 38},
                           Msg("purpose_pay_tax", {"tax": edition.squares[38].name}, edition.squares[38].name)),
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
            return self._ask_confirm(op, purpose, confirm_by=(player,), warning=warning, double=warning is not None)
        if option_id in simple:
            op, purpose = simple[option_id]
            return self._ask_confirm(op, purpose, confirm_by=(player,))
        if option_id == "income_tax":
            return self._income_tax(player)
        if option_id in ("chance", "community_chest"):
            return self._pick_deck_card(player, option_id)
        if option_id == "use_jail_card":
            return self._use_jail_card(player)
        amount_ops = {"pay_bank": "purpose_pay_bank", "bank_pays": "purpose_bank_pays",
                      "pay_each_player": "purpose_pay_each_player",
                      "collect_from_each_player": "purpose_collect_from_each_player"}
        if option_id in amount_ops:
            purpose = Msg(amount_ops[option_id], {}, option_id.replace("_", " "))
            return self._ask_number(Msg("keypad_amount", {}, "Amount"), lambda amount: self._ask_confirm(
                {"op": option_id, "player": player, "amount": amount}, purpose, confirm_by=(player,)),
                player=player, purpose=purpose)
        if option_id == "transfer":
            return self._ask_number(Msg("keypad_amount", {}, "Amount"),
                                    lambda amount: self._choose_payee(player, amount),
                                    player=player, purpose=Msg("purpose_transfer", {}, "Payment"))
        if option_id == "repairs":
            repairs = Msg("purpose_repairs", {}, "Repairs")
            return self._ask_number(Msg("keypad_per_house", {}, "Price per house"), lambda per_house: self._ask_number(
                Msg("keypad_per_hotel", {}, "Price per hotel"), lambda per_hotel: self._ask_confirm(
                    {"op": "repairs", "player": player, "per_house": per_house, "per_hotel": per_hotel},
                    repairs, confirm_by=(player,)), player=player, purpose=repairs), player=player, purpose=repairs)
        if option_id == "trade":
            return self._choose(Msg("choose_partner", {}, "With whom? Tap their card"), [],
                                lambda _: None, on_card=lambda kind, who, uid: self._start_trade(player, kind, who))
        if option_id == "my_deeds":
            return self._pick_deed(player, lambda square: self._deed_with_player(square, player))
        if option_id == "any_deed":
            return self._pick_deed(None, lambda square: self._deed_with_player(square, player))
        if option_id == "bankruptcy":
            return self._bankruptcy(player)

    def _income_tax(self, player: str) -> None:
        op = {"op": "pay_tax", "player": player, "square": 4}
        tax = self._game.edition.squares[4].name
        purpose = Msg("purpose_pay_tax", {"tax": tax}, tax)
        if not self._game.config.rules.get("income_tax_percent"):
            return self._ask_confirm(op, purpose, confirm_by=(player,))
        options = []
        for choice in ("flat", "percent"):
            try:
                amount = sum(a for p, _, a in self._game.preview({**op, "choice": choice}).postings if p == player)
            except GameError:
                amount = 0
            options.append(Option(choice, Msg(f"opt_{choice}", {"amount": self._fmt(amount)}, choice)))
        self._choose(purpose, options, lambda choice: self._ask_confirm({**op, "choice": choice}, purpose,
                                                                          confirm_by=(player,)))

    def _use_jail_card(self, player: str) -> None:
        held = self._game.current.jail_cards_of(player)
        op = {"op": "use_jail_card", "player": player}
        purpose = Msg("purpose_use_jail_card", {}, "Leaving jail with the card")
        # Always ask which card: the player knows which deck's card they hold.
        self._choose(purpose, [Option(d, Msg(f"opt_{d}", {}, d)) for d in held],
                     lambda deck: self._ask_confirm({**op, "deck": deck}, purpose, confirm_by=(player,)))

    def _choose_payee(self, player: str, amount: int) -> None:
        def to(payee: str) -> None:
            if payee == player:
                return self._refuse(Msg("pay_self", {"player": player}, f"{player} cannot pay themselves."))
            self._ask_confirm({"op": "transfer", "from": player, "to": payee, "amount": amount},
                              Msg("purpose_transfer", {}, "Payment"), confirm_by=(player,))

        def on_card(kind: str, who: Any, uid: str) -> None:
            if kind != "player":
                return self._wrong_card_code("part_card_payee")
            self._accept()
            to(who)
        self._choose(Msg("choose_payee", {}, "To whom?"), [Option("bank", Msg("opt_bank", {}, "The Bank"))],
                     lambda _: to("bank"), on_card=on_card)

    def _pick_deed(self, player: str | None, then: Callable[[int], None]) -> None:
        state = self._game.current
        squares = state.deeds_of(player) if player else [d.index for d in self._game.edition.deeds()]
        options = [Option(str(s), Msg("deed_context", {"deed": self._deed_name(s)}, self._deed_name(s)))
                   for s in squares]
        self._choose(Msg("choose_deed", {}, "Choose a title deed"), options, lambda sid: then(int(sid)),
                     on_card=lambda kind, who, uid: then(who) if kind == "deed"
                     else self._wrong_card_code("part_card_deed"))

    # -- Chance and Community Chest ---------------------------------------------------------------------------
    def _pick_deck_card(self, player: str, deck: str) -> None:
        cards = self._game.edition.decks[deck]
        language = self.settings.language
        options = [Option(str(c.number), Msg("deck_card", {}, c.text.get(language) or c.text.get("en", "")))
                   for c in cards]
        self._choose(Msg(f"opt_{deck}", {}, deck), options,
                     lambda number: self._deck_card(player, cards[int(number) - 1]))

    def _deck_card(self, player: str, card: DeckCard) -> None:
        p = card.params
        text = Msg("deck_card", {}, card.text.get(self.settings.language) or card.text.get("en", ""))
        action = card.action
        if action == "collect":
            return self._ask_confirm({"op": "bank_pays", "player": player, "amount": p["amount"]}, text, (player,))
        if action == "pay":
            return self._ask_confirm({"op": "pay_bank", "player": player, "amount": p["amount"]}, text, (player,))
        if action in ("pay_each_player", "collect_from_each_player"):
            return self._ask_confirm({"op": action, "player": player, "amount": p["amount"]}, text, (player,))
        if action == "repairs":
            return self._ask_confirm({"op": "repairs", "player": player, "per_house": p["per_house"],
                                      "per_hotel": p["per_hotel"]}, text, (player,))
        if action == "jail_card":
            return self._ask_confirm({"op": "gain_jail_card", "player": player, "deck": card.deck}, text, (player,))
        if action == "advance_to_go":
            return self._ask_confirm({"op": "pass_go", "player": player}, text, (player,))
        if action == "advance":
            square = p["square"]
            return self._choose(text, [Option("passed", Msg("opt_passed_go", {}, "Passed GO: salary")),
                                       Option("not_passed", Msg("opt_not_passed_go", {}, "Did not pass GO"))],
                                lambda choice: self._advance(player, square, choice == "passed"))
        if action in ("nearest_railroad", "nearest_utility"):
            kind = action.split("_")[1]
            squares = [s.index for s in self._game.edition.deeds() if s.kind == kind]
            options = [Option(str(s), Msg("deed_context", {"deed": self._deed_name(s)}, self._deed_name(s)))
                       for s in squares]
            return self._choose(text, options, lambda sid: self._nearest(player, int(sid), action))
        if action == "pay_or_draw":
            return self._choose(text, [Option("pay", Msg("opt_pay_fine", {"amount": self._fmt(p["amount"])}, "Pay")),
                                       Option("draw", Msg("opt_draw_chance", {}, "Draw a Chance card"))],
                                lambda choice: self._ask_confirm(
                                    {"op": "pay_bank", "player": player, "amount": p["amount"]}, text, (player,))
                                if choice == "pay" else self._pick_deck_card(player, p.get("deck", "chance")))
        self._go_idle()
        self._say(Msg("nothing_to_pay", {}, "Nothing to pay for this card."))

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
        card = action
        if action == "nearest_utility":
            name = self._deed_name(square)
            return self._ask_number(Msg("keypad_dice", {}, "Dice total"),
                                    lambda dice: self._rent(player, square, dice=dice, card=card), kind="dice",
                                    player=player, purpose=Msg("purpose_pay_rent", {"deed": name}, f"Rent on {name}"),
                                    square=square)
        self._rent(player, square, card=card)
