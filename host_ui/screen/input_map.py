"""Input mapping: touches, clicks and keys -> the terminal's actions. Pure: no pygame, no clock of its own.

docs/field-notes.md, 15: touch panels report raw device coordinates, ignore the display's rotation, send a finger
event *and* a synthetic mouse event for one touch, and resistive panels turn a sliding finger into a burst
of taps. Everything that deals with that lives here, in :class:`InputMapper`, fed with plain
:class:`Pointer` and :class:`Key` records (the adapters in :mod:`host_ui.screen.pg_events` and
:mod:`host_ui.screen.evdev_touch` build them from pygame events and from ``/dev/input/eventN``).

Coordinates:

- *physical*: where the finger is on the panel, normalised to 0.0-1.0 (``u`` rightwards, ``v`` downwards
  on the panel as mounted, before rotation);
- *logical*: pixels of the screen as drawn (``logical_size``), after undoing ``rotation``.

``rotation`` (0, 90, 180, 270) is the clockwise angle by which the logical picture is turned on the panel;
:func:`host_ui.screen.render.to_panel` turns the picture the same way, so drawing and touch always agree.
"""
from __future__ import annotations

from dataclasses import dataclass, field

ROTATIONS = (0, 90, 180, 270)


class InputMapError(ValueError):
    """A bad rotation, size or calibration."""


def check_rotation(rotation: int) -> int:
    """Return ``rotation`` if it is 0, 90, 180 or 270; raise :class:`InputMapError` otherwise."""
    if rotation not in ROTATIONS:
        raise InputMapError(f"rotation must be one of 0, 90, 180, 270 (degrees clockwise), not {rotation!r}")
    return rotation


def panel_size(logical_size: tuple[int, int], rotation: int) -> tuple[int, int]:
    """The panel's size in pixels for a logical screen turned by ``rotation`` (width and height swap at
    90 and 270)."""
    w, h = logical_size
    return (h, w) if check_rotation(rotation) in (90, 270) else (w, h)


def rotate_normalised(u: float, v: float, rotation: int) -> tuple[float, float]:
    """Map a normalised panel point to a normalised logical point (undo a clockwise ``rotation``).

    A picture turned 90 degrees clockwise puts its top-left corner at the panel's top-right: the panel
    point (1, 0) is the logical (0, 0).
    """
    check_rotation(rotation)
    if rotation == 0:
        return u, v
    if rotation == 90:
        return v, 1.0 - u
    if rotation == 180:
        return 1.0 - u, 1.0 - v
    return 1.0 - v, u


def clamp01(value: float) -> float:
    return 0.0 if value < 0.0 else 1.0 if value > 1.0 else value


@dataclass(frozen=True)
class Calibration:
    """Raw touch-controller axes -> normalised panel coordinates.

    ``x_min``/``x_max``/``y_min``/``y_max``: the raw values at the panel's edges (a resistive panel often
    reports 200..3900 rather than 0..4095; swap min and max to invert an axis). ``swap_xy``: the
    controller's X axis runs along the panel's height (common on SPI panels mounted in portrait); the
    ranges above are then those of the panel's axes (after the swap).
    """

    x_min: float = 0.0
    x_max: float = 1.0
    y_min: float = 0.0
    y_max: float = 1.0
    swap_xy: bool = False

    def __post_init__(self) -> None:
        if self.x_min == self.x_max or self.y_min == self.y_max:
            raise InputMapError(f"calibration axes need two different edge values: {self}")

    def normalise(self, raw_x: float, raw_y: float) -> tuple[float, float]:
        """Raw controller values -> panel (u, v) in 0.0-1.0, clamped (a touch on the bezel edge counts as
        the edge)."""
        if self.swap_xy:
            raw_x, raw_y = raw_y, raw_x
        u = (raw_x - self.x_min) / (self.x_max - self.x_min)
        v = (raw_y - self.y_min) / (self.y_max - self.y_min)
        return clamp01(u), clamp01(v)


@dataclass(frozen=True)
class Pointer:
    """One pointer record: ``kind`` ``down``/``up``/``move``; ``u``, ``v`` normalised panel coordinates;
    ``t`` seconds (any monotonic clock); ``source`` ``finger`` (SDL finger or evdev), ``mouse``;
    ``synthetic``: SDL marked the mouse event as made from a touch (``event.touch``)."""

    kind: str
    u: float
    v: float
    t: float
    source: str = "finger"
    synthetic: bool = False


