"""The devices the configured parts need, and whether the service's sandbox lets the terminal open them.

The installed unit (``deploy/banquier.service``) sets ``DevicePolicy=closed``: the terminal may open only the
devices its ``DeviceAllow=`` lines name, besides ``/dev/null``, ``/dev/zero`` and the like. A ``char-NAME`` rule
names a *class* as the kernel lists it in ``/proc/devices`` (``153 spi`` for ``/dev/spidev*``, ``226 drm``...),
matched as a shell pattern, and systemd allows every device of the majors it matches; a ``/dev/...`` rule names
one device node by its path (resolved when the service starts). A wrong class name (``char-spidev``) matches
nothing, and the terminal then cannot open its reader while every check made outside the service says ok.

- :func:`needed_devices`: ``[(what, path)]`` of the device nodes the configuration's parts open.
- :func:`read_unit_devices`: the policy and rules of the installed unit and its drop-ins (as systemd merges them).
- :class:`DeviceRules.allows`: systemd's decision for one device (``banquier doctor``'s ``service`` line).
- :func:`open_devices`: open each needed device for real (from inside the unit's sandbox, this is the terminal's
  own view): ``(what, path, errno or None)``; EPERM is a device policy's refusal, ENXIO or ENODEV a device
  node whose driver is not there (the policy let it through).
"""
from __future__ import annotations

import errno
import fnmatch
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from host_ui.shell.config import Config

__all__ = ["needed_devices", "read_proc_devices", "read_unit_devices", "DeviceRules", "open_devices",
           "UNIT_NAME", "STANDARD_DEVICES"]

UNIT_NAME = "banquier.service"
#: Where systemd reads the unit and its drop-ins from (the first unit file found wins; every drop-in counts).
UNIT_PLACES = ("etc/systemd/system", "run/systemd/system", "usr/local/lib/systemd/system", "lib/systemd/system",
               "usr/lib/systemd/system")
#: What ``DevicePolicy=closed`` (and ``auto`` with rules) allows besides the ``DeviceAllow=`` lines.
STANDARD_DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx")


def _gpio_nodes(root: Path, model: str | None, lgpio: bool) -> list[str]:
    if lgpio or (model and re.search(r"Raspberry Pi (5|500|Compute Module 5)\b", model)):
        chips = [f"/dev/gpiochip{n}" for n in (4, 0)]  # rpi-lgpio opens gpiochip4 on a Pi 5's older kernels
        present = [c for c in chips if (root / c.lstrip("/")).exists()]
        return present[:1] or chips[-1:]
    return ["/dev/gpiomem"]


def needed_devices(config: Config, *, root: str | os.PathLike[str] = "/", model: str | None = None,
                   lgpio: bool = False) -> list[tuple[str, str]]:
    """``[(what, absolute path)]`` of the device nodes the configured parts open, in a fixed order: the reader's
    SPI device or serial port, the GPIO device (``/dev/gpiomem`` for RPi.GPIO, ``/dev/gpiochip*`` for rpi-lgpio:
    ``lgpio`` or a Pi 5 ``model``), the screen (``/dev/dri/card*`` and ``renderD*`` for kmsdrm, the framebuffer)
    and the touch panel (``touch_device``, else every ``/dev/input/event*`` SDL or evdev would read). Paths are
    absolute system paths; the ones looked for (``/dev/dri``, ``/dev/input``) are looked for under ``root``."""
    base = Path(root)
    out: list[tuple[str, str]] = []
    reader = config.reader
    out += [("the card reader", path) for path in reader.devices()]
    uses_gpio = reader.declaration.gpio or config.beeper.backend == "gpio" or config.buttons.backend == "gpio"
    if uses_gpio:
        out += [("the GPIO pins", node) for node in _gpio_nodes(base, model, lgpio)]
    display = config.display
    if display.output == "kmsdrm":
        dri = sorted(p.name for p in (base / "dev/dri").glob("card*")) + \
            sorted(p.name for p in (base / "dev/dri").glob("renderD*"))
        out += [("the screen", f"/dev/dri/{name}") for name in dri or ["card0"]]
    elif display.output == "framebuffer":
        out.append(("the screen", str(display.fb_device or "/dev/fb1")))
    if display.touch_device is not None:
        out.append(("the touch panel", str(display.touch_device)))
    elif display.output in ("kmsdrm", "framebuffer"):
        out += [("the touch panel", f"/dev/input/{p.name}")
                for p in sorted((base / "dev/input").glob("event*"), key=lambda p: (len(p.name), p.name))]
    return out


def read_proc_devices(text: str) -> dict[int, list[str]]:
    """The character-device classes of a ``/proc/devices`` text: ``{major: [names]}`` (one major can carry
    several names: ``4 tty`` and ``4 ttyS``)."""
    out: dict[int, list[str]] = {}
    section = ""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.endswith("devices:"):
            section = stripped
            continue
        if section != "Character devices:" or not stripped:
            continue
        number, _, name = stripped.partition(" ")
        if number.isdigit() and name.strip():
            out.setdefault(int(number), []).append(name.strip())
    return out


