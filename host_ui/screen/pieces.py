"""The pieces the screens' layouts share (:mod:`host_ui.screen.screens`, the electronic board's
:mod:`host_ui.screen.ultimate`): the bottom row of buttons, options as buttons (paged), a player's strip, the
deed card beside its owner and rent, title deeds as tiles. Sizes are design pixels (``Canvas.px`` scales them to
the screen)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Protocol

import pygame

from cards.editions import Square, localized
from host_ui.screen import theme
from host_ui.screen.context import Context
from host_ui.screen.deed_card import draw_deed as draw_deed_card
from host_ui.screen.deed_card import draw_status, min_card_width
from host_ui.screen.theme import Colour
from host_ui.screen.widgets import MIN_TARGET_PX, MIN_TEXT_PX, ButtonAction, Canvas, grid, split_h, split_v
from terminal.table.i18n import N_
from terminal.table.view import DeedView, Option


class Layout(Protocol):
    """A screen's layout: draws the screen's body into ``body`` (the area under the header) and registers its
    buttons on the canvas."""

    def __call__(self, c: Canvas, body: pygame.Rect, ctx: Context, /) -> None: ...


FOOTER = 40      # design pixels: the height of the bottom button row
MIN_BUTTON = 40  # design pixels: the smallest touch target (never under MIN_TARGET_PX pixels either)

#: A button of the bottom row: label, action (None: shown disabled), colour (None: the default) and width weight.
FooterItem = tuple[str, ButtonAction | None, Colour | None, float]


def landscape(body: pygame.Rect) -> bool:
    """Whether ``body`` is wider than tall (the layouts put things side by side then)."""
    return body.w >= body.h


def deed_of(ctx: Context) -> DeedView:
    """The deed of a screen about a deed (the state machine always gives one there), named in the screen's
    language."""
    deed = ctx.view.deed
    assert deed is not None, f"screen {ctx.view.screen} has no deed"
    return replace(deed, name=localized(deed.name, ctx.language))


# -- shared pieces ---------------------------------------------------------------------------------------
def footer(c: Canvas, rect: pygame.Rect, ctx: Context, *, cancel: bool = True, ok: bool = False,
           extra: Iterable[FooterItem] = (), pager: tuple[int, int] | None = None) -> None:
    """Bottom row: [cancel] [extra buttons...] [< page/pages >] [OK]."""
    items: list[FooterItem] = []
    if cancel:
        items.append((ctx.t("ui_cancel"), ("cancel",), theme.CANCEL, 1.0))
    items.extend(extra)
    if pager and pager[1] > 1:
        page, pages = pager
        items.append(("◀", ("page", -1) if page > 0 else None, None, 0.5))
        items.append((f"{page + 1}/{pages}", None, theme.PANEL, 0.6))
        items.append(("▶", ("page", +1) if page < pages - 1 else None, None, 0.5))
    if ok:
        items.append((ctx.t("ui_ok"), ("confirm",), theme.OK, 1.0))
    if not items:
        return
    gap = c.px(6)
    weights = [weight for *_, weight in items]
    # a label that would not fit at the smallest font gets the width it needs; the others share the rest
    unit = max(1.0, rect.w - gap * (len(items) - 1)) / sum(weights)
    smallest = theme.font(MIN_TEXT_PX, True)
    weights = [max(weight, (smallest.size(label)[0] + c.px(16)) / unit) for (label, *_), weight in
               zip(items, weights, strict=True)]
    cells = split_h(rect, *weights, gap=gap)
    for cell, (label, action, colour, _) in zip(cells, items, strict=True):
        c.button(cell, label, action, enabled=action is not None or colour == theme.PANEL, colour=colour, size=15,
                 role="footer")


def page_of(items: list[Option], per_page: int, ctx: Context) -> tuple[list[Option], int, int]:
    """The items of the page shown (``ctx.ui["page"]``, clamped to the last page) when ``per_page`` fit on one,
    that page and the number of pages; both are kept in ``ctx.ui`` for the footer's pager."""
    pages = max(1, -(-len(items) // per_page))
    page = min(ctx.ui.get("page", 0), pages - 1)
    ctx.ui["page"], ctx.ui["pages"] = page, pages
    return items[page * per_page:(page + 1) * per_page], page, pages


def option_grid(c: Canvas, rect: pygame.Rect, options: Iterable[Option], ctx: Context, *, min_w: float = 140,
                cols: int | None = None, min_h: float = MIN_BUTTON, max_h: float = 64) -> tuple[int, int]:
    """Options as buttons, paginated; returns ``(page, pages)`` for the footer's pager."""
    shown_options = list(options)
    if not shown_options:
        return 0, 1
    gap = c.px(6)
    if cols is None:
        cols = max(1, min(3, (rect.w + gap) // (c.px(min_w) + gap)))
    rows_fit = max(1, (rect.h + gap) // (max(c.px(min_h), MIN_TARGET_PX) + gap))
    per_page = cols * rows_fit
    shown, page, pages = page_of(shown_options, per_page, ctx)
    rows = -(-len(shown) // cols) if pages == 1 else rows_fit
    row_h = min(c.px(max_h), (rect.h - gap * (rows - 1)) // rows)
    area = pygame.Rect(rect.x, rect.y, rect.w, rows * row_h + gap * (rows - 1))
    for cell, option in zip(grid(area, len(shown), cols, rows, gap), shown, strict=True):
        c.button(cell, ctx.msg(option.label), ("choose", option.id), enabled=option.enabled,
                 selected=option.selected, size=14, role="option")
    return page, pages


def player_strip(c: Canvas, rect: pygame.Rect, ctx: Context, name: str | None) -> None:
    """A player's name (in their colour), cash and debts on one line (None: an empty strip)."""
    name = name or ""
    line = next((p for p in ctx.view.players if p.name == name), None)
    c.box(rect, theme.PANEL, radius=6)
    pygame.draw.rect(c.surface, ctx.colour_of(name), (rect.x, rect.y, c.px(6), rect.h),
                     border_top_left_radius=c.px(6), border_bottom_left_radius=c.px(6))
    inner = rect.inflate(-c.px(16), 0)
    if line is None:
        c.text(inner, name, 16, ctx.colour_of(name), bold=True, role="player_name")
        return
    cash = ctx.fmt(line.cash)
    f, _ = c.fit(cash, inner.w // 2, inner.h, 16, bold=True)
    cash_w = f.size(cash)[0]
    debts = ctx.listing([ctx.t("ui_owes", amount=ctx.fmt(a), creditor=ctx.account(cr)) for cr, a in line.debts],
                        N_("ui_owes_list"))
    left, middle, right = split_h(inner, 1, 1.3 if debts else 0.01, -cash_w, gap=c.px(6))
    c.text(left, name, 16, ctx.colour_of(name), bold=True, role="player_name")
    if debts:
        c.text(middle, debts, 12, theme.ERROR, align="right", role="debt", min_size=8)
    c.text(right, cash, 16, theme.ERROR if line.debts else theme.TEXT, bold=True, align="right", role="balance")


def deed_card(c: Canvas, rect: pygame.Rect, ctx: Context, *, compact: bool = True,
              deed: DeedView | None = None) -> None:
    """The screen's deed (``deed``: this one instead) as its card in ``rect``, printed as the board prints its
    deeds; ``compact``: without the owner and rent under it."""
    draw_deed_card(c, rect, deed if deed is not None else deed_of(ctx), ctx.t, ctx.fmt, ctx.seat_of, compact=compact,
                   face=ctx.board.face)


def card_width(c: Canvas, ctx: Context) -> int:
    """The narrowest deed card whose text is readable (see :func:`host_ui.screen.deed_card.min_card_width`)."""
    return min_card_width(c, deed_of(ctx), ctx.t, ctx.fmt, ctx.board.face)


def deed_and_side(c: Canvas, body: pygame.Rect, ctx: Context,
                   need: Callable[[pygame.Rect], int] | None = None) -> tuple[pygame.Rect, pygame.Rect]:
    """Split the body: the deed card on one side, its owner and rent now at the top of the other side.
    ``need(side)``: the height the rest of the side needs; the status is left out if it would not leave it.
    Returns (side, footer)."""
    foot_h = c.px(FOOTER)
    main, foot = split_v(body, 1, -foot_h, gap=c.px(6))
    if landscape(main):
        card_w = min(max(int(main.h * 0.74), card_width(c, ctx)), main.w // 2)
        card, side = split_h(main, -card_w, 1, gap=c.px(10))
    else:
        card, side = split_v(main, 1.3, 1, gap=c.px(6))
    deed_card(c, card, ctx)
    if need is None or side.h - c.px(44) >= need(side):
        status_rect, side = split_v(side, -c.px(40), 1, gap=c.px(4))
        draw_status(c, status_rect, deed_of(ctx), ctx.t, ctx.fmt, ctx.seat_of)
    return side, foot


def deed_squares(ctx: Context) -> dict[str, Square] | None:
    """The title deeds by option id when the choice is one of the edition's deeds (the ids are the squares),
    else None."""
    if ctx.view.title.code != "choose_deed" or ctx.edition is None or not ctx.view.options:
        return None
    deeds = {str(square.index): square for square in ctx.edition.deeds()}
    return deeds if all(o.id in deeds for o in ctx.view.options) else None


def deed_grid(c: Canvas, rect: pygame.Rect, ctx: Context, deeds: Mapping[str, Square]) -> tuple[int, int]:
    """Title deeds as tiles, each with its colour group's stripe, its name, its owner (in their colour) and its
    price, two columns where they fit, paged; returns ``(page, pages)``. The 28 deeds of an edition take three
    pages at 800x480 (four at 480x320)."""
    options = list(ctx.view.options)
    gap = c.px(6)
    cols = 2 if rect.w >= c.px(380) else 1
    target = max(MIN_TARGET_PX, c.px(32))
    rows = max(1, (rect.h + gap) // (target + gap))
    per_page = cols * rows
    shown, page, pages = page_of(options, per_page, ctx)
    row_h = min(c.px(56), (rect.h - gap * (rows - 1)) // rows)
    area = pygame.Rect(rect.x, rect.y, rect.w, rows * row_h + gap * (rows - 1))
    state = ctx.game.current if ctx.game is not None else None
    for cell, option in zip(grid(area, len(shown), cols, rows, gap), shown, strict=True):
        deed = deeds[option.id]
        c.box(cell, theme.BUTTON if option.enabled else theme.BUTTON_OFF, radius=7)
        stripe_w = c.px(9)
        band = theme.GROUP_COLOURS.get(deed.group or "", theme.GROUP_COLOURS.get(deed.kind, (90, 90, 90)))
        pygame.draw.rect(c.surface, band, (cell.x, cell.y, stripe_w, cell.h),
                         border_top_left_radius=c.px(7), border_bottom_left_radius=c.px(7))
        inner = pygame.Rect(cell.x + stripe_w + c.px(6), cell.y + c.px(2), cell.w - stripe_w - c.px(12),
                            cell.h - c.px(4))
        price = ctx.fmt(deed.price)
        owner = state.owner.get(deed.index) if state is not None else None
        f = theme.font(max(MIN_TEXT_PX, c.px(12)), True)
        side_w = min(inner.w * 2 // 5, max(f.size(price)[0], f.size(owner or "")[0]) + c.px(4))
        name_rect, side = split_h(inner, 1, -side_w, gap=c.px(6))
        if owner:
            top, bottom = split_v(side, 1, 1)
            c.text(top, owner, 11, ctx.colour_of(owner), bold=True, align="right", role="deed_owner", min_size=9)
            c.text(bottom, price, 12, theme.MUTED, bold=True, align="right", role="amount", min_size=12)
        else:
            c.text(side, price, 12, theme.MUTED, bold=True, align="right", role="amount", min_size=12)
        c.paragraph(name_rect, ctx.msg(option.label), 12.5, theme.TEXT, bold=True, role="option", min_size=9,
                    max_lines=2)
        if option.enabled:
            c.hits.append((cell, ("choose", option.id)))
    return page, pages
