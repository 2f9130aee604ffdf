"""The one-line fixes the runtime gives when a part cannot start, fitted to what this machine already has.

A fix that asks for what is already done sends the user in circles: enabling SPI with raspi-config when
config.txt already says ``dtparam=spi=on`` (the Pi has not rebooted, or the overlay failed), adding
``dtoverlay=vc4-kms-v3d`` when it is there, joining the ``gpio`` group when the process is in it (then the
refusal comes from the service's device policy or the device's own permissions). Each function here looks
first, then says the next step. Everything read is under ``root`` (tests use a fake tree); the process's groups
come from ``groups`` (default: this process's).
"""
from __future__ import annotations

import errno
import grp
import os
import re
from collections.abc import Iterable
from pathlib import Path

__all__ = ["config_txt_line", "spi_missing_fix", "permission_fix", "kms_missing_fix", "CONFIG_TXT_PLACES"]

CONFIG_TXT_PLACES = ("boot/firmware/config.txt", "boot/config.txt")


def config_txt_line(pattern: str, root: str | os.PathLike[str] = "/") -> tuple[str, str] | None:
    """``(config.txt shown as an absolute path, the line)`` of the first active (not commented) line of the
    firmware's config.txt matching ``pattern`` from its start; None when there is none (or no config.txt)."""
    for place in CONFIG_TXT_PLACES:
        path = Path(root) / place
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        for raw in lines:
            line = raw.split("#", 1)[0].strip()
            if line and re.match(pattern, line):
                return "/" + place, line
        return None
    return None


def spi_missing_fix(device: str, root: str | os.PathLike[str] = "/") -> str:
    """What to do when the SPI device node ``device`` (``/dev/spidev0.0``) is missing."""
    enabled = config_txt_line(r"dtparam=spi=on\b", root)
    if enabled is not None:
        return (f"SPI is enabled in {enabled[0]} but {device} is missing: reboot (sudo reboot); if it is still "
                f"missing after a reboot, the SPI overlay failed: dmesg | grep -i spi")
    config = next((place for place in CONFIG_TXT_PLACES if (Path(root) / place).is_file()), None)
    if config is not None and not (Path(root) / "usr/bin/raspi-config").exists():
        return (f"SPI is not enabled ({device} is missing): add the line dtparam=spi=on under [all] at the end of "
                f"/{config}, then reboot")
    return f"SPI is not enabled ({device} is missing): run sudo raspi-config nonint do_spi 0 and reboot"


def _stat(path: str) -> os.stat_result:
    """The device's owner, group and mode (links followed); tests stand in a device of a Pi's."""
    return os.stat(path)


def _group_name(gid: int) -> str:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def permission_fix(device: str, usual_group: str, exc: BaseException | None = None, *,
                   groups: Iterable[int] | None = None) -> str:
    """What to do when opening ``device`` is refused. Joining its group is advised only to a process that is
    not in it; a process that is in it (or whose ``exc`` is EPERM, which the permission bits never give) is
    refused by a device policy (the service's DeviceAllow=) or by the node's own mode."""
    mine = set(os.getgroups() if groups is None else groups) | ({os.getegid()} if groups is None else set())
    try:
        info: os.stat_result | None = _stat(device)
    except OSError:
        info = None
    group = _group_name(info.st_gid) if info is not None else usual_group
    policy = isinstance(exc, OSError) and exc.errno == errno.EPERM
    if policy or (info is not None and info.st_gid in mine and info.st_mode & 0o060 == 0o060):
        return (f"opening {device} is refused although this user may use it (group {group}): the service's "
                f"device policy (DeviceAllow= in banquier.service) refuses it: banquier doctor names the line "
                f"to add (sudo systemctl edit banquier)")
    if info is not None and info.st_gid in mine:
        return (f"{device} is in the group {group}, which this user is in, but the group may not use it (mode "
                f"{info.st_mode & 0o777:o}): a udev rule gives it MODE=\"0660\"; banquier doctor prints it")
    if group in ("root", "0"):
        return (f"{device} belongs to group root: a udev rule gives it to the group {usual_group} "
                f"(banquier doctor prints it), then sudo usermod -aG {usual_group} $USER and log in again")
    return f"run sudo usermod -aG {group} $USER and log in again (or restart the service)"


def kms_missing_fix(root: str | os.PathLike[str] = "/") -> str:
    """What to do when there is no ``/dev/dri/card*`` (the KMS display driver is not loaded)."""
    overlay = config_txt_line(r"dtoverlay=vc4-f?kms-v3d\b", root)
    if overlay is not None:
        return (f"no /dev/dri/card* although {overlay[0]} has {overlay[1]}: reboot if it was added since the last "
                f"boot (sudo reboot); otherwise the display driver failed to load: dmesg | grep -i vc4")
    return ("no /dev/dri/card*: the KMS display driver is not loaded: put dtoverlay=vc4-kms-v3d in the [all] "
            "section of /boot/firmware/config.txt, then sudo reboot")
