#!/usr/bin/env bash
# Install Table Companion as a systemd service on Raspberry Pi OS Bookworm or Debian 12.
#
#   sudo deploy/install.sh               install, or upgrade in place: safe to run again
#   deploy/install.sh --dry-run          print what would be done here; change nothing
#   sudo deploy/install.sh --uninstall   remove the service and the venv; keep config and data
#
# To upgrade from git with a way back, use deploy/update.sh (it builds the new venv beside this
# one and switches only once it works).
#
# Layout: the app in /opt/companion/venv, the wiring in /etc/companion/companion.toml (written
# once, never overwritten), the games in /var/lib/companion (the unit's StateDirectory), run as
# the system user "companion".
#
# Every step ends with a check of its own result and stops the install with the reason when the
# check fails, so a re-run starts from a known point (the motionEye / Phoniebox lesson).
#
# For tests only: COMPANION_INSTALL_MODEL stands in for /proc/device-tree/model, so the
# Raspberry Pi branch can be dry-run anywhere.
set -euo pipefail
# Whatever umask sudo brought along, the service user must be able to read the app and config.
umask 022

readonly APP_USER=companion
readonly APP_GROUPS=(gpio video audio)   # pins, camera (+ dma_heap), sound: where they exist
readonly PREFIX=/opt/companion
# (not readonly: deploy/update.sh builds the next version's venv beside it, in $PREFIX/venv-*,
# and points $PREFIX/venv at it)
VENV=$PREFIX/venv
readonly CONF_DIR=/etc/companion
readonly CONF=$CONF_DIR/companion.toml
readonly DATA_DIR=/var/lib/companion
readonly UNIT=companion.service
readonly UNIT_PATH=/etc/systemd/system/$UNIT
# `sudo companion doctor|backup|backups|restore|hotspot`: the venv's command run with the
# service's user, config and data folder (deploy/companion).
readonly CLI=/usr/local/bin/companion
# Debian's own python3, by path: apt's Python packages live in its dist-packages, and a pyenv
# or /usr/local python3 found first on root's PATH would not see them (and may sit in /root,
# out of the service user's reach).
readonly PYTHON=/usr/bin/python3
readonly APT_PACKAGES=(python3 python3-venv espeak-ng alsa-utils)
# Only a Pi has these (Raspberry Pi's own apt repository): apt's picamera2 is built against
# apt's numpy and libcamera, which is why the venv sees system site-packages. avahi-daemon
# (Debian's) publishes <hostname>.local: the phones open http://companion.local:8000.
readonly PI_APT_PACKAGES=(python3-picamera2 python3-lgpio avahi-daemon)

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(dirname "$SCRIPT_DIR")
DRY_RUN=0
ACTION=install
STEP=0
BUILD_DIR=

usage() {
    cat <<EOF
Usage: sudo $0 [--dry-run] [--uninstall] [--repo DIR]

  --dry-run     print the steps and commands for this machine without doing them
  --uninstall   stop and remove the service and $VENV; keep $CONF_DIR, $DATA_DIR
                and the user $APP_USER
  --repo DIR    the Table Companion checkout to install (default: $REPO_DIR)
EOF
}

# ---- output and the dry-run switch --------------------------------------------------------

say() { printf '%s\n' "$*"; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }
step() { STEP=$((STEP + 1)); printf '\n==> [%d] %s\n' "$STEP" "$*"; }

quote() { local q; printf -v q '%q ' "$@"; printf '%s' "${q% }"; }

# run CMD...: print and do it; in a dry run, only print it.
run() {
    if ((DRY_RUN)); then
        printf '    would run: %s\n' "$(quote "$@")"
        return 0
    fi
    printf '    + %s\n' "$(quote "$@")"
    "$@"
}

# verify WHAT CMD...: the check that ends a step. Its output is shown only when it fails,
# and a failure stops the install.
verify() {
    local what=$1 out
    shift
    if ((DRY_RUN)); then
        printf '    would check: %s\n' "$what"
        return 0
    fi
    if out=$("$@" 2>&1); then
        printf '    ok: %s\n' "$what"
    else
        [[ -n $out ]] && printf '%s\n' "$out" >&2
        die "check failed: $what"
    fi
}

