"""A manual monotonic clock for tests: ``clock()`` reads it, ``clock.advance(s)`` moves it."""

from __future__ import annotations


class FakeClock:
    """Callable returning seconds; starts at ``start`` and moves only when told."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = float(start)

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError("a monotonic clock never goes back")
        self.now += seconds
        return self.now

    def sleep(self, seconds: float) -> None:
        """Drop-in for ``time.sleep`` that advances instead of waiting."""
        self.advance(max(0.0, seconds))
