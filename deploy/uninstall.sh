#!/usr/bin/env bash
# Remove what deploy/install.sh installed.
#
#   sudo deploy/uninstall.sh          stop and remove the service, the command /usr/local/bin/banquier and
#                                     /opt/banquier; KEEP the games, the device key (/var/lib/banquier), the
#                                     configuration (/etc/banquier) and the user banquier, for a later install
#   sudo deploy/uninstall.sh --purge  also delete the games, the device key, the configuration and the user
#
# SPI stays enabled and the apt packages stay installed: other programs may use them.
#
# Options:
#   --root DIR   act on the file tree under DIR instead of / (as install.sh --root).
#   --purge      delete the data too (the games cannot be recovered afterwards).
#   -h, --help   this help.
# Commands can be replaced through the variables SYSTEMCTL and USERDEL.
set -euo pipefail

SYSTEMCTL=${SYSTEMCTL:-systemctl}
USERDEL=${USERDEL:-userdel}

SERVICE_USER=banquier
PREFIX=/opt/banquier
CONFIG_DIR=/etc/banquier
STATE_DIR=/var/lib/banquier
UNIT=banquier.service
UNIT_DIR=/etc/systemd/system
BACKOFF_DROPIN=$UNIT_DIR/$UNIT.d/50-backoff.conf
COMMAND=/usr/local/bin/banquier

ROOT=""
PURGE=no

say() { printf 'uninstall.sh: %s\n' "$*"; }
die() { printf 'uninstall.sh: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --root) [ $# -ge 2 ] || die "--root needs a directory"; ROOT=$2; shift 2 ;;
        --root=*) ROOT=${1#--root=}; shift ;;
        --purge) PURGE=yes; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
done
if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || die "--root $ROOT is not a directory"
    ROOT=$(cd -- "$ROOT" && pwd -P)
    [ "$ROOT" != / ] || ROOT=""
fi
if [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
    die "run it as root: sudo $0"
fi

# The service: stopped and disabled (nothing to do if it was never installed).
if [ -e "$ROOT$UNIT_DIR/$UNIT" ]; then
    say "service: stopping and disabling $UNIT"
    if [ -n "$ROOT" ]; then
        "$SYSTEMCTL" --root="$ROOT" disable "$UNIT" || true
    else
        "$SYSTEMCTL" disable --now "$UNIT" || true
    fi
fi
rm -f -- "$ROOT$UNIT_DIR/$UNIT" "$ROOT$BACKOFF_DROPIN"
rmdir -- "$ROOT$UNIT_DIR/$UNIT.d" 2>/dev/null || true  # kept if it holds your own drop-ins
if [ -z "$ROOT" ]; then
    "$SYSTEMCTL" daemon-reload
    "$SYSTEMCTL" reset-failed "$UNIT" 2>/dev/null || true
fi

# The command for everyone (only ours: a banquier of your own there stays).
if grep -qs '^# banquier: the installed Banquier for whoever types it' "$ROOT$COMMAND"; then
    say "command: removing $COMMAND"
    rm -f -- "$ROOT$COMMAND"
fi

# The program.
if [ -e "$ROOT$PREFIX" ]; then
    say "program: removing $PREFIX"
    rm -rf -- "$ROOT$PREFIX"
fi

if [ "$PURGE" = yes ]; then
    say "purge: deleting the games, the device key ($STATE_DIR) and the configuration ($CONFIG_DIR)"
    rm -rf -- "$ROOT$STATE_DIR" "$ROOT$CONFIG_DIR"
    if grep -q "^$SERVICE_USER:" "$ROOT/etc/passwd" 2>/dev/null; then
        say "purge: deleting the user $SERVICE_USER"
        if [ -n "$ROOT" ]; then
            "$USERDEL" --root "$ROOT" "$SERVICE_USER"
        else
            "$USERDEL" "$SERVICE_USER"
        fi
    fi
else
    [ ! -e "$ROOT$STATE_DIR" ] || say "kept: the games and the device key in $STATE_DIR"
    [ ! -e "$ROOT$CONFIG_DIR" ] || say "kept: the configuration in $CONFIG_DIR"
    say "kept: the user $SERVICE_USER. deploy/uninstall.sh --purge deletes all of these."
fi
say "left as they are: SPI (enabled) and the apt packages"
