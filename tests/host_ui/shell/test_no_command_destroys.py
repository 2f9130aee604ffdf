"""Issue 11, point 1: no command can destroy a game, a card set or the device key. Every output a user names
refuses an existing file unless --force, and refuses even with --force a game file (or its -wal/-shm), the
device key and the card set; outputs are written whole or not at all. Through the real ``banquier`` command."""
from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from host_ui.shell.device_key import default_key_path
from host_ui.shell.games import key_for_new_game
from host_ui.shell.outputs import OutputRefused, Protected, write_output
from terminal.bank.game import Game
from tests.cli_env import clean_env
from tests.conftest import ROOT
from tests.host_ui.shell.helpers import banquier, hashes, one_line_error
from tests.unclean import abandon


@pytest.fixture
def world(tmp_path):
    """A data directory with one game (left with content in its WAL), the key and a card set."""
    data = Path(os.environ["BANQUIER_DATA_DIR"])
    games = data / "games"
    games.mkdir(parents=True)
    game = Game.create(games / "sunday.db", "fr", ["Ann", "Bob"], key=key_for_new_game())
    game.pass_go("Ann")
    game.close()
    cards = data / "cards.txt"
    cards.write_text("04A1B2C3             = player 1\n", encoding="utf-8")
    # a second game whose WAL still holds entries (as after an unclean stop)
    open_game = Game.create(games / "open.db", "fr", ["Ann", "Bob"], key=key_for_new_game())
    conn = sqlite3.connect(games / "open.db")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    open_game.ledger.db.execute("PRAGMA wal_autocheckpoint = 0")
    open_game.pass_go("Bob")
    wal = games / "open.db-wal"
    assert wal.exists() and wal.stat().st_size > 0
    yield {"data": data, "game": games / "sunday.db", "wal": wal, "cards": cards, "key": default_key_path(),
           "tmp": tmp_path}
    conn.close()
    abandon(open_game)


def _targets(world):
    return {"game": world["game"], "wal": world["wal"], "key": world["key"], "cards": world["cards"]}


@pytest.mark.parametrize("target", ["game", "wal", "key", "cards"])
@pytest.mark.parametrize("force", [False, True])
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_export_never_writes_over_a_game_the_key_or_the_card_set(world, target, force):
    path = _targets(world)[target]
    before = hashes(world["data"], world["key"])
    result = banquier("export", str(world["game"]), "-o", str(path), *(["--force"] if force else []))
    assert result.returncode == 2, result.stderr
    assert one_line_error(result)
    assert hashes(world["data"], world["key"]) == before


@pytest.mark.parametrize("target", ["game", "wal", "key", "cards"])
@pytest.mark.parametrize("force", [False, True])
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_cards_export_never_writes_over_a_game_the_key_or_the_card_set(world, target, force):
    path = _targets(world)[target]
    before = hashes(world["data"], world["key"])
    result = banquier("cards", "export", str(path), *(["--force"] if force else []))
    assert result.returncode == 2, result.stderr
    assert one_line_error(result)
    assert hashes(world["data"], world["key"]) == before


def test_a_link_to_the_key_or_a_game_is_refused_too(world):
    link = world["tmp"] / "innocent.txt"
    link.symlink_to(world["key"])
    hard = world["tmp"] / "hard.txt"
    os.link(world["game"], hard)
    before = hashes(world["data"], world["key"])
    for path in (link, hard):
        result = banquier("export", str(world["game"]), "-o", str(path), "--force")
        assert result.returncode == 2 and one_line_error(result), result.stderr
    assert hashes(world["data"], world["key"]) == before


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_an_existing_file_needs_force_then_is_replaced_whole(world):
    out = world["tmp"] / "out.jsonl"
    out.write_text("keep me\n")
    result = banquier("export", str(world["game"]), "-o", str(out))
    assert result.returncode == 2 and "already exists" in result.stderr and "--force" in result.stderr
    assert out.read_text() == "keep me\n"
    result = banquier("export", str(world["game"]), "-o", str(out), "--force")
    assert result.returncode == 0, result.stderr
    assert out.read_text().startswith("{") and "pass_go" in out.read_text()
    cards_out = world["tmp"] / "cards-copy.txt"
    cards_out.write_text("old\n")
    result = banquier("cards", "export", str(cards_out))
    assert result.returncode == 2 and cards_out.read_text() == "old\n"
    result = banquier("cards", "export", str(cards_out), "--force")
    assert result.returncode == 0 and "player 1" in cards_out.read_text()
    assert sorted(p.name for p in world["tmp"].iterdir()) == ["cards-copy.txt", "out.jsonl"]  # no temp file left


