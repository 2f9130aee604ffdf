"""What the screen draws differently on one board: :class:`ScreenBoard`, and the classic board's
(:data:`CLASSIC`). The electronic board's is in :mod:`host_ui.screen.ultimate`; :mod:`host_ui.screen.layouts` finds
an edition's."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cards.editions import Edition
from host_ui.screen import theme
from host_ui.screen.deed_card import CLASSIC_FACE, DeedFace

#: The colour of a card whose group has none.
NO_GROUP: theme.Colour = (90, 90, 90)


@dataclass(frozen=True)
class Sticker:
    """A card of the board that the simulator's tray holds: ``card`` (what it is: ``"deed"``, a title deed by its
    square; ``"property"``, a property sticker by its number, 1-22; ``"event"``, an Event card by its number),
    ``number``, ``label`` (printed on it), ``colour`` (its group's)."""

    card: str
    number: int
    label: str
    colour: theme.Colour


@dataclass(frozen=True)
class TrayRows:
    """Stickers laid out in rows of ``per_row``, each ``height`` pixels high, ``gap`` pixels apart in a row."""

    stickers: tuple[Sticker, ...]
    per_row: int
    height: int
    gap: int = 5


@dataclass(frozen=True)
class ScreenBoard:
    """A board as the screen draws it: ``name`` (the editions' ``board``), ``face`` (what its title deeds print),
    ``tray`` (the cards of an edition of it that the simulator's tray holds below the players' and the banker's,
    in blocks of rows, for a game played by the rules version given: its deck). The screens a board has of its
    own are in the one table of layouts (:data:`host_ui.screen.layouts.LAYOUTS`), and whether the Bank holds
    buildings is in the view (``View.bank_houses``)."""

    name: str
    face: DeedFace
    tray: Callable[[Edition, int], tuple[TrayRows, ...]]


def group_colour(group: str | None) -> theme.Colour:
    """The colour of a colour group (or of the railroads, the utilities) on the cards."""
    return theme.GROUP_COLOURS.get(group or "", NO_GROUP)


def _classic_tray(edition: Edition, rules_version: int = 0) -> tuple[TrayRows, ...]:
    """The 28 title deeds, four a row (the same under every rules version)."""
    deeds = tuple(Sticker("deed", d.index, d.name, group_colour(d.group or d.kind)) for d in edition.deeds())
    return (TrayRows(deeds, 4, 28),)


#: The classic board.
CLASSIC = ScreenBoard("classic", CLASSIC_FACE, _classic_tray)
