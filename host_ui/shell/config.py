"""Banquier's configuration: one TOML file, checked key by key, read into a frozen :class:`Config`.

Where it comes from (:func:`find_config`), first match wins:

1. the ``path`` argument (``banquier --config FILE``), which must exist;
2. ``$BANQUIER_CONFIG``, which must exist;
3. the per-user file ``$XDG_CONFIG_HOME/banquier/config.toml`` (``~/.config/banquier/config.toml``);
4. the system file ``/etc/banquier/config.toml`` (what ``deploy/install.sh`` writes on the device).

No file at all is fine: the defaults run the simulator on a PC, and the MFRC522 reader and GPIO beeper
on a Raspberry Pi (``backend = "auto"``, the default in a file too). Environment variables then override
single keys for development (:data:`ENV_OVERRIDES`: ``BANQUIER_DATA_DIR``, ``BANQUIER_READER``,
``BANQUIER_BEEPER``, ``BANQUIER_BUTTONS``, ``BANQUIER_LANGUAGE``...); an empty variable counts as unset.

The sections and every key, with units and ranges, are documented in ``deploy/config.example.toml``.
An unknown key, a value of the wrong type or out of range, and two devices on one header pin are refused
with :class:`ConfigError`, whose message names the file (or variable), the key and the reason. A file
that cannot be read raises :class:`ConfigFileError`. Pins are physical header pin numbers (BOARD
numbering, see :mod:`hal.rpi_gpio`).
"""
from __future__ import annotations

import ipaddress
import json
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar, overload

from cards.editions import RULE_FLAGS, available_editions
from cards.inputs import read_input
from hal import registry as hal_registry
from hal.backends import Option, ReaderBackend
from hal.rpi_gpio import BOARD_TO_BCM
from hal.uid import UidForm
from host_ui.shell.pin import PIN_STATE, PinCheck, is_pin_hash
from terminal.bank.state import MODES
from terminal.errors import GameError
from terminal.table.i18n import LANGUAGES

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from terminal.table.settings import TerminalSettings

__all__ = [
    "ConfigError", "ConfigFileError", "Config", "ReaderSettings", "BeeperSettings", "ButtonsSettings",
    "HardwareSettings", "DisplaySettings", "TimeoutSettings", "GameSettings", "StorageSettings",
    "LoggingSettings", "PhoneSettings", "load_config", "parse_config", "find_config", "user_config_path",
    "SYSTEM_CONFIG", "ENV_OVERRIDES", "default_data_dir",
]

#: The system-wide file on the device (relative to ``root`` in :func:`load_config`).
SYSTEM_CONFIG = Path("/etc/banquier/config.toml")

#: Environment variable -> the key it overrides (``BANQUIER_CONFIG`` names the file itself).
#: The reader backends' own variables (``Option.env``, e.g. ``BANQUIER_SERIAL_PORT``) are among them.
ENV_OVERRIDES: Mapping[str, str] = MappingProxyType({
    "BANQUIER_DATA_DIR": "storage.data_dir",
    "BANQUIER_KEY_FILE": "storage.key_file",
    "BANQUIER_READER": "hardware.reader.backend",
    **{option.env: f"hardware.reader.{option.key}" for backend in hal_registry.reader_backends().values()
       for option in backend.options if option.env},
    "BANQUIER_BEEPER": "hardware.beeper.backend",
    "BANQUIER_BUTTONS": "hardware.buttons.backend",
    "BANQUIER_DISPLAY_OUTPUT": "display.output",
    "BANQUIER_FULLSCREEN": "display.fullscreen",
    "BANQUIER_LANGUAGE": "game.language",
    "BANQUIER_EDITION": "game.edition",
    "BANQUIER_LOG_LEVEL": "logging.level",
})

BUTTON_KEYS = ("confirm", "cancel", "f1", "f2", "f3", "f4")
#: The phone page's TCP port when the configuration does not say (``host_ui.phone.access.DEFAULT_PORT``: the
#: shell's services do not import the page's modules, a test keeps the two equal).
PHONE_PORT = 8737
#: The addresses the phone page listens on when the configuration does not say: every IPv4 and IPv6 one (it
#: serves only the table's networks whatever it listens on).
PHONE_LISTEN = ("0.0.0.0", "::")
#: The most addresses ``[phone] listen`` may name.
MAX_LISTEN = 16
LOG_LEVELS = ("debug", "info", "warning", "error")


class ConfigError(GameError, ValueError):
    """A configuration value that is refused. ``params``: ``file`` (or the variable), ``key``, ``reason``."""

    code = "config_invalid"


class ConfigFileError(GameError, OSError):
    """A configuration file that is missing (when named explicitly) or cannot be read."""

    code = "config_unreadable"


