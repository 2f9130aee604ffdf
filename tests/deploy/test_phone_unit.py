"""The phone page's own systemd unit (deploy/banquier-phone.service, issue 29): the network, but only the table's;
the data folder read-only; a memory ceiling; the terminal's hardening otherwise, with its exposure figure from
``systemd-analyze security``; installed and enabled by install.sh, removed by uninstall.sh (the deploy harness of
tests/deploy/test_deploy.py). The terminal's own unit keeps its private network.

What a booted systemd does with it (the sandbox starts, the page serves on loopback once switched on) is in the
real install test, tests/deploy/real_install.sh."""
from __future__ import annotations

import re
import stat
import subprocess

import pytest

from tests.deploy.test_deploy import (
    DEPLOY,
    INSTALL,
    UNINSTALL,
    UNIT,
    need,
    unit_entries,
    values,
    verify_root,
)
from tests.deploy.test_deploy import pi as pi

PHONE_UNIT = DEPLOY / "banquier-phone.service"


def exposure(unit) -> float:
    tool = need("systemd-analyze", "systemd")
    result = subprocess.run([tool, "security", "--offline=yes", "--no-pager", str(unit)], capture_output=True,
                            text=True, timeout=60, check=False, env={"SYSTEMD_LOG_COLOR": "0", "PATH": "/usr/bin:/bin"})
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert found, result.stdout + result.stderr
    return float(found.group(1))


def test_the_phone_unit_serves_only_the_table_and_reads_only():
    text = PHONE_UNIT.read_text()
    service = lambda key: values(text, "Service", key)  # noqa: E731
    assert service("ExecStart") == ["/opt/banquier/venv/bin/banquier phone serve"]
    assert service("User") == ["banquier"] and service("Group") == ["banquier"]
    assert "BANQUIER_CONFIG=/etc/banquier/config.toml" in service("Environment")
    assert "BANQUIER_PHONE_RUNTIME=/run/banquier-phone" in service("Environment")
    assert service("RuntimeDirectory") == ["banquier-phone"]
    # the data folder: read-only, by name and by ProtectSystem=strict; no StateDirectory= (which would make it
    # writable), no other writable path
    assert service("ReadOnlyPaths") == ["/var/lib/banquier"]
    assert service("ProtectSystem") == ["strict"]
    assert not service("StateDirectory") and not service("ReadWritePaths")
    # the network, the table's only
    assert not service("PrivateNetwork")
    assert service("IPAddressDeny") == ["any"]
    allowed = set(" ".join(service("IPAddressAllow")).split())
    assert allowed == {"localhost", "link-local", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"}
    assert set(service("RestrictAddressFamilies")[0].split()) == {"AF_UNIX", "AF_INET", "AF_INET6", "AF_NETLINK"}
    # a few tens of MiB
    high, memory = service("MemoryHigh")[0], service("MemoryMax")[0]
    assert high.endswith("M") and memory.endswith("M") and 56 <= int(high[:-1]) < int(memory[:-1]) <= 96
    # the measured peak with 20 phones (54.6 MiB, bench/bench_phone.py) fits under both
    assert service("CapabilityBoundingSet") == [""] and service("NoNewPrivileges") == ["yes"]
    assert service("PrivateDevices") == ["yes"] and service("DevicePolicy") == ["closed"]
    assert values(text, "Install", "WantedBy") == ["multi-user.target"]
    assert service("Restart") == ["on-failure"] and values(text, "Unit", "StartLimitIntervalSec") == ["0"]


def test_the_phone_unit_keeps_the_terminals_hardening():
    """Every hardening setting of the terminal's unit is in the page's too, with the same value, but those that
    are the terminal's by what it is (its devices, its groups, no network; its kernel tunables and memory that
    Mesa and RPi.GPIO need): the page has neither hardware nor screen."""
    terminal = {(k, v) for s, k, v in unit_entries(UNIT.read_text()) if s == "Service"}
    phone = {(k, v) for s, k, v in unit_entries(PHONE_UNIT.read_text()) if s == "Service"}
    hardening = {"NoNewPrivileges", "CapabilityBoundingSet", "AmbientCapabilities", "ProtectSystem", "ProtectHome",
                 "PrivateTmp", "PrivateMounts", "DevicePolicy", "ProtectKernelModules", "ProtectKernelLogs",
                 "ProtectClock", "ProtectHostname", "ProtectControlGroups", "ProtectProc", "RestrictNamespaces",
                 "RestrictRealtime", "RestrictSUIDSGID", "LockPersonality", "RemoveIPC", "SystemCallErrorNumber",
                 "SystemCallArchitectures", "UMask", "IPAddressDeny"}
    for key, value in terminal:
        if key in hardening:
            assert (key, value) in phone, f"{key}={value} of the terminal's unit is not in the phone page's"
    assert ("SystemCallFilter", "@system-service") in phone
    assert ("SystemCallFilter", "~@privileged @resources") in phone


def test_the_terminal_keeps_its_private_network_and_its_exposure():
    text = UNIT.read_text()
    assert values(text, "Service", "PrivateNetwork") == ["yes"]
    assert values(text, "Service", "IPAddressDeny") == ["any"] and not values(text, "Service", "IPAddressAllow")
    assert exposure(UNIT) <= 0.9


def test_the_phone_units_exposure_figure():
    """The figure its comment gives (systemd 252: 1.0 OK); what is left is the network itself."""
    figure = exposure(PHONE_UNIT)
    assert figure <= 1.0
    assert f"rates this unit {figure:.1f}" in PHONE_UNIT.read_text()


@pytest.mark.slow  # the deploy harness: over 0.5 s
def test_install_writes_the_phone_unit_and_enables_it(pi):
    pi(INSTALL)
    unit = pi.file("/etc/systemd/system/banquier-phone.service")
    assert unit.read_bytes() == PHONE_UNIT.read_bytes()
    assert stat.S_IMODE(unit.stat().st_mode) == 0o644
    assert ["systemctl", f"--root={pi.root}", "enable", "banquier.service", "banquier-phone.service"] \
        in pi.calls("systemctl")


@pytest.mark.slow
def test_the_installed_phone_unit_passes_systemd_analyze_verify(pi):
    pi(INSTALL)
    root = verify_root(pi)
    tool = need("systemd-analyze", "systemd")
    result = subprocess.run([tool, "verify", f"--root={root}", "/etc/systemd/system/banquier-phone.service"],
                            capture_output=True, text=True, timeout=60, check=False,
                            env={"SYSTEMD_LOG_COLOR": "0", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0 and not (result.stdout + result.stderr).strip(), result.stdout + result.stderr


@pytest.mark.slow
def test_uninstall_removes_the_phone_unit(pi):
    pi(INSTALL)
    pi(UNINSTALL)
    assert ["systemctl", f"--root={pi.root}", "disable", "banquier-phone.service"] in pi.calls("systemctl")
    assert not pi.file("/etc/systemd/system/banquier-phone.service").exists()


@pytest.mark.slow
def test_install_refuses_a_source_without_the_phone_unit(pi, tmp_path):
    import shutil
    source = tmp_path / "src"
    shutil.copytree(DEPLOY.parent, source, ignore=shutil.ignore_patterns(".git", ".venv", "*.db", "__pycache__"))
    (source / "deploy" / "banquier-phone.service").unlink()
    result = pi(INSTALL, "--source", str(source), check=False)
    assert result.returncode != 0 and "banquier-phone.service" in result.stderr
