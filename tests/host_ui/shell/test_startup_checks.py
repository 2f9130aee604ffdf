"""Issue 11, points 4 and 5: start-up verifies what it resumes and stays quick; acknowledged entries never
silently disappear.

- Before the first payment: SQLite's quick_check and the keyed hash chain from the keyed checkpoint to the
  end (and the projection against the last entry). The full audit runs in a separate process; if it fails,
  payments stop at once.
- The mirror of acknowledged entries (in the backups folder) mends a game file whose WAL lost its last frames.
"""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from host_ui.shell.backup import backup_due
from host_ui.shell.startup import mirror_of, resume_at_startup
from terminal.bank.game import Game
from terminal.bank.ledger.chain import CHECKPOINT_EVERY
from terminal.errors import AuditFailed, LedgerError
from tests.host_ui.shell.damage import OTHER_KEY, edit_entry_in_wal, edit_keeping_triggers, play, unclean_game
from tests.host_ui.shell.helpers import hashes
from tests.unclean import abandon

WAL_HEADER, FRAME_HEADER, PAGE = 32, 24, 4096


def test_an_edit_since_the_checkpoint_is_refused_before_the_first_payment(tmp_path, key):
    path = unclean_game(tmp_path / "g.db", key, ops=12, in_wal=8)
    edit_entry_in_wal(path, 9)
    before = hashes(tmp_path)
    with pytest.raises(AuditFailed, match="#9"):
        Game.open(path, key=key, background=True)
    assert hashes(tmp_path) == before


def test_an_older_edit_stops_payments_once_the_background_audit_finds_it(tmp_path, key):
    """A clean close moved the checkpoint to the end: the edit is older, so start-up resumes (quickly) and the
    full audit, in its own process, stops payments."""
    with Game.create(tmp_path / "g.db", "fr", ["Ann", "Bob"], key=key) as game:
        play(game, 6)
    edit_keeping_triggers(tmp_path / "g.db", "UPDATE postings SET amount = amount * 3 WHERE seq = 2")  # behind
    # the checkpoint, the triggers put back: what start-up's quick checks cannot see
    game = Game.open(tmp_path / "g.db", key=key, background=True)
    try:
        assert game.ledger.guard.wait_verdict(60) is not None and game.ledger.guard.full is False
        with pytest.raises(AuditFailed, match="Payments are stopped"):
            game.pass_go("Ann")
        with pytest.raises(AuditFailed):
            game.pass_go("Bob")
    finally:
        game.close()
    with sqlite3.connect(tmp_path / "g.db") as conn:
        assert conn.execute("SELECT MAX(seq) FROM journal").fetchone()[0] == 7  # nothing more written


def test_a_passed_background_audit_moves_the_checkpoint(tmp_path, key):
    with Game.create(tmp_path / "g.db", "fr", ["Ann", "Bob"], key=key) as game:
        play(game, 3)
    game = Game.open(tmp_path / "g.db", key=key, background=True)
    assert game.ledger.guard.wait_verdict(60) is not None and game.ledger.guard.full is True
    game.pass_go("Ann")
    game.close()
    with sqlite3.connect(tmp_path / "g.db") as conn:
        assert conn.execute("SELECT seq FROM checkpoint").fetchone()[0] == 5


def test_the_checkpoint_follows_the_game(tmp_path, key):
    """While the game is played the checkpoint moves every CHECKPOINT_EVERY entries, so an unclean stop leaves
    at most that many entries to verify at the next start."""
    path = tmp_path / "g.db"
    game = Game.create(path, "fr", ["Ann", "Bob"], key=key)
    play(game, CHECKPOINT_EVERY * 2 + 5)
    with sqlite3.connect(path) as conn:
        seq = conn.execute("SELECT seq FROM checkpoint").fetchone()[0]
    abandon(game)  # an unclean stop
    assert CHECKPOINT_EVERY * 2 <= seq <= CHECKPOINT_EVERY * 2 + 6
    with Game.open(path, key=key, background=True) as again:
        assert again.ledger.was_unclean and again.ledger.checkpoint.verified[0] == CHECKPOINT_EVERY * 2 + 6


def test_an_edited_checkpoint_is_refused(tmp_path, key):
    with Game.create(tmp_path / "g.db", "fr", ["Ann", "Bob"], key=key) as game:
        play(game, 3)
    with sqlite3.connect(tmp_path / "g.db") as conn:
        conn.execute("UPDATE checkpoint SET seq = 2")
    with pytest.raises(AuditFailed, match="last verified entry"):
        Game.open(tmp_path / "g.db", key=key)


