"""Buttons: debouncing shared by every backend, the simulated buttons and the "none" backend.

``DebouncedButtons`` reads raw levels at each ``poll`` and accepts a change only once it has been seen
unchanged for ``debounce_s`` (on at least two polls that far apart), so contact bounce and a resistive
panel's chatter never become several presses (field-notes 15). A backend implements ``_read_raw``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable

from hal.errors import HalConfigError, UnknownButtonError
from hal.interfaces import BUTTON_NAMES, ButtonEvent, ButtonPressed, ButtonReleased, Buttons, Clock
from hal.presence import check_range

__all__ = ["DebouncedButtons", "SimButtons", "NullButtons", "check_names"]


def check_names(names: Iterable[str]) -> tuple[str, ...]:
    """Return the names as a tuple; raise HalConfigError on an empty, duplicate or non-text name."""
    result = tuple(names)
    for name in result:
        if not isinstance(name, str) or not name.strip():
            raise HalConfigError(f"button name {name!r}: use a word such as 'confirm' or 'f1'")
    if len(set(result)) != len(result):
        raise HalConfigError(f"button names {result!r} contain a duplicate")
    return result


class DebouncedButtons(Buttons):
    """Base of button backends.

    Args:
        names: the buttons, e.g. ``("confirm", "cancel")``.
        clock: monotonic seconds (``time.monotonic`` by default).
        debounce_s: seconds a level must stay stable, 0..0.5 (default 0.03).
    """

    def __init__(self, names: Iterable[str], *, clock: Clock | None = None,
                 debounce_s: float = 0.03) -> None:
        self._names = check_names(names)
        self._clock: Clock = clock or time.monotonic
        self._debounce_s = check_range("debounce_s", debounce_s, 0.0, 0.5)
        self._stable = dict.fromkeys(self._names, False)
        self._candidate: dict[str, tuple[bool, float] | None] = dict.fromkeys(self._names)
        self._closed = False

    def _read_raw(self) -> dict[str, bool]:  # pragma: no cover - abstract
        """Return ``{name: pressed}`` for every button, as the hardware shows it now."""
        raise NotImplementedError

    def _close(self) -> None:
        pass

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    @property
    def debounce_s(self) -> float:
        return self._debounce_s

    @property
    def closed(self) -> bool:
        return self._closed

    def _check(self, name: str) -> str:
        if name not in self._names:
            raise UnknownButtonError(
                f"no button {name!r}; configured: {', '.join(self._names) or 'none'}"
            )
        return name

    def is_pressed(self, name: str) -> bool:
        return self._stable[self._check(name)]

    def poll(self) -> list[ButtonEvent]:
        if self._closed or not self._names:
            return []
        now = self._clock()
        raw = self._read_raw()
        events: list[ButtonEvent] = []
        for name in self._names:
            level = bool(raw[name])
            if level == self._stable[name]:
                self._candidate[name] = None
                continue
            candidate = self._candidate[name]
            if candidate is None or candidate[0] != level:
                candidate = self._candidate[name] = (level, now)
            if now - candidate[1] >= self._debounce_s:
                self._stable[name] = level
                self._candidate[name] = None
                events.append((ButtonPressed if level else ButtonReleased)(name, at=now))
        return events

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._close()


class SimButtons(DebouncedButtons):
    """Buttons driven by the UI or a test (registry name ``"sim"``).

    ``press``/``release`` set a raw level, debounced exactly like hardware; ``click`` queues a clean
    press-and-release delivered by the next ``poll`` (a key or mouse click is not bouncy). Thread-safe.

    Args:
        names: button names (default: confirm, cancel, f1..f4); clock, debounce_s as DebouncedButtons.
    """

    backend = "sim"

    def __init__(self, names: Iterable[str] = BUTTON_NAMES, *, clock: Clock | None = None,
                 debounce_s: float = 0.03) -> None:
        super().__init__(names, clock=clock, debounce_s=debounce_s)
        self._lock = threading.Lock()
        self._raw = dict.fromkeys(self._names, False)
        self._clicks: list[str] = []

    def press(self, name: str) -> None:
        """Hold a button down (raw level; the event comes after the debounce)."""
        with self._lock:
            self._raw[self._check(name)] = True

    def release(self, name: str) -> None:
        """Let a button go (raw level)."""
        with self._lock:
            self._raw[self._check(name)] = False

    def click(self, name: str) -> None:
        """Queue one ``ButtonPressed`` + ``ButtonReleased`` for the next poll."""
        with self._lock:
            self._clicks.append(self._check(name))

    def _read_raw(self) -> dict[str, bool]:
        with self._lock:
            return dict(self._raw)

    def poll(self) -> list[ButtonEvent]:
        events = super().poll()
        with self._lock:
            clicks, self._clicks = self._clicks, []
        if self._closed:
            return events
        now = self._clock()
        for name in clicks:
            events += [ButtonPressed(name, at=now), ButtonReleased(name, at=now)]
        return events


class NullButtons(DebouncedButtons):
    """No buttons fitted (registry name ``"none"``): no names, no events."""

    backend = "none"

    def __init__(self, *, clock: Clock | None = None, debounce_s: float = 0.03) -> None:
        super().__init__((), clock=clock, debounce_s=debounce_s)

    def _read_raw(self) -> dict[str, bool]:
        return {}
