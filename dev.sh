#!/usr/bin/env bash
# Banquier's one-stop developer script: it creates .venv on first use, installs Banquier into it
# (with the test tools), then does what you ask.
#   ./dev.sh run [ARGS...]   start Banquier (on a PC: the simulator; see README)
#   ./dev.sh test [--quick] [--no-tools] [ARGS...]
#                            the toolchain (lint-imports, ruff check, mypy), then the whole test suite (what CI
#                            runs); --quick: only the tests not marked slow (under a minute); --no-tools: pytest
#                            only. ARGS go to pytest (after --quick's -m "not slow": a later -m replaces it).
#                            Every tool and pytest run; the command fails if any of them failed, with pytest's
#                            exit code when it failed (5: no test collected).
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

# One tool of the checked toolchain (configured in pyproject.toml): `tool NAME COMMAND...`. A failure is named
# and remembered in failed_tools; the next tool runs all the same.
failed_tools=()
tool() {
    local name=$1 code=0
    shift
    if [ ! -x "$1" ]; then
        echo "dev.sh: $name is not installed in .venv (it comes with the test extras: .venv/bin/python -m pip" \
             "install -e '.[test]')" >&2
        failed_tools+=("$name")
        return 0
    fi
    echo "== $name" >&2
    "$@" || code=$?
    if [ "$code" -ne 0 ]; then
        echo "dev.sh: $name failed (exit $code): see its report above" >&2
        failed_tools+=("$name")
    fi
}

run_tests() {
    local quick=0 tools=1 code=0 arg
    local rest=()
    for arg in "$@"; do  # --quick and --no-tools anywhere; everything else goes to pytest
        case "$arg" in
            --quick)    quick=1 ;;
            --no-tools) tools=0 ;;
            *)          rest+=("$arg") ;;
        esac
    done
    set -- ${rest[@]+"${rest[@]}"}
    system_test_tools
    if [ "$tools" -eq 1 ]; then
        tool lint-imports .venv/bin/lint-imports
        tool "ruff check" .venv/bin/ruff check --output-format concise .
        tool mypy .venv/bin/mypy
    fi
    local select=()
    [ "$quick" -eq 0 ] || select=(-m "not slow")
    echo "== pytest$([ "$quick" -eq 0 ] || echo ' -m "not slow"')${*:+ $*}" >&2
    .venv/bin/python -m pytest ${select[@]+"${select[@]}"} "$@" || code=$?
    if [ "${#failed_tools[@]}" -gt 0 ]; then
        echo "dev.sh: FAILED: $(printf '%s, ' "${failed_tools[@]}")pytest exited $code" >&2
        [ "$code" -ne 0 ] || code=1
    elif [ "$code" -eq 5 ]; then
        echo "dev.sh: pytest collected no test (exit 5): check the paths and the -m/-k selection" >&2
    elif [ "$code" -ne 0 ]; then
        echo "dev.sh: pytest failed (exit $code)" >&2
    fi
    return "$code"
}

cmd=${1:-run}
shift || true
case "$cmd" in
    run)   exec .venv/bin/banquier "$@" ;;
    test)  run_tests "$@" ;;
    bench) # every script runs (one that fails is named and the others go on); the table ends the run
           rows=$(mktemp "${TMPDIR:-/tmp}/banquier-bench.XXXXXX")
           trap 'rm -f "$rows"' EXIT
           failed_bench=()
           for b in bench/bench_*.py; do
               echo "== $b"
               BANQUIER_BENCH_ROWS=$rows .venv/bin/python "$b" || { echo "dev.sh: $b failed (exit $?)" >&2
                                                                    failed_bench+=("$b"); }
           done
           echo; echo "== all figures"; .venv/bin/python bench/report.py "$rows"
           if [ "${#failed_bench[@]}" -gt 0 ]; then
               echo "dev.sh: FAILED: ${failed_bench[*]}" >&2; exit 1
           fi ;;
    *)     echo "usage: ./dev.sh run|test|bench [ARGS...]" >&2; exit 2 ;;
esac
