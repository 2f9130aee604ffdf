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
cmd=${1:-run}
shift || true
case "$cmd" in
    run)   exec .venv/bin/banquier "$@" ;;
    test)  exec .venv/bin/python -m pytest "$@" ;;
    bench) for b in bench/*.py; do echo "== $b"; .venv/bin/python "$b"; done ;;
    *)     echo "usage: ./dev.sh run|test|bench [ARGS...]" >&2; exit 2 ;;
esac
