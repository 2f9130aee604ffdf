"""Fixtures shared by every test folder.

- The device key and data directory point into a temporary folder, so tests never touch ~/.config or
  ~/.local/share.
- ``make_game`` creates a game file in ``tmp_path``.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

# The hardware fakes (RPi.GPIO, spidev + MFRC522 + ISO 14443A cards, pyserial) and their fixtures, for any
# test folder: fake_clock, fake_gpio, fake_mfrc522, make_rc522_reader, fake_serial, sim_reader, ...
pytest_plugins = ["tests.fakes.plugin"]

ROOT = Path(__file__).resolve().parent.parent
RECORDED = ROOT / "terminal" / "examples" / "recorded"
OWN_LOGS = ROOT / "tests" / "table_logs"
KEY = bytes(range(32))


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path_factory, monkeypatch):
    base = tmp_path_factory.mktemp("banquier-home")
    monkeypatch.setenv("BANQUIER_KEY_FILE", str(base / "config" / "device.key"))
    monkeypatch.setenv("BANQUIER_DATA_DIR", str(base / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", os.environ.get("SDL_VIDEODRIVER", "dummy"))
    monkeypatch.setenv("SDL_AUDIODRIVER", os.environ.get("SDL_AUDIODRIVER", "dummy"))


@pytest.fixture
def key() -> bytes:
    """A fixed device key."""
    return KEY


@pytest.fixture
def make_game(tmp_path, key):
    """``make_game(edition="fr", players=("Ann", "Bob"), **kwargs)`` -> an open :class:`terminal.Game`."""
    from terminal.bank.game import Game
    games = []
    counter = iter(range(10_000))

    def make(edition="fr", players=("Ann", "Bob"), **kwargs):
        game = Game.create(tmp_path / f"game-{next(counter)}.db", edition, players, key=key, **kwargs)
        games.append(game)
        return game

    yield make
    for game in games:
        try:
            game.close()
        except Exception:
            pass
