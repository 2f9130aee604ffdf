"""pygame events -> :mod:`host_ui.screen.input_map` records. The only place that reads pygame's input events.

``screen_rect`` is where the panel's picture sits in the window (the whole window on a device; a part of it
in the simulator); mouse positions are normalised against it, finger positions (already 0.0-1.0 of the
window) are converted to it. Events outside the picture are dropped.
"""
from __future__ import annotations

import pygame

from host_ui.screen.input_map import Key, Pointer

_KEY_NAMES = {
    pygame.K_RETURN: "enter", pygame.K_KP_ENTER: "enter", pygame.K_ESCAPE: "escape",
    pygame.K_BACKSPACE: "backspace", pygame.K_DELETE: "delete", pygame.K_F1: "f1", pygame.K_F2: "f2",
    pygame.K_F3: "f3", pygame.K_F4: "f4", pygame.K_UP: "up", pygame.K_DOWN: "down", pygame.K_PAGEUP: "pageup",
    pygame.K_PAGEDOWN: "pagedown", pygame.K_c: "c",
}
_KP_DIGITS = {getattr(pygame, f"K_KP{d}", None): str(d) for d in range(10)}
_KP_DIGITS.update({getattr(pygame, f"K_KP_{d}", None): str(d) for d in range(10)})
_KP_DIGITS.pop(None, None)


def key_name(key: int) -> str | None:
    """pygame key code -> a :data:`host_ui.screen.input_map.KEYS` name, or None."""
    if pygame.K_0 <= key <= pygame.K_9:
        return chr(key)
    if key in _KP_DIGITS:
        return _KP_DIGITS[key]
    return _KEY_NAMES.get(key)


def to_records(event: pygame.event.Event, window_size: tuple[int, int], screen_rect: tuple[int, int, int, int],
               now: float) -> list[Pointer | Key]:
    """One pygame event -> zero or one :class:`Pointer`/:class:`Key` (``now``: monotonic seconds)."""
    sx, sy, sw, sh = screen_rect
    kind = None
    if event.type == pygame.KEYDOWN:
        name = key_name(event.key)
        return [Key(name, now)] if name else []
    if event.type in (pygame.FINGERDOWN, pygame.FINGERUP, pygame.FINGERMOTION):
        kind = {pygame.FINGERDOWN: "down", pygame.FINGERUP: "up", pygame.FINGERMOTION: "move"}[event.type]
        px, py = event.x * window_size[0], event.y * window_size[1]
        source, synthetic = "finger", False
    elif event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        if event.button != 1:
            return []
        kind = "down" if event.type == pygame.MOUSEBUTTONDOWN else "up"
        px, py = event.pos
        source, synthetic = "mouse", bool(getattr(event, "touch", False))
    else:
        return []
    u, v = (px - sx) / sw, (py - sy) / sh
    # A finger's position is a fraction of the window: its far edge (1.0) is on the panel (a controller stuck
    # there reports exactly that); a mouse's last pixel is width - 1.
    if kind == "down" and not (0.0 <= u <= 1.0 and 0.0 <= v <= 1.0 if source == "finger" else
                               0.0 <= u < 1.0 and 0.0 <= v < 1.0):
        return []
    return [Pointer(kind, u, v, now, source, synthetic)]
