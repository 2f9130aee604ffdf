"""Touch from a panel's Linux input device (``/dev/input/eventN``) through python-evdev, for the
framebuffer output (SDL is not reading input there).

:class:`TouchParser` is pure: it takes evdev events (anything with ``type``, ``code``, ``value`` and
``timestamp()`` -- python-evdev's ``InputEvent`` -- or plain ``(type, code, value, seconds)`` tuples) and
gives :class:`host_ui.screen.input_map.Pointer` records, one per ``SYN_REPORT`` that changed the touch. Single
touch (``BTN_TOUCH`` + ``ABS_X``/``ABS_Y``, resistive ADS7846-style panels) and multi-touch slot 0
(``ABS_MT_TRACKING_ID`` + ``ABS_MT_POSITION_X/Y``, capacitive panels) are both understood; coordinates go
through the :class:`~host_ui.screen.input_map.Calibration`. Bursts and rotation are the mapper's job.

:class:`EvdevTouch` opens the device (python-evdev is imported only there) and reads without blocking.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, TypeAlias, cast

from hal.advice import permission_fix
from host_ui.screen.input_map import Calibration, Pointer

if TYPE_CHECKING:
    from evdev import AbsInfo, InputEvent

#: An evdev event: python-evdev's ``InputEvent``, or ``(type, code, value[, seconds])``.
TouchEvent: TypeAlias = "InputEvent | tuple[int, int, int] | tuple[int, int, int, float]"

EV_SYN, EV_KEY, EV_ABS = 0x00, 0x01, 0x03
SYN_REPORT = 0x00
BTN_TOUCH = 0x14A
ABS_X, ABS_Y = 0x00, 0x01
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2F, 0x35, 0x36, 0x39


def _fields(event: TouchEvent) -> tuple[int, int, int, float]:
    if isinstance(event, tuple):
        return event[0], event[1], event[2], float(event[3]) if len(event) > 3 else 0.0
    return event.type, event.code, event.value, float(event.timestamp())


class TouchParser:
    """evdev events -> :class:`Pointer` (``source="finger"``). ``calibration``: raw axis ranges."""

    def __init__(self, calibration: Calibration) -> None:
        self.calibration = calibration
        self._x: int | None = None
        self._y: int | None = None
        self._touching = False
        self._was = False
        self._moved = False
        self._slot = 0

    def feed(self, event: TouchEvent) -> list[Pointer]:
        etype, code, value, t = _fields(event)
        if etype == EV_KEY and code == BTN_TOUCH:
            self._touching = bool(value)
        elif etype == EV_ABS:
            if code == ABS_MT_SLOT:
                self._slot = value
            elif self._slot != 0:
                return []  # only the first finger: a second one is not a second tap
            elif code in (ABS_X, ABS_MT_POSITION_X):
                self._x, self._moved = value, True
            elif code in (ABS_Y, ABS_MT_POSITION_Y):
                self._y, self._moved = value, True
            elif code == ABS_MT_TRACKING_ID:
                self._touching = value != -1
        elif etype == EV_SYN and code == SYN_REPORT:
            return self._report(t)
        return []

    def feed_all(self, events: Iterable[TouchEvent]) -> list[Pointer]:
        out: list[Pointer] = []
        for event in events:
            out.extend(self.feed(event))
        return out

    def _report(self, t: float) -> list[Pointer]:
        if self._x is None or self._y is None:
            return []
        u, v = self.calibration.normalise(self._x, self._y)
        out: list[Pointer] = []
        if self._touching and not self._was:
            out.append(Pointer("down", u, v, t))
        elif not self._touching and self._was:
            out.append(Pointer("up", u, v, t))
        elif self._touching and self._moved:
            out.append(Pointer("move", u, v, t))
        self._was, self._moved = self._touching, False
        return out


class EvdevTouch:
    """A touch panel read through python-evdev.

    ``path``: ``/dev/input/eventN`` (prefer ``/dev/input/by-path/...``: numbers change across boots);
    ``calibration``: default from the device's own ``absinfo`` ranges. Raises ``OSError`` with the fix when
    the device cannot be opened, ``ImportError`` naming the package when python-evdev is missing."""

    def __init__(self, path: str, calibration: Calibration | None = None, *, swap_xy: bool = False) -> None:
        try:  # python-evdev (Linux only) is loaded only when a touch panel is opened
            import evdev
        except ImportError as exc:  # pragma: no cover - depends on the machine
            raise ImportError("python-evdev is needed to read the touch panel: pip install evdev") from exc
        try:
            self.device = evdev.InputDevice(path)
        except PermissionError as exc:
            raise OSError(f"Cannot read {path}: permission denied: {permission_fix(path, 'input', exc)}.") from exc
        if calibration is None:
            # python-evdev annotates the capabilities as lists of codes; with absinfo=True the EV_ABS entries are
            # (code, AbsInfo) pairs
            axes = cast("list[tuple[int, AbsInfo]]", self.device.capabilities(absinfo=True).get(EV_ABS, []))
            caps = dict(axes)
            x = caps.get(ABS_MT_POSITION_X) or caps.get(ABS_X)
            y = caps.get(ABS_MT_POSITION_Y) or caps.get(ABS_Y)
            if x is None or y is None:
                raise OSError(f"{path} reports no absolute X/Y axes: it is not a touch panel.")
            calibration = Calibration(x.min, x.max, y.min, y.max, swap_xy=swap_xy)
        self.parser = TouchParser(calibration)

    def fileno(self) -> int:
        return self.device.fd

    def poll(self) -> list[Pointer]:
        """Every pointer record available now, without blocking."""
        try:
            events = list(self.device.read())
        except BlockingIOError:
            return []
        return self.parser.feed_all(events)

    def close(self) -> None:
        self.device.close()
