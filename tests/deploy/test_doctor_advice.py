"""``banquier doctor``'s advice checked against what it would do (issue 15, point 4): never a group like root,
never a line config.txt already has, the GPIO check trying the device the library opens, a pending reboot
said until it happened."""
from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from host_ui.shell import doctor
from tests.host_ui.shell.test_doctor import DEVICE, FakeRoot, assert_status, checks, config_for, ready_pi

KMSDRM = '[display]\noutput = "kmsdrm"\n'
GPIO_BEEPER = '[hardware.beeper]\nbackend = "gpio"\n'


@pytest.fixture
def data(tmp_path) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    return path


def test_a_device_of_group_root_gets_a_udev_rule_never_usermod_root(tmp_path, data):
    """/dev/spidev0.0 root:root (plain Debian, no udev rule) made doctor say `usermod -aG root banquier`."""
    fake = FakeRoot(tmp_path / "root")
    ready_pi(fake)
    fake.groups = {"root": (os.getegid(), []), **{g: (990 + i, m) for i, (g, (_, m)) in
                                                  enumerate(fake.groups.items())}}
    fake.sync()
    found = checks(config_for(data, DEVICE), fake, access=lambda p, m: "spidev" not in p.name)
    assert_status(found["spi"], "fail", "may not use /dev/spidev0.0 (group root)", 'SUBSYSTEM=="spidev"',
                  'GROUP="spi"', "udevadm trigger")
    assert "-aG root" not in found["spi"].fix


def test_an_unnamed_group_gets_a_udev_rule_too(tmp_path, data):
    fake = FakeRoot(tmp_path / "root")
    fake.write("dev/dri/card1")
    fake.groups = {"banquier": (1001, [])}  # the node's group has no name here
    fake.sync()
    found = checks(config_for(data, KMSDRM), fake, access=lambda p, m: "card" not in p.name)
    assert_status(found["display"], "fail", "(group unknown)", 'SUBSYSTEM=="drm"', 'GROUP="video"',
                  "usermod -aG video banquier")


def test_no_drm_with_the_overlay_already_in_config_txt_asks_for_a_reboot_not_the_line(tmp_path, data):
    fake = FakeRoot(tmp_path / "root")
    fake.model("Raspberry Pi 4 Model B Rev 1.5")
    fake.write("boot/firmware/config.txt", "# Enable DRM VC4 V3D driver\ndtoverlay=vc4-kms-v3d\nmax_framebuffers=2\n")
    found = checks(config_for(data, KMSDRM), fake)
    assert_status(found["display"], "fail", "config.txt has dtoverlay=vc4-kms-v3d", "sudo reboot", "dmesg")
    assert "add dtoverlay" not in found["display"].fix


def test_the_overlay_under_another_models_section_is_moved_not_added(tmp_path, data):
    fake = FakeRoot(tmp_path / "root")
    fake.model("Raspberry Pi 4 Model B Rev 1.5")
    fake.write("boot/firmware/config.txt", "[cm5]\ndtoverlay=vc4-kms-v3d\n")
    found = checks(config_for(data, KMSDRM), fake)
    assert_status(found["display"], "fail", "under [cm5]", "move dtoverlay=vc4-kms-v3d under an [all] line")
    fake.write("boot/firmware/config.txt", "[pi4]\ndtoverlay=vc4-kms-v3d\n")  # its own section: it applies
    assert_status(checks(config_for(data, KMSDRM), fake)["display"], "fail", "sudo reboot")


def test_a_commented_overlay_does_not_count(tmp_path, data):
    fake = FakeRoot(tmp_path / "root")
    fake.write("boot/firmware/config.txt", "#dtoverlay=vc4-kms-v3d\n")
    assert_status(checks(config_for(data, KMSDRM), fake)["display"], "fail", "add dtoverlay=vc4-kms-v3d")


def test_spi_enabled_in_config_txt_but_missing_asks_for_a_reboot(tmp_path, data):
    fake = FakeRoot(tmp_path / "root")
    fake.model("Raspberry Pi 4 Model B Rev 1.5")
    fake.write("boot/firmware/config.txt", "dtoverlay=vc4-kms-v3d\n[all]\ndtparam=spi=on\n")
    found = checks(config_for(data, DEVICE), fake)
    assert_status(found["spi"], "fail", "SPI is enabled in /boot/firmware/config.txt", "sudo reboot")
    assert "raspi-config" not in found["spi"].fix and "dtparam=spi=on" not in found["spi"].fix


