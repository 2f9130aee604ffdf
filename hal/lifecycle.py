"""Start-up and shutdown helpers: closing every device once, SIGTERM, waiting for a card with a cancel.

systemd stops a service with SIGTERM, whose default action kills the process without running
``finally`` blocks, so PWM would keep running and pins stay high (field-notes 13). ``install_sigterm_handler``
turns SIGTERM into either a stop request (an ``Event`` the main loop checks) or a ``SystemExit`` so that
``finally`` blocks and ``atexit`` run, and ``close_all`` (registered with ``atexit``) closes every device
loaded through ``hal.load_*`` in reverse order: PWM stopped, pins driven silent, only our own pins
released.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import signal
import threading
import time
import weakref
from collections.abc import Callable
from types import FrameType

from hal.interfaces import CardPresented, CardReader, Device, HalEvent

__all__ = ["track", "close_all", "install_sigterm_handler", "wait_for_card"]

log = logging.getLogger(__name__)

_devices: list[weakref.ref[Device]] = []
_lock = threading.Lock()
_atexit_registered = False


def track(device: Device) -> Device:
    """Remember ``device`` so that ``close_all()`` closes it (the registry does this for you)."""
    global _atexit_registered
    with _lock:
        _devices.append(weakref.ref(device))
        if not _atexit_registered:
            atexit.register(close_all)
            _atexit_registered = True
    return device


def close_all() -> int:
    """Close every tracked device, newest first; return how many were closed now. Never raises."""
    with _lock:
        refs = _devices[::-1]
        _devices.clear()
    closed = 0
    for ref in refs:
        device = ref()
        if device is None or device.closed:
            continue
        try:
            device.close()
            closed += 1
        except Exception:
            log.exception("closing %r failed", device)
    return closed


def install_sigterm_handler(stop: threading.Event | None = None, *, exit_code: int = 0) -> None:
    """Handle SIGTERM (and SIGINT) in the main thread.

    With ``stop``: the first signal sets it (the main loop sees it and shuts down in order), a second
    one raises ``SystemExit(exit_code)``. Without: the first signal raises ``SystemExit(exit_code)``,
    which runs ``finally`` blocks, context managers and ``atexit`` (hence ``close_all``).
    ``exit_code`` 0 lets systemd count the stop as clean.

    Raises:
        ValueError: called from a thread other than the main thread (a Python rule).
    """

    def handler(signum: int, frame: FrameType | None) -> None:
        name = signal.Signals(signum).name
        if stop is not None and not stop.is_set():
            # Event.set() takes a lock that the interrupted main thread may hold (inside stop.wait), and the
            # log line writes to stderr, which the interrupted main thread may be writing to (a buffered stderr,
            # as without PYTHONUNBUFFERED: "reentrant call inside <_io.BufferedWriter>", raised out of the
            # handler before the stop was set, and the terminal never stopped): both from a helper thread, so
            # the handler can never deadlock nor fail.
            def stopping() -> None:
                try:
                    log.info("%s received: stopping", name)
                finally:
                    stop.set()
            threading.Thread(target=stopping, name="banquier-sigterm", daemon=True).start()
            return
        with contextlib.suppress(RuntimeError):  # a reentrant write to stderr (see above): exit all the same
            log.info("%s received: exiting", name)
        raise SystemExit(exit_code)

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


def wait_for_card(reader: CardReader, *, stop: threading.Event | None = None,
                  timeout_s: float | None = None,
                  on_event: Callable[[HalEvent], None] | None = None) -> CardPresented | None:
    """Poll ``reader`` at its own rate until a card is presented; return that event.

    Returns None when ``stop`` is set (checked at least once per poll interval, so a cancel or SIGTERM
    is honoured within ~50 ms, field-notes 3) or after ``timeout_s`` real seconds. Every other event
    (removals, ``ReaderLost``...) is passed to ``on_event`` if given. Sleeps between polls; never spins.
    """
    stop = stop or threading.Event()
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    while not stop.is_set():
        for event in reader.poll():
            if isinstance(event, CardPresented):
                return event
            if on_event is not None:
                on_event(event)
        if reader.closed:
            return None
        pause = max(reader.next_poll_in(), 0.001)
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            pause = min(pause, remaining)
        stop.wait(pause)
    return None
