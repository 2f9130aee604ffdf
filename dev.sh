#!/usr/bin/env bash
# Banquier's one-stop developer script: it creates .venv on first use, installs into it what the command
# needs, then does what you ask.
#   ./dev.sh run [ARGS...]   start Banquier (on a PC: the simulator; see README). Installs Banquier and its
#                            dependencies only: wheels for Linux, macOS and Windows, no C compiler needed.
#   ./dev.sh test [--quick] [--no-tools] [ARGS...]
#                            the toolchain (lint-imports, ruff check, mypy), then the whole test suite (what CI
#                            runs); --quick: only the tests not marked slow (under a minute); --no-tools: pytest
#                            only. ARGS go to pytest (after --quick's -m "not slow": a later -m replaces it).
#                            Every tool and pytest run; the command fails if any of them failed, with pytest's
#                            exit code when it failed (5: no test collected). Installs the test extra too:
#                            mfrc522's RPi.GPIO and spidev, and evdev, are built from source (a C compiler
#                            and the Python headers: Debian's gcc and python3-dev).
#   ./dev.sh bench           run every benchmark script (one that fails is named, the others still run) and
#                            print all their figures as one table (long: about 40 minutes); --help: what it
#                            runs and how to run one script
#   ./dev.sh i18n [update|check|add LANG]
#                            the screen's text catalogs (README, "Translating Banquier"): update (the default)
#                            extracts the message ids with pybabel, updates every .po and compiles the .mo;
#                            check runs msgfmt --check --statistics on each (0 untranslated, 0 fuzzy, as the
#                            test command does); add LANG starts the catalog of a new language.
#   ./dev.sh mutants [FILE ...] [--all] [--max-children N] [--fresh | --survivors] [--report] [--print]
#                            mutation testing of the Bank (tests/README.md, "Mutation testing"): mutmut (the
#                            `mutants` extra, pinned) mutates terminal/bank/tx.py, rules.py and ultimate.py (or
#                            the FILEs named: a path, a module or a short name such as `engine`; --all: the whole
#                            money core of pyproject.toml's [tool.mutmut]) and runs the fast tests of
#                            tests/terminal on each mutant; then tools/mutants.py counts the logic, refusal
#                            code/params and message mutants killed and lists the survivors. Long: about an hour
#                            for the default set on 2 cores (run it with nice, in the background); results stay
#                            in mutants/ (--fresh: start again; --survivors: test only the survivors again,
#                            after adding tests; --report: only count them).
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Banquier needs Python 3.11 or newer; found: $("$PY" --version 2>&1)." >&2
    exit 2
fi

# What is installed in .venv, for which pyproject.toml: a stamp per set, holding the checksum of the
# pyproject.toml it was installed from. `run` needs .venv/.banquier-run (Banquier and its dependencies), `test`
# needs .venv/.banquier-test (the test extra as well, which includes everything `run` needs): run then test,
# test then run, and a changed pyproject.toml each install what is missing, once.
project_sum() { cksum < pyproject.toml; }
stamp_fresh() { [ -f ".venv/.banquier-$1" ] && [ "$(cat ".venv/.banquier-$1")" = "$(project_sum)" ]; }

# pip, quietly: what it prints goes to .venv/pip.log (the build backend's notices too), and is shown when it
# fails.
pip_install() {
    local what=$1 code=0
    shift
    .venv/bin/python -m pip install --progress-bar off "$@" >> .venv/pip.log 2>&1 || code=$?
    if [ "$code" -ne 0 ]; then
        tail -n 25 .venv/pip.log >&2
        echo "dev.sh: installing $what failed (pip exit $code): its last lines are above, all of them in" \
             ".venv/pip.log" >&2
        return "$code"
    fi
}

