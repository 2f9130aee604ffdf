"""``./dev.sh``: what each command installs, and when.

- ``run`` installs Banquier and its dependencies only (wheels: no C compiler), ``test`` the test extra too
  (mfrc522's RPi.GPIO and spidev, and evdev, are built from source). A stamp per set in ``.venv`` remembers the
  ``pyproject.toml`` it was installed from: run then test, test then run and a changed ``pyproject.toml`` each
  install what is missing, once. The order matrix runs against a stand-in ``.venv`` whose ``python`` records
  the pip commands it is given (fast); the slow test makes a real ``.venv`` on a copy of the project, where no C
  compiler can work (``CC=/bin/false``, no gcc or cc on PATH, no pip cache), under ``env -i``.
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import OWN_LOGS, ROOT

#: What dev.sh itself calls, for a PATH that holds nothing else (no compiler).
TOOLS = ("bash", "sh", "dirname", "cat", "cksum", "rm", "touch", "tail", "mktemp", "env", "sed", "id", "uname",
         "grep", "ls")


def _bin_without_compiler(folder: Path, extra: dict[str, str] | None = None) -> Path:
    """A PATH folder with only :data:`TOOLS` (links to the real ones) and ``extra`` scripts (name -> body)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in TOOLS:
        found = shutil.which(name)
        if found:
            (folder / name).symlink_to(found)
    for name, body in (extra or {}).items():
        _script(folder / name, body)
    for compiler in ("gcc", "cc", "c++", "g++", "clang"):
        assert shutil.which(compiler, path=str(folder)) is None
    return folder


