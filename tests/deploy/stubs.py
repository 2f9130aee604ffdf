"""Recording stand-ins for the system commands the deploy scripts run, and a fake Raspberry Pi root.

Each stub is a small Python script put first on PATH. It appends ``[name, *args]`` as one JSON line to
``$STUB_LOG`` and then behaves like the real command as far as the scripts can see, always inside the
``--root`` it was given (a stub called without ``--root`` where it would change the system refuses):

- ``apt-get``, ``raspi-config``, ``chown``, ``runuser``: record only.
- ``dpkg-query -W PKG``: installed only for names in ``$STUB_DPKG_HAS`` (comma list, or ``all``).
- ``apt-cache show PKG``: every package exists except those in ``$STUB_APT_MISSING``.
- ``id``: ``-un``, ``-u``, ``-Gn`` print ``$STUB_USER``, ``$STUB_UID``, ``$STUB_GROUPS`` (default: the real ones).
- ``sudo``: ``-n -l`` succeeds only with ``STUB_SUDO_LIST=yes``; anything else is recorded.
- ``systemctl``: ``--version`` prints ``systemd $STUB_SYSTEMD_VERSION`` (default 252, Bookworm's).
- ``groupadd``, ``useradd``, ``usermod -aG``, ``userdel``, ``groupdel``: edit ``ROOT/etc/group`` and
  ``ROOT/etc/passwd``.
- ``python3``: ``-m venv [--system-site-packages] DIR`` makes a fake environment whose ``bin/python``
  is the ``venv-python`` stub: ``-m pip show NAME`` succeeds only for names in ``$STUB_PIP_HAS``;
  ``pip wheel`` writes a fake wheel per requirement into ``--wheel-dir``; with ``--no-index``, ``pip
  install``/``wheel`` fail unless every requirement has its wheel in ``--find-links`` (and a build has
  setuptools there); without it they fail when ``STUB_OFFLINE=yes``, and ``--only-binary=NAME`` fails for a
  NAME in ``$STUB_NO_WHEEL`` (PyPI has no wheel for the machine); ``pip install --force-reinstall``
  writes ``bin/banquier``; ``-c CODE`` succeeds unless it imports ``$STUB_NO_MODULE``. Anything else runs
  the real Python.
"""
from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

_HEAD = f"""#!{sys.executable} -S
import json, os, sys
NAME = {{name!r}}
ARGS = sys.argv[1:]
with open(os.environ["STUB_LOG"], "a", encoding="utf-8") as log:
    log.write(json.dumps([NAME] + ARGS) + "\\n")

def root():
    for i, arg in enumerate(ARGS):
        if arg == "--root":
            return ARGS[i + 1]
        if arg.startswith("--root="):
            return arg.split("=", 1)[1]
    sys.exit(NAME + " stub: refusing to change the real system (no --root)")

def table(name):
    path = os.path.join(root(), "etc", name)
    lines = open(path, encoding="utf-8").read().splitlines() if os.path.exists(path) else []
    return path, [line.split(":") for line in lines if line]

def save(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(":".join(row) + "\\n" for row in rows))

def next_id(rows):
    return str(max([900] + [int(r[2]) + 1 for r in rows if r[2].isdigit() and 900 <= int(r[2]) < 1000]))
"""

