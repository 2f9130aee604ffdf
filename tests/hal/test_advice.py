"""Issue 22, point 10: the runtime's one-line fixes fit what the machine already has. It suggested raspi-config
when SPI was already on, adding a dtoverlay already there, and joining the gpio group to a process already in it."""
from __future__ import annotations

import errno
import os

import pytest

from hal import advice, rpi_gpio


def write(root, relative: str, text: str = "") -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_spi_already_enabled_asks_for_a_reboot_not_raspi_config(tmp_path):
    write(tmp_path, "usr/bin/raspi-config")
    write(tmp_path, "boot/firmware/config.txt", "#dtparam=spi=on\n[all]\ndtparam=spi=on\n")
    fix = advice.spi_missing_fix("/dev/spidev0.0", tmp_path)
    assert "reboot" in fix and "raspi-config" not in fix and "dmesg" in fix


def test_spi_off_asks_for_raspi_config_or_the_line_where_there_is_none(tmp_path):
    write(tmp_path, "boot/firmware/config.txt", "#dtparam=spi=on\n")
    assert "add the line dtparam=spi=on" in advice.spi_missing_fix("/dev/spidev0.0", tmp_path)
    write(tmp_path, "usr/bin/raspi-config")
    assert "raspi-config nonint do_spi 0" in advice.spi_missing_fix("/dev/spidev0.0", tmp_path)


def test_a_kms_overlay_already_there_asks_for_a_reboot(tmp_path):
    write(tmp_path, "boot/firmware/config.txt", "dtoverlay=vc4-kms-v3d\nmax_framebuffers=2\n")
    fix = advice.kms_missing_fix(tmp_path)
    assert "reboot" in fix and "dmesg | grep -i vc4" in fix and "put dtoverlay" not in fix
    write(tmp_path, "boot/firmware/config.txt", "# dtoverlay=vc4-kms-v3d\n")
    assert "put dtoverlay=vc4-kms-v3d" in advice.kms_missing_fix(tmp_path)


@pytest.fixture
def device(tmp_path):
    node = tmp_path / "gpiomem"
    node.touch()
    return node


def test_a_process_in_the_devices_group_is_not_told_to_join_it(device):
    device.chmod(0o660)
    fix = advice.permission_fix(str(device), "gpio", PermissionError(errno.EACCES, "denied"),
                                groups=[device.stat().st_gid])
    assert "usermod" not in fix and "DeviceAllow=" in fix
    device.chmod(0o640)
    fix = advice.permission_fix(str(device), "gpio", PermissionError(errno.EACCES, "denied"),
                                groups=[device.stat().st_gid])
    assert "usermod" not in fix and 'MODE="0660"' in fix


def test_eperm_is_a_device_policy_whatever_the_groups(device):
    fix = advice.permission_fix(str(device), "spi", PermissionError(errno.EPERM, "Operation not permitted"), groups=[])
    assert "device policy" in fix and "usermod" not in fix


def test_a_process_outside_the_group_is_told_to_join_it(device, mocker):
    mocker.patch.object(advice, "_stat", lambda path: os.stat_result((0o20660, 0, 0, 1, 0, 60993, 0, 0, 0, 0)))
    mocker.patch.object(advice, "_group_name", lambda gid: "gpio")
    assert "sudo usermod -aG gpio $USER" in advice.permission_fix(str(device), "gpio", None, groups=[])
    mocker.patch.object(advice, "_group_name", lambda gid: "root")
    fix = advice.permission_fix(str(device), "gpio", None, groups=[])
    assert "udev rule" in fix and "usermod -aG root" not in fix


def test_no_gpiomem_at_all_is_a_kernel_without_the_driver(mocker, tmp_path):
    mocker.patch.object(rpi_gpio, "GPIOMEM", str(tmp_path / "no-gpiomem"))
    error = rpi_gpio.device_error(RuntimeError("No access to /dev/mem. Try running as root!"), "the beeper")
    assert "no /dev/gpiomem" in str(error) and "deploy/install.sh" in str(error) and "usermod" not in str(error)
    assert "raspberrypi-kernel" not in str(error)
