"""The full audit streams the journal: what it holds does not grow with the game (the background audit of a
50 000-operation game on a Pi Zero 2 W, 512 MB, is bench/bench_audit.py's figure). Python's allocations are
traced (``tracemalloc``): SQLite's own page cache is bounded by its cache size and is not in."""
from __future__ import annotations

import tracemalloc

from terminal.bank.game import Game


def _game(path, key, ops: int) -> Game:
    game = Game.create(path, "fr", ["Ann", "Bob"], key=key)
    with game.batch():
        for i in range(ops):
            game.pass_go(("Ann", "Bob")[i % 2])
    game.undo()  # an undo: its target is read back from the file, as recorded
    game.pass_go("Ann")
    return game


def _peak_of_audit(game: Game) -> int:
    tracemalloc.start()
    try:
        report = game.audit()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report.ok, report.problems
    return peak


def test_the_audits_memory_does_not_grow_with_the_game(tmp_path, key):
    short, long = _game(tmp_path / "short.db", key, 300), _game(tmp_path / "long.db", key, 6000)
    try:
        _peak_of_audit(short)  # the rules and editions loaded once
        small, large = _peak_of_audit(short), _peak_of_audit(long)
    finally:
        short.close()
        long.close()
    # 20 times the entries: a few bytes per entry at most (one byte is kept per entry replayed); the effects of
    # every entry, as kept before, were about 1 kB each
    assert large - small < 6000 * 20, (small, large)


def test_an_undo_of_an_entry_that_is_not_an_operation_is_reported(tmp_path, key):
    """The undo's target must be an entry the audit replayed: one naming an entry beyond is reported."""
    game = _game(tmp_path / "g.db", key, 5)
    try:
        conn = game.ledger.db.conn
        seq = conn.execute("SELECT MAX(seq) FROM journal WHERE kind = 'undo'").fetchone()[0]
        conn.execute("PRAGMA foreign_keys = OFF")  # an edit outside the terminal
        triggers = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")]
        for name in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute("UPDATE journal SET undoes = ? WHERE seq = ?", (seq + 5, seq))
        report = game.audit()
        assert not report.ok and any(f"undoes #{seq + 5}" in p for p in report.problems), report.problems
    finally:
        game.close()
