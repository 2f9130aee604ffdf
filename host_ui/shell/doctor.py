"""``banquier doctor``: checks the machine against the configuration and says, one line each, what is
wrong and how to fix it (field-notes.md gives the faults behind each check).

:func:`run_checks` returns a list of :class:`Check` (``ok`` | ``warn`` | ``fail``), in this order:
the configuration in use; the chosen reader backend's own lines, from the probe it declares
(``hal.backends``: for an MFRC522, SPI enabled and ``/dev/spidev*`` usable, then the chip answering its version
register; for a serial reader, its port; for a USB keyboard reader, its input device and the ``input``
group...); the GPIO library for this Pi model (RPi.GPIO, or rpi-lgpio on a Pi 5); the
user's groups (spi, gpio, input, dialout, video as the configuration needs them); whether the installed
service's device rules (``DevicePolicy=``, ``DeviceAllow=``) let it open those devices; the display driver
(kmsdrm or an SPI panel's framebuffer on the device; a desktop under a window); the touch device; the data
directory (writable, not on a volatile or read-only filesystem); the shipped editions' texts in every screen
language (one line per edition with gaps, whose texts the screen shows in the edition's own language); the
device key; and the integrity of every game under the data directory (``PRAGMA integrity_check`` and a full
audit with :meth:`terminal.Game.open`, both on a snapshot, so a game in use by the running terminal is never
written); and, from the command, the phone page (switched on or off, its links, its answer on loopback).

Every path the checks read (``/dev``, ``/proc``, ``/sys``, ``/etc/passwd``, ``/etc/group``) is taken
under ``root``, and the facts that cannot be faked with files (permissions, installed Python packages,
SDL's video drivers, the reader) come from injectable callables, so the tests run against a fake tree.
The data directory and key file are used as configured (not under ``root``).

The reader check opens the reader: on a device, stop the service first (``sudo systemctl stop
banquier``) or pass ``probe_hardware=False``.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import importlib.metadata
import importlib.util
import os
import pwd
import re
import shutil
import sqlite3
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hal
from cards.editions import LANGUAGES, available_editions, describe_missing, load_edition
from cards.errors import CardsError
from host_ui.shell.config import Config
from host_ui.shell.outputs import is_sqlite
from host_ui.shell.sandbox import needed_devices, read_proc_devices, read_unit_devices
from terminal.bank.game import Game
from terminal.bank.ledger.files import private_copy
from terminal.errors import AuditFailed, GameError, one_line
from terminal.table.i18n import MissingCatalog, check_catalogs

__all__ = ["Check", "run_checks", "format_checks", "worst", "read_model", "is_pi5", "installed_version",
           "module_found", "sdl_video_drivers", "STATUSES"]

STATUSES = ("ok", "warn", "fail")
VOLATILE_FILESYSTEMS = {"tmpfs", "ramfs", "overlay", "overlayfs", "zram", "squashfs"}
DESKTOP_PROCESSES = {"Xorg", "Xwayland", "wayfire", "labwc", "weston", "lightdm", "gdm", "sddm", "mutter",
                     "kwin_wayland", "sway"}
TOUCH_WORDS = ("touch", "ft5406", "ft5x06", "goodix", "ads7846", "xpt2046", "ili210", "egalax", "raspberrypi-ts")
MIN_FREE_BYTES = 50 * 1024 * 1024
KEY_BYTES = 32


@dataclass(frozen=True)
class Check:
    """One finding: ``name`` (short id), ``status`` ok | warn | fail, ``what`` (one line: what was found)
    and ``fix`` (one line: what to do; empty when nothing needs doing)."""

    name: str
    status: str
    what: str
    fix: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status {self.status!r}: use one of {', '.join(STATUSES)}")
        if "\n" in self.what or "\n" in self.fix:
            raise ValueError("a check's what and fix are one line each")


def worst(checks: Iterable[Check]) -> str:
    """The worst status among ``checks`` (``ok`` for none)."""
    return max((c.status for c in checks), key=STATUSES.index, default="ok")


def format_checks(checks: Iterable[Check]) -> str:
    """Lines for a person: ``ok   name  what`` and, under a warn or fail, ``fix: ...``."""
    out = []
    for check in checks:
        out.append(f"{check.status.upper() if check.status != 'ok' else 'ok':<5} {check.name:<10} {check.what}")
        if check.fix:
            out.append(f"{'':16} fix: {check.fix}")
    return "\n".join(out)


# ------------------------------------------------------------------------------------ machine facts
def read_model(root: str | os.PathLike[str] = "/") -> str | None:
    """The device-tree model ("Raspberry Pi 4 Model B Rev 1.5"), or None (not a device-tree machine)."""
    for relative in ("proc/device-tree/model", "sys/firmware/devicetree/base/model"):
        try:
            text = (Path(root) / relative).read_bytes().decode("ascii", "replace").strip("\0 \n")
        except OSError:
            continue
        if text:
            return text
    return None


def is_pi5(model: str | None) -> bool:
    """A Raspberry Pi whose GPIO sits behind the RP1 chip (Pi 5, Pi 500, CM5): RPi.GPIO cannot drive it."""
    return bool(model and re.search(r"Raspberry Pi (5|500|Compute Module 5)\b", model))


def installed_version(distribution: str) -> str | None:
    """Version of an installed Python distribution (``"rpi-lgpio"``), or None."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def module_found(name: str) -> bool:
    """Whether ``import name`` would find the module, without running it (RPi.GPIO raises on import
    on the wrong machine)."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def sdl_video_drivers() -> list[str] | None:
    """The video drivers compiled into the SDL that pygame uses, or None if that cannot be told.

    Reads SDL's own list (``SDL_GetVideoDriver``) without importing pygame or opening a display: the SDL
    bundled in a PyPI wheel (``pygame.libs``) if there is one, else the system's libSDL2.
    """
    spec = importlib.util.find_spec("pygame")
    if spec is None or not spec.submodule_search_locations:
        return None
    package = Path(next(iter(spec.submodule_search_locations)))
    bundled = sorted(package.parent.glob("pygame.libs/libSDL2-2*.so*"))
    library = str(bundled[0]) if bundled else (ctypes.util.find_library("SDL2-2.0")
                                               or ctypes.util.find_library("SDL2"))
    if not library:
        return None
    try:
        sdl = ctypes.CDLL(library)
        sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
        return [sdl.SDL_GetVideoDriver(i).decode() for i in range(sdl.SDL_GetNumVideoDrivers())]
    except (OSError, AttributeError):
        return None


def _permitted(st: os.stat_result, uid: int, gids: set[int], want: int) -> bool:
    """Unix permission bits for a user who is not this process (ACLs are not considered)."""
    if uid == 0:
        return True
    if st.st_uid == uid:
        bits = (st.st_mode >> 6) & 7
    elif st.st_gid in gids:
        bits = (st.st_mode >> 3) & 7
    else:
        bits = st.st_mode & 7
    need = (4 if want & os.R_OK else 0) | (2 if want & os.W_OK else 0) | (1 if want & os.X_OK else 0)
    return bits & need == need


@dataclass(frozen=True)
class _User:
    name: str
    uid: int
    gid: int
    groups: frozenset[str]  # names, from the group file (primary group included)
    gids: frozenset[int]
    current: bool


def _read_table(path: Path) -> list[list[str]]:
    try:
        return [line.split(":") for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
                if line and not line.startswith("#")]
    except OSError:
        return []


def _current_user_name(env: Mapping[str, str]) -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return env.get("USER", "") or str(os.geteuid())


class _Context:
    """What the checks read: the fake or real root, the user, and the injected probes."""

    def __init__(self, config: Config, root: Path, env: Mapping[str, str], user: str | None,
                 access: Callable[[Path, int], bool] | None, installed: Callable[[str], str | None],
                 found: Callable[[str], bool], video_drivers: Callable[[], list[str] | None],
                 load_reader: Callable[..., Any] | None, process_gids: Iterable[int] | None,
                 disk_free: Callable[[Path], int], probe_hardware: bool,
                 device_number: Callable[[Path], tuple[int, int] | None]):
        self.config, self.root, self.env = config, root, env
        self.device_number = device_number
        self.installed, self.found, self.video_drivers = installed, found, video_drivers
        self.load_reader, self.disk_free, self.probe_hardware = load_reader, disk_free, probe_hardware
        passwd = {row[0]: row for row in _read_table(root / "etc/passwd") if len(row) >= 4}
        group_rows = [row for row in _read_table(root / "etc/group") if len(row) >= 3]
        self.group_ids = {row[0]: int(row[2]) for row in group_rows if row[2].isdigit()}
        current = _current_user_name(env)
        name = user or ("banquier" if "banquier" in passwd else current)
        row = passwd.get(name)
        uid = int(row[2]) if row and row[2].isdigit() else (os.geteuid() if name == current else -1)
        gid = int(row[3]) if row and row[3].isdigit() else (os.getegid() if name == current else -1)
        groups = {g[0] for g in group_rows if len(g) > 3 and name in g[3].split(",")}
        groups |= {g for g, i in self.group_ids.items() if i == gid}
        self.user = _User(name, uid, gid, frozenset(groups),
                          frozenset(self.group_ids[g] for g in groups if g in self.group_ids) | {gid},
                          current=(name == current))
        self.process_gids = set(process_gids) if process_gids is not None else (
            set(os.getgroups()) | {os.getegid()} if self.user.current else None)
        self._access = access

    def path(self, absolute: str | Path) -> Path:
        """An absolute system path under ``root``."""
        return self.root / str(absolute).lstrip("/")

    def can(self, path: Path, want: int) -> bool:
        """Whether the checked user may use ``path`` (``os.R_OK | os.W_OK``...)."""
        if self._access is not None:
            return self._access(path, want)
        if self.user.current:
            return os.access(path, want)
        try:
            return _permitted(path.stat(), self.user.uid, set(self.user.gids), want)
        except OSError:
            return False

    def group_of(self, path: Path) -> str | None:
        try:
            gid = path.stat().st_gid
        except OSError:
            return None
        return next((name for name, i in self.group_ids.items() if i == gid), None)

    @property
    def pip(self) -> str:
        prefix = "" if os.access(sys.prefix, os.W_OK) else "sudo "
        return f"{prefix}{sys.executable} -m pip"

    # -- hal.backends.ProbeHost: what a reader backend's probe reads ------------------------------------
    @property
    def user_name(self) -> str:
        return self.user.name

    def shown(self, path: Path) -> str:
        return "/" + str(path.relative_to(self.root)) if path.is_relative_to(self.root) else str(path)

    def usable(self, path: Path) -> bool:
        return self.can(path, os.R_OK | os.W_OK)

    def access_fix(self, path: Path, usual: str) -> str:
        return _access_fix(self, path, usual)

    def model(self) -> str | None:
        return read_model(self.root)

    def boot_setting(self, pattern: str) -> tuple[str, str, bool] | None:
        return config_txt_setting(self.root, pattern, read_model(self.root))

    def boot_file(self) -> str | None:
        where = config_txt(self.root)
        return self.shown(where) if where is not None else None

    def open_reader(self, name: str, **options: Any) -> Any:
        load = self.load_reader if self.load_reader is not None else hal.load_reader
        return load(name, env={}, **options)


# ------------------------------------------------------------------------ devices, config.txt, reboot
#: Groups no fix ever asks to join: membership gives far more than one device.
PRIVILEGED_GROUPS = frozenset({"root", "sudo", "admin", "wheel", "adm", "disk", "kmem", "shadow", "staff", "tty",
                               "systemd-journal"})
#: udev matches that give a device class to its usual group.
UDEV_MATCHES = {"spi": 'SUBSYSTEM=="spidev"', "gpio": 'SUBSYSTEM=="gpio"', "gpiomem": 'KERNEL=="gpiomem*"',
                "video": 'SUBSYSTEM=="drm"', "fb": 'SUBSYSTEM=="graphics"', "input": 'SUBSYSTEM=="input"',
                "dialout": 'SUBSYSTEM=="tty"'}


def _access_fix(ctx: _Context, node: Path, usual: str, kind: str | None = None) -> str:
    """The fix for a user who may not use ``node``: join the device's group, unless that group is root (or
    another privileged one) or unnamed: then a udev rule gives the device to ``usual`` first."""
    group = ctx.group_of(node)
    user = ctx.user.name
    shown = "/" + str(node.relative_to(ctx.root)) if node.is_relative_to(ctx.root) else str(node)
    try:
        info = node.stat()
        by_permissions = _permitted(info, ctx.user.uid, set(ctx.user.gids), os.R_OK | os.W_OK)
    except OSError:
        by_permissions = False
    if by_permissions:
        if ctx.user.current and ctx.process_gids is not None and info.st_uid != ctx.user.uid \
                and info.st_gid not in ctx.process_gids:
            return (f"{user} joined the group {group or info.st_gid} after this session began: log out and in "
                    f"again (the service gets it at its next start)")
        return (f"its permissions let {user} use {shown}, but opening it is refused: a device policy (the "
                f"service's DeviceAllow=, see the service line) or a security module refuses it: see "
                f"journalctl -b | grep -i {shown.rsplit('/', 1)[-1]}, and please report it")
    if group is not None and group not in PRIVILEGED_GROUPS:
        return f"sudo usermod -aG {group} {user}, then log in again (or reboot)"
    rule = f'{UDEV_MATCHES[kind or usual]}, GROUP="{usual}", MODE="0660"'
    join = "" if usual in ctx.user.groups else f"; sudo usermod -aG {usual} {user}"
    return (f"{shown} belongs to group {group or 'unknown'}, which no service should join: give it to {usual} "
            f"with a udev rule: echo '{rule}' | sudo tee /etc/udev/rules.d/60-banquier-{kind or usual}.rules; "
            f"sudo udevadm trigger{join}")


CONFIG_TXT_PLACES = ("boot/firmware/config.txt", "boot/config.txt")
_SECTION_MODELS = {"pi1": r"Raspberry Pi (Model )?[AB]( Plus)? Rev", "pi2": r"Raspberry Pi 2", "pi3": r"Raspberry Pi 3",
                   "pi3+": r"Raspberry Pi 3 Model [AB] Plus", "pi4": r"Raspberry Pi 4", "pi400": r"Raspberry Pi 400",
                   "pi5": r"Raspberry Pi 5", "pi500": r"Raspberry Pi 500", "cm4": r"Compute Module 4",
                   "cm5": r"Compute Module 5", "pi0": r"Raspberry Pi Zero", "pi0w": r"Raspberry Pi Zero W",
                   "pi02": r"Raspberry Pi Zero 2"}


def config_txt(root: Path) -> Path | None:
    """The firmware's config.txt under ``root`` (Bookworm's /boot/firmware, or the older /boot), or None."""
    return next((root / p for p in CONFIG_TXT_PLACES if (root / p).is_file()), None)


def config_txt_setting(root: Path, pattern: str, model: str | None) -> tuple[str, str, bool] | None:
    """The first active line of config.txt matching ``pattern`` (a regular expression from the line's start):
    ``(line, section, applies)``, where ``applies`` says whether its section (``[all]``, ``[pi4]``...)
    covers ``model``; None when no active line matches (commented lines do not count)."""
    path = config_txt(root)
    if path is None:
        return None
    section = "all"
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip().lower()
            continue
        if line and re.match(pattern, line):
            wanted = _SECTION_MODELS.get(section)
            applies = section == "all" or (wanted is not None and bool(model and re.search(wanted, model)))
            return line, section, applies
    return None


def _boot_id(root: Path) -> str | None:
    try:
        return (root / "proc/sys/kernel/random/boot_id").read_text(encoding="ascii").strip() or None
    except OSError:
        return None


REBOOT_STAMP = "var/lib/banquier/.reboot-pending"


def _check_reboot(ctx: _Context) -> Check | None:
    """A reboot that deploy/install.sh asked for and that has not happened yet (same boot id): a warning on
    every run until it happened; nothing otherwise."""
    try:
        asked = ctx.path("/" + REBOOT_STAMP).read_text(encoding="ascii").strip()
    except OSError:
        return None
    now = _boot_id(ctx.root)
    if not asked or now is None or asked != now:
        return None
    return Check("reboot", "warn", "install.sh enabled SPI in config.txt, and the Pi has not rebooted since: "
                                   "SPI and the reader do not work until it does", "sudo reboot")


# ----------------------------------------------------------------------------------------- checks
def _check_texts() -> Check:
    """The screen's text catalogs (one compiled gettext catalog per language) are installed."""
    try:
        check_catalogs()
    except MissingCatalog as exc:
        return Check("texts", "fail", str(exc), "reinstall Banquier (deploy/install.sh), or run ./dev.sh i18n in a "
                                                  "checkout")
    return Check("texts", "ok", f"the screen's texts: {', '.join(LANGUAGES)} catalogs")


def _check_config(ctx: _Context) -> Check:
    c = ctx.config
    where = str(c.source) if c.source else "defaults (no configuration file)"
    return Check("config", "ok", f"configuration: {where}; reader {c.reader.backend}, beeper {c.beeper.backend}, "
                                 f"buttons {c.buttons.backend}, display {c.display.output}")


def _check_editions() -> list[Check]:
    """One line for the shipped editions when they carry every text in every screen language, else one line
    per edition with gaps (or that fails to load)."""
    checks = []
    names = available_editions()
    for name in names:
        try:
            gaps = describe_missing(load_edition(name))
        except CardsError as exc:
            checks.append(Check("editions", "fail", f"edition {name} does not load: {exc}",
                                "restore the edition file from the release (docs/editions.md)"))
            continue
        if gaps:
            checks.append(Check("editions", "warn", f"edition {name} lacks texts in {gaps}",
                                "add them to its file (docs/editions.md); until then the screen shows them "
                                "in the edition's own language"))
    if not checks:
        checks.append(Check("editions", "ok", f"editions {', '.join(names)}: every text in "
                                              f"{', '.join(LANGUAGES)}"))
    return checks


def _check_reader_backend(ctx: _Context) -> list[Check]:
    """The chosen reader backend's own lines (its declared probe, ``hal.backends``): e.g. ``spi`` and
    ``reader`` for an MFRC522, ``serial`` for a serial reader."""
    reader = ctx.config.reader
    declaration = reader.declaration
    if declaration.probe is None:
        return []
    try:
        findings = declaration.probe(ctx, reader.options)
    except Exception as exc:  # a probe must not stop the other checks
        return [Check("reader", "fail", f"the {reader.backend} reader's check failed: {type(exc).__name__}: {exc}",
                      "please report it")]
    return [Check(f.name, f.status, f.what, f.fix) for f in findings]


def _uses_gpio(config: Config) -> bool:
    return config.reader.declaration.gpio or config.beeper.backend == "gpio" or config.buttons.backend == "gpio"


def _check_gpio(ctx: _Context) -> Check:
    model = read_model(ctx.root)
    if not _uses_gpio(ctx.config):
        return Check("gpio", "ok", f"GPIO is not used by this configuration ({model or 'not a Raspberry Pi'})")
    if not model or "Raspberry Pi" not in model:
        return Check("gpio", "fail", "the configuration uses GPIO/SPI hardware but this is not a Raspberry Pi",
                     "on a PC use the simulator: backend = \"sim\" (or BANQUIER_READER=sim BANQUIER_BEEPER=sim "
                     "BANQUIER_BUTTONS=sim)")
    rpi_gpio, lgpio_shim, lgpio = (ctx.installed("RPi.GPIO"), ctx.installed("rpi-lgpio"), ctx.installed("lgpio"))
    if is_pi5(model):
        if rpi_gpio:
            return Check("gpio", "fail", f"RPi.GPIO {rpi_gpio} is installed: it cannot drive a {model}",
                         f"{ctx.pip} uninstall -y RPi.GPIO && {ctx.pip} install rpi-lgpio")
        if not lgpio_shim:
            return Check("gpio", "fail", f"no GPIO library: a {model} needs rpi-lgpio",
                         f"{ctx.pip} install rpi-lgpio")
        if not lgpio and not ctx.found("lgpio"):
            return Check("gpio", "fail", f"rpi-lgpio {lgpio_shim} is installed but its lgpio library is not",
                         "sudo apt install python3-lgpio")
        chosen = f"rpi-lgpio {lgpio_shim}"
    else:
        if not (rpi_gpio or lgpio_shim):
            return Check("gpio", "fail", f"no GPIO library for the {model}", f"{ctx.pip} install RPi.GPIO")
        chosen = f"RPi.GPIO {rpi_gpio}" if rpi_gpio else f"rpi-lgpio {lgpio_shim}"
    if not ctx.found("RPi.GPIO"):
        return Check("gpio", "fail", f"{chosen} is listed as installed but RPi.GPIO cannot be imported",
                     f"{ctx.pip} install --force-reinstall {chosen.split()[0]}")
    problem = _gpio_device_problem(ctx, chosen, model)
    if problem is not None:
        return problem
    return Check("gpio", "ok", f"{chosen} for the {model}")


def _gpio_device_problem(ctx: _Context, chosen: str, model: str) -> Check | None:
    """Try the device the GPIO library will open: /dev/gpiomem for RPi.GPIO, /dev/gpiochip4 (else
    /dev/gpiochip0) for rpi-lgpio. None when it can be used."""
    if chosen.startswith("RPi.GPIO"):
        node, kind = ctx.path("/dev/gpiomem"), "gpiomem"
        if not node.exists():
            if not any(ctx.path("/dev").glob("gpiochip*")):
                return Check("gpio", "fail", f"no GPIO device at all (no /dev/gpiomem, no /dev/gpiochip*) on this "
                                             f"{model}: the kernel's GPIO driver is not loaded",
                             "sudo reboot; if it persists: dmesg | grep -i gpio")
            # deploy/install.sh chooses rpi-lgpio on such a kernel by itself, and keeps it on later runs (a pip
            # command here would be undone by the next install).
            return Check("gpio", "fail", f"no /dev/gpiomem: this kernel (not Raspberry Pi's) has no gpiomem "
                                         f"driver, so RPi.GPIO cannot drive the pins of this {model}",
                         "run sudo deploy/install.sh again: on a kernel without /dev/gpiomem it installs "
                         "rpi-lgpio, which drives the pins through /dev/gpiochip0 (or use Raspberry Pi OS)")
    else:
        chips = [ctx.path(f"/dev/gpiochip{n}") for n in (4, 0)]
        node, kind = next((c for c in chips if c.exists()), chips[-1]), "gpio"
        if not node.exists():
            return Check("gpio", "fail", f"no /dev/gpiochip0: {chosen} cannot drive the pins of this {model}",
                         "update the kernel (sudo apt full-upgrade), then sudo reboot")
    shown = "/" + str(node.relative_to(ctx.root))
    if ctx._access is None and ctx.user.current:
        try:  # the very open the library will do
            os.close(os.open(node, os.O_RDWR | os.O_CLOEXEC))
            return None
        except OSError as exc:
            if not isinstance(exc, PermissionError):
                return Check("gpio", "fail", f"{shown} cannot be opened: {exc.strerror or exc}",
                             "sudo reboot; if it persists: dmesg | grep -i gpio")
    elif ctx.can(node, os.R_OK | os.W_OK):
        return None
    group = ctx.group_of(node) or "unknown"
    return Check("gpio", "fail", f"{chosen} is installed, but {ctx.user.name} may not use {shown} (group {group})",
                 _access_fix(ctx, node, "gpio", kind))


def character_device_number(path: Path) -> tuple[int, int] | None:
    """``(major, minor)`` of the character device at ``path`` (links followed), or None (missing, not one)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (os.major(st.st_rdev), os.minor(st.st_rdev)) if stat.S_ISCHR(st.st_mode) else None


def _check_service(ctx: _Context) -> Check | None:
    """Whether the installed unit's device rules (DevicePolicy=, DeviceAllow=, its drop-ins) let the terminal
    open every device its configured parts need, decided as systemd does from the classes in /proc/devices
    (:mod:`host_ui.shell.sandbox`); None when no unit is installed. A device that is missing is left to its
    part's own line."""
    rules = read_unit_devices(ctx.root)
    if rules is None:
        return None
    unit = "/" + str(rules.files[0].relative_to(ctx.root))
    if not rules.restricted:
        return Check("service", "ok", f"{unit} does not limit the devices the terminal opens")
    try:
        classes = read_proc_devices((ctx.root / "proc/devices").read_text(encoding="utf-8", errors="replace"))
    except OSError:
        classes = {}
    number_of = {spec: number for spec, _ in rules.allow
                 if spec.startswith("/dev/") and not spec.startswith("/dev/char/")
                 and (number := ctx.device_number(ctx.path(spec))) is not None}
    lgpio = bool(ctx.installed("rpi-lgpio")) and not ctx.installed("RPi.GPIO")
    allowed, refused = [], []
    for what, path in needed_devices(ctx.config, root=ctx.root, model=read_model(ctx.root), lgpio=lgpio):
        node = ctx.path(path)
        number = ctx.device_number(node)
        if number is None:
            continue
        real = "/" + str(node.resolve().relative_to(ctx.root.resolve())) if node.is_symlink() else path
        if rules.allows(real, *number, classes, number_of=number_of):
            allowed.append(path)
        else:
            refused.append((what, path, classes.get(number[0], [f"major {number[0]}"])[0]))
    if refused:
        what, path, name = refused[0]
        others = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
        return Check("service", "fail", f"{unit} (DevicePolicy={rules.policy}) does not let the terminal open "
                                        f"{path}, {what} (class {name!r} in /proc/devices){others}: it fails in "
                                        f"the service even though it works here",
                     f"sudo systemctl edit banquier, add the two lines [Service] and DeviceAllow=char-{name} rw, "
                     f"then sudo systemctl restart banquier (and please report it)")
    if not allowed:
        return Check("service", "ok", f"{unit}: none of the devices of the configured parts is here to check")
    return Check("service", "ok", f"{unit} lets the terminal open {', '.join(allowed)}")


def _needed_groups(config: Config) -> dict[str, list[str]]:
    """``{group: [what needs it]}`` for the devices this configuration uses."""
    needed: dict[str, list[str]] = {}

    def need(group: str, why: str) -> None:
        needed.setdefault(group, []).append(why)

    for group, why in config.reader.declaration.needed_groups(config.reader.options):
        need(group, why)
    if config.beeper.backend == "gpio":
        need("gpio", "the beeper")
    if config.buttons.backend == "gpio":
        need("gpio", "the buttons")
    if config.display.output in ("kmsdrm", "framebuffer"):
        need("video", f"the display ({config.display.output})")
    if config.display.output in ("kmsdrm", "framebuffer") or config.display.touch_device is not None:
        need("input", "the touchscreen")
    return needed


def _check_groups(ctx: _Context) -> Check:
    needed = _needed_groups(ctx.config)
    user = ctx.user
    if not needed:
        return Check("groups", "ok", "no hardware groups are needed by this configuration")
    if user.uid == 0:
        return Check("groups", "ok", f"{user.name} may use every device")
    missing = [g for g in needed if g not in user.groups]
    if missing:
        absent = [g for g in missing if g not in ctx.group_ids]
        what = (f"{user.name} is not in the group{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                f"(for {', '.join(w for g in missing for w in needed[g])})")
        if absent:
            what += f"; no group {', '.join(absent)} exists on this system"
        fix = (f"sudo groupadd --system {' '.join(absent)}; " if absent else "") + (
            f"sudo usermod -aG {','.join(missing)} {user.name}, then log in again (the service gets them at its "
            f"next start)")
        if absent:
            fix = f"is this Raspberry Pi OS? run deploy/install.sh, or: {fix}"
        return Check("groups", "fail", what, fix)
    if user.current and ctx.process_gids is not None:
        stale = [g for g in needed if ctx.group_ids.get(g) not in ctx.process_gids]
        if stale:
            return Check("groups", "warn", f"{user.name} was added to {', '.join(stale)} after this session began",
                         "log out and in again (or reboot) for the new groups to apply")
    return Check("groups", "ok", f"{user.name} is in {', '.join(sorted(needed))}")


def _desktop_processes(root: Path) -> list[str]:
    found = set()
    for comm in root.glob("proc/[0-9]*/comm"):
        try:
            name = comm.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            continue
        if name in DESKTOP_PROCESSES:
            found.add(name)
    return sorted(found)


def _check_display(ctx: _Context) -> Check:
    display, env = ctx.config.display, ctx.env
    driver = env.get("SDL_VIDEODRIVER", "").strip().lower()  # SDL reads the name case-insensitively
    under_systemd = bool(env.get("INVOCATION_ID") or env.get("JOURNAL_STREAM"))
    if display.output == "window":
        if driver in ("dummy", "offscreen"):
            return Check("display", "warn", f"SDL_VIDEODRIVER={driver}: nothing will be shown",
                         "unset SDL_VIDEODRIVER to see the window")
        desktop = env.get("WAYLAND_DISPLAY") or env.get("DISPLAY")
        if desktop:
            return Check("display", "ok", f"window output on the desktop ({desktop})")
        if under_systemd:
            return Check("display", "fail", "output = \"window\" under systemd, where there is no DISPLAY",
                         "set output = \"kmsdrm\" in [display] (full screen on the console)")
        return Check("display", "warn", "no desktop session (DISPLAY and WAYLAND_DISPLAY are unset): the window "
                                        "cannot open", "run from the desktop, or set output = \"kmsdrm\" "
                                                       "in [display] on the device")
    if display.output == "framebuffer":
        fb = display.fb_device or Path("/dev/fb1")
        node = ctx.path(fb)
        if not node.exists():
            return Check("display", "fail", f"the framebuffer {fb} does not exist: the SPI panel's driver is not "
                                            f"loaded", "add the panel's dtoverlay to /boot/firmware/config.txt "
                                                       "and reboot, or set fb_device in [display]")
        if not ctx.can(node, os.R_OK | os.W_OK):
            group = ctx.group_of(node) or "unknown"
            return Check("display", "fail", f"{ctx.user.name} may not write {fb} (group {group})",
                         _access_fix(ctx, node, "video", "fb"))
        return Check("display", "ok", f"framebuffer output to {fb}")
    if driver and driver != "kmsdrm":
        return Check("display", "fail", f"SDL_VIDEODRIVER={driver}, but output = \"kmsdrm\" needs kmsdrm",
                     "set SDL_VIDEODRIVER=kmsdrm (the service does) or unset it")
    cards = [c for c in sorted(ctx.path("/dev/dri").glob("card*")) if c.exists()]
    if not cards:
        overlay = config_txt_setting(ctx.root, r"dtoverlay=vc4-f?kms-v3d\b", read_model(ctx.root))
        if overlay and overlay[2]:
            return Check("display", "fail", f"no DRM display device (/dev/dri/card*), although config.txt has "
                                            f"{overlay[0]}",
                         "sudo reboot if it was added since the last boot; otherwise the driver failed to load: "
                         "dmesg | grep -i vc4")
        if overlay:
            return Check("display", "fail", f"no DRM display device (/dev/dri/card*): {overlay[0]} in config.txt "
                                            f"is under [{overlay[1]}], which does not apply to this Pi",
                         f"move {overlay[0]} under an [all] line at the end of config.txt, then sudo reboot")
        return Check("display", "fail", "no DRM display device (/dev/dri/card*): the KMS driver is not loaded",
                     "add dtoverlay=vc4-kms-v3d to /boot/firmware/config.txt, then sudo reboot")
    usable = [c for c in cards if ctx.can(c, os.R_OK | os.W_OK)]
    shown = ", ".join("/" + str(c.relative_to(ctx.root)) for c in cards)
    if not usable:
        group = ctx.group_of(cards[0]) or "unknown"
        return Check("display", "fail", f"{ctx.user.name} may not use {shown} (group {group})",
                     _access_fix(ctx, cards[0], "video"))
    drivers = ctx.video_drivers()
    if drivers is not None:
        drivers = [d.lower() for d in drivers]  # Debian's SDL names its drivers in capitals ("KMSDRM")
    if drivers is None:
        return Check("display", "warn", "cannot tell which video drivers pygame's SDL has (pygame or SDL not found)",
                     "sudo apt install python3-pygame (Debian's SDL has kmsdrm)")
    if "kmsdrm" not in drivers:
        return Check("display", "fail", f"pygame's SDL has no kmsdrm driver (only {', '.join(drivers) or 'none'}): "
                                        f"a pygame wheel from PyPI?",
                     f"sudo apt install python3-pygame and {ctx.pip} uninstall -y pygame (the venv must be made "
                     f"with --system-site-packages)")
    desktops = _desktop_processes(ctx.root)
    if desktops:
        return Check("display", "warn", f"a desktop ({', '.join(desktops)}) is running and holds the display",
                     "boot to the console: sudo raspi-config nonint do_boot_behaviour B1, then sudo reboot")
    return Check("display", "ok", f"kmsdrm on {shown}")


def _input_devices(root: Path) -> list[tuple[str, str]]:
    """``(name, eventN)`` of each input device in ``/proc/bus/input/devices``."""
    try:
        text = (root / "proc/bus/input/devices").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    devices = []
    for block in text.split("\n\n"):
        name = re.search(r'^N: Name="(.*)"', block, re.MULTILINE)
        handler = re.search(r"^H: Handlers=.*\b(event\d+)\b", block, re.MULTILINE)
        if name and handler:
            devices.append((name.group(1), handler.group(1)))
    return devices


def _check_touch(ctx: _Context) -> Check:
    display = ctx.config.display
    user = ctx.user.name
    if display.touch_device is not None:
        device = ctx.path(display.touch_device)
        if not device.exists():
            return Check("touch", "fail", f"the touch device {display.touch_device} does not exist",
                         "ls -l /dev/input/by-path/ to find it, or leave touch_device out of [display]")
        if not ctx.can(device, os.R_OK):
            group = ctx.group_of(device) or "unknown"
            return Check("touch", "fail", f"{user} may not read {display.touch_device} (group {group})",
                         _access_fix(ctx, device, "input"))
        return Check("touch", "ok", f"the touch device {display.touch_device} is readable by {user}")
    if display.output == "window":
        return Check("touch", "ok", "touch and mouse come through the desktop")
    devices = _input_devices(ctx.root)
    touch = [(n, e) for n, e in devices if any(w in n.lower() for w in TOUCH_WORDS)]
    if not touch:
        names = ", ".join(n for n, _ in devices) or "none"
        return Check("touch", "warn", f"no touchscreen found among the input devices ({names})",
                     "check the touchscreen's cable and overlay (dtoverlay in /boot/firmware/config.txt); "
                     "buttons and a keyboard still work")
    name, event = touch[0]
    node = ctx.path(f"/dev/input/{event}")
    if node.exists() and not ctx.can(node, os.R_OK):
        group = ctx.group_of(node) or "unknown"
        return Check("touch", "fail", f"{user} may not read the touchscreen {name!r} (/dev/input/{event}, "
                                      f"group {group})",
                     _access_fix(ctx, node, "input"))
    return Check("touch", "ok", f"touchscreen {name!r} on /dev/input/{event}")


def _mounts(root: Path) -> list[tuple[str, str, set[str]]]:
    """``(mount point, filesystem type, options)`` from ``/proc/mounts``, later mounts last."""
    out: list[tuple[str, str, set[str]]] = []
    try:
        text = (root / "proc/mounts").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return out
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 4:
            point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), parts[1])
            out.append((point, parts[2], set(parts[3].split(","))))
    return out


