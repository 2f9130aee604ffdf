#!/usr/bin/env bash
# Install Banquier on a Raspberry Pi (3, 4, 5, Zero 2 W) running Raspberry Pi OS Bookworm, Lite or desktop
# (plain Debian Bookworm works too).
#
#   sudo deploy/install.sh            install, or upgrade in place; safe to run again at any time
#   sudo deploy/uninstall.sh          remove it again (keeps the games; --purge deletes them)
#
# What it does, each step skipped when already done:
#   1. system packages with apt (skipped, and no network needed, when they are all installed): Debian's
#      python3-pygame (its SDL has the kmsdrm driver that PyPI wheels lack), python3-spidev and python3-evdev,
#      python3-venv, python3-dev and gcc (to build RPi.GPIO), fonts-dejavu-core, sqlite3; where rpi-lgpio is
#      used (below) python3-lgpio, or PyPI's lgpio wheel where the system's repositories have no python3-lgpio (swig
#      too, only to build lgpio where PyPI has no wheel for the machine);
#   2. SPI enabled (raspi-config nonint do_spi 0, or dtparam=spi=on in /boot/firmware/config.txt); a reboot
#      this needs is remembered and said on every later run until it happened;
#   3. the service user "banquier" in the groups spi gpio input dialout video render (the groups it had to
#      create are remembered, for uninstall.sh --purge); the user who ran it through sudo (pi) in the group
#      banquier, to read what the banquier command writes for them (mode 0640);
#   4. /etc/banquier/config.toml from deploy/config.example.toml if there is none (never overwritten),
#      /var/lib/banquier for the games;
#   5. a virtual environment in /opt/banquier/venv that sees the system packages (pygame), with Banquier
#      and its Raspberry Pi libraries: RPi.GPIO, or rpi-lgpio on a Pi 5 (read from the device tree) and on a
#      kernel without /dev/gpiomem (plain Debian's on a Pi 3, 4, Zero 2 W).
#      Banquier is built from a clean copy of the source, never in it: the checkout stays as it was, and
#      nothing in it becomes root's. The build backend and every Python package are kept as wheels in
#      /opt/banquier/wheelhouse and installed from there (pip --no-index): a run that finds them all
#      needs no network;
#   6. the command banquier in /usr/local/bin for every user: it runs the installed one as the service user
#      with the service's configuration (through sudo -u banquier, or it says what to type);
#   7. the systemd unit banquier.service, enabled at boot (and restarted if it was running), and the phone page's
#      banquier-phone.service beside it (enabled too: it serves nothing until the page is switched on, in the
#      banker menu or with `banquier phone on`).
#
# The card reader: the backend named by --reader, else by [hardware.reader] backend in an existing
# /etc/banquier/config.toml (else the MFRC522), declares what it needs (hal/<backend>_reader.py, BACKEND):
# its Debian packages (pcscd and python3-pyscard for PC/SC, python3-evdev for a USB keyboard reader), its
# pip extra (Adafruit's PN532 library), its groups (i2c for a PN532 on I²C, input, dialout) and the
# raspi-config settings it needs on (I²C for a PN532); this script installs and sets those too.
#
# Options:
#   --source DIR   the Banquier checkout to install (default: the one this script is in).
#   --reader NAME  the card reader backend (mfrc522, serial, keyboard, pn532, pcsc) to prepare the Pi for.
#   -h, --help     this help.
# It installs on the machine it runs on; to prepare an SD card, boot it in a Pi and run it there.
# Commands can be replaced through the variables APT_GET, APT_CACHE, DPKG_QUERY, SYSTEMCTL, RASPI_CONFIG,
# USERADD, USERMOD, GROUPADD, CHOWN and PYTHON (default: the command of that name on PATH).
# For the project's own stub tests only, BANQUIER_TEST_ROOT=DIR writes under DIR instead of / (with those
# commands replaced by recording stubs): it does not make an installation for another machine.
set -euo pipefail

