"""Issue 21, points 3 and 4: a cleanly closed game edited or damaged behind the terminal's back is found at its next
resume, and nothing it was judged by writes to it.

A clean close moves the keyed checkpoint to the last entry, so start-up's quick checks see nothing of an edit
before it: 112 of 324 such files were played on without a word by the simulator and ``Game.open``, and of 166
damaged files start-up resumed, 77 were changed by it (WAL folded in, a backup switched to WAL) before its
background audit stopped it. Now every resume is judged in full beside play, and the files are held as found
until the judgment: judged damaged, they are put back hash for hash.
"""
from __future__ import annotations

import random

import pytest

from host_ui.cli import main
from host_ui.shell.games import key_for_new_game
from host_ui.shell.manage import set_current
from host_ui.shell.startup import resume_at_startup
from terminal.bank.game import Game
from terminal.errors import GameError
from tests.host_ui.shell.damage import (
    HIDDEN_DAMAGE,
    clean_game,
    damaged_variant,
    hidden_damage,
    rollback_backup,
    unclean_game,
)
from tests.host_ui.shell.helpers import hashes


def _data_with(tmp_path, key, damage) -> tuple:
    data = tmp_path / "data"
    path = data / "games" / "g.db"
    path.parent.mkdir(parents=True)
    clean_game(path, key)
    damage(path)
    set_current(data, path)
    return data, path


def _resumed_then_stopped(data, key) -> tuple[object, list[str]]:
    """Resume the current game as the terminal does, pay once (the first payment does not wait), wait for the
    judgment; returns (what start-up found, what payments_stopped said)."""
    found = resume_at_startup(data, key, backups=data / "backups")
    said = []
    if found.game is not None:
        game = found.game
        try:
            try:
                game.pass_go("Ann")
            except GameError:
                pass
            assert game.ledger.guard.wait_verdict(60) is not None
            said.append(game.payments_stopped())
            with pytest.raises(GameError, match="Payments are stopped"):
                game.pass_go("Bob")
        finally:
            game.close()
    return found, said


@pytest.mark.parametrize("name", sorted(HIDDEN_DAMAGE))
def test_a_clean_game_damaged_behind_the_checkpoint_is_found_and_left_as_found(tmp_path, name, capsys):
    key = key_for_new_game()  # the device key file `banquier audit` reads
    data, path = _data_with(tmp_path, key, lambda p: hidden_damage(p, name))
    games = path.parent
    before = hashes(games)
    found, said = _resumed_then_stopped(data, key)
    if found.game is None:  # found before the resume (the chain since the checkpoint, the projection)
        assert found.problem and "g.db" in found.problem
    else:
        assert said[0] and "g.db" in said[0] and "put back as they were found" in said[0], said
    assert hashes(games) == before, "the game's files, hash for hash, as found"
    capsys.readouterr()
    code = main(["audit", str(path)])  # named by the audit too: failed (1), or too damaged to read (3)
    out, err = capsys.readouterr()
    assert (code == 1 and "FAILED" in out) or (code == 3 and err.count("\n") == 1 and "g.db" in err), (code, out, err)
    assert hashes(games) == before


def test_a_backup_in_place_of_a_game_found_damaged_is_put_back_in_its_own_journal_mode(tmp_path, key):
    """A backup (rollback journal) put in place of the game: switching it to WAL rewrites its header; it is set
    aside whole first and put back."""
    data, path = _data_with(tmp_path, key, lambda p: None)
    path.unlink()
    rollback_backup(path, key)
    hidden_damage(path, "posting_edited")
    before = hashes(path.parent)
    found, said = _resumed_then_stopped(data, key)
    assert found.game is not None and said[0]
    assert hashes(path.parent) == before


@pytest.mark.parametrize("n", range(12))
def test_issue_11s_damaged_files_are_never_written_by_start_up(tmp_path, key, n):
    """The mix of SQL edits and byte damage to the file or to the WAL of an unclean game (tests/host_ui/shell/
    damage.py): start-up refuses it, or resumes it and stops it; either way every file is as found."""
    data = tmp_path / "data"
    games = data / "games"
    games.mkdir(parents=True)
    path, what, _, _ = damaged_variant(games, key, random.Random(n), n)
    set_current(data, path)
    before = hashes(games)
    found = resume_at_startup(data, key, backups=data / "backups")
    if found.game is not None:
        game = found.game
        try:
            ok = game.ledger.guard.wait_verdict(60) is not None and game.judged is not False
            if ok:  # a variant whose damage the mirror mended (a WAL that lost frames) or that did no harm
                assert game.audit().ok, what
                return
            assert game.payments_stopped(), what
        finally:
            game.close()
    assert hashes(games) == before, what


def test_a_sound_game_is_judged_and_then_checkpointed_as_usual(tmp_path, key):
    data, path = _data_with(tmp_path, key, lambda p: None)
    found = resume_at_startup(data, key, backups=data / "backups")
    game = found.game
    try:
        game.pass_go("Ann")
        assert path.with_name(".g.db.as-found").is_dir(), "held as found until judged"
        assert game.await_judgment(60) is True
        game.pass_go("Bob")
        assert not path.with_name(".g.db.as-found").exists()
    finally:
        game.close()
    assert not path.with_name("g.db-wal").exists(), "closed and checkpointed as before"
    with Game.open(path, key=key, check="full") as again:
        assert again.ledger.last_entry()[0] == 9


def test_a_game_closed_before_its_judgment_keeps_its_file_as_found_and_is_judged_next_time(tmp_path, key):
    data, path = _data_with(tmp_path, key, lambda p: hidden_damage(p, "posting_edited"))
    before = hashes(path.parent)
    found = resume_at_startup(data, key, backups=data / "backups")
    found.game.pass_go("Ann")
    found.game.close()  # before the worker even started: nothing folded into the file
    assert hashes(path.parent) != before and path.with_name("g.db-wal").exists()
    found, said = _resumed_then_stopped(data, key)
    assert said[0]
    assert hashes(path.parent) == before, "put back as first found, before the session that did not wait"


@pytest.mark.parametrize("name", ["bit_flip_in_an_entry", "page_of_early_entries_garbled"])
def test_an_unclean_game_damaged_in_its_file_is_put_back_with_its_wal_and_without_a_shm(tmp_path, key, name):
    """After a power cut: the file and its WAL, no shared memory. The checks before the resume read the game in
    place and make a -shm for it; the put-back leaves none, as found."""
    data = tmp_path / "data"
    path = data / "games" / "g.db"
    path.parent.mkdir(parents=True)
    unclean_game(path, key, ops=60, in_wal=3)  # the early entries' pages are not in the WAL: damage there shows
    hidden_damage(path, name)
    set_current(data, path)
    games = path.parent
    before = hashes(games)
    assert not path.with_name("g.db-shm").exists() and path.with_name("g.db-wal").exists()
    found, said = _resumed_then_stopped(data, key)
    assert found.game is not None and said[0], said
    assert hashes(games) == before
