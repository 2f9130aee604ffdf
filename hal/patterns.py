"""The beep patterns: what each named feedback sounds like.

A pattern is a sequence of ``(frequency_hz, duration_s)`` steps; frequency 0 is a rest. Tones sit
between 1 and 3.2 kHz, where small piezo and magnetic buzzers are loud (their resonance is near
2.7 kHz). An active buzzer ignores the frequency, so each pattern is also distinct by its rhythm alone:
one blip, two rising blips, two slow low beeps, three fast ones, a falling line, a fanfare.
"""

from __future__ import annotations

from hal.errors import UnknownPatternError
from hal.interfaces import BEEP_PATTERNS

__all__ = ["PATTERNS", "Step", "steps_of", "duration_of"]

Step = tuple[int, float]

PATTERNS: dict[str, tuple[Step, ...]] = {
    # A card tap was read and accepted: one short blip (field-notes 1: exactly one per tap).
    "accepted": ((2700, 0.05),),
    # A payment or action was committed.
    "success": ((2000, 0.07), (0, 0.04), (2700, 0.12)),
    # Refused (not enough money, wrong card, wrong state): two slow low beeps.
    "refused": ((1000, 0.15), (0, 0.08), (1000, 0.30)),
    # Needs attention (reader lost, confirm needed): three fast high beeps.
    "alert": ((3200, 0.08), (0, 0.06), (3200, 0.08), (0, 0.06), (3200, 0.08)),
    # A player went bankrupt: a falling line.
    "bankruptcy": ((2400, 0.20), (0, 0.05), (1800, 0.20), (0, 0.05), (1200, 0.45)),
    # The game is over: a short fanfare.
    "game_over": ((1600, 0.12), (0, 0.03), (2000, 0.12), (0, 0.03), (2400, 0.12), (0, 0.03),
                  (3200, 0.40)),
}

assert tuple(PATTERNS) == BEEP_PATTERNS


def steps_of(pattern: str) -> tuple[Step, ...]:
    """Return the steps of a pattern. Raises UnknownPatternError (a LookupError) naming the known ones."""
    try:
        return PATTERNS[pattern]
    except (KeyError, TypeError):
        raise UnknownPatternError(
            f"no beep pattern {pattern!r}; use one of: {', '.join(BEEP_PATTERNS)}"
        ) from None


def duration_of(pattern: str) -> float:
    """Total length of a pattern in seconds."""
    return sum(duration for _, duration in steps_of(pattern))