@dataclass(frozen=True)
class DeviceRules:
    """A unit's device access: ``policy`` (``auto``, ``closed``, ``strict``) and ``allow`` (``(spec, access)`` in
    order: ``char-NAME``, ``block-NAME``, a ``/dev/...`` path or ``/dev/char/MAJOR:MINOR``; access of
    ``r``, ``w``, ``m``). ``files``: the unit file and drop-ins read."""

    policy: str = "auto"
    allow: tuple[tuple[str, str], ...] = ()
    files: tuple[Path, ...] = field(default=(), compare=False)

    @property
    def restricted(self) -> bool:
        """Whether the unit limits devices at all (``auto`` does only once a ``DeviceAllow=`` is given)."""
        return self.policy in ("closed", "strict") or bool(self.allow)

    def allows(self, path: str, major: int, minor: int, classes: dict[int, list[str]], *,
               number_of: dict[str, tuple[int, int]] | None = None, access: str = "rw") -> str | None:
        """The rule that lets the service open the character device ``path`` (``major``:``minor``) with
        ``access``, or None when systemd refuses it. ``classes``: :func:`read_proc_devices`; ``number_of``:
        the device numbers of the rules' paths (``{path: (major, minor)}``, read when the service starts)."""
        if not self.restricted:
            return f"DevicePolicy={self.policy} (no device limit)"
        if self.policy != "strict" and path in STANDARD_DEVICES:
            return f"DevicePolicy={self.policy}"
        names = classes.get(major, [])
        for spec, granted in self.allow:
            if not set(access) <= set(granted):
                continue
            if spec.startswith("char-"):
                pattern = spec[len("char-"):]
                if any(fnmatch.fnmatchcase(name, pattern) for name in names):
                    return f"DeviceAllow={spec} {granted}"
            elif spec.startswith("/dev/char/"):
                if spec[len("/dev/char/"):] == f"{major}:{minor}":
                    return f"DeviceAllow={spec} {granted}"
            elif spec.startswith("/dev/"):
                known = (number_of or {}).get(spec)
                if (known == (major, minor)) if known is not None else spec == path:
                    return f"DeviceAllow={spec} {granted}"
        return None


def _unit_texts(root: Path) -> list[Path]:
    """The unit file (the first found) and its drop-ins (every ``banquier.service.d/*.conf``, by file name, a
    name in an earlier place hiding the same name later), as systemd reads them."""
    unit = next((root / place / UNIT_NAME for place in UNIT_PLACES if (root / place / UNIT_NAME).is_file()), None)
    if unit is None:
        return []
    dropins: dict[str, Path] = {}
    for place in UNIT_PLACES:
        folder = root / place / f"{UNIT_NAME}.d"
        for conf in sorted(folder.glob("*.conf")) if folder.is_dir() else []:
            dropins.setdefault(conf.name, conf)
    return [unit] + [dropins[name] for name in sorted(dropins)]


def read_unit_devices(root: str | os.PathLike[str] = "/") -> DeviceRules | None:
    """The device policy of the installed unit and its drop-ins under ``root`` (systemd's merge: the last
    ``DevicePolicy=`` wins; ``DeviceAllow=`` lines add up, an empty one clears those before it); None when no
    unit is installed. Unreadable files count as absent."""
    files = _unit_texts(Path(root))
    if not files:
        return None
    policy, allow = "auto", list[tuple[str, str]]()
    for path in files:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        section = ""
        for raw in _joined_lines(text):
            line = raw.strip()
            if not line or line.startswith(("#", ";")):
                continue
            if line.startswith("[") and line.endswith("]"):
                section = line[1:-1]
                continue
            key, sep, value = line.partition("=")
            if not sep or section != "Service":
                continue
            key, value = key.strip(), value.strip()
            if key == "DevicePolicy" and value:
                policy = value
            elif key == "DeviceAllow":
                if not value:
                    allow.clear()
                    continue
                spec, _, granted = value.partition(" ")
                allow.append((spec.strip(), granted.strip() or "rwm"))
    return DeviceRules(policy, tuple(allow), tuple(files))


def _joined_lines(text: str) -> Iterable[str]:
    """A unit file's lines, a trailing backslash joining a line to the next."""
    pending = ""
    for line in text.splitlines():
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        yield pending + line
        pending = ""
    if pending:
        yield pending


def open_devices(devices: Iterable[tuple[str, str]]) -> list[tuple[str, str, int | None]]:
    """Open each ``(what, path)`` for reading and writing, as the terminal does (without blocking, without
    making it a controlling terminal), and close it at once: ``(what, path, errno or None)``. From inside the
    service's sandbox, EPERM means its device policy refuses the device; ENXIO/ENODEV a node whose driver is
    missing (the policy let the open through); ENOENT a device that is not there."""
    out: list[tuple[str, str, int | None]] = []
    for what, path in devices:
        try:
            fd = os.open(path, os.O_RDWR | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
        except OSError as exc:
            out.append((what, path, exc.errno if exc.errno is not None else errno.EIO))
            continue
        os.close(fd)
        out.append((what, path, None))
    return out
