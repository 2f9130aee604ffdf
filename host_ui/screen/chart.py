"""The end-of-game line chart: every player's worth over the game (``Game.worth_series()``: after each journal
entry, or at a bounded number of points in a long game)."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pygame

from host_ui.screen import theme
from host_ui.screen.widgets import MIN_TEXT_PX, Canvas


def draw_worth_chart(c: Canvas, rect: pygame.Rect, history: Sequence[Mapping[str, int]], seats: dict[str, int],
                     fmt: Callable[[int], str], title: str) -> None:
    """Draw one line per player in ``rect``. ``history``: ``[{player: worth}]`` oldest first, one per entry, or
    a :class:`terminal.bank.history.WorthSeries` (its ``positions`` among ``length`` entries place each point);
    ``seats``: ``{player: seat}`` for the colours; ``fmt``: money formatter for the axis labels."""
    c.box(rect, theme.PANEL, radius=6)
    pad = c.px(6)
    title_h = c.px(18)
    if c.fits(title, rect.w - 2 * pad, title_h, 13, bold=True):
        c.text((rect.x + pad, rect.y + pad // 2, rect.w - 2 * pad, title_h), title, 13, theme.TEXT, bold=True,
               role="chart_title")
    else:  # a narrow chart: the title on two lines
        title_h = 2 * theme.font(max(MIN_TEXT_PX, c.px(9)), True).get_linesize()
        c.paragraph((rect.x + pad, rect.y + pad // 2, rect.w - 2 * pad, title_h), title, 13, theme.TEXT,
                    bold=True, role="chart_title", max_lines=2)
    if not history:
        return
    players = list(history[0].keys())
    per_row = max(1, min(len(players), (rect.w - 2 * pad) // c.px(80)))
    legend_rows = -(-len(players) // per_row)
    legend_h = c.px(16) * legend_rows
    label_w = c.px(58)
    plot = pygame.Rect(rect.x + pad + label_w, rect.y + pad + title_h + c.px(4),
                       rect.w - 2 * pad - label_w - c.px(4), rect.h - 2 * pad - title_h - legend_h - c.px(10))
    if plot.w < 20 or plot.h < 20:
        return
    top = max(max(row.values()) for row in history)
    bottom = min(0, min(min(row.values()) for row in history))
    span = max(top - bottom, 1)
    pygame.draw.rect(c.surface, theme.BG, plot)
    for fraction in (0.0, 0.5, 1.0):
        value = bottom + int(span * fraction)
        y = plot.bottom - int(plot.h * fraction)
        c.line((plot.x, y), (plot.right, y), theme.LINE)
        c.text((rect.x + pad, y - c.px(8), label_w - c.px(3), c.px(16)), fmt(value), 9, theme.MUTED, align="right",
               role="chart_axis", min_size=7)
    positions: Sequence[int] = getattr(history, "positions", None) or range(len(history))
    n = getattr(history, "length", None) or len(history)
    width = max(2, c.px(2))
    for player in players:
        colour = theme.player_colour(seats.get(player, 1))
        points = [(plot.x + (plot.w * i // max(n - 1, 1)), plot.bottom - int(plot.h * (row[player] - bottom) / span))
                  for i, row in zip(positions, history, strict=True)]
        if len(points) == 1:
            points.append((plot.right, points[0][1]))
        pygame.draw.lines(c.surface, colour, False, points, width)
    # legend
    each = (rect.w - 2 * pad) // per_row
    line_h = c.px(16)
    size = c.common_size(players, each - c.px(15), line_h, 10, min_size=6)
    for index, player in enumerate(players):
        row, col = divmod(index, per_row)
        x = rect.x + pad + col * each
        y = plot.bottom + c.px(6) + row * line_h
        colour = theme.player_colour(seats.get(player, 1))
        pygame.draw.rect(c.surface, colour, (x, y + line_h // 2 - c.px(3), c.px(10), c.px(6)))
        c.text((x + c.px(13), y, each - c.px(15), line_h), player, size, theme.TEXT, role="chart_legend",
               min_size=6)
