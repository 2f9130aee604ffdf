#!/usr/bin/env bash
# Remove what deploy/install.sh installed.
#
#   sudo deploy/uninstall.sh          stop and remove the service, the command /usr/local/bin/banquier and
#                                     /opt/banquier (the program and its wheelhouse); KEEP the games, the
#                                     device key (/var/lib/banquier), the configuration (/etc/banquier) and
#                                     the user banquier, for a later install
#   sudo deploy/uninstall.sh --purge  also delete the games, the device key, the configuration, the user, its
#                                     group banquier, and the groups install.sh created (only those, and only
#                                     once empty)
#
# SPI stays enabled and the apt packages stay installed: other programs may use them. What an earlier
# installer left as root in this checkout (build/lib, *.egg-info) is removed.
#
# Options:
#   --purge      delete the data too (the games cannot be recovered afterwards).
#   -h, --help   this help.
# Commands can be replaced through the variables SYSTEMCTL, USERDEL and GROUPDEL. For the project's stub
# tests only, BANQUIER_TEST_ROOT=DIR acts on the tree under DIR instead of / (as install.sh).
set -euo pipefail

SYSTEMCTL=${SYSTEMCTL:-systemctl}
USERDEL=${USERDEL:-userdel}
GROUPDEL=${GROUPDEL:-groupdel}

SERVICE_USER=banquier
PREFIX=/opt/banquier
CONFIG_DIR=/etc/banquier
STATE_DIR=/var/lib/banquier
CREATED_GROUPS=$STATE_DIR/.created-groups
UNIT=banquier.service
PHONE_UNIT=banquier-phone.service
UNIT_DIR=/etc/systemd/system
BACKOFF_DROPIN=$UNIT_DIR/$UNIT.d/50-backoff.conf
COMMAND=/usr/local/bin/banquier

ROOT=${BANQUIER_TEST_ROOT:-}
PURGE=no

say() { printf 'uninstall.sh: %s\n' "$*"; }
die() { printf 'uninstall.sh: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --purge) PURGE=yes; shift ;;
        -h|--help) usage; exit 0 ;;
        --root|--root=*) die "--root is gone (see install.sh --help)" ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
done
if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || die "BANQUIER_TEST_ROOT=$ROOT is not a directory"
    ROOT=$(cd -- "$ROOT" && pwd -P)
    [ "$ROOT" != / ] || ROOT=""
