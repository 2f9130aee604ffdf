"""A card reader on a serial port (pyserial): RDM6300 frames or one UID per line.

Registry name ``"serial"``. The port is opened non-blocking (``timeout=0``); each scan reads what has
arrived (at most 4 KiB) and parses it (``hal.serial_frames``). A card resting on an RDM6300 is streamed
over and over: those repeats are presence, not taps, and the shared ``PresenceTracker`` turns them into
one ``CardPresented`` and, once they stop for the debounce time, one ``CardRemoved`` (field-notes 1, 10).

Replugging. Use a ``/dev/serial/by-id/...`` path: it names the same reader after a replug, whereas
``/dev/ttyUSB0`` may become ``ttyUSB1``. When the port fails or vanishes the reader reports
``ReaderLost`` and reopens the path every ``recover_interval_s`` until it is back, without a restart.

Permissions. Serial devices belong to a group (``dialout`` on Raspberry Pi OS and Debian); opening one
without being in it fails with a message naming the group and the command that fixes it.
"""

from __future__ import annotations

import glob
import grp
import importlib
import logging
import os
from collections.abc import Callable
from typing import Protocol, Unpack

from hal.advice import permission_fix
from hal.backends import Finding, Option, Options, ProbeHost, ReaderBackend
from hal.errors import BackendUnavailableError, HalConfigError, HalDeviceError
from hal.interfaces import Clock
from hal.presence import PollingReader, ReaderTiming, ScanResult, check_range
from hal.serial_frames import FrameParser, LineParser, Rdm6300Parser
from hal.uid import UID_DIGITS, UID_ORDERS, UidForm

__all__ = ["SerialReader", "BACKEND", "PROTOCOLS", "port_group"]

log = logging.getLogger(__name__)

#: Protocol name -> parser factory.
PROTOCOLS: dict[str, Callable[[], FrameParser]] = {"rdm6300": Rdm6300Parser, "lines": LineParser}

_READ_CHUNK = 1024
_MAX_CHUNKS = 4


class _Port(Protocol):
    """An open ``serial.Serial`` port, as this reader uses it."""

    def read(self, size: int = 1) -> bytes: ...

    def close(self) -> None: ...


class _SerialModule(Protocol):
    """The part of pyserial's ``serial`` module this reader uses; it is imported by name when the backend
    loads, so the reader is checked against this rather than against pyserial's own types."""

    SerialException: type[Exception]

    def Serial(self, *, port: str, baudrate: int, timeout: float, exclusive: bool) -> _Port: ...


def port_group(path: str) -> str:
    """Name of the group owning a device file (follows symlinks), or "dialout" if it cannot be told."""
    try:
        return grp.getgrgid(os.stat(path).st_gid).gr_name
    except (OSError, KeyError):
        return "dialout"


def _by_id_hint() -> str:
    found = sorted(glob.glob("/dev/serial/by-id/*"))
    return ("; present: " + ", ".join(found)) if found else "; no /dev/serial/by-id/ device is present"


