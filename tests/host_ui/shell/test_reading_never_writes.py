"""Issue 11, point 2: reading never writes. ``audit``, ``export``, ``doctor``, ``games list``, ``games resume``
and every open that refuses leave every file of the game byte-identical (main file, WAL) and create no
``-shm``: hashes of the whole data directory before and after, through the real ``banquier`` command."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from host_ui.shell.games import key_for_new_game
from terminal.bank.game import Game
from terminal.errors import GameError
from tests.host_ui.shell.damage import (
    OTHER_KEY,
    clean_game,
    edit_entry_in_wal,
    leave_shm,
    play,
    rollback_backup,
    unclean_game,
)
from tests.host_ui.shell.helpers import banquier, hashes

STATES = ["clean", "unclean", "edited", "foreign", "backup", "empty_with_wal", "not_a_game", "clean_with_shm",
          "unclean_with_shm"]


@pytest.fixture
def games() -> Path:
    folder = Path(os.environ["BANQUIER_DATA_DIR"]) / "games"
    folder.mkdir(parents=True)
    return folder


def make(state: str, folder: Path) -> Path:
    key = key_for_new_game()
    path = folder / f"{state}.db"
    if state == "clean":
        clean_game(path, key)
    elif state == "unclean":
        unclean_game(path, key)
    elif state == "edited":
        unclean_game(path, key)
        edit_entry_in_wal(path, 5)
    elif state == "foreign":
        unclean_game(path, OTHER_KEY)
    elif state == "backup":
        rollback_backup(path, key)
    elif state == "empty_with_wal":
        unclean_game(path, key)
        path.write_bytes(b"")
    elif state == "clean_with_shm":  # a crash between a game's creation and its first entry (issue 21, point 6)
        clean_game(path, key)
        leave_shm(path)
    elif state == "unclean_with_shm":  # a power cut in play: the file, its WAL and its shared memory
        unclean_game(path, key)
        leave_shm(path)
    elif state == "not_a_game":
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        conn.execute("CREATE TABLE notes (t TEXT)")
        conn.execute("INSERT INTO notes VALUES ('hello')")
        conn.commit()
        import shutil
        shutil.copyfile(path, folder / "copy")
        shutil.copyfile(path.with_name(path.name + "-wal"), folder / "copy-wal")
        conn.close()
        os.replace(folder / "copy", path)
        os.replace(folder / "copy-wal", path.with_name(path.name + "-wal"))
    return path


def _commands(path: Path) -> list[list[str]]:
    return [["audit", str(path)], ["export", str(path)], ["export", str(path), "--format", "csv"],
            ["export", str(path), "--format", "json"], ["games", "list"], ["games", "resume", path.stem],
            ["doctor", "--no-probe"]]


@pytest.mark.parametrize("state", STATES)
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_every_reader_leaves_every_file_as_it_was(games, state):
    path = make(state, games)
    before = hashes(games)
    assert path.with_name(path.name + "-shm").exists() == state.endswith("_with_shm")
    for argv in _commands(path):
        result = banquier(*argv)
        assert "Traceback" not in result.stderr, (argv, result.stderr)
        assert hashes(games) == before, (argv, result.stderr)


@pytest.mark.parametrize("state", ["clean_with_shm", "unclean_with_shm"])
def test_an_audit_beside_a_leftover_shm_writes_nothing(games, state):
    """Issue 21, point 6: `banquier audit` of a cleanly closed game with a leftover -shm and no -wal created an empty
    -wal and grew the -shm (the quick run's sample of the matrix above)."""
    path = make(state, games)
    before = hashes(games)
    result = banquier("audit", str(path))
    assert result.returncode == 0 and "Audit passed" in result.stdout, result.stdout + result.stderr
    assert hashes(games) == before
    assert path.with_name(path.name + "-wal").exists() == (state == "unclean_with_shm")


@pytest.mark.parametrize("state", ["edited", "foreign", "empty_with_wal", "not_a_game"])
def test_an_open_for_play_that_refuses_writes_nothing(games, state):
    path = make(state, games)
    before = hashes(games)
    with pytest.raises(GameError):
        Game.open(path, key=key_for_new_game())
    assert hashes(games) == before


def test_a_refused_backup_is_not_switched_to_wal(games):
    path = make("backup", games)
    before = hashes(games)
    with pytest.raises(GameError):
        Game.open(path, key=OTHER_KEY)
    assert hashes(games) == before
    with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_readers_leave_a_game_in_play_untouched(games):
    """The terminal has the game open (its WAL holds entries): the readers neither checkpoint nor truncate."""
    game = Game.create(games / "live.db", "fr", ["Ann", "Bob"], key=key_for_new_game())
    game.ledger.db.execute("PRAGMA wal_autocheckpoint = 0")
    play(game, 5)
    files = [games / "live.db", games / "live.db-wal"]
    before = hashes(*files)
    try:
        for argv in _commands(games / "live.db"):
            result = banquier(*argv)
            assert "Traceback" not in result.stderr, (argv, result.stderr)
            assert hashes(*files) == before, argv
        assert banquier("audit", str(games / "live.db")).returncode == 0
        play(game, 1)  # the table goes on
    finally:
        game.close()
    with Game.open(games / "live.db", key=key_for_new_game()) as again:
        assert again.ledger.last_entry()[0] == 7


def test_resuming_a_good_unclean_game_still_works_and_keeps_its_entries(games):
    path = make("unclean", games)
    with Game.open(path, key=key_for_new_game()) as game:
        assert game.ledger.was_unclean and game.ledger.last_entry()[0] == 7
        game.pass_go("Ann")
    with Game.open(path, key=key_for_new_game()) as game:
        assert not game.ledger.was_unclean and game.ledger.last_entry()[0] == 8
