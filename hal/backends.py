"""What a card reader backend declares about itself, in its own module: one place per backend.

Each reader module (``hal/sim_reader.py``, ``hal/mfrc522_reader.py``...) ends with ``BACKEND =
ReaderBackend(...)``: its registry name, the class that makes it, its configuration options with their checks,
the pip extra and packages it needs, the groups and device nodes it opens, the header pins it takes, how its
reader writes a UID, and its ``banquier doctor`` probe. The configuration (``host_ui/shell/config.py``), the
doctor, the service's device check and the registry iterate over these declarations; none of them names a
backend. This module imports no vendor library and nothing of a backend, so the firmware and the shell may
read it.

A probe runs against a :class:`ProbeHost` (the doctor's view of the machine: a fake tree in the tests) and
returns :class:`Finding` lines; it never raises for what it finds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from hal.uid import UidForm

__all__ = ["OPTION_KINDS", "Option", "Finding", "ProbeHost", "ReaderBackend", "Options"]

#: The kinds of value an option may hold (the configuration checks them as it checks its own keys).
OPTION_KINDS = ("int", "float", "str", "path", "pin", "bool")

#: A backend's checked option values, by configuration key.
Options = Mapping[str, Any]


@dataclass(frozen=True)
class Option:
    """One configuration key of a backend, in ``[hardware.reader]``.

    - ``key``: the key's name in the file; ``arg``: the backend's keyword (empty: the same as ``key``).
    - ``kind``: one of :data:`OPTION_KINDS`; ``default``: the value when the key is left out (None: unset).
    - ``lo``/``hi``: the inclusive range of an int or float; ``choices``: the allowed values (then no range).
    - ``optional``: an empty text means "not set"; ``hint``: the unit shown after a range ("Hz").
    - ``env``: an environment variable that overrides the key (empty: none); ``doc``: one line for a person.
    """

    key: str
    kind: str
    default: Any = None
    arg: str = ""
    lo: float = -math.inf
    hi: float = math.inf
    choices: tuple[Any, ...] | None = None
    optional: bool = False
    hint: str = ""
    env: str = ""
    doc: str = ""

    def __post_init__(self) -> None:
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"option {self.key!r}: kind {self.kind!r} is not one of {', '.join(OPTION_KINDS)}")

    @property
    def keyword(self) -> str:
        """The backend's keyword argument for this option."""
        return self.arg or self.key


@dataclass(frozen=True)
class Finding:
    """One line of ``banquier doctor``: ``name`` (short id), ``status`` ok | warn | fail, ``what`` (what was
    found) and ``fix`` (what to do; empty when nothing needs doing), one line each."""

    name: str
    status: str
    what: str
    fix: str = ""


class ProbeHost(Protocol):
    """The doctor's view of the machine, as a probe uses it. Paths are absolute system paths unless said."""

    @property
    def user_name(self) -> str:
        """The user the checks are for (the service's user on a device)."""

    @property
    def probe_hardware(self) -> bool:
        """False: leave the reader itself alone (it may be in use by the service)."""

    @property
    def pip(self) -> str:
        """The command that installs a package into Banquier's Python (``sudo /opt/.../python -m pip``)."""

    def path(self, absolute: str | Path) -> Path:
        """Where ``absolute`` is on the checked tree (the real root, or a test's fake one)."""

    def shown(self, path: Path) -> str:
        """``path`` (on the checked tree) as the absolute system path a person types."""

    def usable(self, path: Path) -> bool:
        """Whether the user may read and write ``path`` (on the checked tree)."""

    def group_of(self, path: Path) -> str | None:
        """The group that owns ``path`` (on the checked tree), or None."""

    def access_fix(self, path: Path, usual: str) -> str:
        """The one-line fix for a user who may not use ``path``: join its group (``usual`` when the group is a
        privileged one or unnamed, through a udev rule)."""

    def model(self) -> str | None:
        """The Raspberry Pi model from the device tree, or None on a PC."""

    def boot_setting(self, pattern: str) -> tuple[str, str, bool] | None:
        """config.txt's first active line matching ``pattern``: ``(line, section, applies)``, or None."""

    def boot_file(self) -> str | None:
        """config.txt's absolute system path, or None when there is none."""

    def installed(self, distribution: str) -> str | None:
        """The installed version of a Python distribution, or None."""

    def open_reader(self, name: str, **options: Any) -> Any:
        """Open the reader as the terminal would (``hal.load_reader(name, env={}, **options)``); raises as it."""


