"""Rotating backups (host_ui/shell/backup.py): each backup is read back from its own file, opens as a game equal
to the original, rotation keeps the newest N, and a failure never rotates good backups away."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from host_ui.shell.backup import (
    BackupError,
    backup_due,
    backup_name,
    list_backups,
    rotate_backup,
)
from terminal.bank.game import Game
from terminal.errors import GameError, LedgerError
from tests.terminal.oracles import journal_of

TABLES = ("SELECT key, value FROM meta ORDER BY key", "SELECT * FROM journal ORDER BY seq",
          "SELECT * FROM postings ORDER BY seq, n", "SELECT * FROM projection")


def rows(path: Path) -> list[list[tuple]]:
    """Every table that matters, read through a fresh connection."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return [db.execute(query).fetchall() for query in TABLES]
    finally:
        db.close()


def play(game: Game, n: int) -> None:
    for i in range(n):
        game.pay_bank("Ann" if i % 2 else "Bob", 10)


def test_a_backup_opens_as_the_same_game(make_game, tmp_path, key):
    game = make_game()
    play(game, 5)
    game.buy("Ann", 1)
    backup = rotate_backup(game.path, tmp_path / "backups", keep=3)
    assert backup == tmp_path / "backups" / backup_name(game.path, 7)
    assert rows(backup) == rows(game.path)
    copy = Game.open(backup, key=key)
    try:
        assert copy.state() == game.state()
        assert journal_of(copy) == journal_of(game)
        assert copy.audit().ok
    finally:
        copy.close()


def test_the_game_goes_on_while_it_is_backed_up(make_game, tmp_path, key):
    game = make_game()
    session_before = sqlite3.connect(game.path).execute("SELECT open FROM session").fetchone()
    first = rotate_backup(game.path, tmp_path / "b", keep=5)
    play(game, 3)  # the read connection left no lock behind
    second = rotate_backup(game.path, tmp_path / "b", keep=5)
    assert sqlite3.connect(game.path).execute("SELECT open FROM session").fetchone() == session_before
    assert [p.name for p in list_backups(game.path, tmp_path / "b")] == [second.name, first.name]
    game.close()
    closed = rotate_backup(game.path, tmp_path / "b", keep=5)  # at shutdown, after close
    assert closed.name == second.name  # same seq: replaced, not duplicated
    with Game.open(closed, key=key) as copy, Game.open(game.path, key=key) as original:
        assert copy.state() == original.state()


def test_a_backup_is_one_self_contained_file(make_game, tmp_path):
    game = make_game()
    play(game, 2)
    backup = rotate_backup(game.path, tmp_path / "b", keep=2)
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == [backup.name]
    assert backup.read_bytes()[18:20] == b"\x01\x01"  # rollback journal, not WAL: no -wal file needed
    assert sqlite3.connect(backup).execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_rotation_keeps_the_newest(make_game, tmp_path):
    game = make_game()
    made = []
    for _ in range(6):
        play(game, 1)
        made.append(rotate_backup(game.path, tmp_path / "b", keep=3))
    kept = list_backups(game.path, tmp_path / "b")
    assert kept == made[:-4:-1]
    assert [p.name for p in kept] == [backup_name(game.path, s) for s in (7, 6, 5)]
    assert all(p.exists() for p in made[-3:]) and not any(p.exists() for p in made[:3])


def test_games_sharing_a_backup_directory_rotate_separately(make_game, tmp_path):
    a, b = make_game(), make_game()
    for _ in range(3):
        play(a, 1)
        play(b, 1)
        rotate_backup(a.path, tmp_path / "b", keep=1)
        rotate_backup(b.path, tmp_path / "b", keep=2)
    assert len(list_backups(a.path, tmp_path / "b")) == 1
    assert len(list_backups(b.path, tmp_path / "b")) == 2


