"""``banquier doctor`` (host_ui/shell/doctor.py) against a fake /proc, /dev, /sys and /etc tree in tmp_path:
every check's ok, warn and fail, each with one line of what and one line of fix."""
from __future__ import annotations

import os
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from hal.errors import BackendUnavailableError
from host_ui.shell import doctor
from host_ui.shell.config import Config, parse_config
from host_ui.shell.doctor import Check, format_checks, is_pi5, read_model, run_checks, worst
from terminal.bank.game import Game
from tests.fakes.plugin import fake_clock, fake_gpio, fake_mfrc522, make_rc522_reader  # noqa: F401 - fixtures

GID = os.getegid()  # the fake tree's files belong to this group: the fake spi/video/... groups use it


class FakeRoot:
    """A fake machine under ``path``: device tree, /dev nodes, /etc/passwd and /etc/group, /proc files."""

    def __init__(self, path: Path):
        self.path = path
        self.users = {"banquier": (1001, 1001)}
        self.groups: dict[str, tuple[int, list[str]]] = {"banquier": (1001, [])}
        self.write("proc/mounts", "/dev/mmcblk0p2 / ext4 rw,noatime 0 0\n")
        self.sync()

    def write(self, relative: str, text: str | bytes = "") -> Path:
        target = self.path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text, encoding="utf-8")
        return target

    def model(self, text: str, where: str = "proc/device-tree/model") -> None:
        self.write(where, text.encode() + b"\0")

    def group(self, name: str, *members: str, gid: int | None = None) -> None:
        self.groups[name] = (GID if gid is None else gid, list(members))
        self.sync()

    def sync(self) -> None:
        self.write("etc/passwd", "".join(f"{u}:x:{uid}:{gid}::/var/lib/{u}:/usr/sbin/nologin\n"
                                         for u, (uid, gid) in self.users.items()))
        self.write("etc/group", "".join(f"{g}:x:{gid}:{','.join(m)}\n" for g, (gid, m) in self.groups.items()))

    def mounts(self, *lines: str) -> None:
        self.write("proc/mounts", "".join(line + "\n" for line in lines))


@pytest.fixture
def fake(tmp_path) -> FakeRoot:
    return FakeRoot(tmp_path / "root")


@pytest.fixture
def data(tmp_path) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    return path


def config_for(data: Path, text: str = "", key_file: Path | None = None) -> Config:
    config = parse_config(text)
    return replace(config, storage=replace(config.storage, data_dir=data, key_file=key_file))


DEVICE = """
[hardware.reader]
backend = "mfrc522"
[hardware.beeper]
backend = "gpio"
[display]
output = "kmsdrm"
"""

PACKAGES_PI4 = {"RPi.GPIO": "0.7.1"}
PACKAGES_PI5 = {"rpi-lgpio": "0.6", "lgpio": "0.2.2.0"}


def checks(config: Config, fake: FakeRoot, **kwargs) -> dict[str, Check]:
    kwargs.setdefault("env", {"HOME": str(fake.path / "home")})
    kwargs.setdefault("user", "banquier")
    kwargs.setdefault("access", lambda path, mode: True)
    kwargs.setdefault("installed", lambda name: PACKAGES_PI4.get(name))
    kwargs.setdefault("found", lambda name: True)
    kwargs.setdefault("video_drivers", lambda: ["kmsdrm", "offscreen", "dummy"])
    kwargs.setdefault("load_reader", _no_reader)
    kwargs.setdefault("disk_free", lambda path: 10 ** 9)
    found = run_checks(config, root=fake.path, **kwargs)
    return {c.name: c for c in found}


def _no_reader(*args, **kwargs):
    raise AssertionError("the reader should not be probed in this test")


def assert_status(check: Check, status: str, *words: str) -> None:
    assert check.status == status, check
    text = f"{check.what} | {check.fix}"
    for word in words:
        assert word in text, (word, check)
    assert (check.fix == "") == (status == "ok"), check


def ready_pi(fake: FakeRoot, model: str = "Raspberry Pi 4 Model B Rev 1.5") -> None:
    fake.model(model)
    fake.write("dev/spidev0.0")
    fake.write("dev/spidev0.1")
    fake.write("dev/dri/card1")
    fake.write("dev/gpiomem")  # what RPi.GPIO opens
    for group in ("spi", "gpio", "video", "input", "dialout"):
        fake.group(group, "banquier")


# -------------------------------------------------------------------------------------------- basics
def test_a_pc_with_the_simulator_is_all_ok(fake, data):
    found = checks(config_for(data), fake, env={"DISPLAY": ":0", "HOME": str(fake.path)})
    assert worst(found.values()) == "ok", format_checks(found.values())
    # The simulator declares no probe: no reader line, and no SPI line.
    assert list(found)[:2] == ["config", "gpio"] and "spi" not in found and "reader" not in found


def test_check_refuses_bad_status_and_multi_line_text():
    with pytest.raises(ValueError):
        Check("x", "error", "what")
    with pytest.raises(ValueError):
        Check("x", "fail", "two\nlines", "fix")


def test_format_and_worst():
    found = [Check("a", "ok", "fine"), Check("b", "warn", "hm", "do this"), Check("c", "fail", "bad", "do that")]
    assert worst(found) == "fail" and worst(found[:2]) == "warn" and worst([]) == "ok"
    text = format_checks(found)
    assert text.splitlines() == ["ok    a          fine", "WARN  b          hm", " " * 16 + " fix: do this",
                                 "FAIL  c          bad", " " * 16 + " fix: do that"]


