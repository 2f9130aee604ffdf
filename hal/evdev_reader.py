"""A USB card reader that acts as a keyboard ("types" the card's number, then Enter), read through evdev.

Registry name ``"keyboard"``. Most cheap USB readers, 125 kHz and 13.56 MHz alike, are HID keyboards: held to
a card they type its number as key presses. Read through a terminal, those would reach the screen as keys;
read here, the device is found in ``/dev/input`` and **grabbed** (``EVIOCGRAB``), so no other program (the
console, SDL, a desktop) sees its keys while Banquier runs.

* **Finding it.** ``device`` is a ``/dev/input/by-id/...`` path (the same name after a replug: prefer it), an
  ``/dev/input/event*`` path, or a part of the device's name as ``evtest`` shows it (``"RFID"``,
  ``"Sycreader"``), matched case-insensitively.
* **Digits.** evdev gives key *positions*, not characters, so the keyboard layout of the machine does not
  matter: the digit row (``KEY_1``..``KEY_0``, with or without Shift: an AZERTY-minded reader holds Shift to
  type digits) and the numpad (``KEY_KP0``..``KEY_KP9``) are digits, and ``KEY_A``..``KEY_F`` are the hex
  letters, except with ``layout = "azerty"``, where the reader types an ``A`` at ``KEY_Q``. Enter (either)
  ends the number. The number becomes the canonical UID through the reader's ``UidForm`` (``uid_order``,
  ``uid_digits``): 10 decimal digits (leading zeros kept or not) or hex; a line that is no UID counts as a
  garbled read (``CardReader`` contract: no event).
* **Presence.** A keyboard reader says nothing while a card rests: a number typed is a card seen at that
  moment. A reader that types once per presentation gives one ``CardPresented`` and, ``removal_debounce_s``
  later, ``CardRemoved``; a reader that types the number again and again while the card is held gives one
  ``CardPresented`` too (the repeats are presence, not taps).
* **Unplugged.** A read failing with ``ENODEV`` reports ``ReaderLost``; every ``recover_interval_s`` the
  path (or the name, among ``/dev/input``'s devices) is looked for again, opened and grabbed, then
  ``ReaderBack``. No udev event is needed (the service's sandbox sees none).
* **Permissions.** ``/dev/input/event*`` belong to the group ``input``; the user must be in it.

``evdev`` (python-evdev) is the optional extra ``banquier[keyboard]``: it is imported only when this reader
is made, so nothing else needs it (nor a compiler).
"""

from __future__ import annotations

import errno
import importlib
import logging
from collections.abc import Iterable, Iterator
from typing import Any, Protocol, Unpack

from hal.advice import permission_fix
from hal.backends import Finding, Option, Options, ProbeHost, ReaderBackend
from hal.errors import BackendUnavailableError, HalConfigError, HalDeviceError, InvalidUidError
from hal.interfaces import Clock
from hal.presence import PollingReader, ReaderTiming, ScanResult
from hal.uid import UID_DIGITS, UID_ORDERS, UidForm

__all__ = ["KeyboardReader", "BACKEND", "LAYOUTS", "key_map"]

log = logging.getLogger(__name__)

#: Keyboard layouts the reader may type for: where it puts the hex letter A.
LAYOUTS = ("qwerty", "azerty")

_MAX_CHARS = 32  # longer than any UID in any form: a stuck key, not a card
_MAX_READS = 16


class _Event(Protocol):
    type: int
    code: int
    value: int


class _Device(Protocol):
    path: str
    name: str

    def read(self) -> Iterable[_Event]: ...

    def grab(self) -> None: ...

    def ungrab(self) -> None: ...

    def close(self) -> None: ...


def key_map(ecodes: Any, layout: str = "qwerty") -> dict[int, str]:
    """``{key code: character}`` of the keys a reader types a UID with (digits of the row and the numpad, hex
    letters, ``"\\n"`` for either Enter), from evdev's ``ecodes``."""
    keys = {getattr(ecodes, f"KEY_{d}"): str(d) for d in range(10)}
    keys |= {getattr(ecodes, f"KEY_KP{d}"): str(d) for d in range(10)}
    keys |= {getattr(ecodes, f"KEY_{c}"): c for c in "ABCDEF"}
    if layout == "azerty":
        del keys[ecodes.KEY_A]
        keys[ecodes.KEY_Q] = "A"
    keys[ecodes.KEY_ENTER] = keys[ecodes.KEY_KPENTER] = "\n"
    return keys