@dataclass(frozen=True)
class Key:
    """A key press: ``name`` as :mod:`host_ui.screen.pg_events` names it (``"0"``-``"9"``, ``"enter"``,
    ``"escape"``, ``"backspace"``, ``"delete"``, ``"f1"``-``"f4"``, ``"up"``, ``"down"``, ...)."""

    name: str
    t: float = 0.0
    repeat: bool = False


@dataclass(frozen=True)
class Tap:
    """One touch or click at logical pixel ``(x, y)``: the screen resolves it to a button."""

    x: int
    y: int


@dataclass(frozen=True)
class Action:
    """A terminal input from a key: ``kind`` ``digit`` (arg ``0``-``9``, ``C``, ``<``), ``confirm``,
    ``cancel``, ``press`` (arg ``f1``-``f4``), ``scroll`` (arg ``+1``/``-1``: a line of the history) or ``page``
    (arg ``+1``/``-1``: the next or previous page of any list, a screenful of the history)."""

    kind: str
    arg: str = ""


KEYS: dict[str, Action] = {
    **{str(d): Action("digit", str(d)) for d in range(10)},
    "backspace": Action("digit", "<"),
    "delete": Action("digit", "C"),
    "c": Action("digit", "C"),
    "enter": Action("confirm"),
    "return": Action("confirm"),
    "escape": Action("cancel"),
    "f1": Action("press", "f1"),
    "f2": Action("press", "f2"),
    "f3": Action("press", "f3"),
    "f4": Action("press", "f4"),
    "up": Action("scroll", "-1"),
    "down": Action("scroll", "+1"),
    "pageup": Action("page", "-1"),
    "pagedown": Action("page", "+1"),
}


@dataclass
class InputMapper:
    """Turns :class:`Pointer` and :class:`Key` records into :class:`Tap` and :class:`Action`.

    - ``logical_size``: (width, height) of the screen as drawn, in pixels.
    - ``rotation``: 0/90/180/270 degrees clockwise (see the module docstring).
    - ``min_gap_s``: a press is taken only if the pointer was up for at least this long before it (0.08 s):
      a resistive panel's burst of down/up pairs from one sliding finger gives one tap.
    - ``min_interval_s``: and only if the last accepted press is at least this old (0.18 s): no digit typed
      twice by one touch, even when the burst has longer gaps.
    - ``dedup_s``: a mouse press within this long of a finger press (before or after) is the same touch
      (0.6 s), for drivers that do not mark their synthetic mouse events.
    - ``stuck_s``: a press while the pointer still seems down is ignored (a second finger), unless the last
      press is older than this (2 s): a lost release never locks the screen.

    One touch = one action: the tap is emitted on the press; moves and releases emit nothing.
    """

    logical_size: tuple[int, int]
    rotation: int = 0
    min_gap_s: float = 0.08
    min_interval_s: float = 0.18
    dedup_s: float = 0.6
    stuck_s: float = 2.0
    _down: bool = False
    _last_up: float = field(default=-1e9)
    _last_accept: float = field(default=-1e9)
    _last_finger: float = field(default=-1e9)
    _last_mouse: float = field(default=-1e9)
    dropped: int = 0

    def __post_init__(self) -> None:
        check_rotation(self.rotation)
        w, h = self.logical_size
        if w <= 0 or h <= 0:
            raise InputMapError(f"logical_size must be positive, not {self.logical_size!r}")

    def to_logical(self, u: float, v: float) -> tuple[int, int]:
        """Normalised panel point -> logical pixel (clamped to the screen)."""
        x, y = rotate_normalised(clamp01(u), clamp01(v), self.rotation)
        w, h = self.logical_size
        return min(w - 1, int(x * w)), min(h - 1, int(y * h))

    def feed(self, record: Pointer | Key) -> list[Tap | Action]:
        """Map one record; returns zero or one action."""
        if isinstance(record, Key):
            if record.repeat:
                return []
            action = KEYS.get(record.name.lower())
            return [action] if action is not None else []
        if record.kind == "move":
            return []
        if record.source == "mouse":
            if record.synthetic:
                return []  # SDL made it from a finger event we already handle
            if record.kind == "down" and record.t - self._last_finger < self.dedup_s:
                self.dropped += 1
                return []
        if record.kind == "up":
            if self._down:
                self._down = False
                self._last_up = record.t
            return []
        if record.kind != "down":
            return []
        if record.source == "finger":
            self._last_finger = record.t
            if record.t - self._last_mouse < self.dedup_s and self._last_mouse > self._last_up:
                self._down = True  # the mouse press of the same touch came first
                self.dropped += 1
                return []
        else:
            self._last_mouse = record.t
        was_down, self._down = self._down, True
        if (was_down and record.t - self._last_accept < self.stuck_s) or record.t - self._last_up < self.min_gap_s or \
                record.t - self._last_accept < self.min_interval_s:
            self.dropped += 1
            return []
        self._last_accept = record.t
        return [Tap(*self.to_logical(record.u, record.v))]