# ------------------------------------------------------------------------------------------ value rules
class _Rule:
    """How one key is checked: its kind, range or choices, and whether it may be left out (None)."""

    def __init__(self, kind: str, *, lo: float | None = None, hi: float | None = None,
                 choices: tuple[Any, ...] | None = None, optional: bool = False, hint: str = "") -> None:
        self.kind, self.lo, self.hi, self.choices = kind, lo, hi, choices
        self.optional, self.hint = optional, hint

    def describe(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(json.dumps(c) for c in self.choices)
        if self.kind in ("int", "float", "pin"):
            what = "a whole number" if self.kind != "float" else "a number"
            if self.kind == "pin":
                return "a GPIO header pin number (BOARD numbering): " + ", ".join(map(str, sorted(BOARD_TO_BCM)))
            return f"{what} {_number(self.lo)}..{_number(self.hi)}{' ' + self.hint if self.hint else ''}"
        return {"bool": "true or false", "path": "an absolute path in quotes",
                "str": "a text in quotes", "pin_code": "4 to 8 digits in quotes, e.g. \"2468\"",
                "pin_hash": "the hash `sudo banquier pin set` writes",
                "rules": "a table of rule flags",
                "addresses": "a list of IP addresses in quotes, e.g. [\"0.0.0.0\", \"::\"]"}[self.kind]

    def check(self, value: Any) -> Any:
        """Return the checked value, or raise ``ValueError(reason)``."""
        kind = self.kind
        if self.optional and value == "" and kind in ("path", "str", "pin_code", "pin_hash"):
            return None
        if kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"expected true or false, found {_show(value)}")
            return value
        if kind == "addresses":
            return _addresses(value, self.describe())
        if kind in ("int", "pin"):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"expected {self.describe()}, found {_show(value)}")
            if kind == "pin":
                if value not in BOARD_TO_BCM:
                    raise ValueError(f"{value} is not a GPIO header pin; use {self.describe()}")
                return value
        elif kind == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"expected {self.describe()}, found {_show(value)}")
            value = float(value)
        elif kind in ("str", "path", "pin_code", "pin_hash") and not isinstance(value, str):
            extra = " (write it in quotes so a leading 0 is kept)" if kind == "pin_code" else ""
            raise ValueError(f"expected {self.describe()}, found {_show(value)}{extra}")
        if self.choices is not None:
            if value not in self.choices:
                raise ValueError(f"{_show(value)} is not {self.describe()}")
            return value
        if kind in ("int", "float") and not self.lo <= value <= self.hi:
            raise ValueError(f"{_show(value)} is out of range: use {_number(self.lo)}..{_number(self.hi)}"
                             f"{' ' + self.hint if self.hint else ''}")
        if kind == "path":
            if not value.strip():
                raise ValueError("expected a path, found an empty text")
            try:
                path = Path(value).expanduser()
            except RuntimeError as exc:  # ~name of a user that does not exist
                raise ValueError(f"{_show(value)}: there is no such user's home folder here; use an absolute "
                                 f"path") from exc
            if not path.is_absolute():
                raise ValueError(f"{_show(value)} is a relative path; use an absolute one (or ~/...)")
            return path
        if kind == "pin_code" and not (value.isascii() and value.isdigit() and 4 <= len(value) <= 8):
            raise ValueError(f"{_show(value)} is not 4 to 8 digits")
        if kind == "pin_code":
            raise ValueError("a banker PIN written in plaintext is refused: run `sudo banquier pin set` (it stores "
                             "a salted hash as game.banker_pin_hash and removes this line)")
        if kind == "pin_hash" and not is_pin_hash(value):
            raise ValueError("not a PIN hash as `sudo banquier pin set` writes it: run it again")
        if kind == "str" and not value.strip():
            raise ValueError("expected a text, found an empty one")
        return value

    def from_text(self, text: str) -> Any:
        """Turn an environment variable's text into the value a TOML file would hold."""
        text = text.strip()
        if self.kind == "bool":
            lowered = text.lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise ValueError(f"expected 1/true/yes/on or 0/false/no/off, found {text!r}")
        if self.kind in ("int", "pin"):
            try:
                return int(text)
            except ValueError:
                raise ValueError(f"expected a whole number, found {text!r}") from None
        if self.kind == "float":
            try:
                return float(text)
            except ValueError:
                raise ValueError(f"expected a number, found {text!r}") from None
        return text


def _addresses(value: Any, wanted: str) -> tuple[str, ...]:
    """A list of IP addresses to listen on, each written as :mod:`ipaddress` writes it (``"::"``, ``"10.0.0.2"``),
    none twice; raises ``ValueError(reason)``."""
    if not isinstance(value, list):
        raise ValueError(f"expected {wanted}, found {_show(value)}")
    if not value:
        raise ValueError("expected at least one address, found an empty list")
    if len(value) > MAX_LISTEN:
        raise ValueError(f"{len(value)} addresses: at most {MAX_LISTEN}")
    found: list[str] = []
    for item in value:
        if not isinstance(item, str):
            raise ValueError(f"expected an IP address in quotes, found {_show(item)}")
        try:
            address = str(ipaddress.ip_address(item.strip()))
        except ValueError:
            raise ValueError(f"{_show(item)} is not an IP address (a name is not taken: write the address, e.g. "
                             f"\"192.168.1.20\" or \"::\")") from None
        if address in found:
            raise ValueError(f"{_show(item)} is named twice")
        found.append(address)
    return tuple(found)


