"""End to end: ``banquier sim --headless --demo LOG`` plays every table log of the test suite (the recorded games
included) through the simulator's reader and the state machine; the game file it leaves must hold the same
state as a direct replay of the log through the API.

Every log goes through the command in this process (``host_ui.cli.main``, the function ``python -m host_ui``
calls, with the same arguments), at infinite speed (no pause between inputs); a sample goes through a real
subprocess of ``python -m host_ui`` at the speed the docs show, so the interpreter's start, ``__main__``, the
environment and the exit code are tested too. (Starting one interpreter per log used to cost about a second
each, most of the suite's time, for what the in-process run already checks.)"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from host_ui import cli
from terminal.bank.game import Game
from tests.cli_env import clean_env
from tests.conftest import OWN_LOGS, RECORDED, ROOT

LOGS = sorted(OWN_LOGS.glob("*.jsonl")) + sorted(RECORDED.glob("*.jsonl"))
#: Through a subprocess: a short scenario (in the quick run) and one recorded game of each edition.
SUBPROCESS_SAMPLE = {"us-end-classic.jsonl": [], "game-fr-random-3p-101.jsonl": [pytest.mark.slow],
                     "game-us-random-4p-100.jsonl": [pytest.mark.slow]}


def _marks(log):
    return [pytest.mark.slow] if log.name.startswith("long-") else []


def _key_file(tmp_path, key):
    (tmp_path / "device.key").write_bytes(key)
    os.chmod(tmp_path / "device.key", 0o600)
    return tmp_path / "device.key"


def _check_the_file_left(data, log, key, direct_replay):
    files = list((data / "games").glob("demo-*.db"))  # the simulator keeps its games where the device does
    assert len(files) == 1, files
    with Game.open(files[0], key=key, check="full") as played:
        assert played.state() == direct_replay(log).state


@pytest.mark.parametrize("log", [pytest.param(p, marks=_marks(p), id=p.name) for p in LOGS])
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_sim_demo_leaves_the_replayed_state(log, tmp_path, key, monkeypatch, capsys, direct_replay):
    data = tmp_path / "data"
    monkeypatch.setenv("BANQUIER_DATA_DIR", str(data))
    monkeypatch.setenv("BANQUIER_KEY_FILE", str(_key_file(tmp_path, key)))
    code = cli.main(["sim", "--headless", "--demo", str(log), "--speed", "inf", "--data-dir", str(data)])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    _check_the_file_left(data, log, key, direct_replay)


@pytest.mark.parametrize("log", [pytest.param(RECORDED / name if name.startswith("game-") else OWN_LOGS / name,
                                              marks=marks, id=name) for name, marks in SUBPROCESS_SAMPLE.items()])
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_sim_demo_subprocess_leaves_the_replayed_state(log, tmp_path, key, direct_replay):
    data = tmp_path / "data"
    env = clean_env({"BANQUIER_DATA_DIR": str(data), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                     "BANQUIER_KEY_FILE": str(_key_file(tmp_path, key))})
    result = subprocess.run([sys.executable, "-m", "host_ui", "sim", "--headless", "--demo", str(log),
                             "--speed", "1000000", "--data-dir", str(data)],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "banquier sim: game file" in result.stdout
    checks = sum(1 for line in log.read_text(encoding="utf-8").splitlines() if '"expect"' in line)
    # the demo says that its checks agreed
    assert f"{log.name}: " in result.stdout and f" {checks} checks of the log: all agree." in result.stdout
    _check_the_file_left(data, log, key, direct_replay)


def test_the_subprocess_sample_is_there():
    assert {p.name for p in LOGS} >= set(SUBPROCESS_SAMPLE)