def test_spi_without_raspi_config_says_the_config_txt_line(tmp_path, data):
    fake = FakeRoot(tmp_path / "root")
    fake.model("Raspberry Pi 4 Model B Rev 1.5")
    fake.write("boot/firmware/config.txt", "#dtparam=spi=on\n")
    found = checks(config_for(data, DEVICE), fake)
    assert_status(found["spi"], "fail", "dtparam=spi=on", "/boot/firmware/config.txt", "sudo reboot")
    assert "raspi-config" not in found["spi"].fix
    fake.write("usr/bin/raspi-config", "#!/bin/sh\n")  # Raspberry Pi OS: its tool is there
    assert "raspi-config nonint do_spi 0" in checks(config_for(data, DEVICE), fake)["spi"].fix


def test_the_gpio_check_fails_when_gpiomem_cannot_be_used(tmp_path, data):
    """It said ok as soon as RPi.GPIO was installed, though /dev/gpiomem was not the user's to open."""
    fake = FakeRoot(tmp_path / "root")
    ready_pi(fake)
    found = checks(config_for(data, GPIO_BEEPER), fake, access=lambda p, m: p.name != "gpiomem")
    assert_status(found["gpio"], "fail", "may not use /dev/gpiomem", "usermod -aG")
    assert_status(checks(config_for(data, GPIO_BEEPER), fake)["gpio"], "ok", "RPi.GPIO 0.7.1")


def test_the_gpio_check_fails_without_gpiomem(tmp_path, data):
    """Issue 22, point 10: the fix named raspberrypi-kernel (not a Debian package, nor Bookworm's) and a pip switch to
    rpi-lgpio that the next install undid. The installer itself chooses rpi-lgpio on a kernel without gpiomem."""
    fake = FakeRoot(tmp_path / "root")
    fake.model("Raspberry Pi 4 Model B Rev 1.5")
    fake.write("dev/gpiochip0")
    found = checks(config_for(data, GPIO_BEEPER), fake)
    assert_status(found["gpio"], "fail", "no /dev/gpiomem", "sudo deploy/install.sh again", "rpi-lgpio")
    assert "raspberrypi-kernel" not in found["gpio"].fix and "pip" not in found["gpio"].fix
    (fake.path / "dev/gpiochip0").unlink()
    found = checks(config_for(data, GPIO_BEEPER), fake)
    assert_status(found["gpio"], "fail", "no GPIO device at all", "dmesg | grep -i gpio")


def test_the_gpio_check_of_a_pi_5_tries_its_gpiochip(tmp_path, data):
    fake = FakeRoot(tmp_path / "root")
    fake.model("Raspberry Pi 5 Model B Rev 1.0")
    packages = {"rpi-lgpio": "0.6", "lgpio": "0.2.2.0"}
    fake.write("dev/gpiochip4")
    found = checks(config_for(data, GPIO_BEEPER), fake, installed=packages.get,
                   access=lambda p, m: p.name != "gpiochip4")
    assert_status(found["gpio"], "fail", "may not use /dev/gpiochip4")
    assert_status(checks(config_for(data, GPIO_BEEPER), fake, installed=packages.get)["gpio"], "ok", "rpi-lgpio")


def test_the_gpio_check_opens_the_device_as_the_current_user(tmp_path, data, monkeypatch):
    fake = FakeRoot(tmp_path / "root")
    ready_pi(fake)
    opened = []
    real_open = os.open

    def spy(path, flags, *args):
        opened.append(Path(path).name)
        if Path(path).name == "gpiomem":
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args)

    monkeypatch.setattr(doctor.os, "open", spy)
    found = doctor.run_checks(config_for(data, GPIO_BEEPER), root=fake.path, env={"HOME": str(tmp_path)},
                              user=pwd.getpwuid(os.geteuid()).pw_name, installed={"RPi.GPIO": "0.7.1"}.get,
                              found=lambda name: True,
                              video_drivers=lambda: ["kmsdrm"], disk_free=lambda p: 10 ** 9)
    gpio = next(c for c in found if c.name == "gpio")
    assert "gpiomem" in opened
    assert gpio.status == "fail" and "may not use /dev/gpiomem" in gpio.what


def test_a_pending_reboot_is_said_until_it_happened(tmp_path, data):
    fake = FakeRoot(tmp_path / "root")
    ready_pi(fake)
    fake.write("proc/sys/kernel/random/boot_id", "1111\n")
    assert "reboot" not in checks(config_for(data, DEVICE), fake)
    fake.write("var/lib/banquier/.reboot-pending", "1111\n")
    found = checks(config_for(data, DEVICE), fake)
    assert_status(found["reboot"], "warn", "has not rebooted since", "sudo reboot")
    fake.write("proc/sys/kernel/random/boot_id", "2222\n")  # rebooted since
    assert "reboot" not in checks(config_for(data, DEVICE), fake)