APT_GET=${APT_GET:-apt-get}
APT_CACHE=${APT_CACHE:-apt-cache}
DPKG_QUERY=${DPKG_QUERY:-dpkg-query}
SYSTEMCTL=${SYSTEMCTL:-systemctl}
RASPI_CONFIG=${RASPI_CONFIG:-raspi-config}
USERADD=${USERADD:-useradd}
USERMOD=${USERMOD:-usermod}
GROUPADD=${GROUPADD:-groupadd}
CHOWN=${CHOWN:-chown}
PYTHON=${PYTHON:-python3}

SERVICE_USER=banquier
DEVICE_GROUPS=(spi gpio input dialout video render)
PREFIX=/opt/banquier
VENV=$PREFIX/venv
WHEELHOUSE=$PREFIX/wheelhouse
SOURCE_STAMP=$PREFIX/source.sha256
LGPIO_STAMP=$PREFIX/lgpio-from-pypi
CONFIG_DIR=/etc/banquier
STATE_DIR=/var/lib/banquier
CREATED_GROUPS=$STATE_DIR/.created-groups
REBOOT_STAMP=$STATE_DIR/.reboot-pending
UNIT=banquier.service
PHONE_UNIT=banquier-phone.service
UNIT_DIR=/etc/systemd/system
BACKOFF_DROPIN=$UNIT_DIR/$UNIT.d/50-backoff.conf
COMMAND_DIR=/usr/local/bin

ROOT=${BANQUIER_TEST_ROOT:-}
SOURCE=""
READER=""

say() { printf 'install.sh: %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --source) [ $# -ge 2 ] || die "--source needs a directory"; SOURCE=$2; shift 2 ;;
        --source=*) SOURCE=${1#--source=}; shift ;;
        --reader) [ $# -ge 2 ] || die "--reader needs a backend name"; READER=$2; shift 2 ;;
        --reader=*) READER=${1#--reader=}; shift ;;
        -h|--help) usage; exit 0 ;;
        --root|--root=*) die "--root is gone: it could not make an image that runs on a Pi. Boot the SD card in the Pi and run sudo deploy/install.sh there" ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
done

if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || die "BANQUIER_TEST_ROOT=$ROOT is not a directory"
    ROOT=$(cd -- "$ROOT" && pwd -P)
    [ "$ROOT" != / ] || ROOT=""
fi
if [ -z "$SOURCE" ]; then
    SOURCE=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
fi
if [ ! -f "$SOURCE/pyproject.toml" ] || [ ! -f "$SOURCE/deploy/banquier.service" ] \
        || [ ! -f "$SOURCE/deploy/banquier-phone.service" ]; then
    die "$SOURCE is not a Banquier checkout (no pyproject.toml, deploy/banquier.service or deploy/banquier-phone.service)"
fi
SOURCE=$(cd -- "$SOURCE" && pwd -P)
if [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
    die "run it as root: sudo $0"
fi

# Options for the commands that act on the test tree.
ROOT_OPT=()
[ -z "$ROOT" ] || ROOT_OPT=(--root "$ROOT")

# ------------------------------------------------------------------------------------------ the machine
MODEL=""
for model_file in "$ROOT/proc/device-tree/model" "$ROOT/sys/firmware/devicetree/base/model"; do
    if [ -r "$model_file" ]; then
        MODEL=$(tr -d '\0' < "$model_file")
        break
    fi
done
PI5=no
case "$MODEL" in
    "Raspberry Pi 5"*|"Raspberry Pi Compute Module 5"*) PI5=yes ;;  # Pi 5, Pi 500, CM5: GPIO behind RP1
esac
ON_PI=no
case "$MODEL" in
    "Raspberry Pi"*) ON_PI=yes; say "this is a $MODEL" ;;
    *) say "warning: no Raspberry Pi found in the device tree; installing anyway (use the simulator on a PC)" ;;
esac
# The GPIO library. RPi.GPIO drives the pins through /dev/gpiomem, which only Raspberry Pi's kernels have;
# rpi-lgpio (the same RPi.GPIO module, on lgpio) through /dev/gpiochip*, which every kernel has. A Pi 5 needs
# rpi-lgpio (its GPIO is behind RP1); so does a Pi 3, 4 or Zero 2 W whose kernel has no /dev/gpiomem (plain
# Debian's): looked at on every run, so the choice holds on every later run too.
LGPIO=no
GPIO_WHY=""
if [ "$PI5" = yes ]; then
    LGPIO=yes; GPIO_WHY="Pi 5"
