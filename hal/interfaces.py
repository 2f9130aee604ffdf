"""What the terminal and the UI know about the hardware: events, and three abstract devices.

Nothing here imports a vendor library; every backend (simulator, MFRC522 on SPI, serial reader, GPIO
beeper and buttons) implements one of these classes and passes the same contract test suite
(``tests/hal/test_hal_contract_*.py``).

Time: every backend takes an injected ``clock``, a callable returning monotonic seconds (a ``float``;
``time.monotonic`` by default). Event timestamps (``at``) are read from that clock. They are not part of
event equality, so a test can write ``assert events == [CardPresented("04A1B2C3")]``.

Threading: ``CardReader.poll`` and ``Buttons.poll`` are called from one thread (the UI loop or a
reader thread); ``Beeper.play`` may be called from any thread.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Self

__all__ = [
    "Clock",
    "HalEvent",
    "CardEvent",
    "CardPresented",
    "CardRemoved",
    "ReaderLost",
    "ReaderBack",
    "ButtonEvent",
    "ButtonPressed",
    "ButtonReleased",
    "Device",
    "CardReader",
    "Beeper",
    "Buttons",
    "BEEP_PATTERNS",
    "BUTTON_NAMES",
]

#: A callable returning monotonic seconds as a float (``time.monotonic`` or a test's fake clock).
Clock = Callable[[], float]

#: The beep patterns every Beeper plays, by name (see ``hal.patterns`` for their tones).
BEEP_PATTERNS: tuple[str, ...] = ("accepted", "success", "refused", "alert", "bankruptcy", "game_over")

#: Button names the terminal understands: confirm, cancel and function keys f1..f4.
BUTTON_NAMES: tuple[str, ...] = ("confirm", "cancel", "f1", "f2", "f3", "f4")


# --------------------------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class HalEvent:
    """Base of every event; ``at`` is the backend clock's reading in seconds (not compared)."""

    at: float = field(default=0.0, compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class CardEvent(HalEvent):
    """An event about one card; ``uid`` is canonical hex (see ``hal.uid.normalize_uid``)."""

    uid: str


@dataclass(frozen=True, slots=True)
class CardPresented(CardEvent):
    """A card arrived on the reader: one per real presentation, never one per poll (field-notes 1)."""


@dataclass(frozen=True, slots=True)
class CardRemoved(CardEvent):
    """The card left: it was not seen for the removal debounce time (about 1 s, field-notes 2)."""


@dataclass(frozen=True, slots=True)
class ReaderLost(HalEvent):
    """The reader stopped answering; taps are not seen until ``ReaderBack``. ``reason`` is one line."""

    reason: str


@dataclass(frozen=True, slots=True)
class ReaderBack(HalEvent):
    """The reader answers again after a ``ReaderLost`` (after a re-init or a reconnect)."""


@dataclass(frozen=True, slots=True)
class ButtonEvent(HalEvent):
    """An event about one button; ``button`` is one of the names the backend was configured with."""

    button: str


@dataclass(frozen=True, slots=True)
class ButtonPressed(ButtonEvent):
    """A debounced press (the level was stable for the debounce time)."""


@dataclass(frozen=True, slots=True)
class ButtonReleased(ButtonEvent):
    """A debounced release."""


# -------------------------------------------------------------------------------------------- devices


class Device(abc.ABC):
    """Something that holds hardware; ``close()`` releases it and is safe to call twice.

    Usable as a context manager. After ``close()``, ``poll()`` returns no events and ``play()`` does
    nothing, so shutdown paths never raise.
    """

    #: Registry name of the backend ("sim", "mfrc522", ...), set by each subclass.
    backend: ClassVar[str] = "?"

    @abc.abstractmethod
    def close(self) -> None:
        """Release the hardware (only this device's own pins and files). Idempotent; never raises."""

    @property
    @abc.abstractmethod
    def closed(self) -> bool:
        """True once ``close()`` was called."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class CardReader(Device):
    """A card reader turned into edge events.

    ``poll()`` is non-blocking and rate-limited: called more often than ``poll_interval_s`` (while a card is
    read on the reader) or ``idle_poll_interval_s`` (while the field looks empty) it returns ``[]`` without touching the
    hardware; otherwise it scans once (a few milliseconds at most) and returns what changed, in order:

    * ``CardPresented(uid)`` when a card arrives (absent -> present edge),
    * ``CardRemoved(uid)`` when it was not seen for ``removal_debounce_s``; missed polls and read
      errors (CRC, parity, collision, bad checksum) while it rests count as "still there",
    * a different card read cleanly while one is present gives ``CardRemoved(old)``, ``CardPresented(new)``,
    * ``ReaderLost(reason)`` after repeated failures, ``ReaderBack()`` once it answers again. A card
      resting across a ``ReaderLost``/``ReaderBack`` is not reported again (no double tap).
    """

    @property
    @abc.abstractmethod
    def poll_interval_s(self) -> float:
        """Seconds between two hardware scans while a card is read on the reader, and the longest wait between
        two scans (0.05 s = 20 Hz by default)."""

    @property
    def idle_poll_interval_s(self) -> float:
        """Seconds between two scans while the field looks empty (at most ``poll_interval_s``): how soon a card
        entering the field is seen. The same as ``poll_interval_s`` unless the backend says otherwise."""
        return self.poll_interval_s

    @property
    @abc.abstractmethod
    def removal_debounce_s(self) -> float:
        """Seconds a card must be unseen before ``CardRemoved`` (1.0 by default)."""

    @abc.abstractmethod
    def poll(self) -> list[HalEvent]:
        """Scan if one is due and return the new events (possibly ``[]``). Never blocks for long."""

    @abc.abstractmethod
    def next_poll_in(self) -> float:
        """Seconds (>= 0) until a ``poll()`` would scan again: how long a loop may sleep."""

    @property
    @abc.abstractmethod
    def present_uid(self) -> str | None:
        """UID of the card currently considered on the reader, or None."""

    @property
    @abc.abstractmethod
    def healthy(self) -> bool:
        """False between a ``ReaderLost`` and the next ``ReaderBack``."""


class Beeper(Device):
    """Plays named feedback patterns without ever blocking the caller.

    At most one worker thread per beeper (or none, when the audio backend mixes asynchronously).
    A burst of requests does not pile up: an identical request already waiting is merged, and at most
    ``MAX_PENDING`` requests wait; beyond that the oldest waiting one is dropped.
    """

    MAX_PENDING: ClassVar[int] = 2

    @property
    def patterns(self) -> Sequence[str]:
        """Names accepted by ``play``."""
        return BEEP_PATTERNS

    @abc.abstractmethod
    def play(self, pattern: str) -> bool:
        """Start (or queue) a pattern; return at once. True if it will sound, False if muted/closed.

        Raises:
            UnknownPatternError: ``pattern`` is not one of ``patterns``.
        """

    @property
    @abc.abstractmethod
    def volume(self) -> float:
        """Loudness 0.0..1.0 (1.0 by default). Hardware without volume treats any value > 0 as 1.0."""

    @volume.setter
    @abc.abstractmethod
    def volume(self, value: float) -> None:
        """Raises HalConfigError unless 0.0 <= value <= 1.0."""

    @property
    @abc.abstractmethod
    def muted(self) -> bool:
        """When True, ``play`` returns False and nothing sounds; a playing pattern is cut short."""

    @muted.setter
    @abc.abstractmethod
    def muted(self, value: bool) -> None: ...

    @property
    def supports_volume(self) -> bool:
        """True if volumes between 0 and 1 make an audible difference on this hardware."""
        return True

    @abc.abstractmethod
    def stop(self) -> None:
        """Cut the current pattern short and drop waiting ones; the output ends silent (pin low)."""

    @abc.abstractmethod
    def wait_idle(self, timeout_s: float | None = None) -> bool:
        """Block until nothing plays or waits (True), or ``timeout_s`` real seconds pass (False).

        For shutdown ("play game_over, then exit") and tests; never call it from the UI loop.
        """


class Buttons(Device):
    """Physical buttons (optional hardware) turned into debounced press/release events."""

    @property
    @abc.abstractmethod
    def names(self) -> tuple[str, ...]:
        """The configured button names, e.g. ``("confirm", "cancel", "f1")``."""

    @property
    @abc.abstractmethod
    def debounce_s(self) -> float:
        """Seconds a level must stay stable before it counts (0.03 by default)."""

    @abc.abstractmethod
    def poll(self) -> list[ButtonEvent]:
        """Return the debounced presses and releases since the last poll, in order. Non-blocking."""

    @abc.abstractmethod
    def is_pressed(self, name: str) -> bool:
        """Debounced state of one button. Raises UnknownButtonError for an unknown name."""