def test_read_model_and_pi5(fake):
    assert read_model(fake.path) is None
    fake.model("Raspberry Pi 5 Model B Rev 1.0", where="sys/firmware/devicetree/base/model")
    assert read_model(fake.path) == "Raspberry Pi 5 Model B Rev 1.0"
    assert is_pi5("Raspberry Pi 5 Model B Rev 1.0") and is_pi5("Raspberry Pi 500 Rev 1.0")
    assert is_pi5("Raspberry Pi Compute Module 5 Rev 1.0")
    assert not is_pi5("Raspberry Pi 4 Model B Rev 1.5") and not is_pi5("Raspberry Pi Zero 2 W Rev 1.0")
    assert not is_pi5(None)


# ----------------------------------------------------------------------------------------------- SPI
def test_a_serial_reader_gets_its_own_line_and_no_spi_line(fake, data):
    config = config_for(data, '[hardware.reader]\nbackend = "serial"\nport = "/dev/ttyUSB0"\n')
    found = checks(config, fake)
    assert "spi" not in found
    assert_status(found["serial"], "fail", "/dev/ttyUSB0 is not connected", "/dev/serial/by-id/")


def test_spi_not_enabled(fake, data):
    fake.model("Raspberry Pi 4 Model B Rev 1.5")
    found = checks(config_for(data, DEVICE), fake)
    assert_status(found["spi"], "fail", "/dev/spidev0.0 is missing", "raspi-config nonint do_spi 0", "reboot")
    assert_status(found["reader"], "fail", "not tried")


def test_spi_device_other_than_configured(fake, data):
    fake.write("dev/spidev0.1")
    found = checks(config_for(data, DEVICE), fake)
    assert_status(found["spi"], "fail", "spidev0.0 is missing", "spidev0.1", "spi_device")


def test_spi_not_permitted_names_the_group(fake, data):
    ready_pi(fake)
    found = checks(config_for(data, DEVICE), fake, access=lambda p, m: "spidev" not in p.name)
    assert_status(found["spi"], "fail", "banquier may not use /dev/spidev0.0", "usermod -aG spi banquier")


def test_spi_ok(fake, data):
    ready_pi(fake)
    reader = type("R", (), {"version": 0x92, "close": lambda self: None})()
    assert_status(checks(config_for(data, DEVICE), fake, load_reader=lambda *a, **k: reader)["spi"], "ok",
                  "usable by banquier")


# -------------------------------------------------------------------------------------------- reader
def test_reader_chip_answers_through_the_hal_backend(fake, data, make_rc522_reader, fake_mfrc522):  # noqa: F811
    ready_pi(fake)
    seen = {}

    def load(name, env, **options):
        seen.update(name=name, env=env, **options)
        return make_rc522_reader(**options)

    found = checks(config_for(data, DEVICE), fake, load_reader=load)
    assert_status(found["reader"], "ok", "MFRC522 v2.0 (version 0x92) answers on /dev/spidev0.0")
    assert seen == {"name": "mfrc522", "env": {}, "bus": 0, "device": 0, "spi_speed_hz": 1_000_000,
                    "reset_pin": 22}


def test_reader_clone_chip_is_a_warning(fake, data, make_rc522_reader, fake_mfrc522):  # noqa: F811
    ready_pi(fake)
    fake_mfrc522.version = 0x88
    found = checks(config_for(data, DEVICE), fake, load_reader=lambda name, env, **o: make_rc522_reader(**o))
    assert_status(found["reader"], "warn", "FM17522 clone (version 0x88)", "genuine MFRC522")


def test_reader_chip_silent_is_a_failure_with_the_wiring(fake, data, make_rc522_reader, fake_mfrc522):  # noqa: F811
    ready_pi(fake)
    fake_mfrc522.version = 0x00
    found = checks(config_for(data, DEVICE), fake, load_reader=lambda name, env, **o: make_rc522_reader(**o))
    assert_status(found["reader"], "fail", "no MFRC522 answers", "0x00", "SDA->24", "RST->22",
                  "systemctl stop banquier")


def test_reader_library_missing(fake, data):
    ready_pi(fake)

    def load(*args, **kwargs):
        raise BackendUnavailableError("spidev is not installed: pip install spidev")

    found = checks(config_for(data, DEVICE), fake, load_reader=load)
    assert_status(found["reader"], "fail", "spidev is not installed", "pip install")


def test_reader_unexpected_error_is_reported_not_raised(fake, data):
    ready_pi(fake)

    def load(*args, **kwargs):
        raise RuntimeError("boom")

    assert_status(checks(config_for(data, DEVICE), fake, load_reader=load)["reader"], "fail", "RuntimeError: boom")


def test_reader_left_alone_without_hardware_probing(fake, data):
    ready_pi(fake)
    found = checks(config_for(data, DEVICE), fake, probe_hardware=False)
    assert_status(found["reader"], "warn", "not tried", "systemctl stop banquier")


def test_no_reader_check_for_the_simulator(fake, data):
    assert "reader" not in checks(config_for(data), fake)


# -------------------------------------------------------------------------------------------- serial
SERIAL = '[hardware.reader]\nbackend = "serial"\nport = "/dev/serial/by-id/usb-reader"\n'


def test_serial_reader_not_connected_lists_what_is(fake, data):
    fake.write("dev/serial/by-id/usb-other")
    assert_status(checks(config_for(data, SERIAL), fake)["serial"], "fail", "not connected",
                  "/dev/serial/by-id/usb-other", "port")


