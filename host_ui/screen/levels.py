"""A property's deed on the electronic board (the "Ultimate Banking" edition): its five rent levels, the current
one marked, the price (no mortgage, no houses), and the level marker under its name: :data:`LEVELS_FACE`, the
board's :class:`~host_ui.screen.deed_card.DeedFace`."""
from __future__ import annotations

import pygame

from host_ui.screen.deed_card import FormatMoney, Translate
from host_ui.screen.widgets import Canvas
from terminal.table.view import DeedView


class LevelsFace:
    """The electronic board's deed (:class:`~host_ui.screen.deed_card.DeedFace`)."""

    def rows(self, deed: DeedView, t: Translate, fmt: FormatMoney) -> list[tuple[str, str, bool]]:
        """A property's five rent levels: label, rent, and whether it is the level now (marked on the card)."""
        return [(t("ui_rent_level", level=n), fmt(rent), deed.owner is not None and deed.level == n)
                for n, rent in enumerate(deed.rents, start=1)]

    def money(self, deed: DeedView, t: Translate, fmt: FormatMoney) -> list[tuple[str, str]]:
        return [(t("ui_price", amount="").strip(), fmt(deed.price))]

    def marker(self, c: Canvas, rect: pygame.Rect, level: int) -> None:
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


#: The electronic board's face.
LEVELS_FACE = LevelsFace()
