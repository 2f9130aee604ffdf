"""The banker's menu (the banker card, or the PIN): undo, adjustments, the end of a time-limited game, the
history, a new game, enrolling cards, the phones' page, the language and the sound."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from terminal.bank.operations import EndGame, Transfer, Undo
from terminal.errors import GameError
from terminal.table.i18n import N_, OPTIONS
from terminal.table.screens.base import (
    DEED_NEXT,
    ChoiceNext,
    Common,
    KeypadNext,
    PlayerTap,
    Screen,
    Table,
    Tapped,
    inputs,
)
from terminal.table.screens.enrol import Enrol
from terminal.table.screens.history import History
from terminal.table.screens.new_game import start_new_game
from terminal.table.screens.phone import PhoneScreen
from terminal.table.screens.player import open_tapped
from terminal.table.view import Msg, Option, View
from terminal.table.words import describe_undo

LANGUAGES = ("fr", "en", "uk")


def ask_undo(t: Table) -> None:
    """The undo of the last operation not yet undone, shown first (what it undoes and pays back)."""
    if t.game is None or t.game.last_undoable() is None:
        return t.refuse(Msg("nothing_to_undo", {}, "There is nothing to undo."))
    try:
        preview = t.preview(Undo())
    except GameError as exc:
        return t.refuse_error(exc)
    assert preview.undone is not None, "an undo's preview names what it undoes"
    t.ask_confirm(Undo(), describe_undo(preview.undone, t.bank.edition), preview=preview)


def adjust_amount(t: Table, player: str, give: bool) -> None:
    """The keypad for an adjustment: the Bank gives (``give``) or takes an amount from ``player``."""
    english = "Adjustment: the Bank gives" if give else "Adjustment: the Bank takes"
    code = N_("opt_adjust_give") if give else N_("opt_adjust_take")
    t.ask_number(Msg("keypad_amount", {}, "Amount"), Adjust(player, give), player=player,
                 purpose=Msg(code, {}, english))


@dataclass
class Banker(Screen):
    name: ClassVar[str] = "banker"
    takes: ClassVar[frozenset[str]] = inputs("player deed option")
    needs: ClassVar[str] = N_("part_card_choice")
    goes_to: ClassVar[frozenset[str]] = inputs("player history new_game enrol pin phone " + DEED_NEXT)
    long: ClassVar[bool] = True

    def on_card(self, t: Table, tapped: Tapped) -> None:
        open_tapped(t, tapped)

    def on_option(self, t: Table, option_id: str) -> None:
        if option_id == "undo":
            ask_undo(t)
        elif option_id in ("adjust_give", "adjust_take"):
            players = t.bank.current.active_players()
            t.ask_choice(Msg("choose_partner", {}, "Which player?"),
                         [Option(p, Msg("name", {"name": p}, p)) for p in players],
                         AdjustPlayer(give=option_id == "adjust_give"))
        elif option_id == "end_game":
            t.ask_confirm(EndGame(), Msg("purpose_end_game", {}, "End of the game"))
        elif option_id == "history":
            t.go(History())
        elif option_id == "new_game":
            start_new_game(t)
        elif option_id == "enrol":
            if t.enrolment_factory is None:
                return t.refuse(Msg("not_allowed_now", {"what": "enrol"}, "Not possible here: enrol."))
            t.go(Enrol(t.enrolment_factory()))
        elif option_id == "phone":
            if t.phone is None:
                return t.refuse(Msg("not_allowed_now", {"what": "phone"}, "Not possible here: phone."))
            t.go(PhoneScreen())
        elif option_id == "language":
            language = t.settings.language
            t.settings.language = LANGUAGES[(LANGUAGES.index(language) + 1) % len(LANGUAGES)]
            t.changed()
        elif option_id == "mute":
            if t.beeper is not None and hasattr(t.beeper, "muted"):
                t.beeper.muted = not t.beeper.muted
            t.changed()

    def view(self, t: Table, base: Common) -> View:
        def opt(option_id: str, english: str, enabled: bool = True, **params: object) -> Option:
            return Option(option_id, Msg(OPTIONS[option_id], params, english), enabled=enabled)
        game = t.game
        muted = bool(getattr(t.beeper, "muted", False))
        options = [opt("undo", "Undo the last operation", enabled=game is not None),
                   opt("adjust_give", "Adjustment: the Bank gives", enabled=game is not None),
                   opt("adjust_take", "Adjustment: the Bank takes", enabled=game is not None),
                   opt("end_game", "End the game", enabled=game is not None and game.mode == "time_limit"),
                   opt("history", "History", enabled=game is not None),
                   opt("new_game", "New game", enabled=t.game_factory is not None),
                   opt("enrol", "Enrol cards", enabled=t.enrolment_factory is not None),
                   opt("phone", "Phones", enabled=t.phone is not None),
                   opt("language", "Language", language=t.settings.language),
                   opt("mute", "Sound", state="off" if muted else "on")]
        return View("banker", Msg("banker_title", {}, "Banker"), options=tuple(options), **base)


@dataclass(frozen=True)
class AdjustPlayer(ChoiceNext):
    """Which player the banker's adjustment is for (a name on the list or their card)."""

    needs: ClassVar[str] = N_("part_card_player")
    give: bool

    def chosen(self, t: Table, option_id: str) -> None:
        adjust_amount(t, option_id, self.give)

    def card(self, t: Table, tapped: Tapped) -> bool:
        if not isinstance(tapped, PlayerTap):
            return False
        adjust_amount(t, tapped.player, self.give)
        return True


@dataclass(frozen=True)
class Adjust(KeypadNext):
    """The banker's adjustment: the Bank gives (``give``) or takes the amount typed from ``player``."""

    player: str
    give: bool

    def entered(self, t: Table, keypad: Any, value: int) -> None:
        move = Transfer("bank", self.player, value) if self.give else Transfer(self.player, "bank", value)
        t.ask_confirm(move, Msg("purpose_transfer", {}, "Payment"))