# install_for run|test: make .venv and install what the command needs, unless its stamp is fresh.
install_for() {
    local want=$1 started=$SECONDS
    stamp_fresh test && return 0
    [ "$want" = run ] && stamp_fresh run && return 0
    if [ ! -x .venv/bin/python ]; then
        echo "dev.sh: first run: making .venv with $("$PY" --version 2>&1) and installing what \`$want\` needs" \
             "(a minute or two, once)" >&2
        "$PY" -m venv .venv
    fi
    : > .venv/pip.log
    if [ ! -f .venv/.banquier-pip ]; then
        echo "dev.sh: upgrading pip in .venv" >&2
        pip_install pip --upgrade pip
        touch .venv/.banquier-pip
    fi
    if [ "$want" = run ]; then
        echo "dev.sh: installing Banquier and its dependencies into .venv (what \`run\` needs: no C compiler)" >&2
        pip_install Banquier -e .
    else
        echo "dev.sh: installing Banquier with its test extra into .venv (pytest, the toolchain, and mfrc522's" \
             "RPi.GPIO and spidev and evdev, built from source)" >&2
        pip_install "the test extra" -e '.[test]' || {
            echo "dev.sh: the test extra builds RPi.GPIO, spidev and evdev from source: it needs a C compiler and" \
                 "the Python headers (Debian/Ubuntu: sudo apt-get install gcc python3-dev)" >&2
            return 1
        }
        project_sum > .venv/.banquier-test
    fi
    project_sum > .venv/.banquier-run
    rm -f .venv/.banquier-installed  # the single stamp of earlier versions
    echo "dev.sh: .venv is ready ($((SECONDS - started)) s)" >&2
}
# The deploy scripts are checked with shellcheck and systemd-analyze (Debian packages), never skipped; the
# simulator's window is tested under Xvfb.
system_test_tools() {
    local missing=()
    command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
    command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
    command -v msgfmt >/dev/null 2>&1 || missing+=(gettext)  # msgfmt checks the text catalogs
    command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)       # the simulator's window tests
    command -v chromium >/dev/null 2>&1 || missing+=(chromium)               # the phone page's browser tests
    command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)    # (selenium drives Debian's own)
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo=(sudo); else
            echo "dev.sh: the tests need ${missing[*]}: run 'sudo apt-get install -y ${missing[*]}'." >&2
            return 0
        fi
    fi
    if command -v apt-get >/dev/null 2>&1; then
        echo "dev.sh: installing ${missing[*]} for the tests" >&2
        "${sudo[@]}" apt-get update -qq >/dev/null || true
        DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" \
            >/dev/null || echo "dev.sh: could not install ${missing[*]}; the tests that need them will say so." >&2
    else
        echo "dev.sh: the tests need ${missing[*]} (no apt-get here: install them by hand)." >&2
    fi
}

# The screen's text catalogs (terminal/table/locale/<lang>/LC_MESSAGES/banquier.po, README "Translating Banquier").
LOCALE=terminal/table/locale
POT=$LOCALE/banquier.pot
# pybabel's options, the same for every update so the files only change when the texts do.
BABEL_WIDTH=(--width 100)