fi
if [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
    die "run it as root: sudo $0"
fi
ROOT_OPT=()
[ -z "$ROOT" ] || ROOT_OPT=(--root "$ROOT")

# The services (the terminal's and its phone page's): stopped and disabled (nothing to do if never installed).
for unit in "$UNIT" "$PHONE_UNIT"; do
    if [ -e "$ROOT$UNIT_DIR/$unit" ]; then
        say "service: stopping and disabling $unit"
        if [ -n "$ROOT" ]; then
            "$SYSTEMCTL" --root="$ROOT" disable "$unit" || true
        elif [ -d /run/systemd/system ]; then
            "$SYSTEMCTL" disable --now "$unit" || true
        else  # a chroot or a container: nothing runs, only the links go
            "$SYSTEMCTL" disable "$unit" || true
        fi
    fi
done
rm -f -- "$ROOT$UNIT_DIR/$UNIT" "$ROOT$BACKOFF_DROPIN" "$ROOT$UNIT_DIR/$PHONE_UNIT"
rmdir -- "$ROOT$UNIT_DIR/$UNIT.d" 2>/dev/null || true  # kept if it holds your own drop-ins
if [ -z "$ROOT" ] && [ -d /run/systemd/system ]; then
    "$SYSTEMCTL" daemon-reload
    "$SYSTEMCTL" reset-failed "$UNIT" "$PHONE_UNIT" 2>/dev/null || true
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

# What an earlier installer built as root in this checkout, if it is someone else's.
CHECKOUT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
if [ -f "$CHECKOUT/pyproject.toml" ] && [ "$(stat -c %u -- "$CHECKOUT")" != 0 ]; then
    for leftover in "$CHECKOUT"/*.egg-info "$CHECKOUT/build/lib" "$CHECKOUT"/build/bdist.*; do
        if [ -e "$leftover" ] && [ "$(stat -c %u -- "$leftover")" = 0 ]; then
            say "checkout: removing ${leftover#"$CHECKOUT"/} (root's, from an earlier install)"
            rm -rf -- "$leftover"
        fi
    done
    if [ -d "$CHECKOUT/build" ] && [ "$(stat -c %u -- "$CHECKOUT/build")" = 0 ]; then
        rmdir -- "$CHECKOUT/build" 2>/dev/null || true
    fi
fi

members() {
    awk -F: -v g="$1" '$1 == g { print $4 }' "$ROOT/etc/group" 2>/dev/null
}
if [ "$PURGE" = yes ]; then
    CREATED=()
    if [ -f "$ROOT$CREATED_GROUPS" ]; then
        mapfile -t CREATED < "$ROOT$CREATED_GROUPS"
    fi
    SERVICE_GROUP_MEMBERS=$(members "$SERVICE_USER")
    say "purge: deleting the games, the device key ($STATE_DIR) and the configuration ($CONFIG_DIR)"
    rm -rf -- "$ROOT$STATE_DIR" "$ROOT$CONFIG_DIR"
    # The private runtime folder `banquier` makes for SDL when it is run by hand without XDG_RUNTIME_DIR (the
    # unit gives it /run/banquier): $TMPDIR/banquier-runtime-UID, the service user's own.
    SERVICE_UID=$(awk -F: -v u="$SERVICE_USER" '$1 == u { print $3 }' "$ROOT/etc/passwd" 2>/dev/null)
    if [ -n "$SERVICE_UID" ] && [ -d "$ROOT/tmp/banquier-runtime-$SERVICE_UID" ] \
            && [ "$(stat -c %u "$ROOT/tmp/banquier-runtime-$SERVICE_UID")" = "$SERVICE_UID" ]; then
        rm -rf -- "$ROOT/tmp/banquier-runtime-$SERVICE_UID"
    fi
    if grep -q "^$SERVICE_USER:" "$ROOT/etc/passwd" 2>/dev/null; then
        say "purge: deleting the user $SERVICE_USER"
        "$USERDEL" "${ROOT_OPT[@]}" "$SERVICE_USER"
    fi
    # Its own group, which userdel keeps while others are in it (the user who installed Banquier joined it).
    if grep -q "^$SERVICE_USER:" "$ROOT/etc/group" 2>/dev/null; then
        say "purge: deleting the group $SERVICE_USER${SERVICE_GROUP_MEMBERS:+ (its members: $SERVICE_GROUP_MEMBERS)}"
        "$GROUPDEL" "${ROOT_OPT[@]}" "$SERVICE_USER"
    fi
    for group in "${CREATED[@]}"; do
        [ -n "$group" ] || continue
        grep -q "^$group:" "$ROOT/etc/group" 2>/dev/null || continue
        if [ -n "$(members "$group")" ]; then
            say "purge: keeping the group $group, which install.sh created: it now has members ($(members "$group"))"
        else
            say "purge: deleting the group $group, which install.sh created"
            "$GROUPDEL" "${ROOT_OPT[@]}" "$group"
        fi
    done
else
    [ ! -e "$ROOT$STATE_DIR" ] || say "kept: the games and the device key in $STATE_DIR"
    [ ! -e "$ROOT$CONFIG_DIR" ] || say "kept: the configuration in $CONFIG_DIR"
    say "kept: the user $SERVICE_USER. deploy/uninstall.sh --purge deletes all of these."
fi
say "left as they are: SPI (enabled) and the apt packages"