@pytest.mark.parametrize("umask", [0o000, 0o022, 0o077])
def test_a_new_output_is_complete_and_0640_whatever_the_umask(world, umask):
    """Issue 22, point 8: an output is its owner's and the owner's group's (on the device the group banquier,
    which the user who installed Banquier joins, so that `pi` reads their own export): never others'."""
    out = world["tmp"] / "new.csv"
    result = subprocess.run(["sh", "-c", f"umask {umask:03o}; exec \"$@\"", "sh", sys.executable, "-m", "host_ui",
                             "export", str(world["game"]), "--format", "csv", "-o", str(out)],
                            capture_output=True, text=True, timeout=60, cwd=ROOT, env=clean_env())
    assert result.returncode == 0, result.stderr
    assert out.read_text().splitlines()[0] == "seq,kind,operation,undone,payer,payee,amount,description"
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text("old")

    def boom(f):
        f.write("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        write_output(out, boom, force=True, protected=Protected())
    assert out.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_a_game_named_without_sqlite_content_is_still_refused_in_the_game_folders(tmp_path):
    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    with pytest.raises(OutputRefused, match="game file"):
        write_output(data / "games" / "new.db", lambda f: f.write("x"), force=True,
                     protected=Protected(data_dirs=[data]))
    assert not (data / "games" / "new.db").exists()


def test_a_device_pipe_or_socket_is_never_replaced_by_an_output(world):
    """``-o`` naming something that is not a regular file (here a FIFO; /dev/full on a real machine) is refused,
    even with --force: the new file would be renamed over it."""
    fifo = world["tmp"] / "a-pipe"
    os.mkfifo(fifo)
    for extra in ([], ["--force"]):
        result = banquier("export", str(world["game"]), "-o", str(fifo), *extra)
        assert result.returncode == 2, result
        assert one_line_error(result) and "not a regular file" in result.stderr
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("unbuffered", [None, "1"], ids=["plain-shell", "as-the-unit"])
@pytest.mark.parametrize("command", [["export", "{game}", "--format", "json"], *(  # the others in the full run
    pytest.param(c, marks=pytest.mark.slow) for c in (["export", "{game}", "--format", "csv"], ["export", "{game}"],
                                                      ["audit", "{game}"], ["games", "list"], ["cards", "list"]))])
def test_a_full_disk_behind_standard_output_is_one_line_and_exit_3(world, command, unbuffered):
    """In a plain shell (standard output buffered, no PYTHONUNBUFFERED) as under the unit (which sets it): one line
    and exit 3. Buffered, the export's failure used to be reported, then the interpreter's last flush failed again:
    "Exception ignored in: <_io.TextIOWrapper name='<stdout>'...", exit 120 (issue 21, point 7)."""
    argv = [part.format(game=world["game"]) for part in command]
    with open("/dev/full", "w") as full:  # writing to it fails with ENOSPC, as a full disk does
        result = subprocess.run([sys.executable, "-m", "host_ui", *argv], stdout=full, stderr=subprocess.PIPE,
                                text=True, timeout=60, cwd=ROOT, env=clean_env({"PYTHONUNBUFFERED": unbuffered}))
    assert result.returncode == 3, result.stderr
    assert result.stderr.count("\n") == 1 and "No space left on device" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr


def test_a_reader_that_goes_away_stops_the_command_quietly(world):
    """``banquier export GAME | head -1``: the closed pipe ends the command without a traceback (exit 141, as a
    shell reports SIGPIPE). The game is long enough that its export is several times a pipe's buffer (64 KiB on
    Linux), so the command is still writing when the reader goes away (a short one may finish first: exit 0)."""
    long_game = world["data"] / "games" / "long.db"
    game = Game.create(long_game, "fr", ["Ann", "Bob"], key=key_for_new_game())
    for _ in range(750):
        game.pass_go("Ann")
        game.pay_bank("Ann", 1)
    game.close()
    process = subprocess.Popen([sys.executable, "-m", "host_ui", "export", str(long_game), "--format", "json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=clean_env())
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read(1)
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 141
    assert "Traceback" not in err and "Error" not in err, err