class KeyboardReader(PollingReader):
    """A USB reader that types each card's number, grabbed through evdev.

    Args:
        device: a ``/dev/input/...`` path (prefer ``/dev/input/by-id/...``) or a part of the device's name.
        layout: "qwerty" (default) or "azerty": where the reader types the hex letter A.
        uid_order: "sent" (default) or "reversed": the byte order of the number it types.
        uid_digits: "auto" (default: 10 decimal digits are a number, anything else hex), "decimal" or "hex".
        clock, poll_interval_s, removal_debounce_s, failures_before_lost, recover_interval_s:
            as ``hal.presence.PollingReader``; ``failures_before_lost`` is 1 here (a failed read means the
            device is gone); ``recover_interval_s`` is how often an unplugged reader is looked for.

    Raises:
        HalConfigError: no device, or a layout or UID form that is not one of the above.
        BackendUnavailableError: python-evdev is not installed.
        HalDeviceError: no such device, no permission (the ``input`` group), or another program holds it.
    """

    backend = "keyboard"

    def __init__(self, *, device: str | None = None, layout: str = "qwerty", uid_order: str = "sent",
                 uid_digits: str = "auto", clock: Clock | None = None, failures_before_lost: int = 1,
                 **timing: Unpack[ReaderTiming]) -> None:
        super().__init__(clock=clock, failures_before_lost=failures_before_lost, **timing)
        if not device or not isinstance(device, str) or not device.strip():
            raise HalConfigError("the keyboard reader needs device=/dev/input/by-id/... or a part of its name")
        if layout not in LAYOUTS:
            raise HalConfigError(f"layout={layout!r}: use one of {', '.join(LAYOUTS)}")
        try:
            self.form = UidForm(uid_order, uid_digits)
        except ValueError as exc:
            raise HalConfigError(str(exc)) from None
        self._wanted = device.strip()
        try:
            self._evdev: Any = importlib.import_module("evdev")
        except ImportError as exc:
            raise BackendUnavailableError("python-evdev is not installed: pip install 'banquier[keyboard]' "
                                          "(or pip install evdev)") from exc
        self._keys = key_map(self._evdev.ecodes, layout)
        self._ev_key = self._evdev.ecodes.EV_KEY
        self._typed = ""
        self._device: _Device | None = None
        self._device = self._open()

    @property
    def device_path(self) -> str | None:
        """The event device it reads, or None while unplugged."""
        return self._device.path if self._device is not None else None

    # -- finding and grabbing ------------------------------------------------------------------------
    def _candidates(self) -> Iterator[str]:
        if self._wanted.startswith("/"):
            yield self._wanted
            return
        yield from sorted(self._evdev.list_devices())

    def _open(self) -> _Device:
        """Find, open and grab the device, or raise HalDeviceError with the fix."""
        by_name = not self._wanted.startswith("/")
        for path in self._candidates():
            try:
                device: _Device = self._evdev.InputDevice(path)
            except PermissionError as exc:
                if by_name:
                    continue
                raise HalDeviceError(f"no permission to open {path} (group input): "
                                     f"{permission_fix(path, 'input', exc)}") from exc
            except OSError as exc:
                if by_name:
                    continue
                raise HalDeviceError(f"no input device at {path}: is the reader plugged in? Its name is in "
                                     f"ls /dev/input/by-id/ ({exc.strerror or exc})") from exc
            if by_name and self._wanted.lower() not in (device.name or "").lower():
                device.close()
                continue
            try:
                device.grab()
            except OSError as exc:
                device.close()
                if exc.errno == errno.EBUSY:
                    raise HalDeviceError(f"another program holds {path} ({device.name}): stop it (a running "
                                         f"terminal? sudo systemctl stop banquier)") from exc
                raise HalDeviceError(f"cannot grab {path} ({device.name}): {exc.strerror or exc}") from exc
            log.info("card reader: %s on %s, grabbed", device.name, path)
            return device
        raise HalDeviceError(f"no input device named like {self._wanted!r} (or none this user may open: join "
                             f"the group input): see the names in ls /dev/input/by-id/ or evtest")

    # -- PollingReader ---------------------------------------------------------------------------------
    def _scan(self, now: float) -> ScanResult:
        if self._device is None:
            return ScanResult(failure=f"keyboard card reader {self._wanted} is not open")
        uids: list[str] = []
        errors = 0
        try:
            for _ in range(_MAX_READS):
                try:
                    events = list(self._device.read())
                except BlockingIOError:
                    break
                for event in events:
                    if event.type != self._ev_key or event.value != 1:  # key downs only (not up, not repeat)
                        continue
                    char = self._keys.get(event.code)
                    if char is None:
                        if event.code not in self._modifiers:
                            self._typed += "?"  # a key no UID has: the line is garbled
                        continue
                    if char != "\n":
                        self._typed += char
                        if len(self._typed) > _MAX_CHARS:
                            self._typed, errors = "", errors + 1
                        continue
                    line, self._typed = self._typed, ""
                    if not line:
                        continue
                    try:
                        uids.append(self.form.canonical(line))
                    except InvalidUidError:
                        errors += 1
        except OSError as exc:
            self._drop_device()
            reason = "unplugged" if exc.errno in (errno.ENODEV, errno.EIO) else (exc.strerror or str(exc))
            return ScanResult(failure=f"keyboard card reader {self._wanted} failed: {reason}")
        return ScanResult(uids=tuple(uids), errors=errors)

    @property
    def _modifiers(self) -> frozenset[int]:
        e = self._evdev.ecodes
        return frozenset((e.KEY_LEFTSHIFT, e.KEY_RIGHTSHIFT, e.KEY_CAPSLOCK, e.KEY_NUMLOCK))

    def _recover(self, now: float) -> str | None:
        self._drop_device()
        try:
            self._device = self._open()
        except HalDeviceError as exc:
            return str(exc)
        self._typed = ""  # a number half typed before the unplug is lost
        return None

    def _drop_device(self) -> None:
        device, self._device = self._device, None
        if device is not None:
            try:
                device.ungrab()
            except Exception:
                pass
            try:
                device.close()
            except Exception:
                pass

    def _close(self) -> None:
        self._drop_device()