def test_serial_reader_not_permitted(fake, data):
    fake.write("dev/serial/by-id/usb-reader")
    fake.group("dialout")
    found = checks(config_for(data, SERIAL), fake, access=lambda p, m: "usb-reader" not in p.name)
    assert_status(found["serial"], "fail", "may not use", "usermod -aG dialout banquier")


def test_serial_reader_ok(fake, data, fake_serial):
    """Opened as `run` opens it (pyserial, here the fake at its boundary), then let go."""
    fake.write("dev/serial/by-id/usb-reader")
    port = fake_serial.add("/dev/serial/by-id/usb-reader")
    found = checks(config_for(data, SERIAL), fake, load_reader=_load)
    assert_status(found["serial"], "ok", "present and usable", "opened as the terminal opens it")
    assert port.opens == 1 and port.open_handles == 0


def test_serial_reader_not_probed_says_so(fake, data):
    fake.write("dev/serial/by-id/usb-reader")
    found = checks(config_for(data, SERIAL), fake, probe_hardware=False)
    assert_status(found["serial"], "ok", "present and usable", "not opened")


@pytest.mark.parametrize("device", ["/dev/null", "/etc/passwd"])
def test_serial_reader_that_is_no_serial_port_fails(fake, data, fake_serial, device):
    """A device that exists but is no serial port (/dev/null, a file): pyserial cannot configure it, `run` cannot
    open it, so the doctor says FAIL, not ok (it said ok: present and usable)."""
    fake.write(device.lstrip("/"))
    fake_serial.add(device).tty = False
    config = f'[hardware.reader]\nbackend = "serial"\nport = "{device}"\n'
    found = checks(config_for(data, config), fake, load_reader=_load)
    assert_status(found["serial"], "fail", "Inappropriate ioctl", "/dev/serial/by-id/")


# ---------------------------------------------------------------------------------------------- GPIO
def test_gpio_not_used(fake, data):
    assert_status(checks(config_for(data), fake)["gpio"], "ok", "not used")


def test_gpio_on_a_pc_is_a_failure(fake, data):
    assert_status(checks(config_for(data, DEVICE), fake)["gpio"], "fail", "not a Raspberry Pi", "sim")


@pytest.mark.parametrize("model, packages, status, words", [
    ("Raspberry Pi 4 Model B Rev 1.5", {"RPi.GPIO": "0.7.1"}, "ok", ["RPi.GPIO 0.7.1 for the Raspberry Pi 4"]),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", {"rpi-lgpio": "0.6"}, "ok", ["rpi-lgpio 0.6"]),
    ("Raspberry Pi Zero 2 W Rev 1.0", {}, "fail", ["no GPIO library", "pip install RPi.GPIO"]),
    ("Raspberry Pi 5 Model B Rev 1.0", {"rpi-lgpio": "0.6", "lgpio": "0.2"}, "ok", ["rpi-lgpio 0.6", "Pi 5"]),
    ("Raspberry Pi 5 Model B Rev 1.0", {"RPi.GPIO": "0.7.1"}, "fail",
     ["cannot drive", "uninstall -y RPi.GPIO", "install rpi-lgpio"]),
    ("Raspberry Pi 5 Model B Rev 1.0", {"RPi.GPIO": "0.7.1", "rpi-lgpio": "0.6"}, "fail", ["uninstall -y RPi.GPIO"]),
    ("Raspberry Pi 5 Model B Rev 1.0", {}, "fail", ["needs rpi-lgpio", "pip install rpi-lgpio"]),
])
def test_gpio_library_for_the_model(fake, data, model, packages, status, words):
    fake.model(model)
    for node in ("dev/gpiomem", "dev/gpiochip0"):  # the devices RPi.GPIO and rpi-lgpio open
        fake.write(node)
    found = checks(config_for(data, '[hardware.beeper]\nbackend = "gpio"\n'), fake,
                   installed=lambda name: packages.get(name))
    assert_status(found["gpio"], status, *words)


def test_gpio_pi5_without_lgpio(fake, data):
    fake.model("Raspberry Pi 5 Model B Rev 1.0")
    found = checks(config_for(data, '[hardware.beeper]\nbackend = "gpio"\n'), fake,
                   installed=lambda name: {"rpi-lgpio": "0.6"}.get(name), found=lambda name: name != "lgpio")
    assert_status(found["gpio"], "fail", "lgpio library", "apt install python3-lgpio")


def test_gpio_installed_but_not_importable(fake, data):
    fake.model("Raspberry Pi 4 Model B Rev 1.5")
    found = checks(config_for(data, '[hardware.beeper]\nbackend = "gpio"\n'), fake, found=lambda name: False)
    assert_status(found["gpio"], "fail", "cannot be imported", "--force-reinstall RPi.GPIO")


# -------------------------------------------------------------------------------------------- groups
def test_groups_none_needed(fake, data):
    assert_status(checks(config_for(data), fake)["groups"], "ok", "no hardware groups")


def test_groups_ok(fake, data):
    ready_pi(fake)
    assert_status(checks(config_for(data, DEVICE), fake, load_reader=_fake_reader)["groups"], "ok",
                  "banquier is in gpio, input, spi, video")


def test_groups_missing(fake, data):
    ready_pi(fake)
    fake.group("spi")
    fake.group("input")
    found = checks(config_for(data, DEVICE), fake, load_reader=_fake_reader)
    assert_status(found["groups"], "fail", "not in the groups spi, input", "usermod -aG spi,input banquier")