elif [ "$ON_PI" = yes ] && [ ! -e "$ROOT/dev/gpiomem" ] && compgen -G "$ROOT/dev/gpiochip*" >/dev/null; then
    LGPIO=yes; GPIO_WHY="no /dev/gpiomem (not Raspberry Pi's kernel)"
    say "GPIO: this kernel has no /dev/gpiomem, so RPi.GPIO cannot drive the pins: rpi-lgpio instead (/dev/gpiochip*)"
fi
CODENAME=""
if [ -r "$ROOT/etc/os-release" ]; then
    CODENAME=$(sed -n 's/^VERSION_CODENAME=//p' "$ROOT/etc/os-release" | tr -d '"')
fi
case "$CODENAME" in
    bookworm|trixie) ;;
    *) say "warning: made for Raspberry Pi OS Bookworm; this is '${CODENAME:-unknown}'" ;;
esac

# The earlier installers built in the checkout as root: give the checkout back (see uninstall.sh too).
clean_checkout() {
    local owner leftover
    owner=$(stat -c %u -- "$SOURCE")
    [ "$owner" != 0 ] || return 0
    for leftover in "$SOURCE"/*.egg-info "$SOURCE/build/lib" "$SOURCE"/build/bdist.*; do
        if [ -e "$leftover" ] && [ "$(stat -c %u -- "$leftover")" = 0 ]; then
            say "checkout: removing ${leftover#"$SOURCE"/}, left there by root by an earlier install"
            rm -rf -- "$leftover"
        fi
    done
    if [ -d "$SOURCE/build" ] && [ "$(stat -c %u -- "$SOURCE/build")" = 0 ]; then
        rmdir -- "$SOURCE/build" 2>/dev/null || chown -- "$owner" "$SOURCE/build"
    fi
}
clean_checkout

# ------------------------------------------------------------------------------------ 1. system packages
installed_package() {
    "$DPKG_QUERY" -W -f="\${db:Status-Abbrev}" "$1" 2>/dev/null | grep -q '^ii'
}
available_package() {
    "$APT_CACHE" show "$1" 2>/dev/null | grep -q '^Package:'
}
PACKAGES=(python3 python3-venv python3-dev gcc python3-pygame python3-spidev python3-evdev fonts-dejavu-core sqlite3)
# What the card reader declares it needs (hal.backends.ReaderBackend), read from the source's own declarations
# (-B: the source is left as it was, no __pycache__ written into it).
READER_PLAN=$(PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$SOURCE" "$PYTHON" -B - "$ROOT$CONFIG_DIR/config.toml" "$READER" "$SOURCE/pyproject.toml" \
              2>/dev/null <<'PY' || true
import re, sys, tomllib
from hal.registry import reader_backends
config, chosen, pyproject = sys.argv[1:4]
options = {}
if not chosen:
    try:
        options = tomllib.load(open(config, "rb")).get("hardware", {}).get("reader", {})
    except (OSError, ValueError):
        options = {}
    chosen = options.get("backend", "auto")
if chosen in ("", "auto"):
    chosen = "mfrc522"
declared = reader_backends()
if chosen not in declared:
    print("unknown", chosen)
    sys.exit()
backend = declared[chosen]
print("backend", chosen)
for package in backend.system_packages:
    print("apt", package)
for group, _ in backend.needed_groups({**backend.defaults(), **options}):
    print("group", group)
for setting in backend.raspi_config:
    print("enable", setting)
name = lambda r: re.split(r"[\s<>=!~;\[(]", r, maxsplit=1)[0].lower().replace("_", "-")
if backend.extra and backend.extra != "pi":
    for r in tomllib.load(open(pyproject, "rb"))["project"]["optional-dependencies"].get(backend.extra, []):
        if f"python3-{name(r)}" not in backend.system_packages:
            print("pip", r)
PY
)
READER_PIP=()
READER_ENABLE=()
while read -r kind value; do
    case "$kind" in
        unknown) die "--reader $value: no such card reader backend (see hal/README.md)" ;;
        backend) say "card reader: $value" ;;
        apt) PACKAGES+=("$value") ;;
        group) [[ " ${DEVICE_GROUPS[*]} " == *" $value "* ]] || DEVICE_GROUPS+=("$value") ;;
        enable) READER_ENABLE+=("$value") ;;
        pip) READER_PIP+=("$value") ;;
    esac
done <<< "$READER_PLAN"
LGPIO_FROM=""
NEED_UPDATE=no
if [ "$LGPIO" = yes ]; then
    if installed_package python3-lgpio; then
        LGPIO_FROM=debian
    elif [ -e "$ROOT$LGPIO_STAMP" ]; then
        LGPIO_FROM=pypi
    else
        NEED_UPDATE=yes
    fi
fi
MISSING_PACKAGES=()
for package in "${PACKAGES[@]}"; do
    installed_package "$package" || MISSING_PACKAGES+=("$package")
done
if [ ${#MISSING_PACKAGES[@]} -gt 0 ] || [ "$NEED_UPDATE" = yes ]; then
    DEBIAN_FRONTEND=noninteractive "$APT_GET" update -q
fi
if [ "$LGPIO" = yes ] && [ -z "$LGPIO_FROM" ]; then
    if available_package python3-lgpio; then
        LGPIO_FROM=debian
        MISSING_PACKAGES+=(python3-lgpio)
    else
        LGPIO_FROM=pypi  # PyPI's wheel (swig is added later only if there is none for this machine)
    fi
fi
case "$LGPIO_FROM" in
    debian) say "$GPIO_WHY: lgpio from Debian's python3-lgpio" ;;
    pypi) say "$GPIO_WHY: lgpio from PyPI (this system's repositories have no python3-lgpio, e.g. plain Debian)" ;;
esac
apt_install() {
    DEBIAN_FRONTEND=noninteractive "$APT_GET" install -y -q --no-install-recommends "$@"
}
if [ ${#MISSING_PACKAGES[@]} -gt 0 ]; then
    say "system packages: ${MISSING_PACKAGES[*]}"
    apt_install "${MISSING_PACKAGES[@]}"
else
    say "system packages: all there"
fi
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || die "Banquier needs Python 3.11 or newer (Raspberry Pi OS Bookworm has it)"

# ------------------------------------------------------------------------------------------- 2. SPI
install -d -m 0750 "$ROOT$STATE_DIR"
CONFIG_TXT=""
for candidate in "$ROOT/boot/firmware/config.txt" "$ROOT/boot/config.txt"; do
    if [ -f "$candidate" ]; then CONFIG_TXT=$candidate; break; fi
done
BOOT_ID=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)
REBOOT=no
reboot_needed() {
    REBOOT=yes
    printf '%s\n' "$BOOT_ID" > "$ROOT$REBOOT_STAMP"  # at once: an interrupted run still remembers it
}
if [ -n "$CONFIG_TXT" ] && grep -Eq '^[[:space:]]*dtparam=spi=on' "$CONFIG_TXT"; then
    say "SPI: already enabled in ${CONFIG_TXT#"$ROOT"}"
elif [ -z "$ROOT" ] && command -v "$RASPI_CONFIG" >/dev/null 2>&1; then
    say "SPI: enabling with raspi-config"
    "$RASPI_CONFIG" nonint do_spi 0
    [ -e /dev/spidev0.0 ] || reboot_needed
elif [ -n "$CONFIG_TXT" ]; then
    if grep -Eq '^[[:space:]]*#[[:space:]]*dtparam=spi=on' "$CONFIG_TXT"; then
        sed -i -E 's/^[[:space:]]*#[[:space:]]*(dtparam=spi=on)/\1/' "$CONFIG_TXT"
    else
        # After any [pi4]-style section: [all] makes the line apply to every model.
        printf '\n[all]\ndtparam=spi=on\n' >> "$CONFIG_TXT"
    fi
    say "SPI: enabled in ${CONFIG_TXT#"$ROOT"} (takes effect at the next boot)"
    reboot_needed
elif [ "$ON_PI" = yes ]; then
    say "warning: no /boot/firmware/config.txt (is the boot partition mounted? see /etc/fstab): add the line" \
        "dtparam=spi=on to the config.txt of the boot partition, then reboot"
else
    say "SPI: no config.txt here (not a Raspberry Pi): nothing to enable"
fi
# A reboot asked for by an earlier run that has not happened yet (the same boot): still pending.
if [ -f "$ROOT$REBOOT_STAMP" ]; then
    if [ "$(cat "$ROOT$REBOOT_STAMP")" = "$BOOT_ID" ]; then
        REBOOT=yes
    else
        rm -f -- "$ROOT$REBOOT_STAMP"  # the machine rebooted since
    fi
fi
if [ "$REBOOT" = no ] && [ "$ON_PI" = yes ] && [ -z "$ROOT" ] && [ -n "$CONFIG_TXT" ] \
        && grep -Eq '^[[:space:]]*dtparam=spi=on' "$CONFIG_TXT" && ! compgen -G "/dev/spidev*" >/dev/null; then
    REBOOT=yes  # enabled, but not in effect yet
fi

# What the card reader needs on besides SPI (I²C for a PN532): raspi-config, when it is there.
for setting in "${READER_ENABLE[@]}"; do
    if [ "$ON_PI" = yes ] && command -v "$RASPI_CONFIG" >/dev/null 2>&1; then
        say "card reader: raspi-config nonint $setting 0"
        "$RASPI_CONFIG" nonint "$setting" 0
        # I²C (do_i2c, the only such setting today) is in effect once /dev/i2c-* is there.
        [ -n "$ROOT" ] || compgen -G "/dev/i2c-*" >/dev/null || reboot_needed
    else
        say "card reader: not a Raspberry Pi with raspi-config: turn on $setting yourself"
    fi
done

# ------------------------------------------------------------------------------ 3. the service user
group_exists() { grep -q "^$1:" "$ROOT/etc/group" 2>/dev/null; }
user_exists() { grep -q "^$1:" "$ROOT/etc/passwd" 2>/dev/null; }
in_group() {
    awk -F: -v g="$1" -v u="$2" '$1 == g { n = split($4, m, ","); for (i = 1; i <= n; i++) if (m[i] == u) f = 1 }
                                 END { exit !f }' "$ROOT/etc/group" 2>/dev/null
}
for group in "${DEVICE_GROUPS[@]}"; do
    if ! group_exists "$group"; then
        say "group $group: creating it"
        "$GROUPADD" "${ROOT_OPT[@]}" --system "$group"
        grep -qx "$group" "$ROOT$CREATED_GROUPS" 2>/dev/null || printf '%s\n' "$group" >> "$ROOT$CREATED_GROUPS"
    fi
done
if user_exists "$SERVICE_USER"; then
    say "user $SERVICE_USER: already there"
else
    say "user $SERVICE_USER: creating it"
    "$USERADD" "${ROOT_OPT[@]}" --system --user-group --home-dir "$STATE_DIR" --no-create-home \
        --shell /usr/sbin/nologin --comment "Banquier terminal" "$SERVICE_USER"
fi
MISSING=()
for group in "${DEVICE_GROUPS[@]}"; do
    in_group "$group" "$SERVICE_USER" || MISSING+=("$group")
done
if [ ${#MISSING[@]} -gt 0 ]; then
    JOINED=$(IFS=,; printf '%s' "${MISSING[*]}")
    say "user $SERVICE_USER: joining $JOINED"
    "$USERMOD" "${ROOT_OPT[@]}" -aG "$JOINED" "$SERVICE_USER"
fi
# The user who ran this through sudo (pi) joins the service's group, to read what `banquier` writes for them
# (exports, screenshots: 0640, group banquier) and the games; the device key stays the service's alone.
ADMIN=${SUDO_USER:-}
if [ -n "$ADMIN" ] && [ "$ADMIN" != root ] && [ "$ADMIN" != "$SERVICE_USER" ] && user_exists "$ADMIN"; then
    if in_group "$SERVICE_USER" "$ADMIN"; then
        say "user $ADMIN: already in the group $SERVICE_USER"
    else
        say "user $ADMIN: joining the group $SERVICE_USER (to read what banquier writes; log in again for it)"
        "$USERMOD" "${ROOT_OPT[@]}" -aG "$SERVICE_USER" "$ADMIN"
    fi
fi

# ------------------------------------------------------------------------- 4. configuration and data
install -d -m 0755 "$ROOT$PREFIX" "$ROOT$CONFIG_DIR"
install -d -m 0750 "$ROOT$STATE_DIR" "$ROOT$STATE_DIR/data"
"$CHOWN" "$SERVICE_USER:$SERVICE_USER" "$ROOT$STATE_DIR" "$ROOT$STATE_DIR/data"
install -m 0644 "$SOURCE/deploy/config.example.toml" "$ROOT$CONFIG_DIR/config.example.toml"
if [ -e "$ROOT$CONFIG_DIR/config.toml" ]; then
    say "configuration: keeping $CONFIG_DIR/config.toml (the current example is $CONFIG_DIR/config.example.toml)"
else
    say "configuration: $CONFIG_DIR/config.toml from the example"
    install -m 0640 "$SOURCE/deploy/config.example.toml" "$ROOT$CONFIG_DIR/config.toml"
    "$CHOWN" "root:$SERVICE_USER" "$ROOT$CONFIG_DIR/config.toml"
fi

# ------------------------------------------------------------------------ 5. virtual environment
VENV_PY=$ROOT$VENV/bin/python
if [ -x "$VENV_PY" ] && grep -Eq '^include-system-site-packages *= *true' "$ROOT$VENV/pyvenv.cfg" 2>/dev/null; then
    say "virtual environment: $VENV already there"
else
    say "virtual environment: $VENV (with the system packages)"
    "$PYTHON" -m venv --system-site-packages "$ROOT$VENV"
    rm -f -- "$ROOT$SOURCE_STAMP"  # a new environment: Banquier goes in again
fi

# A clean copy of the source: no build/, *.egg-info, .venv, .git or caches of the checkout come along.
STAGE=$(mktemp -d "${TMPDIR:-/tmp}/banquier-install.XXXXXX")
trap 'rm -rf -- "$STAGE"' EXIT
mkdir -p "$STAGE/src" "$STAGE/dist"
tar -C "$SOURCE" --anchored --exclude=./.git --exclude=./.venv --exclude=./build --exclude=./dist \
    --exclude=./out --no-anchored --exclude='*.egg-info' --exclude=__pycache__ --exclude='*.pyc' \
    --exclude=.pytest_cache --exclude=.hypothesis --exclude=.mypy_cache --exclude=.ruff_cache \
    --exclude='*.db' --exclude='*.db-wal' --exclude='*.db-shm' -cf - . | tar -C "$STAGE/src" -xf -
SOURCE_HASH=$(cd "$STAGE/src" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum \
              | cut -d' ' -f1)

# The requirements of pyproject.toml, less pygame (Debian's, through the system site packages), with
# rpi-lgpio for RPi.GPIO where it is used (above) and mfrc522 without their dependencies (lgpio comes from Debian or is
# built below; mfrc522 would bring RPi.GPIO back); the build backend apart.
REQUIREMENTS=()
NO_DEPS=()
BUILD_REQUIREMENTS=()
while IFS=' ' read -r kind requirement; do
    case "$kind" in
        deps) REQUIREMENTS+=("$requirement") ;;
        nodeps) NO_DEPS+=("$requirement") ;;
        build) BUILD_REQUIREMENTS+=("$requirement") ;;
    esac
done < <("$PYTHON" - "$STAGE/src/pyproject.toml" "$LGPIO" <<'PY'
import re, sys, tomllib
data = tomllib.load(open(sys.argv[1], "rb"))
project = data["project"]
pi5 = sys.argv[2] == "yes"
name = lambda r: re.split(r"[\s<>=!~;\[(]", r, maxsplit=1)[0].lower().replace("_", "-")
for r in data.get("build-system", {}).get("requires", ["setuptools"]):
    print("build", r)
for r in project["dependencies"]:
    if name(r) != "pygame":
        print("deps", r)
for r in project.get("optional-dependencies", {}).get("pi", []):
    if name(r) == "rpi.gpio":
        print("nodeps rpi-lgpio" if pi5 else f"deps {r}")
    elif name(r) == "mfrc522":
        print("nodeps", r)
    else:
        print("deps", r)
PY
)

PIP_OPTIONS=(--quiet --disable-pip-version-check --no-cache-dir)
install -d -m 0755 "$ROOT$WHEELHOUSE"
# pip from the wheelhouse only (no network); "fetch" adds wheels to it from the package index.
offline() { "$VENV_PY" -m pip "$1" "${PIP_OPTIONS[@]}" --no-index --find-links "$ROOT$WHEELHOUSE" "${@:2}"; }
# A package PyPI has only as source (RPi.GPIO) is built here, through its PEP 517 build: pip's legacy
# "setup.py bdist_wheel" needs the wheel package, which neither Debian's venv nor Raspberry Pi OS Lite has.
fetch() {
    say "wheelhouse: fetching $* (needs the network)"
    "$VENV_PY" -m pip wheel "${PIP_OPTIONS[@]}" --use-pep517 --find-links "$ROOT$WHEELHOUSE" \
        --wheel-dir "$ROOT$WHEELHOUSE" "$@"
}
from_wheelhouse() {  # install "$@" from the wheelhouse, fetching what it lacks first
    if ! offline install "$@" 2>/dev/null; then
        fetch "$@"
        offline install "$@"
    fi
}
say "Python packages: ${REQUIREMENTS[*]} ${NO_DEPS[*]}"
# lgpio 0.2 or newer (0.0.0.2 is an empty placeholder that imports but drives nothing).
LGPIO_REQUIREMENT="lgpio>=0.2"
if [ "$LGPIO_FROM" = pypi ] && ! offline install "$LGPIO_REQUIREMENT" 2>/dev/null; then
    # PyPI has lgpio wheels for the Pi's Python 3.11 (aarch64 and armv7l): the wheel when there is one;
    # else its source is built with swig, with the C library inside (PYPI=1).
    if ! fetch --only-binary=lgpio "$LGPIO_REQUIREMENT" 2>/dev/null; then
        say "$GPIO_WHY: PyPI has no lgpio wheel for this machine: building it from source (with swig)"
        installed_package swig || apt_install swig
        PYPI=1 fetch --no-binary=lgpio "$LGPIO_REQUIREMENT"
    fi
    offline install "$LGPIO_REQUIREMENT"
fi
REQUIREMENTS+=("${READER_PIP[@]}")
from_wheelhouse "${REQUIREMENTS[@]}"
if [ ${#NO_DEPS[@]} -gt 0 ]; then
    from_wheelhouse --no-deps "${NO_DEPS[@]}"
fi
if [ "$LGPIO" = yes ] && "$VENV_PY" -m pip show --quiet RPi.GPIO >/dev/null 2>&1; then
    say "$GPIO_WHY: removing RPi.GPIO (rpi-lgpio provides the same module)"
    "$VENV_PY" -m pip uninstall --yes RPi.GPIO
fi
if [ "$LGPIO" = yes ] && ! "$VENV_PY" -c 'import lgpio' >/dev/null 2>&1; then
    die "$GPIO_WHY: the lgpio module cannot be imported in $VENV (from $LGPIO_FROM): sudo apt install python3-lgpio, or run this again"
fi
if [ -x "$ROOT$VENV/bin/banquier" ] && [ "$(cat "$ROOT$SOURCE_STAMP" 2>/dev/null)" = "$SOURCE_HASH" ]; then
    say "Banquier: already installed from this source"
else
    say "Banquier: building from a copy of $SOURCE"
    build() { offline wheel --no-deps --wheel-dir "$STAGE/dist" "$STAGE/src"; }
    if ! build 2>/dev/null; then
        fetch --no-deps "${BUILD_REQUIREMENTS[@]}"  # the build backend (Debian's setuptools is too old)
        build
    fi
    WHEELS=("$STAGE"/dist/banquier-*.whl)
    [ -f "${WHEELS[0]}" ] || die "the build made no banquier wheel in $STAGE/dist"
    # --force-reinstall uninstalls the installed copy first: a module gone from the source goes too.
    offline install --no-deps --force-reinstall "${WHEELS[0]}"
    printf '%s\n' "$SOURCE_HASH" > "$ROOT$SOURCE_STAMP"
fi
if [ "$LGPIO_FROM" = pypi ]; then : > "$ROOT$LGPIO_STAMP"; else rm -f -- "$ROOT$LGPIO_STAMP"; fi
[ ! -f "$SOURCE/README.md" ] || install -m 0644 "$SOURCE/README.md" "$ROOT$PREFIX/README.md"

# ------------------------------------------------------------------------ 6. the command for everyone
# /usr/local/bin/banquier runs the installed command as the service user with the service's configuration.
install -d -m 0755 "$ROOT$COMMAND_DIR"
install -m 0755 "$SOURCE/deploy/banquier-command.sh" "$ROOT$COMMAND_DIR/banquier"

# ------------------------------------------------------------------------------------ 7. the service
install -m 0644 "$SOURCE/deploy/banquier.service" "$ROOT$UNIT_DIR/$UNIT"
install -m 0644 "$SOURCE/deploy/banquier-phone.service" "$ROOT$UNIT_DIR/$PHONE_UNIT"
SYSTEMD_VERSION=$("$SYSTEMCTL" --version 2>/dev/null | awk 'NR == 1 { print $2 + 0 }')
if [ "${SYSTEMD_VERSION:-0}" -ge 254 ]; then
    # systemd 254 and later lengthen the pause after each failed start: 30 s up to 2 min.
    install -d -m 0755 "$ROOT$UNIT_DIR/$UNIT.d"
    printf '[Service]\nRestartSteps=6\nRestartMaxDelaySec=120\n' > "$ROOT$BACKOFF_DROPIN"
    chmod 0644 "$ROOT$BACKOFF_DROPIN"
else
    rm -f -- "$ROOT$BACKOFF_DROPIN"
fi
SYSTEMD_RUNNING=no
if [ -n "$ROOT" ]; then
    "$SYSTEMCTL" --root="$ROOT" enable "$UNIT" "$PHONE_UNIT"
elif [ -d /run/systemd/system ]; then  # systemd is the init system here (sd_booted)
    SYSTEMD_RUNNING=yes
    "$SYSTEMCTL" daemon-reload
    "$SYSTEMCTL" enable "$UNIT" "$PHONE_UNIT"
    "$SYSTEMCTL" try-restart "$UNIT"
    # the phone page runs beside the terminal from now on (it listens only while switched on)
    "$SYSTEMCTL" restart "$PHONE_UNIT" || say "warning: $PHONE_UNIT did not start (journalctl -u banquier-phone): the terminal is not affected"
else
    say "systemd is not running here (a chroot or a container): the units are enabled for the next boot"
    "$SYSTEMCTL" enable "$UNIT" "$PHONE_UNIT"
fi

say "done. Check the hardware with: sudo systemctl stop banquier; banquier doctor"
if [ "$REBOOT" = yes ]; then
    say "reboot to enable SPI and start Banquier: sudo reboot (SPI works only after it)"
elif [ "$SYSTEMD_RUNNING" = yes ] || [ -n "$ROOT" ]; then
    say "start it now with: sudo systemctl start banquier (it starts by itself at every boot)"
else
    say "it starts by itself when the machine boots"
fi
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ -e "$ROOT/etc/xdg/labwc" ] || [ -e "$ROOT/etc/xdg/wayfire.ini" ]; then
    say "note: on the desktop image the desktop holds the screen; boot to the console for Banquier:"
    say "      sudo raspi-config nonint do_boot_behaviour B1"
fi