def _script(path: Path, body: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/bash\n" + body + "\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


# ------------------------------------------------------------------- the stamps, with a stand-in .venv
@pytest.fixture
def fake_project(tmp_path):
    """dev.sh and pyproject.toml in a folder whose ``.venv/bin/python`` only records what it is asked (and fails
    a pip install of the test extra while ``FAIL_TEST_EXTRA`` exists), with a PATH without a compiler and
    stand-ins for the deploy tools the test command checks for (so it never calls apt-get here)."""
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy2(ROOT / "dev.sh", project / "dev.sh")
    shutil.copy2(ROOT / "pyproject.toml", project / "pyproject.toml")
    calls = project / "calls.log"
    _script(project / ".venv" / "bin" / "python",
            f'echo "python $*" >> {calls}\n'
            f'if [ -e {project}/FAIL_TEST_EXTRA ] && [[ "$*" == *"[test]"* ]]; then\n'
            f'    echo "ERROR: no compiler"; exit 1\n'
            f'fi')
    _script(project / ".venv" / "bin" / "banquier", f'echo "banquier $*" >> {calls}')
    tools = _bin_without_compiler(tmp_path / "bin", dict.fromkeys(("shellcheck", "systemd-analyze", "msgfmt", "Xvfb",
                                                                   "chromium", "chromedriver"), "exit 0"))
    env = {"PATH": str(tools), "HOME": str(tmp_path / "home"), "PYTHON": sys.executable}

    def dev(*args: str, code: int = 0) -> tuple[list[str], str]:
        """Run ``./dev.sh ARGS``; return the pip installs it made (their packages) and its stderr."""
        before = calls.read_text(encoding="utf-8").splitlines() if calls.exists() else []
        done = subprocess.run(["./dev.sh", *args], cwd=project, env=env, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == code, done.stderr
        after = calls.read_text(encoding="utf-8").splitlines()[len(before):]
        installs = [line.split()[-1] for line in after if line.startswith("python -m pip install")]
        return installs, done.stderr

    dev.project = project  # type: ignore[attr-defined]
    return dev


def _change(project: Path) -> None:
    with (project / "pyproject.toml").open("a", encoding="utf-8") as f:
        f.write("# a changed dependency\n")


RUNTIME, TEST_EXTRA = ".", ".[test]"


@pytest.mark.parametrize(("steps", "expected"), [
    # run first, then test: the test extra once, then nothing more for either command
    (["run", "run", "test", "test", "run"], [RUNTIME, [], TEST_EXTRA, [], []]),
    # test first, then run: the test extra includes what run needs
    (["test", "run", "test"], [TEST_EXTRA, [], []]),
    # a changed pyproject.toml: each command installs its set again, once
    (["run", "test", "change", "run", "run", "test", "run"], [RUNTIME, TEST_EXTRA, RUNTIME, [], TEST_EXTRA, []]),
    (["test", "change", "test", "run"], [TEST_EXTRA, TEST_EXTRA, []]),
    (["test", "change", "run", "test"], [TEST_EXTRA, RUNTIME, TEST_EXTRA]),
], ids=["run-then-test", "test-then-run", "changed-after-both", "changed-then-test", "changed-then-run"])
def test_each_command_installs_what_it_needs_once_whatever_the_order(fake_project, steps, expected):
    made = []
    for step in steps:
        if step == "change":
            _change(fake_project.project)
            continue
        installs, _ = fake_project(step, *(["--no-tools", "tests/cards"] if step == "test" else ["--help"]))
        made.append([i for i in installs if i != "pip"])
    flat = [m[0] if len(m) == 1 else m for m in made]
    assert flat == expected
    assert not (fake_project.project / ".venv" / ".banquier-installed").exists()


def test_the_first_install_says_what_it_does_and_pip_is_upgraded_once(fake_project):
    installs, err = fake_project("run", "--help")
    assert installs == ["pip", "."], installs  # `pip install ... --upgrade pip`, then `-e .`
    lines = err.splitlines()
    assert lines[0].startswith("dev.sh: upgrading pip"), err  # .venv exists here: no "first run" line
    assert any("what `run` needs: no C compiler" in line for line in lines), err
    assert lines[-1].startswith("dev.sh: .venv is ready"), err
    installs, err = fake_project("test", "--no-tools", "tests/cards")
    assert installs == [".[test]"] and "upgrading pip" not in err
    _, err = fake_project("run", "--help")
    assert "dev.sh:" not in err  # nothing to do: silent, straight to the command
    _, err = fake_project("test", "--no-tools", "tests/cards")
    assert "dev.sh:" not in err, err  # installed, and every system tool there: straight to pytest


def test_a_failed_test_extra_says_why_leaves_run_working_and_is_tried_again(fake_project):
    fake_project("run", "--help")
    (fake_project.project / "FAIL_TEST_EXTRA").touch()
    installs, err = fake_project("test", "--no-tools", "tests/cards", code=1)
    assert installs == [".[test]"]
    assert "ERROR: no compiler" in err  # pip's own last lines
    assert "installing the test extra failed (pip exit 1)" in err and "C compiler" in err
    installs, err = fake_project("run", "--help")
    assert installs == [] and "dev.sh:" not in err
    (fake_project.project / "FAIL_TEST_EXTRA").unlink()
    installs, _ = fake_project("test", "--no-tools", "tests/cards")
    assert installs == [".[test]"]


def test_a_venv_of_an_earlier_dev_sh_is_brought_up_to_date_once(fake_project):
    old = fake_project.project / ".venv" / ".banquier-installed"
    old.touch()
    installs, _ = fake_project("test", "--no-tools", "tests/cards")
    assert installs == ["pip", ".[test]"]
    assert not old.exists()


# ------------------------------------------------------------------- for real, without a C compiler
def _copy_of_the_project(target: Path) -> Path:
    """The project's files as a fresh clone has them (git's list when there is one; never .venv)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True) if shutil.which("git") else None
    if listed is not None and listed.returncode == 0:
        for name in listed.stdout.decode().split("\0"):
            if name and (ROOT / name).is_file():
                (target / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / name, target / name)
    else:
        shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns(".venv", ".git", "build", "out", "*cache*"))
    return target


def _network_env() -> dict[str, str]:
    """What a user's shell may need to reach the package index (proxies, certificates, an index mirror)."""
    names = {"http_proxy", "https_proxy", "no_proxy", "all_proxy", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_CERT",
             "PIP_TRUSTED_HOST", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE"}
    return {k: v for k, v in os.environ.items() if k in names or k.lower() in names}


@pytest.mark.slow  # a real .venv from the package index: about 15 s
def test_run_on_a_fresh_copy_installs_and_starts_the_simulator_without_a_c_compiler(tmp_path):
    project = _copy_of_the_project(tmp_path / "clone")
    home = tmp_path / "home"
    env = {**_network_env(), "PATH": str(_bin_without_compiler(tmp_path / "bin")), "HOME": str(home),
           "CC": "/bin/false", "CXX": "/bin/false", "PIP_NO_CACHE_DIR": "1",
           "PYTHON": getattr(sys, "_base_executable", sys.executable)}
    log = OWN_LOGS / "us-end-classic.jsonl"
    done = subprocess.run(["./dev.sh", "run", "sim", "--headless", "--demo", str(log), "--speed", "inf"],
                          cwd=project, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stderr.splitlines()
    # the first line comes before anything slow, and says what is going on
    assert lines[0].startswith("dev.sh: first run: making .venv"), done.stderr
    assert any(line.startswith("dev.sh: .venv is ready") for line in lines), done.stderr
    for noise in ("BuildBackendWarning", "!!", "****", "Deprecat", "WARNING", "ALSA", "Traceback"):
        assert noise not in done.stderr, done.stderr
    assert "banquier sim: game file" in done.stdout and "demo-us-end-classic" in done.stdout, done.stdout
    venv_python = project / ".venv" / "bin" / "python"
    modules = ("pygame", "sqlite_utils", "serial", "babel", "evdev", "RPi", "spidev", "mfrc522", "pytest",
               "hypothesis", "mypy")
    probe = f"import importlib.util as u; print(' '.join(n for n in {modules!r} if u.find_spec(n)))"
    present = subprocess.run([str(venv_python), "-c", probe], env=env, capture_output=True, text=True,
                             check=True).stdout.split()
    assert present == ["pygame", "sqlite_utils", "serial", "babel"]
    assert (project / ".venv" / ".banquier-run").is_file()
    assert not (project / ".venv" / ".banquier-test").exists()
    again = subprocess.run(["./dev.sh", "run", "--help"], cwd=project, env=env, capture_output=True, text=True,
                           timeout=60)
    assert again.returncode == 0 and "usage: banquier" in again.stdout
    assert again.stderr == ""  # installed: straight to the command



@pytest.mark.parametrize("option", ["--help", "-h"])
def test_bench_help_says_what_it_runs_and_runs_nothing(fake_project, option):
    project = fake_project.project
    done = subprocess.run(["./dev.sh", "bench", option], cwd=project, capture_output=True, text=True, timeout=60,
                          env={"PATH": os.environ["PATH"], "HOME": str(project)})
    assert done.returncode == 0, done.stderr
    assert "usage: ./dev.sh bench" in done.stdout and ".venv/bin/python bench/bench_ledger.py" in done.stdout
    assert not (project / "calls.log").exists()  # no install, no script run


def test_bench_refuses_an_unknown_option_in_one_line(fake_project):
    project = fake_project.project
    done = subprocess.run(["./dev.sh", "bench", "--fast"], cwd=project, capture_output=True, text=True, timeout=60,
                          env={"PATH": os.environ["PATH"], "HOME": str(project)})
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "'--fast'" in done.stderr
    assert "--help" in done.stderr and not (project / "calls.log").exists()


@pytest.mark.parametrize("option", ["--help", "-h", "help"])
def test_dev_sh_help_prints_what_each_command_does_and_installs_nothing(fake_project, option):
    project = fake_project.project
    done = subprocess.run(["./dev.sh", option], cwd=project, capture_output=True, text=True, timeout=60,
                          env={"PATH": os.environ["PATH"], "HOME": str(project)})
    assert done.returncode == 0, done.stderr
    for command in ("./dev.sh run", "./dev.sh test", "./dev.sh bench", "./dev.sh i18n", "./dev.sh mutants"):
        assert command in done.stdout
    assert "set -euo" not in done.stdout and not done.stdout.startswith("#")
    assert not (project / "calls.log").exists()


def test_an_unknown_command_names_the_help_in_one_line(fake_project):
    project = fake_project.project
    done = subprocess.run(["./dev.sh", "tset"], cwd=project, capture_output=True, text=True, timeout=60,
                          env={"PATH": os.environ["PATH"], "HOME": str(project)})
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "./dev.sh --help" in done.stderr
    assert not (project / "calls.log").exists()


@pytest.mark.parametrize("args, expected", [(["i18n", "--help"], "usage: ./dev.sh i18n"),
                                            (["mutants", "--help"], "usage: ./dev.sh mutants")])
def test_a_commands_help_installs_nothing(fake_project, args, expected):
    project = fake_project.project
    shutil.copytree(ROOT / "tools", project / "tools")
    done = subprocess.run(["./dev.sh", *args], cwd=project, capture_output=True, text=True, timeout=60,
                          env={"PATH": os.environ["PATH"], "HOME": str(project), "PYTHON": sys.executable})
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout
    assert not (project / "calls.log").exists()
