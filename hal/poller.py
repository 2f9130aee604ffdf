"""Polling a card reader from its own thread, so that the screen's loop sleeps until something happens.

A reader must be polled at its own schedule (``next_poll_in``: every 20 ms for an MFRC522 watching an
empty field); a screen loop that woke up for each poll would spend its CPU on wake-ups and would delay a
poll while it draws a frame. :class:`ReaderThread` polls in a thread of its own, keeps the events in order
and calls ``wake()`` when there are new ones (the screen posts itself an event there); the loop takes them
with :meth:`ReaderThread.drain` and hands them to the terminal in its own thread, as before.

Only the thread calls the reader's ``poll`` and ``next_poll_in`` while it runs; :meth:`ReaderThread.stop`
returns once it has stopped, so the reader can then be closed (the thread never closes it).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

from hal.interfaces import HalEvent

__all__ = ["PolledReader", "ReaderThread"]

log = logging.getLogger(__name__)

#: The shortest pause between two polls (a reader that says "now" again never makes the thread spin).
MIN_PAUSE_S = 0.002


class PolledReader(Protocol):
    """What the thread uses of a reader: a ``hal`` :class:`~hal.interfaces.CardReader`, or a stand-in for one
    that may not have started yet (``poll`` and, optionally, ``next_poll_in``)."""

    def poll(self) -> list[HalEvent]: ...


class ReaderThread:
    """Polls ``reader`` from a daemon thread and queues its events.

    Args:
        reader: polled at its own schedule (``next_poll_in()`` seconds after each poll; 0.05 s if it has none).
        wake: called from the thread after new events were queued (at most once until the next ``drain``);
            it must be quick and thread-safe (posting a pygame event is).
        error_pause_s: pause after a ``poll`` that raised (logged; polling goes on).
        wait: ``wait(stop_event, seconds)`` for the pause between polls (default ``time.sleep``, which costs
            half the CPU of ``Event.wait`` with a timeout; a stop is seen after the pause, at most
            ``poll_interval_s``); tests replace it to run the schedule without sleeping.
    """

    def __init__(self, reader: PolledReader, wake: Callable[[], None] = lambda: None, *,
                 name: str = "banquier-reader", error_pause_s: float = 0.5,
                 wait: Callable[[threading.Event, float], object] | None = None) -> None:
        self.reader, self.wake, self.name, self.error_pause_s = reader, wake, name, error_pause_s
        self._wait = wait or (lambda _stop, seconds: time.sleep(seconds))
        self._events: deque[HalEvent] = deque()
        self._lock = threading.Lock()
        self._woken = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        #: Polls done so far (tests and the benchmark read it).
        self.polls = 0

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Start polling (once; a second call does nothing)."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def drain(self) -> list[HalEvent]:
        """The events queued since the last call, oldest first."""
        with self._lock:
            events = list(self._events)
            self._events.clear()
            self._woken = False
        return events

    def stop(self, timeout_s: float = 2.0) -> bool:
        """Stop polling and wait up to ``timeout_s`` for the thread to end; True if it ended. Events still
        queued stay for :meth:`drain`. The reader is left open."""
        self._stop.set()
        thread = self._thread
        if thread is None or thread is threading.current_thread():
            return True
        thread.join(timeout_s)
        return not thread.is_alive()

    def poll_once(self) -> float:
        """One turn of the thread: poll, queue, wake; return the pause before the next turn (seconds)."""
        self.polls += 1
        try:
            events = list(self.reader.poll())
        except Exception:  # a backend error it did not turn into ReaderLost itself: logged, polled again
            log.exception("polling the card reader failed")
            return self.error_pause_s
        if events:
            with self._lock:
                self._events.extend(events)
                call, self._woken = not self._woken, True
            if call:
                try:
                    self.wake()
                except Exception:
                    log.exception("waking the screen loop failed")
        next_poll_in = getattr(self.reader, "next_poll_in", None)
        try:
            pause = float(next_poll_in()) if next_poll_in is not None else 0.05
        except Exception:
            log.exception("asking the card reader for its next poll failed")
            pause = self.error_pause_s
        return max(MIN_PAUSE_S, pause)

    def _run(self) -> None:
        while not self._stop.is_set():
            if getattr(self.reader, "closed", False) is True:
                return
            self._wait(self._stop, self.poll_once())