def test_a_damaged_game_keeps_the_older_backups(make_game, tmp_path, key):
    game = make_game()
    play(game, 3)
    good = rotate_backup(game.path, tmp_path / "b", keep=1)
    good_rows = rows(good)
    path = game.path
    game.close()
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(2 * page, min(len(data), 5 * page)):  # scribble over b-tree pages
        data[offset] = 0xA5
    path.write_bytes(bytes(data))
    with pytest.raises(BackupError) as info:
        rotate_backup(path, tmp_path / "b", keep=1)
    assert isinstance(info.value, LedgerError) and isinstance(info.value, OSError)
    assert "older backups" in str(info.value)
    assert list_backups(path, tmp_path / "b") == [good]
    assert rows(good) == good_rows
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == [good.name]  # no temporary left


def test_a_file_that_is_not_a_game_is_refused(tmp_path):
    other = tmp_path / "notes.db"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE notes (text)")
    db.commit()
    db.close()
    with pytest.raises(BackupError, match="not a Banquier game"):
        rotate_backup(other, tmp_path / "b", keep=1)
    assert list((tmp_path / "b").iterdir()) == []


def test_a_missing_game_is_refused_and_not_created(tmp_path):
    with pytest.raises(BackupError, match="no game file"):
        rotate_backup(tmp_path / "nope.db", tmp_path / "b", keep=1)
    assert not (tmp_path / "nope.db").exists()


def test_an_unwritable_backup_directory_is_a_backup_error(make_game, tmp_path):
    game = make_game()
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(BackupError, match="Cannot create the backup directory"):
        rotate_backup(game.path, blocker / "b", keep=1)


@pytest.mark.parametrize("keep", [0, -1, 1001, True, 2.0])
def test_keep_out_of_range_is_refused(make_game, tmp_path, keep):
    game = make_game()
    with pytest.raises(ValueError):
        rotate_backup(game.path, tmp_path / "b", keep=keep)


def test_backup_due_counts_operations():
    assert backup_due(1, None, 20)
    assert not backup_due(10, 1, 20)
    assert backup_due(21, 1, 20)
    assert not backup_due(500, 1, 0)  # 0: only at shutdown


def test_errors_are_game_errors():
    assert issubclass(BackupError, GameError)


# -- backups beside the tap loop ------------------------------------------------------------------------------
def test_the_worker_backs_up_in_its_own_thread_while_the_game_goes_on(make_game, tmp_path, key, monkeypatch):
    import threading

    from host_ui.shell import backup as backup_module
    from host_ui.shell.backup import BackupWorker
    game = make_game()
    play(game, 4)
    copying, release = threading.Event(), threading.Event()
    real = backup_module.rotate_backup

    def slow_copy(path, folder, keep):  # a long game's copy: it goes on until released
        copying.set()
        assert threading.current_thread() is not threading.main_thread()
        release.wait(30)
        return real(path, folder, keep)
    monkeypatch.setattr(backup_module, "rotate_backup", slow_copy)
    results = []
    worker = BackupWorker()
    assert worker.start(game.path, tmp_path / "backups", 3, lambda written, exc: results.append((written, exc)))
    assert copying.wait(30) and worker.busy()
    assert not worker.start(game.path, tmp_path / "backups", 3, lambda *a: results.append(a)), "one at a time"
    play(game, 2)  # the table goes on meanwhile: the operations are committed
    release.set()
    assert worker.wait(30) and not worker.busy()
    [(written, exc)] = results
    assert exc is None and written.name == backup_name(game.path, 7)  # the setup, 4 operations, then 2 more
    with Game.open(written, key=key) as copy:
        assert copy.ledger.last_entry()[0] >= 5


def test_the_worker_reports_a_failed_backup(tmp_path):
    from host_ui.shell.backup import BackupWorker
    results = []
    worker = BackupWorker()
    assert worker.start(tmp_path / "nope.db", tmp_path / "backups", 3,
                        lambda written, exc: results.append((written, exc)))
    assert worker.wait(30)
    [(written, exc)] = results
    assert written is None and isinstance(exc, BackupError)
