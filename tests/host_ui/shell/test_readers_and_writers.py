"""Issue 11, point 7: readers and writers share the file safely. ``audit`` and ``export`` read one snapshot
while the table commits (no false alarm); a write waits out another connection's write lock within the busy
timeout instead of failing at once."""
from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from host_ui.shell.games import key_for_new_game
from terminal.bank.game import Game
from tests.host_ui.shell.helpers import banquier


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_a_payment_waits_for_another_writer_within_the_timeout(tmp_path, key):
    game = Game.create(tmp_path / "g.db", "fr", ["Ann", "Bob"], key=key)
    other = sqlite3.connect(tmp_path / "g.db", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    released = threading.Event()

    def release() -> None:
        time.sleep(1.0)
        other.execute("COMMIT")
        released.set()

    threading.Thread(target=release).start()
    start = time.monotonic()
    receipt = game.pass_go("Ann")
    waited = time.monotonic() - start
    assert released.is_set() and waited >= 0.9
    assert receipt.seq == 2 and game.cash("Ann") == 1700
    game.close()
    other.close()
    with Game.open(tmp_path / "g.db", key=key, check="full") as again:
        assert again.cash("Ann") == 1700


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_audit_and_export_while_the_table_commits_report_no_tampering(tmp_path):
    key = key_for_new_game()
    path = Path(os.environ["BANQUIER_DATA_DIR"]) / "g.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    Game.create(path, "fr", ["Ann", "Bob"], key=key).close()
    stop = threading.Event()
    written = []
    failures = []

    def table() -> None:
        try:
            with Game.open(path, key=key) as game:
                while not stop.is_set():
                    written.append(game.pass_go(("Ann", "Bob")[len(written) % 2]).seq)
        except Exception as exc:  # reported by the test below
            failures.append(exc)

    writer = threading.Thread(target=table)
    writer.start()
    try:
        results = []
        deadline = time.monotonic() + 20
        while len(results) < 6 and time.monotonic() < deadline:
            argv = ["audit", str(path)] if len(results) % 2 == 0 else ["export", str(path)]
            results.append((argv[0], banquier(*argv)))
    finally:
        stop.set()
        writer.join()
    assert not failures
    assert len(written) > 20  # the table really was committing meanwhile
    for command, result in results:
        assert result.returncode == 0, (command, result.stdout, result.stderr)
    with Game.open(path, key=key, check="full") as game:
        assert game.ledger.last_entry()[0] == written[-1]
