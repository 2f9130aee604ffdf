#!/usr/bin/env bash
# The real install test: deploy/install.sh and deploy/uninstall.sh run for real, as root, in a fresh Debian
# Bookworm root made with debootstrap (this machine's architecture, or arm64 under qemu), nothing stubbed.
#
#   sudo tests/deploy/real_install.sh [--keep]      (.ci/run runs it after ./dev.sh test)
#   sudo REAL_INSTALL_ARCH=arm64 tests/deploy/real_install.sh      (a maintainer, see below)
#
# 1. debootstrap a minimal Bookworm root in build/real-install/root (the repository's build folder: nothing
#    is cached anywhere else; the root is made afresh each run), with this machine's apt mirror and CA
#    certificates copied in (as an image builder would), made to look like a Raspberry Pi 4 (device-tree
#    model, Raspberry Pi OS's default config.txt), a login user pi (sudo without password, as on Raspberry Pi
#    OS) and a clone of this repository in /home/pi/banquier, owned by pi;
# 2. sudo deploy/install.sh from pi, as the README says (chroot, in its own PID and mount namespaces: unshare
#    --pid --fork --mount-proc); on arm64, RPi.GPIO is built from its source (PyPI has no wheel of it);
# 3. install.sh again WITHOUT NETWORK (unshare --net): it must succeed and change nothing: every file's type,
#    owner, group, mode, link and SHA-256, and the dpkg package list; the reboot SPI needs is still asked for;
# 4. a module deleted from the clone, install.sh offline once more: it is gone from the installation; the clone
#    never holds a file of root's;
# 5. the service's own command (ExecStart, with the unit's Environment=, as its User=) by hand, with the
#    simulated reader and SDL's offscreen driver: it must refuse to run blind (exit 3, one line, no traceback);
#    and with --headless it runs and stops cleanly; systemd-analyze verify and security on the installed unit;
# 6. `sudo banquier pin set` from pi: the configuration stays root:banquier 0640 with the PIN's hash, and the
#    service's command starts with it; what `banquier` writes for pi (an export) is readable by pi, and the
#    data folder is closed to others;
# 7. the unit's own sandbox: the root booted with systemd-nspawn, a Raspberry Pi 4's device classes in its
#    /proc/devices (tests/deploy/data) and its device nodes made: every device the configured parts need
#    (reader, GPIO, screen, touch; a serial reader and an SPI panel too) is opened from inside the installed
#    unit, whose DevicePolicy=closed refuses what its DeviceAllow= does not name (shown with the old
#    char-spidev, which must be refused), the background work can lower its priority there, doctor's
#    "service" line agrees with what the sandbox did, and `systemctl start banquier` (headless) runs;
# 8. /usr/local/bin/banquier from the login user pi (doctor, --help), and from a user who may not use sudo;
# 9. uninstall.sh (keeps the data), then uninstall.sh --purge: what is left is checked.
#
# It fails, loudly, when it cannot run (not root, no debootstrap or systemd-nspawn, no network to the Debian
# mirror or PyPI): it never skips. It prints the time of each step and the total. --keep leaves the root in
# place afterwards (it is deleted when all passed otherwise, and kept for a look when something failed).
#
# REAL_INSTALL_ARCH=arm64 builds an arm64 root (what a Pi 3, 4 or Zero 2 W runs) and runs it under qemu-user
# (apt-get install qemu-user-static binfmt-support first; the binfmt entry is given the C flag for the run, so
# that sudo works inside, and restored afterwards). It is the only run that builds RPi.GPIO, as a Pi does; it
# passed in 1243 s (21 minutes) on the 2-core development machine while other work shared it, too long for CI,
# which runs this machine's architecture (amd64): a maintainer runs it before a release and after any change to
# deploy/ or to the Python dependencies. Under qemu the sandbox step (7) is left out: systemd as a container's init under qemu-user is
# not what a Pi runs.
set -euo pipefail

REPO=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
WORK=$REPO/build/real-install
ROOTFS=$WORK/root
SUITE=bookworm
KEEP=no
[ "${1:-}" != --keep ] || KEEP=yes

START=$(date +%s)
STEP_START=""
PASSED=no
log() { printf '[real-install %4ds] %s\n' "$(( $(date +%s) - START ))" "$*"; }
step() {
    local now
    now=$(date +%s)
    [ -z "$STEP_START" ] || printf '[real-install %4ds]   (that step: %ds)\n' "$(( now - START ))" "$(( now - STEP_START ))"
    STEP_START=$now
    log "== $*"
}
fail() {
    printf 'real-install: FAIL: %s\n' "$*" >&2
    exit 1
}
finish() {
    local code=$?
    if [ -n "${BINFMT_RESTORE:-}" ] && [ -e "/proc/sys/fs/binfmt_misc/$QEMU_NAME" ]; then
        echo -1 > "/proc/sys/fs/binfmt_misc/$QEMU_NAME"
        printf '%s\n' "$BINFMT_RESTORE" > /proc/sys/fs/binfmt_misc/register
    fi
    if [ "$PASSED" = yes ]; then
        log "PASSED in $(( $(date +%s) - START )) s"
        [ "$KEEP" = yes ] || rm -rf -- "$ROOTFS"
    else
        printf 'real-install: FAILED after %d s (exit %d); the root is kept in %s, logs in %s\n' \
            "$(( $(date +%s) - START ))" "$code" "$ROOTFS" "$WORK" >&2
        [ "$code" -ne 0 ] || exit 1
    fi
}
trap finish EXIT

