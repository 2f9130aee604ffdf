"""Game files in the states the storage tests need: cleanly closed, stopped uncleanly with entries still in
the WAL (an image of the files taken while the game was open, as a power cut leaves them), edited, signed by
another key, a backup in rollback-journal mode."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from terminal.bank.game import Game

OTHER_KEY = bytes(range(100, 132))


def play(game: Game, n: int) -> None:
    """``n`` operations that always succeed (GO salaries, alternating players)."""
    players = game.players
    for i in range(n):
        game.pass_go(players[i % len(players)])


def clean_game(path: Path, key: bytes, ops: int = 6) -> Path:
    game = Game.create(path, "fr", ["Ann", "Bob"], key=key)
    play(game, ops)
    game.close()
    return path


def unclean_game(path: Path, key: bytes, ops: int = 6, in_wal: int = 4) -> Path:
    """A game whose last ``in_wal`` entries are only in its WAL, as left by a power cut (no ``-shm``)."""
    building = path.with_name("building-" + path.name)
    game = Game.create(building, "fr", ["Ann", "Bob"], key=key)
    play(game, ops - in_wal)
    game.ledger.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    game.ledger.db.execute("PRAGMA wal_autocheckpoint = 0")
    play(game, in_wal)
    shutil.copyfile(building, path)
    shutil.copyfile(building.with_name(building.name + "-wal"), path.with_name(path.name + "-wal"))
    game.ledger.db.close()
    for leftover in building.parent.glob(building.name + "*"):
        leftover.unlink()
    return path


def edit_entry_in_wal(path: Path, seq: int) -> None:
    """Change the amount of entry ``seq`` behind the Bank's back, on a copy of the files, so the WAL stays
    (the edit lands in the WAL; the result has no ``-shm``)."""
    work = path.with_name("edit-" + path.name)
    shutil.copyfile(path, work)
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        shutil.copyfile(wal, work.with_name(work.name + "-wal"))
    conn = sqlite3.connect(work)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("DROP TRIGGER postings_append_only_update")
    conn.execute("UPDATE postings SET amount = amount * 2 WHERE seq = ?", [seq])
    conn.commit()
    shutil.copyfile(work, path)
    shutil.copyfile(work.with_name(work.name + "-wal"), wal)
    conn.close()
    for leftover in work.parent.glob(work.name + "*"):
        leftover.unlink()


def rollback_backup(path: Path, key: bytes) -> Path:
    """A game as a backup stores it: self-contained, rollback-journal mode, session marked open."""
    clean_game(path, key)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE session SET open = 1")
    conn.commit()
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    return path