_BODIES = {
    "apt-get": "",
    "raspi-config": "",
    "chown": "",
    "systemctl": """
if "--version" in ARGS:
    print("systemd " + os.environ.get("STUB_SYSTEMD_VERSION", "252") + " (stub)")
    print("+PAM +AUDIT")
""",
    "groupadd": """
path, rows = table("group")
name = ARGS[-1]
if any(r[0] == name for r in rows):
    sys.exit(9)
rows.append([name, "x", next_id(rows), ""])
save(path, rows)
""",
    "useradd": """
ppath, users = table("passwd")
gpath, groups = table("group")
name = ARGS[-1]
if any(r[0] == name for r in users):
    sys.exit(9)
home = ARGS[ARGS.index("--home-dir") + 1] if "--home-dir" in ARGS else "/home/" + name
shell = ARGS[ARGS.index("--shell") + 1] if "--shell" in ARGS else "/bin/sh"
uid = next_id(users)
gid = uid
if "--user-group" in ARGS:
    gid = next_id(groups)
    groups.append([name, "x", gid, ""])
    save(gpath, groups)
users.append([name, "x", uid, gid, "", home, shell])
save(ppath, users)
""",
    "usermod": """
path, groups = table("group")
name = ARGS[-1]
wanted = ARGS[ARGS.index("-aG") + 1].split(",")
for row in groups:
    if row[0] in wanted:
        members = [m for m in row[3].split(",") if m] if len(row) > 3 else []
        if name not in members:
            members.append(name)
        row[3:] = [",".join(members)]
missing = set(wanted) - {r[0] for r in groups}
if missing:
    sys.exit("usermod: group '%s' does not exist" % sorted(missing)[0])
save(path, groups)
""",
    "userdel": """
ppath, users = table("passwd")
gpath, groups = table("group")
name = ARGS[-1]
if not any(r[0] == name for r in users):
    sys.exit(6)
save(ppath, [r for r in users if r[0] != name])
for row in groups:
    if len(row) > 3:
        row[3] = ",".join(m for m in row[3].split(",") if m and m != name)
# As Debian's userdel (USERGROUPS_ENAB): the user's own group goes, unless others are in it.
save(gpath, [r for r in groups if r[0] != name or (len(r) > 3 and r[3])])
""",
    "python3": f"""
if ARGS[:2] == ["-m", "venv"]:
    target = ARGS[-1]
    os.makedirs(os.path.join(target, "bin"), exist_ok=True)
    with open(os.path.join(target, "pyvenv.cfg"), "w") as f:
        f.write("home = /usr/bin\\ninclude-system-site-packages = "
                + ("true" if "--system-site-packages" in ARGS else "false") + "\\nversion = 3.11.2\\n")
    python = os.path.join(target, "bin", "python")
    with open(python, "w") as f:
        f.write(open(os.environ["STUB_VENV_PYTHON"]).read())
    os.chmod(python, 0o755)
    sys.exit(0)
os.execv({sys.executable!r}, [{sys.executable!r}] + ARGS)
""",
    "id": """
import grp, pwd
if ARGS == ["-un"]:
    print(os.environ.get("STUB_USER") or pwd.getpwuid(os.getuid()).pw_name)
elif ARGS == ["-u"]:
    print(os.environ.get("STUB_UID") or os.getuid())
elif ARGS == ["-Gn"]:
    print(os.environ.get("STUB_GROUPS") or " ".join(grp.getgrgid(g).gr_name for g in os.getgroups()))
else:
    sys.exit("id stub: unexpected " + " ".join(ARGS))
""",
    "sudo": """
if "-n" in ARGS and "-l" in ARGS:
    sys.exit(0 if os.environ.get("STUB_SUDO_LIST") == "yes" else 1)
""",
    "runuser": "",
    "dpkg-query": """
has = os.environ.get("STUB_DPKG_HAS", "")
package = ARGS[-1]
if has == "all" or package in has.split(","):
    print("ii ", end="")
    sys.exit(0)
print("dpkg-query: no packages found matching " + package, file=sys.stderr)
sys.exit(1)
""",
    "apt-cache": """
missing = os.environ.get("STUB_APT_MISSING", "").split(",")
if ARGS[:1] == ["show"] and ARGS[-1] not in missing:
    print("Package: " + ARGS[-1])
    sys.exit(0)
print("E: No packages found", file=sys.stderr)
sys.exit(100)
""",
    "groupdel": """
path, groups = table("group")
name = ARGS[-1]
if not any(r[0] == name for r in groups):
    sys.exit(6)
save(path, [r for r in groups if r[0] != name])
""",
    "venv-python": """
import re
def name_of(requirement):
    return re.split(r"[\\s<>=!~;\\[(]", requirement, maxsplit=1)[0].lower().replace("-", "_").replace(".", "_")
def option(flag):
    return ARGS[ARGS.index(flag) + 1] if flag in ARGS else None
VALUED = {"--find-links", "--wheel-dir", "--dest"}
def requirements():
    out, skip = [], False
    for arg in ARGS[3:]:
        if skip:
            skip = False
        elif arg in VALUED:
            skip = True
        elif not arg.startswith("-"):
            out.append(arg)
    return out
def wheel_name(requirement):
    if os.path.isdir(requirement):
        return "banquier-0.1.0-py3-none-any.whl"
    if requirement.endswith(".whl"):
        return os.path.basename(requirement)
    return name_of(requirement) + "-1.0-py3-none-any.whl"
def in_wheelhouse(requirement):
    if os.path.isdir(requirement) or requirement.endswith(".whl"):
        return os.path.exists(requirement) or os.path.isdir(requirement)
    house = option("--find-links")
    return bool(house) and os.path.exists(os.path.join(house, wheel_name(requirement)))
if ARGS[:3] == ["-m", "pip", "show"]:
    has = os.environ.get("STUB_PIP_HAS", "").split(",")
    sys.exit(0 if ARGS[-1] in has else 1)
if ARGS[:1] == ["-c"]:  # python -c: imports succeed unless named in STUB_NO_MODULE
    missing = os.environ.get("STUB_NO_MODULE", "")
    sys.exit(1 if missing and "import " + missing in ARGS[1] else 0)
if ARGS[:2] == ["-m", "pip"] and ARGS[2] in ("install", "wheel"):
    wanted = requirements()
    if "--no-index" in ARGS:
        build_backend = [r for r in wanted if os.path.isdir(r)]
        backend_wheel = os.path.join(option("--find-links"), "setuptools-1.0-py3-none-any.whl")
        if build_backend and not os.path.exists(backend_wheel):
            sys.exit("ERROR: Could not find a version that satisfies the requirement setuptools>=77 (offline)")
        missing = [r for r in wanted if not in_wheelhouse(r)]
        if missing:
            sys.exit("ERROR: No matching distribution found for " + missing[0] + " (offline)")
    elif os.environ.get("STUB_OFFLINE") == "yes":
        sys.exit("ERROR: network is unreachable (stub)")
    binary_only = [a.split("=", 1)[1] for a in ARGS if a.startswith("--only-binary=")]
    no_wheel = os.environ.get("STUB_NO_WHEEL", "").split(",")
    if "--no-index" not in ARGS and any(name_of(r) in binary_only and name_of(r) in no_wheel for r in wanted):
        sys.exit("ERROR: Could not find a version that satisfies the requirement (no wheel for this machine)")
    if ARGS[2] == "wheel":
        target = option("--wheel-dir")
        os.makedirs(target, exist_ok=True)
        for r in wanted:
            if os.path.isdir(r):  # what the build sees, for the tests
                tree = sorted(os.path.relpath(os.path.join(d, f), r) for d, _, fs in os.walk(r) for f in fs)
                with open(os.environ["STUB_LOG"], "a", encoding="utf-8") as log:
                    log.write(json.dumps(["build-tree", r] + tree) + "\\n")
            open(os.path.join(target, wheel_name(r)), "w").write("wheel of " + r)
    if ARGS[2] == "install" and "--force-reinstall" in ARGS:
        script = os.path.join(os.path.dirname(sys.argv[0]), "banquier")
        with open(script, "w") as f:
            f.write("#!/bin/sh\\necho banquier stub\\n")
        os.chmod(script, 0o755)
""",
}


