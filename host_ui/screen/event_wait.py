"""Sleep until an input arrives or a timeout runs out, without waking up every millisecond.

``pygame.event.wait(timeout)`` does not sleep: pygame implements it as a loop that pumps SDL's events and
sleeps 1 ms between two looks, about a thousand wake-ups a second (2.5 % of a core here with an X window,
for an idle screen). SDL itself (2.0.16 and later) waits for real on a window system: ``SDL_WaitEventTimeout``
sleeps on the connection (X11, Wayland; Windows and macOS too) and is woken by an input or by
``SDL_PushEvent`` from another thread (``pygame.event.post``), which is how the card reader's thread wakes the
loop. With a NULL event it leaves what arrived in the queue, for ``pygame.event.get()``.

:func:`wait_events` calls it, through ``ctypes``, in the very SDL library pygame loaded (found in the
process's memory map, so nothing else is loaded), then takes the events with ``pygame.event.get()``. On the
drivers where SDL has no real wait (KMS/DRM on a device's console, the dummy driver of the framebuffer
output and of the tests) SDL would look every millisecond as pygame does: there the loop looks at SDL's
queue every :data:`COARSE_LOOK_S` (10 ms: a touch or a key is seen within 10 ms) and is woken at once by
:func:`notify` (the reader's thread calls it with its post). Where SDL's function cannot be reached (not
Linux, an SDL older than 2.0.16) it uses ``pygame.event.wait``.
"""
from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pygame

__all__ = ["wait_events", "native_wait", "notify", "COARSE_LOOK_S", "WAITING_DRIVERS"]

#: SDL video drivers whose ``SDL_WaitEventTimeout`` sleeps on the window system (SDL 2.0.16 and later).
WAITING_DRIVERS = frozenset({"x11", "wayland", "windows", "cocoa"})
#: Seconds between two looks at SDL's queue on the other drivers (KMS/DRM, dummy).
COARSE_LOOK_S = 0.01

_notified = threading.Event()

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


def notify() -> None:
    """Wake a :func:`wait_events` sleeping on a driver without a real wait (thread-safe; call it after
    ``pygame.event.post`` from another thread)."""
    _notified.set()


def wait_events(timeout_s: float) -> list[pygame.event.Event]:
    """The events in pygame's queue, in order, after waiting up to ``timeout_s`` seconds (at least 1 ms) for
    the first one (``[]`` when none came). The timeout is rounded up to the millisecond: a loop that sleeps
    until a poll is due does not wake up just before it."""
    ms = max(1, math.ceil(timeout_s * 1000))
    wait = native_wait() if pygame.display.get_init() else None
    if wait is not None and pygame.display.get_driver() in WAITING_DRIVERS:
        wait(ms)
        return pygame.event.get()
    if wait is not None:  # SDL could only look every millisecond: look every 10 ms, woken by notify()
        deadline = time.monotonic() + ms / 1000
        while True:
            _notified.clear()
            events = pygame.event.get()
            left = deadline - time.monotonic()
            if events or left <= 0:
                return events
            _notified.wait(min(COARSE_LOOK_S, left))
    first = pygame.event.wait(ms)
    events = [first] if first.type != pygame.NOEVENT else []
    return events + pygame.event.get()