# ------------------------------------------------------------------------------------- preconditions
[ "$(id -u)" -eq 0 ] || fail "run it as root (debootstrap and chroot need it): sudo $0"
for tool in debootstrap unshare chroot mount sha256sum find; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing: apt-get install -y debootstrap util-linux"
done
ARCH=${REAL_INSTALL_ARCH:-$(dpkg --print-architecture)}
NATIVE=yes
[ "$ARCH" = "$(dpkg --print-architecture)" ] || NATIVE=no
if [ "$NATIVE" = yes ]; then
    command -v systemd-nspawn >/dev/null 2>&1 || fail "systemd-nspawn is missing: apt-get install -y systemd-container"
fi
# A foreign architecture runs through qemu-user's binfmt entry, which needs the C flag (credentials from the
# program, not from qemu) for sudo to work inside: given for the run, restored at the end.
BINFMT_RESTORE=""
if [ "$NATIVE" = no ]; then
    case "$ARCH" in arm64) QEMU_NAME=qemu-aarch64 ;; armhf|armel) QEMU_NAME=qemu-arm ;; *) QEMU_NAME=qemu-$ARCH ;; esac
    BINFMT=/proc/sys/fs/binfmt_misc/$QEMU_NAME
    [ -r "$BINFMT" ] || fail "no binfmt entry $BINFMT: apt-get install -y qemu-user-static binfmt-support"
    FLAGS=$(sed -n 's/^flags: //p' "$BINFMT")
    case "$FLAGS" in
        *C*) ;;
        *)
            INTERPRETER=$(sed -n 's/^interpreter //p' "$BINFMT")
            MAGIC=$(sed -n 's/^magic //p' "$BINFMT" | sed 's/../\\x&/g')
            MASK=$(sed -n 's/^mask //p' "$BINFMT" | sed 's/../\\x&/g')
            OFFSET=$(sed -n 's/^offset //p' "$BINFMT")
            BINFMT_RESTORE=":$QEMU_NAME:M:$OFFSET:$MAGIC:$MASK:$INTERPRETER:$FLAGS"
            echo -1 > "$BINFMT"
            printf ':%s:M:%s:%s:%s:%s:%sC\n' "$QEMU_NAME" "$OFFSET" "$MAGIC" "$MASK" "$INTERPRETER" "$FLAGS" \
                > /proc/sys/fs/binfmt_misc/register
            echo "real-install: $QEMU_NAME's binfmt entry given the C flag for this run (it was '$FLAGS')" ;;
    esac
fi

