#!/usr/bin/env bash
# Install Banquier on a Raspberry Pi (3, 4, 5, Zero 2 W) running Raspberry Pi OS Bookworm, Lite or desktop.
#
#   sudo deploy/install.sh            install, or upgrade in place; safe to run again at any time
#   sudo deploy/uninstall.sh          remove it again (keeps the games; --purge deletes them)
#
# What it does, each step skipped when already done:
#   1. system packages with apt: Debian's python3-pygame (its SDL has the kmsdrm driver that PyPI wheels
#      lack), python3-spidev and python3-evdev, python3-venv, python3-dev and gcc (to build RPi.GPIO), fonts-dejavu-core,
#      sqlite3; python3-lgpio on a Pi 5;
#   2. SPI enabled (raspi-config nonint do_spi 0, or dtparam=spi=on in /boot/firmware/config.txt);
#   3. the service user "banquier" in the groups spi gpio input dialout video render;
#   4. /etc/banquier/config.toml from deploy/config.example.toml if there is none (never overwritten),
#      /var/lib/banquier for the games;
#   5. a virtual environment in /opt/banquier/venv that sees the system packages (pygame), with Banquier
#      and its Raspberry Pi libraries: RPi.GPIO, or rpi-lgpio on a Pi 5 (read from the device tree);
#   6. the command banquier in /usr/local/bin for every user: it runs the installed one as the service user
#      with the service's configuration (through sudo -u banquier, or it says what to type);
#   7. the systemd unit banquier.service, enabled at boot (and restarted if it was running).
#
# Options:
#   --root DIR     act on the file tree under DIR instead of / (tests, SD card images): files are written
#                  under DIR; systemctl, useradd, usermod and groupadd get --root DIR; raspi-config is not
#                  used (config.txt is edited instead); apt-get and pip still run on this machine.
#   --source DIR   the Banquier checkout to install (default: the one this script is in).
#   -h, --help     this help.
# Commands can be replaced through the variables APT_GET, SYSTEMCTL, RASPI_CONFIG, USERADD, USERMOD,
# GROUPADD, CHOWN and PYTHON (default: the command of that name on PATH).
set -euo pipefail

APT_GET=${APT_GET:-apt-get}
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
CONFIG_DIR=/etc/banquier
STATE_DIR=/var/lib/banquier
UNIT=banquier.service
UNIT_DIR=/etc/systemd/system
BACKOFF_DROPIN=$UNIT_DIR/$UNIT.d/50-backoff.conf
COMMAND_DIR=/usr/local/bin

ROOT=""
SOURCE=""

say() { printf 'install.sh: %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --root) [ $# -ge 2 ] || die "--root needs a directory"; ROOT=$2; shift 2 ;;
        --root=*) ROOT=${1#--root=}; shift ;;
        --source) [ $# -ge 2 ] || die "--source needs a directory"; SOURCE=$2; shift 2 ;;
        --source=*) SOURCE=${1#--source=}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
done

if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || die "--root $ROOT is not a directory"
    ROOT=$(cd -- "$ROOT" && pwd -P)
    [ "$ROOT" != / ] || ROOT=""
fi
if [ -z "$SOURCE" ]; then
    SOURCE=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
fi
if [ ! -f "$SOURCE/pyproject.toml" ] || [ ! -f "$SOURCE/deploy/banquier.service" ]; then
    die "$SOURCE is not a Banquier checkout (no pyproject.toml or deploy/banquier.service)"
fi
if [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
    die "run it as root: sudo $0"
fi

# Options for the commands that can act on another root.
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
case "$MODEL" in
    "Raspberry Pi"*) say "this is a $MODEL" ;;
    *) say "warning: no Raspberry Pi found in the device tree; installing anyway (use the simulator on a PC)" ;;
esac
CODENAME=""
if [ -r "$ROOT/etc/os-release" ]; then
    CODENAME=$(sed -n 's/^VERSION_CODENAME=//p' "$ROOT/etc/os-release" | tr -d '"')
fi
case "$CODENAME" in
    bookworm|trixie) ;;
    *) say "warning: made for Raspberry Pi OS Bookworm; this is '${CODENAME:-unknown}'" ;;
esac

# ------------------------------------------------------------------------------------ 1. system packages
PACKAGES=(python3 python3-venv python3-dev gcc python3-pygame python3-spidev python3-evdev fonts-dejavu-core sqlite3)
[ "$PI5" = no ] || PACKAGES+=(python3-lgpio)
say "system packages: ${PACKAGES[*]}"
DEBIAN_FRONTEND=noninteractive "$APT_GET" update -q
DEBIAN_FRONTEND=noninteractive "$APT_GET" install -y -q --no-install-recommends "${PACKAGES[@]}"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || die "Banquier needs Python 3.11 or newer (Raspberry Pi OS Bookworm has it)"

# ------------------------------------------------------------------------------------------- 2. SPI
CONFIG_TXT=""
for candidate in "$ROOT/boot/firmware/config.txt" "$ROOT/boot/config.txt"; do
    if [ -f "$candidate" ]; then CONFIG_TXT=$candidate; break; fi
done
REBOOT=no
if [ -n "$CONFIG_TXT" ] && grep -Eq '^[[:space:]]*dtparam=spi=on' "$CONFIG_TXT"; then
    say "SPI: already enabled in ${CONFIG_TXT#"$ROOT"}"