def _show(value: Any) -> str:
    if isinstance(value, (bool, str, int, float)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


_T = TypeVar("_T")


def _number(value: float | None) -> str:
    """A range's bound as a person writes it: an integer as an integer (``10000000``, not ``1e+07``)."""
    if value is None:
        return "?"
    return str(int(value)) if float(value).is_integer() else repr(float(value))


@overload
def _key(rule: _Rule, default: _T) -> _T: ...
@overload
def _key(rule: _Rule, *, default_factory: Callable[[], _T], hash: bool | None = None) -> _T: ...
def _key(rule: _Rule, default: Any = None, *, default_factory: Callable[[], Any] | None = None,
         hash: bool | None = None) -> Any:
    """A dataclass field carrying its rule: what :func:`dataclasses.field` returns (typed as its value, as
    ``field`` is), so the call in a class body makes no default shared between instances (the ``noqa: RUF009``
    below: ruff cannot tell that ``_key`` is ``field``)."""
    if default_factory is not None:
        return field(default_factory=default_factory, hash=hash, metadata={"rule": rule})
    return field(default=default, hash=hash, metadata={"rule": rule})


# ------------------------------------------------------------------------------------------- sections
def _reader_keys(chosen: str | None = None) -> dict[str, Option]:
    """Every reader option key of the declared backends (``chosen``'s own first): a key two backends share has
    the first declaration's check."""
    declared = hal_registry.reader_backends()
    order = ([declared[chosen]] if chosen in declared else []) + list(declared.values())
    keys: dict[str, Option] = {}
    for backend in order:
        for option in backend.options:
            keys.setdefault(option.key, option)
    return keys


def _option_rule(option: Option) -> _Rule:
    return _Rule(option.kind, lo=option.lo, hi=option.hi, choices=option.choices, optional=option.optional,
                 hint=option.hint)


@dataclass(frozen=True)
class ReaderSettings:
    """``[hardware.reader]``: ``backend`` (a declared reader backend, ``hal.registry.reader_backends()``), and
    the options each backend declares for itself (``hal.backends.Option``), flat in the same table: e.g.
    ``spi_bus``, ``reset_pin`` for ``mfrc522``; ``port``, ``format``, ``baudrate`` for ``serial``. Every key of
    every backend is checked by its backend's own rule, whichever backend is chosen; only the chosen backend's
    keys reach it. ``options`` holds every key's value (the default when left out; None: not set); they read as
    attributes too (``settings.port``)."""

    backend: str = "sim"
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType(
        {key: option.default for key, option in _reader_keys().items()}), hash=False)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "options":
            raise AttributeError(name)
        try:
            return self.options[name]
        except KeyError:
            raise AttributeError(f"no reader option {name!r}") from None

    @property
    def declaration(self) -> ReaderBackend:
        """The chosen backend's declaration."""
        return hal_registry.reader_backends()[self.backend]

    def hal_options(self) -> dict[str, Any]:
        """Keyword options for ``hal.load_reader(self.backend, **options)``."""
        return self.declaration.hal_options(self.options)

    def devices(self) -> list[str]:
        """The device nodes the chosen reader opens (absolute paths)."""
        return self.declaration.devices(self.options)

    @property
    def uid_form(self) -> UidForm:
        """How the chosen reader writes a UID (``hal.uid.UidForm``)."""
        return self.declaration.form(self.options)


@dataclass(frozen=True)
class BeeperSettings:
    """``[hardware.beeper]``: ``backend`` ``sim`` | ``gpio`` | ``none``; ``pin`` (header pin), ``type``
    ``active`` (sounds on a high level) | ``passive`` (needs PWM), ``frequency_hz`` 100..10000 for a passive
    buzzer (left out: each pattern's own tones), ``volume`` 0.0..1.0, ``active_low`` (driven through a
    PNP transistor)."""

    backend: str = _key(_Rule("str"), "sim")
    pin: int = _key(_Rule("pin"), 12)
    type: str = _key(_Rule("str", choices=("active", "passive")), "passive")
    frequency_hz: float | None = _key(_Rule("float", lo=100, hi=10_000, optional=True, hint="Hz"), None)
    volume: float = _key(_Rule("float", lo=0.0, hi=1.0, hint="(1.0 = loudest)"), 1.0)
    active_low: bool = _key(_Rule("bool"), False)

    def hal_options(self) -> dict[str, Any]:
        """Keyword options for ``hal.load_beeper(self.backend, **options)``."""
        if self.backend == "gpio":
            return {"pin": self.pin, "kind": self.type, "frequency_hz": self.frequency_hz,
                    "active_low": self.active_low, "volume": self.volume}
        if self.backend in ("sim", "none"):
            return {"volume": self.volume}
        return {}