def _mount_of(path: Path, mounts: list[tuple[str, str, set[str]]]) -> tuple[str, str, set[str]] | None:
    best = None
    for point, kind, options in mounts:
        if (path == Path(point) or Path(point) in path.parents) and (best is None or len(point) >= len(best[0])):
            best = (point, kind, options)
    return best


def _check_data_dir(ctx: _Context) -> Check:
    data = ctx.config.storage.data_dir
    user = ctx.user.name
    existing = data
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        return Check("data_dir", "fail", f"{existing} is a file, not a directory", "move it away or change "
                                                                                   "data_dir in [storage]")
    mount = _mount_of(existing.resolve(), _mounts(ctx.root))
    if mount is not None:
        point, kind, options = mount
        if kind in VOLATILE_FILESYSTEMS:
            return Check("data_dir", "fail", f"{data} is on a {kind} filesystem ({point}): games are lost at reboot",
                         "set data_dir in [storage] to a directory on the SD card, e.g. /var/lib/banquier/data, "
                         "or turn the overlay file system off (sudo raspi-config nonint disable_overlayfs)")
        if "ro" in options:
            return Check("data_dir", "fail", f"{data} is on a read-only filesystem ({point})",
                         "mount it read-write, or set data_dir in [storage] to a writable directory")
    if not ctx.can(existing, os.W_OK | os.X_OK):
        return Check("data_dir", "fail", f"{user} may not write in {existing}",
                     f"sudo install -d -o {user} {data}")
    if ctx.user.current and existing == data:
        try:
            with tempfile.NamedTemporaryFile(dir=data, prefix=".doctor-"):
                pass
        except OSError as exc:
            return Check("data_dir", "fail", f"cannot create a file in {data}: {exc.strerror or exc}",
                         "mount it read-write, or set data_dir in [storage] to a writable directory")
    free = ctx.disk_free(existing)
    if free < MIN_FREE_BYTES:
        return Check("data_dir", "warn", f"only {free // (1024 * 1024)} MB free for {data}",
                     "free some space on the SD card (sudo apt clean; sudo journalctl --vacuum-size=50M)")
    if existing != data:
        return Check("data_dir", "ok", f"{data} will be created at the first game ({existing} is writable)")
    return Check("data_dir", "ok", f"{data} is writable by {user} ({free // (1024 * 1024)} MB free)")


