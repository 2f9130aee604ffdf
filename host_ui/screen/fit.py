"""Does every text fit? The checks the render tests (and ``tools/render_screens.py --check``) run on a
:class:`host_ui.screen.render.Frame`, from what :class:`host_ui.screen.widgets.Canvas` recorded while drawing.

A text is a problem when it is

- **outside the screen** (its ink, not only its box);
- **outside its room**: wider or taller than the box it was given (a paragraph's or a button's whole block),
  by more than :data:`SLACK` pixels;
- **cut**: shortened with an ellipsis (only the roles of :data:`ELLIPSIS_OK` may be, by design);
- **too small**: in a font under :data:`~host_ui.screen.widgets.MIN_TEXT_PX` pixels;
- **unfilled**: showing a ``{placeholder}`` of its catalog entry (a parameter the message did not carry);
- **overlapping** another text (by more than :data:`SLACK` pixels each way; the MORTGAGED stamp is drawn over
  the card on purpose), or **across a widget's edge**: partly inside a box or a button, partly out.

Two buttons' touch targets must not overlap either. :func:`frame_problems` returns one line per problem (empty:
the frame fits), each naming the text, its role and its rectangles, so a failing test says what to fix.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

import pygame

from host_ui.screen.widgets import MIN_TEXT_PX, ButtonAction, DrawnText, Widget

__all__ = ["ELLIPSIS_OK", "OVERLAP_OK", "SLACK", "frame_problems"]

#: Pixels a text's ink may pass its room or touch another text by (antialiasing, a centred odd height).
SLACK = 1
#: Roles a text may be shortened in with an ellipsis, by design. None: every text is shown whole.
ELLIPSIS_OK: frozenset[str] = frozenset()
#: A catalog placeholder left in a text drawn.
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
#: Roles drawn over other texts on purpose.
OVERLAP_OK = frozenset({"stamp"})


class _Frame(Protocol):
    @property
    def surface(self) -> pygame.Surface: ...

    @property
    def texts(self) -> list[DrawnText]: ...

    @property
    def widgets(self) -> list[Widget]: ...

    @property
    def hits(self) -> list[tuple[pygame.Rect, ButtonAction]]: ...


def _overlaps(a: pygame.Rect, b: pygame.Rect) -> bool:
    both = a.clip(b)
    return both.w > SLACK and both.h > SLACK


def text_problems(text: DrawnText, screen: pygame.Rect, where: str = "") -> list[str]:
    """What is wrong with one text on its own (see the module's list)."""
    say = f"{where}: " if where else ""
    whole = text.block or text.text
    label = f"{text.role} {text.text!r}" if whole == text.text else f"{text.role} {text.text!r} (of {whole!r})"
    problems: list[str] = []
    if not screen.contains(text.rect):
        problems.append(f"{say}{label} at {tuple(text.rect)} is off the screen {tuple(screen.size)}")
    if text.room is not None and not text.room.inflate(2 * SLACK, 2 * SLACK).contains(text.rect):
        problems.append(f"{say}{label}: its ink {tuple(text.rect)} is outside its room {tuple(text.room)}")
    if text.cut and text.role not in ELLIPSIS_OK:
        problems.append(f"{say}{text.role} {whole!r} is cut to {text.text!r} (room {tuple(text.room or text.rect)})")
    unfilled = PLACEHOLDER.search(text.text)
    if unfilled:
        problems.append(f"{say}{label} shows an unfilled placeholder {unfilled.group()}")
    if text.px and text.px < MIN_TEXT_PX:
        problems.append(f"{say}{label} is in a {text.px}-px font (at least {MIN_TEXT_PX})")
    return problems


def frame_problems(frame: _Frame, where: str = "") -> list[str]:
    """Every problem of ``frame`` (empty when every text fits), each prefixed with ``where``."""
    screen = frame.surface.get_rect()
    say = f"{where}: " if where else ""
    problems: list[str] = []
    texts = [t for t in frame.texts if t.rect.w and t.rect.h]
    for text in texts:
        problems += text_problems(text, screen, where)
    problems += _text_overlaps([t for t in texts if t.role not in OVERLAP_OK], say)
    for widget in frame.widgets:
        outer = widget.rect.inflate(2 * SLACK, 2 * SLACK)
        for text in texts:
            if text.role not in OVERLAP_OK and _overlaps(widget.rect, text.rect) and not outer.contains(text.rect):
                problems.append(f"{say}{text.role} {text.text!r} at {tuple(text.rect)} crosses the edge of "
                                f"{widget.role} {tuple(widget.rect)}")
    for i, (a, action_a) in enumerate(frame.hits):
        if not screen.contains(a):
            problems.append(f"{say}button {action_a} at {tuple(a)} is off the screen")
        for b, action_b in frame.hits[i + 1:]:
            if _overlaps(a, b):
                problems.append(f"{say}buttons {action_a} and {action_b} overlap")
    return problems


def _text_overlaps(texts: Iterable[DrawnText], say: str) -> list[str]:
    ordered = sorted(texts, key=lambda t: t.rect.y)
    problems: list[str] = []
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            if b.rect.y >= a.rect.bottom:
                break
            if _overlaps(a.rect, b.rect):
                problems.append(f"{say}{a.role} {a.text!r} overlaps {b.role} {b.text!r}")
    return problems
