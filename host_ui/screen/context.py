"""What a screen layout needs besides the canvas: the view, translation, money, seats and the game for the chart.

:class:`Context` is built by :class:`host_ui.screen.render.Renderer` for each frame and handed to the layouts
of :mod:`host_ui.screen.screens`; it lives in a module of its own so that both can import it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cards.editions import Edition
from host_ui.screen import theme
from host_ui.screen.board import CLASSIC, ScreenBoard
from host_ui.screen.history_text import Movement, account_name, movement_text
from host_ui.screen.theme import Colour
from terminal.bank.game import Game
from terminal.bank.money import format_amount
from terminal.table.i18n import FLAGS, MODES, N_, ROUNDINGS, listing, translate
from terminal.table.view import Msg, View


class NoEdition(LookupError):
    """Money was to be shown while no game (so no edition) is open."""


@dataclass
class Context:
    """What a screen layout needs besides the view: translation, money, seats and the game for the chart.

    ``edition``: the game's edition (None when no game is open: nothing on screen is money then);
    ``ui``: the screen-local state (page, scroll position, the chart's history); ``board``: the board of the
    edition (:class:`~host_ui.screen.board.ScreenBoard`)."""

    view: View
    language: str
    edition: Edition | None
    display: str
    game: Game | None = None
    ui: dict[str, Any] = field(default_factory=dict)
    clock_text: str = ""
    board: ScreenBoard = CLASSIC

    def t(self, code: str, **params: Any) -> str:
        return translate(code, params, self.language)

    def listing(self, texts: list[str], code: str = N_("joined_list")) -> str:
        """Texts already translated, as one list in this language: the catalog's entry ``code`` (``{first}``
        then ``{rest}``, ``joined_list`` by default: "a, b, c") says how two items are joined."""
        return listing(texts, self.language, code)

    def msg(self, msg: Msg | None) -> str:
        """Translate a Msg; the settings' values (rule flags, modes, on/off) are translated too."""
        if msg is None:
            return ""
        params = dict(msg.params or {})
        if msg.code == "opt_flag":
            value = params.get("value")
            params["flag"] = self.t(FLAGS[str(params.get("flag"))])
            params["value"] = (self.t("ui_yes") if value is True else self.t("ui_no") if value is False
                               else self.t(ROUNDINGS[str(value)]))
        elif msg.code == "opt_mode":
            params["value"] = self.t(MODES[str(params.get("value"))])
        elif msg.code == "opt_mute":
            params["state"] = self.t("ui_off" if params.get("state") == "off" else "ui_on")
        elif msg.code == "opt_language":
            params["language"] = self.t("ui_language_name")
        return translate(msg.code, params, self.language, msg.english, msg.exact)

    def fmt(self, amount: int) -> str:
        if self.edition is None:
            raise NoEdition(f"cannot show the amount {amount} without a game's edition: open or start a game first")
        return format_amount(amount, self.edition, self.language, self.display)

    def account(self, name: str) -> str:
        return account_name(name, self.language)

    def movement(self, movement: Movement) -> str:
        """``payer → payee amount`` (:func:`host_ui.screen.history_text.movement_text`)."""
        if self.edition is None:
            raise NoEdition(f"cannot show the amount {movement[2]} without a game's edition: open or start a game "
                            f"first")
        return movement_text(movement, self.language, self.edition, self.display)

    def seat_of(self, name: str) -> int:
        for line in self.view.players:
            if line.name == name:
                return line.seat
        return 0

    def colour_of(self, name: str) -> Colour:
        seat = self.seat_of(name)
        return theme.player_colour(seat) if seat else theme.TEXT
