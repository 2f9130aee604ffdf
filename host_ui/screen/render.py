"""The renderer: a :class:`~terminal.table.view.View` -> a Surface at the screen's logical size, then turned for
the panel.

:class:`Renderer` keeps only what is the screen's own business (the page of a long list, the history's
scroll position); everything else comes from the view. Each :meth:`Renderer.render` returns a
:class:`Frame`: the logical picture, the buttons' targets (``hits``), the texts drawn and the boxes and buttons
drawn (``texts``, ``widgets``: for the fit checks of :mod:`host_ui.screen.fit`).
:func:`to_panel` turns the picture by the configured rotation, the same rotation
:class:`host_ui.screen.input_map.InputMapper` undoes for touches.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

import pygame

from cards.editions import Edition, load_edition
from host_ui.screen import theme
from host_ui.screen.context import Context
from host_ui.screen.input_map import check_rotation
from host_ui.screen.layouts import LAYOUTS, board_for
from host_ui.screen.widgets import ButtonAction, Canvas, DrawnText, Widget
from terminal.bank.game import Game
from terminal.bank.history import WorthSeries
from terminal.table.view import View

__all__ = ["SIZES", "Context", "Frame", "Renderer", "default_clock", "message_height", "to_panel"]

#: The screen sizes the layouts are made for (landscape; 90/270 rotations give the portrait ones).
SIZES = ((480, 320), (800, 480), (1024, 600), (1280, 720))
#: Design pixels reserved at the bottom of every screen for the last message: three short lines in
#: landscape, four in portrait (narrower lines).
MESSAGE_H = 38
MESSAGE_H_PORTRAIT = 52


def message_height(size: tuple[int, int]) -> int:
    """The height in pixels of the message band at logical ``size``."""
    design = MESSAGE_H if size[0] >= size[1] else MESSAGE_H_PORTRAIT
    return max(1, round(design * min(size) / 320))


@lru_cache(maxsize=8)
def _edition(name: str) -> Edition:
    return load_edition(name or "fr")


@dataclass
class Frame:
    surface: pygame.Surface
    hits: list[tuple[pygame.Rect, ButtonAction]]
    texts: list[DrawnText]
    widgets: list[Widget] = field(default_factory=list)

    def action_at(self, x: int, y: int) -> ButtonAction | None:
        """The action of the button under logical pixel (x, y): the last drawn wins."""
        for rect, action in reversed(self.hits):
            if rect.collidepoint(x, y):
                return action
        return None

    def texts_with(self, role: str) -> list[DrawnText]:
        return [t for t in self.texts if t.role == role]


class Renderer:
    """Draws views at ``size`` (logical width, height) for a panel turned by ``rotation``.

    ``display``: ``plain`` or ``km`` (see :func:`terminal.bank.money.format_amount`); ``game``: the
    :class:`terminal.Game` (optional: the end-of-game chart and the history's balances use it);
    ``clock``: returns the wall-clock text shown in the header (None: no clock).
    """

    def __init__(self, size: tuple[int, int], rotation: int = 0, *, display: str = "plain", game: Game | None = None,
                 clock: Callable[[], str] | None = None) -> None:
        self.size = (int(size[0]), int(size[1]))
        self.rotation = check_rotation(rotation)
        self.display = display
        self.game = game
        self.clock = clock
        self.ui: dict[str, Any] = {"page": 0, "scroll": None}
        self._ui_key: tuple[str, str, tuple[tuple[str, Any], ...]] | None = None
        self._worth_cache: tuple[int, WorthSeries] | None = None
        if not pygame.font.get_init():
            pygame.font.init()

    @property
    def scale(self) -> float:
        return min(self.size) / 320

    def ui_event(self, action: ButtonAction) -> bool:
        """Apply a screen-local action (``("page", +1)``, ``("scroll", -1)``); True if it was one. A page of a
        scrolled list (the history, which says how many rows it shows in ``ui["page_rows"]``) scrolls by that
        many rows; the page of a paged list is clamped to its last page when it is drawn."""
        if action[0] == "page":
            self.ui["page"] = max(0, min(self.ui["page"], self.ui.get("pages", 10 ** 6) - 1) + int(action[1]))
            if "page_rows" in self.ui:
                self._scroll(int(action[1]) * int(self.ui["page_rows"]))
            return True
        if action[0] == "scroll":
            self._scroll(int(action[1]))
            return True
        return False

    def _scroll(self, rows: int) -> None:
        current = self.ui.get("scroll")
        self.ui["scroll"] = max(0, (current if current is not None else 10 ** 6) + rows)

    def worth_history(self) -> WorthSeries:
        """The end-of-game chart's points (:meth:`terminal.Game.worth_series`: every entry's while there are few,
        a bounded number in a long game), counted again only when the journal has grown."""
        game = self.game
        if game is None:
            return WorthSeries()
        try:
            last = game.ledger.last_entry()
        except Exception:
            last = None
        if last is None:  # no entry, or the game's file is closed: the last history drawn
            return self._worth_cache[1] if self._worth_cache else WorthSeries()
        key = last[0]
        if self._worth_cache is None or self._worth_cache[0] != key:
            self._worth_cache = (key, game.worth_series())
        return self._worth_cache[1]

    def render(self, view: View, clock_text: str | None = None) -> Frame:
        """Draw ``view``; returns the logical :class:`Frame`."""
        key = (view.screen, view.title.code, tuple(sorted((view.title.params or {}).items(), key=str)))
        if key != self._ui_key:
            self._ui_key = key
            self.ui = {"page": 0, "scroll": None}
        surface = pygame.Surface(self.size)
        surface.fill(theme.BG)
        c = Canvas(surface, self.scale)
        edition = _edition(view.edition) if view.edition else None
        ctx = Context(view, view.language or "fr", edition, self.display, self.game, self.ui,
                      clock_text if clock_text is not None else (self.clock() if self.clock else ""),
                      board_for(edition))
        if view.screen == "game_over":
            ctx.ui["worth_history"] = self.worth_history()
        _, body, _ = self._frame(c, view, ctx)
        LAYOUTS[view.screen](c, body, ctx)
        return Frame(surface, c.hits, c.texts, c.widgets)

    def _frame(self, c: Canvas, view: View, ctx: Context) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        """The header, the body and the message area. The message area is always reserved (empty when there
        is no message), so a message never moves the buttons under a finger; a long message wraps over up
        to three lines."""
        w, h = self.size
        header_h = c.px(32)
        message_h = message_height(self.size)
        lines = 3 if w >= h else 4
        header = pygame.Rect(0, 0, w, header_h)
        colour = theme.PANEL if view.reader_ok else theme.WARN
        c.box(header, colour, radius=0, role="header")
        pad = c.px(8)
        clock_w = c.px(52) if ctx.clock_text else 0
        fg = theme.TEXT if view.reader_ok else theme.CARD_TEXT
        title, title_rect = ctx.msg(view.title), pygame.Rect(pad, 0, w - 2 * pad - clock_w - pad, header_h)
        if c.fits(title, title_rect.w, title_rect.h, 16, bold=True, min_size=10):
            c.text(title_rect, title, 16, fg, bold=True, role="title", min_size=10)
        else:  # a long title (a narrow screen, a long language): on two lines rather than cut
            c.paragraph(title_rect, title, 16, fg, bold=True, role="title", min_size=9, max_lines=2)
        if ctx.clock_text:
            c.text((w - pad - clock_w, 0, clock_w, header_h), ctx.clock_text, 14, fg, align="right", role="clock")
        body = pygame.Rect(pad, header_h + pad, w - 2 * pad, h - header_h - 2 * pad - message_h)
        message = pygame.Rect(0, h - message_h, w, message_h)
        if view.message is not None or not view.reader_ok:
            if not view.reader_ok:
                kind_colour, text = theme.WARN, ctx.t("reader_lost")
            else:
                kind_colour = {"error": theme.ERROR, "success": theme.ACCENT_DARK}.get(view.message_kind,
                                                                                      theme.PANEL_HI)
                text = ctx.msg(view.message)
            c.box(message, kind_colour, radius=0, role="message_band")
            c.paragraph(message.inflate(-2 * pad, -c.px(2)), text, 13, theme.text_on(kind_colour), align="center",
                        role="message", min_size=10, max_lines=lines)
        else:
            c.line((0, message.y), (w, message.y), theme.PANEL, max(1, c.px(1)))
            c.widgets.append(Widget(message, "message_band"))  # kept free: nothing of the body may spill into it
        return header, body, message


def to_panel(surface: pygame.Surface, rotation: int) -> pygame.Surface:
    """Turn the logical picture ``rotation`` degrees clockwise for the panel (pygame turns anticlockwise)."""
    if check_rotation(rotation) == 0:
        return surface
    return pygame.transform.rotate(surface, -rotation)


def default_clock() -> str:
    return datetime.now().strftime("%H:%M")