@dataclass(frozen=True)
class ButtonsSettings:
    """``[hardware.buttons]``: ``backend`` ``sim`` | ``gpio`` | ``none``; one header pin per button
    (``confirm``, ``cancel``, ``f1``..``f4``; leave a button out if it is not fitted), ``pull`` ``up``
    (button to ground) | ``down`` (button to 3.3 V), ``debounce_s`` 0..0.5 s."""

    backend: str = _key(_Rule("str"), "sim")
    pull: str = _key(_Rule("str", choices=("up", "down")), "up")
    debounce_s: float = _key(_Rule("float", lo=0.0, hi=0.5, hint="s"), 0.03)
    confirm: int | None = _key(_Rule("pin", optional=True), None)
    cancel: int | None = _key(_Rule("pin", optional=True), None)
    f1: int | None = _key(_Rule("pin", optional=True), None)
    f2: int | None = _key(_Rule("pin", optional=True), None)
    f3: int | None = _key(_Rule("pin", optional=True), None)
    f4: int | None = _key(_Rule("pin", optional=True), None)

    def pins(self) -> dict[str, int]:
        """``{button name: header pin}`` of the buttons fitted."""
        return {name: getattr(self, name) for name in BUTTON_KEYS if getattr(self, name) is not None}

    def hal_options(self) -> dict[str, Any]:
        """Keyword options for ``hal.load_buttons(self.backend, **options)``."""
        if self.backend == "gpio":
            return {"pins": self.pins(), "pull": self.pull, "debounce_s": self.debounce_s}
        if self.backend in ("sim", "none"):
            return {"debounce_s": self.debounce_s}
        return {}


@dataclass(frozen=True)
class HardwareSettings:
    """``[hardware]``: the reader, beeper and buttons sub-tables."""

    reader: ReaderSettings = field(default_factory=ReaderSettings)
    beeper: BeeperSettings = field(default_factory=BeeperSettings)
    buttons: ButtonsSettings = field(default_factory=ButtonsSettings)


@dataclass(frozen=True)
class DisplaySettings:
    """``[display]``: ``width`` x ``height`` pixels (the panel's own size, before rotation), ``rotation``
    0 | 90 | 180 | 270 degrees clockwise, ``output``:

    - ``window``: a desktop window (a PC), or whatever SDL picks;
    - ``kmsdrm``: full screen on the device's console through SDL's kmsdrm driver (HDMI, the official DSI
      panel);
    - ``framebuffer``: frames drawn offscreen and written to ``fb_device`` (``/dev/fbN``, default
      ``/dev/fb1``) in its pixel format, for the cheap SPI panels whose driver only exposes a framebuffer;
      touch read from ``touch_device`` through python-evdev.

    ``touch_device`` (e.g. ``/dev/input/by-path/...-event``; left out: any touchscreen), ``fullscreen``,
    ``max_fps`` 5..120."""

    width: int = _key(_Rule("int", lo=240, hi=7680, hint="pixels"), 800)
    height: int = _key(_Rule("int", lo=160, hi=4320, hint="pixels"), 480)
    rotation: int = _key(_Rule("int", choices=(0, 90, 180, 270)), 0)
    output: str = _key(_Rule("str", choices=("window", "kmsdrm", "framebuffer")), "window")
    fb_device: Path | None = _key(_Rule("path", optional=True), None)  # noqa: RUF009 (_key is field())
    touch_device: Path | None = _key(_Rule("path", optional=True), None)  # noqa: RUF009 (_key is field())
    fullscreen: bool = _key(_Rule("bool"), False)
    max_fps: int = _key(_Rule("int", lo=5, hi=120, hint="frames per second"), 30)


@dataclass(frozen=True)
class TimeoutSettings:
    """``[game.timeouts]``, seconds (see ``terminal.table.settings.TerminalSettings``)."""

    timeout_s: float = _key(_Rule("float", lo=3, hi=600, hint="s"), 10.0)
    long_timeout_s: float = _key(_Rule("float", lo=10, hi=3600, hint="s"), 60.0)
    go_repeat_window_s: float = _key(_Rule("float", lo=0, hi=3600, hint="s"), 120.0)
    confirm_min_delay_s: float = _key(_Rule("float", lo=0, hi=5, hint="s"), 0.5)
    retap_guard_s: float = _key(_Rule("float", lo=0, hi=10, hint="s"), 1.5)


@dataclass(frozen=True)
class GameSettings:
    """``[game]``: ``language`` fr | en | uk, ``edition`` (a shipped edition), ``mode`` (classic,
    sans_frontieres, quick, time_limit), ``amount_display`` plain | km, ``banker_protection``,
    ``banker_pin_hash`` (the salted hash ``sudo banquier pin set`` writes; a plaintext ``banker_pin`` is
    refused), ``[game.rules]`` flags that differ from the edition (``RULE_FLAGS``),
    ``[game.timeouts]``."""

    language: str = _key(_Rule("str", choices=LANGUAGES), "fr")
    edition: str = _key(_Rule("str"), "fr")
    mode: str = _key(_Rule("str", choices=MODES), "classic")
    amount_display: str = _key(_Rule("str", choices=("plain", "km")), "plain")
    banker_protection: bool = _key(_Rule("bool"), True)
    banker_pin: str | None = _key(_Rule("pin_code", optional=True), None)  # plaintext: refused, see pin set
    banker_pin_hash: str | None = _key(_Rule("pin_hash", optional=True), None)
    rules: Mapping[str, bool | str] = _key(_Rule("rules"), default_factory=lambda: MappingProxyType({}),
                                           hash=False)
    timeouts: TimeoutSettings = field(default_factory=TimeoutSettings)