def test_a_damaged_index_is_found_by_sqlites_check_and_the_file_is_put_back_as_found(tmp_path, key):
    """SQLite's check of a resumed game: on opening to read; in this process before the first payment with
    ``background=False`` (as before issue 21); beside play for the terminal, which pays at once meanwhile and,
    once the check fails, stops payments and puts every file back as found (issue 21, points 4 and 8)."""
    games = tmp_path / "games"
    path = games / "g.db"
    with Game.create(path, "fr", ["Ann", "Bob"], key=key) as game:
        play(game, 60)
    with sqlite3.connect(path) as conn:
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'postings_account'").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    start = (root - 1) * PAGE
    data[start + 8:start + 200] = bytes(range(192))
    path.write_bytes(bytes(data))
    before = hashes(games)
    with pytest.raises(LedgerError, match="SQLite's check"):
        Game.open(path, key=key, read_only=True)  # a reader (audit, export) checks on opening
    assert hashes(games) == before
    mirror = tmp_path / "backups" / "g.mirror"
    game = Game.open(path, key=key, mirror=mirror)  # the terminal: judged beside play
    try:
        assert game.pass_go("Ann").seq == 62, "the first payment does not wait for the check"
        assert game.ledger.guard.wait_verdict(60) is not None and game.ledger.guard.quick is False
        assert "SQLite's check" in game.payments_stopped() and game.judged is False
        with pytest.raises(LedgerError, match="Payments are stopped"):
            game.pass_go("Bob")
    finally:
        game.close()
    assert hashes(games) == before, "put back as found: the file, no WAL, no shared memory"
    assert [json.loads(line)["seq"] for line in mirror.read_text().splitlines()] == [62]  # acknowledged, kept
    game = Game.open(path, key=key, background=False)  # as before issue 21: checked before the first payment
    try:
        with pytest.raises(LedgerError, match="Payments are stopped"):
            game.pass_go("Ann")
    finally:
        game.close()
    with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as conn:
        assert conn.execute("SELECT MAX(seq) FROM journal").fetchone()[0] == 61  # nothing written
    conn.close()


def _image_while_open(game: Game, target: Path) -> None:
    """The files as a power cut leaves them: the game file and its WAL, copied while the game is open."""
    shutil.copyfile(game.path, target)
    shutil.copyfile(game.path.with_name(game.path.name + "-wal"), target.with_name(target.name + "-wal"))


def _damage_wal_frame(wal: Path, frame: int) -> None:
    data = bytearray(wal.read_bytes())
    at = WAL_HEADER + frame * (FRAME_HEADER + PAGE) + FRAME_HEADER + 100
    data[at] ^= 0xFF
    wal.write_bytes(bytes(data))


def _frames(wal: Path) -> int:
    return (wal.stat().st_size - WAL_HEADER) // (FRAME_HEADER + PAGE)