def _key_path(ctx: _Context) -> Path:
    storage = ctx.config.storage
    if storage.key_file is not None:
        return storage.key_file
    if ctx.env.get("BANQUIER_KEY_FILE", "").strip():
        return Path(ctx.env["BANQUIER_KEY_FILE"].strip())
    base = ctx.env.get("XDG_CONFIG_HOME", "").strip() or str(Path(ctx.env.get("HOME", "") or Path.home()) / ".config")
    return Path(base) / "banquier" / "device.key"


def _game_files(data: Path) -> list[Path]:
    if not data.is_dir():
        return []
    return sorted(p for p in data.rglob("*.db") if p.is_file() and not p.name.startswith("."))


def _read_key(ctx: _Context, games: list[Path]) -> tuple[Check, bytes | None]:
    path = _key_path(ctx)
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        if games:
            return Check("key", "fail", f"no device key at {path}, but there are games: their journals cannot be "
                                        f"verified", f"restore {path} from a backup (a new key would not match)"), None
        return Check("key", "ok", f"no device key yet at {path}: it is made when the first game starts"), None
    except OSError as exc:
        return Check("key", "warn", f"cannot read the device key {path} ({exc.strerror or exc}): journals are not "
                                    f"verified",
                     "run the doctor as the service user or root: sudo banquier doctor"), None
    if len(key) != KEY_BYTES:
        return Check("key", "fail", f"the device key {path} is damaged ({len(key)} bytes, expected {KEY_BYTES})",
                     f"restore {path} from a backup"), None
    mode = path.stat().st_mode & 0o777
    if mode & 0o077:
        return Check("key", "warn", f"the device key {path} is readable by others (mode {mode:o})",
                     f"sudo chmod 600 {path}"), key
    return Check("key", "ok", f"device key {path} (private)"), key