@dataclass(frozen=True)
class StorageSettings:
    """``[storage]``: ``data_dir`` (games and card sets), ``backup_dir`` (left out: ``data_dir/backups``),
    ``backup_every`` operations 0..10000 (0: only when the terminal stops), ``backups_kept`` 1..1000 per
    game, ``key_file`` (the device key that signs the journals; left out: ``$BANQUIER_KEY_FILE`` or
    ``~/.config/banquier/device.key``)."""

    data_dir: Path = _key(_Rule("path"),  # noqa: RUF009 (_key is field())
                          default_factory=lambda: default_data_dir(os.environ))
    backup_dir: Path | None = _key(_Rule("path", optional=True), None)  # noqa: RUF009 (_key is field())
    backup_every: int = _key(_Rule("int", lo=0, hi=10_000, hint="operations"), 20)
    backups_kept: int = _key(_Rule("int", lo=1, hi=1000), 5)
    key_file: Path | None = _key(_Rule("path", optional=True), None)  # noqa: RUF009 (_key is field())

    @property
    def backups(self) -> Path:
        """Where backups go: ``backup_dir`` or ``data_dir/backups``."""
        return self.backup_dir if self.backup_dir is not None else self.data_dir / "backups"


@dataclass(frozen=True)
class LoggingSettings:
    """``[logging]``: ``level`` debug | info | warning | error (to stderr, one line each)."""

    level: str = _key(_Rule("str", choices=LOG_LEVELS), "info")


@dataclass(frozen=True)
class PhoneSettings:
    """``[phone]``: the phone page (``banquier phone serve``, a process of its own): ``port`` 1024..65535 (TCP),
    ``listen`` the IP addresses it binds (default every IPv4 and IPv6 one: it serves only the table's networks
    whatever it binds), ``language`` fr | en | uk (left out: the terminal's, ``game.language``), ``qr_on_idle``
    (the idle screen shows the link's QR code while the page is switched on and running)."""

    port: int = _key(_Rule("int", lo=1024, hi=65535, hint="(a TCP port)"), PHONE_PORT)
    listen: tuple[str, ...] = _key(_Rule("addresses"), PHONE_LISTEN)
    language: str | None = _key(_Rule("str", choices=LANGUAGES, optional=True), None)
    qr_on_idle: bool = _key(_Rule("bool"), False)


@dataclass(frozen=True)
class Config:
    """The whole configuration. ``Config()`` is a PC with no file: the simulator everywhere.

    ``source`` is the file it was read from (None: defaults only); it takes no part in comparisons.
    """

    hardware: HardwareSettings = field(default_factory=HardwareSettings)
    display: DisplaySettings = field(default_factory=DisplaySettings)
    game: GameSettings = field(default_factory=GameSettings)
    storage: StorageSettings = field(default_factory=StorageSettings)
    logging: LoggingSettings = field(default_factory=LoggingSettings)
    phone: PhoneSettings = field(default_factory=PhoneSettings)
    source: Path | None = field(default=None, compare=False)

    # shortcuts
    @property
    def reader(self) -> ReaderSettings:
        return self.hardware.reader

    @property
    def beeper(self) -> BeeperSettings:
        return self.hardware.beeper

    @property
    def buttons(self) -> ButtonsSettings:
        return self.hardware.buttons

    @property
    def phone_language(self) -> str:
        """The phone page's language: ``[phone] language``, else the terminal's (``game.language``)."""
        return self.phone.language or self.game.language

    def terminal_settings(self) -> TerminalSettings:
        """The state machine's :class:`terminal.table.settings.TerminalSettings` from ``[game]``."""
        # Late: the table machine is only for the terminal's run, not for the commands that read the configuration.
        from terminal.table.settings import TerminalSettings
        game, t = self.game, self.game.timeouts
        return TerminalSettings(timeout_s=t.timeout_s, long_timeout_s=t.long_timeout_s,
                                go_repeat_window_s=t.go_repeat_window_s,
                                confirm_min_delay_s=t.confirm_min_delay_s, retap_guard_s=t.retap_guard_s,
                                banker_protection=game.banker_protection,
                                # PinCheck stands for the PIN text: the machine only compares a typed PIN with
                                # it (PinCheck.__eq__ checks the salted hash), and its field is typed str.
                                # The wrong tries are kept in the data folder (the service cannot write /etc).
                                banker_pin=PinCheck(game.banker_pin_hash,
                                                    state_file=self.storage.data_dir / PIN_STATE)
                                if game.banker_pin_hash else None,
                                language=game.language, display=game.amount_display)

    def to_toml(self) -> str:
        """The configuration as a TOML text that :func:`parse_config` reads back to an equal Config.

        Keys left out (None) are written as comments.
        """
        lines: list[str] = ["# Banquier configuration (see deploy/config.example.toml for every key)."]
        lines += ["", "[hardware.reader]", f"backend = {_toml_value(self.hardware.reader.backend)}"]
        lines += [f"# {key}: not set" if value is None else f"{key} = {_toml_value(value)}"
                  for key, value in self.hardware.reader.options.items()]
        _emit(lines, "hardware.beeper", self.hardware.beeper)
        _emit(lines, "hardware.buttons", self.hardware.buttons)
        _emit(lines, "display", self.display)
        _emit(lines, "game", self.game)
        lines += ["", "[game.rules]"]
        lines += [f"{name} = {_toml_value(value)}" for name, value in sorted(self.game.rules.items())]
        _emit(lines, "game.timeouts", self.game.timeouts)
        _emit(lines, "storage", self.storage)
        _emit(lines, "logging", self.logging)
        _emit(lines, "phone", self.phone)
        return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(str(value), ensure_ascii=False)