class SerialReader(PollingReader):
    """A serial card reader.

    Args:
        port: device path, preferably ``/dev/serial/by-id/...`` (required).
        protocol: "rdm6300" (default) or "lines".
        baudrate: 1200..921600 (default 9600, the RDM6300's).
        uid_order, uid_digits: how a "lines" reader writes the UID (``hal.uid.UidForm``; default "sent", "hex");
            an RDM6300's frames have one form.
        clock, poll_interval_s, removal_debounce_s, failures_before_lost, recover_interval_s:
            as ``hal.presence.PollingReader``; ``failures_before_lost`` defaults to 1 here (a failed
            read means the port is gone).

    Raises:
        HalConfigError: no port, unknown protocol, bad baud rate, or a UID form set for a format other than "lines".
        BackendUnavailableError: pyserial is not installed.
        HalDeviceError: the port is missing or not permitted (message names the group) or unusable.
    """

    backend = "serial"

    def __init__(self, *, port: str | None = None, protocol: str = "rdm6300", baudrate: int = 9600,
                 uid_order: str = "sent", uid_digits: str = "hex",
                 clock: Clock | None = None, failures_before_lost: int = 1,
                 **timing: Unpack[ReaderTiming]) -> None:
        super().__init__(clock=clock, failures_before_lost=failures_before_lost, **timing)
        if not port or not isinstance(port, str):
            raise HalConfigError("the serial reader needs port=/dev/serial/by-id/... (the reader's device)")
        if protocol not in PROTOCOLS:
            raise HalConfigError(f"protocol={protocol!r}: use one of {', '.join(PROTOCOLS)}")
        self._port_path = port
        self._protocol = protocol
        try:
            self.form = UidForm(uid_order, uid_digits)
        except ValueError as exc:
            raise HalConfigError(str(exc)) from None
        problem = _form_outside_lines(protocol, uid_order, uid_digits)
        if problem is not None:
            raise HalConfigError(problem[1])
        self._baudrate = int(check_range("baudrate", baudrate, 1200, 921600, unit="baud"))
        try:
            self._serial: _SerialModule = importlib.import_module("serial")
        except ImportError as exc:
            raise BackendUnavailableError("pyserial is not installed: pip install pyserial") from exc
        self._parser = self._new_parser()
        self._port: _Port | None = None
        self._port = self._open()

    @property
    def port(self) -> str:
        return self._port_path

    def _new_parser(self) -> FrameParser:
        return LineParser(form=self.form) if self._protocol == "lines" else PROTOCOLS[self._protocol]()

    @property
    def noise(self) -> int:
        """Bytes (rdm6300) or lines (lines) thrown away as noise so far."""
        return self._parser.noise

    def _open(self) -> _Port:
        """Open the port or raise HalDeviceError with the fix."""
        serial = self._serial
        try:
            return serial.Serial(port=self._port_path, baudrate=self._baudrate, timeout=0,
                                 exclusive=True)
        except ValueError as exc:  # pyserial refusing a setting of this port
            raise HalDeviceError(f"cannot open {self._port_path}: {exc}: check baudrate in [hardware.reader]"
                                 ) from exc
        except (serial.SerialException, OSError) as exc:
            number = getattr(exc, "errno", None)
            if number == 13 or isinstance(exc, PermissionError):
                group = port_group(self._port_path)
                raise HalDeviceError(f"no permission to open {self._port_path} (group {group}): "
                                     f"{permission_fix(self._port_path, group, exc)}") from exc
            if number == 2 or isinstance(exc, FileNotFoundError) or not os.path.exists(self._port_path):
                raise HalDeviceError(
                    f"no serial device at {self._port_path}: is the reader plugged in? Prefer a "
                    f"/dev/serial/by-id/ path{_by_id_hint()}"
                ) from exc
            raise HalDeviceError(f"cannot open {self._port_path}: {exc}") from exc

    def _scan(self, now: float) -> ScanResult:
        if self._port is None:
            return ScanResult(failure=f"serial card reader {self._port_path} is not open")
        data = bytearray()
        try:
            for _ in range(_MAX_CHUNKS):
                chunk = self._port.read(_READ_CHUNK)
                if not chunk:
                    break
                data += chunk
                if len(chunk) < _READ_CHUNK:
                    break
        except (self._serial.SerialException, OSError) as exc:
            self._drop_port()
            return ScanResult(failure=f"serial card reader {self._port_path} failed: {exc}")
        reads = self._parser.feed(bytes(data)) if data else []
        return ScanResult(uids=tuple(r.uid for r in reads if r.uid),
                          errors=sum(1 for r in reads if r.garbled))

    def _recover(self, now: float) -> str | None:
        self._drop_port()
        try:
            self._port = self._open()
        except HalDeviceError as exc:
            return str(exc)
        self._parser = self._new_parser()  # a fresh stream starts mid-frame
        return None

    def _drop_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except Exception:
                pass

    def _close(self) -> None:
        self._drop_port()