def test_groups_that_do_not_exist(fake, data):
    fake.model("Raspberry Pi 4 Model B Rev 1.5")
    found = checks(config_for(data, '[hardware.reader]\nbackend = "serial"\nport = "/dev/x"\n'), fake)
    assert_status(found["groups"], "fail", "dialout", "no group dialout exists", "groupadd --system dialout")


def test_groups_added_after_login_are_a_warning(fake, data):
    ready_pi(fake)
    me = doctor._current_user_name({})
    fake.users[me] = (4321, 4321)  # this process's user, as an ordinary account in the fake tree
    fake.groups = {"spi": (5001, [me]), "gpio": (5002, [me]), "video": (5003, [me]), "input": (5004, [me])}
    fake.sync()
    found = checks(config_for(data, DEVICE), fake, user=me, process_gids=[5001, 5002], load_reader=_fake_reader)
    assert_status(found["groups"], "warn", "video, input", "log out and in again")


def test_groups_of_root(fake, data):
    ready_pi(fake)
    fake.users["root"] = (0, 0)
    fake.sync()
    found = checks(config_for(data, DEVICE), fake, user="root", load_reader=_fake_reader)
    assert_status(found["groups"], "ok", "root may use every device")


def test_default_user_is_the_service_user(fake, data):
    found = checks(config_for(data, '[hardware.reader]\nbackend = "serial"\nport = "/dev/x"\n'), fake, user=None)
    assert "banquier" in found["groups"].what


def _fake_reader(*args, **kwargs):
    return type("R", (), {"version": 0x91, "close": lambda self: None})()


# ------------------------------------------------------------------------------------------- service
PROC_DEVICES = "Character devices:\n  1 mem\n  4 tty\n 13 input\n 29 fb\n153 spi\n226 drm\n240 bcm2835-gpiomem\n"
NUMBERS = {"dev/spidev0.0": (153, 0), "dev/spidev0.1": (153, 1), "dev/gpiomem": (240, 0), "dev/dri/card1": (226, 1),
           "dev/input/event0": (13, 64)}


def numbers(fake: FakeRoot):
    return lambda path: NUMBERS.get(str(path.relative_to(fake.path)))


def installed_unit(fake: FakeRoot, text: str | None = None) -> None:
    unit = (Path(__file__).resolve().parents[3] / "deploy" / "banquier.service").read_text()
    fake.write("etc/systemd/system/banquier.service", unit if text is None else text)
    fake.write("proc/devices", PROC_DEVICES)


def test_service_lets_the_terminal_open_its_devices(fake, data):
    ready_pi(fake)
    fake.write("dev/input/event0")
    installed_unit(fake)
    found = checks(config_for(data, DEVICE), fake, device_number=numbers(fake))
    assert_status(found["service"], "ok", "/etc/systemd/system/banquier.service lets the terminal open",
                  "/dev/spidev0.0", "/dev/gpiomem", "/dev/dri/card1", "/dev/input/event0")
    assert list(found).index("service") == list(found).index("groups") + 1


def test_service_whose_rules_miss_the_reader(fake, data):
    """The shipped unit said char-spidev: the kernel's class is "spi", so the service could not open the reader
    while every other line said ok."""
    ready_pi(fake)
    unit = (Path(__file__).resolve().parents[3] / "deploy" / "banquier.service").read_text()
    installed_unit(fake, unit.replace("DeviceAllow=char-spi rw", "DeviceAllow=char-spidev rw"))
    found = checks(config_for(data, DEVICE), fake, device_number=numbers(fake))
    assert found["spi"].status == "ok"
    assert_status(found["service"], "fail", "does not let the terminal open /dev/spidev0.0", "class 'spi'",
                  "sudo systemctl edit banquier", "DeviceAllow=char-spi rw")


def test_service_drop_ins_count_as_systemd_merges_them(fake, data):
    ready_pi(fake)
    installed_unit(fake)
    fake.write("etc/systemd/system/banquier.service.d/50-mine.conf",
               "[Service]\nDeviceAllow=\nDeviceAllow=char-drm rw\n")
    found = checks(config_for(data, DEVICE), fake, device_number=numbers(fake))
    assert_status(found["service"], "fail", "/dev/spidev0.0", "(and 1 more)")  # the reader and the GPIO
    fake.write("etc/systemd/system/banquier.service.d/60-open.conf", "[Service]\nDevicePolicy=auto\nDeviceAllow=\n")
    found = checks(config_for(data, DEVICE), fake, device_number=numbers(fake))
    assert_status(found["service"], "ok", "does not limit the devices")


def test_service_check_only_where_the_unit_is_installed(fake, data):
    ready_pi(fake)
    assert "service" not in checks(config_for(data, DEVICE), fake, device_number=numbers(fake))


def test_a_device_the_sandbox_refuses_is_not_blamed_on_the_groups(fake, data):
    """Inside the unit's sandbox (or under any device policy) the permission bits allow the device but opening it
    is refused: the fix is not to join a group the user is already in."""
    ready_pi(fake)
    fake.group("spi", "banquier", gid=os.getegid())
    (fake.path / "dev/spidev0.0").chmod(0o660)
    found = checks(config_for(data, DEVICE), fake, access=lambda p, m: p.name != "spidev0.0",
                   user=None, env={"HOME": str(fake.path)})
    check = found["spi"]
    assert check.status == "fail" and "usermod" not in check.fix, check
    assert "device policy" in check.fix, check