def _no_devices(options: Options) -> list[str]:
    return []


def _no_pins(options: Options) -> list[tuple[int, str]]:
    return []


def _nothing_wrong(options: Options) -> tuple[str, str] | None:
    return None


@dataclass(frozen=True)
class ReaderBackend:
    """A reader backend's declaration (see the module docstring).

    - ``name``: the registry name (``backend = "..."``); ``target``: ``"module:Class"`` that makes the reader
      from the options' keywords; ``summary``: one line for a person.
    - ``options``: its :class:`Option` keys; ``check(options) -> (key, reason) | None``: cross-key checks.
    - ``extra``: the pip extra that installs its vendor library (``pip install 'banquier[evdev]'``), or "";
      ``packages``: the pip requirements that extra holds (for the doctor's fix).
    - ``groups``: ``(group, what needs it)`` the user must be in, or ``groups_of(options)`` when an option
      says (a PN532 on I²C, SPI or a UART); ``gpio``: whether it drives GPIO pins.
    - ``device_classes``: the unit's ``DeviceAllow=`` classes (``char-spi``: names in ``/proc/devices``);
      ``devices(options) -> [absolute path]``: the device nodes it opens.
    - ``pins(options) -> [(header pin, what)]``: the header pins it takes, checked against the other parts;
      ``what`` is the configuration key that chose the pin (``hardware.reader.reset_pin``) or a description.
    - ``uid_form``: how its reader writes a UID (:class:`hal.uid.UidForm`), or ``uid_form_of(options)`` when
      an option says.
    - ``probe(host, options) -> [Finding]``: its doctor lines (None: none).
    - ``cards``: which cards it reads, one line (``13.56 MHz ISO 14443A: MIFARE Classic, NTAG``).
    - ``pc``: it works on a PC too (a USB reader): ``banquier sim`` then reads it beside the tray's cards.
    - ``system_packages``: the Debian packages ``deploy/install.sh`` installs for it (a ``python3-NAME`` there
      stands for the extra's requirement ``NAME``, which pip then leaves alone); ``raspi_config``: the
      ``raspi-config nonint`` settings it needs on (``do_i2c``).
    """

    name: str
    target: str
    summary: str
    options: tuple[Option, ...] = ()
    check: Callable[[Options], tuple[str, str] | None] = _nothing_wrong
    extra: str = ""
    packages: tuple[str, ...] = ()
    groups: tuple[tuple[str, str], ...] = ()
    groups_of: Callable[[Options], tuple[tuple[str, str], ...]] | None = None
    gpio: bool = False
    device_classes: tuple[str, ...] = ()
    devices: Callable[[Options], list[str]] = _no_devices
    pins: Callable[[Options], list[tuple[int, str]]] = _no_pins
    uid_form: UidForm = field(default_factory=UidForm)
    uid_form_of: Callable[[Options], UidForm] | None = None
    probe: Callable[[ProbeHost, Options], list[Finding]] | None = None
    cards: str = ""
    pc: bool = False
    system_packages: tuple[str, ...] = ()
    raspi_config: tuple[str, ...] = ()

    def defaults(self) -> dict[str, Any]:
        """``{key: default}`` of its options."""
        return {o.key: o.default for o in self.options}

    def hal_options(self, options: Options) -> dict[str, Any]:
        """The keywords for ``hal.load_reader(self.name, **keywords)`` from checked ``options`` (by key; a key
        left out takes its default; a path becomes its text; an unset optional key is left out)."""
        out: dict[str, Any] = {}
        for option in self.options:
            value = options.get(option.key, option.default)
            if value is None:
                continue
            out[option.keyword] = str(value) if isinstance(value, Path) else value
        return out

    def needed_groups(self, options: Options) -> tuple[tuple[str, str], ...]:
        """``(group, what needs it)`` for this reader, so configured."""
        return self.groups_of(options) if self.groups_of is not None else self.groups

    def form(self, options: Options) -> UidForm:
        """How this reader, so configured, writes a UID."""
        return self.uid_form_of(options) if self.uid_form_of is not None else self.uid_form
