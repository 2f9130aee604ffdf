"""Sleep until an input arrives or a timeout runs out, without waking up every millisecond.

``pygame.event.wait(timeout)`` does not sleep: pygame implements it as a loop that pumps SDL's events and
sleeps 1 ms between two looks, about a thousand wake-ups a second (2.5 % of a core here with an X window,
for an idle screen). SDL itself (2.0.16 and later) waits for real: ``SDL_WaitEventTimeout`` sleeps on the
window system's connection (X11, Wayland) and is woken by an input or by ``SDL_PushEvent`` from another
thread (``pygame.event.post``), which is how the card reader's thread wakes the loop. With a NULL event it
leaves what arrived in the queue, for ``pygame.event.get()``.

:func:`wait_events` calls it, through ``ctypes``, in the very SDL library pygame loaded (found in the
process's memory map, so nothing else is loaded), then takes the events with ``pygame.event.get()``. Where
that is not possible (not Linux, an SDL older than 2.0.16, no display initialised) it uses
``pygame.event.wait`` as before. On drivers
without a real wait (KMS/DRM, dummy) SDL polls every millisecond itself, as pygame did: no change there.
"""
from __future__ import annotations

import math
import os
from collections.abc import Callable
from pathlib import Path

import pygame

__all__ = ["wait_events", "native_wait"]

#: ``SDL_WaitEventTimeout(NULL, ms)``, once found (False: looked for, not usable).
_native: Callable[[int], int] | bool | None = None


def _sdl_library() -> str | None:
    """The path of the SDL2 library mapped into this process (the one pygame uses), or None."""
    try:
        maps = Path(f"/proc/{os.getpid()}/maps").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    found = set()
    for line in maps.splitlines():
        fields = line.split(None, 5)
        if len(fields) == 6 and Path(fields[5].strip()).name.startswith("libSDL2-2"):
            found.add(fields[5].strip())
    return found.pop() if len(found) == 1 else None


def native_wait() -> Callable[[int], int] | None:
    """SDL's own ``SDL_WaitEventTimeout(NULL, ms)`` (returns 1 when an event waits in the queue), or None
    when it cannot be used here."""
    global _native
    if _native is None:
        _native = False
        path = _sdl_library()
        if path is not None:
            import ctypes  # late load: only once the loop first sleeps, after the first frame

            class _Version(ctypes.Structure):
                _fields_ = (("major", ctypes.c_uint8), ("minor", ctypes.c_uint8), ("patch", ctypes.c_uint8))

            try:
                sdl = ctypes.CDLL(path)  # already loaded by pygame: the same library, not a second copy
                version = _Version()
                sdl.SDL_GetVersion(ctypes.byref(version))
                if (version.major, version.minor, version.patch) >= (2, 0, 16):
                    function = sdl.SDL_WaitEventTimeout
                    function.argtypes = (ctypes.c_void_p, ctypes.c_int)
                    function.restype = ctypes.c_int

                    def wait(ms: int) -> int:
                        return int(function(None, ms))
                    _native = wait
            except (OSError, AttributeError):
                _native = False
    return _native if callable(_native) else None


def wait_events(timeout_s: float) -> list[pygame.event.Event]:
    """The events in pygame's queue, in order, after waiting up to ``timeout_s`` seconds (at least 1 ms) for
    the first one (``[]`` when none came). The timeout is rounded up to the millisecond: a loop that sleeps
    until a poll is due does not wake up just before it."""
    ms = max(1, math.ceil(timeout_s * 1000))
    wait = native_wait() if pygame.display.get_init() else None
    if wait is not None:
        wait(ms)
        return pygame.event.get()
    first = pygame.event.wait(ms)
    events = [first] if first.type != pygame.NOEVENT else []
    return events + pygame.event.get()