def _count(n: int, one: str, many: str) -> str:
    """``1 entry``, ``2 entries``: the English plural of the doctor's lines (which stay in English)."""
    return f"{n} {one if n == 1 else many}"


def _check_game(path: Path, data: Path, key: bytes | None, backups: Path | None = None) -> Check:
    """One game's line. Reads a private copy of the game (nothing of the game's files is written or created,
    even for a game the terminal has open) and never raises: whatever is wrong is one line with the fix."""
    label = str(path.relative_to(data)) if data in path.parents else str(path)
    name = f"game {label}"
    restore = "restore its newest backup (data_dir/backups); never edit a game file by hand"
    try:
        return _check_game_copy(path, label, name, restore, key, backups)
    except Exception as exc:  # a damaged file must give a line, never a crash of the doctor
        return Check(name, "fail", f"{label} cannot be read or is damaged: {one_line(exc)}", restore)


def _check_game_copy(path: Path, label: str, name: str, restore: str, key: bytes | None,
                     backups: Path | None) -> Check:
    with tempfile.TemporaryDirectory(prefix="banquier-doctor-") as scratch:
        copy = Path(scratch) / "copy.db"
        try:
            private_copy(path, copy)
        except (OSError, sqlite3.Error) as exc:
            return Check(name, "fail", f"{label} cannot be read or is damaged: {one_line(exc)}", restore)
        db = sqlite3.connect(copy)
        try:
            try:
                tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            except sqlite3.DatabaseError as exc:
                if "not a database" in str(exc) and not is_sqlite(path):
                    return Check(name, "warn", f"{label} is not a Banquier game file",
                                 "move it out of the data directory")
                return Check(name, "fail", f"{label} cannot be read or is damaged: {one_line(exc)}", restore)
            if "journal" not in tables:
                return Check(name, "warn", f"{label} is not a Banquier game file", "move it out of the data directory")
            try:
                problems = [one_line(row[0]) for row in db.execute("PRAGMA integrity_check").fetchall()]
            except sqlite3.DatabaseError as exc:
                problems = [one_line(exc)]
            if problems != ["ok"]:
                return Check(name, "fail", f"{label} is damaged: {'; '.join(problems[:3])}"
                                           + (f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""),
                             restore)
            try:
                seq = db.execute("SELECT MAX(seq) FROM journal").fetchone()[0] or 0
            except sqlite3.DatabaseError as exc:
                return Check(name, "fail", f"{label} cannot be read or is damaged: {one_line(exc)}", restore)
        finally:
            db.close()
        if key is None:
            return Check(name, "warn", f"the file is intact ({_count(seq, 'entry', 'entries')}), the journal was not "
                                       f"verified (no device key)", "see the key line above")
        try:
            game = Game.open(copy, key=key, check="full")
        except AuditFailed as exc:
            if exc.code == "audit_foreign_key":
                return Check(name, "warn", f"{label} was signed by another device's key: it cannot be verified here",
                             "open it on the device that made it, or with that device's key")
            return Check(name, "fail", f"{label}: the journal does not match: {one_line(exc)}", restore)
        except GameError as exc:
            return Check(name, "fail", f"{label}: {one_line(exc)}", restore)
        try:
            players = len(game.players)
            game.ledger.mirror = backups / f"{path.stem}.mirror" if backups is not None else None
            lost = game.ledger.mirrored_after(seq)
            game.ledger.mirror = None
        finally:
            game.close()
    if lost:
        return Check(name, "fail", f"{label}: lost its last {len(lost)} acknowledged entries (a damaged WAL); the "
                                   f"mirror in {backups} holds them",
                     "start banquier: resuming the game writes them back from the mirror (or restore a backup)")
    return Check(name, "ok", f"intact, {_count(seq, 'entry', 'entries')}, {_count(players, 'player', 'players')}, "
                             f"audit passed")  # the line's name already says which game


