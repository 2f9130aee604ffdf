"""From "what the reader sees on each scan" to edge events: the logic every card reader shares.

Readers report presence, not taps (field-notes 1). ``PresenceTracker`` turns a stream of scans into
``CardPresented`` / ``CardRemoved`` edges with a removal debounce (field-notes 2), and ``PollingReader``
adds the bounded poll rate and the health state machine (``ReaderLost`` / ``ReaderBack``, field-notes 6).
A backend only implements ``_scan`` (one look at the field), ``_recover`` and ``_close``.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TypedDict

from hal.errors import HalConfigError, HalError
from hal.interfaces import (
    CardPresented,
    CardReader,
    CardRemoved,
    Clock,
    HalEvent,
    ReaderBack,
    ReaderLost,
)

__all__ = ["ScanResult", "PresenceTracker", "PollingReader", "ReaderTiming", "PollingTiming", "check_range"]

log = logging.getLogger(__name__)


def _number(value: float) -> str:
    """A bound as a person writes it: an integer as an integer (``10000000``, not ``1e+07``)."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def check_range(name: str, value: float, low: float, high: float, unit: str = "s") -> float:
    """Return ``float(value)`` if ``low <= value <= high``; else raise HalConfigError naming the range."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise HalConfigError(f"{name} must be a number of {unit}, got {value!r}") from None
    if not low <= number <= high:
        raise HalConfigError(f"{name}={value!r} is out of range: use {_number(low)}..{_number(high)} {unit}")
    return number


@dataclass(frozen=True, slots=True)
class ScanResult:
    """What one scan of the field found.

    Attributes:
        uids: UIDs read cleanly, in the order they were read (usually zero or one).
        errors: garbled reads (CRC/parity error, collision, bad checksum): a card is there, unreadable.
        failure: the reader itself did not answer or failed (one line of reason), else None.
    """

    uids: tuple[str, ...] = ()
    errors: int = 0
    failure: str | None = None


class PresenceTracker:
    """Edge detection with a removal debounce. Pure: time is passed in, nothing blocks.

    Args:
        removal_debounce_s: seconds (> 0) a present card must go unseen before it counts as removed.
    """

    def __init__(self, removal_debounce_s: float) -> None:
        self.removal_debounce_s = removal_debounce_s
        self.current: str | None = None
        self.last_seen = 0.0

    def update(self, now: float, result: ScanResult) -> list[HalEvent]:
        """Feed one scan taken at ``now`` (seconds) and return the edges it causes."""
        events: list[HalEvent] = []
        for uid in result.uids:
            if uid == self.current:
                self.last_seen = now
                continue
            if self.current is not None:
                events.append(CardRemoved(self.current, at=now))
            self.current = uid
            self.last_seen = now
            events.append(CardPresented(uid, at=now))
        if not result.uids and (result.errors or result.failure) and self.current is not None:
            # A garbled read or a hiccup while a card rests means "still there" (field-notes 2).
            self.last_seen = now
        if self.current is not None and now - self.last_seen >= self.removal_debounce_s:
            events.append(CardRemoved(self.current, at=now))
            self.current = None
        return events

    def resume(self, now: float) -> None:
        """Restart the debounce after a pause (the reader was lost): unseen time starts now."""
        self.last_seen = now


class ReaderTiming(TypedDict, total=False):
    """The timing options a backend passes on to ``PollingReader`` (``**timing``), but the failure count."""

    poll_interval_s: float
    idle_poll_interval_s: float
    removal_debounce_s: float
    recover_interval_s: float


class PollingTiming(ReaderTiming, total=False):
    """Every timing option of ``PollingReader``, for backends that pass all of them on."""

    failures_before_lost: int


class PollingReader(CardReader):
    """Base of every card reader backend: rate limit, presence tracking and health.

    Args:
        clock: monotonic seconds; ``time.monotonic`` by default.
        poll_interval_s: seconds to the next scan after one that read a card (or failed), and the longest
            wait between two scans, 0.01..1.0 (default 0.05 = 20 Hz, field-notes 4).
        idle_poll_interval_s: seconds to the next scan after one that read no card (an empty field, or a
            garbled read), 0.005..``poll_interval_s`` (default: ``poll_interval_s``). A card entering the
            field is seen within this time, also while the card before is within its removal debounce. A scan
            of an empty field is the cheap one (reading a resting card is a whole exchange at each scan), so a
            backend may watch an empty field more often than a resting card (see ``Mfrc522Reader``). The
            presence logic is unchanged: removal is timed in seconds (``removal_debounce_s``), not in scans.
        removal_debounce_s: seconds unseen before ``CardRemoved``, greater than ``poll_interval_s`` and
            at most 10 (default 1.0).
        failures_before_lost: consecutive failed scans before ``ReaderLost``, 1..100 (default 3).
        recover_interval_s: seconds between two recovery attempts while lost, 0.01..60 (default 1.0).

    Raises:
        HalConfigError: a value out of range.
    """

    def __init__(
        self,
        *,
        clock: Clock | None = None,
        poll_interval_s: float = 0.05,
        idle_poll_interval_s: float | None = None,
        removal_debounce_s: float = 1.0,
        failures_before_lost: int = 3,
        recover_interval_s: float = 1.0,
    ) -> None:
        self._clock: Clock = clock or time.monotonic
        self._poll_interval_s = check_range("poll_interval_s", poll_interval_s, 0.01, 1.0)
        self._idle_poll_interval_s = self._poll_interval_s if idle_poll_interval_s is None else check_range(
            "idle_poll_interval_s", idle_poll_interval_s, 0.005, self._poll_interval_s)
        self._removal_debounce_s = check_range("removal_debounce_s", removal_debounce_s, 0.0, 10.0)
        if self._removal_debounce_s <= self._poll_interval_s:
            raise HalConfigError(
                f"removal_debounce_s={removal_debounce_s!r} must be longer than "
                f"poll_interval_s={poll_interval_s!r}, or every missed poll would be a removal"
            )
        if not isinstance(failures_before_lost, int) or not 1 <= failures_before_lost <= 100:
            raise HalConfigError(f"failures_before_lost={failures_before_lost!r}: use an integer 1..100")
        self._failures_before_lost = failures_before_lost
        self._recover_interval_s = check_range("recover_interval_s", recover_interval_s, 0.01, 60.0)
        self._tracker = PresenceTracker(self._removal_debounce_s)
        self._next_scan = float("-inf")
        self._next_recover = float("-inf")
        self._failures = 0
        self._healthy = True
        self._lost_reason: str | None = None
        self._closed = False
        #: Number of hardware scans done so far (tests and the benchmark read it).
        self.scans = 0

    # -- backend hooks ---------------------------------------------------------------------------
    def _scan(self, now: float) -> ScanResult:  # pragma: no cover - abstract
        raise NotImplementedError

    def _recover(self, now: float) -> str | None:
        """Try to bring a lost reader back; return None on success or one line of reason."""
        return None

    def _close(self) -> None:
        """Release the backend's resources (called once)."""

    # -- CardReader ------------------------------------------------------------------------------
    @property
    def poll_interval_s(self) -> float:
        return self._poll_interval_s

    @property
    def idle_poll_interval_s(self) -> float:
        return self._idle_poll_interval_s

    @property
    def removal_debounce_s(self) -> float:
        return self._removal_debounce_s

    @property
    def present_uid(self) -> str | None:
        return self._tracker.current

    @property
    def healthy(self) -> bool:
        return self._healthy

    @property
    def lost_reason(self) -> str | None:
        """Why the reader is lost (one line), or None while healthy."""
        return self._lost_reason

    @property
    def closed(self) -> bool:
        return self._closed

    def next_poll_in(self) -> float:
        return max(0.0, self._next_scan - self._clock())

    def poll(self) -> list[HalEvent]:
        if self._closed:
            return []
        now = self._clock()
        if now < self._next_scan:
            return []
        self._next_scan = now + self._poll_interval_s
        if not self._healthy:
            return self._try_recover(now)
        self.scans += 1
        try:
            result = self._scan(now)
        except (OSError, HalError) as exc:  # SPI/serial errors: a failure, not a crash
            result = ScanResult(failure=f"{type(exc).__name__}: {exc}")
        events = self._tracker.update(now, result)
        if not result.uids and result.failure is None:
            # A field that looked empty (or garbled) is watched at the idle rate, so that a card entering it
            # is seen soon, also within the removal debounce of the card before (a deed, then the payer's
            # card); a card read cleanly, and a failing reader, at the base rate.
            self._next_scan = now + self._idle_poll_interval_s
        if result.failure is None:
            self._failures = 0
            return events
        self._failures += 1
        log.debug("%s reader scan failed (%d): %s", self.backend, self._failures, result.failure)
        if self._failures >= self._failures_before_lost:
            self._healthy = False
            self._lost_reason = result.failure
            self._next_recover = now
            log.warning("%s card reader lost: %s", self.backend, result.failure)
            events.append(ReaderLost(result.failure, at=now))
        return events

    def _try_recover(self, now: float) -> list[HalEvent]:
        if now < self._next_recover:
            return []
        self._next_recover = now + self._recover_interval_s
        try:
            reason = self._recover(now)
        except (OSError, HalError) as exc:
            reason = f"{type(exc).__name__}: {exc}"
        if reason is not None:
            if reason != self._lost_reason:
                log.warning("%s card reader still lost: %s", self.backend, reason)
            self._lost_reason = reason
            return []
        log.warning("%s card reader is back", self.backend)
        self._healthy = True
        self._lost_reason = None
        self._failures = 0
        self._tracker.resume(now)
        return [ReaderBack(at=now)]

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._close()
        except Exception:
            log.exception("closing the %s card reader failed", self.backend)

    def __repr__(self) -> str:
        state = "closed" if self._closed else ("ok" if self._healthy else f"lost: {self._lost_reason}")
        return f"<{type(self).__name__} {state} card={self.present_uid}>"
