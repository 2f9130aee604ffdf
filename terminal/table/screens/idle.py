"""Idle: every player's cash (the host draws the balances). A player's card opens their screen, a deed's sticker
the deed; "Pick a title deed", the banker's menu and the history are on screen. The end of the game's screen
takes the same options (:mod:`terminal.table.screens.game_over`).

``View.extra``: ``notices`` (what the board says of the game in play), ``phone_link`` (the phone page's link,
for a small QR code, when the host shows it on idle and the page is switched on and running; else None)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from terminal.table.i18n import N_
from terminal.table.screens.base import DEED_NEXT, Common, Screen, Table, Tapped, inputs
from terminal.table.screens.deeds import pick_deed
from terminal.table.screens.history import History
from terminal.table.screens.phone import phone_state
from terminal.table.screens.player import open_tapped
from terminal.table.view import Msg, Option, View


def idle_option(t: Table, option_id: str) -> None:
    """An option of the idle screen (and of the end of the game's)."""
    if option_id == "any_deed":
        pick_deed(t, None)
    elif option_id == "banker":
        t.ask_banker()
    elif option_id == "history":
        t.go(History())


@dataclass
class Idle(Screen):
    name: ClassVar[str] = "idle"
    takes: ClassVar[frozenset[str]] = inputs("player deed option event")
    needs: ClassVar[str] = N_("part_card_player_or_deed")
    goes_to: ClassVar[frozenset[str]] = inputs("player pin history event " + DEED_NEXT)
    times_out: ClassVar[bool] = False

    #: The phone link the last view showed (the clock's ticks build the view again when it changes).
    shown_link: str | None = field(default=None, compare=False)

    def on_card(self, t: Table, tapped: Tapped) -> None:
        open_tapped(t, tapped)

    def on_option(self, t: Table, option_id: str) -> None:
        idle_option(t, option_id)

    def view(self, t: Table, base: Common) -> View:
        has_game = t.game is not None
        title = Msg("idle", {}, "Tap a card") if has_game else Msg("no_game", {}, "No game")
        options = [Option("any_deed", Msg("opt_any_deed", {}, "Pick a title deed"), enabled=has_game),
                   Option("banker", Msg("banker_title", {}, "Banker")),
                   Option("history", Msg("opt_history", {}, "History"), enabled=has_game)]
        notices = t.board.idle_notices(t) if has_game else ()  # a market slump running...
        self.shown_link = idle_link(t)
        return View("idle", title, options=tuple(options), extra={"notices": notices, "phone_link": self.shown_link},
                    **base)

    def tick(self, t: Table) -> None:
        if t.phone is not None and t.phone.on_idle and idle_link(t) != self.shown_link:
            t.changed()


def idle_link(t: Table) -> str | None:
    """The phone page's link the idle screen shows (``[phone] qr_on_idle``), or None."""
    phone = t.phone
    if phone is None or not phone.on_idle:
        return None
    return phone_state(phone)[1]