elif [ -z "$ROOT" ] && command -v "$RASPI_CONFIG" >/dev/null 2>&1; then
    say "SPI: enabling with raspi-config"
    "$RASPI_CONFIG" nonint do_spi 0
    [ -e /dev/spidev0.0 ] || REBOOT=yes
elif [ -n "$CONFIG_TXT" ]; then
    if grep -Eq '^[[:space:]]*#[[:space:]]*dtparam=spi=on' "$CONFIG_TXT"; then
        sed -i -E 's/^[[:space:]]*#[[:space:]]*(dtparam=spi=on)/\1/' "$CONFIG_TXT"
    else
        # After any [pi4]-style section: [all] makes the line apply to every model.
        printf '\n[all]\ndtparam=spi=on\n' >> "$CONFIG_TXT"
    fi
    say "SPI: enabled in ${CONFIG_TXT#"$ROOT"} (takes effect at the next boot)"
    REBOOT=yes
else
    say "warning: no /boot/firmware/config.txt: enable SPI by hand (sudo raspi-config, Interface Options)"
fi

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
fi
# The requirements of pyproject.toml, less pygame (Debian's, through the system site packages), with
# rpi-lgpio for RPi.GPIO on a Pi 5, and mfrc522 without its dependencies (it would bring RPi.GPIO back).
REQUIREMENTS=()
NO_DEPS=()
while IFS=' ' read -r kind requirement; do
    case "$kind" in
        deps) REQUIREMENTS+=("$requirement") ;;
        nodeps) NO_DEPS+=("$requirement") ;;
    esac
done < <("$PYTHON" - "$SOURCE/pyproject.toml" "$PI5" <<'PY'
import re, sys, tomllib
project = tomllib.load(open(sys.argv[1], "rb"))["project"]
pi5 = sys.argv[2] == "yes"
name = lambda r: re.split(r"[\s<>=!~;\[(]", r, maxsplit=1)[0].lower().replace("_", "-")
for r in project["dependencies"]:
    if name(r) != "pygame":
        print("deps", r)
for r in project.get("optional-dependencies", {}).get("pi", []):
    if name(r) == "rpi.gpio":
        print("deps", "rpi-lgpio" if pi5 else r)
    elif name(r) == "mfrc522":
        print("nodeps", r)
    else:
        print("deps", r)
PY
)
say "Python packages: ${REQUIREMENTS[*]} ${NO_DEPS[*]}"
"$VENV_PY" -m pip install --quiet --disable-pip-version-check "${REQUIREMENTS[@]}"
if [ ${#NO_DEPS[@]} -gt 0 ]; then
    "$VENV_PY" -m pip install --quiet --disable-pip-version-check --no-deps "${NO_DEPS[@]}"
fi
if [ "$PI5" = yes ] && "$VENV_PY" -m pip show --quiet RPi.GPIO >/dev/null 2>&1; then
    say "Pi 5: removing RPi.GPIO (rpi-lgpio provides the same module)"
    "$VENV_PY" -m pip uninstall --yes RPi.GPIO
fi
say "Banquier from $SOURCE"
"$VENV_PY" -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "$SOURCE"
[ ! -f "$SOURCE/README.md" ] || install -m 0644 "$SOURCE/README.md" "$ROOT$PREFIX/README.md"

# ------------------------------------------------------------------------ 6. the command for everyone
# /usr/local/bin/banquier runs the installed command as the service user with the service's configuration.
install -d -m 0755 "$ROOT$COMMAND_DIR"
install -m 0755 "$SOURCE/deploy/banquier-command.sh" "$ROOT$COMMAND_DIR/banquier"

# ------------------------------------------------------------------------------------ 7. the service
install -m 0644 "$SOURCE/deploy/banquier.service" "$ROOT$UNIT_DIR/$UNIT"
SYSTEMD_VERSION=$("$SYSTEMCTL" --version 2>/dev/null | awk 'NR == 1 { print $2 + 0 }')
if [ "${SYSTEMD_VERSION:-0}" -ge 254 ]; then
    # systemd 254 and later lengthen the pause after each failed start: 30 s up to 2 min.
    install -d -m 0755 "$ROOT$UNIT_DIR/$UNIT.d"
    printf '[Service]\nRestartSteps=6\nRestartMaxDelaySec=120\n' > "$ROOT$BACKOFF_DROPIN"
    chmod 0644 "$ROOT$BACKOFF_DROPIN"
else
    rm -f -- "$ROOT$BACKOFF_DROPIN"
fi
if [ -n "$ROOT" ]; then
    "$SYSTEMCTL" --root="$ROOT" enable "$UNIT"
else
    "$SYSTEMCTL" daemon-reload
    "$SYSTEMCTL" enable "$UNIT"
    "$SYSTEMCTL" try-restart "$UNIT"
fi

say "done. Check the hardware with: sudo systemctl stop banquier; banquier doctor"
if [ "$REBOOT" = yes ]; then
    say "reboot to enable SPI and start Banquier: sudo reboot"
else
    say "start it now with: sudo systemctl start banquier (it starts by itself at every boot)"
fi
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ -e "$ROOT/etc/xdg/labwc" ] || [ -e "$ROOT/etc/xdg/wayfire.ini" ]; then
    say "note: on the desktop image the desktop holds the screen; boot to the console for Banquier:"
    say "      sudo raspi-config nonint do_boot_behaviour B1"
fi