cleanup() { if [[ -n $BUILD_DIR && -d $BUILD_DIR ]]; then rm -rf -- "$BUILD_DIR"; fi; }
trap cleanup EXIT

# ---- facts about this machine (read-only, so a dry run can use them too) -----------------

pi_model() {
    if [[ -n ${COMPANION_INSTALL_MODEL:-} ]]; then
        printf '%s' "$COMPANION_INSTALL_MODEL"
    else
        tr -d '\0' 2>/dev/null </proc/device-tree/model || true
    fi
}
is_pi() { [[ $(pi_model) == *"Raspberry Pi"* ]]; }
has_systemd() { [[ -d /run/systemd/system ]]; }   # PID 1 is systemd (not a container/chroot)
group_exists() { getent group "$1" >/dev/null; }
user_exists() { id -u "$APP_USER" >/dev/null 2>&1; }
in_group() { id -nG "$APP_USER" | tr ' ' '\n' | grep -qx "$1"; }
pkg_installed() { [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]; }
apt_knows() { apt-cache show "$1" >/dev/null 2>&1; }
python_ok() { "$PYTHON" -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 11))'; }
# The venv is usable when it is built on Debian's python (base prefix /usr), sees the system
# site-packages, and still runs (a python3 upgrade can leave it dangling).
venv_ok() {
    [[ -x $VENV/bin/python ]] &&
        grep -Eqi '^include-system-site-packages *= *true' "$VENV/pyvenv.cfg" &&
        "$VENV/bin/python" -c 'import sys; sys.exit(sys.base_prefix != "/usr")' 2>/dev/null
}
# Run as the service user from /, as systemd would (the checkout may be unreadable to it).
as_app() { (cd / && runuser -u "$APP_USER" -- env COMPANION_DATA_DIR="$DATA_DIR" \
    COMPANION_CONFIG="$CONF" "$@"); }

# ---- install steps ------------------------------------------------------------------------

