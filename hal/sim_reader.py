"""The simulated card reader: virtual cards put on and taken off by the UI, a test or a script.

It is a real backend (registry name ``"sim"``): the same rate limit, removal debounce and health logic
as the MFRC522 and serial readers, and it passes the same contract suite. Besides a card resting or
tapped, it can simulate the faults of field-notes 1, 2 and 6: a missed poll, a garbled read, two cards
at once (a collision) and a reader that stops answering.

Script format (a list of steps, or text with one step per line, or a path to such a file)::

    # seconds-after-start  action   argument
    0.5   present  04A1B2C3
    2.0   remove   04A1B2C3
    3.0   tap      04A1B2C3D4E5F6
    3.5   miss     2          # the resting card misses the next 2 scans
    4.0   garble   1          # the next scan reads garbage (CRC error)
    5.0   fail                # the reader stops answering ...
    7.0   repair              # ... and is back

Times are seconds after the reader was created, read from its clock.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Unpack

from hal.backends import ReaderBackend
from hal.errors import HalConfigError
from hal.interfaces import Clock
from hal.presence import PollingReader, PollingTiming, ScanResult
from hal.uid import normalize_uid

__all__ = ["SimReader", "BACKEND", "parse_script", "Script", "Step"]

_ACTIONS = {"present", "remove", "tap", "miss", "garble", "fail", "repair"}

#: One parsed step: (seconds after start, action, argument or None).
Step = tuple[float, str, str | None]
#: A script: a path, its text, or ``(seconds, action[, argument])`` rows.
Script = str | os.PathLike[str] | Iterable[Sequence[float | str]]


def parse_script(script: Script) -> list[Step]:
    """Return the steps of a script, sorted by time.

    ``script`` is a path to a text file, the text itself (contains a newline or a blank), or an
    iterable of ``(seconds, action[, argument])`` tuples.

    Raises:
        HalConfigError: unknown action, bad time, missing or invalid UID (message names the line).
    """
    if isinstance(script, os.PathLike) or (isinstance(script, str) and "\n" not in script
                                           and " " not in script.strip()):
        try:
            script = Path(script).read_text(encoding="utf-8")
        except OSError as exc:
            raise HalConfigError(f"cannot read the reader script {script}: {exc.strerror}") from None
    rows: list[tuple[int, Sequence[float | str]]]
    if isinstance(script, str):
        rows = []
        for number, line in enumerate(script.splitlines(), 1):
            line_words = line.split("#", 1)[0].split()
            if line_words:
                rows.append((number, line_words))
    else:
        rows = [(number, list(step)) for number, step in enumerate(script, 1)]
    steps: list[Step] = []
    for number, words in rows:
        if len(words) not in (2, 3):
            raise HalConfigError(f"reader script step {number}: expected 'SECONDS ACTION [ARGUMENT]'")
        try:
            at = float(words[0])
        except (TypeError, ValueError):
            raise HalConfigError(f"reader script step {number}: {words[0]!r} is not seconds") from None
        action = str(words[1]).lower()
        argument = None if len(words) == 2 else str(words[2])
        if action not in _ACTIONS:
            raise HalConfigError(
                f"reader script step {number}: unknown action {action!r}; use one of {sorted(_ACTIONS)}"
            )
        if action in ("present", "remove", "tap"):
            if argument is None:
                raise HalConfigError(f"reader script step {number}: {action} needs a UID")
            argument = normalize_uid(argument)
        elif action in ("miss", "garble") and argument is not None and not argument.isdigit():
            raise HalConfigError(f"reader script step {number}: {action} takes a count, not {argument!r}")
        steps.append((at, action, argument))
    steps.sort(key=lambda step: step[0])
    return steps


class SimReader(PollingReader):
    """A card reader with a virtual field (registry name ``"sim"``).

    Args:
        script: optional steps to replay (see the module docstring); times are seconds from creation.
        clock, poll_interval_s, removal_debounce_s, failures_before_lost, recover_interval_s:
            as ``hal.presence.PollingReader``.

    The methods that change the field are thread-safe (a UI thread may call them while another thread
    polls). UIDs are normalised; an invalid one raises ``InvalidUidError`` (a ``ValueError``).
    """

    backend = "sim"

    def __init__(self, *, script: Script | None = None, clock: Clock | None = None,
                 **timing: Unpack[PollingTiming]) -> None:
        super().__init__(clock=clock, **timing)
        self._lock = threading.Lock()
        self._field: list[str] = []
        self._taps: list[str] = []
        self._misses = 0
        self._garbles = 0
        self._failed: str | None = None
        self._steps = parse_script(script) if script is not None else []
        self._start = self._clock()

    # -- the virtual field -----------------------------------------------------------------------
    def present(self, uid: str) -> None:
        """Put a card on the reader; it rests there until ``remove``."""
        uid = normalize_uid(uid)
        with self._lock:
            if uid not in self._field:
                self._field.append(uid)

    def remove(self, uid: str | None = None) -> None:
        """Take a card (or, with no argument, every card) off the reader. Unknown UIDs are ignored."""
        with self._lock:
            if uid is None:
                self._field.clear()
                self._taps.clear()
            else:
                uid = normalize_uid(uid)
                self._field = [u for u in self._field if u != uid]
                self._taps = [u for u in self._taps if u != uid]

    def tap(self, uid: str) -> None:
        """Bring a card close for exactly one scan: one ``CardPresented`` now, ``CardRemoved`` after
        the debounce. A tap of a card already resting changes nothing (it is the same presentation)."""
        uid = normalize_uid(uid)
        with self._lock:
            if uid not in self._field and uid not in self._taps:
                self._taps.append(uid)

    def miss(self, count: int = 1) -> None:
        """The next ``count`` scans see an empty field although cards rest (a weak link)."""
        with self._lock:
            self._misses += int(count)

    def garble(self, count: int = 1) -> None:
        """The next ``count`` scans read garbage (a CRC error) instead of the resting card."""
        with self._lock:
            self._garbles += int(count)

    def fail(self, reason: str = "simulated reader does not answer") -> None:
        """The reader stops answering until ``repair()`` (``ReaderLost`` after a few scans)."""
        with self._lock:
            self._failed = reason

    def repair(self) -> None:
        """The reader answers again (``ReaderBack`` at the next recovery attempt)."""
        with self._lock:
            self._failed = None

    @property
    def field(self) -> tuple[str, ...]:
        """UIDs of the cards resting on the reader now."""
        with self._lock:
            return tuple(self._field)

    # -- PollingReader hooks -----------------------------------------------------------------------
    def _run_script(self, now: float) -> None:
        elapsed = now - self._start
        while self._steps and self._steps[0][0] <= elapsed:
            _, action, argument = self._steps.pop(0)
            # parse_script gave every present and tap a UID (an empty one would be refused as invalid).
            if action == "present":
                self.present(argument or "")
            elif action == "remove":
                self.remove(argument)
            elif action == "tap":
                self.tap(argument or "")
            elif action == "miss":
                self.miss(int(argument or 1))
            elif action == "garble":
                self.garble(int(argument or 1))
            elif action == "fail":
                self.fail()
            else:
                self.repair()

    def _scan(self, now: float) -> ScanResult:
        self._run_script(now)
        with self._lock:
            if self._failed is not None:
                return ScanResult(failure=self._failed)
            cards = list(dict.fromkeys(self._field + self._taps))
            self._taps.clear()
            if not cards:
                return ScanResult()
            if self._misses:
                self._misses -= 1
                return ScanResult()
            if self._garbles:
                self._garbles -= 1
                return ScanResult(errors=1)
            if len(cards) > 1:  # two cards in the field answer at once: a collision, not a read
                return ScanResult(errors=1)
            return ScanResult(uids=(cards[0],))

    def _recover(self, now: float) -> str | None:
        self._run_script(now)
        with self._lock:
            return self._failed

    def _close(self) -> None:
        with self._lock:
            self._field.clear()
            self._taps.clear()


#: The backend's declaration (hal.backends): no options in the configuration (the script is for tests).
BACKEND = ReaderBackend(name="sim", target="hal.sim_reader:SimReader",
                        summary="the simulator's virtual cards, tapped with the mouse or the keyboard",
                        cards="any card the simulator shows")
