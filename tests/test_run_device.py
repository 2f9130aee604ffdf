"""``banquier run``: the device's composition root with the configured backends (the simulated ones here),
resuming the current game of the data directory, stopping cleanly and backing the game up."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from terminal.bank.game import Game
from tests.cli_env import clean_env
from tests.conftest import ROOT


def _setup(tmp_path, key, seconds_config=""):
    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    key_file = tmp_path / "device.key"
    key_file.write_bytes(key)
    os.chmod(key_file, 0o600)
    with Game.create(data / "games" / "sunday.db", "fr", ["Ann", "Bob"], key=key) as game:
        game.buy("Ann", 39)
    (tmp_path / "config.toml").write_text(
        '[hardware.reader]\nbackend = "sim"\n[hardware.beeper]\nbackend = "sim"\n[hardware.buttons]\n'
        f'backend = "sim"\n[storage]\ndata_dir = "{data}"\nkey_file = "{key_file}"\nbackup_every = 1\n'
        '[logging]\nlevel = "info"\n' + seconds_config)
    env = clean_env({"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "BANQUIER_DATA_DIR": None,
                     "BANQUIER_KEY_FILE": None})
    return data, env


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_run_resumes_the_current_game_and_backs_it_up(tmp_path, key):
    data, env = _setup(tmp_path, key)
    result = subprocess.run([sys.executable, "-m", "host_ui", "--config", str(tmp_path / "config.toml"), "run",
                             "--headless", "--seconds", "1"], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert "resumed sunday.db" in result.stderr and "stopped cleanly" in result.stderr
    backups = list((data / "backups").glob("sunday.seq*.db"))
    assert len(backups) == 1
    with Game.open(backups[0], key=key) as backup, Game.open(data / "games" / "sunday.db", key=key) as live:
        assert backup.state() == live.state() and live.cash("Ann") == 1100
        assert not live.ledger.was_unclean, "the game was closed cleanly"


def test_run_stops_cleanly_on_sigterm(tmp_path, key):
    data, env = _setup(tmp_path, key)
    process = subprocess.Popen([sys.executable, "-m", "host_ui", "--config", str(tmp_path / "config.toml"), "run",
                                "--headless"], cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        line = ""
        deadline = time.monotonic() + 60
        while "terminal running" not in line and time.monotonic() < deadline:
            line = process.stderr.readline()
        assert "terminal running" in line
        process.send_signal(signal.SIGTERM)
        rest = process.communicate(timeout=30)[1]
    finally:
        process.kill()
    assert process.returncode == 0 and "stopped cleanly" in rest
    with Game.open(data / "games" / "sunday.db", key=key) as game:
        assert not game.ledger.was_unclean


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_run_refuses_a_blind_screen_on_a_device(tmp_path, key):
    # a device's output (on a PC, reader = sim in a window starts the simulator instead: tests/host_ui/shell/
    # test_run_command.py)
    _data, env = _setup(tmp_path, key, '[display]\noutput = "kmsdrm"\n')
    result = subprocess.run([sys.executable, "-m", "host_ui", "--config", str(tmp_path / "config.toml"), "run",
                             "--seconds", "1"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 3 and "refuses to take payments" in result.stderr


_VIEW_OF_THE_RUN = """
import json, sys
from pathlib import Path
import host_ui.device as device
from host_ui.shell.config import load_config
made = []
class Recorded(device.Terminal):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        made.append(self)
device.Terminal = Recorded
code = device.run_device(load_config(Path(sys.argv[1])), headless=True, max_seconds=1)
view = made[0].view
print(json.dumps({"code": code, "screen": view.screen, "said": view.extra["said"].code,
                  "problem": view.extra["problem"], "options": {o.id: o.enabled for o in view.options},
                  "backup": view.extra["backup"]}))
"""


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_run_with_a_damaged_current_game_shows_it_and_offers_its_backup(tmp_path, key):
    """The current game's file is damaged after a run backed it up: no traceback, no crash loop (exit 0),
    and the screen names the damage and offers the newest good backup or a new game; the file is kept."""
    import json
    data, env = _setup(tmp_path, key)
    config = tmp_path / "config.toml"
    first = subprocess.run([sys.executable, "-m", "host_ui", "--config", str(config), "run", "--headless",
                            "--seconds", "1"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    (data / "current").write_text("sunday.db\n")
    game_file = data / "games" / "sunday.db"
    with open(game_file, "r+b") as f:
        f.write(b"\x00" * 100)  # SQLite's header destroyed
    damaged = game_file.read_bytes()
    result = subprocess.run([sys.executable, "-m", "host_ui", "--config", str(config), "run", "--headless",
                             "--seconds", "1"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert "cannot resume sunday.db" in result.stderr and "stopped cleanly" in result.stderr
    shown = subprocess.run([sys.executable, "-c", _VIEW_OF_THE_RUN, str(config)], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0 and "Traceback" not in shown.stderr, shown.stderr
    view = json.loads(shown.stdout.strip().splitlines()[-1])
    assert view["code"] == 0 and view["screen"] == "damaged" and view["said"] == "damaged_startup"
    assert "sunday.db" in view["problem"] and view["backup"].startswith("sunday.seq")
    assert view["options"] == {"restore": True, "new_game": True}
    assert game_file.read_bytes() == damaged, "the damaged game is kept for inspection"
