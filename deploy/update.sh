#!/usr/bin/env bash
# Upgrade an installed Table Companion, keeping the old version running until the new one
# works.
#
#   sudo deploy/update.sh              git pull, then build, check and switch
#   sudo deploy/update.sh --no-pull    the checkout as it is (already pulled, or a branch)
#   deploy/update.sh --dry-run         print the steps and commands; change nothing
#
# 1. The checkout is pulled (fast-forward only, as the checkout's owner, never root).
# 2. The games are backed up with the running version (`companion backup`).
# 3. The new version is built in a venv of its own beside the running one
#    (/opt/companion/venv-<time>), with install.sh's own steps and checks: the locked
#    packages, the app, `companion --help` and the imports as the service user; then
#    `companion doctor` runs on it, and it checks the config (kept as it is, like the games
#    in /var/lib/companion and their backups).
# 4. Only then /opt/companion/venv (a link from now on) is pointed at it and the service
#    restarted. If the service does not come up, or does not answer on its port, the link goes
#    back to the old version and the service is restarted on it.
# Until step 4 nothing the running service uses has changed: a failed upgrade (no network, a
# lock that does not install, a check that fails) leaves the old version running.
set -euo pipefail
umask 022

UPDATE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The layout, the output helpers and the install steps (sourcing runs none of them).
# shellcheck disable=SC1091  # (install.sh is checked on its own)
source "$UPDATE_DIR/install.sh"

LIVE=$PREFIX/venv   # the path the unit runs; after the first update, a link (tests: a folder)
PULL=1
NEW=
OLD=
OLD_KIND=   # "link": LIVE pointed at OLD; "dir": LIVE was the old venv itself, moved to OLD
SWITCHED=0
DONE=0

update_usage() {
    cat <<EOF
Usage: sudo $0 [--dry-run] [--no-pull] [--repo DIR]

  --dry-run   print the steps and commands for this machine without doing them
  --no-pull   do not git pull: install the checkout as it is
  --repo DIR  the Table Companion checkout (default: $REPO_DIR)
EOF
}

pull() {
    step "New code: git pull in $REPO_DIR"
    if ((!PULL)); then
        say "    --no-pull: the checkout as it is"
        return 0
    fi
    if [[ ! -d $REPO_DIR/.git ]]; then
        say "    $REPO_DIR is not a git checkout: installing it as it is"
        return 0
    fi
    local owner
    owner=$(stat -c %U "$REPO_DIR")
    # As the checkout's owner: root must not leave root-owned files in someone's checkout.
    run runuser -u "$owner" -- git -C "$REPO_DIR" pull --ff-only
}

backup_games() {
    step "Back up the games (the running version)"
    if ((DRY_RUN)); then
        run as_app "$LIVE/bin/companion" backup
        return 0
    fi
    if [[ ! -e $DATA_DIR/companion.sqlite3 ]]; then
        say "    no games yet: nothing to back up"
        return 0
    fi
    if [[ -x $LIVE/bin/companion ]] && as_app "$LIVE/bin/companion" backup --help >/dev/null 2>&1
    then
        as_app "$LIVE/bin/companion" backup || die "the backup failed: not upgrading"
    else
        say "    the running version has no backup command: the new one will make one"
    fi
}

check_new() {
    step "Check the new version $NEW"
    verify "companion doctor runs on the new version" as_app "$NEW/bin/companion" doctor
    if ((!DRY_RUN)) && [[ -e $DATA_DIR/companion.sqlite3 ]]; then
        as_app "$NEW/bin/companion" backup >/dev/null || die "the new version cannot back up the games"
        say "    ok: the new version backs the games up"
    fi
}

# Point LIVE at NEW. A LIVE that is still a directory (installed before update.sh) is moved
# aside whole, and moved back on a rollback (a venv works only at the path it was built at).
switch_venv() {
    local live=$1 new=$2
    if [[ -L $live ]]; then
        OLD=$(readlink "$live")
        OLD_KIND="link"
    elif [[ -d $live ]]; then
        OLD=$live-before-$(date +%Y%m%d-%H%M%S)
        OLD_KIND="dir"
        run mv -T -- "$live" "$OLD"
    fi
    SWITCHED=1
    # (a new link renamed over the old one: the unit never sees no venv at all)
    run ln -sfn -- "$new" "$live.next"
    run mv -T -- "$live.next" "$live"
}

# Put the old version back where it was.
rollback_venv() {
    local live=$1
    if [[ $OLD_KIND == link ]]; then
        run ln -sfn -- "$OLD" "$live.next"
        run mv -T -- "$live.next" "$live"
    elif [[ $OLD_KIND == dir ]]; then
        run rm -f -- "$live"
        run mv -T -- "$OLD" "$live"
    fi
    SWITCHED=0
}

on_exit() {
    local status=$?
    if ((SWITCHED && !DONE && !DRY_RUN)); then
        printf '\nThe new version did not start: back to the old one.\n' >&2
        rollback_venv "$LIVE"
        if has_systemd; then systemctl restart "$UNIT" || true; fi
        printf 'The old version runs again; the new one is left in %s to look at.\n' "$NEW" >&2
    fi
    cleanup
    exit "$status"
}

switch() {
    step "Switch $LIVE to the new version"
    switch_venv "$LIVE" "$NEW"
    verify "$LIVE is the new version" test "$(readlink "$LIVE")" = "$NEW"
}

forget_old() {
    step "Remove the old version"
    if [[ -n $OLD && -e $OLD && $OLD == "$PREFIX"/venv* && $OLD != "$NEW" ]]; then
        run rm -rf -- "$OLD"
    fi
    local d
    for d in "$PREFIX"/venv-*; do   # (versions left by failed updates)
        if [[ -e $d && $d != "$NEW" ]]; then run rm -rf -- "$d"; fi
    done
}

update_main() {
    # shellcheck disable=SC2034  # (install.sh's preflight names them)
    ORIG_ARGS=("$@")
    while (($#)); do
        case $1 in
            --dry-run) DRY_RUN=1 ;;
            --no-pull) PULL=0 ;;
            --repo)
                (($# >= 2)) || die "--repo needs a directory"
                REPO_DIR=$(cd "$2" && pwd) || die "no such directory: $2"
                shift ;;
            -h | --help) update_usage; return 0 ;;
            *) update_usage >&2; die "unknown option: $1" ;;
        esac
        shift
    done
    preflight
    if [[ ! -e $LIVE ]]; then
        if ((DRY_RUN)); then warn "not installed here: the first install is sudo deploy/install.sh"
        else die "not installed yet: run sudo deploy/install.sh first"; fi
    fi
    trap on_exit EXIT
    NEW=$PREFIX/venv-$(date +%Y%m%d-%H%M%S)
    pull
    backup_games
    install_packages
    VENV=$NEW   # install.sh's steps now build and check the new version
    install_venv
    install_app
    install_config
    check_new
    install_hostname
    switch
    # shellcheck disable=SC2034  # (install.sh's steps read it)
    VENV=$LIVE
    install_service
    final_check
    DONE=1
    forget_old
    summary
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
    update_main "$@"
fi