def test_entries_lost_with_a_damaged_wal_frame_are_written_back_from_the_mirror(tmp_path, key):
    backups = tmp_path / "backups"
    games = tmp_path / "games"
    games.mkdir()
    game = Game.create(games / "live.db", "fr", ["Ann", "Bob"], key=key, mirror=mirror_of(games / "live.db", backups))
    game.ledger.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    game.ledger.db.execute("PRAGMA wal_autocheckpoint = 0")
    play(game, 12)
    cash = game.state()["cash"]
    path = games / "sunday.db"
    _image_while_open(game, path)
    abandon(game)
    shutil.copyfile(mirror_of(games / "live.db", backups), mirror_of(path, backups))
    wal = path.with_name(path.name + "-wal")
    _damage_wal_frame(wal, _frames(wal) // 2)
    # Without the mirror the end of the game is silently gone: that is the fault mended here.
    with Game.open(path, key=key, read_only=True) as short:
        lost = 13 - short.ledger.last_entry()[0]
    assert lost > 0
    with Game.open(path, key=key, mirror=mirror_of(path, backups)) as resumed:
        assert resumed.restored == lost and resumed.ledger.last_entry()[0] == 13
        assert resumed.state()["cash"] == cash
        resumed.pass_go("Ann")
    with Game.open(path, key=key, check="full") as again:
        assert again.ledger.last_entry()[0] == 14


def test_a_mirror_that_does_not_follow_from_the_file_is_refused(tmp_path, key):
    backups = tmp_path / "backups"
    other = Game.create(tmp_path / "other.db", "fr", ["Ann", "Bob"], key=OTHER_KEY,
                        mirror=backups / "g.mirror")
    play(other, 5)
    other.close()
    with Game.create(tmp_path / "g.db", "fr", ["Ann", "Bob"], key=key) as game:
        play(game, 2)
    before = hashes(tmp_path / "g.db")
    with pytest.raises(AuditFailed, match="acknowledged"):
        Game.open(tmp_path / "g.db", key=key, mirror=backups / "g.mirror")
    assert hashes(tmp_path / "g.db") == before


def test_a_torn_last_mirror_line_is_ignored(tmp_path, key):
    mirror = tmp_path / "g.mirror"
    with Game.create(tmp_path / "g.db", "fr", ["Ann", "Bob"], key=key, mirror=mirror) as game:
        play(game, 3)
    with open(mirror, "ab") as f:
        f.write(b'{"seq": 5, "kind": "op"')  # a power cut while the line was written
    with Game.open(tmp_path / "g.db", key=key, mirror=mirror) as game:
        assert game.restored == 0 and game.ledger.last_entry()[0] == 4


def test_backups_cost_the_same_per_operation_whatever_the_games_length():
    """Full copies at doubling intervals (with the mirror holding every acknowledged entry in between): the
    copies' total size stays within a constant times the game's length."""
    for length in (100, 1_000, 10_000, 100_000):
        last, copied = None, 0
        for seq in range(1, length + 1):
            if backup_due(seq, last, 20):
                copied += seq  # a copy costs the size of the game at that moment
                last = seq
        assert copied / length < 4, (length, copied / length)


def test_start_up_resumes_with_the_background_audit(tmp_path, key):
    from host_ui.shell.manage import set_current
    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    with Game.create(data / "games" / "g.db", "fr", ["Ann", "Bob"], key=key,
                     mirror=mirror_of(data / "games" / "g.db", tmp_path / "b")) as game:
        play(game, 2)
    set_current(data, data / "games" / "g.db")
    found = resume_at_startup(data, key, backups=tmp_path / "b")
    try:
        assert found.game is not None and found.problem is None
        assert found.game.ledger.guard is not None and found.game.ledger.mirror == tmp_path / "b" / "g.mirror"
        found.game.pass_go("Ann")
    finally:
        found.game.close()
    assert len((tmp_path / "b" / "g.mirror").read_text().splitlines()) == 4  # the setup entry too


@pytest.mark.parametrize("statement", [
    "UPDATE journal SET op = replace(op, 'Ann', 'Bob') WHERE seq = {seq}",
    "UPDATE postings SET amount = amount * 3 WHERE seq = {seq}",
])
def test_an_edit_made_while_the_game_is_played_keeps_the_checkpoint_behind_it(tmp_path, key, statement):
    """The checkpoint moves only over entries still stored as they were written: an entry edited behind the
    terminal's back during play (another program, the triggers dropped and put back) is still verified at the
    next start, which refuses the game before its first payment."""
    path = tmp_path / "g.db"
    game = Game.create(path, "fr", ["Ann", "Bob"], key=key)
    play(game, CHECKPOINT_EVERY + 4)  # the checkpoint moved once
    moved = game.ledger.checkpoint.stored
    assert moved > 0
    edited = moved + 3 if (moved + 3) % 2 == 0 else moved + 2  # one of Ann's GO salaries, after the checkpoint
    edit_keeping_triggers(path, statement.format(seq=edited))
    play(game, CHECKPOINT_EVERY * 2)  # it would have moved twice more
    game.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT seq FROM checkpoint").fetchone()[0] == moved, "it stays before the edit"
    conn.close()
    with pytest.raises(AuditFailed, match=f"#{edited}"):
        Game.open(path, key=key, background=True)


def test_the_checkpoint_moves_over_the_entries_written_since_it(tmp_path, key):
    path = tmp_path / "g.db"
    game = Game.create(path, "fr", ["Ann", "Bob"], key=key)
    play(game, CHECKPOINT_EVERY * 3)
    stored = game.ledger.checkpoint.stored
    assert CHECKPOINT_EVERY * 2 < stored <= CHECKPOINT_EVERY * 3 + 1
    game.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT seq FROM checkpoint").fetchone()[0] == CHECKPOINT_EVERY * 3 + 1
    conn.close()
    with Game.open(path, key=key, background=True) as again:
        assert again.ledger.checkpoint.verified[0] == CHECKPOINT_EVERY * 3 + 1


def test_with_no_game_to_resume_start_up_names_each_unreadable_game_file_and_keeps_it(tmp_path, key, caplog):
    """No current marker and no game that opens: start-up resumes nothing and names the file it could not open
    (from the one reading of the games folder that chose no game), leaving it as it is."""
    games = tmp_path / "games"
    games.mkdir()
    (games / "torn.db").write_bytes(b"not a game")
    before = hashes(tmp_path)
    with caplog.at_level("WARNING", logger="banquier"):
        found = resume_at_startup(tmp_path, key)
    assert found.game is None and found.path is None and found.problem is None
    named = [r.getMessage() for r in caplog.records if "not resumed" in r.getMessage()]
    assert len(named) == 1 and "torn.db" in named[0]
    assert "`banquier games restore torn`" in caplog.text
    assert hashes(tmp_path) == before
