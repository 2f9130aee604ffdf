"""The play clock of a time-limited game (docs/table-log.md, Time limit): play time counted on a monotonic clock
while the terminal runs, written to the journal as ``x_play_time`` entries, ending the game (``x_time_up``) once
the agreed time is played. The wall clock never ends a game: an older game's wall-clock ``end_time`` is converted
once into play time left (:func:`adopt_end_time`).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, Protocol

from terminal.bank import engine
from terminal.bank.door import Receipt
from terminal.bank.operations import Operation, PlayTime, TimeLimit, TimeUp
from terminal.bank.state import State
from terminal.bank.types import GameConfig
from terminal.errors import GameError, RuleViolation

#: Play time is written to the journal every this many seconds of play (and when the limit is reached, and
#: at a clean close): an unclean stop loses at most this much of the time played.
PLAY_TIME_RECORD_S = 60


class Clocked(Protocol):
    """What the play clock asks of its game (:class:`terminal.Game` is one)."""

    @property
    def config(self) -> GameConfig: ...
    @property
    def current(self) -> State: ...
    @property
    def meta(self) -> Mapping[str, Any]: ...
    @property
    def read_only(self) -> bool: ...
    def is_over(self) -> bool: ...
    def apply(self, op: Operation) -> Receipt: ...


class PlayClock:
    """The play clock of one game (``game.play_clock``): :meth:`start` it on a monotonic clock while the terminal
    runs, :meth:`tick` it on the terminal's tick. A game that is not time-limited counts nothing."""

    def __init__(self, game: Clocked) -> None:
        self._game = game
        self._clock: Callable[[], float] | None = None
        self._ref: float | None = None  # the clock's last reading
        self._pending = 0.0  # seconds of play counted but not yet written

    def start(self, clock: Callable[[], float]) -> None:
        """Count play time on ``clock`` (monotonic seconds: ``time.monotonic`` on a device) from now on, while
        the terminal runs: :meth:`tick` reads it. The time between two sessions is no play time."""
        self._clock = clock
        self._ref = clock()
        self._pending = 0.0

    def tick(self, now: float | None = None) -> Receipt | None:
        """Count the play time since the last tick (``now``: a reading of the play clock, by default the one
        :meth:`start` was given) and write it to the journal every :data:`PLAY_TIME_RECORD_S` seconds, or at once
        when it reaches the limit of a time-limited game, which then ends (``x_time_up``). Only that play time
        ends a game: the wall clock never does. Returns the receipt of the end, or None."""
        game = self._game
        if game.config.mode != "time_limit" or game.read_only:
            return None
        if now is None and self._clock is not None:
            now = self._clock()
        if game.is_over():  # the time the game stands over is no play
            self._ref, self._pending = now, 0.0
            return None
        if now is not None:
            if self._ref is not None and now > self._ref:
                self._pending += now - self._ref
            self._ref = now
        ended: Receipt | None = None
        limit = engine.time_limit(game.current, game.config)
        played = int(game.current.game.get("played_s", 0))
        if self._pending >= PLAY_TIME_RECORD_S or (limit is not None and self._pending >= max(limit - played, 1)):
            ended = self._record()
        if engine.time_is_up(game.current, game.config):  # reached, but its end not written (a stop between)
            ended = game.apply(TimeUp())
        return ended if game.is_over() else None

    def _record(self) -> Receipt | None:
        """Write the play time counted (whole seconds); the end it causes, if any, is returned."""
        seconds = int(self._pending)
        if seconds < 1:
            return None
        receipt = self._game.apply(PlayTime(seconds))  # an end it causes is recorded too (Game.commit)
        self._pending -= seconds  # once written: a refused or failed write keeps the time to count
        return receipt.followed_by

    def resumed(self) -> None:
        """Play resumes now (an undo reopened the game): the time the game stood over is no play."""
        self._ref = self._clock() if self._clock is not None else None
        self._pending = 0.0

    def stop(self) -> None:
        """Write the play time counted since the last entry (a clean close); never raises (at most the last
        minute of play is then not counted)."""
        game = self._game
        if self._clock is None or game.read_only:
            return
        try:
            self.tick()
            if game.config.mode == "time_limit" and not game.is_over():
                self._record()
        except GameError:
            pass
        self._clock = None

    def time_left(self) -> int | None:
        """Seconds of play left before the end (recorded and counted time), or None without a limit."""
        game = self._game
        limit = engine.time_limit(game.current, game.config)
        if limit is None:
            return None
        return max(0, limit - int(game.current.game.get("played_s", 0)) - int(self._pending))


def adopt_end_time(game: Clocked, clock: Callable[[], datetime], parse: Callable[[str], datetime]) -> None:
    """A game with a wall-clock ``end_time`` and no limit yet, given the wall clock of the table it is played at:
    record once, as play time left (``x_time_limit``), the time from now to its end time (0 when it has passed;
    never more than the length agreed at the start, ``end_time`` minus ``created_at``). From then on only play
    time counts. Nothing is recorded when it cannot be (it is converted at the next open)."""
    end = game.meta.get("end_time")
    if (not end or game.config.mode != "time_limit" or game.config.time_limit_s is not None
            or "limit_s" in game.current.game):
        return
    try:
        end_at = parse(end)
        moment = clock()
        left = (end_at - (moment if moment.tzinfo else moment.astimezone())).total_seconds()
        created = game.meta.get("created_at")
        if isinstance(created, str):
            try:
                left = min(left, (end_at - parse(created)).total_seconds())
            except RuleViolation:
                pass
        game.apply(TimeLimit(max(0, int(left))))
    except GameError:
        pass  # left as it was: converted at the next open
