"""The screen of the electronic board (the "Ultimate Banking" edition): its board (:data:`ULTIMATE`: its deeds
print the five rent levels, :mod:`host_ui.screen.levels`) and the layouts of its own screens (:data:`LAYOUTS`): an
Event card's effect (``event``) and a Location square (``location``). Each layout ``(c, body, ctx)`` draws into
``body`` like those of :mod:`host_ui.screen.screens`, with the same pieces (:mod:`host_ui.screen.pieces`).
"""
from __future__ import annotations

from collections.abc import Mapping

import pygame

from cards.editions import Edition, Square
from host_ui.screen import theme
from host_ui.screen.board import ScreenBoard, Sticker, TrayRows, group_colour
from host_ui.screen.context import Context
from host_ui.screen.levels import LEVELS_FACE
from host_ui.screen.pieces import (
    FOOTER,
    MIN_BUTTON,
    Layout,
    deed_and_side,
    deed_card,
    deed_grid,
    footer,
    landscape,
    option_grid,
    player_strip,
)
from host_ui.screen.widgets import Canvas, split_h, split_v
from terminal.bank.types import RULES_VERSION

#: The colour of an Event card's band.
EVENT_BAND = (232, 120, 30)


def _tray(edition: Edition, rules_version: int = RULES_VERSION) -> tuple[TrayRows, ...]:
    """A sticker per property (numbered 1-22 in board order), four a row; then the Event cards of the deck of a game
    played by ``rules_version`` (1: E1-E22; 2, a new game's: E1-E20, E23, E24), seven a row."""
    streets = [s for s in edition.squares if s.kind == "street"]
    return (TrayRows(tuple(Sticker("property", i, s.name, group_colour(s.group)) for i, s in enumerate(streets, 1)),
                     4, 30),  # room for a long name on two lines
            TrayRows(tuple(Sticker("event", e.number, f"E{e.number}", EVENT_BAND) for e in edition.deck(rules_version)),
                     7, 24,
                     gap=4))


#: The electronic board: its deeds print their rent levels.
ULTIMATE = ScreenBoard("ultimate", LEVELS_FACE, _tray)


def _square_options(ctx: Context) -> dict[str, Square] | None:
    """The properties by option id when every option of the screen is one (``square:N`` or ``N``)."""
    edition = ctx.edition
    if edition is None or not ctx.view.options:
        return None
    deeds = {}
    for option in ctx.view.options:
        number = option.id.removeprefix("square:")
        if not number.isdigit() or not 0 <= int(number) < len(edition.squares):
            return None
        deeds[option.id] = edition.squares[int(number)]
    return deeds


def _event_card(c: Canvas, rect: pygame.Rect, ctx: Context) -> None:
    """The Event card being played: its band, its text and what was chosen for it so far."""
    extra = ctx.view.extra or {}
    pygame.draw.rect(c.surface, (0, 0, 0), rect.move(c.px(2), c.px(3)), border_radius=c.px(6))
    c.box(rect, theme.CARD, radius=6)
    inner = rect.inflate(-c.px(10), -c.px(10))
    band_h = max(c.px(26), inner.h // 6)
    band, text, picked = split_v(inner, -band_h, 1, -(c.px(34) if extra.get("picked") else 0), gap=c.px(4))
    pygame.draw.rect(c.surface, EVENT_BAND, band)
    number = extra.get("number")
    title = ctx.t("ev_card", number=number) if number else ctx.t("opt_event")
    c.text(band.inflate(-c.px(6), -c.px(2)), title.upper(), 14, theme.text_on(EVENT_BAND), bold=True,
           align="center", role="deed_name", min_size=9)
    card = extra.get("card")
    if card:
        c.paragraph(text, str(card), 14, theme.CARD_TEXT, bold=True, align="center", role="event_text",
                    min_size=9, max_lines=6)
    else:  # the card is still to be tapped or picked: say so on it
        c.paragraph(text, ctx.t("ev_card_hint"), 13, theme.CARD_TEXT, align="center", role="event_text",
                    min_size=9, max_lines=4)
    if extra.get("picked") is not None:
        c.paragraph(picked, ctx.t("ev_picked", items=ctx.msg(extra["picked"])), 12, theme.CARD_TEXT,
                    align="center", role="event_picked", min_size=9, max_lines=2)


def _choices(c: Canvas, rect: pygame.Rect, ctx: Context, upright: bool = False) -> tuple[int, int]:
    """The screen's options: property tiles (colour, name, owner, price) when they are properties, else
    buttons (two columns where they fit; one on an upright screen, where an Event card's long text needs the
    whole width)."""
    deeds = _square_options(ctx)
    if deeds is not None:
        return deed_grid(c, rect, ctx, deeds)
    cards = all(o.id.startswith("card:") for o in ctx.view.options)  # the Event cards' long texts: a row each
    cols = 2 if rect.w >= c.px(300) and not upright and not cards else 1
    return option_grid(c, rect, ctx.view.options, ctx, cols=cols, min_h=44)


def draw_event(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    """An Event card's effect: the card (its text, what was chosen), the player who drew it, and the choices
    the effect asks for now (the taps of a card do the same)."""
    main, foot = split_v(body, 1, -c.px(FOOTER), gap=c.px(6))
    if landscape(main):
        card_w = min(main.w * 2 // 5, max(c.px(170), int(main.h * 0.7)))
        card, side = split_h(main, -card_w, 1, gap=c.px(10))
    else:
        card, side = split_v(main, -max(c.px(120), main.h // 3), 1, gap=c.px(6))
    _event_card(c, card, ctx)
    if ctx.view.player:
        top, side = split_v(side, -c.px(34), 1, gap=c.px(6))
        player_strip(c, top, ctx, ctx.view.player)
    pager = _choices(c, side, ctx, upright=not landscape(main)) if ctx.view.options else (0, 1)
    footer(c, foot, ctx, pager=pager)


def draw_location(c: Canvas, body: pygame.Rect, ctx: Context) -> None:
    """A Location square: the player, then the property they choose (its card or the list); when the Bank
    holds it, its deed with Buy / Do not buy."""
    view = ctx.view
    if view.deed is not None and not landscape(body):  # upright: the card above, both choices under it
        main, foot = split_v(body, 1, -c.px(FOOTER), gap=c.px(6))
        choices_h = len(view.options) * (c.px(MIN_BUTTON) + c.px(6))
        card, top, buttons = split_v(main, 1, -c.px(34), -choices_h, gap=c.px(6))
        deed_card(c, card, ctx, deed=view.deed)
        player_strip(c, top, ctx, view.player)
        option_grid(c, buttons, view.options, ctx, cols=1)
        footer(c, foot, ctx)
        return
    if view.deed is not None:
        side, foot = deed_and_side(c, body, ctx)
        top, buttons = split_v(side, -c.px(34), 1, gap=c.px(8))
        player_strip(c, top, ctx, view.player)
        option_grid(c, buttons, view.options, ctx, cols=1, max_h=70)
        footer(c, foot, ctx)
        return
    top, options, foot = split_v(body, -c.px(34), 1, -c.px(FOOTER), gap=c.px(6))
    player_strip(c, top, ctx, view.player)
    pager = _choices(c, options, ctx)
    footer(c, foot, ctx, pager=pager)


#: The layouts of this board's own screens.
LAYOUTS: Mapping[str, Layout] = {"event": draw_event, "location": draw_location}