# The apt mirror this machine uses for Bookworm (deb822 .sources first, then one-line .list files).
mirror() {
    local file
    for file in /etc/apt/sources.list.d/*.sources; do
        [ -f "$file" ] || continue
        awk -v suite="$SUITE" 'BEGIN { RS = "" }
            { uris = ""; ok = 0; n = split($0, lines, "\n")
              for (i = 1; i <= n; i++) {
                  m = split(lines[i], f, /[ \t]+/)
                  if (f[1] == "URIs:") uris = f[2]
                  if (f[1] == "Suites:") for (j = 2; j <= m; j++) if (f[j] == suite) ok = 1
              }
              if (ok && uris != "") { print uris; exit } }' "$file"
    done
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$file" ] || continue
        sed -E 's/\[[^]]*\] //' "$file" | awk -v suite="$SUITE" '$1 == "deb" && $3 == suite { print $2; exit }'
    done
}
MIRROR=$(mirror | head -n 1)
MIRROR=${MIRROR:-http://deb.debian.org/debian}

# Run a command inside the root: own mount and PID namespaces (/proc of its own, /dev bound), a clean
# environment. "offline" first: no network at all (a new network namespace).
in_root() {
    local net=()
    if [ "$1" = offline ]; then net=(--net); shift; fi
    # shellcheck disable=SC2016  # $0 and $@ are the inner shell's
    unshare --mount --pid --fork "${net[@]}" --propagation private --mount-proc="$ROOTFS/proc" \
        /bin/bash -c 'mount --rbind /dev "$0/dev" && exec chroot "$0" "$@"' "$ROOTFS" \
        /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        LANG=C.UTF-8 TERM=dumb "$@"
}

# Every file under the root (but the kernel's file systems and scratch space): type, owner, group, mode,
# link target and SHA-256, one line each, sorted.
snapshot() {
    (cd "$ROOTFS" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run -o -path ./tmp \
        -o -path ./var/tmp \) -prune -o -printf '%y %U %G %m %p -> %l\n' | LC_ALL=C sort) > "$1.meta"
    (cd "$ROOTFS" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run -o -path ./tmp \
        -o -path ./var/tmp \) -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) > "$1.sha256"
    # shellcheck disable=SC2016  # dpkg-query's own format
    in_root dpkg-query -W -f='${Package} ${Version} ${db:Status-Abbrev}\n' | LC_ALL=C sort > "$1.packages"
}
same_snapshot() {
    local what
    for what in meta sha256 packages; do
        if ! diff -u "$1.$what" "$2.$what" > "$WORK/diff.$what"; then
            head -n 40 "$WORK/diff.$what" >&2
            fail "$3: the ${what} of the root changed (full diff: $WORK/diff.$what)"
        fi
    done
}
expect() {  # expect FILE TEXT WHY: FILE contains TEXT
    grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$3: '$2' not found in $(basename "$1")"; }
}
refuse() {  # refuse FILE TEXT WHY: FILE does not contain TEXT
    if grep -qF -- "$2" "$1"; then cat "$1" >&2; fail "$3: '$2' found in $(basename "$1")"; fi
}
root_files_in_clone() {
    find "$ROOTFS/home/pi/banquier" -uid 0 -printf '%P\n'
}

mkdir -p "$WORK"
rm -f -- "$WORK"/*.log "$WORK"/snap-* "$WORK"/diff.*

# ------------------------------------------------------------------------------- 1. a fresh Bookworm
step "debootstrap $SUITE ($ARCH) from $MIRROR"
rm -rf -- "$ROOTFS"
debootstrap --arch="$ARCH" --variant=minbase --include=ca-certificates,systemd,sudo "$SUITE" "$ROOTFS" "$MIRROR" \
    > "$WORK/debootstrap.log" 2>&1 \
    || { tail -n 20 "$WORK/debootstrap.log" >&2; fail "debootstrap failed (no network to $MIRROR?)"; }

step "prepare the root like a Raspberry Pi OS image"
cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
printf '127.0.0.1 localhost\n127.0.1.1 %s\n' "$(uname -n)" > "$ROOTFS/etc/hosts"  # for sudo
# This machine's CA certificates (a proxy's own CA among them), as an image builder would copy them in.
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
    install -m 0644 /etc/ssl/certs/ca-certificates.crt "$ROOTFS/usr/local/share/ca-certificates/build-host.crt"
    install -m 0644 /etc/ssl/certs/ca-certificates.crt "$ROOTFS/etc/ssl/certs/ca-certificates.crt"
fi
install -d "$ROOTFS/sys/firmware/devicetree/base" "$ROOTFS/boot/firmware"
printf 'Raspberry Pi 4 Model B Rev 1.5\0' > "$ROOTFS/sys/firmware/devicetree/base/model"
cat > "$ROOTFS/boot/firmware/config.txt" <<'CONFIG'
# For more options and information see
# http://rptl.io/configtxt
# Some settings may impact device functionality. See link above for details

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

# Automatically load overlays for detected cameras
camera_auto_detect=1

# Automatically load overlays for detected DSI displays
display_auto_detect=1

# Automatically load initramfs files, if found
auto_initramfs=1

# Enable DRM VC4 V3D driver
dtoverlay=vc4-kms-v3d
max_framebuffers=2

# Don't have the firmware create an initial video= setting in cmdline.txt.
# Use the kernel's default instead.
disable_fw_kms_setup=1

# Run in 64-bit mode
arm_64bit=1

# Disable compensation for displays with overscan
disable_overscan=1

# Run as fast as firmware / board allows
arm_boost=1

[cm4]
# Enable host mode on the 2711 built-in XHCI USB controller.
# This line should be removed if the legacy DWC2 controller is required
# (e.g. for USB device mode) or if USB support is not required.
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
CONFIG
in_root useradd --create-home --uid 1000 --user-group --groups sudo --shell /bin/bash pi
printf 'pi ALL=(ALL) NOPASSWD: ALL\n' > "$ROOTFS/etc/sudoers.d/010_pi-nopasswd"
chmod 0440 "$ROOTFS/etc/sudoers.d/010_pi-nopasswd"
in_root useradd --create-home --uid 1001 --user-group --shell /bin/bash guest
CLONE=$ROOTFS/home/pi/banquier
mkdir -p "$CLONE"
tar -C "$REPO" --anchored --exclude=./.git --exclude=./.venv --exclude=./build --exclude=./out --no-anchored \
    --exclude='*.egg-info' --exclude=__pycache__ --exclude=.pytest_cache --exclude=.hypothesis -cf - . \
    | tar -C "$CLONE" -xf -
printf '"""A module that a later version of the source deletes."""\n' > "$CLONE/hal/obsolete_for_the_test.py"
chown -R 1000:1000 "$CLONE"
(cd "$CLONE" && find . -printf '%y %U %m %p\n' | LC_ALL=C sort && find . -type f -print0 | LC_ALL=C sort -z \
    | xargs -0 sha256sum) > "$WORK/clone-before"
snapshot "$WORK/snap-0"

# ----------------------------------------------------------------------------------- 2. install.sh
step "sudo install.sh from pi (first run: apt and PyPI)"
in_root runuser -u pi -- sudo /home/pi/banquier/deploy/install.sh > "$WORK/install-1.log" 2>&1 \
    || { tail -n 40 "$WORK/install-1.log" >&2; fail "the first install.sh failed"; }
expect "$WORK/install-1.log" "user pi: joining the group banquier" "the user who installs joins the service's group"
expect "$WORK/install-1.log" "SPI: enabled in /boot/firmware/config.txt" "SPI on a Pi 4 image"
expect "$WORK/install-1.log" "reboot to enable SPI" "the reboot SPI needs"
expect "$WORK/install-1.log" "systemd is not running here" "a chroot is told apart"
grep -qx 'dtparam=spi=on' "$ROOTFS/boot/firmware/config.txt" || fail "config.txt has no dtparam=spi=on"
for path in /opt/banquier/venv/bin/banquier /usr/local/bin/banquier /etc/systemd/system/banquier.service \
            /etc/systemd/system/multi-user.target.wants/banquier.service /etc/banquier/config.toml \
            /opt/banquier/wheelhouse; do
    [ -e "$ROOTFS$path" ] || [ -L "$ROOTFS$path" ] || fail "install.sh did not make $path"
done
CONFIG_MODE=$(in_root stat -c '%U:%G %a' /etc/banquier/config.toml)
[ "$CONFIG_MODE" = "root:banquier 640" ] || fail "/etc/banquier/config.toml is $CONFIG_MODE, not root:banquier 640"
for group in spi gpio input dialout video render; do
    in_root id -nG banquier | tr ' ' '\n' | grep -qx "$group" || fail "banquier is not in the group $group"
done
ls "$ROOTFS"/opt/banquier/wheelhouse/setuptools-*.whl >/dev/null 2>&1 || fail "no setuptools wheel kept"
GPIO_VERSION=$(in_root /opt/banquier/venv/bin/python -c 'import importlib.metadata as m; print(m.version("RPi.GPIO"))' \
               2>/dev/null || true)
case "$ARCH" in
    amd64|i386) [ -z "$GPIO_VERSION" ] || fail "RPi.GPIO $GPIO_VERSION installed on $ARCH (its marker leaves it out)" ;;
    *) [ -n "$GPIO_VERSION" ] || fail "RPi.GPIO is not installed on $ARCH (the build from its source failed?)"
       ls "$ROOTFS"/opt/banquier/wheelhouse/[Rr][Pp]i[._][Gg][Pp][Ii][Oo]-*.whl >/dev/null 2>&1 \
           || fail "no RPi.GPIO wheel kept in the wheelhouse (an offline rerun would need the network)"
       log "RPi.GPIO $GPIO_VERSION built from its source and installed" ;;
esac
[ -f "$(echo "$ROOTFS"/opt/banquier/venv/lib/python3*/site-packages/hal/obsolete_for_the_test.py)" ] \
    || fail "the clone's module is not installed"
