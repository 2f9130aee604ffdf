"""A QR code drawn as rectangles: the phone page's link, on the banker menu's "Phones" and (small) on idle.

:func:`qr_modules` asks segno for the symbol (error correction L, raised as far as the same size allows; never a
Micro QR, which phones' cameras do not all read) and adds its quiet zone; :func:`draw_qr` draws it dark on
white, each module a whole number of pixels (crisp edges are what a camera needs), centred in the room given.
"""
from __future__ import annotations

from functools import lru_cache

import pygame

from host_ui.screen.widgets import Canvas, Widget

#: Modules of white around the symbol (ISO/IEC 18004 asks for 4).
QUIET_ZONE = 4
#: Below this many pixels a module, a phone's camera struggles: :func:`draw_qr` draws nothing.
MIN_MODULE_PX = 2
DARK = (0, 0, 0)
LIGHT = (255, 255, 255)


@lru_cache(maxsize=8)
def qr_modules(text: str) -> tuple[tuple[bool, ...], ...]:
    """The symbol of ``text`` with its quiet zone: rows of modules, True for a dark one (a square: 29 + 8 for
    a version 3 symbol, which holds a link of 53 bytes)."""
    import segno  # late: only the screens that show a link load it
    symbol = segno.make(text, error="l", boost_error=True, micro=False)
    width = len(symbol.matrix[0]) + 2 * QUIET_ZONE
    blank = (False,) * width
    rows = [blank] * QUIET_ZONE
    rows += [(False,) * QUIET_ZONE + tuple(bool(m) for m in row) + (False,) * QUIET_ZONE for row in symbol.matrix]
    rows += [blank] * QUIET_ZONE
    return tuple(rows)


def qr_side(text: str, room: int) -> int:
    """The side in pixels of ``text``'s QR code drawn in a square of ``room`` pixels (0: too small to scan)."""
    count = len(qr_modules(text))
    module = room // count
    return module * count if module >= MIN_MODULE_PX else 0


def draw_qr(c: Canvas, rect: pygame.Rect, text: str, role: str = "qr") -> pygame.Rect:
    """Draw ``text``'s QR code, quiet zone included, as large as fits in ``rect`` (centred); returns the square it
    covers (empty, nothing drawn, when ``rect`` is too small for :data:`MIN_MODULE_PX`). The square is recorded as a
    widget (no text may cross it)."""
    modules = qr_modules(text)
    side = qr_side(text, min(rect.w, rect.h))
    if not side:
        return pygame.Rect(rect.centerx, rect.centery, 0, 0)
    size = side // len(modules)
    square = pygame.Rect(0, 0, side, side)
    square.center = rect.center
    c.surface.fill(LIGHT, square)
    for y, row in enumerate(modules):
        x = 0
        while x < len(row):  # a run of dark modules as one rectangle
            if not row[x]:
                x += 1
                continue
            start = x
            while x < len(row) and row[x]:
                x += 1
            c.surface.fill(DARK, (square.x + start * size, square.y + y * size, (x - start) * size, size))
    c.widgets.append(Widget(square, role))
    return square


def link_lines(link: str) -> list[str]:
    """A link cut where a reader expects it when it is shown on two lines: before the token's ``t/``."""
    head, sep, tail = link.partition("/t/")
    return [head + "/", "t/" + tail] if sep else [link]
