"""The Raspberry Pi deploy scripts, run here: shellcheck-clean, the unit file accepted by ``systemd-analyze
verify`` and hardened, and install.sh / uninstall.sh run against a temporary root directory (their test-only
BANQUIER_TEST_ROOT) with recording stubs for apt-get, dpkg-query, apt-cache, systemctl, raspi-config,
useradd/usermod/groupadd/userdel/groupdel, chown, id, sudo, runuser and the Python/pip calls
(tests/deploy/stubs.py), then every file they wrote checked. The real install, nothing stubbed, is
tests/deploy/real_install.sh (run by .ci/run).

shellcheck and systemd-analyze must be installed (``apt-get install -y shellcheck systemd``): these tests
fail, they do not skip, when a tool is missing.
"""
from __future__ import annotations

import fnmatch
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from host_ui.shell.config import load_config
from tests.deploy.stubs import (
    CONFIG_TXT,
    GROUP,
    environment,
    fake_pi,
    make_stubs,
    read_log,
)

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
INSTALL = DEPLOY / "install.sh"
UNINSTALL = DEPLOY / "uninstall.sh"
UNIT = DEPLOY / "banquier.service"
DEVICE_GROUPS = ("spi", "gpio", "input", "dialout", "video", "render")
BASE_PACKAGES = ("python3", "python3-venv", "python3-dev", "gcc", "python3-pygame", "python3-spidev", "python3-evdev",
                 "fonts-dejavu-core", "sqlite3")


