"""Drawing primitives that remember what they drew: every text's box and every button's target.

:class:`Canvas` wraps a logical-size Surface. Every text goes through :meth:`Canvas.text` (paragraphs and
button labels too), which records a :class:`DrawnText`: the box of its ink, the room it was given, the text
asked for and the text shown (``cut`` when shortened with an ellipsis). ``widgets`` lists the filled boxes and
buttons drawn (:class:`Widget`); ``hits`` lists ``(rect, action)`` of every button, in drawing order (the last
drawn wins a touch). The render tests (``tests/host_ui/test_fit.py``) check from these that no text is cut,
spills out of its room or the screen, or overlaps another text or crosses a widget's edge.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pygame

from host_ui.screen import theme
from host_ui.screen.theme import Colour

Rect = pygame.Rect
#: Where to draw: a Rect or ``(x, y, width, height)``.
RectLike = pygame.Rect | tuple[int, int, int, int]
#: A point ``(x, y)`` in pixels.
Point = tuple[int, int]
#: What a button does when touched: ``(kind,)`` or ``(kind, argument)``: an option id or a key for the terminal's
#: inputs, a step for the screen-local ``("page", +-1)`` and ``("scroll", +-n)`` (see :mod:`host_ui.screen.screens`).
ButtonAction = tuple[str, ...] | tuple[str, int]

#: The smallest touch target, in pixels of the screen, at every size (a fingertip).
MIN_TARGET_PX = 40
#: The smallest font size, in pixels of the screen, at every size.
MIN_TEXT_PX = 10


@dataclass
class DrawnText:
    """A text drawn: the box of its ink, the text shown, its role, its line height and its font size (pixels);
    ``room``: the box it was given (the whole block's for a line of a paragraph or a button label; None: not
    recorded); ``cut``: shortened with an ellipsis to fit; ``block``: the whole text of its paragraph or label
    (for the report)."""

    rect: pygame.Rect
    text: str
    role: str
    size: int
    px: int = 0
    room: pygame.Rect | None = None
    cut: bool = False
    block: str = ""


@dataclass
class Widget:
    """A filled box or a button drawn: its rectangle and its role (a text inside it is fine, one across its edge
    is not)."""

    rect: pygame.Rect
    role: str


@dataclass
class Canvas:
    surface: pygame.Surface
    scale: float
    texts: list[DrawnText] = field(default_factory=list)
    hits: list[tuple[pygame.Rect, ButtonAction]] = field(default_factory=list)
    widgets: list[Widget] = field(default_factory=list)

    @property
    def rect(self) -> pygame.Rect:
        return self.surface.get_rect()

    def px(self, value: float) -> int:
        """``value`` design pixels (designed for a 320-pixel short side) at this screen's scale."""
        return max(1, round(value * self.scale))

    # -- shapes --------------------------------------------------------------------------------------
    def box(self, rect: RectLike, colour: Colour, radius: float = 6, width: int = 0, role: str = "box") -> None:
        """A box filled with ``colour`` (``width`` > 0: its outline only); a filled one is recorded as a widget."""
        pygame.draw.rect(self.surface, colour, rect, width, border_radius=self.px(radius))
        if width == 0:
            self.widgets.append(Widget(pygame.Rect(rect), role))

    def line(self, a: Point, b: Point, colour: Colour, width: int = 1) -> None:
        pygame.draw.line(self.surface, colour, a, b, width)

    # -- text ----------------------------------------------------------------------------------------
    def fit(self, text: str, max_w: int, max_h: int, size: float, bold: bool = False,
            min_size: float = 9) -> tuple[pygame.font.Font, str]:
        """The largest font from ``size`` down to ``min_size`` (design pixels) in which ``text`` fits in
        ``max_w`` x ``max_h``; at the smallest size, the text is shortened with an ellipsis."""
        _, f, text = self.fit_px(text, max_w, max_h, size, bold, min_size)
        return f, text

    def fit_px(self, text: str, max_w: int, max_h: int, size: float, bold: bool = False,
               min_size: float = 9) -> tuple[int, pygame.font.Font, str]:
        """:meth:`fit`, with the font's size in pixels first."""
        low = max(MIN_TEXT_PX, self.px(min_size))
        px = max(low, self.px(size))
        while True:
            f = theme.font(px, bold)
            w = f.size(text)[0]
            if (w <= max_w and f.get_height() <= max_h) or px <= low:
                break
            px = max(low, min(px - 1, int(px * min(max_w / max(w, 1), max_h / max(f.get_height(), 1)))))
        if f.size(text)[0] > max_w:
            while text and f.size(text + "…")[0] > max_w:
                text = text[:-1]
            text = text.rstrip() + "…"
        return px, f, text

    def fits(self, text: str, max_w: int, max_h: int, size: float, bold: bool = False, min_size: float = 9) -> bool:
        """True if ``text`` fits on one line in ``max_w`` x ``max_h`` at ``min_size`` or larger (not cut)."""
        _, f, shown = self.fit_px(text, max_w, max_h, size, bold, min_size)
        return shown == text and f.get_height() <= max_h + 2

    def common_size(self, texts: Iterable[str], max_w: int, max_h: int, size: float, bold: bool = False,
                    min_size: float = 7) -> float:
        """The largest design size from ``size`` down to ``min_size`` at which every one of ``texts`` fits
        in ``max_w`` x ``max_h`` (rows of a table then share one size)."""
        low = max(MIN_TEXT_PX, self.px(min_size))
        px = max(low, self.px(size))
        while px > low:
            f = theme.font(px, bold)
            if f.get_height() <= max_h and all(f.size(t)[0] <= max_w for t in texts):
                break
            px -= 1
        return px / self.scale

    def text(self, rect: RectLike, text: str, size: float, colour: Colour = theme.TEXT, *, bold: bool = False,
             align: str = "left", valign: str = "center", role: str = "text", min_size: float = 9,
             block: str | None = None, within: RectLike | None = None, shortened: bool = False) -> pygame.Rect:
        """Draw ``text`` on one line inside ``rect``, shrunk to fit; returns the box it covers. For the record,
        when ``text`` is a line of a paragraph or a button label: ``block``, the whole text; ``within``, the
        whole block's room (default: ``rect``); ``shortened``, the caller has cut it already."""
        rect = pygame.Rect(rect)
        if not text:
            return pygame.Rect(rect.x, rect.y, 0, 0)
        px, f, shown = self.fit_px(text, rect.w, rect.h, size, bold, min_size)
        image = f.render(shown, True, colour)
        box = image.get_rect()
        if align == "left":
            box.left = rect.left
        elif align == "right":
            box.right = rect.right
        else:
            box.centerx = rect.centerx
        if valign == "top":
            box.top = rect.top
        elif valign == "bottom":
            box.bottom = rect.bottom
        else:
            box.centery = rect.centery
        self.surface.blit(image, box)
        ink = image.get_bounding_rect().move(box.topleft)
        self.texts.append(DrawnText(ink if ink.w and ink.h else box, shown, role, f.get_height(), px,
                                    room=rect if within is None else pygame.Rect(within),
                                    cut=shortened or shown != text, block=text if block is None else block))
        return box

    def wrap(self, text: str, width: int, f: pygame.font.Font) -> list[str]:
        """``text`` in lines no wider than ``width`` (a word wider than that on a line of its own). A French
        space before ``:`` ``;`` ``?`` ``!`` ``»`` or after ``«`` never breaks: the sign stays with its word."""
        lines: list[str] = []
        for paragraph in text.split("\n"):
            current = ""
            for word in _words(paragraph):
                trial = f"{current} {word}".strip()
                if f.size(trial)[0] <= width or not current:
                    current = trial
                else:
                    lines.append(current)
                    current = word
            lines.append(current)
        return lines

    def paragraph(self, rect: RectLike, text: str, size: float, colour: Colour = theme.TEXT, *, bold: bool = False,
                  align: str = "left", role: str = "text", min_size: float = 9, max_lines: int = 4) -> int:
        """Draw ``text`` wrapped to ``rect``'s width, shrinking until it fits; returns the height used."""
        rect = pygame.Rect(rect)
        if not text:
            return 0
        low = max(MIN_TEXT_PX, self.px(min_size))
        px = max(low, self.px(size))
        while True:
            f = theme.font(px, bold)
            lines = self.wrap(text, rect.w, f)
            height = len(lines) * f.get_linesize()
            if (height <= rect.h and len(lines) <= max_lines) or px <= low:
                break
            px -= max(1, px // 10)
        line_h = f.get_linesize()
        fitting = max(1, min(len(lines), rect.h // max(line_h, 1), max_lines))
        shortened = fitting < len(lines)
        if shortened:
            lines = lines[:fitting]
            lines[-1] = lines[-1] + "…"
        total = len(lines) * line_h
        y = rect.y + max(0, (rect.h - total) // 2)
        for i, line in enumerate(lines):
            self.text((rect.x, y, rect.w, line_h), line, px / self.scale, colour, bold=bold, align=align,
                      role=role, min_size=min(min_size, px / self.scale), block=text, within=rect,
                      shortened=shortened and i == len(lines) - 1)
            y += line_h
        return total

    # -- buttons -------------------------------------------------------------------------------------
    def button(self, rect: RectLike, label: str, action: ButtonAction | None, *, enabled: bool = True,
               selected: bool = False, colour: Colour | None = None, size: float = 15, role: str = "button",
               bold: bool = True) -> None:
        rect = pygame.Rect(rect)
        if colour is None:
            colour = theme.SELECTED if selected else theme.BUTTON
        fill = colour if enabled else theme.BUTTON_OFF
        fg = theme.text_on(fill) if enabled else theme.BUTTON_OFF_TEXT
        self.box(rect, fill, radius=7, role=role)
        if selected:
            self.box(rect, theme.TEXT, radius=7, width=max(2, self.px(2)))
        inner = self.label_room(rect)
        if selected:
            mark = self.px(size * 0.9)
            self.text((inner.x, inner.y, mark, inner.h), "✓", size, fg, bold=True, role="mark")
            inner = pygame.Rect(inner.x + mark + self.px(3), inner.y, inner.w - mark - self.px(3), inner.h)
        px, lines = self.label_layout(label, inner, size, bold)
        line_h = theme.font(px, bold).get_linesize()
        y = inner.y + max(0, (inner.h - len(lines) * line_h) // 2)
        for line in lines:
            box = (inner.x, y, inner.w, line_h) if len(lines) > 1 else inner
            self.text(box, line, px / self.scale, fg, bold=bold, align="center", role=role,
                      min_size=min(9, px / self.scale), block=label, within=inner)
            y += line_h
        if action is not None and enabled:
            self.hits.append((rect, action))

    def label_room(self, rect: RectLike) -> pygame.Rect:
        """The room of the label of a button drawn in ``rect`` (without a check mark): inside its padding."""
        pad = self.px(6)
        return pygame.Rect(rect).inflate(-2 * pad, -pad)

    def label_fits(self, label: str, rect: RectLike, size: float, bold: bool = True, max_lines: int = 3) -> bool:
        """True if a button in ``rect`` shows ``label`` whole (on at most ``max_lines`` lines, at 9 design
        pixels or more, and never under :data:`MIN_TEXT_PX`): :meth:`label_layout` does not cut it."""
        return self._label_best(label, self.label_room(rect), size, bold, max_lines) is not None

    def label_layout(self, label: str, rect: RectLike, size: float, bold: bool = True,
                     max_lines: int = 3) -> tuple[int, list[str]]:
        """The font size (pixels) and lines of a button label in ``rect``: the largest size from ``size``
        down to 9 design pixels at which the label fits on one, two or three lines (fewer lines unless more
        lines give a font at least 10 % larger). Below that, the smallest size (the last line ellipsized)."""
        rect = pygame.Rect(rect)
        best = self._label_best(label, rect, size, bold, max_lines)
        if best is not None:
            return best
        low = max(MIN_TEXT_PX, self.px(9))
        f = theme.font(low, bold)
        lines = self.wrap(label, rect.w, f)
        fitting = max(1, min(len(lines), max_lines, rect.h // max(1, f.get_linesize())))
        if fitting < len(lines):
            lines = lines[:fitting - 1] + [" ".join(lines[fitting - 1:])]
        return low, lines

    def _label_best(self, label: str, rect: pygame.Rect, size: float, bold: bool,
                    max_lines: int) -> tuple[int, list[str]] | None:
        low = max(MIN_TEXT_PX, self.px(9))
        top = max(low, self.px(size))
        best: tuple[int, list[str]] | None = None
        for count in range(1, max_lines + 1):
            for px in range(top, low - 1, -1):
                f = theme.font(px, bold)
                lines = [label] if count == 1 else self._label_lines(label, rect.w, f, count)
                if len(lines) <= count and len(lines) * f.get_linesize() <= rect.h + 1 and \
                        all(f.size(line)[0] <= rect.w for line in lines):
                    if best is None or px >= best[0] * 1.1:
                        best = (px, lines)
                    break
        return best

    def _label_lines(self, label: str, width: int, f: pygame.font.Font, count: int) -> list[str]:
        """A button label's lines: on two lines, broken after its (last) colon when both halves fit (``Lift now:``
        over the deed's name, rather than the name cut in two); else wrapped word by word."""
        head, colon, tail = label.rpartition(":")
        if count == 2 and colon and tail.strip():
            lines = [(head + colon).strip(), tail.strip()]
            if all(f.size(line)[0] <= width for line in lines):
                return lines
        return self.wrap(label, width, f)

    def hit(self, rect: RectLike, action: ButtonAction) -> None:
        self.hits.append((pygame.Rect(rect), action))


#: Signs a French text puts a space before (or after, for «): they stay on the line of their word.
_STICKY_AFTER = (":", ";", "?", "!", "»")
_STICKY_BEFORE = ("«",)


def _words(paragraph: str) -> list[str]:
    """The words of ``paragraph`` for wrapping, a lone ``:`` ``;`` ``?`` ``!`` ``»`` joined to the word before it
    and a lone ``«`` to the word after it."""
    words: list[str] = []
    glue = False
    for word in paragraph.split(" "):
        if words and (glue or word in _STICKY_AFTER):
            words[-1] = f"{words[-1]} {word}"
        else:
            words.append(word)
        glue = word in _STICKY_BEFORE
    return words


def _cuts(start: int, length: int, weights: tuple[float, ...], gap: int) -> list[tuple[int, int]]:
    """``(offset, size)`` of each part of a span: a negative weight is fixed pixels, the rest share what is
    left in proportion to their weights."""
    fixed = sum(-w for w in weights if w < 0)
    flexible = sum(w for w in weights if w > 0) or 1
    free = length - fixed - gap * (len(weights) - 1)
    out: list[tuple[int, int]] = []
    at = start
    for w in weights:
        size = int(-w) if w < 0 else int(free * w / flexible)
        out.append((at, size))
        at += size + gap
    return out


def split_h(rect: RectLike, *weights: float, gap: int = 0) -> list[pygame.Rect]:
    """Cut ``rect`` into columns with the given width weights (a negative weight: fixed pixels)."""
    rect = pygame.Rect(rect)
    return [pygame.Rect(x, rect.y, w, rect.h) for x, w in _cuts(rect.x, rect.w, weights, gap)]


def split_v(rect: RectLike, *weights: float, gap: int = 0) -> list[pygame.Rect]:
    """Cut ``rect`` into rows with the given height weights (a negative weight: fixed pixels)."""
    rect = pygame.Rect(rect)
    return [pygame.Rect(rect.x, y, rect.w, h) for y, h in _cuts(rect.y, rect.h, weights, gap)]


def grid(rect: RectLike, count: int, cols: int, rows: int, gap: int) -> list[pygame.Rect]:
    """``count`` cells of a ``cols`` x ``rows`` grid, row by row."""
    rect = pygame.Rect(rect)
    cw = (rect.w - gap * (cols - 1)) / cols
    ch = (rect.h - gap * (rows - 1)) / rows
    cells: list[pygame.Rect] = []
    for i in range(count):
        r, c = divmod(i, cols)
        cells.append(pygame.Rect(int(rect.x + c * (cw + gap)), int(rect.y + r * (ch + gap)), int(cw), int(ch)))
    return cells


def best_grid(count: int, rect: RectLike, aspect: float = 2.2) -> tuple[int, int]:
    """Columns and rows for ``count`` tiles in ``rect`` whose shape comes closest to ``aspect`` (w/h)."""
    rect = pygame.Rect(rect)
    best: tuple[int, int] = (1, max(1, count))
    best_score: float | None = None
    for cols in range(1, max(1, count) + 1):
        rows = -(-count // cols)
        w, h = rect.w / cols, rect.h / rows
        score = min(w / aspect, h)  # the tile's usable height at that shape
        if best_score is None or score > best_score:
            best, best_score = (cols, rows), score
    return best


def describe(value: Any) -> str:
    return str(value)
