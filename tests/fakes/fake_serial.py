"""A fake ``serial`` (pyserial) module whose ports are scripted byte streams.

``FakeSerialWorld`` holds the ports by path; ``world.module`` goes into ``sys.modules["serial"]``.
A ``FakeSerialPort`` delivers what the test queued, one chunk per ``read`` call (so a frame can arrive
split over several scans), or an endless repeat of a frame (``stream``), and fails like pyserial:
``SerialException`` with errno 2 (missing) or 13 (permission) on open, and the "device reports
readiness to read but returned no data" error on read after ``unplug``.
"""

from __future__ import annotations

import errno
import types
from collections import deque


class SerialException(OSError):
    """Like ``serial.SerialException`` (an IOError)."""


class SerialTimeoutException(SerialException):
    pass


class FakeSerialPort:
    """The device at one path."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.present = True
        self.permission_denied = False
        self.tty = True  # False: no serial port (/dev/null, a file): pyserial cannot configure it
        self.chunks: deque[bytes] = deque()
        self.streaming: bytes | None = None
        self.gaps = 0  # reads that return nothing although a card streams (a weak link)
        self.reads = 0
        self.opens = 0
        self.open_handles = 0
        self.settings: dict = {}

    def feed(self, *chunks: bytes) -> None:
        """Queue chunks: each ``read`` returns (up to ``size`` bytes of) one chunk."""
        self.chunks.extend(bytes(c) for c in chunks)

    def feed_split(self, data: bytes, size: int) -> None:
        """Queue ``data`` cut into chunks of ``size`` bytes."""
        self.feed(*(data[i:i + size] for i in range(0, len(data), size)))

    def stream(self, frame: bytes | None) -> None:
        """Deliver ``frame`` on every read when nothing else is queued (a card resting), or stop."""
        self.streaming = None if frame is None else bytes(frame)

    def unplug(self) -> None:
        self.present = False
        self.chunks.clear()
        self.streaming = None

    def replug(self) -> None:
        self.present = True


class FakeSerialWorld:
    """The fake machine's serial ports."""

    def __init__(self) -> None:
        self.ports: dict[str, FakeSerialPort] = {}
        self.module = self._make_module()

    def add(self, path: str) -> FakeSerialPort:
        port = self.ports[path] = FakeSerialPort(path)
        return port

    def _make_module(self) -> types.ModuleType:
        module = types.ModuleType("serial")
        world = self

        class Serial(FakeSerial):
            def __init__(self, port=None, baudrate=9600, **kwargs):
                super().__init__(world, port, baudrate, **kwargs)

        module.Serial = Serial
        module.SerialException = SerialException
        module.SerialTimeoutException = SerialTimeoutException
        module.PARITY_NONE, module.STOPBITS_ONE, module.EIGHTBITS = "N", 1, 8
        module.FAKE = self
        return module


class FakeSerial:
    """``serial.Serial``: opens at construction when a port is given; non-blocking reads."""

    def __init__(self, world: FakeSerialWorld, port, baudrate, timeout=None, exclusive=None,
                 **kwargs) -> None:
        self._world, self.port, self.baudrate, self.timeout = world, port, baudrate, timeout
        self.exclusive = exclusive
        self._device: FakeSerialPort | None = None
        self.is_open = False
        if port is not None:
            self.open()

    def open(self) -> None:
        device = self._world.ports.get(self.port)
        if device is None or not device.present:
            raise SerialException(errno.ENOENT, f"could not open port {self.port}: [Errno 2] No such "
                                                f"file or directory: '{self.port}'")
        if device.permission_denied:
            raise SerialException(errno.EACCES, f"could not open port {self.port}: [Errno 13] "
                                                f"Permission denied: '{self.port}'")
        if not device.tty:  # what pyserial says of /dev/null (its termios calls fail)
            raise SerialException(f"Could not configure port: ({errno.ENOTTY}, 'Inappropriate ioctl for device')")
        device.opens += 1
        device.open_handles += 1
        device.settings = {"baudrate": self.baudrate, "timeout": self.timeout,
                           "exclusive": self.exclusive}
        self._device = device
        self.is_open = True

    def read(self, size: int = 1) -> bytes:
        if not self.is_open:
            raise SerialException("Attempting to use a port that is not open")
        device = self._device
        device.reads += 1
        if not device.present:
            raise SerialException("device reports readiness to read but returned no data (device "
                                  "disconnected or multiple access on port?)")
        if device.chunks:
            chunk = device.chunks.popleft()
            if len(chunk) > size:
                device.chunks.appendleft(chunk[size:])
                chunk = chunk[:size]
            return chunk
        if device.gaps:
            device.gaps -= 1
            return b""
        if device.streaming is not None:
            return device.streaming[:size]
        return b""

    @property
    def in_waiting(self) -> int:
        return len(self._device.chunks[0]) if self._device and self._device.chunks else 0

    def close(self) -> None:
        if self.is_open and self._device is not None:
            self._device.open_handles -= 1
        self.is_open = False