def need(tool: str, package: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.fail(f"{tool} is not installed: apt-get install -y {package} (the deploy tests need it)")
    return path


# ---------------------------------------------------------------------------------------- fixtures
class Run:
    """One fake Raspberry Pi and the means to run the deploy scripts against it."""

    def __init__(self, tmp_path: Path):
        self.root = tmp_path / "root"
        self.stubs = make_stubs(tmp_path / "stubs")
        self.log = tmp_path / "calls.jsonl"
        self.extra_env: dict[str, str] = {}

    def __call__(self, script: Path, *args: str, check: bool = True, **env: str) -> subprocess.CompletedProcess:
        self.log.write_text("")
        result = subprocess.run(["bash", str(script), *args], capture_output=True, text=True, timeout=120,
                                check=False, env=environment(self.stubs, self.log, BANQUIER_TEST_ROOT=str(self.root),
                                                             **{**self.extra_env, **env}))
        if check:
            assert result.returncode == 0, f"{script.name} failed:\n{result.stdout}\n{result.stderr}"
        return result

    def calls(self, name: str | None = None) -> list[list[str]]:
        return [c for c in read_log(self.log) if name is None or c[0] == name]

    def file(self, relative: str) -> Path:
        return self.root / relative.lstrip("/")

    def tree(self) -> dict[str, tuple]:
        """Every file, folder and link under the root with its mode and content (for idempotence)."""
        out = {}
        for path in sorted(self.root.rglob("*")):
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                out[str(path.relative_to(self.root))] = ("link", os.readlink(path))
            elif path.is_dir():
                out[str(path.relative_to(self.root))] = ("dir", stat.S_IMODE(info.st_mode))
            else:
                out[str(path.relative_to(self.root))] = ("file", stat.S_IMODE(info.st_mode), path.read_bytes())
        return out

    def members(self, group: str) -> list[str]:
        for line in self.file("/etc/group").read_text().splitlines():
            fields = line.split(":")
            if fields[0] == group:
                return [m for m in fields[3].split(",") if m]
        raise AssertionError(f"no group {group}")


@pytest.fixture
def pi(tmp_path) -> Run:
    run = Run(tmp_path)
    fake_pi(run.root)
    return run


@pytest.fixture
def pi5(tmp_path) -> Run:
    run = Run(tmp_path)
    fake_pi(run.root, "Raspberry Pi 5 Model B Rev 1.0")
    return run


def pip_calls(run: Run) -> list[list[str]]:
    return [c[3:] for c in run.calls("venv-python") if c[1:3] == ["-m", "pip"]]


# --------------------------------------------------------------------------------------- shellcheck
REAL_INSTALL = Path(__file__).with_name("real_install.sh")


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL, REAL_INSTALL, REPO / ".ci" / "run"], ids=lambda p: p.name)
def test_scripts_are_shellcheck_clean(script):
    shellcheck = need("shellcheck", "shellcheck")
    result = subprocess.run([shellcheck, "--shell=bash", "--severity=style", "--external-sources", str(script)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr


@pytest.mark.parametrize("script", [INSTALL, UNINSTALL, REAL_INSTALL], ids=lambda p: p.name)
def test_scripts_are_executable_bash(script):
    assert os.access(script, os.X_OK)
    assert script.read_text().startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in script.read_text()


# -------------------------------------------------------------------------------------- the unit file
def unit_entries(text: str) -> list[tuple[str, str, str]]:
    """``(section, key, value)`` of a systemd unit, in order (keys may repeat)."""
    entries, section = [], ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        entries.append((section, key.strip(), value.strip()))
    return entries


def values(text: str, section: str, key: str) -> list[str]:
    return [v for s, k, v in unit_entries(text) if s == section and k == key]


def test_the_unit_says_what_the_device_needs():
    text = UNIT.read_text()
    assert values(text, "Service", "ExecStart") == ["/opt/banquier/venv/bin/banquier run"]
    assert values(text, "Service", "User") == ["banquier"]
    assert set(values(text, "Service", "SupplementaryGroups")[0].split()) >= {"spi", "gpio", "input", "dialout",
                                                                              "video", "render"}
    environment_lines = values(text, "Service", "Environment")
    assert "SDL_VIDEODRIVER=kmsdrm" in environment_lines
    assert "PYTHONUNBUFFERED=1" in environment_lines
    assert "BANQUIER_CONFIG=/etc/banquier/config.toml" in environment_lines
    assert not any(e.startswith("DISPLAY=") for e in environment_lines)
    # Restarted slowly and forever: never left failed until a reboot (systemd 252 understands both).
    assert values(text, "Service", "Restart") == ["on-failure"]
    assert values(text, "Service", "RestartSec") == ["30"]
    assert values(text, "Unit", "StartLimitIntervalSec") == ["0"]
    assert not values(text, "Service", "RestartPreventExitStatus")
    assert values(text, "Service", "KillSignal") == ["SIGTERM"]
    assert 5 <= int(values(text, "Service", "TimeoutStopSec")[0]) <= 60
    assert values(text, "Service", "StateDirectory") == ["banquier"]
    assert values(text, "Install", "WantedBy") == ["multi-user.target"]
    # Keys Bookworm's systemd 252 does not know stay out of the unit (install.sh adds them as a drop-in).
    assert not values(text, "Service", "RestartSteps")


def verify_root(run: Run) -> Path:
    """The installed root, completed with the host's system units so `systemd-analyze --root` can load
    the targets the unit names."""
    host_units = Path("/usr/lib/systemd/system")
    if not host_units.is_dir():
        pytest.fail("no /usr/lib/systemd/system: apt-get install -y systemd")
    shutil.copytree(host_units, run.file("/usr/lib/systemd/system"), symlinks=True, dirs_exist_ok=True)
    return run.root


def analyze(root: Path) -> subprocess.CompletedProcess:
    tool = need("systemd-analyze", "systemd")
    return subprocess.run([tool, "verify", f"--root={root}", "/etc/systemd/system/banquier.service"],
                          capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "SYSTEMD_LOG_COLOR": "0"})


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_the_installed_unit_passes_systemd_analyze_verify(pi):
    pi(INSTALL)
    result = analyze(verify_root(pi))
    assert result.returncode == 0 and not (result.stdout + result.stderr).strip(), result.stdout + result.stderr


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_systemd_analyze_verify_does_catch_a_bad_unit(pi):
    """The check above is not vacuous: a bad value and an unknown key are reported."""
    pi(INSTALL)
    root = verify_root(pi)
    unit = pi.file("/etc/systemd/system/banquier.service")
    unit.write_text(unit.read_text().replace("Restart=on-failure", "Restart=sometimes\nRestartt=always"))
    result = analyze(root)
    report = result.stdout + result.stderr
    assert "sometimes" in report and "Restartt" in report


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_verify_needs_the_program_installed(pi):
    pi(INSTALL)
    root = verify_root(pi)
    pi.file("/opt/banquier/venv/bin/banquier").unlink()
    result = analyze(root)
    assert result.returncode != 0 and "/opt/banquier/venv/bin/banquier" in result.stdout + result.stderr


# ------------------------------------------------------------------------------------------ install
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_writes_the_unit_and_enables_it(pi):
    pi(INSTALL)
    unit = pi.file("/etc/systemd/system/banquier.service")
    assert unit.read_bytes() == UNIT.read_bytes()
    assert stat.S_IMODE(unit.stat().st_mode) == 0o644
    assert ["systemctl", f"--root={pi.root}", "enable", "banquier.service", "banquier-phone.service"] \
        in pi.calls("systemctl")
    assert not any("daemon-reload" in c or "start" in c or "restart" in c for c in pi.calls("systemctl"))
    assert not pi.file("/etc/systemd/system/banquier.service.d/50-backoff.conf").exists()


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_adds_the_back_off_on_a_newer_systemd(pi):
    pi(INSTALL, STUB_SYSTEMD_VERSION="256")
    dropin = pi.file("/etc/systemd/system/banquier.service.d/50-backoff.conf").read_text()
    assert values(dropin, "Service", "RestartSteps") and values(dropin, "Service", "RestartMaxDelaySec")
    pi(INSTALL, STUB_SYSTEMD_VERSION="252")  # and removes it again where it is not understood
    assert not pi.file("/etc/systemd/system/banquier.service.d/50-backoff.conf").exists()


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_writes_the_configuration_from_the_example(pi, tmp_path):
    pi(INSTALL)
    config = pi.file("/etc/banquier/config.toml")
    assert config.read_bytes() == (DEPLOY / "config.example.toml").read_bytes()
    assert stat.S_IMODE(config.stat().st_mode) == 0o640  # the banker PIN is not for every local user
    assert ["chown", "root:banquier", str(config)] in pi.calls("chown")
    loaded = load_config(config, {"HOME": str(tmp_path)}, root=pi.root)
    assert loaded.reader.backend == "mfrc522"
    assert loaded.storage.data_dir.is_relative_to("/var/lib/banquier")


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_never_overwrites_a_configuration(pi):
    mine = pi.file("/etc/banquier/config.toml")
    mine.parent.mkdir(parents=True)
    mine.write_text('[game]\nlanguage = "uk"\n')
    result = pi(INSTALL)
    assert mine.read_text() == '[game]\nlanguage = "uk"\n'
    assert "keeping /etc/banquier/config.toml" in result.stdout
    assert pi.file("/etc/banquier/config.example.toml").read_bytes() == (DEPLOY / "config.example.toml").read_bytes()


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_makes_the_data_directory(pi):
    pi(INSTALL)
    for directory in ("/var/lib/banquier", "/var/lib/banquier/data"):
        assert stat.S_IMODE(pi.file(directory).stat().st_mode) == 0o750
    assert ["chown", "banquier:banquier", str(pi.file("/var/lib/banquier")),
            str(pi.file("/var/lib/banquier/data"))] in pi.calls("chown")


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_installs_the_system_packages(pi):
    pi(INSTALL)
    apt = pi.calls("apt-get")
    assert apt[0][1:] == ["update", "-q"]
    packages = apt[1][apt[1].index("--no-install-recommends") + 1:]
    assert apt[1][1:3] == ["install", "-y"]
    assert {"python3-pygame", "python3-spidev", "python3-evdev", "python3-venv", "fonts-dejavu-core", "python3-dev",
            "gcc"} <= set(packages)
    assert "python3-lgpio" not in packages


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_makes_a_venv_that_sees_the_system_packages(pi):
    pi(INSTALL)
    venv = str(pi.file("/opt/banquier/venv"))
    assert ["python3", "-m", "venv", "--system-site-packages", venv] in pi.calls("python3")
    assert "include-system-site-packages = true" in pi.file("/opt/banquier/venv/pyvenv.cfg").read_text()


def dependency_install(run: Run) -> list[str]:
    """The pip call that installs the dependencies (from the wheelhouse)."""
    return next(c for c in pip_calls(run) if c[0] == "install" and "--no-index" in c and "sqlite-utils>=4,<5" in c)


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_on_a_pi_4_uses_rpi_gpio(pi):
    pi(INSTALL)
    deps = dependency_install(pi)
    assert "RPi.GPIO>=0.7; platform_machine != 'x86_64'" in deps
    assert "spidev>=3.6" in deps and "sqlite-utils>=4,<5" in deps and "pyserial>=3.5" in deps
    assert not any(d.lower().startswith("pygame") for d in deps), "pygame comes from Debian (kmsdrm)"
    assert "rpi-lgpio" not in deps and "lgpio" not in deps
    assert any(c[0] == "install" and c[-2:] == ["--no-deps", "mfrc522==0.0.7"] for c in pip_calls(pi))
    assert not any("rpi-lgpio" in c for c in pip_calls(pi))
    banquier = pip_calls(pi)[-1]
    assert banquier[0] == "install" and "--no-index" in banquier
    assert banquier[-3:-1] == ["--no-deps", "--force-reinstall"]
    assert banquier[-1].endswith("/dist/banquier-0.1.0-py3-none-any.whl")
    assert not banquier[-1].startswith(str(REPO)), "built from a copy, not in the checkout"


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_on_a_pi_5_uses_rpi_lgpio(pi5):
    result = pi5(INSTALL, STUB_PIP_HAS="RPi.GPIO")
    apt_install = pi5.calls("apt-get")[1]
    assert "python3-lgpio" in apt_install
    deps = dependency_install(pi5)
    assert not any(d.startswith(("RPi.GPIO", "rpi-lgpio", "lgpio")) for d in deps)
    # Without its dependencies: lgpio is Debian's (pip would try to build it from source).
    assert any(c[0] == "install" and "--no-deps" in c and "rpi-lgpio" in c for c in pip_calls(pi5))
    assert not any(c[-1] == "lgpio" for c in pip_calls(pi5))
    assert ["uninstall", "--yes", "RPi.GPIO"] in pip_calls(pi5)
    assert "lgpio from Debian's python3-lgpio" in result.stdout


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_on_a_pi_5_on_plain_debian_takes_lgpios_wheel_from_pypi(pi5):
    """Plain Debian has no python3-lgpio: `E: Unable to locate package python3-lgpio` stopped the install. PyPI
    has lgpio wheels for the Pi's Python (aarch64, armv7l): the wheel is taken, and swig is not installed."""
    result = pi5(INSTALL, STUB_APT_MISSING="python3-lgpio")
    apt_install = pi5.calls("apt-get")[1]
    assert "python3-lgpio" not in apt_install and "swig" not in apt_install
    fetched = [c for c in pip_calls(pi5) if c[0] == "wheel" and c[-1] == "lgpio>=0.2"]
    assert fetched and all("--only-binary=lgpio" in c for c in fetched), fetched  # never the empty 0.0.0.2
    assert any(c[0] == "install" and "--no-index" in c and c[-1] == "lgpio>=0.2" for c in pip_calls(pi5))
    assert "lgpio from PyPI" in result.stdout and "building it from source" not in result.stdout
    # The choice is remembered: a rerun with everything installed asks apt nothing (no network).
    result = pi5(INSTALL, STUB_APT_MISSING="python3-lgpio", STUB_DPKG_HAS=",".join(BASE_PACKAGES),
                 STUB_OFFLINE="yes")
    assert pi5.calls("apt-get") == [] and "lgpio from PyPI" in result.stdout
    assert any(c[0] == "install" and c[-1] == "lgpio>=0.2" for c in pip_calls(pi5))


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_builds_lgpio_with_swig_only_where_pypi_has_no_wheel(pi5):
    result = pi5(INSTALL, STUB_APT_MISSING="python3-lgpio", STUB_NO_WHEEL="lgpio")
    assert pi5.calls("apt-get")[-1][1:] == ["install", "-y", "-q", "--no-install-recommends", "swig"]
    assert any(c[0] == "wheel" and "--no-binary=lgpio" in c and c[-1] == "lgpio>=0.2" for c in pip_calls(pi5))
    assert "building it from source (with swig)" in result.stdout


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_the_first_fetch_builds_source_packages_through_pep_517(pi):
    """RPi.GPIO is only a source package: pip's legacy `setup.py bdist_wheel` fails without the wheel package
    (`invalid command 'bdist_wheel'` on a plain Bookworm arm64 root and Raspberry Pi OS Lite)."""
    pi(INSTALL)
    fetched = [c for c in pip_calls(pi) if c[0] == "wheel" and "--no-index" not in c]
    assert fetched and all("--use-pep517" in c for c in fetched), fetched
    assert any(any(r.startswith("RPi.GPIO") for r in c) for c in fetched)


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_on_a_kernel_without_gpiomem_uses_rpi_lgpio_and_keeps_it(pi):
    """A Pi 4 on plain Debian's kernel has /dev/gpiochip0 but no /dev/gpiomem: RPi.GPIO cannot drive its pins.
    The installer chooses rpi-lgpio, and a later run keeps it (doctor's old pip switch was undone by it)."""
    pi.file("/dev/gpiochip0").parent.mkdir(parents=True, exist_ok=True)
    pi.file("/dev/gpiochip0").write_text("")
    result = pi(INSTALL, STUB_PIP_HAS="RPi.GPIO")
    assert "this kernel has no /dev/gpiomem" in result.stdout
    assert any(c[0] == "install" and "--no-deps" in c and "rpi-lgpio" in c for c in pip_calls(pi))
    assert ["uninstall", "--yes", "RPi.GPIO"] in pip_calls(pi)
    again = pi(INSTALL)
    assert "rpi-lgpio" in " ".join(" ".join(c) for c in pip_calls(pi)) and "no /dev/gpiomem" in again.stdout
    pi.file("/dev/gpiomem").write_text("")  # Raspberry Pi's kernel: RPi.GPIO
    pi(INSTALL)
    assert not any("rpi-lgpio" in c for c in pip_calls(pi))


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_on_a_pi_5_stops_when_lgpio_cannot_be_imported(pi5):
    result = pi5(INSTALL, STUB_NO_MODULE="lgpio", check=False)
    assert result.returncode != 0 and "the lgpio module cannot be imported" in result.stderr


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_on_a_pi_5_read_from_sys_firmware(tmp_path):
    run = Run(tmp_path)
    fake_pi(run.root)
    run.file("/proc/device-tree/model").unlink()
    model = run.file("/sys/firmware/devicetree/base/model")
    model.parent.mkdir(parents=True)
    model.write_text("Raspberry Pi 5 Model B Rev 1.0\0")
    result = run(INSTALL)
    assert "this is a Raspberry Pi 5 Model B Rev 1.0" in result.stdout
    assert any("--no-deps" in c and "rpi-lgpio" in c for c in pip_calls(run))


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_puts_the_user_in_the_device_groups(pi):
    pi(INSTALL)
    passwd = pi.file("/etc/passwd").read_text()
    assert re.search(r"^banquier:x:\d+:\d+:[^:]*:/var/lib/banquier:/usr/sbin/nologin$", passwd, re.MULTILINE)
    for group in DEVICE_GROUPS:
        assert "banquier" in pi.members(group), group
    assert pi.members("video") == ["pi", "banquier"]  # others stay
    useradd = pi.calls("useradd")[0]
    assert {"--system", "--user-group", "--no-create-home"} <= set(useradd) and "--root" in useradd


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_the_user_who_installs_joins_the_service_group_and_purge_removes_it(pi):
    """What `banquier` writes for pi is the service user's, 0640, group banquier: pi joins that group to read it
    (sudo sets SUDO_USER); --purge deletes the group, which userdel keeps while pi is in it."""
    result = pi(INSTALL, SUDO_USER="pi")
    assert "pi" in pi.members("banquier") and "user pi: joining the group banquier" in result.stdout
    again = pi(INSTALL, SUDO_USER="pi")
    assert pi.members("banquier").count("pi") == 1 and "already in the group banquier" in again.stdout
    pi(INSTALL, SUDO_USER="root")
    assert "root" not in pi.members("banquier")
    result = pi(UNINSTALL, "--purge")
    assert "deleting the group banquier (its members: pi)" in result.stdout
    assert not any(line.startswith("banquier:") for line in pi.file("/etc/group").read_text().splitlines())


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_creates_missing_groups(tmp_path):
    run = Run(tmp_path)
    kept = [line for line in GROUP.splitlines() if not line.startswith(("spi:", "gpio:"))]
    fake_pi(run.root, group="\n".join(kept) + "\n")
    run(INSTALL)
    assert [c[-1] for c in run.calls("groupadd")] == ["spi", "gpio"]
    assert "banquier" in run.members("spi") and "banquier" in run.members("gpio")


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_enables_spi_by_uncommenting(pi):
    pi(INSTALL)
    text = pi.file("/boot/firmware/config.txt").read_text()
    assert re.findall(r"^.*dtparam=spi=on.*$", text, re.MULTILINE) == ["dtparam=spi=on"]
    assert text == CONFIG_TXT.replace("#dtparam=spi=on", "dtparam=spi=on")
    assert pi.calls("raspi-config") == []  # in the test tree the file is edited, not this machine


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_enables_spi_for_every_model_after_a_conditional_section(tmp_path):
    run = Run(tmp_path)
    fake_pi(run.root, config_txt=CONFIG_TXT.replace("#dtparam=spi=on\n", ""))
    result = run(INSTALL)
    text = run.file("/boot/firmware/config.txt").read_text()
    assert text.endswith("[cm5]\ndtoverlay=dwc2,dr_mode=host\n\n[all]\ndtparam=spi=on\n")
    assert "reboot" in result.stdout


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_leaves_spi_alone_when_enabled(tmp_path):
    run = Run(tmp_path)
    enabled = CONFIG_TXT.replace("#dtparam=spi=on", "dtparam=spi=on")
    fake_pi(run.root, config_txt=enabled)
    result = run(INSTALL)
    assert run.file("/boot/firmware/config.txt").read_text() == enabled
    assert "SPI: already enabled" in result.stdout


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_uses_the_old_boot_partition_path(tmp_path):
    run = Run(tmp_path)
    fake_pi(run.root, config_txt=None)
    old = run.file("/boot/config.txt")
    old.parent.mkdir(parents=True)
    old.write_text("#dtparam=spi=on\n")
    run(INSTALL)
    assert old.read_text() == "dtparam=spi=on\n"


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_twice_changes_nothing(pi):
    pi(INSTALL)
    first = pi.tree()
    result = pi(INSTALL)
    assert pi.tree() == first
    second = pi.calls()
    for name in ("useradd", "usermod", "groupadd"):
        assert not [c for c in second if c[0] == name], name
    assert not [c for c in second if c[:3] == ["python3", "-m", "venv"]]
    assert "user banquier: already there" in result.stdout and "SPI: already enabled" in result.stdout
    assert "keeping /etc/banquier/config.toml" in result.stdout


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_repairs_a_venv_without_system_packages(pi):
    pi(INSTALL)
    cfg = pi.file("/opt/banquier/venv/pyvenv.cfg")
    cfg.write_text(cfg.read_text().replace("= true", "= false"))
    pi(INSTALL)
    assert "include-system-site-packages = true" in cfg.read_text()


def test_install_help_and_bad_options(pi):
    result = subprocess.run(["bash", str(INSTALL), "--help"], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and "--source DIR" in result.stdout
    assert "--root" not in result.stdout and "SD card images" not in result.stdout
    result = pi(INSTALL, "--frobnicate", check=False)
    assert result.returncode != 0 and "unknown option: --frobnicate" in result.stderr
    assert pi.calls() == []


def test_install_refuses_a_source_that_is_not_banquier(pi, tmp_path):
    result = pi(INSTALL, "--source", str(tmp_path), check=False)
    assert result.returncode != 0 and "not a Banquier checkout" in result.stderr


def test_install_without_root_asks_for_sudo(tmp_path):
    command = ["bash", str(INSTALL)]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.fail("setpriv is needed to run this test as root: apt-get install -y util-linux")
        command = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    stubs = make_stubs(tmp_path / "stubs")
    result = subprocess.run(command, capture_output=True, text=True,
                            env=environment(stubs, tmp_path / "log"), cwd="/", check=False)
    assert result.returncode != 0 and "run it as root: sudo" in result.stderr
    assert not (tmp_path / "log").exists()


# ---------------------------------------------------------------------------------------- uninstall
def installed_with_a_game(run: Run) -> Path:
    run(INSTALL)
    game = run.file("/var/lib/banquier/data/family.db")
    game.write_bytes(b"SQLite format 3\0 a game")
    run.file("/var/lib/banquier/device.key").write_bytes(bytes(32))
    return game


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_uninstall_keeps_the_games(pi):
    game = installed_with_a_game(pi)
    own = pi.file("/etc/systemd/system/banquier.service.d/override.conf")
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_text("[Service]\nNice=-5\n")
    result = pi(UNINSTALL)
    assert ["systemctl", f"--root={pi.root}", "disable", "banquier.service"] in pi.calls("systemctl")
    assert not pi.file("/etc/systemd/system/banquier.service").exists()
    assert not pi.file("/opt/banquier").exists()
    assert game.read_bytes() == b"SQLite format 3\0 a game"
    assert pi.file("/var/lib/banquier/device.key").exists()
    assert pi.file("/etc/banquier/config.toml").exists()
    assert "banquier" in pi.members("spi")
    assert own.exists()  # the user's own drop-in stays
    assert "kept: the games" in result.stdout
    assert pi.calls("userdel") == []


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_uninstall_purge_deletes_everything(pi):
    installed_with_a_game(pi)
    pi(UNINSTALL, "--purge")
    for gone in ("/etc/systemd/system/banquier.service", "/etc/systemd/system/banquier.service.d", "/opt/banquier",
                 "/var/lib/banquier", "/etc/banquier"):
        assert not pi.file(gone).exists(), gone
    assert pi.calls("userdel") == [["userdel", "--root", str(pi.root), "banquier"]]
    assert "banquier:" not in pi.file("/etc/passwd").read_text()
    assert "banquier" not in pi.members("spi")
    assert pi.file("/boot/firmware/config.txt").read_text().count("\ndtparam=spi=on") == 1  # SPI stays


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_uninstall_then_install_again_finds_the_games(pi):
    game = installed_with_a_game(pi)
    pi(UNINSTALL)
    result = pi(INSTALL)
    assert game.exists() and "keeping /etc/banquier/config.toml" in result.stdout
    assert "user banquier: already there" in result.stdout


def test_uninstall_of_nothing_is_fine(pi):
    result = pi(UNINSTALL)
    assert "program: removing" not in result.stdout
    result = pi(UNINSTALL, "--purge")
    assert pi.calls("userdel") == []


def test_uninstall_help_and_bad_options(pi):
    result = subprocess.run(["bash", str(UNINSTALL), "--help"], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and "--purge" in result.stdout
    result = pi(UNINSTALL, "--everything", check=False)
    assert result.returncode != 0 and "unknown option" in result.stderr


# ------------------------------------------------------------------------ the command for everyone
COMMAND = DEPLOY / "banquier-command.sh"


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_puts_banquier_on_path_for_everyone(pi):
    pi(INSTALL)
    command = pi.file("/usr/local/bin/banquier")
    assert command.read_bytes() == COMMAND.read_bytes()
    assert stat.S_IMODE(command.stat().st_mode) == 0o755


def test_the_command_is_shellcheck_clean():
    shellcheck = need("shellcheck", "shellcheck")
    result = subprocess.run([shellcheck, "--shell=sh", "--severity=style", str(COMMAND)], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout


def run_command(tmp_path: Path, *args: str, **env: str) -> tuple[subprocess.CompletedProcess, list[list[str]]]:
    """The /usr/local/bin/banquier wrapper run with the stubs (id, sudo, runuser) and a fake program."""
    stubs = make_stubs(tmp_path / "stubs")
    program = tmp_path / "venv-banquier"
    program.write_text('#!/bin/sh\necho "program: $(id -un) $BANQUIER_CONFIG $*"\n')
    program.chmod(0o755)
    script = tmp_path / "banquier"
    script.write_text(COMMAND.read_text().replace("/opt/banquier/venv/bin/banquier", str(program)))
    log = tmp_path / "calls.jsonl"
    log.write_text("")
    result = subprocess.run(["sh", str(script), *args], capture_output=True, text=True, timeout=30, check=False,
                            env=environment(stubs, log, **env))
    return result, read_log(log)


def test_the_command_as_root_runs_as_the_service_user(tmp_path):
    result, calls = run_command(tmp_path, "doctor", "--no-probe", STUB_USER="root", STUB_UID="0")
    assert result.returncode == 0, result.stderr
    assert ["runuser", "-u", "banquier", "--", "env", "BANQUIER_CONFIG=/etc/banquier/config.toml",
            str(tmp_path / "venv-banquier"), "doctor", "--no-probe"] in calls


def test_the_command_for_a_sudoer_goes_through_sudo(tmp_path):
    result, calls = run_command(tmp_path, "doctor", STUB_USER="pi", STUB_UID="1000", STUB_GROUPS="pi adm sudo video")
    assert result.returncode == 0, result.stderr
    assert ["sudo", "-u", "banquier", "--", "env", "BANQUIER_CONFIG=/etc/banquier/config.toml",
            str(tmp_path / "venv-banquier"), "doctor"] in calls


def test_the_command_for_a_passwordless_sudo_rule_goes_through_sudo(tmp_path):
    result, calls = run_command(tmp_path, "games", "list", STUB_USER="kiosk", STUB_UID="1001", STUB_GROUPS="kiosk",
                                STUB_SUDO_LIST="yes")
    assert result.returncode == 0 and [c for c in calls if c[:3] == ["sudo", "-u", "banquier"]], calls


def test_the_command_for_anyone_else_says_what_to_type(tmp_path):
    result, calls = run_command(tmp_path, "doctor", STUB_USER="guest", STUB_UID="1002", STUB_GROUPS="guest")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "guest may not use sudo" in lines[0]
    assert f"sudo -u banquier env BANQUIER_CONFIG=/etc/banquier/config.toml {tmp_path / 'venv-banquier'} doctor" \
        in lines[0]
    assert not [c for c in calls if c[0] == "runuser" or c[:3] == ["sudo", "-u", "banquier"]]


def test_pin_set_runs_as_root_who_owns_the_configuration(tmp_path):
    """`sudo banquier pin set` (the README's way) ran as the service user, who cannot write /etc/banquier: exit 3.
    It writes root's configuration, so it runs as root; the program keeps the file's owner and group."""
    program = str(tmp_path / "venv-banquier")
    result, calls = run_command(tmp_path, "pin", "set", STUB_USER="root", STUB_UID="0")
    assert result.returncode == 0 and "program: " in result.stdout, result.stderr
    assert not [c for c in calls if c[0] in ("runuser", "sudo")], calls
    result, calls = run_command(tmp_path, "--config", "/etc/banquier/config.toml", "pin", "set", "--stdin",
                                STUB_USER="pi", STUB_UID="1000", STUB_GROUPS="pi sudo")
    assert ["sudo", "--", "env", "BANQUIER_CONFIG=/etc/banquier/config.toml", "PYTHONDONTWRITEBYTECODE=1", program,
            "--config", "/etc/banquier/config.toml", "pin", "set", "--stdin"] in calls, calls
    result, calls = run_command(tmp_path, "pin", "set", STUB_USER="guest", STUB_UID="1002", STUB_GROUPS="guest")
    assert result.returncode == 2 and "sudo banquier pin set" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not [c for c in calls if c[:2] == ["sudo", "--"]]
    # Any other command still runs as the service user.
    _, calls = run_command(tmp_path, "--config", "/etc/banquier/config.toml", "games", "list", STUB_USER="root",
                           STUB_UID="0")
    assert [c for c in calls if c[0] == "runuser"], calls


def test_the_command_as_the_service_user_runs_the_program_with_the_configuration(tmp_path):
    result, _ = run_command(tmp_path, "games", "list", STUB_USER="banquier", STUB_UID="990")
    assert result.returncode == 0 and result.stdout.strip().endswith("/etc/banquier/config.toml games list")


def test_the_command_without_an_installation_says_so(tmp_path):
    stubs = make_stubs(tmp_path / "stubs")
    result = subprocess.run(["sh", str(COMMAND), "doctor"], capture_output=True, text=True, check=False,
                            env=environment(stubs, tmp_path / "log"))
    if Path("/opt/banquier/venv/bin/banquier").exists():
        pytest.fail("this test needs a machine where Banquier is not installed in /opt/banquier")
    assert result.returncode == 3 and "sudo deploy/install.sh" in result.stderr


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_uninstall_removes_the_command_but_not_someone_elses(pi):
    pi(INSTALL)
    pi(UNINSTALL)
    assert not pi.file("/usr/local/bin/banquier").exists()
    mine = pi.file("/usr/local/bin/banquier")
    mine.write_text("#!/bin/sh\necho my own banquier\n")
    pi(UNINSTALL)
    assert mine.exists()


def test_doctor_as_a_user_who_cannot_read_the_configuration_says_how(tmp_path):
    """As /etc/banquier/config.toml (root:banquier 0640) for the login user: "Permission denied", no hint."""
    folder = Path(tempfile.mkdtemp(prefix="banquier-etc-"))  # a folder everyone may enter, like /etc/banquier
    try:
        folder.chmod(0o755)
        config = folder / "config.toml"
        config.write_text("[game]\n")
        config.chmod(0o640)
        command = [sys.executable, "-m", "host_ui", "--config", str(config), "doctor", "--no-probe"]
        if os.geteuid() == 0:
            setpriv = need("setpriv", "util-linux")
            command = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *command]
        result = subprocess.run(command, capture_output=True, text=True, cwd="/", check=False, timeout=60,
                                env={**os.environ, "HOME": str(tmp_path), "PYTHONPATH": str(REPO)})
    finally:
        shutil.rmtree(folder)
    assert result.returncode == 3
    assert "Permission denied" in result.stderr and "run it as the service user: banquier doctor" in result.stderr


# ------------------------------------------------------------- install from a copy, offline reruns
NOBODY = 65534


def clone_of_the_repository(tmp_path: Path) -> Path:
    """A user's clone of Banquier (owned by an ordinary user, as in /home/pi/banquier)."""
    clone = tmp_path / "clone"
    shutil.copytree(REPO, clone, ignore=shutil.ignore_patterns(".venv", ".git", "build", "*.egg-info", "__pycache__",
                                                               ".pytest_cache", ".hypothesis", ".mypy_cache",
                                                               ".ruff_cache"))
    for path in [clone, *clone.rglob("*")]:
        os.lchown(path, NOBODY, NOBODY)
    return clone


def snapshot(folder: Path) -> dict[str, tuple]:
    out = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        content = path.read_bytes() if path.is_file() and not path.is_symlink() else None
        out[str(path.relative_to(folder))] = (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode), content)
    return out


def build_trees(run: Run) -> list[list[str]]:
    return [c[2:] for c in run.calls("build-tree")]


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_builds_from_a_copy_and_gives_the_checkout_back(pi, tmp_path):
    """The installer used to build in the clone as root: build/ and banquier.egg-info stayed, root's."""
    clone = clone_of_the_repository(tmp_path)
    before = snapshot(clone)
    # What an earlier installer left there, as root.
    (clone / "build/lib/terminal").mkdir(parents=True)
    (clone / "build/lib/terminal/gone.py").write_text("a module deleted from the source long ago\n")
    (clone / "banquier.egg-info").mkdir()
    (clone / "banquier.egg-info/PKG-INFO").write_text("Name: banquier\n")
    result = pi(INSTALL, "--source", str(clone))
    assert snapshot(clone) == before, "the checkout is as its owner left it"
    assert "removing banquier.egg-info" in result.stdout and "removing build/lib" in result.stdout
    trees = build_trees(pi)
    assert len(trees) == 1
    where, files = trees[0][0], trees[0][1:]
    assert not where.startswith(str(clone))
    assert "pyproject.toml" in files and "terminal/bank/game.py" in files
    assert not [f for f in files if f.startswith(("build/", ".git/", ".venv/")) or ".egg-info" in f
                or "__pycache__" in f], files


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_a_rerun_with_nothing_changed_needs_no_network(pi):
    pi(INSTALL)
    assert any(c[0] == "wheel" and "--no-index" not in c for c in pip_calls(pi)), "the first run fetches"
    first = pi.tree()
    result = pi(INSTALL, STUB_OFFLINE="yes", STUB_DPKG_HAS="all")
    assert pi.calls("apt-get") == [], "no apt-get update when every package is installed"
    assert "system packages: all there" in result.stdout
    for call in pip_calls(pi):
        if call[0] in ("install", "wheel"):
            assert "--no-index" in call, call
    assert "Banquier: already installed from this source" in result.stdout
    assert pi.tree() == first


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_the_first_install_keeps_the_build_backend_and_the_packages_as_wheels(pi):
    pi(INSTALL)
    wheelhouse = str(pi.file("/opt/banquier/wheelhouse"))
    fetched = [c for c in pip_calls(pi) if c[0] == "wheel" and "--no-index" not in c]
    assert any(c[-2:] == ["--no-deps", "setuptools>=77"] and wheelhouse in c for c in fetched), fetched
    assert any("sqlite-utils>=4,<5" in c and c[c.index("--wheel-dir") + 1] == wheelhouse for c in fetched)
    assert pi.file("/opt/banquier/wheelhouse/setuptools-1.0-py3-none-any.whl").exists()


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_a_changed_source_is_built_again_offline_without_the_deleted_module(pi, tmp_path):
    clone = clone_of_the_repository(tmp_path)
    pi(INSTALL, "--source", str(clone))
    (clone / "hal/sim_beeper.py").unlink()
    result = pi(INSTALL, "--source", str(clone), STUB_OFFLINE="yes", STUB_DPKG_HAS="all")
    assert "Banquier: building from a copy" in result.stdout
    files = build_trees(pi)[-1][1:]
    assert "hal/sim_beeper.py" not in files and "hal/gpio_beeper.py" in files
    reinstall = pip_calls(pi)[-1]
    assert reinstall[:1] == ["install"] and "--force-reinstall" in reinstall and "--no-index" in reinstall


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_a_new_environment_gets_banquier_again(pi):
    pi(INSTALL)
    shutil.rmtree(pi.file("/opt/banquier/venv"))
    result = pi(INSTALL, STUB_DPKG_HAS="all", STUB_OFFLINE="yes")
    assert "Banquier: building from a copy" in result.stdout and pi.file("/opt/banquier/venv/bin/banquier").exists()


# ------------------------------------------------------------------------------- advice that is right
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_a_pending_reboot_is_said_on_every_run_until_it_happened(pi):
    """After a first run (even an interrupted one), later runs said "start it now": SPI needs the reboot."""
    assert "reboot to enable SPI" in pi(INSTALL).stdout
    result = pi(INSTALL)
    assert "SPI: already enabled" in result.stdout and "reboot to enable SPI" in result.stdout
    assert "start it now" not in result.stdout
    stamp = pi.file("/var/lib/banquier/.reboot-pending")
    stamp.write_text("another-boot\n")  # the machine rebooted since
    result = pi(INSTALL)
    assert "start it now" in result.stdout and "reboot" not in result.stdout.replace("systemctl", "")
    assert not stamp.exists()


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_no_config_txt_does_not_send_the_user_to_a_missing_raspi_config(tmp_path):
    run = Run(tmp_path)
    fake_pi(run.root, config_txt=None)
    result = run(INSTALL)
    assert "raspi-config" not in result.stdout.replace("do_boot_behaviour", "")
    assert "dtparam=spi=on" in result.stdout and "boot partition" in result.stdout


# ------------------------------------------------------------------------------ SD-card images: gone
def test_the_root_option_is_gone(pi):
    result = pi(INSTALL, "--root", str(pi.root), check=False)
    assert result.returncode != 0 and "--root is gone" in result.stderr and pi.calls() == []
    result = pi(UNINSTALL, "--root=/mnt", check=False)
    assert result.returncode != 0 and "--root is gone" in result.stderr


# ------------------------------------------------------------------------------------------ purge
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_purge_deletes_the_groups_install_created_and_only_those(tmp_path):
    run = Run(tmp_path)
    fake_pi(run.root, group="\n".join(line for line in GROUP.splitlines()
                                      if not line.startswith(("spi:", "gpio:"))) + "\n")
    installed_with_a_game(run)
    result = run(UNINSTALL, "--purge")
    groups = [line.split(":")[0] for line in run.file("/etc/group").read_text().splitlines()]
    assert "spi" not in groups and "gpio" not in groups
    assert {"dialout", "video", "input", "render", "pi"} <= set(groups)
    assert "deleting the group spi" in result.stdout


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_purge_keeps_a_created_group_someone_joined_since(tmp_path):
    run = Run(tmp_path)
    fake_pi(run.root, group="\n".join(line for line in GROUP.splitlines() if not line.startswith("spi:")) + "\n")
    installed_with_a_game(run)
    group_file = run.file("/etc/group")
    group_file.write_text(re.sub(r"^(spi:x:\d+:)banquier$", r"\1banquier,pi", group_file.read_text(), flags=re.M))
    result = run(UNINSTALL, "--purge")
    assert run.members("spi") == ["pi"] and "keeping the group spi" in result.stdout


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_uninstall_removes_roots_leftovers_from_the_checkout(pi, tmp_path):
    clone = clone_of_the_repository(tmp_path)
    before = snapshot(clone)
    (clone / "build/lib").mkdir(parents=True)
    (clone / "banquier.egg-info").mkdir()
    pi(INSTALL, "--source", str(clone))
    (clone / "build/lib").mkdir(parents=True)  # left by an installer of before this one
    (clone / "banquier.egg-info").mkdir()
    result = pi(clone / "deploy/uninstall.sh", "--purge")
    assert snapshot(clone) == before and "checkout: removing" in result.stdout


# ------------------------------------------------------------------------------ the hardened unit
def exposure(unit: Path) -> float:
    tool = need("systemd-analyze", "systemd")
    result = subprocess.run([tool, "security", "--offline=yes", str(unit)], capture_output=True, text=True,
                            timeout=60, check=False,
                            env={**os.environ, "SYSTEMD_LOG_COLOR": "0", "SYSTEMD_COLORS": "0"})
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout + result.stderr)
    assert found, result.stdout + result.stderr
    return float(found.group(1))


def test_the_unit_is_hardened_to_an_exposure_of_at_most_3():
    """It scored 8.1 EXPOSED: no system-call filter, every capability, every address family, the network."""
    assert exposure(UNIT) <= 3.0


def test_the_exposure_check_does_see_a_weak_unit(tmp_path):
    weak = tmp_path / "banquier.service"
    weak.write_text("\n".join(line for line in UNIT.read_text().splitlines()
                              if not line.startswith(("SystemCall", "CapabilityBoundingSet", "PrivateNetwork",
                                                      "RestrictAddressFamilies", "RestrictNamespaces"))) + "\n")
    assert exposure(weak) > 3.0


def test_the_hardening_keeps_what_the_terminal_needs():
    text = UNIT.read_text()
    assert values(text, "Service", "DevicePolicy") == ["closed"]
    assert not values(text, "Service", "ProtectKernelTunables"), "RPi.GPIO writes /sys/class/gpio"
    assert not values(text, "Service", "PrivateDevices") and not values(text, "Service", "ProcSubset")
    assert values(text, "Service", "ProtectSystem") == ["strict"] and values(text, "Service", "StateDirectory")
    assert values(text, "Service", "SupplementaryGroups")


PI4_PROC_DEVICES = (Path(__file__).parent / "data" / "pi4-proc-devices.txt").read_text()
#: Each device node the terminal opens on a Pi, with its major:minor there (tests/deploy/data/README.md).
PI_DEVICES = {
    "/dev/spidev0.0": (153, 0), "/dev/spidev0.1": (153, 1),  # the MFRC522 reader
    "/dev/gpiomem": (240, 0),  # RPi.GPIO
    "/dev/gpiochip0": (244, 0), "/dev/gpiochip4": (244, 4),  # rpi-lgpio (a Pi 5)
    "/dev/dri/card0": (226, 0), "/dev/dri/card1": (226, 1), "/dev/dri/renderD128": (226, 128),  # kmsdrm
    "/dev/fb0": (29, 0), "/dev/fb1": (29, 1),  # an SPI panel's framebuffer
    "/dev/input/event0": (13, 64), "/dev/input/event3": (13, 67),  # touch, keys
    "/dev/ttyUSB0": (188, 0), "/dev/ttyACM0": (166, 0), "/dev/ttyAMA0": (204, 64), "/dev/ttyS0": (4, 64),  # serial
    "/dev/tty1": (4, 1),  # the console, whose keyboard mode SDL sets
}


def unit_rules(text: str):
    from host_ui.shell.sandbox import read_unit_devices
    root = Path(tempfile.mkdtemp())
    (root / "etc/systemd/system").mkdir(parents=True)
    (root / "etc/systemd/system/banquier.service").write_text(text)
    try:
        return read_unit_devices(root)
    finally:
        shutil.rmtree(root)


def test_the_unit_lets_the_terminal_open_every_device_of_a_pi():
    """DeviceAllow=char-spidev matched no class (the kernel's spidev registers "153 spi"): with
    DevicePolicy=closed the service could not open /dev/spidev0.0 while doctor, outside it, said ok."""
    from host_ui.shell.sandbox import read_proc_devices
    rules = unit_rules(UNIT.read_text())
    classes = read_proc_devices(PI4_PROC_DEVICES)
    refused = [path for path, number in PI_DEVICES.items() if not rules.allows(path, *number, classes)]
    assert refused == []
    assert not rules.allows("/dev/mem", 1, 1, classes) and not rules.allows("/dev/sda", 8, 0, classes)
    assert rules.allows("/dev/i2c-1", 89, 1, classes)  # a PN532 reader on I²C
    assert not rules.allows("/dev/vchiq", 242, 0, classes)
    assert rules.allows("/dev/null", 1, 3, classes) and rules.allows("/dev/urandom", 1, 9, classes)
    # A kernel whose gpiomem is a misc device (10:N): allowed by its path, not by the class "misc".
    assert rules.allows("/dev/gpiomem", 10, 125, classes, number_of={"/dev/gpiomem": (10, 125)})
    assert not rules.allows("/dev/uinput", 10, 223, classes, number_of={"/dev/gpiomem": (10, 125)})


def test_every_device_class_of_the_unit_is_a_class_the_kernel_names():
    """A class pattern that matches no name in /proc/devices (a typo, a file name for a class name) allows
    nothing, silently: each must match one of a Pi's, and each path rule must be a device node's path."""
    from host_ui.shell.sandbox import read_proc_devices
    names = {name for group in read_proc_devices(PI4_PROC_DEVICES).values() for name in group}
    rules = unit_rules(UNIT.read_text())
    classes = [spec for spec, _ in rules.allow if spec.startswith("char-")]
    assert classes and all(any(fnmatch.fnmatchcase(n, spec[5:]) for n in names) for spec in classes), classes
    assert all(spec.startswith("char-") or spec in PI_DEVICES for spec, _ in rules.allow), rules.allow
    assert all(access == "rw" for _, access in rules.allow)


def test_the_check_of_the_classes_does_see_the_old_mistake():
    from host_ui.shell.sandbox import read_proc_devices
    old = UNIT.read_text().replace("DeviceAllow=char-spi rw", "DeviceAllow=char-spidev rw")
    assert old != UNIT.read_text()
    classes = read_proc_devices(PI4_PROC_DEVICES)
    assert not unit_rules(old).allows("/dev/spidev0.0", 153, 0, classes)


def test_the_classes_this_machine_has_are_those_of_the_unit():
    """What this machine's own kernel lists (tty, input on a PC or CI) gets the same answer as the Pi's names."""
    from host_ui.shell.sandbox import read_proc_devices
    here = read_proc_devices(Path("/proc/devices").read_text())
    rules = unit_rules(UNIT.read_text())
    for name, major in (("tty", 4), ("input", 13)):
        if name in here.get(major, []):
            assert rules.allows(f"/dev/{name}-probe", major, 64, here), name
    misc = next((major for major, names in here.items() if "misc" in names), None)
    if misc is not None:  # /dev/uinput, /dev/fuse...: not the terminal's
        assert not rules.allows("/dev/uinput", misc, 223, here)


def test_every_hardening_setting_has_its_comment():
    lines = UNIT.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# ---- Hardening"))
    end = lines.index("[Install]")
    settings = 0
    for i in range(start + 1, end):
        if lines[i] and not lines[i].startswith("#"):
            settings += 1
            assert lines[i - 1].startswith("#"), f"no comment above {lines[i]!r}"
    assert settings >= 25


# ------------------------------------------------------------------------------ the real install test
def test_the_real_install_test_fails_loudly_without_root(tmp_path):
    """It never skips: without root (or debootstrap, or the network) it fails and says why."""
    command = ["bash", str(REAL_INSTALL)]
    if os.geteuid() == 0:
        setpriv = need("setpriv", "util-linux")
        command = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False, cwd="/")
    assert result.returncode != 0
    assert "FAIL: run it as root" in result.stderr and "FAILED" in result.stderr


