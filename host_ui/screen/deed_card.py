"""A title deed drawn like the printed card: colour band with the name, the rent table with the current
level marked, price / mortgage / house cost, buildings, a MORTGAGED stamp, and under it the owner and the
rent due now.

What is printed on the card is the board's :class:`DeedFace`: the classic board's (:data:`CLASSIC_FACE`: the
rents by buildings, the mortgage value and the house cost, the houses under the name), or the electronic
board's (:data:`host_ui.screen.levels.LEVELS_FACE`), chosen with the board (:mod:`host_ui.screen.boards`)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import pygame

from host_ui.screen import theme
from host_ui.screen.widgets import MIN_TEXT_PX, Canvas, DrawnText, split_v
from terminal.table.view import DeedView


class Translate(Protocol):
    """``t(code, **params)``: the text of message ``code`` in the screen's language."""

    def __call__(self, code: str, **params: Any) -> str: ...


#: Formats an amount of money for the screen.
FormatMoney = Callable[[int], str]
#: A player's seat (1-8) from their name, for their colour.
SeatOf = Callable[[str], int]
#: The smallest font of the card's rent table and figures, in pixels of the screen (above the screens'
#: :data:`~host_ui.screen.widgets.MIN_TEXT_PX`: the amounts are read at arm's length, on a 3.5" panel too).
DEED_TEXT_PX = 12


def card_rect(area: pygame.Rect, aspect: float = 0.72) -> pygame.Rect:
    """The largest card of width/height ``aspect`` centred in ``area``."""
    h = min(area.h, int(area.w / aspect))
    w = int(h * aspect)
    rect = pygame.Rect(0, 0, w, h)
    rect.center = area.center
    return rect


class DeedFace(Protocol):
    """What a board prints on its title deeds: the rent rows (label, amount, whether it is the rent now), the
    money rows (label, amount) under them, and the marker of the deed's ``level`` under its name."""

    def rows(self, deed: DeedView, t: Translate, fmt: FormatMoney) -> list[tuple[str, str, bool]]: ...

    def money(self, deed: DeedView, t: Translate, fmt: FormatMoney) -> list[tuple[str, str]]: ...

    def marker(self, c: Canvas, rect: pygame.Rect, level: int) -> None: ...


class ClassicFace:
    """The classic board's deed: rents by buildings (a railroad's by railroads held, a utility's dice factors),
    the price, the mortgage value and the house cost, the houses or the hotel under the name."""

    def rows(self, deed: DeedView, t: Translate, fmt: FormatMoney) -> list[tuple[str, str, bool]]:
        rows: list[tuple[str, str, bool]] = []
        if deed.kind == "street" and len(deed.rents) == 6:
            labels = [t("ui_rent_bare")] + [t("ui_rent_houses", n=n) for n in range(1, 5)] + [t("ui_rent_hotel")]
            for level, (label, rent) in enumerate(zip(labels, deed.rents, strict=True)):
                rows.append((label, fmt(rent), deed.owner is not None and level == deed.level and level > 0))
        elif deed.kind == "railroad":
            for n, rent in enumerate(deed.rents, start=1):
                rows.append((t("ui_railroads", n=n), fmt(rent), deed.rent is not None and rent == deed.rent))
        else:
            for n, mult in enumerate(deed.rents, start=1):
                rows.append((t("ui_utilities", n=n), t("ui_times_dice", factor=mult), False))
        return rows

    def money(self, deed: DeedView, t: Translate, fmt: FormatMoney) -> list[tuple[str, str]]:
        money = [(t("ui_price", amount="").strip(), fmt(deed.price)),
                 (t("ui_mortgage_value", amount="").strip(), fmt(deed.mortgage_value))]
        if deed.kind == "street":
            money.append((t("ui_house_cost", amount="").strip(), fmt(deed.house_cost)))
        return money

    def marker(self, c: Canvas, rect: pygame.Rect, level: int) -> None:
        _buildings(c, rect, level)


#: The classic board's face.
CLASSIC_FACE = ClassicFace()


def min_card_width(c: Canvas, deed: DeedView, t: Translate, fmt: FormatMoney,
                   face: DeedFace = CLASSIC_FACE) -> int:
    """The card's width at which its table is readable: every label and amount at :data:`DEED_TEXT_PX`."""
    bold = theme.font(DEED_TEXT_PX, True)
    pairs = [(r[0], r[1]) for r in face.rows(deed, t, fmt)] + face.money(deed, t, fmt)
    widest_label = max(bold.size(label)[0] for label, _ in pairs)
    widest_value = max(bold.size(value)[0] for _, value in pairs)
    return widest_label + widest_value + c.px(8) + c.px(4) + 2 * c.px(5) + 2


