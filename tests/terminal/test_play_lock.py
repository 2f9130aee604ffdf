"""One Banquier plays a game at a time (a second simulator or terminal on the same file is refused).

Found by a newcomer: a second `banquier sim` opened the game another one was playing; each committed from its
own copy of the state, and payments were lost. ``Ledger.lock_for_play`` holds an exclusive flock on the file.
"""
from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from terminal.bank.game import Game
from terminal.errors import LedgerError
from tests.unclean import abandon


def _digest(path):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.parent.iterdir()) if p.name.startswith(path.name)}


def test_a_second_player_of_the_same_file_is_refused_and_changes_nothing(make_game, key):
    game = make_game("fr", ("Ann", "Bob"))
    game.pass_go("Ann")
    before = _digest(game.path)
    with pytest.raises(LedgerError) as refused:
        Game.open(game.path, key=key)
    assert refused.value.code == "ledger_in_use"
    assert "another Banquier" in str(refused.value)
    assert _digest(game.path) == before
    game.pass_go("Bob")  # the first one plays on
    assert game.cash("Bob") == 1700


def test_readers_need_no_lock_while_the_game_is_played(make_game, key):
    game = make_game("fr", ("Ann", "Bob"))
    game.pass_go("Ann")
    with Game.open(game.path, key=key, read_only=True) as look:
        assert look.cash("Ann") == 1700


def test_the_lock_goes_with_a_clean_close_and_with_a_crash(make_game, key):
    game = make_game("fr", ("Ann", "Bob"))
    path = game.path
    game.close()
    again = Game.open(path, key=key)
    abandon(again)  # as a process that dies: its kernel drops the lock
    with Game.open(path, key=key) as resumed:
        assert resumed.ledger.was_unclean


def test_another_process_playing_the_file_keeps_it_until_it_dies(make_game, key, tmp_path):
    game = make_game("fr", ("Ann", "Bob"))
    path = game.path
    game.close()
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time
        from terminal.bank.game import Game
        game = Game.open({str(path)!r}, key=bytes.fromhex({key.hex()!r}))
        game.pass_go("Ann")
        print("playing", flush=True)
        time.sleep(60)
        """)], stdout=subprocess.PIPE, text=True, cwd=os.getcwd())
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "playing"
        with pytest.raises(LedgerError) as refused:
            Game.open(path, key=key)
        assert refused.value.code == "ledger_in_use"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    with Game.open(path, key=key) as resumed:  # kill -9 released it; the acknowledged GO salary is there
        assert resumed.cash("Ann") == 1700