# ------------------------------------------------------------------------------------------- display
WINDOW = ""
KMSDRM = '[display]\noutput = "kmsdrm"\n'
FRAMEBUFFER = '[display]\noutput = "framebuffer"\n'


@pytest.mark.parametrize("env, status, words", [
    ({"DISPLAY": ":0"}, "ok", ["window output", ":0"]),
    ({"WAYLAND_DISPLAY": "wayland-1"}, "ok", ["wayland-1"]),
    ({"INVOCATION_ID": "abc"}, "fail", ["under systemd", "output = \"kmsdrm\""]),
    ({}, "warn", ["no desktop session", "kmsdrm"]),
    ({"DISPLAY": ":0", "SDL_VIDEODRIVER": "dummy"}, "warn", ["nothing will be shown", "unset SDL_VIDEODRIVER"]),
])
def test_display_window(fake, data, env, status, words):
    assert_status(checks(config_for(data, WINDOW), fake, env=env)["display"], status, *words)


def test_display_kmsdrm_ok(fake, data):
    fake.write("dev/dri/card0")
    fake.write("dev/dri/card1")
    found = checks(config_for(data, KMSDRM), fake, env={"SDL_VIDEODRIVER": "kmsdrm"})
    assert_status(found["display"], "ok", "kmsdrm on /dev/dri/card0, /dev/dri/card1")


def test_display_kmsdrm_named_in_capitals_by_debians_sdl(fake, data):
    """Debian's SDL lists "KMSDRM": a working screen was reported as failed, with advice to uninstall pygame."""
    fake.write("dev/dri/card1")
    found = checks(config_for(data, KMSDRM), fake, env={"SDL_VIDEODRIVER": "KMSDRM"},
                   video_drivers=lambda: ["x11", "wayland", "KMSDRM", "offscreen", "dummy"])
    assert_status(found["display"], "ok", "kmsdrm on /dev/dri/card1")


def test_display_kmsdrm_with_another_sdl_driver(fake, data):
    fake.write("dev/dri/card1")
    found = checks(config_for(data, KMSDRM), fake, env={"SDL_VIDEODRIVER": "x11"})
    assert_status(found["display"], "fail", "SDL_VIDEODRIVER=x11", "kmsdrm")


def test_display_without_drm(fake, data):
    assert_status(checks(config_for(data, KMSDRM), fake)["display"], "fail", "no DRM display device",
                  "vc4-kms-v3d")


def test_display_spi_panel_framebuffer(fake, data):
    assert_status(checks(config_for(data, FRAMEBUFFER), fake)["display"], "fail", "/dev/fb1 does not exist",
                  "dtoverlay")
    fake.write("dev/fb1")
    assert_status(checks(config_for(data, FRAMEBUFFER), fake)["display"], "ok", "framebuffer output to /dev/fb1")
    config = config_for(data, FRAMEBUFFER + 'fb_device = "/dev/fb2"\n')
    assert_status(checks(config, fake)["display"], "fail", "/dev/fb2 does not exist")
    fake.group("video")
    found = checks(config_for(data, FRAMEBUFFER), fake, access=lambda p, m: p.name != "fb1")
    assert_status(found["display"], "fail", "may not write /dev/fb1", "usermod -aG video")


def test_display_not_permitted(fake, data):
    fake.write("dev/dri/card1")
    fake.group("video")
    found = checks(config_for(data, KMSDRM), fake, access=lambda p, m: "card" not in p.name)
    assert_status(found["display"], "fail", "may not use /dev/dri/card1", "usermod -aG video banquier")


def test_display_sdl_unknown(fake, data):
    fake.write("dev/dri/card1")
    found = checks(config_for(data, KMSDRM), fake, video_drivers=lambda: None)
    assert_status(found["display"], "warn", "cannot tell", "apt install python3-pygame")


def test_display_pygame_without_kmsdrm(fake, data):
    fake.write("dev/dri/card1")
    found = checks(config_for(data, KMSDRM), fake, video_drivers=lambda: ["x11", "wayland", "dummy"])
    assert_status(found["display"], "fail", "no kmsdrm driver", "x11, wayland", "python3-pygame",
                  "uninstall -y pygame", "--system-site-packages")


def test_display_held_by_a_desktop(fake, data):
    fake.write("dev/dri/card1")
    fake.write("proc/1/comm", "systemd\n")
    fake.write("proc/812/comm", "labwc\n")
    found = checks(config_for(data, KMSDRM), fake)
    assert_status(found["display"], "warn", "labwc", "do_boot_behaviour B1")


def test_sdl_video_drivers_reads_a_list_or_none():
    drivers = doctor.sdl_video_drivers()
    assert drivers is None or (isinstance(drivers, list) and all(isinstance(d, str) for d in drivers))


# --------------------------------------------------------------------------------------------- touch
INPUT_DEVICES = """I: Bus=0018 Vendor=0000 Product=0000 Version=0000
N: Name="generic ft5x06 (79)"
H: Handlers=kbd event0

I: Bus=0003 Vendor=046d Product=c52b Version=0111
N: Name="Logitech USB Receiver"
H: Handlers=sysrq kbd leds event1
"""


def test_touch_found(fake, data):
    fake.write("proc/bus/input/devices", INPUT_DEVICES)
    fake.write("dev/input/event0")
    assert_status(checks(config_for(data, KMSDRM), fake)["touch"], "ok", "generic ft5x06", "event0")


