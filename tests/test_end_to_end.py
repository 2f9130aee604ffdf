"""End to end: ``banquier sim --headless --demo LOG`` as a subprocess, for every table log of the test suite
(the recorded games included), plays the log through the simulator's reader and the state machine; the game
file it leaves must hold the same state as a direct replay of the log through the API."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from terminal.bank.game import Game
from terminal.bank.tablelog import replay
from tests.conftest import OWN_LOGS, RECORDED, ROOT

LOGS = sorted(OWN_LOGS.glob("*.jsonl")) + sorted(RECORDED.glob("*.jsonl"))


def _marks(log):
    return [pytest.mark.slow] if log.name.startswith("long-") else []


@pytest.mark.parametrize("log", [pytest.param(p, marks=_marks(p), id=p.name) for p in LOGS])
def test_sim_demo_subprocess_leaves_the_replayed_state(log, tmp_path, key):
    data = tmp_path / "data"
    env = {**os.environ, "BANQUIER_DATA_DIR": str(data), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env["BANQUIER_KEY_FILE"] = str(tmp_path / "device.key")
    (tmp_path / "device.key").write_bytes(key)
    os.chmod(tmp_path / "device.key", 0o600)
    result = subprocess.run([sys.executable, "-m", "host_ui", "sim", "--headless", "--demo", str(log),
                             "--speed", "1000000", "--data-dir", str(data)],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stdout + result.stderr
    files = list(data.glob("demo-*.db"))
    assert len(files) == 1, files
    replay(log, tmp_path / "direct.db", key=key)
    with Game.open(files[0], key=key, check="full") as played, Game.open(tmp_path / "direct.db", key=key) as direct:
        assert played.state() == direct.state()
