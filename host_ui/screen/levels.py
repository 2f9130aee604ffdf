"""A property's deed on the electronic board (the "Ultimate Banking" edition): its five rent levels, the current
one marked, and the level marker under its name (:mod:`host_ui.screen.deed_card` draws them for a
:class:`~terminal.table.view.DeedView` with ``rent_levels``)."""
from __future__ import annotations

from collections.abc import Callable

import pygame

from host_ui.screen.widgets import Canvas
from terminal.table.view import DeedView


def level_rows(deed: DeedView, t: Callable[..., str], fmt: Callable[[int], str]) -> list[tuple[str, str, bool]]:
    """A property's five rent levels: label, rent, and whether it is the level now (marked on the card)."""
    return [(t("ui_rent_level", level=n), fmt(rent), deed.owner is not None and deed.level == n)
            for n, rent in enumerate(deed.rents, start=1)]


def draw_level_marker(c: Canvas, rect: pygame.Rect, level: int) -> None:
    """Five pips under the deed's name, the first ``level`` filled: the marker of the board's rent level."""
    size = min(rect.h - c.px(4), c.px(12))
    if size < 4 or not level:
        return
    gap = c.px(3)
    total = 5 * size + 4 * gap
    x = rect.centerx - total // 2
    y = rect.centery - size // 2
    for n in range(1, 6):
        pip = pygame.Rect(x, y, size, size)
        if n <= level:
            pygame.draw.ellipse(c.surface, (255, 255, 255), pip)
        pygame.draw.ellipse(c.surface, (255, 255, 255), pip, 1)
        x += size + gap