def test_touch_not_readable(fake, data):
    fake.write("proc/bus/input/devices", INPUT_DEVICES)
    fake.write("dev/input/event0")
    fake.group("input")
    found = checks(config_for(data, KMSDRM), fake, access=lambda p, m: p.name != "event0")
    assert_status(found["touch"], "fail", "may not read the touchscreen", "usermod -aG input banquier")


def test_no_touchscreen_is_a_warning(fake, data):
    fake.write("proc/bus/input/devices", INPUT_DEVICES.split("\n\n")[1])
    assert_status(checks(config_for(data, KMSDRM), fake)["touch"], "warn", "Logitech USB Receiver",
                  "buttons and a keyboard still work")


def test_touch_configured(fake, data):
    config = config_for(data, FRAMEBUFFER + 'touch_device = "/dev/input/by-path/touch-event"\n')
    assert_status(checks(config, fake)["touch"], "fail", "does not exist", "ls -l /dev/input/by-path/")
    fake.write("dev/input/by-path/touch-event")
    assert_status(checks(config, fake)["touch"], "ok", "readable by banquier")
    assert_status(checks(config, fake, access=lambda p, m: False)["touch"], "fail", "may not read", "usermod")


def test_touch_through_the_desktop(fake, data):
    assert_status(checks(config_for(data, WINDOW), fake, env={"DISPLAY": ":0"})["touch"], "ok", "desktop")


# ------------------------------------------------------------------------------------ data directory
def test_data_dir_ok(fake, data):
    assert_status(checks(config_for(data), fake)["data_dir"], "ok", "writable", "MB free")


def test_data_dir_to_be_created(fake, data):
    assert_status(checks(config_for(data / "games" / "new"), fake)["data_dir"], "ok", "will be created")


@pytest.mark.parametrize("kind", ["tmpfs", "overlay", "ramfs"])
def test_data_dir_on_a_volatile_filesystem(fake, data, kind):
    fake.mounts("/dev/mmcblk0p2 / ext4 rw 0 0", f"{kind} {data.parent} {kind} rw,nosuid 0 0")
    assert_status(checks(config_for(data), fake)["data_dir"], "fail", f"on a {kind} filesystem",
                  "lost at reboot", "data_dir")


def test_data_dir_mount_points_with_spaces_and_nesting(fake, tmp_path):
    data = tmp_path / "my games" / "data"
    data.mkdir(parents=True)
    fake.mounts("tmpfs / tmpfs rw 0 0", f"/dev/sda1 {str(tmp_path / 'my games').replace(' ', chr(92) + '040')} "
                                        f"ext4 rw 0 0")
    assert_status(checks(config_for(data), fake)["data_dir"], "ok", "writable")


def test_data_dir_read_only(fake, data):
    fake.mounts("/dev/mmcblk0p2 / ext4 ro,noatime 0 0")
    assert_status(checks(config_for(data), fake)["data_dir"], "fail", "read-only")


def test_data_dir_not_writable(fake, data):
    found = checks(config_for(data), fake, access=lambda p, m: p != data)
    assert_status(found["data_dir"], "fail", "may not write", "sudo install -d -o banquier")


def test_data_dir_is_a_file(fake, tmp_path):
    (tmp_path / "file").write_text("x")
    assert_status(checks(config_for(tmp_path / "file"), fake)["data_dir"], "fail", "is a file")


def test_data_dir_nearly_full(fake, data):
    found = checks(config_for(data), fake, disk_free=lambda p: 10 * 1024 * 1024)
    assert_status(found["data_dir"], "warn", "only 10 MB free", "journalctl --vacuum-size")


def test_data_dir_really_written_for_the_current_user(fake, data):
    me = doctor._current_user_name({})
    assert_status(checks(config_for(data), fake, user=me, access=None)["data_dir"], "ok", "writable")
    assert list(data.iterdir()) == []  # the probe file is gone


def test_permission_bits_for_another_user():
    def st(mode, uid, gid):
        return os.stat_result((mode, 0, 0, 1, uid, gid, 0, 0, 0, 0))
    assert doctor._permitted(st(0o660, 0, 999), 1001, {999}, os.R_OK | os.W_OK)
    assert not doctor._permitted(st(0o660, 0, 999), 1001, {1001}, os.R_OK)
    assert doctor._permitted(st(0o604, 0, 999), 1001, set(), os.R_OK)
    assert doctor._permitted(st(0o700, 1001, 0), 1001, set(), os.W_OK | os.X_OK)
    assert doctor._permitted(st(0o000, 5, 5), 0, set(), os.W_OK)


# ------------------------------------------------------------------------------------- key and games
@pytest.fixture
def key_file(tmp_path, key) -> Path:
    path = tmp_path / "keys" / "device.key"
    path.parent.mkdir()
    path.write_bytes(key)
    path.chmod(0o600)
    return path


def new_game(data: Path, key: bytes, name: str = "game.db", **kwargs) -> Path:
    game = Game.create(data / name, "fr", ("Ann", "Bob"), key=key, **kwargs)
    game.pay_bank("Ann", 50)
    game.buy("Bob", 1)
    game.close()
    return data / name


def test_no_games_yet(fake, data, key_file):
    found = checks(config_for(data, key_file=key_file), fake)
    assert_status(found["key"], "ok", "private")
    assert_status(found["games"], "ok", "no games yet")