def _emit(lines: list[str], table: str, section: Any) -> None:
    lines += ["", f"[{table}]"]
    for f in fields(section):
        if "rule" not in f.metadata or f.metadata["rule"].kind == "rules":
            continue
        value = getattr(section, f.name)
        lines.append(f"# {f.name}: not set" if value is None else f"{f.name} = {_toml_value(value)}")


# ------------------------------------------------------------------------------------------- locations
def default_data_dir(env: Mapping[str, str]) -> Path:
    """Where games go when neither the file nor ``$BANQUIER_DATA_DIR`` says: systemd's
    ``$STATE_DIRECTORY`` (the service on the device), else ``$XDG_DATA_HOME/banquier``
    (``~/.local/share/banquier``)."""
    state = env.get("STATE_DIRECTORY", "").split(":")[0].strip()
    if state:
        return Path(state)
    base = env.get("XDG_DATA_HOME", "").strip()
    return (Path(base) if base else _home(env) / ".local" / "share") / "banquier"


def _home(env: Mapping[str, str]) -> Path:
    home = env.get("HOME", "").strip()
    return Path(home) if home else Path.home()


def user_config_path(env: Mapping[str, str]) -> Path:
    """``$XDG_CONFIG_HOME/banquier/config.toml``, else ``~/.config/banquier/config.toml``."""
    base = env.get("XDG_CONFIG_HOME", "").strip()
    return (Path(base) if base else _home(env) / ".config") / "banquier" / "config.toml"


def find_config(path: str | os.PathLike[str] | None = None, env: Mapping[str, str] = os.environ, *,
                root: str | os.PathLike[str] = "/") -> Path | None:
    """The configuration file to read (see the module docstring), or None for defaults only.

    Raises:
        ConfigFileError: ``path`` or ``$BANQUIER_CONFIG`` names a file that does not exist.
    """
    for explicit, origin in ((path, "--config"), (env.get("BANQUIER_CONFIG", "").strip() or None,
                                                   "BANQUIER_CONFIG")):
        if explicit is not None:
            try:
                chosen = Path(explicit).expanduser()
                is_file = chosen.is_file()
            except (OSError, RuntimeError) as exc:  # too long a name, a loop of links, ~nobody
                reason = getattr(exc, "strerror", None) or str(exc)
                raise ConfigFileError(f"{origin} names a file that cannot be used ({reason}): fix the path.",
                                      code="config_missing", params={"file": str(explicit)}) from exc
            if not is_file:
                raise ConfigFileError(f"{origin} names {chosen}, which is not a file: create it (copy "
                                      f"deploy/config.example.toml) or fix the path.",
                                      code="config_missing", params={"file": str(chosen)})
            return chosen
    for candidate in (user_config_path(env), Path(root) / SYSTEM_CONFIG.relative_to("/")):
        if candidate.is_file():
            return candidate
    return None


# -------------------------------------------------------------------------------------------- loading
#: ``fail(where, key, reason)``: the error naming the file (or variable), the key and the reason.
_Fail = Callable[[str, str, str], ConfigError]
#: ``resolve(where, key, value)``: a key checked by its own function (value None: the key is left out).
_Resolve = Callable[[str, str, Any], Any]
_Section = TypeVar("_Section", bound="DataclassInstance")


def load_config(path: str | os.PathLike[str] | None = None, env: Mapping[str, str] = os.environ, *,
                root: str | os.PathLike[str] = "/", on_device: bool | None = None) -> Config:
    """Find, read and check the configuration, then apply the environment overrides.

    - ``path``: an explicit file (``--config``); else see :func:`find_config`.
    - ``env``: the environment (overrides, locations); tests pass a dict.
    - ``root``: prefix for the system file and ``/proc/device-tree/model`` (tests use a temporary tree).
    - ``on_device``: whether this is a Raspberry Pi, for ``backend = "auto"`` (default: the device tree).

    Raises:
        ConfigError (ValueError): unknown key or bad value; the message names the file, key and reason.
        ConfigFileError (OSError): an explicit file that is missing, or a file that cannot be read.
    """
    source = find_config(path, env, root=root)
    raw: dict[str, Any] = {}
    if source is not None:
        try:
            text = read_input(source, limit=4 * MAX_CONFIG_CHARS).decode("utf-8")
        except OSError as exc:
            raise ConfigFileError(f"{source}: cannot read the configuration ({exc.strerror or exc}).",
                                  params={"file": str(source)}) from exc
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start}).",
                              params={"file": str(source), "key": "", "reason": "not UTF-8"}) from exc
        raw = _parse_toml(text, str(source))
    if on_device is None:
        on_device = hal_registry.is_raspberry_pi(str(Path(root) / "proc/device-tree/model")) or \
            hal_registry.is_raspberry_pi(str(Path(root) / "sys/firmware/devicetree/base/model"))
    return parse_config(raw, env, source=source, on_device=on_device)