def test_ci_runs_the_real_install_test_after_the_suite():
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    commands = [line.strip() for line in ci if line.strip() and not line.strip().startswith("#")]
    suite = commands.index("./dev.sh test")
    assert any("tests/deploy/real_install.sh" in c for c in commands[suite + 1:])


# ------------------------------------------------------------------------------------- the card reader
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_prepares_the_pi_for_the_reader_its_declaration_names(pi):
    """--reader pn532: I²C turned on with raspi-config, the group i2c, Adafruit's library from the extra."""
    result = pi(INSTALL, "--reader", "pn532")
    assert "card reader: pn532" in result.stdout
    assert ["raspi-config", "nonint", "do_i2c", "0"] in pi.calls("raspi-config")
    assert "banquier" in pi.members("i2c")
    deps = dependency_install(pi)
    assert "adafruit-circuitpython-pn532>=2.4" in deps and "adafruit-blinka>=8" in deps


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_install_reads_the_reader_from_the_configuration_and_takes_debians_pyscard(pi):
    pi.file("/etc/banquier").mkdir(parents=True, exist_ok=True)
    pi.file("/etc/banquier/config.toml").write_text('[hardware.reader]\nbackend = "pcsc"\n')
    result = pi(INSTALL)
    assert "card reader: pcsc" in result.stdout
    packages = [p for c in pi.calls("apt-get") if "install" in c for p in c]
    assert "pcscd" in packages and "python3-pyscard" in packages
    assert not any("pyscard" in d for d in dependency_install(pi)), "Debian's python3-pyscard, not a build"
    assert not pi.calls("raspi-config") or ["raspi-config", "nonint", "do_i2c", "0"] not in pi.calls("raspi-config")


def test_install_refuses_a_reader_it_does_not_know(pi):
    result = pi(INSTALL, "--reader", "nfc9", check=False)
    assert result.returncode != 0 and "--reader nfc9: no such card reader backend" in result.stderr