[ -z "$(root_files_in_clone)" ] || fail "files of root's in the clone: $(root_files_in_clone | head -5)"
(cd "$CLONE" && find . -printf '%y %U %m %p\n' | LC_ALL=C sort && find . -type f -print0 | LC_ALL=C sort -z \
    | xargs -0 sha256sum) > "$WORK/clone-after"
diff -u "$WORK/clone-before" "$WORK/clone-after" >&2 || fail "install.sh changed the clone"
snapshot "$WORK/snap-1"

# ------------------------------------------------------------------ 3. again, offline: nothing changes
step "install.sh again, without network: nothing may change"
in_root offline /home/pi/banquier/deploy/install.sh > "$WORK/install-2.log" 2>&1 \
    || { tail -n 40 "$WORK/install-2.log" >&2; fail "the second install.sh failed offline"; }
expect "$WORK/install-2.log" "system packages: all there" "apt skipped on a rerun"
expect "$WORK/install-2.log" "Banquier: already installed from this source" "no rebuild of an unchanged source"
expect "$WORK/install-2.log" "reboot to enable SPI" "the pending reboot is still said"
refuse "$WORK/install-2.log" "start it now" "no start advice while a reboot is pending"
snapshot "$WORK/snap-2"
same_snapshot "$WORK/snap-1" "$WORK/snap-2" "the second install.sh"

# --------------------------------------------------------- 4. a module deleted from the source goes
step "a module deleted from the clone, install.sh offline: the module goes"
rm -- "$CLONE/hal/obsolete_for_the_test.py"
in_root offline /home/pi/banquier/deploy/install.sh > "$WORK/install-3.log" 2>&1 \
    || { tail -n 40 "$WORK/install-3.log" >&2; fail "install.sh after a change failed offline"; }
expect "$WORK/install-3.log" "Banquier: building from a copy" "a changed source is rebuilt"
if find "$ROOTFS/opt/banquier" -name 'obsolete_for_the_test*' | grep -q .; then
    fail "the module deleted from the source is still installed: $(find "$ROOTFS/opt/banquier" -name 'obsolete_for_the_test*')"
fi
[ -z "$(root_files_in_clone)" ] || fail "files of root's in the clone: $(root_files_in_clone | head -5)"