# msgfmt --check --statistics on every catalog: a format error, an untranslated or a fuzzy message fails.
i18n_check() {
    if ! command -v msgfmt >/dev/null 2>&1; then
        echo "dev.sh: msgfmt is missing: it checks the text catalogs; install GNU gettext" \
             "('sudo apt-get install gettext' on Debian/Ubuntu, 'brew install gettext' on macOS)" >&2
        return 1
    fi
    local po out code=0
    for po in "$LOCALE"/*/LC_MESSAGES/banquier.po; do
        if ! out=$(LC_ALL=C msgfmt --check --statistics -o /dev/null "$po" 2>&1); then
            echo "$out" >&2
            echo "dev.sh: $po does not compile (see msgfmt above)" >&2
            code=1
            continue
        fi
        echo "$po: ${out##*$'\n'}"
        case "$out" in
            *untranslated*|*fuzzy*) echo "dev.sh: $po has untranslated or fuzzy messages: translate them" >&2
                                    code=1 ;;
        esac
    done
    return "$code"
}

# Extract the message ids, update every catalog from them, compile the catalogs. The template is only
# rewritten when its messages changed (not for a new date alone).
i18n_update() {
    local fresh
    fresh=$(mktemp "${TMPDIR:-/tmp}/banquier-pot.XXXXXX")
    .venv/bin/pybabel -q extract -F babel.cfg -o "$fresh" --no-location --sort-output "${BABEL_WIDTH[@]}" \
        --project Banquier --version "$(sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)" \
        --copyright-holder "The Banquier developers" --msgid-bugs-address "The Banquier developers" .
    if [ -f "$POT" ] && diff -q <(grep -v '^"POT-Creation-Date:' "$fresh") <(grep -v '^"POT-Creation-Date:' "$POT") \
            >/dev/null; then
        rm -f "$fresh"
    else
        mv "$fresh" "$POT"
        echo "dev.sh: $POT updated"
    fi
    .venv/bin/pybabel -q update -i "$POT" -d "$LOCALE" -D banquier "${BABEL_WIDTH[@]}" --ignore-obsolete \
        --ignore-pot-creation-date --no-fuzzy-matching
    .venv/bin/pybabel -q compile -d "$LOCALE" -D banquier
    echo "dev.sh: catalogs updated and compiled; new messages are empty in each .po: translate them, then" \
         "./dev.sh i18n check" >&2
}

run_i18n() {
    local what=${1:-update}
    case "$what" in
        update) i18n_update ;;
        check)  # msgfmt on each catalog, then the catalogs' own tests (placeholders, plural forms, every id)
                i18n_check && .venv/bin/python -m pytest -q -p no:cacheprovider tests/i18n ;;
        add)    [ -n "${2:-}" ] || { echo "usage: ./dev.sh i18n add LANG (e.g. de)" >&2; return 2; }
                .venv/bin/pybabel -q init -i "$POT" -d "$LOCALE" -D banquier -l "$2" "${BABEL_WIDTH[@]}"
                echo "dev.sh: $LOCALE/$2/LC_MESSAGES/banquier.po started: add \"$2\" to LANGUAGES in" \
                     "cards/editions.py, translate, then ./dev.sh i18n" >&2 ;;
        *)      echo "usage: ./dev.sh i18n [update|check|add LANG]" >&2; return 2 ;;
    esac
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
        echo "== msgfmt --check --statistics" >&2
        i18n_check || { echo "dev.sh: the text catalogs failed the check (see above)" >&2; failed_tools+=(msgfmt); }
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

bench_usage() {
    cat <<'USAGE'
usage: ./dev.sh bench [-h|--help]

Runs every benchmark script, bench/bench_*.py (the Bank's ledger, the audit, the terminal, the screens, the
simulator's UI, the HAL, the device), one after the other in .venv (installing the test extra first), and prints
all their figures as one table (bench/report.py). A script that fails is named and the others still run; the
command then exits 1. The whole run is long (about 40 minutes on 2 cores).

To run one script only (its own figures), once .venv exists (any ./dev.sh test makes it):
    .venv/bin/python bench/bench_ledger.py
USAGE
}

cmd=${1:-run}
shift || true
case "$cmd" in
    run)   install_for run; exec .venv/bin/banquier "$@" ;;
    test)  install_for test; run_tests "$@" ;;
    bench) case "${1:-}" in
               "") ;;
               -h|--help) bench_usage; exit 0 ;;
               *) echo "dev.sh: bench takes no option or argument (not '$1'); see ./dev.sh bench --help" >&2
                  exit 2 ;;
           esac
           install_for test
           # every script runs (one that fails is named and the others go on); the table ends the run
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
    i18n)  case "${1:-}" in  # a usage needs nothing installed
               -h|--help) echo "usage: ./dev.sh i18n [update|check|add LANG]"; exit 0 ;;
           esac
           install_for test; run_i18n "$@" ;;
    mutants) case " $* " in  # a usage needs nothing installed: tools/mutants.py's own, by this Python
               *" -h "*|*" --help "*) exec "$PY" tools/mutants.py --help ;;
           esac
           install_for test
           if ! { [ -f .venv/.banquier-mutants ] && [ "$(cat .venv/.banquier-mutants)" = "$(project_sum)" ]; }; then
               echo "dev.sh: installing the mutants extra (mutmut) into .venv" >&2
               pip_install "the mutants extra" -e '.[test,mutants]'
               project_sum > .venv/.banquier-mutants
           fi
           exec .venv/bin/python tools/mutants.py "$@" ;;
    -h|--help|help)  # the header of this file: what each command does
           sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *)     echo "usage: ./dev.sh run|test|bench|i18n|mutants [ARGS...] (./dev.sh --help: what each does)" >&2
           exit 2 ;;
esac
