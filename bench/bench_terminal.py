"""Tap-to-feedback latency of the state machine (issue 14, "reader event -> beep: keep"), printed, not asserted.

For each of N rents (default 1 000; alternating payers, two streets owned), the taps a family makes are handed to
the terminal as the simulated reader's ``CardPresented`` events (the title deed, then the payer's card, and a
confirming tap when the screen asks for one); the time from the reader event of the tap that commits to the moment
the beeper is asked to play ``success`` is measured, wall and CPU (the operation is committed to a game file on
disk with WAL and synchronous=FULL before the beep). Baseline, interleaved in blocks of 50 in the same run and
the same directory: a bare sqlite3 INSERT + COMMIT with the same pragmas.

Rows (bench/report.py): the tap's p99 against the 50 ms target, its median against the bare commit's median (the
Python cost of a tap beside what the disk costs), CPU ms per tap (multiply by 8-15 for a Pi Zero 2 or Pi 3).

    .venv/bin/python bench/bench_terminal.py [--ops N] [--dir DIR]

Files go to a temporary directory under ``--dir`` (default: this script's folder, i.e. the project's disk; the
system temp dir may be a tmpfs, where fsync costs nothing), removed at the end.
"""
from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from measure import TimingBeeper, filesystem_of, percentile  # noqa: E402  (this folder, as for every bench script)
from report import Row, emit  # noqa: E402

from cards.registry import CardRegistry, DeedCard, PlayerCard  # noqa: E402
from hal.interfaces import CardPresented  # noqa: E402
from terminal.bank.game import Game  # noqa: E402
from terminal.table.machine import Terminal  # noqa: E402
from terminal.table.settings import TerminalSettings  # noqa: E402

BENCH = "terminal"
TAP_P99_MS = 50.0
BLOCK = 50


class Table:
    """A two-player game on disk with a terminal, and the taps of one rent."""

    PAYERS = (("AA000002", "DD000025"), ("AA000001", "DD000027"))  # Bob pays on 37, Ann on 39

    def __init__(self, folder: Path) -> None:
        self.game = Game.create(folder / "bench.db", "fr", ["Ann", "Bob"], key=bytes(32))
        self.game.buy("Ann", 37)
        self.game.buy("Bob", 39)
        self.clock = [0.0]
        registry = CardRegistry(None, {"AA000001": PlayerCard(1), "AA000002": PlayerCard(2),
                                       "DD000025": DeedCard(37), "DD000027": DeedCard(39)})
        self.beeper = TimingBeeper()
        self.terminal = Terminal(self.game, registry, self.beeper, lambda: self.clock[0], TerminalSettings())
        self.done = 0

    def tap(self, uid: str) -> tuple[float, float] | None:
        """Hand one tap to the terminal; (wall s, CPU s) to the success beep when this tap committed."""
        self.clock[0] += 2
        self.beeper.success_at = None
        start, cpu = time.perf_counter(), time.process_time()
        self.terminal.handle(CardPresented(uid))
        if self.beeper.success_at is None:
            return None
        return self.beeper.success_at - start, time.process_time() - cpu

    def one_rent(self) -> tuple[float, float]:
        payer, deed = self.PAYERS[self.done % 2]
        entries = self.game.ledger.last_entry()
        for uid in (deed, payer, payer):  # the third tap only when the screen asks to confirm
            timing = self.tap(uid)
            if timing is not None:
                break
        else:
            raise RuntimeError(f"no success beep after a rent's taps: {self.terminal.view.message}")
        if self.game.ledger.last_entry() == entries:
            raise RuntimeError("the success beep came without a commit")
        self.done += 1
        if self.done % 50 == 0:  # keep both players solvent
            self.game.bank_pays("Ann", 2000)
            self.game.bank_pays("Bob", 2000)
        return timing


def bare_commits(conn: sqlite3.Connection, count: int, start: int) -> list[float]:
    out = []
    for i in range(start, start + count):
        t = time.perf_counter()
        conn.execute("BEGIN")
        conn.execute("INSERT INTO t(payload) VALUES (?)", (f"op {i}",))
        conn.execute("COMMIT")
        out.append(time.perf_counter() - t)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=1000, help="rents to time (default 1 000)")
    parser.add_argument("--dir", type=Path, default=Path(__file__).resolve().parent,
                        help="where the temporary game files go (default: the project's disk)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="bench-terminal-") as tmp_name:
        tmp = Path(tmp_name)
        table = Table(tmp)
        conn = sqlite3.connect(tmp / "bare.db", isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT)")
        walls: list[float] = []
        cpus: list[float] = []
        bare: list[float] = []
        while len(walls) < args.ops:  # interleaved blocks: the same disk weather for both
            for _ in range(min(BLOCK, args.ops - len(walls))):
                wall, cpu = table.one_rent()
                walls.append(wall)
                cpus.append(cpu)
            bare += bare_commits(conn, BLOCK, len(bare))
        conn.close()
        table.game.close()
        where = filesystem_of(tmp)
    ms = 1000.0
    p99, median = percentile(walls, 0.99) * ms, statistics.median(walls) * ms
    bare_median = statistics.median(bare) * ms
    bare_p99 = percentile(bare, 0.99) * ms
    note = (f"{args.ops} rents, synchronous=FULL, files on {where}; median {median:.2f} ms, max "
            f"{max(walls) * ms:.2f} ms; bare commit median {bare_median:.2f} ms, p99 {bare_p99:.2f} ms")
    emit(Row(BENCH, "reader event -> success beep, p99", f"{p99:.2f} ms", f"< {TAP_P99_MS:g} ms",
             p99 / TAP_P99_MS, p99 < TAP_P99_MS, note,
             baseline=f"the bare commit (sqlite3, the same row, synchronous=FULL), interleaved: p99 {bare_p99:.2f} ms",
             fails="the terminal's work around its commit grows (the state machine, the screen's view), or a "
                   "second flush comes on the path"))
    emit(Row(BENCH, "tap median / bare commit median (interleaved)", f"{median:.2f} / {bare_median:.2f} ms",
             "", median / bare_median if bare_median else None, None,
             "for information: a tap's work beside the disk's; issue 14 measured 0.8-2.9x"))
    emit(Row(BENCH, "CPU per committing tap", f"{statistics.median(cpus) * ms:.3f} ms",
             "", None, None, f"median; p99 {percentile(cpus, 0.99) * ms:.3f} ms; x8-15 on a Pi Zero 2 / Pi 3"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