MAX_CONFIG_CHARS = 1_000_000


def _parse_toml(text: str, origin: str) -> dict[str, Any]:
    if len(text) > MAX_CONFIG_CHARS:
        raise ConfigError(f"{origin}: too large for a configuration ({len(text)} characters, at most "
                          f"{MAX_CONFIG_CHARS}).", params={"file": origin, "key": "", "reason": "too large"})
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{origin}: not valid TOML ({exc}).",
                          params={"file": origin, "key": "", "reason": str(exc)}) from exc
    except (ValueError, RecursionError) as exc:  # a number of thousands of digits, arrays nested too deep
        reason = "a number too long or values nested too deep"
        raise ConfigError(f"{origin}: not valid TOML ({reason}).",
                          params={"file": origin, "key": "", "reason": reason}) from exc


def parse_config(raw: Mapping[str, Any] | str, env: Mapping[str, str] | None = None, *,
                 source: Path | None = None, on_device: bool = False) -> Config:
    """Check an already-read TOML table (or a TOML text) and build the :class:`Config`.

    ``env`` overrides as in :func:`load_config` (None: no overrides). Raises :class:`ConfigError`.
    """
    origin = str(source) if source is not None else "configuration"
    if isinstance(raw, str):
        raw = _parse_toml(raw, origin)
    env = {} if env is None else env
    overrides: dict[str, tuple[str, str]] = {}  # dotted key -> (variable, text)
    for variable, dotted in ENV_OVERRIDES.items():
        text = env.get(variable, "").strip()
        if text:
            overrides[dotted] = (variable, text)

    def fail(where: str, key: str, reason: str) -> ConfigError:
        return ConfigError(f"{where}: {key}: {reason}" if key else f"{where}: {reason}",
                           params={"file": where, "key": key, "reason": reason})

    def table(value: Any, key: str) -> dict[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise fail(origin, key, f"expected a table [{key}], found {_show(value)}")
        return value

    def section(cls: type[_Section], data: Any, prefix: str, children: Mapping[str, Any] = MappingProxyType({}),
                **resolved: _Resolve) -> _Section:
        data = table(data, prefix)
        known = {f.name: f for f in fields(cls) if "rule" in f.metadata}
        allowed = set(known) | set(children)
        for name in data:
            if name not in allowed:
                raise fail(origin, f"{prefix}.{name}", f"unknown key (known keys: {', '.join(sorted(allowed))})")
        values: dict[str, Any] = dict(children)
        for name, f in known.items():
            rule: _Rule = f.metadata["rule"]
            dotted = f"{prefix}.{name}"
            if rule.kind == "rules":
                continue
            where, present, value = origin, name in data, data.get(name)
            if dotted in overrides:
                where, text = overrides[dotted]
                try:
                    value, present = rule.from_text(text), True
                except ValueError as exc:
                    raise fail(where, dotted, str(exc)) from None
            if not present:
                continue
            if name in resolved:
                values[name] = resolved[name](where, dotted, value)
                continue
            try:
                values[name] = rule.check(value)
            except ValueError as exc:
                raise fail(where, dotted, str(exc)) from None
        for name, resolve in resolved.items():
            if name not in values:
                values[name] = resolve(origin, f"{prefix}.{name}", None)
        return cls(**values)

    def backend(kind: str) -> _Resolve:
        def resolve(where: str, key: str, value: Any) -> str:
            if value is None or value == "auto":
                return hal_registry.resolve_name(kind, None, env={}, on_device=on_device)
            names = hal_registry.backends(kind)
            if not isinstance(value, str) or value not in names:
                raise fail(where, key, f"{_show(value)} is not a {kind} backend; use \"auto\" or one of "
                                       f"{', '.join(json.dumps(n) for n in names)}")
            return value
        return resolve

    top = table(dict(raw), "")
    sections = ("hardware", "display", "game", "storage", "logging", "phone")
    for name in top:
        if name not in sections:
            raise fail(origin, name, f"unknown section or key (known sections: {', '.join(sections)})")
    hw = table(top.get("hardware"), "hardware")
    for name in hw:
        if name not in ("reader", "beeper", "buttons"):
            raise fail(origin, f"hardware.{name}", "unknown key (known tables: reader, beeper, buttons)")
    reader = _reader_section(table(hw.get("reader"), "hardware.reader"), origin, overrides, fail,
                             backend("reader"))
    beeper = section(BeeperSettings, hw.get("beeper"), "hardware.beeper", backend=backend("beeper"))
    buttons = section(ButtonsSettings, hw.get("buttons"), "hardware.buttons", backend=backend("buttons"))
    hardware = HardwareSettings(reader, beeper, buttons)
    _check_hardware(hardware, origin, fail)

    display = section(DisplaySettings, top.get("display"), "display")

    game_raw = table(top.get("game"), "game")
    timeouts = section(TimeoutSettings, game_raw.get("timeouts"), "game.timeouts")
    rules = _check_rules(table(game_raw.get("rules"), "game.rules"), origin, fail)

    def edition(where: str, key: str, value: Any) -> str:
        if value is None:
            value = "fr"
        shipped = available_editions()
        if not isinstance(value, str) or value not in shipped:
            raise fail(where, key, f"{_show(value)} is not a shipped edition; use one of "
                                   f"{', '.join(json.dumps(n) for n in shipped)}")
        return value

    game = section(GameSettings, game_raw, "game", {"timeouts": timeouts, "rules": rules}, edition=edition)
    if game.timeouts.long_timeout_s < game.timeouts.timeout_s:
        raise fail(origin, "game.timeouts.long_timeout_s",
                   f"{game.timeouts.long_timeout_s:g} is shorter than timeout_s ({game.timeouts.timeout_s:g})")

    def data_dir(where: str, key: str, value: Any) -> Path:
        if value is None:
            return default_data_dir(env)
        try:
            path: Path = _Rule("path").check(value)
        except ValueError as exc:
            raise fail(where, key, str(exc)) from None
        return path

    storage = section(StorageSettings, top.get("storage"), "storage", data_dir=data_dir)
    logging = section(LoggingSettings, _lower_level(top.get("logging"), overrides), "logging")
    phone = section(PhoneSettings, top.get("phone"), "phone")
    return Config(hardware, display, game, storage, logging, phone, source=source)


def _reader_section(data: dict[str, Any], origin: str, overrides: dict[str, tuple[str, str]], fail: _Fail,
                    resolve_backend: _Resolve) -> ReaderSettings:
    """``[hardware.reader]``: the backend, then every declared option key checked by its backend's rule, then
    the chosen backend's own cross-key check."""
    prefix = "hardware.reader"

    def given(name: str, rule: _Rule) -> tuple[str, bool, Any]:
        dotted = f"{prefix}.{name}"
        if dotted in overrides:
            where, text = overrides[dotted]
            try:
                return where, True, rule.from_text(text)
            except ValueError as exc:
                raise fail(where, dotted, str(exc)) from None
        return origin, name in data, data.get(name)

    where, present, value = given("backend", _Rule("str"))
    name = resolve_backend(where, f"{prefix}.backend", value if present else None)
    keys = _reader_keys(name)
    for key in data:
        if key != "backend" and key not in keys:
            raise fail(origin, f"{prefix}.{key}",
                       f"unknown key (known keys: {', '.join(sorted({'backend', *keys}))})")
    values: dict[str, Any] = {}
    for key, option in keys.items():
        rule = _option_rule(option)
        where, present, value = given(key, rule)
        if not present:
            values[key] = option.default
            continue
        try:
            values[key] = rule.check(value)
        except ValueError as exc:
            raise fail(where, f"{prefix}.{key}", str(exc)) from None
    problem = hal_registry.reader_backends()[name].check(values)
    if problem is not None:
        raise fail(origin, *problem)
    return ReaderSettings(name, MappingProxyType(values))


def _lower_level(data: Any, overrides: dict[str, tuple[str, str]]) -> Any:
    """Log levels are case-insensitive ("INFO" is "info")."""
    if "logging.level" in overrides:
        variable, text = overrides["logging.level"]
        overrides["logging.level"] = (variable, text.lower())
    if isinstance(data, dict) and isinstance(data.get("level"), str):
        return {**data, "level": data["level"].lower()}
    return data


def _check_rules(data: dict[str, Any], origin: str, fail: _Fail) -> Mapping[str, bool | str]:
    rules: dict[str, bool | str] = {}
    for name, value in data.items():
        if name not in RULE_FLAGS:
            raise fail(origin, f"game.rules.{name}", f"unknown rule flag (known: {', '.join(RULE_FLAGS)})")
        allowed = RULE_FLAGS[name]
        if value not in allowed or type(value) is not type(allowed[0]):
            raise fail(origin, f"game.rules.{name}",
                       f"{_show(value)} is not one of {', '.join(_show(v) for v in allowed)}")
        rules[name] = value
    return MappingProxyType(rules)


def _check_hardware(hw: HardwareSettings, origin: str, fail: _Fail) -> None:
    """Cross-key checks: no header pin is used twice (the reader's pins as its backend declares them)."""
    reader, beeper, buttons = hw.reader, hw.beeper, hw.buttons
    used: dict[int, str] = {}

    def take(pin: int, key: str) -> None:
        if pin in used:
            raise fail(origin, key if key.startswith("hardware.") else "hardware.reader",
                       f"header pin {pin} is already used by {used[pin]}; choose another pin")
        used[pin] = key

    for pin, what in reader.declaration.pins(reader.options):
        take(pin, what)
    if beeper.backend == "gpio":
        take(beeper.pin, "hardware.beeper.pin")
    if buttons.backend == "gpio":
        if not buttons.pins():
            raise fail(origin, "hardware.buttons", "the gpio backend needs at least one button pin "
                                                  "(e.g. confirm = 16), or use backend = \"none\"")
        for name, pin in buttons.pins().items():
            take(pin, f"hardware.buttons.{name}")

