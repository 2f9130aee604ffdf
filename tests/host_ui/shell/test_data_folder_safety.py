"""Issue 22, point 8: files written in the data folder never follow a link planted at their name (`current.tmp`
overwrote its target, the mirror appended to it), their modes do not depend on the umask (under umask 000 the
data folders were 0777 and `current` 0666), and what the `banquier` command writes for the user is readable by
the owner's group (README, "Installing": the user who installed Banquier is in the group banquier)."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from host_ui.shell.games import key_for_new_game
from host_ui.shell.manage import set_current
from terminal.bank.durable import make_directories, open_for_append, replace_durably
from terminal.bank.game import Game
from tests.cli_env import clean_env
from tests.conftest import RECORDED
from tests.host_ui.shell.helpers import ROOT


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


@pytest.fixture
def victim(tmp_path):
    path = tmp_path / "victim.txt"
    path.write_text("not the terminal's\n")
    return path


def test_the_current_marker_never_follows_a_planted_link(tmp_path, victim):
    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    for name in ("current", "current.tmp"):
        (data / name).unlink(missing_ok=True)
        (data / name).symlink_to(victim)
    set_current(data, data / "games" / "sunday.db")
    assert victim.read_text() == "not the terminal's\n"
    assert not (data / "current").is_symlink() and (data / "current").read_text() == "sunday.db\n"
    assert mode(data / "current") == 0o640


def test_the_mirror_never_appends_through_a_planted_link(tmp_path, victim, key):
    backups = tmp_path / "backups"
    mirror = backups / "sunday.mirror"
    game = Game.create(tmp_path / "games" / "sunday.db", "fr", ["Ann", "Bob"], key=key, mirror=mirror)
    game.pass_go("Ann")
    game.close()
    mirror.unlink()
    mirror.symlink_to(victim)  # planted while the terminal was stopped
    game = Game.open(tmp_path / "games" / "sunday.db", key=key, mirror=mirror)
    try:
        game.pass_go("Bob")  # committed; the mirror cannot be written, and says so
        assert game.ledger.mirror_problem and "cannot write the mirror" in game.ledger.mirror_problem
        assert game.cash("Bob") == 1700
    finally:
        game.close()
    assert victim.read_text() == "not the terminal's\n"


def test_the_shared_steps_refuse_links_and_fix_their_modes(tmp_path, victim):
    link = tmp_path / "link"
    link.symlink_to(victim)
    with pytest.raises(OSError):
        os.close(open_for_append(link, 0o640))
    replace_durably(link, b"new\n", 0o600)
    assert victim.read_text() == "not the terminal's\n" and link.read_bytes() == b"new\n" and mode(link) == 0o600
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError):  # never waits for a reader, never appends to a pipe
        os.close(open_for_append(fifo, 0o640))
    old = os.umask(0)
    try:
        made = make_directories(tmp_path / "a" / "b")
        fd = open_for_append(tmp_path / "a" / "b" / "f", 0o640)
        os.close(fd)
    finally:
        os.umask(old)
    assert mode(tmp_path / "a") == mode(made) == 0o750 and mode(made / "f") == 0o640


@pytest.mark.parametrize("umask", [0o000, 0o022, 0o077])
@pytest.mark.slow  # a subprocess replaying a recorded game
def test_the_commands_make_the_same_modes_whatever_the_umask(tmp_path, umask):
    data = tmp_path / "fresh-data"
    env = clean_env({"BANQUIER_DATA_DIR": str(data)})
    log = RECORDED / "game-fr-random-4p-101.jsonl"

    def banquier(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["sh", "-c", f"umask {umask:03o}; exec \"$@\"", "sh", sys.executable, "-m", "host_ui",
                               *argv], capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)

    assert banquier("replay", str(log), "--game", str(data / "games" / "sunday.db")).returncode == 0
    result = banquier("games", "resume", "sunday")
    assert result.returncode == 0, result.stderr
    result = banquier("cards", "enrol", "--role", "banker", "--uid", "04A1B2C3")
    assert result.returncode == 0, result.stderr
    assert mode(data) == mode(data / "games") == 0o750
    assert mode(data / "current") == mode(data / "games" / "sunday.db") == mode(data / "cards.txt") == 0o640
    others = [p for p in data.rglob("*") if mode(p) & 0o007]
    assert others == [], others


def test_games_made_by_the_terminal_are_group_readable(tmp_path):
    """0640 for a game, as for an export: the user who installed Banquier reads them through the group."""
    game = Game.create(tmp_path / "games" / "g.db", "fr", ["Ann", "Bob"], key=key_for_new_game())
    game.close()
    assert mode(game.path) == 0o640
