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
# Files named on the command line are read and written as the service user: use absolute paths in a folder
# it can reach (e.g. /tmp), not your home directory.
set -eu

SERVICE_USER=banquier
PROGRAM=/opt/banquier/venv/bin/banquier
CONFIG=/etc/banquier/config.toml

if [ ! -x "$PROGRAM" ]; then
    echo "banquier: $PROGRAM is missing: install Banquier with sudo deploy/install.sh (from its source)" >&2
    exit 3
fi
me=$(id -un 2>/dev/null || echo "")
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
# Members of sudo (or admin, wheel) may use it; so may anyone sudo lets in without a password.
may_sudo=no
if command -v sudo >/dev/null 2>&1; then
    for group in $(id -Gn 2>/dev/null); do
        case "$group" in sudo|admin|wheel) may_sudo=yes ;; esac
    done
    if [ "$may_sudo" = no ] && sudo -n -l -u "$SERVICE_USER" "$PROGRAM" >/dev/null 2>&1; then
        may_sudo=yes
    fi
fi
if [ "$may_sudo" = yes ]; then
    exec sudo -u "$SERVICE_USER" -- env BANQUIER_CONFIG="$CONFIG" "$PROGRAM" "$@"
fi
echo "banquier: Banquier runs as the user $SERVICE_USER, and $me may not use sudo: as an administrator, type" \
     "sudo -u $SERVICE_USER env BANQUIER_CONFIG=$CONFIG $PROGRAM $*" >&2
exit 2
