"""Colours, sizes and fonts. Fonts are loaded by path (docs/field-notes.md, 17: ``SysFont`` silently falls back to a
font without the euro sign or Cyrillic); the shipped one is DejaVu Sans (``host_ui/screen/fonts``, licence in
``LICENSE-DejaVu.txt``: the Bitstream Vera licence, free and compatible with GPL-3.0-or-later).
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import pygame

FONT_DIR = Path(__file__).with_name("fonts")
REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"
#: Glyphs every font must have: the currency signs and Cyrillic of the three languages.
REQUIRED_GLYPHS = "€$₽₴ÀÉéèçôАБВЖЩЯєіїґ↔→←⌫•…"


class FontError(OSError):
    """The font file is missing or lacks a glyph the screens need."""


def font_dir() -> Path:
    """``$BANQUIER_FONT_DIR`` (a folder with ``DejaVuSans.ttf`` and ``DejaVuSans-Bold.ttf``, or any TTF
    renamed so), else the fonts shipped in the package."""
    return Path(os.environ.get("BANQUIER_FONT_DIR") or FONT_DIR)


@lru_cache(maxsize=256)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The UI font at ``size`` pixels (clamped to 8-400), loaded by path. Raises :class:`FontError`."""
    if not pygame.font.get_init():
        pygame.font.init()
    path = font_dir() / (BOLD if bold else REGULAR)
    if not path.is_file():
        raise FontError(f"Font file {path} is missing: reinstall Banquier or set BANQUIER_FONT_DIR to a folder "
                        f"holding {REGULAR} and {BOLD}.")
    return pygame.font.Font(str(path), max(8, min(400, int(size))))


def check_glyphs(path: str | Path | None = None) -> list[str]:
    """The characters of :data:`REQUIRED_GLYPHS` the font lacks (empty when it has them all)."""
    f = pygame.font.Font(str(path or font_dir() / REGULAR), 20)
    missing: list[str] = []
    for char in REQUIRED_GLYPHS:
        metrics = f.metrics(char)
        if not metrics or metrics[0] is None:
            missing.append(char)
    return missing


# -- colours ---------------------------------------------------------------------------------------------
#: An RGB colour.
Colour = tuple[int, int, int]

BG = (18, 24, 33)
PANEL = (30, 39, 52)
PANEL_HI = (44, 56, 74)
LINE = (64, 78, 98)
TEXT = (236, 240, 245)
MUTED = (150, 163, 180)
ACCENT = (46, 160, 92)       # the Bank's green
ACCENT_DARK = (28, 110, 62)
WARN = (235, 168, 52)
ERROR = (222, 68, 68)
SUCCESS = (70, 190, 110)
CARD = (250, 248, 240)
CARD_TEXT = (20, 20, 20)
BUTTON = (52, 66, 88)
BUTTON_TEXT = (240, 244, 248)
BUTTON_OFF = (40, 46, 56)
BUTTON_OFF_TEXT = (110, 118, 130)
SELECTED = (32, 120, 190)
OK = ACCENT
CANCEL = (150, 60, 60)

GROUP_COLOURS: dict[str, Colour] = {
    "brown": (134, 76, 56), "light_blue": (160, 214, 240), "pink": (214, 58, 150), "orange": (246, 146, 30),
    "red": (226, 30, 40), "yellow": (252, 230, 30), "green": (30, 166, 90), "dark_blue": (20, 80, 164),
    "railroad": (40, 40, 40), "utility": (120, 130, 140),
}
#: Seat colours (seat 1 first): distinct on a dark background and for common colour blindness.
PLAYER_COLOURS: tuple[Colour, ...] = ((230, 80, 70), (70, 150, 240), (250, 200, 50), (80, 200, 120), (200, 110, 230),
                  (250, 140, 40), (60, 210, 210), (235, 235, 235))


def player_colour(seat: int) -> Colour:
    """Colour of seat 1-8 (wraps around)."""
    return PLAYER_COLOURS[(max(1, seat) - 1) % len(PLAYER_COLOURS)]


def text_on(colour: Colour) -> Colour:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = colour[:3]
    return CARD_TEXT if (r * 299 + g * 587 + b * 114) / 1000 > 150 else (255, 255, 255)
