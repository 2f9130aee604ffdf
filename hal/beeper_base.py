"""Shared beeper machinery: argument checks, and a single worker thread that plays patterns.

``ThreadedBeeper`` is the base of beepers that must time each step themselves (a GPIO buzzer). Its
caller never blocks: ``play`` appends to a short queue and returns. One worker thread per beeper, started
on the first ``play``, plays the queue; a burst of requests merges identical waiting requests and keeps
at most ``MAX_PENDING`` waiting (the oldest is dropped), so a stuck button or a loop cannot pile up
threads or minutes of beeping (field-notes 12). Whatever happens inside a pattern, even an exception or a
``stop()``, the worker ends it by silencing the output.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable

from hal.errors import HalConfigError
from hal.interfaces import Beeper, Clock
from hal.patterns import steps_of
from hal.presence import check_range

__all__ = ["ThreadedBeeper", "NullBeeper", "check_volume"]

log = logging.getLogger(__name__)


def check_volume(value: float) -> float:
    """Return the volume as a float in 0.0..1.0, or raise HalConfigError (a ValueError)."""
    if isinstance(value, bool):
        raise HalConfigError(f"volume must be a number 0.0..1.0, got {value!r}")
    return check_range("volume", value, 0.0, 1.0, unit="(1.0 = loudest)")


class BeeperSettings(Beeper):
    """``volume``, ``muted`` and ``closed`` for beepers that keep them in ``_volume``, ``_muted`` and
    ``_closed``: a volume of 0 or muting cuts the current pattern short (``stop()``). A beeper derives from
    it (it is a :class:`~hal.interfaces.Beeper`, still abstract: the beeper supplies ``play``, ``stop``...)."""

    _volume: float
    _muted: bool
    _closed: bool

    @property
    def volume(self) -> float:
        return self._volume

    @volume.setter
    def volume(self, value: float) -> None:
        self._volume = check_volume(value)
        if self._volume == 0.0:
            self.stop()

    @property
    def muted(self) -> bool:
        return self._muted

    @muted.setter
    def muted(self, value: bool) -> None:
        self._muted = bool(value)
        if self._muted:
            self.stop()

    @property
    def closed(self) -> bool:
        return self._closed


class ThreadedBeeper(BeeperSettings, Beeper):
    """A beeper whose patterns are timed by one worker thread.

    Subclasses implement ``_sound(frequency_hz, volume)`` (start or change a tone; frequency > 0),
    ``_silence()`` (output off; must be safe to call at any time, twice) and ``_release()`` (free the
    hardware, called once by ``close``).

    Args:
        volume: initial volume 0.0..1.0.
        clock: monotonic seconds, for the ``played`` log.
        wait: ``wait(seconds) -> bool`` used between steps; returns True to cut the pattern short. The
            default waits on an internal event that ``stop()``/``close()`` set. Tests pass a function
            that returns at once.
    """

    def __init__(self, *, volume: float = 1.0, clock: Clock | None = None,
                 wait: Callable[[float], bool] | None = None) -> None:
        self._volume = check_volume(volume)
        self._muted = False
        self._clock: Clock = clock or time.monotonic
        self._cancel = threading.Event()
        self._wait = wait or self._cancel.wait
        self._cond = threading.Condition()
        self._pending: deque[str] = deque()
        self._busy = False
        self._closing = False
        self._closed = False
        self._thread: threading.Thread | None = None
        #: ``(clock seconds, pattern)`` of every pattern the worker started, oldest first (max 1000).
        self.played: deque[tuple[float, str]] = deque(maxlen=1000)

    # -- subclass hooks --------------------------------------------------------------------------
    def _sound(self, frequency_hz: int, volume: float) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _silence(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _release(self) -> None:
        pass

    # -- Beeper --------------------------------------------------------------------------------
    def play(self, pattern: str) -> bool:
        steps_of(pattern)  # raises UnknownPatternError before anything else
        with self._cond:
            if self._closing or self._muted or self._volume == 0.0:
                return False
            if pattern not in self._pending:
                self._pending.append(pattern)
                while len(self._pending) > self.MAX_PENDING:
                    dropped = self._pending.popleft()
                    log.debug("beeper busy: dropped a waiting %r", dropped)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=f"banquier-{self.backend}-beeper",
                                                daemon=True)
                self._thread.start()
            self._cond.notify_all()
        return True

    def stop(self) -> None:
        with self._cond:
            self._pending.clear()
            if self._busy:
                self._cancel.set()
            self._cond.notify_all()

    def wait_idle(self, timeout_s: float | None = None) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._busy, timeout_s)

    @property
    def thread_count(self) -> int:
        """Worker threads alive for this beeper: 0 or 1."""
        return int(self._thread is not None and self._thread.is_alive())

    def close(self) -> None:
        """Cut any pattern short, stop the worker (waits at most 1 s), silence and release the output."""
        with self._cond:
            if self._closed:
                return
            self._closing = True
            self._pending.clear()
            self._cancel.set()
            self._cond.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=1.0)
        try:
            self._silence()
        except Exception:
            log.exception("silencing the %s beeper failed", self.backend)
        try:
            self._release()
        except Exception:
            log.exception("releasing the %s beeper failed", self.backend)
        self._closed = True

    # -- the worker ----------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closing:
                    self._cond.wait()
                if self._closing:
                    return
                pattern = self._pending.popleft()
                self._busy = True
                self._cancel.clear()
            try:
                self.played.append((self._clock(), pattern))
                self._perform(pattern)
            except Exception:
                log.exception("playing %r on the %s beeper failed", pattern, self.backend)
            finally:
                try:
                    self._silence()
                except Exception:
                    log.exception("silencing the %s beeper failed", self.backend)
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _perform(self, pattern: str) -> None:
        for frequency_hz, duration_s in steps_of(pattern):
            if self._cancel.is_set() or self._closing:
                return
            if frequency_hz:
                self._sound(frequency_hz, self._volume)
            else:
                self._silence()
            if self._wait(duration_s):
                return


class NullBeeper(BeeperSettings, Beeper):
    """No buzzer fitted (registry name ``"none"``): checks its arguments, plays nothing."""

    backend = "none"

    def __init__(self, *, volume: float = 1.0) -> None:
        self._volume = check_volume(volume)
        self._muted = False
        self._closed = False

    def play(self, pattern: str) -> bool:
        steps_of(pattern)
        return False

    @property
    def supports_volume(self) -> bool:
        return False

    def stop(self) -> None:
        pass

    def wait_idle(self, timeout_s: float | None = None) -> bool:
        return True

    def close(self) -> None:
        self._closed = True