@dataclass
class TouchWatch:
    """Notices a touch panel stuck reporting one corner (a resistive panel's controller does that when it is
    uncalibrated or damaged: every read, touched or not, is its extreme value), so that the screen and the
    journal say so and its phantom presses there press nothing, while the buttons and the cards keep working.

    Fed every :class:`Pointer` record before the :class:`InputMapper` (:meth:`see`: False for a record to drop)
    and the loop's clock (:meth:`tick`), both in the loop's monotonic seconds ``now``.

    - ``presses``: this many presses in a row at one corner point (both coordinates within ``corner`` of an
      edge, each within ``same`` of the first) make the panel stuck: no finger lands on the very same corner
      pixel six times in a row, a stuck controller does.
    - ``hold_s``: a press held at a corner point this long, without moving away or being released, makes it
      stuck too (a controller stuck "down": nothing else comes from it).
    - Once stuck, presses within ``clear`` of the stuck point are dropped; a press farther away means the panel
      answers again: it is no longer stuck (and that press counts as usual).
    """

    presses: int = 6
    hold_s: float = 10.0
    corner: float = 0.03
    same: float = 0.01
    clear: float = 0.05
    stuck_at: tuple[float, float] | None = None
    _point: tuple[float, float] | None = None
    _count: int = 0
    _down_at: float | None = None

    def _at_corner(self, u: float, v: float) -> bool:
        return min(u, 1.0 - u) <= self.corner and min(v, 1.0 - v) <= self.corner

    @staticmethod
    def _near(a: tuple[float, float], b: tuple[float, float], distance: float) -> bool:
        return abs(a[0] - b[0]) <= distance and abs(a[1] - b[1]) <= distance

    def see(self, record: Pointer, now: float) -> bool:
        """Look at one record; False when it is a stuck panel's and is to be dropped."""
        if record.synthetic:  # SDL's mouse copy of a finger event: the finger event is looked at
            return True
        point = (clamp01(record.u), clamp01(record.v))
        if record.kind == "up":
            self._down_at = None
            return self.stuck_at is None or not self._near(point, self.stuck_at, self.clear)
        if record.kind == "move":
            if self._point is not None and not self._near(point, self._point, self.same):
                self._down_at = None
            return self.stuck_at is None or not self._near(point, self.stuck_at, self.clear)
        if record.kind != "down":
            return True
        if self.stuck_at is not None:
            if self._near(point, self.stuck_at, self.clear):
                return False
            self.stuck_at = None  # a press elsewhere: the panel answers again
        if not self._at_corner(*point):
            self._point, self._count, self._down_at = None, 0, None
            return True
        if self._point is not None and self._near(point, self._point, self.same):
            self._count += 1
        else:
            self._point, self._count = point, 1
        self._down_at = now
        if self._count >= self.presses:
            self.stuck_at = self._point
            return False
        return True

    def tick(self, now: float) -> None:
        """A press held at a corner point for ``hold_s`` makes the panel stuck."""
        if self.stuck_at is None and self._down_at is not None and self._point is not None \
                and now - self._down_at >= self.hold_s:
            self.stuck_at = self._point

    @property
    def problem(self) -> str | None:
        """One line for the screen and the journal while the panel is stuck (None otherwise)."""
        if self.stuck_at is None:
            return None
        u, v = self.stuck_at
        where = f"{'top' if v < 0.5 else 'bottom'}-{'left' if u < 0.5 else 'right'}"
        return (f"it reports every touch at its {where} corner (uncalibrated or damaged): touches there are "
                f"ignored; use the buttons and the cards, and check its cable and calibration")