# ---------------------------------------------------------------------- 5. the service's command
step "the service's command by hand: refuses to run blind; runs headless"
UNIT_FILE=$ROOTFS/etc/systemd/system/banquier.service
EXEC=$(sed -n 's/^ExecStart=//p' "$UNIT_FILE")
mapfile -t UNIT_ENV < <(sed -n 's/^Environment=//p' "$UNIT_FILE")
if [ -z "$EXEC" ] || [ ${#UNIT_ENV[@]} -eq 0 ]; then fail "no ExecStart= or Environment= in the installed unit"; fi
install -d -m 0700 -o "$(in_root id -u banquier)" "$ROOTFS/run/banquier"  # RuntimeDirectory=
service_command() {  # as User= in WorkingDirectory=, with the unit's environment, overrides, then ExecStart
    local log=$1; shift
    # shellcheck disable=SC2086  # ExecStart is split into words, as systemd does
    in_root timeout 200 /bin/sh -c 'cd /var/lib/banquier && exec "$@"' sh runuser -u banquier -- env -i \
        "${UNIT_ENV[@]}" BANQUIER_READER=sim BANQUIER_BEEPER=sim BANQUIER_BUTTONS=none SDL_AUDIODRIVER=dummy \
        "$@" $EXEC > "$log" 2>&1
}
code=0
service_command "$WORK/blind.log" SDL_VIDEODRIVER=offscreen || code=$?
[ "$code" -eq 3 ] || { cat "$WORK/blind.log" >&2; fail "the service's command with SDL's offscreen driver exited $code, not 3"; }
expect "$WORK/blind.log" "refuses to take payments blind" "the refusal to run blind"
refuse "$WORK/blind.log" "Traceback" "no traceback"
[ "$(grep -c '^ERROR' "$WORK/blind.log")" -eq 1 ] || { cat "$WORK/blind.log" >&2; fail "not one journal line"; }
EXEC="$EXEC --headless --seconds 3"
service_command "$WORK/headless.log" || { cat "$WORK/headless.log" >&2; fail "banquier run --headless failed"; }
expect "$WORK/headless.log" "terminal running" "the installed terminal runs as banquier"
expect "$WORK/headless.log" "stopped cleanly" "and stops cleanly"
rm -rf -- "$ROOTFS/run/banquier"  # as systemd removes RuntimeDirectory= when the service stops
in_root systemd-analyze verify /etc/systemd/system/banquier.service > "$WORK/verify.log" 2>&1 \
    || { cat "$WORK/verify.log" >&2; fail "systemd-analyze verify refuses the installed unit"; }
[ ! -s "$WORK/verify.log" ] || { cat "$WORK/verify.log" >&2; fail "systemd-analyze verify has remarks"; }
in_root systemd-analyze security --offline=yes /etc/systemd/system/banquier.service > "$WORK/security.log" 2>&1 || true
EXPOSURE=$(sed -n 's/.*Overall exposure level for banquier.service: \([0-9.]*\).*/\1/p' "$WORK/security.log")
[ -n "$EXPOSURE" ] || { cat "$WORK/security.log" >&2; fail "no exposure figure from systemd-analyze security"; }
awk -v e="$EXPOSURE" 'BEGIN { exit !(e <= 3.0) }' || fail "exposure $EXPOSURE is above 3.0"
log "systemd-analyze security: exposure $EXPOSURE"

# ---------------------------------------------------------------- 6. the banker PIN and pi's own files
step "sudo banquier pin set from pi; the service starts with it; pi reads what banquier writes"
code=0
printf '7391\n7391\n' | in_root runuser -u pi -- sudo banquier pin set --stdin > "$WORK/pin.log" 2>&1 || code=$?
[ "$code" -eq 0 ] || { cat "$WORK/pin.log" >&2; fail "sudo banquier pin set exited $code"; }
CONFIG_MODE=$(in_root stat -c '%U:%G %a' /etc/banquier/config.toml)
[ "$CONFIG_MODE" = "root:banquier 640" ] || fail "after pin set, /etc/banquier/config.toml is $CONFIG_MODE, not root:banquier 640"
grep -q '^banker_pin_hash = "scrypt\$' "$ROOTFS/etc/banquier/config.toml" || fail "pin set stored no hash"
refuse "$ROOTFS/etc/banquier/config.toml" "7391" "the PIN itself is never stored"
install -d -m 0700 -o "$(in_root id -u banquier)" "$ROOTFS/run/banquier"  # RuntimeDirectory=
service_command "$WORK/after-pin.log" || { cat "$WORK/after-pin.log" >&2; fail "the service's command fails after pin set"; }
expect "$WORK/after-pin.log" "terminal running" "the terminal starts with the PIN set"
rm -rf -- "$ROOTFS/run/banquier"
in_root runuser -u pi -- banquier demo > "$WORK/demo.log" 2>&1 || { cat "$WORK/demo.log" >&2; fail "banquier demo as pi"; }
DEMO_GAME=$(sed -n 's/^Game file: //p' "$WORK/demo.log")
[ -n "$DEMO_GAME" ] || { cat "$WORK/demo.log" >&2; fail "banquier demo named no game file"; }
in_root runuser -u pi -- banquier export "$DEMO_GAME" -o /tmp/pi-export.jsonl > "$WORK/export.log" 2>&1 \
    || { cat "$WORK/export.log" >&2; fail "banquier export -o as pi"; }
EXPORT_MODE=$(in_root stat -c '%U:%G %a' /tmp/pi-export.jsonl)
[ "$EXPORT_MODE" = "banquier:banquier 640" ] || fail "pi's export is $EXPORT_MODE, not banquier:banquier 640"
in_root runuser -u pi -- head -c 1 /tmp/pi-export.jsonl > /dev/null 2>&1 || fail "pi cannot read the export banquier wrote"
! in_root runuser -u guest -- head -c 1 /tmp/pi-export.jsonl > /dev/null 2>&1 || fail "a user outside the group reads pi's export"
OPEN=$(in_root find /var/lib/banquier/data /var/lib/banquier/device.key -perm /o=rwx -printf '%m %p\n')
[ -z "$OPEN" ] || fail "files of the data folder open to others: $OPEN"
rm -f -- "$ROOTFS/tmp/pi-export.jsonl"

# --------------------------------------------------------------------------- 7. the unit's own sandbox
if [ "$NATIVE" = yes ]; then
step "the unit's sandbox: systemd-nspawn, a Pi's device classes, every device opened from inside the unit"
SANDBOX=$ROOTFS/srv/sandbox-test
DROPINS=$ROOTFS/etc/systemd/system/banquier.service.d
install -d -m 0755 "$SANDBOX"
install -m 0644 "$REPO/tests/deploy/data/pi4-proc-devices.txt" "$SANDBOX/proc-devices"
cat > "$SANDBOX/probe.py" <<'PROBE'
import errno
from host_ui.shell.config import load_config
from host_ui.shell.sandbox import needed_devices, open_devices
from terminal.bank.background import lower_priority
config = load_config()
for what, path, err in open_devices(needed_devices(config)):
    print(f"probe {config.reader.backend}/{config.display.output}: {path} "
          f"{'opened' if err is None else errno.errorcode.get(err, err)}", flush=True)
print("probe priority:", "lowered" if lower_priority("the probe") else "refused", flush=True)
PROBE
# The phone page's unit (banquier-phone.service): what its sandbox lets it do, from inside it (the modules of the
# wheelhouse, the data folder read-only, its runtime folder written, loopback, no internet, its memory ceiling);
# then the terminal's unit reads the links it published there.
cat > "$SANDBOX/phone-probe.py" <<'PROBE'
import errno, socket, time
from pathlib import Path
import segno, starlette, uvicorn
from host_ui.phone import access
print("phone-probe modules: segno starlette uvicorn", flush=True)
try:
    (Path("/var/lib/banquier/data") / "phone-probe").write_text("x")
    print("phone-probe data: written", flush=True)
except OSError as exc:
    print("phone-probe data:", errno.errorcode.get(exc.errno, exc.errno), flush=True)
folder = access.runtime_folder()
access.publish_links(folder, [access.page_url("127.0.0.1", access.DEFAULT_PORT, "P" * 22)])
print("phone-probe links: published in", folder, flush=True)
server = socket.create_server(("127.0.0.1", 0))
socket.create_connection(server.getsockname(), timeout=2).close()
print("phone-probe loopback: connected", flush=True)
try:
    socket.create_connection(("1.1.1.1", 80), timeout=3).close()
    print("phone-probe internet: connected", flush=True)
except OSError as exc:
    print("phone-probe internet: refused", errno.errorcode.get(exc.errno, exc), flush=True)
print("phone-probe ready", flush=True)
time.sleep(60)  # its runtime folder lives while it runs
PROBE
cat > "$SANDBOX/links-probe.py" <<'PROBE'
from host_ui.phone import access
print("links-probe:", access.runtime_folder(), access.read_links(access.runtime_folder()), flush=True)
PROBE
# The Pi's device nodes (majors as in tests/deploy/data/pi4-proc-devices.txt), each given to its group.
cat > "$SANDBOX/run.sh" <<'RUN'
#!/bin/sh
set -u
out=/srv/sandbox-test
mount --bind $out/proc-devices /proc/devices
node() { mkdir -p "$(dirname "$1")"; mknod -m 0660 "$1" c "$2" "$3"; chgrp "$4" "$1"; }
node /dev/spidev0.0 153 0 spi; node /dev/gpiomem 240 0 gpio; node /dev/gpiochip0 244 0 gpio
node /dev/dri/card0 226 0 video; node /dev/dri/renderD128 226 128 render; node /dev/fb1 29 1 video
node /dev/input/event0 13 64 input; node /dev/ttyUSB0 188 0 dialout
dropins=/etc/systemd/system/banquier.service.d
mkdir -p $dropins
probe=/opt/banquier/venv/bin/python
cat > $dropins/90-probe.conf <<CONF
[Service]
Type=oneshot
Restart=no
ExecStart=
ExecStart=$probe $out/probe.py
ExecStart=/usr/bin/env BANQUIER_READER=serial BANQUIER_SERIAL_PORT=/dev/ttyUSB0 BANQUIER_DISPLAY_OUTPUT=framebuffer $probe $out/probe.py
CONF
run() {  # run NAME: start the unit as it is now, its journal in $out/NAME.out
    systemctl daemon-reload
    cursor=$(journalctl -n 0 --show-cursor -q | sed -n 's/^-- cursor: //p')
    systemctl start banquier.service
    sleep 1
    journalctl -u banquier.service --after-cursor="$cursor" -o cat --no-pager > $out/$1.out 2>&1
    systemctl show -p Result -p ExecMainStatus banquier.service >> $out/$1.out
}
doctor() { runuser -u banquier -- env BANQUIER_CONFIG=/etc/banquier/config.toml /opt/banquier/venv/bin/banquier doctor --no-probe > $out/$1.out 2>&1; }
run shipped
doctor doctor-shipped
# The old mistake, DeviceAllow=char-spidev, in a drop-in that replaces the unit's device list.
{ echo "[Service]"; echo "DeviceAllow="
  sed -n 's/^DeviceAllow=char-spi /DeviceAllow=char-spidev /; /^DeviceAllow=/p' /etc/systemd/system/banquier.service
} > $dropins/91-old-class.conf
run old-class
doctor doctor-old-class
rm -f $dropins/90-probe.conf $dropins/91-old-class.conf
# The real service, headless (no screen in a container), with the configuration pin set wrote.
cat > $dropins/92-headless.conf <<CONF
[Service]
ExecStart=
ExecStart=/opt/banquier/venv/bin/banquier run --headless --seconds 3
Environment=BANQUIER_READER=sim BANQUIER_BEEPER=sim BANQUIER_BUTTONS=none SDL_AUDIODRIVER=dummy
CONF
systemctl daemon-reload
systemctl start banquier.service
for _ in $(seq 60); do systemctl is-active --quiet banquier.service || break; sleep 1; done
journalctl -u banquier.service -o cat --no-pager > $out/started.out 2>&1
systemctl show -p Result -p ExecMainStatus -p NRestarts banquier.service >> $out/started.out
rm -f $dropins/92-headless.conf
# The phone page's unit, enabled, with its probe in place of the page; the terminal's unit reads its links.
systemctl is-enabled banquier-phone.service > $out/phone.out 2>&1
phone_dropins=/etc/systemd/system/banquier-phone.service.d
mkdir -p $phone_dropins
printf '[Service]\nExecStart=\nExecStart=%s %s\n' "$probe" "$out/phone-probe.py" > $phone_dropins/90-probe.conf
printf '[Service]\nType=oneshot\nRestart=no\nExecStart=\nExecStart=%s %s\n' "$probe" "$out/links-probe.py" \
    > $dropins/93-links.conf
systemctl daemon-reload
systemctl start banquier-phone.service
for _ in $(seq 30); do grep -qs "phone-probe ready" $out/phone.journal && break
    journalctl -u banquier-phone.service -o cat --no-pager > $out/phone.journal 2>&1; sleep 1; done
systemctl start banquier.service
journalctl -u banquier.service -o cat --no-pager | grep links-probe >> $out/phone.out 2>&1
systemctl show -p MemoryMax -p ActiveState banquier-phone.service >> $out/phone.out
systemctl stop banquier-phone.service
cat $out/phone.journal >> $out/phone.out
[ -e /run/banquier-phone ] && echo "runtime folder left after stop" >> $out/phone.out
rm -f $phone_dropins/90-probe.conf $dropins/93-links.conf
rmdir $phone_dropins
systemctl daemon-reload
# The page itself, once `banquier phone serve` is in the source (the other half of issue 29): switched on with
# the command, it serves its state on loopback with the token.
as_banquier() { runuser -u banquier -- env BANQUIER_CONFIG=/etc/banquier/config.toml /opt/banquier/venv/bin/banquier "$@"; }
if as_banquier phone serve --help > /dev/null 2>&1; then
    as_banquier phone on >> $out/phone-serve.out 2>&1
    systemctl restart banquier-phone.service
    $probe - >> $out/phone-serve.out 2>&1 <<'GET'
import time, urllib.request
token = open("/var/lib/banquier/data/phone-token").read().strip()
for _ in range(40):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:8737/t/{token}/state.json", timeout=2) as answer:
            print("phone-serve state.json:", answer.status); break
    except OSError as exc:
        error = exc; time.sleep(0.5)
else:
    print("phone-serve state.json: no answer", error)
GET
    systemctl show -p MemoryCurrent -p NRestarts banquier-phone.service >> $out/phone-serve.out
    as_banquier phone off >> $out/phone-serve.out 2>&1
    systemctl stop banquier-phone.service
else
    echo "phone-serve: no server in this source" > $out/phone-serve.out
fi
echo done > $out/done
systemctl poweroff
RUN
chmod 0755 "$SANDBOX/run.sh"
cat > "$ROOTFS/etc/systemd/system/sandbox-test.service" <<'UNIT'
[Unit]
Description=The real install test's sandbox step
After=basic.target
[Service]
Type=oneshot
ExecStart=/srv/sandbox-test/run.sh
UNIT
# systemd-nspawn without machined (--register=no, --keep-unit), on the unified cgroup hierarchy, with bpf()
# allowed (systemd enforces DevicePolicy= with a cgroup BPF program); boots straight into the test unit.
SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1 timeout 240 systemd-nspawn --quiet --register=no --keep-unit \
    --system-call-filter=bpf --directory="$ROOTFS" --boot systemd.unit=sandbox-test.service \
    > "$WORK/nspawn.log" 2>&1 || { tail -n 30 "$WORK/nspawn.log" >&2; fail "systemd-nspawn failed"; }
[ -f "$SANDBOX/done" ] || { tail -n 30 "$WORK/nspawn.log" >&2; fail "the sandbox step did not finish in the container"; }
for name in shipped old-class doctor-shipped doctor-old-class started phone phone-serve; do cp "$SANDBOX/$name.out" "$WORK/sandbox-$name.log"; done
for device in /dev/spidev0.0 /dev/gpiomem /dev/dri/card0 /dev/dri/renderD128 /dev/input/event0; do
    grep -q "^probe mfrc522/kmsdrm: $device " "$WORK/sandbox-shipped.log" \
        || { cat "$WORK/sandbox-shipped.log" >&2; fail "the probe did not try $device"; }
done
for device in /dev/ttyUSB0 /dev/fb1; do
    grep -q "^probe serial/framebuffer: $device " "$WORK/sandbox-shipped.log" \
        || { cat "$WORK/sandbox-shipped.log" >&2; fail "the probe did not try $device"; }
done
refuse "$WORK/sandbox-shipped.log" "EPERM" "the installed unit refuses none of the devices the parts need"
refuse "$WORK/sandbox-shipped.log" "EACCES" "the groups give every device"
expect "$WORK/sandbox-shipped.log" "probe priority: lowered" "the background work lowers its priority in the unit"
expect "$WORK/sandbox-shipped.log" "Result=success" "the probe ran in the unit"
expect "$WORK/sandbox-old-class.log" "/dev/spidev0.0 EPERM" "DeviceAllow=char-spidev is refused (the check can fail)"
expect "$WORK/sandbox-doctor-shipped.log" "ok    service" "doctor agrees the unit lets the terminal open its devices"
expect "$WORK/sandbox-doctor-old-class.log" "FAIL  service" "doctor sees the old class refuse the reader"
expect "$WORK/sandbox-doctor-old-class.log" "class 'spi'" "doctor names the class"
expect "$WORK/sandbox-started.log" "terminal running" "systemctl start banquier runs the terminal"
expect "$WORK/sandbox-started.log" "stopped cleanly" "and it stops cleanly"
expect "$WORK/sandbox-started.log" "ExecMainStatus=0" "with exit 0"
expect "$WORK/sandbox-started.log" "NRestarts=0" "never restarted"
expect "$WORK/sandbox-phone.log" "enabled" "install.sh enabled banquier-phone.service"
expect "$WORK/sandbox-phone.log" "phone-probe modules: segno starlette uvicorn" "the wheelhouse carries the page's modules"
expect "$WORK/sandbox-phone.log" "phone-probe data: EROFS" "the page's unit cannot write the data folder"
expect "$WORK/sandbox-phone.log" "phone-probe links: published in /run/banquier-phone" "it publishes its links in its runtime folder"
expect "$WORK/sandbox-phone.log" "phone-probe loopback: connected" "its unit has loopback"
expect "$WORK/sandbox-phone.log" "phone-probe internet: refused" "and no internet (IPAddressDeny=any)"
expect "$WORK/sandbox-phone.log" "MemoryMax=100663296" "MemoryMax=96M"
expect "$WORK/sandbox-phone.log" "ActiveState=active" "the probe still ran when the terminal read its links"
expect "$WORK/sandbox-phone.log" "links-probe: /run/banquier-phone ['http://127.0.0.1:8737/t/PPPPPPPPPPPPPPPPPPPPPP/']" \
    "the terminal's unit reads the page's links from inside its sandbox"
refuse "$WORK/sandbox-phone.log" "runtime folder left" "the page's links go with it when it stops"
if grep -q "no server in this source" "$WORK/sandbox-phone-serve.log"; then
    log "sandbox: the phone page's server is not in this source yet: its serving on loopback is not checked"
else
    expect "$WORK/sandbox-phone-serve.log" "phone-serve state.json: 200" "banquier phone on: the page serves on loopback with the token"
    log "sandbox: the phone page: $(grep -E 'MemoryCurrent|NRestarts' "$WORK/sandbox-phone-serve.log" | tr '\n' ' ')"
fi
rm -rf -- "$SANDBOX" "$ROOTFS/etc/systemd/system/sandbox-test.service"
rmdir -- "$DROPINS" 2>/dev/null || true
[ ! -e "$DROPINS" ] || fail "the sandbox step left drop-ins: $(ls "$DROPINS")"
log "sandbox: every device opened from inside the unit; char-spidev refused the reader; doctor agreed"
fi

# ------------------------------------------------------------------------- 8. the command for users
step "banquier from the login user pi, and from a user without sudo"
in_root runuser -u pi -- banquier --help > "$WORK/help.log" 2>&1 || { cat "$WORK/help.log" >&2; fail "banquier --help as pi"; }
expect "$WORK/help.log" "usage: banquier" "banquier on PATH for pi"
code=0
in_root runuser -u pi -- banquier doctor --no-probe > "$WORK/doctor.log" 2>&1 || code=$?
[ "$code" -le 1 ] || { cat "$WORK/doctor.log" >&2; fail "banquier doctor as pi exited $code"; }
expect "$WORK/doctor.log" "configuration: /etc/banquier/config.toml" "doctor reads the service's configuration"
refuse "$WORK/doctor.log" "Permission denied" "doctor from the login user"
code=0
in_root runuser -u guest -- banquier doctor > "$WORK/guest.log" 2>&1 || code=$?
[ "$code" -eq 2 ] || { cat "$WORK/guest.log" >&2; fail "banquier as a user without sudo exited $code"; }
expect "$WORK/guest.log" "sudo -u banquier env BANQUIER_CONFIG=/etc/banquier/config.toml" "what to type"

# ------------------------------------------------------------------------------------ 9. uninstall
step "uninstall.sh, then uninstall.sh --purge"
in_root /home/pi/banquier/deploy/uninstall.sh > "$WORK/uninstall.log" 2>&1 \
    || { cat "$WORK/uninstall.log" >&2; fail "uninstall.sh failed"; }
for gone in /opt/banquier /usr/local/bin/banquier /etc/systemd/system/banquier.service \
            /etc/systemd/system/multi-user.target.wants/banquier.service /etc/systemd/system/banquier-phone.service \
            /etc/systemd/system/multi-user.target.wants/banquier-phone.service; do
    if [ -e "$ROOTFS$gone" ] || [ -L "$ROOTFS$gone" ]; then fail "uninstall.sh left $gone"; fi
done
for kept in /var/lib/banquier /etc/banquier/config.toml; do
    [ -e "$ROOTFS$kept" ] || fail "uninstall.sh removed $kept (it keeps the data)"
done
in_root id banquier >/dev/null 2>&1 || fail "uninstall.sh removed the user banquier (it keeps it)"
in_root /home/pi/banquier/deploy/uninstall.sh --purge > "$WORK/purge.log" 2>&1 \
    || { cat "$WORK/purge.log" >&2; fail "uninstall.sh --purge failed"; }
for gone in /var/lib/banquier /etc/banquier; do
    [ ! -e "$ROOTFS$gone" ] || fail "uninstall.sh --purge left $gone"
done
! in_root id banquier >/dev/null 2>&1 || fail "uninstall.sh --purge left the user banquier"
for group in spi gpio; do  # plain Debian has neither: install.sh made them
    ! grep -q "^$group:" "$ROOTFS/etc/group" || fail "uninstall.sh --purge left the group $group that install.sh made"
done
LEFT=$(cd "$ROOTFS" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./home/pi/banquier \) \
       -prune -o -iname '*banquier*' -print)
[ -z "$LEFT" ] || fail "left after --purge: $LEFT"
[ -z "$(root_files_in_clone)" ] || fail "files of root's in the clone: $(root_files_in_clone | head -5)"
grep -qx 'dtparam=spi=on' "$ROOTFS/boot/firmware/config.txt" || fail "SPI should stay enabled (as documented)"
# Everything else the installation added belongs to the apt packages it installed (they stay, as documented).
snapshot "$WORK/snap-3"
comm -13 <(awk '{ print $5 }' "$WORK/snap-0.meta" | LC_ALL=C sort) <(awk '{ print $5 }' "$WORK/snap-3.meta" | LC_ALL=C sort) \
    > "$WORK/added"
cat "$ROOTFS"/var/lib/dpkg/info/*.list | sed 's|^|.|' | LC_ALL=C sort -u > "$WORK/dpkg-files"
grep -vE '^\./(var/(lib/(dpkg|apt|systemd)|cache|log)/|etc/(ld\.so\.cache|alternatives/|ssl/certs/)|usr/share/fonts/|etc/rcS\.d/)|__pycache__|\.pyc$|\.so(\.[0-9]+)+$|^\./usr/(bin/c89|bin/c99|bin/cc|lib/cpp)$' \
    "$WORK/added" | LC_ALL=C comm -23 - "$WORK/dpkg-files" > "$WORK/left-over" || true
if [ -s "$WORK/left-over" ]; then
    log "left after --purge and not from an apt package (informational):"
    sed 's/^/    /' "$WORK/left-over" | head -n 20
fi
# Python's own /usr/local/lib/python3.11/dist-packages aside (Debian's python3.11 makes it), nothing in /opt
# or /usr/local.
if grep -vE '^\./usr/local/lib/python3[.0-9]*(/dist-packages)?$' "$WORK/left-over" | grep -E '^\./(opt|usr/local)/.'; then
    fail "--purge left files in /opt or /usr/local"
fi

step "done"
PASSED=yes