def _check_games(ctx: _Context) -> list[Check]:
    data = ctx.config.storage.data_dir
    games = _game_files(data)
    key_check, key = _read_key(ctx, games)
    checks = [key_check]
    if not games:
        checks.append(Check("games", "ok", f"no games yet under {data}"))
    checks += [_check_game(path, data, key, ctx.config.storage.backups) for path in games]
    return checks


# ------------------------------------------------------------------------------------------- runner
def run_checks(config: Config, *, root: str | os.PathLike[str] = "/", env: Mapping[str, str] | None = None,
               user: str | None = None, access: Callable[[Path, int], bool] | None = None,
               installed: Callable[[str], str | None] = installed_version,
               found: Callable[[str], bool] = module_found,
               video_drivers: Callable[[], list[str] | None] = sdl_video_drivers,
               load_reader: Callable[..., Any] | None = None, process_gids: Iterable[int] | None = None,
               disk_free: Callable[[Path], int] = lambda p: shutil.disk_usage(p).free,
               probe_hardware: bool = True,
               device_number: Callable[[Path], tuple[int, int] | None] | None = None,
               phone: Callable[[Config], list[Check]] | None = None) -> list[Check]:
    """Check this machine against ``config``; return the findings in a fixed order (see module docstring).

    - ``root``: where ``/dev``, ``/proc``, ``/sys`` and ``/etc/{passwd,group}`` are read (tests: a fake tree).
    - ``env``: the environment (``SDL_VIDEODRIVER``, ``DISPLAY``, systemd's ``INVOCATION_ID``...).
    - ``user``: whose groups and permissions to check; default the service user ``banquier`` if it exists,
      else the current user.
    - ``access(path, mode) -> bool``: permission test (default: ``os.access`` for the current user, the
      permission bits for another).
    - ``installed(distribution) -> version | None``, ``found(module) -> bool``: the Python packages.
    - ``video_drivers() -> [names] | None``: SDL's compiled-in video drivers.
    - ``load_reader(name, env=..., **options)``: opens the reader (default ``hal.load_reader``).
    - ``process_gids``: this process's group ids (to spot groups added since login).
    - ``disk_free(path) -> bytes``; ``probe_hardware``: False leaves the reader chip alone.
    - ``device_number(path) -> (major, minor) | None``: a character device's numbers (None: not one), for the
      service's device rules (default: ``os.stat``).
    - ``phone(config) -> [Check]``: the phone page's line, last (``host_ui.phone.check.check_phone``, which the
      command hands in: the shell's checks do not import the page's modules); None: no such line.

    Never raises for what it finds; never writes a game file.
    """
    ctx = _Context(config, Path(root), os.environ if env is None else env, user, access, installed, found,
                   video_drivers, load_reader, process_gids, disk_free, probe_hardware,
                   device_number or character_device_number)
    checks = [_check_config(ctx)]
    checks += _check_reader_backend(ctx)
    checks += [_check_gpio(ctx), _check_groups(ctx)]
    checks += [c for c in (_check_service(ctx),) if c is not None]
    checks += [_check_display(ctx), _check_touch(ctx), _check_texts(), _check_data_dir(ctx)]
    reboot = _check_reboot(ctx)
    if reboot is not None:  # only while one is pending
        checks.insert(1, reboot)
    checks += _check_editions()
    checks += _check_games(ctx)
    if phone is not None:
        try:
            checks += phone(config)
        except Exception as exc:  # a check must not stop the others
            checks.append(Check("phone", "fail", f"the phone page's check failed: {type(exc).__name__}: {exc}"))
    return checks
