"""A fake ``evdev`` (python-evdev) module whose input devices are USB readers that type card numbers.

``FakeEvdevWorld.add(path, name)`` makes a device; ``device.type(text)`` queues the key presses a reader sends
for ``text`` then Enter (key down, key up; digits on the digit row, or the numpad with ``numpad=True``; Shift
held around each digit with ``shift=True``, as an AZERTY-minded reader does); ``device.stream(text)`` types
it again at every other read, as a reader that repeats the number while a card is held; ``gaps`` drops that
many repeats. The module fails as python-evdev does: ``read()`` raises ``BlockingIOError`` when nothing waits
and ``OSError(ENODEV)`` once unplugged; ``InputDevice(path)`` raises ``FileNotFoundError`` for a missing node,
``PermissionError`` for one the user may not open; ``grab()`` raises ``OSError(EBUSY)`` when another holds it.
Key codes are Linux's (``input-event-codes.h``), as ``evdev.ecodes`` has them.
"""

from __future__ import annotations

import errno
import types
from collections import deque
from dataclasses import dataclass

EV_SYN, EV_KEY, EV_MSC = 0, 1, 4
CODES = {"KEY_ESC": 1, **{f"KEY_{d}": 1 + d for d in range(1, 10)}, "KEY_0": 11, "KEY_MINUS": 12,
         "KEY_Q": 16, "KEY_E": 18, "KEY_ENTER": 28, "KEY_A": 30, "KEY_D": 32, "KEY_F": 33, "KEY_LEFTSHIFT": 42,
         "KEY_C": 46, "KEY_B": 48, "KEY_RIGHTSHIFT": 54, "KEY_CAPSLOCK": 58, "KEY_NUMLOCK": 69,
         "KEY_KP7": 71, "KEY_KP8": 72, "KEY_KP9": 73, "KEY_KP4": 75, "KEY_KP5": 76, "KEY_KP6": 77,
         "KEY_KP1": 79, "KEY_KP2": 80, "KEY_KP3": 81, "KEY_KP0": 82, "KEY_KPENTER": 96}


@dataclass(frozen=True)
class InputEvent:
    sec: int
    usec: int
    type: int
    code: int
    value: int


def key_events(text: str, *, numpad: bool = False, shift: bool = False, azerty: bool = False) -> list[InputEvent]:
    """The events a reader sends to type ``text`` then Enter."""
    out: list[InputEvent] = []

    def press(code: int) -> None:
        out.extend([InputEvent(0, 0, EV_MSC, 4, 0x70000 + code), InputEvent(0, 0, EV_KEY, code, 1),
                    InputEvent(0, 0, EV_SYN, 0, 0), InputEvent(0, 0, EV_KEY, code, 0), InputEvent(0, 0, EV_SYN, 0, 0)])

    for char in text:
        if char.isdigit():
            code = CODES[f"KEY_KP{char}" if numpad else f"KEY_{char}"]
            if shift:
                out.append(InputEvent(0, 0, EV_KEY, CODES["KEY_LEFTSHIFT"], 1))
            press(code)
            if shift:
                out.append(InputEvent(0, 0, EV_KEY, CODES["KEY_LEFTSHIFT"], 0))
        elif char.upper() == "A" and azerty:
            press(CODES["KEY_Q"])
        else:
            press(CODES.get(f"KEY_{char.upper()}", CODES["KEY_MINUS"]))
    press(CODES["KEY_KPENTER" if numpad else "KEY_ENTER"])
    return out


class FakeInputNode:
    """One device node: what the reader has typed, and whether it is plugged in."""

    def __init__(self, path: str, name: str) -> None:
        self.path, self.name = path, name
        self.present = True
        self.permitted = True
        self.events: deque[InputEvent] = deque()
        self.streaming: list[InputEvent] | None = None
        self.gaps = 0
        self.grabbed_by: object | None = None
        self.reads = 0
        self._turn = False

    def type(self, text: str, **how: bool) -> None:
        self.events.extend(key_events(text, **how))

    def feed(self, events: list[InputEvent]) -> None:
        self.events.extend(events)

    def stream(self, text: str | None, **how: bool) -> None:
        self.streaming = None if text is None else key_events(text, **how)

    def unplug(self) -> None:
        self.present = False
        self.streaming = None
        self.events.clear()
        self.grabbed_by = None

    def replug(self) -> None:
        self.present = True


class FakeEvdevWorld:
    """The machine's input devices, and the ``evdev`` module that sees them (``module``)."""

    def __init__(self) -> None:
        self.nodes: dict[str, FakeInputNode] = {}
        self.module = self._make_module()

    def add(self, path: str, name: str = "Sycreader RFID Technology Co., Ltd SYC ID&IC USB Reader") -> FakeInputNode:
        node = self.nodes[path] = FakeInputNode(path, name)
        return node

    def _make_module(self) -> types.ModuleType:
        world = self
        module = types.ModuleType("evdev")
        ecodes = types.SimpleNamespace(EV_SYN=EV_SYN, EV_KEY=EV_KEY, EV_MSC=EV_MSC, **CODES)

        class InputDevice(FakeInputDevice):
            def __init__(self, path: str) -> None:
                super().__init__(world, path)

        module.InputDevice = InputDevice
        module.InputEvent = InputEvent
        module.ecodes = ecodes
        module.list_devices = lambda input_device_dir="/dev/input": sorted(
            p for p, n in world.nodes.items() if n.present and p.startswith("/dev/input/event"))
        return module


class FakeInputDevice:
    def __init__(self, world: FakeEvdevWorld, path: str) -> None:
        node = world.nodes.get(path)
        if node is None or not node.present:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        if not node.permitted:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        self._node: FakeInputNode | None = node
        self.path, self.name = path, node.name

    def _live(self) -> FakeInputNode:
        node = self._node
        if node is None:
            raise OSError(errno.EBADF, "Bad file descriptor")
        if not node.present:
            raise OSError(errno.ENODEV, "No such device")
        return node

    def grab(self) -> None:
        node = self._live()
        if node.grabbed_by is not None and node.grabbed_by is not self:
            raise OSError(errno.EBUSY, "Device or resource busy")
        node.grabbed_by = self

    def ungrab(self) -> None:
        node = self._live()
        if node.grabbed_by is not self:
            raise OSError(errno.EINVAL, "Invalid argument")
        node.grabbed_by = None

    def read(self):
        node = self._live()
        node.reads += 1
        if node.events:
            events = list(node.events)
            node.events.clear()
            return iter(events)
        if node.streaming is not None:
            node._turn = not node._turn
            if node._turn:
                if node.gaps:  # a repeat the reader did not send: this read (one scan) finds nothing
                    node.gaps -= 1
                    node._turn = False
                else:
                    return iter(list(node.streaming))
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")

    def close(self) -> None:
        node, self._node = self._node, None
        if node is not None and node.grabbed_by is self:
            node.grabbed_by = None
