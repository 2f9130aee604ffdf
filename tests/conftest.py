"""Fixtures shared by every test folder (tests/README.md describes the suite).

- Temporary files go to a RAM disk (``/dev/shm``) when there is one and ``TMPDIR`` is not set: a game file
  commits with ``synchronous=FULL``, one fsync per operation, and on a disk those waits were most of the
  suite's wall time. The code paths are the same; set ``TMPDIR`` to run on a disk.
- The device key and data directory point into a temporary folder, so tests never touch ~/.config or
  ~/.local/share.
- ``make_game`` creates a game file in ``tmp_path``.
- ``direct_replay(log)`` replays a table log through the API once per session and gives every test that
  compares against it the same result (the long recorded game alone takes seconds to replay).
"""
from __future__ import annotations

import copy
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest


def _temp_on_a_ram_disk() -> None:
    shm = Path("/dev/shm")
    if "TMPDIR" in os.environ or not shm.is_dir() or not os.access(shm, os.W_OK | os.X_OK):
        return
    os.environ["TMPDIR"] = str(shm)  # subprocesses too
    tempfile.tempdir = str(shm)      # pytest's tmp_path and this process's tempfile (it may have cached /tmp)


_temp_on_a_ram_disk()

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


@dataclass(frozen=True)
class Replayed:
    """A table log replayed through the API (:func:`terminal.bank.tablelog.replay`) with :data:`KEY`."""

    result: Any
    """What ``replay`` returned (the counts)."""
    state: dict
    """``Game.state()`` of the replayed file (a fresh copy for each test)."""
    path: Path
    """The replayed game file: shared, so open :meth:`copy_to` instead."""

    def copy_to(self, folder: Path) -> Path:
        """A copy of the replayed game file in ``folder``, to open (the shared one stays untouched)."""
        target = folder / self.path.name
        shutil.copyfile(self.path, target)
        return target


@pytest.fixture(scope="session")
def direct_replay(tmp_path_factory):
    """``direct_replay(log_path)`` -> :class:`Replayed`: each log is replayed once per session, by whichever test
    asks first (a replay that fails is not kept: the next test that asks replays it again, and fails too)."""
    from terminal.bank.game import Game
    from terminal.bank.tablelog import replay
    done: dict[Path, Replayed] = {}

    def get(log: Path) -> Replayed:
        log = Path(log).resolve()
        if log not in done:
            path = tmp_path_factory.mktemp("direct-replay") / f"{log.stem}.db"
            result = replay(log, path, key=KEY)
            with Game.open(path, key=KEY) as game:
                done[log] = Replayed(result, game.state(), path)
        found = done[log]
        return Replayed(found.result, copy.deepcopy(found.state), found.path)

    return get