# -- the backend's declaration (hal.backends) -------------------------------------------------------------
def probe(host: ProbeHost, options: Options) -> list[Finding]:
    """The doctor's lines for a keyboard reader: python-evdev installed, the device present and usable."""
    wanted = str(options.get("device") or "")
    if not host.installed("evdev"):
        return [Finding("keyboard", "fail", "python-evdev is not installed (the keyboard reader needs it)",
                        f"{host.pip} install 'evdev>=1.6' (or run deploy/install.sh again)")]
    if wanted.startswith("/"):
        node = host.path(wanted)
        if not node.exists():
            present = sorted("/dev/input/by-id/" + p.name for p in host.path("/dev/input/by-id").glob("*kbd*"))
            return [Finding("keyboard", "fail", f"the keyboard reader {wanted} is not connected"
                                                + (f"; keyboards present: {', '.join(present)}" if present else ""),
                            "plug the reader in, and set device in [hardware.reader] to its /dev/input/by-id/ name")]
        nodes = [node]
    else:
        nodes = sorted(host.path("/dev/input").glob("event*"))
    refused = [n for n in nodes if not host.usable(n)]
    if refused:
        return [Finding("keyboard", "fail", f"{host.user_name} may not use {host.shown(refused[0])} (group "
                                            f"{host.group_of(refused[0]) or 'unknown'})",
                        host.access_fix(refused[0], "input"))]
    where = wanted if wanted.startswith("/") else f"the input device named like {wanted!r}"
    if not host.probe_hardware:
        return [Finding("keyboard", "ok", f"the keyboard reader {where}: usable by {host.user_name} (not opened: "
                                          f"hardware probing is off)")]
    try:  # as the terminal opens it: an input device that is no reader (/dev/null), or none by that name, fails
        device = host.open_reader("keyboard", **BACKEND.hal_options(options))
    except BackendUnavailableError as exc:
        return [Finding("keyboard", "fail", f"the keyboard reader cannot load: {exc}",
                        f"{host.pip} install {' '.join(repr(p) for p in BACKEND.packages)}")]
    except Exception as exc:
        return [Finding("keyboard", "fail", str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
                        "plug the reader in, and set device in [hardware.reader] to its /dev/input/by-id/ name "
                        "(stop the service while testing)")]
    try:
        path = getattr(device, "device_path", None) or wanted
    finally:
        device.close()
    return [Finding("keyboard", "ok", f"the keyboard reader {where} ({path}): opened and grabbed by "
                                      f"{host.user_name}, then let go")]


def _check(options: Options) -> tuple[str, str] | None:
    if not options.get("device"):
        reason = ("the keyboard reader needs its device, e.g. device = \"/dev/input/by-id/usb-...-event-kbd\" "
                  "or a part of its name")
        return ("hardware.reader.device", reason)
    return None


BACKEND = ReaderBackend(
    name="keyboard",
    target="hal.evdev_reader:KeyboardReader",
    summary="a USB reader that types each card's number (a HID keyboard), grabbed through evdev",
    options=(
        Option("device", "str", None, optional=True, env="BANQUIER_READER_DEVICE",
               doc="/dev/input/by-id/...-event-kbd, or a part of the reader's name"),
        Option("layout", "str", "qwerty", choices=LAYOUTS, doc="where the reader types the hex letter A"),
        Option("uid_order", "str", "sent", choices=UID_ORDERS, doc="the byte order of the number it types"),
        Option("uid_digits", "str", "auto", choices=UID_DIGITS, doc="decimal or hex (auto: 10 digits are decimal)"),
    ),
    check=_check,
    extra="keyboard",
    packages=("evdev>=1.6",),
    groups=(("input", "the keyboard card reader"),),
    device_classes=("char-input rw",),
    devices=lambda options: [str(options["device"])] if str(options.get("device") or "").startswith("/") else [],
    uid_form=UidForm("sent", "auto"),
    uid_form_of=lambda options: UidForm(options.get("uid_order", "sent"), options.get("uid_digits", "auto")),
    probe=probe,
    cards="what its own chip reads: a 125 kHz one EM4100 tags, a 13.56 MHz one MIFARE Classic and NTAG",
    pc=True,
    system_packages=("python3-evdev",),
)