# -- the backend's declaration (hal.backends) -------------------------------------------------------------
def probe(host: ProbeHost, options: Options) -> list[Finding]:
    """The doctor's line for a serial reader (``serial``): its port present and usable, and (hardware probing on)
    opened as the terminal opens it: a path that is no serial port (``/dev/null``, a file) fails."""
    shown = str(options.get("port"))
    port = host.path(shown)
    if not port.exists():
        present = sorted("/dev/serial/by-id/" + p.name for p in host.path("/dev/serial/by-id").glob("*"))
        return [Finding("serial", "fail", f"the serial reader {shown} is not connected"
                                          + (f"; present: {', '.join(present)}" if present else ""),
                        "plug the reader in, and set port in [hardware.reader] to its /dev/serial/by-id/ name")]
    if not host.usable(port):
        group = host.group_of(port) or "unknown"
        return [Finding("serial", "fail", f"{host.user_name} may not use {shown} (group {group})",
                        host.access_fix(port, "dialout"))]
    if not host.probe_hardware:
        return [Finding("serial", "ok", f"the serial reader {shown} is present and usable by {host.user_name} "
                                        f"(not opened: hardware probing is off)")]
    try:  # as the terminal opens it: a device that is no serial port (/dev/null, a file) fails here
        device = host.open_reader("serial", **BACKEND.hal_options(options))
    except BackendUnavailableError as exc:
        return [Finding("serial", "fail", f"the serial reader cannot load: {exc}",
                        f"{host.pip} install {' '.join(repr(p) for p in BACKEND.packages)}")]
    except Exception as exc:
        return [Finding("serial", "fail", str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
                        "plug the reader in, and set port in [hardware.reader] to its /dev/serial/by-id/ name "
                        "(stop the service while testing)")]
    device.close()
    return [Finding("serial", "ok", f"the serial reader {shown} is present and usable by {host.user_name}: "
                                    f"opened as the terminal opens it, then let go")]


def _form_outside_lines(protocol: str, uid_order: str, uid_digits: str) -> tuple[str, str] | None:
    """``(key, reason)`` when a UID form is set for a format that is not "lines" (an RDM6300 frame's UID has one
    form: its 5 bytes in hex), else None."""
    if protocol == "lines":
        return None
    for key, value, default in (("uid_digits", uid_digits, "hex"), ("uid_order", uid_order, "sent")):
        if value != default:
            reason = (f'{key} = "{value}" applies only to format "lines" (a {protocol} frame\'s UID has one '
                      f'form): remove it or set format = "lines"')
            return (f"hardware.reader.{key}", reason)
    return None


def _check(options: Options) -> tuple[str, str] | None:
    if not options.get("port"):
        reason = ("the serial reader needs its device, e.g. port = \"/dev/serial/by-id/usb-...\" "
                  "(or BANQUIER_SERIAL_PORT)")
        return ("hardware.reader.port", reason)
    problem = _form_outside_lines(options.get("format", "rdm6300"), options.get("uid_order", "sent"),
                                  options.get("uid_digits", "hex"))
    if problem is not None:
        return problem
    return None


BACKEND = ReaderBackend(
    name="serial",
    target="hal.serial_reader:SerialReader",
    summary="an RDM6300 (125 kHz) on the UART, or a USB board printing one UID per line",
    options=(
        Option("port", "path", None, optional=True, env="BANQUIER_SERIAL_PORT",
               doc="the reader's device; prefer /dev/serial/by-id/..."),
        Option("format", "str", "rdm6300", arg="protocol", choices=tuple(PROTOCOLS),
               doc="rdm6300 frames, or lines: one hex UID per line"),
        Option("baudrate", "int", 9600, lo=1200, hi=921_600, hint="baud", doc="the port's speed"),
        Option("uid_order", "str", "sent", choices=UID_ORDERS, doc="a lines reader: the byte order it prints"),
        Option("uid_digits", "str", "hex", choices=UID_DIGITS, doc="a lines reader: hex or decimal"),
    ),
    check=_check,
    packages=("pyserial>=3.5",),
    groups=(("dialout", "the serial reader"),),
    device_classes=("char-tty* rw",),
    devices=lambda options: [str(options["port"])] if options.get("port") else [],
    probe=probe,
    cards="RDM6300: 125 kHz EM4100 tags (5-byte IDs); a line reader: whatever its own chip reads",
    uid_form_of=lambda options: UidForm(options.get("uid_order", "sent"), options.get("uid_digits", "hex"))
    if options.get("format") == "lines" else UidForm(),
)
