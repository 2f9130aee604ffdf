"""One layout per screen of the tap machine (``View.screen``), listed in :data:`LAYOUTS` (the electronic
board's own screens are in :mod:`host_ui.screen.ultimate`; :data:`host_ui.screen.layouts.LAYOUTS` has them all).
Each layout ``(c, body, ctx)`` draws into ``body`` (the area under the header) and registers its buttons on the
canvas; the pieces they share are in :mod:`host_ui.screen.pieces`.

Button actions: ``("choose", option_id)``, ``("digit", "0"-"9"/"C"/"<")``, ``("confirm",)``, ``("cancel",)``
(terminal inputs) and ``("page", +-1)``, ``("scroll", +-n)`` (screen-local).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import pygame

from cards.editions import DeckCard
from host_ui.screen import history_text, theme
from host_ui.screen.chart import draw_worth_chart
from host_ui.screen.context import Context
from host_ui.screen.deed_card import draw_status
from host_ui.screen.history_text import Movement, merged_movements
from host_ui.screen.pieces import (
    FOOTER,
    MIN_BUTTON,
    FooterItem,
    Layout,
    card_width,
    deed_and_side,
    deed_card,
    deed_grid,
    deed_of,
    deed_squares,
    footer,
    landscape,
    option_grid,
    page_of,
    player_strip,
)
from host_ui.screen.qr import draw_qr, link_lines, qr_side
from host_ui.screen.widgets import MIN_TARGET_PX, MIN_TEXT_PX, Canvas, best_grid, grid, split_h, split_v
from terminal.bank.operations import Trade
from terminal.table.i18n import N_
from terminal.table.view import Msg, Option, PlayerLine


# -- idle: everyone's cash -------------------------------------------------------------------------------
def draw_idle(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    view = ctx.view
    wide = landscape(body)
    timed = view.time_left is not None  # a time-limited game: its play time left and its end, a line of its own
    strip_h = c.px(FOOTER) if wide else c.px(FOOTER) + c.px(24) + (c.px(36) if timed else 0)
    tiles, strip = split_v(body, 1, -strip_h, gap=c.px(6))
    link = (view.extra or {}).get("phone_link")
    if link:  # the phone page's link, small, beside the players (or under them, upright)
        tiles = _idle_qr(c, tiles, str(link))
    players = view.players
    if not players:
        c.paragraph(tiles, ctx.msg(view.title), 22, theme.MUTED, align="center", role="no_game")
    else:
        cols, rows = best_grid(len(players), tiles, aspect=2.0)
        for cell, line in zip(grid(tiles, len(players), cols, rows, c.px(6)), players, strict=True):
            _player_tile(c, cell, ctx, line)
    stock = view.bank_houses is not None and view.bank_hotels is not None  # None: no buildings on this board
    info = ctx.t("ui_bank_stock", houses=Msg("ui_bank_houses", {"n": view.bank_houses}),
                                   hotels=Msg("ui_bank_hotels", {"n": view.bank_hotels})) if stock else ""
    if view.pot is not None:
        info = ctx.t("ui_stock_and_pot", stock=info, pot=ctx.t("ui_pot", amount=ctx.fmt(view.pot)))
    for notice in view.extra.get("notices", ()):  # a market slump running...: after the stock and the pot
        info = ctx.t("ui_stock_and_pot", stock=info, pot=ctx.msg(notice)) if info else ctx.msg(notice)
    if timed and wide:  # first, on the lines of the bank's stock
        left = ctx.msg(view.time_left)
        info = ctx.t("ui_stock_and_pot", stock=left, pot=info) if info else left
    if wide:
        info_rect, buttons = split_h(strip, 1.1, 1.4, gap=c.px(6))
    elif timed:
        time_rect, info_rect, buttons = split_v(strip, -c.px(34), -c.px(22), 1, gap=c.px(2))
        c.paragraph(time_rect, ctx.msg(view.time_left), 13, theme.MUTED, role="time_left", min_size=8, max_lines=2)
    else:
        info_rect, buttons = split_v(strip, -c.px(22), 1, gap=c.px(2))
    if wide:
        c.paragraph(info_rect, info.replace("   ·   ", "\n"), 13, theme.MUTED, role="bank_info", min_size=8,
                    max_lines=3 if timed else 2)
    else:
        c.text(info_rect, info, 13, theme.MUTED, role="bank_info", min_size=8)
    options = list(view.options)
    labels = [ctx.msg(o.label) for o in options]
    # a longer label gets a wider button (a word per line at most: it is never cut)
    longest = [max((len(word) for word in label.split()), default=1) for label in labels]
    weights = [max(1.0, min(2.2, max(len(label) / 10, word / 6))) for label, word in zip(labels, longest, strict=True)]
    cells = split_h(buttons, *weights, gap=c.px(6))
    for cell, option, label in zip(cells, options, labels, strict=True):
        c.button(cell, label, ("choose", option.id), enabled=option.enabled, size=13, role="option")


def _idle_qr(c: Canvas, tiles: pygame.Rect, link: str) -> pygame.Rect:
    """The phone page's QR code at the right of the players' tiles (under them, upright); returns the room left
    for the tiles (all of it when the code would be too small to scan)."""
    gap = c.px(6)
    if landscape(tiles):
        side = qr_side(link, min(tiles.h, tiles.w // 4))
        if not side:
            return tiles
        rest, code = split_h(tiles, 1, -side, gap=gap)
    else:
        side = qr_side(link, min(tiles.w // 3, tiles.h // 4))
        if not side:
            return tiles
        rest, code = split_v(tiles, 1, -side, gap=gap)
    draw_qr(c, code, link, role="phone_qr")
    return rest


def _player_tile(c: Canvas, cell: pygame.Rect, ctx: Context, line: PlayerLine) -> None:
    colour = theme.player_colour(line.seat)
    c.box(cell, theme.PANEL, radius=8)
    stripe = pygame.Rect(cell.x, cell.y, c.px(8), cell.h)
    pygame.draw.rect(c.surface, colour, stripe, border_top_left_radius=c.px(8), border_bottom_left_radius=c.px(8))
    inner = pygame.Rect(cell.x + c.px(14), cell.y + c.px(4), cell.w - c.px(20), cell.h - c.px(8))
    name_h = max(c.px(16), inner.h // 4)
    jail = bool(line.jail_cards) and not line.bankrupt  # who holds a Get Out of Jail Free card: under the cash
    debt_h = max(c.px(14), inner.h // 5) if (line.debts or line.bankrupt or jail) else 0
    name_rect, cash_rect, debt_rect = split_v(inner, -name_h, 1, -debt_h)
    if jail and line.debts:
        debt_rect, jail_rect = split_h(debt_rect, 1, 1, gap=c.px(4))
    elif jail:
        jail_rect = debt_rect
    if jail:
        c.text(jail_rect, ctx.t("ui_jail_card_badge", count=line.jail_cards), 12, theme.MUTED, role="jail_card",
               align="center", min_size=8)
    c.text(name_rect, line.name, 16 * max(1.0, cell.h / c.px(90)), colour, bold=True, role="player_name",
           min_size=10)
    if line.bankrupt:
        c.text(cash_rect, ctx.t("ui_bankrupt"), 20, theme.MUTED, bold=True, role="balance", align="center")
        return
    cash_colour = theme.ERROR if line.debts else theme.TEXT
    c.text(cash_rect, ctx.fmt(line.cash), cash_rect.h / c.scale * 0.9, cash_colour, bold=True, role="balance",
           align="center", min_size=14)
    if line.debts:
        debts = ctx.listing([ctx.t("ui_owes", amount=ctx.fmt(a), creditor=ctx.account(cr)) for cr, a in line.debts],
                            N_("ui_owes_list"))
        c.text(debt_rect, debts, 13, theme.ERROR, role="debt", align="center", min_size=8)


# -- deeds -----------------------------------------------------------------------------------------------
def draw_deed(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    if ctx.view.options:  # a deed for sale (Decline: auction) or an owned one with a rent card's rule
        side, foot = deed_and_side(c, body, ctx)
        option_grid(c, side, ctx.view.options, ctx, cols=1, max_h=70)
        footer(c, foot, ctx)
        return
    foot_h = c.px(FOOTER)
    main, foot = split_v(body, 1, -foot_h, gap=c.px(6))
    if landscape(main):  # the card as tall as the screen allows, its owner and rent beside it
        card_w = min(max(int(main.h * 0.74), card_width(c, ctx)), main.w // 2)
        side_w = (main.w - card_w) // 2 - c.px(10)
        card = pygame.Rect(0, main.y, card_w, main.h)
        card.centerx = main.centerx
        deed_card(c, card, ctx)
        status = pygame.Rect(card.right + c.px(10), main.centery - c.px(30), side_w, c.px(60))
        draw_status(c, status, deed_of(ctx), ctx.t, ctx.fmt, ctx.seat_of)
    else:
        deed_card(c, main, ctx, compact=False)
    footer(c, foot, ctx)


def draw_offer(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    side, foot = deed_and_side(c, body, ctx)
    top, buttons = split_v(side, -c.px(34), 1, gap=c.px(8))
    player_strip(c, top, ctx, ctx.view.player)
    # upright, the side is short: options that do not fit go to a second page, with its buttons in the footer
    pager = option_grid(c, buttons, ctx.view.options, ctx, cols=1, max_h=70)
    footer(c, foot, ctx, pager=pager)


def draw_own_deed(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    if not landscape(body):
        return _own_deed_portrait(c, body, ctx)
    # the player strip already names the owner: the status (owner, rent now) is shown only if the options
    # keep room for all their rows (a button never moves to a second page for it)
    def cols_of(side: pygame.Rect) -> int:
        return 1 if side.w < c.px(240) else 2

    def need(side: pygame.Rect) -> int:
        rows = -(-len(ctx.view.options) // cols_of(side))
        return c.px(34 + 8) + rows * (c.px(MIN_BUTTON) + c.px(6))
    side, foot = deed_and_side(c, body, ctx, need=need)
    top, buttons = split_v(side, -c.px(34), 1, gap=c.px(8))
    player_strip(c, top, ctx, ctx.view.player)
    pager = option_grid(c, buttons, ctx.view.options, ctx, min_w=120, cols=cols_of(side))
    footer(c, foot, ctx, pager=pager)


def _own_deed_portrait(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    """Upright: the card with the player and the deed's status beside it, every option below on one page."""
    main, foot = split_v(body, 1, -c.px(FOOTER), gap=c.px(6))
    cols = 1 if main.w < c.px(240) else 2
    rows = max(1, -(-len(ctx.view.options) // cols))
    options_h = min(main.h // 2, rows * c.px(MIN_BUTTON) + (rows - 1) * c.px(6))
    top, buttons = split_v(main, 1, -options_h, gap=c.px(8))
    need = card_width(c, ctx)  # half the width, more (up to three fifths) if the card's text needs it
    card_w = min(max(int(top.h * 0.72), need), max(top.w // 2, min(need, top.w * 3 // 5)))
    card, right = split_h(top, -card_w, 1, gap=c.px(8))
    deed_card(c, card, ctx)
    strip = pygame.Rect(right.x, right.y, right.w, c.px(34))
    player_strip(c, strip, ctx, ctx.view.player)
    status = pygame.Rect(right.x, strip.bottom + c.px(10), right.w, c.px(48))
    draw_status(c, status, deed_of(ctx), ctx.t, ctx.fmt, ctx.seat_of)
    pager = option_grid(c, buttons, ctx.view.options, ctx, min_w=120, cols=cols)
    footer(c, foot, ctx, pager=pager)


# -- player context, choices, banker menu ----------------------------------------------------------------
def draw_player(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    top, options, foot = split_v(body, -c.px(32), 1, -c.px(FOOTER), gap=c.px(6))
    player_strip(c, top, ctx, ctx.view.player)
    pager = option_grid(c, options, ctx.view.options, ctx)
    footer(c, foot, ctx, pager=pager)


#: The choice screens that list a deck's cards (their title's code), and the deck.
DECK_LISTS = {"opt_chance": "chance", "opt_community_chest": "community_chest"}


def deck_cards(ctx: Context) -> dict[str, DeckCard] | None:
    """The deck's cards by option id when the choice is one of a deck's cards (the ids are the card numbers),
    else None."""
    deck = DECK_LISTS.get(ctx.view.title.code)
    if deck is None or ctx.edition is None or not ctx.view.options:
        return None
    cards = {str(card.number): card for card in ctx.edition.decks.get(deck, ())}
    return cards if all(o.id in cards for o in ctx.view.options) else None


def deck_card_text(option: Option, ctx: Context) -> str:
    """The card's own text from its option (the machine's label may put the amount in front of it)."""
    label = option.label
    if label.code == "deck_card_amount" and isinstance((label.params or {}).get("text"), str):
        return str(label.params["text"])
    return ctx.msg(label)


def deck_card_tile(text: str, card: DeckCard, ctx: Context) -> tuple[str, str, int]:
    """A deck card's short title (its text up to the first ``:`` or ``;``, and before a bracket that would be left
    open), the money it moves (signed, or
    "" when none) and its sign (+1 received, -1 paid, 0 none)."""
    short = text
    for mark in (" : ", " ; ", ": ", "; "):
        short = short.split(mark, 1)[0]
    if short.count("(") > short.count(")"):  # cut inside a bracket: the title ends before it
        short = short[:short.rindex("(")]
    short = short.strip().rstrip(".").strip()
    p = card.params
    action = card.action
    edition = ctx.edition
    if action in ("collect", "advance_to_go"):
        amount = p["amount"] if action == "collect" else (edition.go_salary if edition else 0)
        return short, f"+{ctx.fmt(amount)}", 1
    if action in ("pay", "pay_or_draw"):
        return short, f"−{ctx.fmt(p['amount'])}", -1
    if action == "collect_from_each_player":
        return short, ctx.t("ui_deck_each", amount=f"+{ctx.fmt(p['amount'])}"), 1
    if action == "pay_each_player":
        return short, ctx.t("ui_deck_each", amount=f"−{ctx.fmt(p['amount'])}"), -1
    if action == "repairs":
        return short, f"−{ctx.fmt(p['per_house'])} / {ctx.fmt(p['per_hotel'])}", -1
    return short, "", 0


def deck_grid(c: Canvas, rect: pygame.Rect, ctx: Context, cards: Mapping[str, DeckCard]) -> tuple[int, int]:
    """A deck's cards as tiles, each with its short title and its amount, two columns where they fit, paged;
    returns ``(page, pages)``. Sixteen cards take two pages at 800x480 (and at every landscape size)."""
    options = list(ctx.view.options)
    gap = c.px(6)
    cols = 2 if rect.w >= c.px(380) else 1
    target = max(MIN_TARGET_PX, c.px(MIN_BUTTON))
    rows = max(1, (rect.h + gap) // (target + gap))
    per_page = cols * rows
    shown, page, pages = page_of(options, per_page, ctx)
    row_h = min(c.px(64), (rect.h - gap * (rows - 1)) // rows)
    area = pygame.Rect(rect.x, rect.y, rect.w, rows * row_h + gap * (rows - 1))
    for cell, option in zip(grid(area, len(shown), cols, rows, gap), shown, strict=True):
        title, money, sign = deck_card_tile(deck_card_text(option, ctx), cards[option.id], ctx)
        c.box(cell, theme.BUTTON if option.enabled else theme.BUTTON_OFF, radius=7)
        inner = cell.inflate(-c.px(12), -c.px(4))
        if money:
            colour = theme.OK if sign > 0 else theme.WARN
            f = theme.font(max(MIN_TEXT_PX, c.px(13)), True)
            money_w = min(inner.w // 2, f.size(money)[0] + c.px(4))
            text_rect, money_rect = split_h(inner, 1, -money_w, gap=c.px(6))
            c.text(money_rect, money, 13, colour, bold=True, align="right", role="amount", min_size=13)
        else:
            text_rect = inner
        c.paragraph(text_rect, title, 12.5, theme.TEXT, bold=True, role="option", min_size=9, max_lines=2)
        if option.enabled:
            c.hits.append((cell, ("choose", option.id)))
    return page, pages


def draw_choose(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    options, foot = split_v(body, 1, -c.px(FOOTER), gap=c.px(6))
    cards = deck_cards(ctx)
    if cards is not None:
        footer(c, foot, ctx, pager=deck_grid(c, options, ctx, cards))
        return
    deeds = deed_squares(ctx)
    if deeds is not None:
        footer(c, foot, ctx, pager=deed_grid(c, options, ctx, deeds))
        return
    labels = [ctx.msg(o.label) for o in ctx.view.options]
    longest = max((len(label) for label in labels), default=0)
    cols = 1 if longest > 34 else None
    if not ctx.view.options:
        c.paragraph(options, ctx.msg(ctx.view.title), 20, theme.MUTED, align="center", role="hint")
        pager = (0, 1)
    else:
        pager = option_grid(c, options, ctx.view.options, ctx, cols=cols, min_w=150,
                            min_h=MIN_BUTTON if cols is None else 44)
    footer(c, foot, ctx, pager=pager)


def draw_banker(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    options, foot = split_v(body, 1, -c.px(FOOTER), gap=c.px(6))
    pager = option_grid(c, options, ctx.view.options, ctx, min_w=150)
    footer(c, foot, ctx, pager=pager)


# -- the phones' page: its switch, its link's QR code, a new link ---------------------------------------------
def draw_phone(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    """The QR code of the page's link with the link under it, what the page is doing, and the options (switch,
    new link, done); the renewal's question in place of them while it is asked."""
    view = ctx.view
    extra = view.extra or {}
    main, foot = split_v(body, 1, -c.px(FOOTER), gap=c.px(6))
    gap = c.px(6)
    if extra.get("confirming"):
        c.box(main, theme.PANEL, radius=10)
        c.paragraph(main.inflate(-c.px(16), -c.px(12)), ctx.t("phone_renew_warning"), 17, theme.TEXT, bold=True,
                    align="center", role="prompt", max_lines=5)
        footer(c, foot, ctx, extra=[(ctx.msg(o.label), ("choose", o.id),
                                     theme.ERROR if o.id == "phone_renew_yes" else None, 1.0)
                                    for o in view.options])
        return
    link = extra.get("link")
    status = ctx.msg(extra.get("status"))
    text_h = c.px(30)  # the link on two lines under the code
    if landscape(main):
        column = min(main.w // 2, main.h)
        code, side = split_h(main, -column, 1, gap=gap)
        options_h = min(side.h, 3 * c.px(MIN_BUTTON) + 2 * gap)
        said, options = split_v(side, 1, -options_h, gap=gap)
    else:
        options_h = c.px(MIN_BUTTON) + c.px(12)
        code, said, options = split_v(main, 1, -c.px(44), -options_h, gap=gap)
    if link:
        _phone_code(c, code, str(link), text_h)
        c.paragraph(said, status, 14, theme.MUTED, align="center", role="status", min_size=8, max_lines=4)
    else:  # switched off, or the page is not running: said in the code's place
        c.box(code, theme.PANEL, radius=10)
        c.paragraph(code.inflate(-c.px(12), -c.px(12)), status, 16, theme.TEXT, bold=True, align="center",
                    role="status", min_size=9, max_lines=6)
    option_grid(c, options, view.options, ctx, cols=1 if landscape(main) else 3, min_h=MIN_BUTTON)
    footer(c, foot, ctx)


def _phone_code(c: Canvas, rect: pygame.Rect, link: str, text_h: int) -> None:
    """The link's QR code, as large as fits, with the link itself under it (on two lines when it needs them)."""
    room, under = split_v(rect, 1, -text_h, gap=c.px(2))
    draw_qr(c, room, link)  # never too small to scan on the sizes the layouts are made for
    lines = [link] if c.fits(link, rect.w, text_h // 2, 11, min_size=10) else link_lines(link)
    line_h = under.h // len(lines)
    size = c.common_size(lines, rect.w, line_h, 11, min_size=7)
    for i, line in enumerate(lines):
        c.text((under.x, under.y + i * line_h, under.w, line_h), line, size, theme.TEXT, align="center",
               role="link", min_size=size, block=link, within=under)


# -- keypad ----------------------------------------------------------------------------------------------
KEYPAD = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "<")


def draw_keypad(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    view = ctx.view
    extra = view.extra or {}
    has_context = bool(view.player or extra.get("purpose") or extra.get("deed"))
    if landscape(body):
        left, pad = split_h(body, 1, 1.1, gap=c.px(10))
        if has_context:
            info, display, foot = split_v(left, 1, 1, -c.px(FOOTER), gap=c.px(6))
        else:
            display, foot = split_v(left, 1, -c.px(FOOTER), gap=c.px(6))
            info = None
    else:
        context_h = c.px(74) if has_context else 0
        info, display, pad, foot = split_v(body, -context_h, -c.px(70), 1, -c.px(FOOTER), gap=c.px(6))
        info = info if has_context else None
    buffer = view.keypad or ""
    kind = extra.get("kind")
    if view.screen == "pin":
        shown = buffer or "—"
    elif buffer and kind in ("amount", "bid", None) and view.edition and buffer.isdigit():
        shown = ctx.fmt(int(buffer))
    else:
        shown = buffer or "—"
    if info is not None:
        _keypad_context(c, info, ctx)
    c.box(display, theme.PANEL, radius=8)
    label_h = max(c.px(18), display.h // 4)
    label_rect, value_rect = split_v(display.inflate(-c.px(12), -c.px(6)), -label_h, 1)
    c.text(label_rect, ctx.msg(view.keypad_label), 14, theme.MUTED, role="keypad_label")
    c.text(value_rect, shown, value_rect.h / c.scale * 0.85, theme.TEXT if buffer else theme.MUTED,
           bold=True, align="right", role="keypad_value", min_size=14)
    gap = c.px(6)
    for cell, key in zip(grid(pad, 12, 3, 4, gap), KEYPAD, strict=True):
        label = "⌫" if key == "<" else key
        colour = theme.PANEL_HI if key in "C<" else theme.BUTTON
        c.button(cell, label, ("digit", key), colour=colour, size=22, role="key")
    footer(c, foot, ctx, ok=True)


def _keypad_context(c: Canvas, rect: pygame.Rect, ctx: Context) -> None:
    """What the number is for: the player (strip with their cash), the operation and, for a bid, the best
    offer so far."""
    view = ctx.view
    extra = view.extra or {}
    strip_h = min(c.px(32), rect.h // 2)
    if view.player:
        strip, rect = split_v(rect, -strip_h, 1, gap=c.px(4))
        player_strip(c, strip, ctx, view.player)
    purpose = ctx.msg(extra.get("purpose")) if extra.get("purpose") else extra.get("deed") or ""
    best_line = None
    if extra.get("kind") == "bid":
        best = extra.get("best")
        best_line = ctx.t("ui_best_bid_line", bid=f"{best[0]} {ctx.fmt(best[1])}" if best else ctx.t("ui_no_bid_yet"))
    if best_line:
        rect, best_rect = split_v(rect, 1, 1, gap=c.px(2))
        c.paragraph(best_rect, best_line, 14, theme.WARN, bold=True, role="best_bid_line", max_lines=2, min_size=10)
    if purpose:
        c.paragraph(rect, purpose, 15, theme.TEXT, bold=True, role="purpose", max_lines=2, min_size=10)




# -- confirmation ----------------------------------------------------------------------------------------
def _detail_items(detail: Msg, ctx: Context) -> list[str]:
    """A detail as short lines: its heading ("Anne receives:") then one line per item it lists."""
    items = detail.params.get("items") if detail.code in ("bk_receives", "bk_sold_back") else None
    if not isinstance(items, Msg):
        return [ctx.msg(detail)]
    parts: list[Msg] = []
    while items.code == "joined_list":
        parts.append(items.params["first"])
        items = items.params["rest"]
    parts.append(items)
    heading = ctx.msg(replace(detail, params={**detail.params, "items": ""})).strip()
    return [heading] + [ctx.t("ui_bullet", text=ctx.msg(part)) for part in parts]


def _detail_lines(c: Canvas, width: int, height: int, ctx: Context,
                  details: Sequence[Msg]) -> tuple[int, list[str]]:
    """The font size (pixels) and lines of a confirmation's details, never cut: each detail wrapped, at the
    largest size from 12 design pixels down to the smallest text that fits ``height``; if none does, each
    listed item on its own line(s) (at the smallest size when even that does not fit)."""
    whole = [ctx.msg(d) for d in details]
    short = [line for d in details for line in _detail_items(d, ctx)]
    low = MIN_TEXT_PX
    top = max(low, c.px(12))
    for texts in (whole, short):
        for px in range(top, low - 1, -1):
            f = theme.font(px)
            lines = [line for text in texts for line in c.wrap(text, width, f)]
            if len(lines) * f.get_linesize() <= height:
                return px, lines
    f = theme.font(low)
    return low, [line for text in short for line in c.wrap(text, width, f)]


def _purpose_height(c: Canvas, text: str, width: int) -> tuple[bool, int]:
    """Whether a confirmation's purpose fits on one line at a readable size, and the height it takes: a long
    one (a card's text) goes on two lines rather than in a tiny font on one."""
    if c.fits(text, width, c.px(30), 18, bold=True, min_size=13):
        return True, c.px(30)
    return False, max(c.px(40), 2 * theme.font(max(MIN_TEXT_PX, c.px(13)), True).get_linesize())


def draw_confirm(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    view = ctx.view
    pending = view.pending
    purpose_text = ctx.msg(pending.purpose) if pending is not None else ""
    main, foot = split_v(body, 1, -c.px(FOOTER), gap=c.px(6))
    if view.deed is not None and landscape(main) and main.w > c.px(330):
        card_w = min(max(int(main.h * 0.72), card_width(c, ctx)), main.w * 2 // 5)
        main, card = split_h(main, 1, -card_w, gap=c.px(10))
        draw_deed_compact(c, card, ctx)
    elif view.deed is not None and not landscape(main) and main.h > c.px(300):
        # the movements take what they need; the card gets the rest (at least half)
        count = min(len(merged_movements(pending.postings)) if pending else 1, 6)
        wanted = _purpose_height(c, purpose_text, main.w)[1] + c.px(22 + 16) + count * c.px(58) + (
            c.px(MIN_BUTTON) if view.options else 0) + (c.px(34) if pending and pending.warning else 0)
        main, card = split_v(main, 1, -max(main.h // 2, main.h - wanted - c.px(8)), gap=c.px(8))
        draw_deed_compact(c, card, ctx)
    option_h = c.px(MIN_BUTTON) if view.options else 0
    warn_h = c.px(34) if pending and pending.warning else 0
    one_line, purpose_h = _purpose_height(c, purpose_text, main.w)
    purpose, moves, warn, hint, opts = split_v(main, -purpose_h, 1, -warn_h, -c.px(22), -option_h, gap=c.px(4))
    if pending is None:
        return footer(c, foot, ctx, ok=True)
    if one_line:
        c.text(purpose, purpose_text, 18, theme.TEXT, bold=True, role="purpose", min_size=10)
    else:
        c.paragraph(purpose, purpose_text, 16, theme.TEXT, bold=True, role="purpose", min_size=10, max_lines=2)
    rows = merged_movements(pending.postings)
    if pending.details:  # what else moves (a bankruptcy's deeds, cards, ended debts), under the money: whole
        reserve = c.px(36) if rows else 0
        px, lines = _detail_lines(c, moves.w, max(0, moves.h - reserve - c.px(2)), ctx, pending.details)
        line_h = theme.font(px).get_linesize()
        moves, block = split_v(moves, 1, -line_h * len(lines), gap=c.px(2))
        for i, line in enumerate(lines):
            c.text(pygame.Rect(block.x, block.y + i * line_h, block.w, line_h), line, px / c.scale, theme.TEXT,
                   role="detail", min_size=px / c.scale)
    if isinstance(pending.op, Trade):
        moves = _trade_sides(c, moves, ctx, pending.op)
    if rows:
        row_h = min(c.px(58), moves.h // max(1, min(len(rows), 6)))
        fits = max(1, moves.h // max(row_h, 1))
        template = pygame.Rect(moves.x, moves.y, moves.w, row_h - c.px(3)).inflate(-c.px(12), -c.px(2))
        sizes = _movement_sizes(c, template, ctx, rows[:fits])
        for i, (payer, payee, amount) in enumerate(rows[:fits]):
            row = pygame.Rect(moves.x, moves.y + i * row_h, moves.w, row_h - c.px(3))
            c.box(row, theme.PANEL, radius=6)
            _movement(c, row.inflate(-c.px(12), -c.px(2)), ctx, payer, payee, amount, sizes)
    else:
        c.text(moves, "—", 18, theme.MUTED, align="center", role="amount")
    if warn_h:
        c.box(warn, theme.ERROR, radius=6)
        c.paragraph(warn.inflate(-c.px(10), -c.px(2)), ctx.msg(pending.warning), 13, (255, 255, 255), bold=True,
                    role="warning", max_lines=2, min_size=8)
    if len(pending.confirm_by) > 1:
        hint_text = ctx.t("trade_hint")
        if pending.confirmed_by:
            hint_text = ctx.t("ui_hint_and_agreed", hint=hint_text,
                              agreed=ctx.t("ui_agreed", players=", ".join(pending.confirmed_by)))
    elif pending.confirm_by:
        hint_text = ctx.t("ui_tap_or_ok", player=pending.confirm_by[0])
    else:
        hint_text = ""
    c.text(hint, hint_text, 13, theme.WARN, role="hint", min_size=8)
    if view.options:
        for cell, option in zip(split_h(opts, *[1] * len(view.options), gap=c.px(6)), view.options,
                                strict=True):
            c.button(cell, ctx.msg(option.label), ("choose", option.id), selected=option.selected, size=13,
                     role="option")
    footer(c, foot, ctx, ok=True)


#: How a money movement is drawn: ``(mode, name_size, amount_size)``; mode ``one`` (payer → payee and the
#: amount on one line), ``two`` (the names on a line above the amount) or ``stacked`` (the payer over
#: "→ payee" at the left, the amount beside them).
MovementSizes = tuple[str, float, float]


def _movement_sizes(c: Canvas, rect: pygame.Rect, ctx: Context, rows: Sequence[Movement]) -> MovementSizes:
    """How the movements are drawn in rows shaped like ``rect``, the same for every row. The amount keeps its
    size whatever the names: on one line when every row's names fit beside it at a readable size; else the
    names on a line of their own above the amount when they fit there whole at 11 design pixels at the least;
    else (the longest names) the payer over "→ payee" beside the amount, never cut."""
    big = min(22, rect.h / c.scale * 0.5)
    amount_size = big * 1.2
    readable = max(13.0, big * 0.75)
    arrow_w = c.px(30)
    one_line = two_lines = big
    stacked = big
    for payer, payee, amount in rows:
        who, whom, money = ctx.account(payer), ctx.account(payee), ctx.fmt(amount)
        f, _ = c.fit(money, rect.w // 2, rect.h, amount_size, bold=True, min_size=amount_size)
        beside = rect.w - f.size(money)[0] - arrow_w - c.px(14)
        share = _name_shares(c, (who, whom), beside, big)
        one_line = min(one_line, c.common_size([who], share[0], rect.h, big, bold=True, min_size=6),
                       c.common_size([whom], share[1], rect.h, big, bold=True, min_size=6))
        line_h = int(rect.h * 0.42)
        share = _name_shares(c, (who, whom), rect.w - arrow_w - c.px(8), big)
        two_lines = min(two_lines, c.common_size([who], share[0], line_h, big, bold=True, min_size=6),
                        c.common_size([whom], share[1], line_h, big, bold=True, min_size=6))
        stacked = min(stacked, c.common_size([who], beside + arrow_w, rect.h // 2, big, bold=True, min_size=6),
                      c.common_size([whom], beside - c.px(4), rect.h // 2, big, bold=True, min_size=6))
    if one_line >= readable or rect.h < c.px(38):
        return "one", max(one_line, min(readable, 11)), amount_size
    if two_lines >= 11 or two_lines >= stacked:
        return "two", max(two_lines, 11), min(amount_size * 1.1, rect.h * 0.58 / c.scale * 0.9)
    return "stacked", stacked, amount_size


def _movement(c: Canvas, rect: pygame.Rect, ctx: Context, payer: str, payee: str, amount: int,
              sizes: MovementSizes) -> None:
    """One money movement, payer → payee and the amount, at the sizes of :func:`_movement_sizes`."""
    mode, size, amount_size = sizes
    who, whom, money = ctx.account(payer), ctx.account(payee), ctx.fmt(amount)
    arrow_w = c.px(30)
    if mode == "stacked":
        f, _ = c.fit(money, rect.w // 2, rect.h, amount_size, bold=True, min_size=amount_size)
        names = pygame.Rect(rect.x, rect.y, rect.w - f.size(money)[0] - c.px(14), rect.h)
        first, second = split_v(names, 1, 1)
        arrow, b = split_h(second, -arrow_w, 1, gap=c.px(4))
        c.text(first, who, size, ctx.colour_of(payer), bold=True, role="payer", min_size=size)
        c.text(arrow, "→", size, theme.MUTED, bold=True, align="center", role="arrow")
        c.text(b, whom, size, ctx.colour_of(payee), bold=True, role="payee", min_size=size)
        c.text(rect, money, amount_size, theme.TEXT, bold=True, align="right", role="amount",
               min_size=amount_size * 0.8)
        return
    if mode == "two":
        line, money_rect = split_v(rect, 0.42, 0.58)
        names_w = rect.w - arrow_w - c.px(8)
    else:
        line, money_rect = rect, rect
        f, _ = c.fit(money, rect.w // 2, rect.h, amount_size, bold=True, min_size=amount_size)
        names_w = rect.w - f.size(money)[0] - arrow_w - c.px(14)
    share = _name_shares(c, (who, whom), names_w, size)
    shown_w = theme.font(c.px(size), True).size(who)[0]
    if shown_w < share[0]:  # the arrow right after a short name; the room left goes to the payee
        share = (shown_w, share[1] + share[0] - shown_w)
    a = pygame.Rect(line.x, line.y, share[0], line.h)
    arrow = pygame.Rect(a.right + c.px(4), line.y, arrow_w, line.h)
    b = pygame.Rect(arrow.right + c.px(4), line.y, share[1], line.h)
    c.text(a, who, size, ctx.colour_of(payer), bold=True, role="payer", min_size=min(size, 11))
    c.text(arrow, "→", size, theme.MUTED, bold=True, align="center", role="arrow")
    c.text(b, whom, size, ctx.colour_of(payee), bold=True, role="payee", min_size=min(size, 11))
    c.text(money_rect, money, amount_size, theme.TEXT, bold=True, align="right", role="amount",
           min_size=amount_size * 0.8)


def _name_shares(c: Canvas, names: tuple[str, str], width: int, size: float) -> tuple[int, int]:
    """Split ``width`` between two names in proportion to their lengths (each at least a third)."""
    font = theme.font(c.px(size), True)
    wa, wb = (max(1, font.size(n)[0]) for n in names)
    first = int(width * min(2 / 3, max(1 / 3, wa / (wa + wb))))
    return first, max(1, width - first)


def _trade_sides(c: Canvas, rect: pygame.Rect, ctx: Context, op: Trade) -> pygame.Rect:
    """What each side of a trade gives (deeds and Jail cards; the cash is in the postings below).
    Returns the space left."""
    edition = ctx.edition
    lines: list[tuple[str, str]] = []
    for gives, giver in ((op.a_gives, op.a), (op.b_gives, op.b)):
        items = [edition.squares[s].name_in(ctx.language) if edition else str(s) for s in gives.squares or ()]
        if gives.jail_cards:
            items.append(ctx.t("gives_jail_cards", n=gives.jail_cards))
        if items:
            lines.append((giver, ctx.listing(items)))
    if not lines:
        return rect
    # the deeds given wrap over as many lines as they need (up to three each), never cut
    what_w = rect.w - c.px(110) - c.px(6)
    f = theme.font(max(MIN_TEXT_PX, c.px(12)))
    y = rect.y
    for giver, given in lines:
        line_h = max(c.px(24), min(3, len(c.wrap(given, what_w, f))) * f.get_linesize() + c.px(4))
        row = pygame.Rect(rect.x, y, rect.w, line_h)
        who, what = split_h(row, -c.px(110), 1, gap=c.px(6))
        c.text(who, ctx.t("ui_gives", player=giver), 13, ctx.colour_of(giver), bold=True, role="payer", min_size=8)
        c.paragraph(what, given, 13, theme.TEXT, role="trade_items", min_size=7, max_lines=3)
        y += line_h
    used = y - rect.y + c.px(4)
    return pygame.Rect(rect.x, rect.y + used, rect.w, max(0, rect.h - used))


def draw_deed_compact(c: Canvas, rect: pygame.Rect, ctx: Context) -> None:
    deed_card(c, rect, ctx)


# -- auction, trade, bankruptcy --------------------------------------------------------------------------
def draw_auction(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    view = ctx.view
    # the best bid, a bid or two and the hint; the deed's status ("for sale") is left out if it would not leave that
    side, foot = deed_and_side(c, body, ctx, need=lambda side: c.px(22 + 52 + 36 + 3 * 4 + 20))
    best = (view.extra or {}).get("best")
    bids = list((view.extra or {}).get("bids") or [])
    label, value, history, hint = split_v(side, -c.px(22), -c.px(52), 1, -c.px(36), gap=c.px(4))
    c.text(label, ctx.t("ui_best_bid"), 14, theme.MUTED, role="label")
    if best:
        c.box(value, theme.PANEL, radius=8)
        name, money = split_h(value.inflate(-c.px(12), 0), 1, 1.2, gap=c.px(6))
        c.text(name, best[0], 20, ctx.colour_of(best[0]), bold=True, role="bidder")
        c.text(money, ctx.fmt(best[1]), 26, theme.TEXT, bold=True, align="right", role="best_bid")
    else:
        c.text(value, ctx.t("ui_no_bid_yet"), 18, theme.MUTED, align="center", role="best_bid")
    row_h = c.px(20)
    fits = max(0, history.h // row_h)
    for i, (player, amount) in enumerate(reversed(bids[-fits:] if fits else [])):
        row = pygame.Rect(history.x, history.y + i * row_h, history.w, row_h)
        a, b = split_h(row, 1, 1)
        c.text(a, player, 13, ctx.colour_of(player), role="bid")
        c.text(b, ctx.fmt(amount), 13, theme.TEXT, align="right", role="bid")
    c.paragraph(hint, ctx.t("auction_hint"), 12, theme.WARN, role="hint", max_lines=2, min_size=8)
    close = [o for o in view.options if o.id == "close"]
    extra: list[FooterItem] = [(ctx.msg(o.label), ("choose", o.id), theme.OK, 1.3) for o in close]
    footer(c, foot, ctx, extra=extra)


def draw_trade(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    view = ctx.view
    extra = view.extra or {}
    a: str = extra["a"]  # the trade screen always names both sides
    b: str = extra["b"]
    main, foot = split_v(body, 1, -c.px(FOOTER), gap=c.px(6))
    by_giver: dict[str, list[Option]] = {a: [], b: []}
    lifts: list[Option] = []
    done: Option | None = None
    for option in view.options:
        kind, _, after = option.id.partition(":")
        if kind in ("deed", "cash", "jail"):
            giver = after.split(":")[0]
            by_giver.setdefault(giver, []).append(option)
        elif kind == "lift":
            lifts.append(option)
        elif option.id == "done":
            done = option
    if lifts:
        main, lift_rect = split_v(main, 1, -c.px(MIN_BUTTON), gap=c.px(6))
        for cell, option in zip(split_h(lift_rect, *[1] * len(lifts), gap=c.px(6)), lifts, strict=True):
            c.button(cell, ctx.msg(option.label), ("choose", option.id), selected=option.selected, size=12,
                     role="option")
    columns = split_h(main, 1, 1, gap=c.px(10)) if landscape(main) else split_v(main, 1, 1, gap=c.px(8))
    page = ctx.ui.get("page", 0)
    pages = 1
    for column, giver in zip(columns, (a, b), strict=True):
        head, rest = split_v(column, -c.px(26), 1, gap=c.px(4))
        c.box(head, theme.PANEL, radius=6)
        c.text(head.inflate(-c.px(10), 0), ctx.t("ui_gives", player=giver), 15, ctx.colour_of(giver), bold=True,
               role="player_name")
        sub = dict(ctx.ui)
        sub["page"] = page
        sub_ctx = replace(ctx, ui=sub)  # the same context, with a copy of the page: two lists paged together
        _, column_pages = option_grid(c, rest, by_giver.get(giver, []), sub_ctx, cols=1, min_h=32, max_h=44)
        pages = max(pages, column_pages)
    extra_buttons: list[FooterItem] = [(ctx.msg(done.label), ("choose", done.id), theme.OK, 1.2)] if done else []
    ctx.ui["page"], ctx.ui["pages"] = min(page, pages - 1), pages
    footer(c, foot, ctx, extra=extra_buttons, pager=(min(page, pages - 1), pages))


def draw_bankruptcy(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    view = ctx.view
    top, lifts, foot = split_v(body, -c.px(32), 1, -c.px(FOOTER), gap=c.px(6))
    player_strip(c, top, ctx, view.player)
    toggles = [o for o in view.options if o.id != "done"]
    done = [o for o in view.options if o.id == "done"]
    pager = option_grid(c, lifts, toggles, ctx, cols=1 if lifts.w < c.px(400) else 2)
    footer(c, foot, ctx, extra=[(ctx.msg(o.label), ("choose", o.id), theme.OK, 1.2) for o in done], pager=pager)


# -- history (its words: host_ui/screen/history_text.py, which the CSV export uses too) ------------------
def balances_after(history: Sequence[Mapping[str, Any]], players: Iterable[str]) -> list[dict[str, int]]:
    """Each player's cash after every entry, from the postings (setup included)."""
    cash = dict.fromkeys(players, 0)
    out: list[dict[str, int]] = []
    for entry in history:
        for payer, payee, amount in entry.get("postings") or ():
            if payer in cash:
                cash[payer] -= amount
            if payee in cash:
                cash[payee] += amount
        out.append(dict(cash))
    return out


class _Balances:
    """The players' cash after each entry of a plain list of entries (counted once, from the postings)."""

    def __init__(self, history: Sequence[Mapping[str, Any]], players: Iterable[str]) -> None:
        self._all = balances_after(history, players)

    def __call__(self, index: int) -> dict[str, int]:
        return self._all[index]


def draw_history(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    view = ctx.view
    # The game's history is read from its file a page at a time (terminal.bank.history.HistoryPages, which also
    # counts the balances); a plain list of entries is drawn the same way.
    history: Sequence[Mapping[str, Any]] = (view.extra or {}).get("history") or []
    names = [p.name for p in view.players]
    balance_of: Callable[[int], Mapping[str, int]] = getattr(history, "balances", None) or _Balances(history, names)
    main, foot = split_v(body, 1, -c.px(FOOTER), gap=c.px(6))
    row_h = c.px(40)
    fits = max(1, (main.h + c.px(3)) // (row_h + c.px(3)))
    last_top = max(0, len(history) - fits)
    scroll = ctx.ui.get("scroll")
    top = last_top if scroll is None else min(scroll, last_top)
    ctx.ui["scroll"], ctx.ui["page_rows"] = top, fits
    page = history[top:top + fits]
    for i, entry in enumerate(page):
        index = top + i
        row = pygame.Rect(main.x, main.y + i * (row_h + c.px(3)), main.w, row_h)
        c.box(row, theme.PANEL if not entry.get("undone") else theme.BUTTON_OFF, radius=5)
        inner = row.inflate(-c.px(10), -c.px(4))
        first, second = split_v(inner, 1, 1)
        seq_w = c.px(34)
        seq, what = split_h(first, -seq_w, 1)
        c.text(seq, f"#{entry.get('seq')}", 11, theme.MUTED, role="history_seq")
        label = history_text.history_label(entry, ctx.language, ctx.edition)
        c.text(what, label, 13, theme.MUTED if entry.get("undone") else theme.TEXT, bold=True, role="history_what",
               min_size=8)
        moves = merged_movements(entry.get("postings") or ())
        parts = [ctx.movement(move) for move in moves[:3]]
        if len(moves) > 3:
            parts.append("…")
        involved = [n for n in names if any(n in (p, q) for p, q, _ in moves)]
        moves_rect, after_rect = split_h(second.move(seq_w, 0).clip(second), 1.3, 1, gap=c.px(6))
        smallest = theme.font(max(MIN_TEXT_PX, c.px(11)))
        # as many balances as fit whole (the word "balance" last to go): never a cut amount
        balances = balance_of(index) if involved else {}
        involved = [n for n in involved if n in balances]
        shares = [", ".join(f"{n} {ctx.fmt(balances[n])}" for n in involved[:count])
                  for count in range(min(3, len(involved)), 0, -1)]
        candidates = [ctx.t("ui_balance_after", balances=share) for share in shares] + shares[-1:]
        after = next((text for text in candidates if smallest.size(text)[0] <= after_rect.w),
                     candidates[-1] if candidates else "")
        c.text(moves_rect, "; ".join(parts), 11, theme.TEXT, role="history_moves", min_size=7)
        if after:
            c.text(after_rect, after, 11, theme.MUTED, align="right", role="history_balance", min_size=7)
    back = [o for o in view.options if o.id == "back"]
    undo = [o for o in view.options if o.id == "undo"]
    extra: list[FooterItem] = [("▲", ("scroll", -fits) if top > 0 else None, None, 0.5),
             ("▼", ("scroll", +fits) if top < last_top else None, None, 0.5)]
    extra += [(ctx.t("ui_undo_banker"), ("choose", o.id) if o.enabled else None, theme.WARN, 1.4) for o in undo]
    extra += [(ctx.msg(o.label), ("choose", o.id), theme.OK, 1.0) for o in back]
    footer(c, foot, ctx, cancel=False, extra=extra)


# -- wizards ---------------------------------------------------------------------------------------------
def draw_name_entry(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    """The on-screen keyboard naming a seat of the new-game wizard: the name so far, the letters in three
    rows, and Back / space / erase / OK in the bottom row."""
    view = ctx.view
    extra = view.extra or {}
    index = int(extra.get("editing") or 0)
    main, foot = split_v(body, 1, -c.px(FOOTER), gap=c.px(6))
    field, keys = split_v(main, -c.px(34), 1, gap=c.px(6))
    c.box(field, theme.PANEL, radius=6)
    pygame.draw.rect(c.surface, theme.player_colour(index + 1), (field.x, field.y, c.px(6), field.h),
                     border_top_left_radius=c.px(6), border_bottom_left_radius=c.px(6))
    c.text(field.inflate(-c.px(20), 0), str(extra.get("typed") or "") + "|", 18, theme.TEXT, bold=True, role="typed")
    letters = [o for o in view.options if o.id.startswith("key:") and len(o.id) == 5]
    special = {o.id: o for o in view.options if o not in letters}
    # three rows, or more where a key would be too narrow for its letter at the smallest font
    smallest = theme.font(max(MIN_TEXT_PX, c.px(9)), True)  # a button's label shrinks down to that
    need_w = max((smallest.size(ctx.msg(o.label).upper())[0] for o in letters), default=1) + 2 * c.px(6) + 2
    cols = max(1, -(-len(letters) // 3))
    while cols > 1 and (keys.w - c.px(5) * (cols - 1)) // cols < need_w:
        cols -= 1
    rows = -(-len(letters) // cols)
    row_h = min(c.px(64), (keys.h - c.px(5) * (rows - 1)) // max(rows, 1))
    area = pygame.Rect(keys.x, keys.y, keys.w, rows * row_h + c.px(5) * (rows - 1))
    for cell, option in zip(grid(area, len(letters), cols, rows, c.px(5)), letters, strict=True):
        typed = str(extra.get("typed") or "")
        label = ctx.msg(option.label)
        c.button(cell, label.upper() if not typed or typed[-1] in " -" else label, ("choose", option.id),
                 size=16, role="key")
    items: list[FooterItem] = []
    for key, colour, weight in (("key:cancel", theme.CANCEL, 1.0), ("key:space", None, 1.6), ("key:back", None, 0.8),
                                ("key:ok", theme.OK, 1.0)):
        if key in special:
            items.append((ctx.msg(special[key].label), ("choose", key), colour, weight))
    footer(c, foot, ctx, cancel=False, extra=items)


#: The design size of a seat's label in the new-game wizard (shrunk, or on two lines, to show the name whole).
SEAT_TEXT = 13


def _seats_layout(c: Canvas, main: pygame.Rect, labels: list[str]) -> tuple[
        pygame.Rect, pygame.Rect, pygame.Rect | None, pygame.Rect, tuple[int, int]]:
    """Where the wizard's seats go: ``(seats panel, options, the panel's heading or None, the seats' area
    (without seats: the room for the hint), (columns, rows))``. Seats are as tall as a fingertip needs, in as
    few columns as the height allows; the panel takes a third of the width (landscape; 5/13 of the height
    upright), more (up to a half, or 5/8 of the height) when a seat's label would be cut, and leaves out its
    heading (the screen's title counts the players too) when a row more is what shows every label whole (8
    names of 12 letters at 480x320). With no layout showing them whole: the first one tried."""
    gap = c.px(3)
    pitch = max(MIN_TARGET_PX, c.px(34)) + gap
    shares = (1 / 3, 2 / 5, 1 / 2) if landscape(main) else (1 / 2.6, 1 / 2, 5 / 8)
    first: tuple[pygame.Rect, pygame.Rect, pygame.Rect | None, pygame.Rect, tuple[int, int]] | None = None
    for with_head in (True, False):
        for share in shares:
            if landscape(main):
                seats_rect, options_rect = split_h(main, share, 1 - share, gap=c.px(10))
            else:
                seats_rect, options_rect = split_v(main, share, 1 - share, gap=c.px(6))
            inside = seats_rect.inflate(-c.px(8), -c.px(6))
            head: pygame.Rect | None
            if with_head:
                head, rest = split_v(inside, -c.px(22), 1, gap=c.px(4))
            else:
                head, rest = None, inside
            rows_fit = max(1, (rest.h + gap) // pitch)
            cols = max(1, -(-len(labels) // rows_fit))
            rows = max(1, -(-len(labels) // cols))
            area = pygame.Rect(rest.x, rest.y, rest.w, min(rest.h, rows * pitch - gap)) if labels else rest
            layout = (seats_rect, options_rect, head, area, (cols, rows))
            first = first or layout
            cells = grid(area, len(labels), cols, rows, gap) if labels else []
            if rows * pitch - gap <= rest.h and all(c.label_fits(label, cell, SEAT_TEXT)
                                                   for label, cell in zip(labels, cells, strict=True)):
                return layout
    assert first is not None
    return first


def draw_new_game(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    view = ctx.view
    if (view.extra or {}).get("editing") is not None:
        return draw_name_entry(c, body, ctx)
    seats = list((view.extra or {}).get("seats") or [])
    main, foot = split_v(body, 1, -c.px(FOOTER), gap=c.px(6))
    labels = [f"{i + 1}. {name}" for i, (name, _uid) in enumerate(seats)]
    seats_rect, options_rect, head, area, (cols, rows) = _seats_layout(c, main, labels)
    renames = {o.id: o for o in view.options if o.id.startswith("rename:")}
    others = [o for o in view.options if not o.id.startswith("rename:") and o.id != "start"]
    start = [o for o in view.options if o.id == "start"]
    c.box(seats_rect, theme.PANEL, radius=6)
    if head is not None:
        c.text(head, ctx.t("ui_players", seated=len(seats), most=8), 14, theme.MUTED, bold=True, role="label")
    if seats:
        cells = grid(area, len(seats), cols, rows, c.px(3))
        # every seat at the size of the tightest one: the names read as one list
        px = min(c.label_layout(label, c.label_room(cell), SEAT_TEXT)[0]
                 for label, cell in zip(labels, cells, strict=True))
        for i, (label, cell) in enumerate(zip(labels, cells, strict=True)):
            option = renames.get(f"rename:{i}")
            c.button(cell, label, ("choose", option.id) if option else None, colour=theme.player_colour(i + 1),
                     size=px / c.scale, role="seat")
    else:
        c.paragraph(area, ctx.msg(view.title), 13, theme.MUTED, align="center", role="hint", max_lines=5)
    hint = (view.extra or {}).get("mode_hint")
    if hint is not None:  # what the chosen mode means, whole: on as many lines as it takes (three at most)
        text = ctx.msg(hint)
        lines = 1 if c.fits(text, options_rect.w, c.px(22), 12, min_size=9) else 3
        hint_h = max(c.px(22), lines * theme.font(MIN_TEXT_PX).get_linesize())
        hint_rect, options_rect = split_v(options_rect, -hint_h, 1, gap=c.px(4))
        c.paragraph(hint_rect, text, 12, theme.WARN, role="mode_hint", min_size=9, max_lines=3)
    pager = option_grid(c, options_rect, others, ctx, min_w=150, min_h=34, max_h=48)
    extra: list[FooterItem] = [(ctx.msg(o.label), ("choose", o.id), theme.OK, 1.3) for o in start]
    if not extra or not start[0].enabled:
        extra = [(ctx.msg(o.label), None, None, 1.3) for o in start]
    footer(c, foot, ctx, extra=extra, pager=pager)


def draw_enrol(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    view = ctx.view
    main, foot = split_v(body, 1, -c.px(FOOTER), gap=c.px(6))
    c.box(main, theme.PANEL, radius=10)
    icon, prompt = split_v(main.inflate(-c.px(20), -c.px(20)), 1, 1.4, gap=c.px(6))
    _card_icon(c, icon)
    c.paragraph(prompt, ctx.msg(view.title), 22, theme.TEXT, bold=True, align="center", role="prompt", max_lines=3)
    extra: list[FooterItem] = [(ctx.msg(o.label), ("choose", o.id), theme.OK if o.id == "done" else None, 1.0)
                               for o in view.options]
    footer(c, foot, ctx, extra=extra)


# -- a damaged game: what is wrong, its newest good backup or a new game ----------------------------------
def draw_damaged(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    view = ctx.view
    main, options, foot = split_v(body, 1.3, 1, -c.px(FOOTER), gap=c.px(6))
    c.box(main, theme.PANEL, radius=10)
    said, problem = split_v(main.inflate(-c.px(16), -c.px(12)), 1.2, 1, gap=c.px(4))
    explained = (view.extra or {}).get("said")
    c.paragraph(said, ctx.msg(explained) if explained is not None else ctx.msg(view.title), 17, theme.ERROR,
                bold=True, align="center", role="prompt", max_lines=4)
    c.paragraph(problem, str((view.extra or {}).get("problem", "")), 12, theme.MUTED, align="center",
                role="problem", min_size=8, max_lines=3 if landscape(body) else 6)
    pager = option_grid(c, options, view.options, ctx, min_w=150)
    footer(c, foot, ctx, cancel=False, pager=pager)


def _card_icon(c: Canvas, rect: pygame.Rect) -> None:
    h = min(rect.h, c.px(70))
    w = int(h * 1.58)
    card = pygame.Rect(0, 0, w, h)
    card.center = rect.center
    c.box(card, theme.ACCENT, radius=8)
    chip = pygame.Rect(card.x + w // 8, card.y + h // 3, w // 6, h // 4)
    c.box(chip, theme.WARN, radius=3)
    for i in range(3):
        r = h // 6 + i * h // 8
        pygame.draw.arc(c.surface, theme.TEXT, (card.right - w // 3 - r, card.centery - r, 2 * r, 2 * r),
                        -0.7, 0.7, max(1, c.px(2)))


# -- game over -------------------------------------------------------------------------------------------
def draw_game_over(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    view = ctx.view
    main, foot = split_v(body, 1, -c.px(FOOTER), gap=c.px(6))
    if landscape(main):  # on a small screen the table takes what its headings need at the smallest font
        table, chart = split_h(main, 2 if main.w < 600 else 1, 1, gap=c.px(8))
    else:
        table, chart = split_v(main, 1, 1, gap=c.px(6))
    standings = list((view.extra or {}).get("standings") or [p.name for p in view.players])
    lines = {p.name: p for p in view.players}
    c.box(table, theme.PANEL, radius=6)
    inner = table.inflate(-c.px(8), -c.px(6))
    rows = len(standings) + 2
    row_h = min(c.px(34), inner.h // rows)
    weights = (-c.px(22), 1.3, 1, 1, 1)

    def cells(y: int) -> list[pygame.Rect]:
        return split_h(pygame.Rect(inner.x, y, inner.w, row_h), *weights, gap=c.px(3))
    head = cells(inner.y)
    c.text(head[1], ctx.t("ui_standings"), 12, theme.MUTED, bold=True, role="label")
    for cell, code in zip(head[2:], (N_("ui_cash"), N_("ui_property"), N_("ui_worth")), strict=True):
        c.paragraph(cell, ctx.t(code), 11, theme.MUTED, bold=True, align="right", role="label", min_size=7,
                    max_lines=2)
    for rank, name in enumerate(standings, start=1):
        line = lines.get(name)
        y = inner.y + rank * row_h
        row = cells(y)
        if rank == 1:
            pygame.draw.rect(c.surface, theme.PANEL_HI, (inner.x, y, inner.w, row_h), border_radius=c.px(4))
        c.text(row[0], str(rank), 13, theme.MUTED, bold=True, role="rank")
        c.text(row[1], name, 14, ctx.colour_of(name), bold=True, role="player_name", min_size=8)
        if line is None:
            continue
        if line.bankrupt:
            c.text(pygame.Rect(row[2].x, y, row[4].right - row[2].x, row_h), ctx.t("ui_bankrupt"), 12, theme.MUTED,
                   align="right", role="balance")
            continue
        debts = sum(a for _, a in line.debts)
        property_value = line.worth - line.cash + debts
        c.text(row[2], ctx.fmt(line.cash), 12, theme.TEXT, align="right", role="balance", min_size=7)
        c.text(row[3], ctx.fmt(property_value), 12, theme.TEXT, align="right", role="property", min_size=7)
        c.text(row[4], ctx.fmt(line.worth), 13, theme.WARN, bold=True, align="right", role="worth", min_size=7)
        if debts:
            c.text(pygame.Rect(row[2].x, y + row_h - c.px(11), row[4].right - row[2].x, c.px(11)),
                   ctx.t("ui_debts", amount=ctx.fmt(debts)), 8, theme.ERROR, align="right", role="debt", min_size=6)
    seats = {p.name: p.seat for p in view.players}
    history = ctx.ui.get("worth_history") or []
    draw_worth_chart(c, chart, history, seats, ctx.fmt, ctx.t("ui_worth_chart"))
    extra: list[FooterItem] = [(ctx.msg(o.label), ("choose", o.id), None, 1.0) for o in view.options]
    footer(c, foot, ctx, cancel=False, extra=extra)


#: The layout of each screen, by its name (``View.screen``, a key of :data:`terminal.table.screens.SCREENS`).
LAYOUTS: Mapping[str, Layout] = {
    "idle": draw_idle, "deed": draw_deed, "offer": draw_offer, "own_deed": draw_own_deed, "player": draw_player,
    "choose": draw_choose, "banker": draw_banker, "keypad": draw_keypad, "pin": draw_keypad, "confirm": draw_confirm,
    "auction": draw_auction, "trade": draw_trade, "bankruptcy": draw_bankruptcy, "history": draw_history,
    "new_game": draw_new_game, "enrol": draw_enrol, "phone": draw_phone, "damaged": draw_damaged,
    "game_over": draw_game_over}