def test_every_game_is_checked(fake, data, key_file, key):
    new_game(data, key, "a.db")
    (data / "backups").mkdir()
    new_game(data / "backups", key, "a.seq000003.db")
    found = checks(config_for(data, key_file=key_file), fake)
    assert_status(found["game a.db"], "ok", "intact, 3 entries, 2 players, audit passed")
    assert_status(found["game backups/a.seq000003.db"], "ok", "audit passed")
    assert "games" not in found


def test_a_game_in_use_is_not_written(fake, data, key_file, key):
    game = Game.create(data / "live.db", "fr", ("Ann", "Bob"), key=key)
    game.pay_bank("Ann", 10)
    try:
        before = sqlite3.connect(data / "live.db").execute("SELECT open FROM session").fetchone()
        found = checks(config_for(data, key_file=key_file), fake)
        assert_status(found["game live.db"], "ok", "audit passed")
        assert sqlite3.connect(data / "live.db").execute("SELECT open FROM session").fetchone() == before
        game.pay_bank("Bob", 10)  # still writable: the doctor left no lock
    finally:
        game.close()


def test_a_damaged_game_fails(fake, data, key_file, key):
    path = new_game(data, key)
    raw = bytearray(path.read_bytes())
    for offset in range(4096, len(raw)):
        raw[offset] = 0x5A
    path.write_bytes(bytes(raw))
    assert_status(checks(config_for(data, key_file=key_file), fake)["game game.db"], "fail", "damaged",
                  "restore its newest backup")


def test_a_tampered_journal_fails_the_audit(fake, data, key_file, key):
    path = new_game(data, key)
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER postings_append_only_update")
    db.execute("UPDATE postings SET amount = amount * 2 WHERE seq = 2")
    db.commit()
    db.close()
    assert_status(checks(config_for(data, key_file=key_file), fake)["game game.db"], "fail",
                  "journal does not match", "restore")


def test_a_game_from_another_device_is_a_warning(fake, data, key_file):
    new_game(data, bytes(32))
    assert_status(checks(config_for(data, key_file=key_file), fake)["game game.db"], "warn", "another device's key")


def test_a_database_that_is_not_a_game(fake, data, key_file):
    db = sqlite3.connect(data / "other.db")
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    assert_status(checks(config_for(data, key_file=key_file), fake)["game other.db"], "warn", "not a Banquier game")


def test_games_without_a_key(fake, data, key, tmp_path):
    new_game(data, key)
    found = checks(config_for(data, key_file=tmp_path / "missing.key"), fake)
    assert_status(found["key"], "fail", "no device key", "restore")
    assert_status(found["game game.db"], "warn", "intact", "not verified")


def test_key_damaged_or_too_open(fake, data, key_file, key):
    key_file.write_bytes(b"short")
    assert_status(checks(config_for(data, key_file=key_file), fake)["key"], "fail", "damaged (5 bytes")
    key_file.write_bytes(key)
    key_file.chmod(0o644)
    assert_status(checks(config_for(data, key_file=key_file), fake)["key"], "warn", "readable by others",
                  "chmod 600")


def test_key_default_location_follows_the_environment(fake, data, tmp_path, key):
    (tmp_path / "xdg" / "banquier").mkdir(parents=True)
    (tmp_path / "xdg" / "banquier" / "device.key").write_bytes(key)
    found = checks(config_for(data), fake, env={"XDG_CONFIG_HOME": str(tmp_path / "xdg")})
    assert str(tmp_path / "xdg" / "banquier" / "device.key") in found["key"].what
    found = checks(config_for(data), fake, env={"BANQUIER_KEY_FILE": str(tmp_path / "k")})
    assert str(tmp_path / "k") in found["key"].what


def test_the_whole_device_reads_well(fake, data, key_file, key):
    ready_pi(fake)
    fake.write("proc/bus/input/devices", INPUT_DEVICES)
    fake.write("dev/input/event0")
    new_game(data, key)
    found = checks(config_for(data, DEVICE, key_file=key_file), fake, load_reader=_fake_reader,
                   env={"SDL_VIDEODRIVER": "kmsdrm", "INVOCATION_ID": "x"})
    assert worst(found.values()) == "ok", format_checks(found.values())
    assert list(found) == ["config", "spi", "reader", "gpio", "groups", "display", "touch", "texts", "data_dir",
                           "editions", "key", "game game.db"]


# -------------------------------------------------------------------------------------------- editions
def test_the_shipped_editions_carry_every_text_in_every_language(fake, data):
    found = checks(config_for(data), fake, env={"DISPLAY": ":0", "HOME": str(fake.path)})
    assert_status(found["editions"], "ok", "fr, fr-francs, ru-roubles, ultimate, us, us-1935", "fr, en, uk")


def test_an_edition_with_gaps_gets_one_english_line(fake, data, monkeypatch, tmp_path):
    from cards.editions import DATA_DIR, load_edition, load_edition_file
    source = (DATA_DIR / "us.toml").read_text(encoding="utf-8")
    gappy = tmp_path / "us-gaps.toml"
    gappy.write_text(source.replace('name = "us"', 'name = "us-gaps"', 1).replace(', uk = "Бордвок" }', " }"),
                     encoding="utf-8")
    broken = tmp_path / "broken.toml"
    broken.write_text("[edition]\n", encoding="utf-8")
    editions = {"us": load_edition("us"), "us-gaps": load_edition_file(gappy)}

    def load(name):
        return editions[name] if name in editions else load_edition_file(broken)

    monkeypatch.setattr(doctor, "available_editions", lambda: ["broken", "us", "us-gaps"])
    monkeypatch.setattr(doctor, "load_edition", load)
    found = [c for c in run_checks(config_for(data), root=fake.path, env={"DISPLAY": ":0", "HOME": str(fake.path)},
                                   user="banquier", access=lambda path, mode: True,
                                   installed=lambda name: PACKAGES_PI4.get(name), found=lambda name: True,
                                   video_drivers=lambda: ["x11", "dummy"], load_reader=_no_reader,
                                   disk_free=lambda path: 10 ** 9) if c.name == "editions"]
    assert len(found) == 2  # one line per edition with a problem; none for the complete one
    assert_status(found[0], "fail", "edition broken does not load", "edition.name: missing")
    assert_status(found[1], "warn", "edition us-gaps lacks texts in uk: 1 square (first: square 39)",
                  "the edition's own language")
    assert "us " not in format_checks(found).replace("us-gaps", "")


