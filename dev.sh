#!/usr/bin/env bash
# Banquier's one-stop developer script: it creates .venv on first use, installs Banquier into it
# (with the test tools), then does what you ask.
#   ./dev.sh run [ARGS...]   start Banquier (on a PC: the simulator; see README)
#   ./dev.sh test [ARGS...]  run the whole test suite (ARGS go to pytest)
#   ./dev.sh bench           run the benchmark scripts and print their figures
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Banquier needs Python 3.11 or newer; found: $("$PY" --version 2>&1)." >&2
    exit 2
fi
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
stamp=.venv/.banquier-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e '.[test]'
    touch "$stamp"
fi
# The deploy scripts are checked with shellcheck and systemd-analyze (Debian packages), never skipped.
system_test_tools() {
    local missing=()
    command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
    command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo=(sudo); else
            echo "dev.sh: the deploy tests need ${missing[*]}: run 'sudo apt-get install -y ${missing[*]}'." >&2
            return 0
        fi
    fi
    if command -v apt-get >/dev/null 2>&1; then
        echo "dev.sh: installing ${missing[*]} for the deploy tests" >&2
        "${sudo[@]}" apt-get update -qq >/dev/null || true
        DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" \
            >/dev/null || echo "dev.sh: could not install ${missing[*]}; the deploy tests will say so." >&2
    else
        echo "dev.sh: the deploy tests need ${missing[*]} (no apt-get here: install them by hand)." >&2
    fi
}

cmd=${1:-run}
shift || true
case "$cmd" in
    run)   exec .venv/bin/banquier "$@" ;;
    test)  system_test_tools; exec .venv/bin/python -m pytest "$@" ;;
    bench) for b in bench/*.py; do echo "== $b"; .venv/bin/python "$b"; done ;;
    *)     echo "usage: ./dev.sh run|test|bench [ARGS...]" >&2; exit 2 ;;
esac