install_packages() {
    step "System packages"
    local wanted=("${APT_PACKAGES[@]}") missing=() p
    if is_pi; then
        say "    Raspberry Pi: $(pi_model)"
        wanted+=("${PI_APT_PACKAGES[@]}")
    else
        say "    not a Raspberry Pi: ${PI_APT_PACKAGES[*]} skipped (camera falls back to opencv/replay)"
    fi
    say "    packages: ${wanted[*]}"
    for p in "${wanted[@]}"; do pkg_installed "$p" || missing+=("$p"); done
    if ((${#missing[@]} == 0)); then
        say "    all installed"
    else
        # A fresh Pi runs unattended-upgrades at first boot: wait for its dpkg lock.
        run apt-get -o DPkg::Lock::Timeout=300 update
        if ((!DRY_RUN)); then
            local available=()
            for p in "${missing[@]}"; do
                if [[ " ${PI_APT_PACKAGES[*]} " == *" $p "* ]] && ! apt_knows "$p"; then
                    warn "$p is not in this machine's apt sources; skipped"
                else
                    available+=("$p")
                fi
            done
            missing=("${available[@]}")
        fi
        # --no-install-recommends: picamera2 recommends Qt and OpenGL for a desktop preview.
        if ((${#missing[@]})); then
            run env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install \
                -y --no-install-recommends "${missing[@]}"
        fi
    fi
    for p in "${APT_PACKAGES[@]}"; do verify "$p installed" pkg_installed "$p"; done
    verify "$PYTHON is 3.11 or newer, with venv and ensurepip" python_ok
}

install_user() {
    step "Service user $APP_USER and data directory $DATA_DIR"
    if user_exists; then
        say "    user $APP_USER already exists"
    else
        local group_opt=(--user-group)
        group_exists "$APP_USER" && group_opt=(--gid "$APP_USER")
        run useradd --system "${group_opt[@]}" --home-dir "$DATA_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Table Companion" "$APP_USER"
    fi
    local g
    for g in "${APP_GROUPS[@]}"; do
        if ! group_exists "$g"; then
            say "    no group $g on this machine: skipped"
        elif user_exists && in_group "$g"; then
            say "    already in group $g"
        else
            run usermod -aG "$g" "$APP_USER"
        fi
    done
    # systemd also creates it (StateDirectory=); made here too so `companion doctor` can run
    # before the first start and on machines without systemd.
    run install -d -o "$APP_USER" -g "$APP_USER" -m 0750 "$DATA_DIR"
    verify "user $APP_USER exists" user_exists
    for g in "${APP_GROUPS[@]}"; do
        if group_exists "$g"; then verify "$APP_USER is in group $g" in_group "$g"; fi
    done
    verify "$DATA_DIR is writable by $APP_USER" as_app test -w "$DATA_DIR"
}

install_venv() {
    step "Python environment $VENV"
    if venv_ok; then
        say "    reusing $VENV"
    else
        # Recreated rather than repaired: the venv holds nothing but installed packages.
        if [[ -e $VENV ]]; then run rm -rf -- "$VENV"; fi
        run install -d -m 0755 "$PREFIX"
        # --system-site-packages: apt's picamera2, libcamera and lgpio cannot come from PyPI.
        run "$PYTHON" -m venv --system-site-packages "$VENV"
    fi
    verify "$VENV is on $PYTHON and sees system site-packages" venv_ok
}

# Copy the checkout without VCS data, local venvs and build output: pip builds in the source
# tree, and a root-owned build/ left in the user's checkout would break their next pip install.
copy_source() {
    tar -C "$1" --exclude=.git --exclude='.venv*' --exclude=venv --exclude=build \
        --exclude='*.egg-info' --exclude=__pycache__ --exclude=node_modules \
        --exclude=.pytest_cache --exclude=.hypothesis --exclude=.ruff_cache -cf - . |
        tar -C "$2" -xf -
}

# The locked versions (requirements/, made by tools/deps), checked by hash, nothing resolved:
# what CI tested. A Pi takes the Pi's line, whose numpy is apt's (1.24.2): picamera2 and
# simplejpeg from apt are built against it, and a numpy 2 from PyPI would shadow it in the venv
# and break them; with it comes OpenCV 4.11.
lock_file() {
    if is_pi; then echo requirements/pi-run.txt; else echo requirements/run.txt; fi
}

install_app() {
    step "Application from $REPO_DIR"
    if ((DRY_RUN)); then
        BUILD_DIR=/tmp/companion-build.XXXXXX
    else
        BUILD_DIR=$(mktemp -d -t companion-build.XXXXXX)
    fi
    run copy_source "$REPO_DIR" "$BUILD_DIR"
    local lock
    lock=$(lock_file)
    run env PIP_DISABLE_PIP_VERSION_CHECK=1 "$VENV/bin/python" -m pip install --require-hashes \
        --no-deps -r "$BUILD_DIR/requirements/pip.txt"
    run env PIP_DISABLE_PIP_VERSION_CHECK=1 "$VENV/bin/python" -m pip install --require-hashes \
        --no-deps -r "$BUILD_DIR/$lock"
    # --upgrade reinstalls the app itself every time (new code on a re-run); its dependencies
    # are the lock's, installed above.
    run env PIP_DISABLE_PIP_VERSION_CHECK=1 "$VENV/bin/python" -m pip install --upgrade \
        --no-deps --no-build-isolation "$BUILD_DIR"
    # As the service user: the app must be readable and runnable by it, not just by root.
    verify "the companion command runs as $APP_USER" as_app "$VENV/bin/companion" --help
    verify "companion and its web app import" as_app "$VENV/bin/python" -c 'import companion.serve, web'
    run install -m 0755 "$SCRIPT_DIR/companion" "$CLI"
    verify "$CLI is current" cmp -s "$SCRIPT_DIR/companion" "$CLI"
    if is_pi && ((!DRY_RUN)) && pkg_installed python3-picamera2; then
        # A warning, not a stop: without the camera the table still keeps scores.
        if "$VENV/bin/python" -c 'import picamera2' >/dev/null 2>&1; then
            say "    ok: picamera2 is importable in the venv"
        else
            warn "picamera2 is installed by apt but does not import in $VENV"
        fi
    fi
}

# The config must load as the service loads it: companion.config's own checks (TOML syntax,
# each key's type, the choices of speech, camera and language), so a file the service would
# refuse is refused here with the same one-line message. An unknown key is only warned about,
# since a key dropped by a newer version must not block its upgrade.
check_config() {
    "$VENV/bin/python" - "$CONF" <<'EOF'
import sys
import tomllib
from dataclasses import fields
from pathlib import Path

from companion.config import SECTIONS, Config, ConfigError, load_config

path = Path(sys.argv[1])
try:
    load_config(path=path, env={})
except ConfigError as exc:
    sys.exit(str(exc))
with path.open("rb") as fh:
    data = tomllib.load(fh)
known = {f.name for f in fields(Config)}
sections = set(SECTIONS)  # those load_config reads
unknown = []
for key, value in data.items():
    if isinstance(value, dict):
        if key not in sections:
            unknown.append(f"[{key}]")
        else:
            unknown += [f"{key}.{k}" for k in value if k not in known]
    elif key not in known:
        unknown.append(key)
if unknown:
    print(f"WARNING: {path}: ignored, not settings: {', '.join(unknown)}", file=sys.stderr)
EOF
}

install_config() {
    step "Configuration $CONF"
    run install -d -m 0755 "$CONF_DIR"
    # The example is refreshed on every install, so `diff` shows keys added by an upgrade.
    run install -m 0644 "$SCRIPT_DIR/companion.example.toml" "$CONF_DIR/companion.example.toml"
    if [[ -e $CONF ]]; then
        say "    keeping the existing $CONF (the table's wiring)"
    else
        run install -m 0644 "$SCRIPT_DIR/companion.example.toml" "$CONF"
    fi
    # Not verify(): its warnings about unknown keys must be shown even when it passes.
    if ((DRY_RUN)); then
        say "    would check: $CONF parses and loads"
    elif check_config; then
        say "    ok: $CONF parses and loads"
    else
        die "$CONF is not valid: fix it and run again"
    fi
}

install_service() {
    step "systemd service $UNIT"
    run install -m 0644 "$SCRIPT_DIR/companion.service" "$UNIT_PATH"
    verify "$UNIT_PATH is current" cmp -s "$SCRIPT_DIR/companion.service" "$UNIT_PATH"
    if has_systemd; then
        run systemctl daemon-reload
        run systemctl enable "$UNIT"
        # restart, not start: a re-run must load the new code and config.
        run systemctl restart "$UNIT"
        verify "$UNIT is enabled" systemctl is-enabled --quiet "$UNIT"
        verify "$UNIT is running" wait_active
    else
        say "    systemd is not running here (a container or chroot?): not starting the service."
        if command -v systemctl >/dev/null; then
            # Enabling only makes the boot-time symlink, which works without a running systemd:
            # an image built in a chroot starts the service on first boot.
            run systemctl enable "$UNIT"
        fi
        say "    To try it by hand: sudo -u $APP_USER COMPANION_DATA_DIR=$DATA_DIR $VENV/bin/companion serve"
    fi
}

wait_active() {
    for _ in $(seq 1 20); do
        systemctl is-active --quiet "$UNIT" && return 0
        sleep 1
    done
    systemctl status --no-pager --lines=30 "$UNIT" || true
    return 1
}

# The address to probe: the config as the service sees it, including COMPANION_* variables set
# in a drop-in (systemctl edit companion).
local_url() {
    local unit_env
    unit_env=$(systemctl show --property=Environment --value "$UNIT" 2>/dev/null || true)
    "$VENV/bin/python" - "$CONF" "$unit_env" <<'EOF'
import sys
from pathlib import Path

from companion.config import load_config

env = dict(item.split("=", 1) for item in sys.argv[2].split() if "=" in item)
cfg = load_config(path=Path(sys.argv[1]), env=env)
host = cfg.bind_host
print(f"http://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else host}:{cfg.port}/")
EOF
}

http_ok() {
    if command -v curl >/dev/null; then
        curl -fsS -o /dev/null --max-time 5 "$1"
    else
        "$VENV/bin/python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=5)' "$1"
    fi
}

# Importing OpenCV and opening the camera takes a while on a small Pi: give it a minute.
wait_http() {
    for _ in $(seq 1 60); do
        http_ok "$1" >/dev/null 2>&1 && return 0
        sleep 1
    done
    journalctl -u "$UNIT" --no-pager -n 30 || true
    http_ok "$1"
}

final_check() {
    step "Final check: companion doctor and the web app"
    # doctor as the service user, so it sees the devices with the service's permissions.
    if ((DRY_RUN)); then
        run as_app "$VENV/bin/companion" doctor
    else
        as_app "$VENV/bin/companion" doctor || die "companion doctor failed"
    fi
    if has_systemd; then
        if ((DRY_RUN)); then
            verify "the web app answers on this machine (port from $CONF)" true
        else
            local url
            url=$(local_url)
            verify "the web app answers at $url" wait_http "$url"
        fi
    else
        say "    no service running here, so no HTTP check"
    fi
}

# The name the config gives the machine ([network] hostname, as the service reads it);
# empty: keep the machine's own.
config_hostname() {
    "$VENV/bin/python" -c 'import sys; from pathlib import Path
from companion.config import load_config
print(load_config(path=Path(sys.argv[1]), env={}).hostname)' "$CONF"
}

# Name the machine: /etc/hostname, the 127.0.1.1 line of /etc/hosts (sudo resolves its own
# name there) and, with systemd running, the live name; avahi then publishes NAME.local.
set_hostname() {
    local name=$1
    printf '%s\n' "$name" >/etc/hostname
    if grep -q '^127\.0\.1\.1[[:space:]]' /etc/hosts; then
        sed -i "s/^127\.0\.1\.1[[:space:]].*/127.0.1.1\t$name/" /etc/hosts
    else
        printf '127.0.1.1\t%s\n' "$name" >>/etc/hosts
    fi
    if has_systemd; then hostnamectl set-hostname "$name"; fi
}

install_hostname() {
    step "Network name"
    if ! is_pi; then
        say "    not a Raspberry Pi: this machine keeps its name ($(hostname))"
        return 0
    fi
    if ((DRY_RUN)); then
        say "    would name this Pi after hostname in $CONF ([network]; empty: keep $(hostname))"
        run set_hostname NAME
        return 0
    fi
    local want
    want=$(config_hostname) || die "cannot read hostname from $CONF"
    if [[ -z $want ]]; then
        say "    hostname is empty in $CONF: this Pi keeps its name $(hostname)"
    elif [[ $want == "$(cat /etc/hostname 2>/dev/null)" ]]; then
        say "    already named $want"
    else
        run set_hostname "$want"
        # avahi publishes the name it read at its start
        if has_systemd && systemctl is-active --quiet avahi-daemon; then
            run systemctl restart avahi-daemon
        fi
    fi
    [[ -z $want ]] || verify "this Pi is named $want" grep -qx "$want" /etc/hostname
    if has_systemd && pkg_installed avahi-daemon; then
        run systemctl enable --now avahi-daemon
        verify "avahi-daemon publishes this Pi's .local name" systemctl is-active --quiet avahi-daemon
    fi
}

# The address the phones open, as the service works it out (and its QR code carries):
# the .local name avahi publishes, else the LAN address.
phones_url() {
    as_app "$VENV/bin/python" -c 'from companion.config import load_config
from companion.serve import public_url
print(public_url(load_config()))'
}

summary() {
    ((DRY_RUN)) && { say ""; say "Dry run: nothing was changed."; return 0; }
    local url addr port
    url=$(phones_url 2>/dev/null) || url=
    port=${url##*:}
    addr=$(hostname -I 2>/dev/null | awk '{print $1}')
    say ""
    say "Table Companion is installed."
    if [[ -n $url ]]; then
        say "  Phones:  $url/"
        if [[ -n $addr && $url != *"$addr"* && $port =~ ^[0-9]+$ ]]; then
            say "           (or http://$addr:$port/ for a phone that cannot open .local names)"
        fi
    fi
    say "  Wiring:  $CONF   then: sudo systemctl restart $APP_USER"
    say "  Logs:    journalctl -u $APP_USER -f"
    say "  Check:   sudo companion doctor"
    say "  Backups: sudo companion backups   (restore one: sudo companion restore FILE)"
}

# ---- uninstall ----------------------------------------------------------------------------

uninstall() {
    step "Stop and remove the service"
    if [[ -e $UNIT_PATH ]]; then
        if has_systemd; then
            run systemctl disable --now "$UNIT"
        elif command -v systemctl >/dev/null; then
            run systemctl disable "$UNIT"
        fi
        run rm -f -- "$UNIT_PATH"
        if has_systemd; then
            run systemctl daemon-reload
            run systemctl reset-failed "$UNIT" 2>/dev/null || true
        fi
    else
        say "    $UNIT_PATH is already gone"
    fi
    verify "$UNIT_PATH removed" test ! -e "$UNIT_PATH"

    step "Remove the application $VENV"
    if [[ -e $VENV || -L $VENV ]]; then run rm -rf -- "${VENV:?}"; else say "    $VENV is already gone"; fi
    local kept
    for kept in "$PREFIX"/venv-*; do   # (deploy/update.sh's versions)
        if [[ -e $kept ]]; then run rm -rf -- "$kept"; fi
    done
    if [[ -e $CLI ]]; then run rm -f -- "$CLI"; fi
    if [[ -d $PREFIX ]]; then run rmdir --ignore-fail-on-non-empty -- "$PREFIX"; fi
    verify "$VENV removed" test ! -e "$VENV"

    say ""
    say "Kept: $CONF_DIR (wiring), $DATA_DIR (games and scores), the user $APP_USER"
    say "      and any drop-in in $UNIT_PATH.d. To remove those too:"
    say "  sudo rm -rf $CONF_DIR $DATA_DIR $UNIT_PATH.d && sudo userdel $APP_USER"
    ((DRY_RUN)) && say "Dry run: nothing was changed."
    return 0
}

# ---- main ---------------------------------------------------------------------------------

preflight() {
    [[ -f $REPO_DIR/pyproject.toml ]] || die "$REPO_DIR is not a Table Companion checkout (no pyproject.toml)"
    [[ -f $SCRIPT_DIR/companion.service && -f $SCRIPT_DIR/companion.example.toml &&
        -f $SCRIPT_DIR/companion ]] ||
        die "deploy files missing next to $0"
    if ((DRY_RUN)); then
        say "Dry run: the steps and commands for this machine; nothing is changed."
    elif ((EUID != 0)); then
        die "run as root: sudo $0 ${ORIG_ARGS[*]}"
    fi
    if [[ $ACTION == install ]]; then
        if ! command -v apt-get >/dev/null; then
            local why="apt-get not found: this installer is for Raspberry Pi OS / Debian"
            if ((DRY_RUN)); then warn "$why"; else die "$why"; fi
        fi
        local id="" codename=""
        # shellcheck disable=SC1091
        [[ -r /etc/os-release ]] && { . /etc/os-release; id=${ID:-}; codename=${VERSION_CODENAME:-}; }
        [[ $codename == bookworm ]] ||
            warn "written for Debian 12 / Raspberry Pi OS Bookworm; this is ${id:-?} ${codename:-?}"
    fi
}

main() {
    ORIG_ARGS=("$@")
    while (($#)); do
        case $1 in
            --dry-run) DRY_RUN=1 ;;
            --uninstall) ACTION=uninstall ;;
            --repo)
                (($# >= 2)) || die "--repo needs a directory"
                REPO_DIR=$(cd "$2" && pwd) || die "no such directory: $2"
                shift ;;
            -h | --help) usage; return 0 ;;
            *) usage >&2; die "unknown option: $1" ;;
        esac
        shift
    done
    preflight
    if [[ $ACTION == uninstall ]]; then
        uninstall
        return 0
    fi
    install_packages
    install_user
    install_venv
    install_app
    install_config
    install_hostname
    install_service
    final_check
    summary
}

# Sourcing the file (tests) defines the functions without running anything.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    main "$@"
fi
