#!/bin/sh
# banquier: the installed Banquier for whoever types it. Installed by deploy/install.sh as
# /usr/local/bin/banquier.
#
# It runs /opt/banquier/venv/bin/banquier as the service user banquier with the service's configuration
# (/etc/banquier/config.toml), so that `banquier doctor`, `banquier cards enrol` or `banquier games list`
# see the same games, cards, device key and groups as the terminal, and whatever they write stays the
# service's. As root it switches with runuser; as a user who may use sudo, with sudo -u banquier (sudo may
# ask for your password); otherwise it prints one line saying what to type.
#
# `banquier pin set` is the exception: it writes the configuration, which is root's (the service only reads it,
# through its group), so it runs as root: `sudo banquier pin set` (as a user who may use sudo, plain `banquier
# pin set` asks sudo too). The configuration keeps its owner, its group and a mode that others cannot read.
#
# Files named on the command line are read and written as the service user: use absolute paths in a folder
# it can reach (e.g. /tmp), not your home directory. What it writes there is the service user's, mode 0640,
# group banquier: the user who installed Banquier is in that group and reads it.
set -eu

SERVICE_USER=banquier
PROGRAM=/opt/banquier/venv/bin/banquier
CONFIG=/etc/banquier/config.toml

if [ ! -x "$PROGRAM" ]; then
    echo "banquier: $PROGRAM is missing: install Banquier with sudo deploy/install.sh (from its source)" >&2
    exit 3
fi
# The command word, after the options that come before it (--config FILE).
verb=""
skip=no
for word in "$@"; do
    if [ "$skip" = yes ]; then skip=no; continue; fi
    case "$word" in
        --config) skip=yes ;;
        -*) ;;
        *) verb=$word; break ;;
    esac
done
me=$(id -un 2>/dev/null || echo "")
may_sudo() {  # members of sudo (or admin, wheel) may use it; so may anyone sudo lets in without a password
    command -v sudo >/dev/null 2>&1 || return 1
    for group in $(id -Gn 2>/dev/null); do
        case "$group" in sudo|admin|wheel) return 0 ;; esac
    done
    sudo -n -l "$@" >/dev/null 2>&1
}
if [ "$verb" = pin ]; then  # it writes root's configuration: as root
    if [ "$(id -u)" -eq 0 ]; then
        exec env BANQUIER_CONFIG="$CONFIG" PYTHONDONTWRITEBYTECODE=1 "$PROGRAM" "$@"
    fi
    if may_sudo "$PROGRAM"; then
        exec sudo -- env BANQUIER_CONFIG="$CONFIG" PYTHONDONTWRITEBYTECODE=1 "$PROGRAM" "$@"
    fi
    echo "banquier: the banker PIN is stored in $CONFIG, which is root's: an administrator types sudo banquier $*" >&2
    exit 2
fi
if [ "$me" = "$SERVICE_USER" ]; then
    BANQUIER_CONFIG=${BANQUIER_CONFIG:-$CONFIG}
    export BANQUIER_CONFIG
    exec "$PROGRAM" "$@"
fi
# The service user's own folder as the working directory: yours may be closed to it.
cd /var/lib/banquier 2>/dev/null || cd /
if [ "$(id -u)" -eq 0 ]; then
    exec runuser -u "$SERVICE_USER" -- env BANQUIER_CONFIG="$CONFIG" "$PROGRAM" "$@"
fi
if may_sudo -u "$SERVICE_USER" "$PROGRAM"; then
    exec sudo -u "$SERVICE_USER" -- env BANQUIER_CONFIG="$CONFIG" "$PROGRAM" "$@"
fi
echo "banquier: Banquier runs as the user $SERVICE_USER, and $me may not use sudo: as an administrator, type" \
     "sudo -u $SERVICE_USER env BANQUIER_CONFIG=$CONFIG $PROGRAM $*" >&2
exit 2
