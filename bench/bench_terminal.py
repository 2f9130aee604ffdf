"""Tap-to-feedback latency of the state machine (issue 5), printed, not asserted.

For each of N operations (default 1 000: rents, alternating payers) the confirmation is shown, then the
simulated reader's ``CardPresented`` event for the confirming tap is handed to the terminal; the time until
the beeper is asked to play ``success`` is measured (the operation is committed to a game file on disk with
synchronous=FULL before the beep). Beside it, in the same run and on the same disk: a bare sqlite3 INSERT +
COMMIT with WAL and synchronous=FULL.

Usage: python bench/bench_terminal.py [N]
"""
from __future__ import annotations

import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cards.registry import CardRegistry, DeedCard, PlayerCard
from hal.interfaces import CardPresented
from terminal.bank.game import Game
from terminal.table.machine import Terminal, TerminalSettings


class TimingBeeper:
    def __init__(self) -> None:
        self.success_at: float | None = None

    def play(self, pattern: str) -> bool:
        if pattern == "success":
            self.success_at = time.perf_counter()
        return True


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def main(n: int = 1000) -> None:
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        game = Game.create(tmp / "bench.db", "fr", ["Ann", "Bob"], key=bytes(32))
        game.buy("Ann", 37)
        game.buy("Bob", 39)
        clock = [0.0]
        registry = CardRegistry(None, {"AA000001": PlayerCard(1), "AA000002": PlayerCard(2),
                                       "DD000025": DeedCard(37), "DD000027": DeedCard(39)})
        beeper = TimingBeeper()
        terminal = Terminal(game, registry, beeper, lambda: clock[0], TerminalSettings())
        latencies: list[float] = []
        for i in range(n):
            payer, deed = (("AA000002", "DD000025") if i % 2 == 0 else ("AA000001", "DD000027"))
            for uid in (deed, payer):
                clock[0] += 2
                terminal.handle(CardPresented(uid))
            assert terminal.view.screen == "confirm", terminal.view.message
            clock[0] += 2
            beeper.success_at = None
            start = time.perf_counter()
            terminal.handle(CardPresented(payer))
            assert beeper.success_at is not None, terminal.view.message
            latencies.append(beeper.success_at - start)
            if i % 50 == 49:  # keep both players solvent
                game.bank_pays("Ann", 2000)
                game.bank_pays("Bob", 2000)
        game.close()

        conn = sqlite3.connect(tmp / "bare.db", isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)")
        bare = []
        for i in range(n):
            start = time.perf_counter()
            conn.execute("BEGIN")
            conn.execute("INSERT INTO t(payload) VALUES (?)", (f"op {i}",))
            conn.execute("COMMIT")
            bare.append(time.perf_counter() - start)
        conn.close()

    ms = 1000
    print(f"tap-to-feedback over {n} confirmed rents (synchronous=FULL, file on disk):")
    print(f"  median {statistics.median(latencies) * ms:.2f} ms   p99 {percentile(latencies, 0.99) * ms:.2f} ms   "
          f"max {max(latencies) * ms:.2f} ms   (target: p99 < 50 ms)")
    print("bare sqlite3 INSERT+COMMIT, same run and disk:")
    print(f"  median {statistics.median(bare) * ms:.2f} ms   p99 {percentile(bare, 0.99) * ms:.2f} ms")
    print(f"ratio of medians (terminal / bare commit): {statistics.median(latencies) / statistics.median(bare):.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