def make_stubs(directory: Path) -> Path:
    """Write every stub into ``directory`` (the ``venv-python`` one is copied into fake environments)."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, body in _BODIES.items():
        path = directory / name
        path.write_text(_HEAD.format(name=name) + body, encoding="utf-8")
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return directory


def read_log(log: Path) -> list[list[str]]:
    """Every recorded call, oldest first: ``[name, *args]``."""
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


CONFIG_TXT = """# For more options and information see
# http://rptl.io/configtxt
# Some settings may impact device functionality. See link above for details

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

# Enable DRM VC4 V3D driver
dtoverlay=vc4-kms-v3d
max_framebuffers=2

[cm4]
# Enable host mode on the 2711 built-in XHCI USB controller.
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host
"""

PASSWD = """root:x:0:0:root:/root:/bin/bash
pi:x:1000:1000:,,,:/home/pi:/bin/bash
"""

GROUP = """root:x:0:
dialout:x:20:pi
video:x:44:pi
input:x:105:pi
render:x:106:pi
spi:x:994:pi
gpio:x:993:pi
pi:x:1000:
"""


def fake_pi(root: Path, model: str = "Raspberry Pi 4 Model B Rev 1.5", *, config_txt: str | None = CONFIG_TXT,
            group: str = GROUP) -> Path:
    """A Raspberry Pi OS Bookworm tree under ``root``: device-tree model, os-release, passwd, group and
    /boot/firmware/config.txt (None: no config.txt)."""
    files = {
        "proc/device-tree/model": model + "\0",
        "etc/os-release": 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\n',
        "etc/passwd": PASSWD,
        "etc/group": group,
    }
    if config_txt is not None:
        files["boot/firmware/config.txt"] = config_txt
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "etc/systemd/system").mkdir(parents=True, exist_ok=True)
    return root


def environment(stubs: Path, log: Path, **extra: str) -> dict[str, str]:
    """The environment to run a deploy script with: stubs first on PATH, nothing from the desktop."""
    env = {
        "PATH": f"{stubs}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "STUB_LOG": str(log),
        "STUB_VENV_PYTHON": str(stubs / "venv-python"),
        "LANG": "C.UTF-8",
        "HOME": str(log.parent),
    }
    env.update(extra)
    return env