def draw_deed(c: Canvas, area: pygame.Rect, deed: DeedView, t: Translate, fmt: FormatMoney,
              seat_of: SeatOf | None = None, compact: bool = False, face: DeedFace = CLASSIC_FACE) -> None:
    """Draw ``deed`` in ``area``: the card, then (unless ``compact``) the owner and current rent below it.
    On a small screen the card is made wider than the printed one rather than its text smaller than
    :data:`DEED_TEXT_PX`; when ``area`` is too short for every row at that size, the card shows the rent now
    (the bare rent when the deed has no current level) and the money rows, not the whole rent table.

    ``t(code, **params)`` translates, ``fmt(amount)`` formats money, ``seat_of(name)`` gives a player's seat
    (for their colour), ``face`` is what the board prints on its deeds."""
    status_h = 0 if compact else c.px(44)
    card_area, status = split_v(area, 1, -status_h, gap=c.px(4)) if status_h else (area, None)
    rect = card_rect(card_area)
    wide = min(card_area.w, min_card_width(c, deed, t, fmt, face))
    if rect.w < wide:
        rect = pygame.Rect(0, 0, wide, rect.h)
        rect.center = card_area.center
    pygame.draw.rect(c.surface, (0, 0, 0), rect.move(c.px(2), c.px(3)), border_radius=c.px(6))
    c.box(rect, theme.CARD, radius=6)
    pad = c.px(5)
    inner = rect.inflate(-2 * pad, -2 * pad)
    band_colour = theme.GROUP_COLOURS.get(deed.group, theme.GROUP_COLOURS.get(deed.kind, (90, 90, 90)))
    band_h = max(c.px(30), inner.h // 5)
    name_font = theme.font(MIN_TEXT_PX, True)  # the name on two lines at the smallest size at least
    name_h = len(c.wrap(deed.name.upper(), inner.w - c.px(6), name_font)[:2]) * name_font.get_linesize() + c.px(4)
    band_h = max(band_h, int(name_h / 0.62) + 1 if deed.level else name_h + c.px(4))
    band = pygame.Rect(inner.x, inner.y, inner.w, band_h)
    pygame.draw.rect(c.surface, band_colour, band)
    pygame.draw.rect(c.surface, theme.CARD_TEXT, band, 1)
    fg = theme.text_on(band_colour)
    name_rect = band.inflate(-c.px(6), -c.px(4))
    if deed.level:
        name_rect.h = int(band.h * 0.62)
    c.paragraph(name_rect, deed.name.upper(), 14, fg, bold=True, align="center", role="deed_name", min_size=8,
                max_lines=2)
    if deed.level:
        face.marker(c, pygame.Rect(band.x, band.y + int(band.h * 0.62), band.w, band.h - int(band.h * 0.62)),
                    deed.level)
    rows = face.rows(deed, t, fmt)
    money = face.money(deed, t, fmt)
    table_top = band.bottom + c.px(4)
    table = pygame.Rect(inner.x, table_top, inner.w, inner.bottom - table_top)
    sep = c.px(5)
    row_h = (table.h - sep) / max(len(rows) + len(money), 1)
    if row_h < theme.font(DEED_TEXT_PX, True).get_height() and len(rows) > 1:
        rows = [r for r in rows if r[2]] or rows[:1]  # too short for the table: the rent now, and the figures
        row_h = (table.h - sep) / max(len(rows) + len(money), 1)
    # labels and values share the width in proportion to their widest texts: both fit at one size
    px = max(DEED_TEXT_PX, min(c.px(12), int(row_h * 0.85)))
    regular, bold = theme.font(px, False), theme.font(px, True)
    widest_label = max([(bold if r[2] else regular).size(r[0])[0] for r in rows] +
                       [regular.size(m[0])[0] for m in money])
    widest_value = max(bold.size(v)[0] for v in [r[1] for r in rows] + [m[1] for m in money])
    share = min(0.75, max(0.45, widest_label / max(1, widest_label + widest_value)))
    label_w = int((table.w - c.px(8)) * share)
    value_w = table.w - label_w - c.px(8)
    low = DEED_TEXT_PX / c.scale
    size = min(c.common_size([r[0] for r in rows] + [m[0] for m in money], label_w, int(row_h), 12, bold=True,
                             min_size=low),
               c.common_size([r[1] for r in rows] + [m[1] for m in money], value_w, int(row_h), 12, bold=True,
                             min_size=low))
    small = max(low, size * 0.92)  # the money rows a little smaller than the rents, never under DEED_TEXT_PX
    y = float(table.y)
    for i, (label, value, current) in enumerate(rows + [(m[0], m[1], None) for m in money]):
        if i == len(rows):
            c.line((table.x, int(y + sep / 2)), (table.right, int(y + sep / 2)), theme.LINE)
            y += sep
        row = pygame.Rect(table.x, int(y), table.w, int(row_h))
        y += row_h
        if current:
            pygame.draw.rect(c.surface, (255, 226, 120), row)
        left = pygame.Rect(row.x + c.px(2), row.y, label_w, row.h)
        right = pygame.Rect(left.right + c.px(2), row.y, value_w, row.h)
        shown = small if current is None else size
        c.text(left, label, shown, theme.CARD_TEXT, role="deed_row", min_size=low, bold=bool(current))
        c.text(right, value, shown, theme.CARD_TEXT, bold=True, align="right", role="deed_row", min_size=low)
    if deed.mortgaged:
        _stamp(c, rect, t("ui_mortgaged"))
    if status is not None:
        draw_status(c, status, deed, t, fmt, seat_of)


def _buildings(c: Canvas, rect: pygame.Rect, level: int) -> None:
    size = min(rect.h - c.px(4), c.px(14))
    if size < 4:
        return
    count, colour = (1, (200, 30, 30)) if level == 5 else (level, (30, 150, 60))
    width = size * (2 if level == 5 else 1)
    total = count * width + (count - 1) * c.px(3)
    x = rect.centerx - total // 2
    y = rect.centery - size // 2
    for _ in range(count):
        body = pygame.Rect(x, y + size // 3, width, size - size // 3)
        roof = [(x - 1, y + size // 3), (x + width // 2, y), (x + width, y + size // 3)]
        pygame.draw.rect(c.surface, colour, body)
        pygame.draw.polygon(c.surface, colour, roof)
        pygame.draw.rect(c.surface, (255, 255, 255), body, 1)
        x += width + c.px(3)


def _stamp(c: Canvas, card: pygame.Rect, label: str) -> None:
    px, f, shown = c.fit_px(label, int(card.w * 0.9), card.h // 6, 22, bold=True, min_size=8)
    image = f.render(shown, True, theme.ERROR)
    frame = pygame.Surface((image.get_width() + c.px(10), image.get_height() + c.px(6)), pygame.SRCALPHA)
    pygame.draw.rect(frame, theme.ERROR, frame.get_rect(), max(2, c.px(2)), border_radius=c.px(4))
    frame.blit(image, (c.px(5), c.px(3)))
    turned = pygame.transform.rotate(frame, 20)
    box = turned.get_rect(center=card.center)
    c.surface.blit(turned, box)
    c.texts.append(DrawnText(image.get_rect(center=card.center), shown, "stamp", f.get_height(), px))


def draw_status(c: Canvas, rect: pygame.Rect, deed: DeedView, t: Translate, fmt: FormatMoney,
                seat_of: SeatOf | None) -> None:
    top, bottom = split_v(rect, 1, 1)
    if deed.owner is None:
        c.text(top, t("ui_for_sale"), 14, theme.MUTED, align="center", role="deed_owner")
    else:
        colour = theme.player_colour(seat_of(deed.owner)) if seat_of else theme.TEXT
        c.text(top, t("ui_owner", owner=deed.owner), 14, colour, bold=True, align="center", role="deed_owner")
    if deed.mortgaged:
        c.text(bottom, t("ui_mortgaged"), 14, theme.ERROR, bold=True, align="center", role="deed_rent")
    elif deed.kind == "utility" and deed.owner is not None:
        c.text(bottom, t("ui_rent_dice"), 14, theme.TEXT, align="center", role="deed_rent")
    elif deed.rent is not None:
        c.text(bottom, t("ui_rent_now", amount=fmt(deed.rent)), 14, theme.WARN, bold=True, align="center",
               role="deed_rent")