# ------------------------------------------------------------------- the other readers' declared probes
KEYBOARD = '[hardware.reader]\nbackend = "keyboard"\ndevice = "/dev/input/by-id/usb-RFID-event-kbd"\n'


def test_keyboard_reader_missing_then_not_permitted_then_ok(fake, data):
    found = checks(config_for(data, KEYBOARD), fake, installed=lambda d: "1.7.0" if d == "evdev" else None)
    assert_status(found["keyboard"], "fail", "usb-RFID-event-kbd is not connected", "/dev/input/by-id/")
    fake.write("dev/input/by-id/usb-RFID-event-kbd")
    found = checks(config_for(data, KEYBOARD), fake, installed=lambda d: "1.7.0" if d == "evdev" else None,
                   access=lambda p, m: False)
    assert_status(found["keyboard"], "fail", "may not use /dev/input/by-id/usb-RFID-event-kbd")
    found = checks(config_for(data, KEYBOARD), fake, installed=lambda d: "1.7.0" if d == "evdev" else None,
                   access=lambda p, m: True, probe_hardware=False)
    assert_status(found["keyboard"], "ok", "usable by", "not opened")
    assert_status(found["groups"], "fail", "input", "the keyboard card reader")


def _evdev_installed(name):
    return "1.7.0" if name == "evdev" else None


def _load(name, env, **options):
    import hal
    return hal.load_reader(name, env=env, **options)


def test_keyboard_reader_is_opened_as_the_terminal_opens_it(fake, data, fake_evdev):
    """The probe opens and grabs the device through evdev (here the fake at its boundary), as `run` does: a
    reader that opens is ok, and let go."""
    fake.write("dev/input/by-id/usb-RFID-event-kbd")
    node = fake_evdev.add("/dev/input/by-id/usb-RFID-event-kbd")
    found = checks(config_for(data, KEYBOARD), fake, installed=_evdev_installed, load_reader=_load)
    assert_status(found["keyboard"], "ok", "opened and grabbed")
    assert node.grabbed_by is None


@pytest.mark.parametrize("device", ["/dev/null", "/etc/passwd", "RFID"])
def test_keyboard_reader_that_is_no_input_device_fails(fake, data, fake_evdev, device):
    """A device that exists but is no input device (/dev/null, /etc/passwd), or a name with no /dev/input at all:
    `run` cannot open it, so the doctor says FAIL, not ok."""
    if device.startswith("/"):
        fake.write(device.lstrip("/"))
    config = f'[hardware.reader]\nbackend = "keyboard"\ndevice = "{device}"\n'
    found = checks(config_for(data, config), fake, installed=_evdev_installed, load_reader=_load)
    assert_status(found["keyboard"], "fail", "no input device")


def test_keyboard_reader_without_evdev_names_the_package(fake, data):
    found = checks(config_for(data, KEYBOARD), fake, installed=lambda d: None)
    assert_status(found["keyboard"], "fail", "python-evdev is not installed", "evdev>=1.6")


def test_pn532_on_i2c_not_enabled(fake, data):
    found = checks(config_for(data, '[hardware.reader]\nbackend = "pn532"\n'), fake)
    assert_status(found["pn532"], "fail", "I²C is not enabled: /dev/i2c-1 is missing", "do_i2c 0")


PN532_LIBS = {"adafruit-circuitpython-pn532": "2.4.0", "adafruit-blinka": "8.0.0", "pyserial": "3.5"}


@pytest.mark.parametrize("interface", ["i2c", "spi", "uart"])
def test_pn532_without_its_library_says_so_on_every_interface(fake, data, interface):
    """The missing Adafruit library is named whatever else is wrong (on I²C, beside "I²C is not enabled"), and
    not named when it is there."""
    config = f'[hardware.reader]\nbackend = "pn532"\ninterface = "{interface}"\nport = "/dev/ttyUSB0"\n'
    without = {k: v for k, v in PN532_LIBS.items() if k != "adafruit-circuitpython-pn532"}
    found = checks(config_for(data, config), fake, installed=without.get)
    assert_status(found["pn532-lib"], "fail", "adafruit-circuitpython-pn532", "pip")
    assert found["pn532"].status == "fail"  # the bus is missing in the fake root too: both lines
    assert "pn532-lib" not in checks(config_for(data, config), fake, installed=PN532_LIBS.get)


def test_pcsc_without_pcscd(fake, data):
    found = checks(config_for(data, '[hardware.reader]\nbackend = "pcsc"\n'), fake,
                   installed=lambda d: "2.2" if d == "pyscard" else None)
    assert_status(found["pcsc"], "fail", "pcscd is not running", "apt install pcscd")
