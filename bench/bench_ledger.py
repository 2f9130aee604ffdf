"""Benchmark of the Bank's ledger (issue 2, Benchmark). Prints figures; asserts nothing.

    .venv/bin/python bench/bench_ledger.py [--dir DIR] [--ops N] [--opens N]

(a) Committed operations per second through ``Game.apply`` on a file on disk (WAL, synchronous=FULL), beside
    a bare sqlite3 loop of one INSERT + COMMIT per operation with the same pragmas, in the same run and the same
    directory. Target: ours within 3x of the bare loop.
(b) Time to ``Game.open`` a game of 100 operations and one of ~10 000 (the long recorded game) after a clean
    shutdown, median of several opens. Target: ratio <= 1.5.
(c) Replay of the long recorded game (``terminal.bank.tablelog.replay``, checks included): operations per second
    and peak resident memory (ru_maxrss of a process doing only that replay).
(d) Resuming as the terminal does at start-up (``Game.open(background=True, mirror=...)``: SQLite's check and the
    full audit in a separate process, the keyed chain from the checkpoint in-process) the ~10 000-operation game
    after a clean stop and after an unclean one (100 operations played since the last resume, the files copied
    while open, as a power cut leaves them), median of several. Targets: unclean <= 1.5 x clean; clean <= 1.5 x
    the clean resume before issue 11 (``--before`` names a checkout of that code to measure it in the same run).
(e) Backup cost per operation at 100, 1 000 and 10 000 operations, with ``backup_every = 20``: the time of every
    full copy the terminal makes while the game grows (host_ui.shell.backup: doubling intervals now; a copy every
    20 operations before), divided by the operations; and the mirror's cost per operation (a game with and
    without it).

Files go to a temporary directory under ``--dir`` (default: this script's folder, i.e. the project's disk;
the system temp dir may be a tmpfs, where fsync costs nothing), removed at the end. The key is throwaway.
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from terminal.bank.game import Game  # noqa: E402
from terminal.bank.tablelog import read_table_log  # noqa: E402

LONG_LOG = ROOT / "terminal" / "examples" / "recorded" / "long-us-greedy-4p-200.jsonl"

REPLAY_CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from terminal.bank.tablelog import read_table_log, replay
log = read_table_log(sys.argv[2])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
result = replay(log, sys.argv[3], key=bytes.fromhex(sys.argv[4]))
seconds = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"operations": result.operations, "refused": result.refused, "checks": result.checks,
                  "seconds": seconds, "rss_before_kib": before, "rss_peak_kib": peak}))
"""


def filesystem_of(path: Path) -> str:
    """The mount point and type holding ``path`` (from /proc/mounts, Linux only)."""
    best = ("?", "?")
    try:
        real = str(path.resolve())
        with open("/proc/mounts", encoding="utf-8") as f:
            for line in f:
                _, mount, fstype, *_ = line.split()
                if (real == mount or real.startswith(mount.rstrip("/") + "/")) and len(mount) >= len(best[0]):
                    best = (mount, fstype)
    except OSError:
        pass
    return f"{best[0]} ({best[1]})"


def accepted_ops(log_path: Path, count: int | None = None) -> list[dict[str, Any]]:
    """The first ``count`` operations of a table log that the log says are accepted."""
    ops = [line.data for line in read_table_log(log_path).lines
           if "op" in line.data and not line.data.get("refused")]
    return ops if count is None else ops[:count]


def new_game(path: Path, key: bytes) -> Game:
    header = read_table_log(LONG_LOG).header
    return Game.create(path, header["edition"], header["players"], rules=header.get("rules"), key=key)


# -- (a) committed operations per second ------------------------------------------------------------------
def ours(path: Path, key: bytes, ops: list[dict[str, Any]]) -> float:
    game = new_game(path, key)
    try:
        assert game.ledger.pragma("synchronous") == 2 and game.ledger.pragma("journal_mode") == "wal"
        start = time.perf_counter()
        for op in ops:
            game.apply(op)
        return len(ops) / (time.perf_counter() - start)
    finally:
        game.close()


def bare(path: Path, ops: list[dict[str, Any]]) -> float:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert conn.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal"
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)")
        payloads = [json.dumps(op) for op in ops]
        start = time.perf_counter()
        for payload in payloads:
            conn.execute("BEGIN")
            conn.execute("INSERT INTO t (payload) VALUES (?)", [payload])
            conn.execute("COMMIT")
        return len(ops) / (time.perf_counter() - start)
    finally:
        conn.close()


# -- (b) opening time ---------------------------------------------------------------------------------------
def open_times(path: Path, key: bytes, opens: int) -> list[float]:
    times = []
    for _ in range(opens):
        start = time.perf_counter()
        game = Game.open(path, key=key)
        times.append(time.perf_counter() - start)
        assert not game.ledger.was_unclean
        game.close()
    return times


# -- (d) resuming after a clean and an unclean stop -----------------------------------------------------------
RESUME_BEFORE_CHILD = r"""
import statistics, sys, time
sys.path.insert(0, sys.argv[1])
from terminal.bank.game import Game
times = []
for _ in range(2):  # warm the page cache and the edition loader, as (b) does
    Game.open(sys.argv[2], key=bytes.fromhex(sys.argv[3])).close()
for _ in range(int(sys.argv[4])):
    start = time.perf_counter()
    game = Game.open(sys.argv[2], key=bytes.fromhex(sys.argv[3]))
    times.append(time.perf_counter() - start)
    game.close()
print(statistics.median(times))
"""


def resume_times(path: Path, key: bytes, opens: int, image: tuple[Path, Path] | None = None) -> list[float]:
    """Resume as the terminal does; ``image``: (file, WAL) copied back before each resume (an unclean stop)."""
    from host_ui.shell.startup import mirror_of
    times = []
    for _ in range(opens):
        if image is not None:
            for leftover in path.parent.glob(path.name + "-*"):
                leftover.unlink()
            path.write_bytes(image[0].read_bytes())
            path.with_name(path.name + "-wal").write_bytes(image[1].read_bytes())
        start = time.perf_counter()
        game = Game.open(path, key=key, background=True, mirror=mirror_of(path, path.parent / "backups"))
        times.append(time.perf_counter() - start)
        assert game.ledger.was_unclean == (image is not None)
        game.ledger.guard.wait(120)
        game.close()
    return times


def bench_resume(tmp: Path, long_db: Path, key: bytes, opens: int, before: Path | None, rounds: int = 5) -> None:
    clean = tmp / "resume.db"
    clean.write_bytes(long_db.read_bytes())
    resume_times(clean, key, 2)
    # an unclean stop: 100 more operations, then the files as a power cut leaves them
    unclean = tmp / "unclean.db"
    unclean.write_bytes(long_db.read_bytes())
    game = Game.open(unclean, key=key)
    for i in range(100):
        game.pass_go(game.players[i % len(game.players)])
    image = (tmp / "image.db", tmp / "image.db-wal")
    image[0].write_bytes(unclean.read_bytes())
    image[1].write_bytes(unclean.with_name(unclean.name + "-wal").read_bytes())
    entries = game.ledger.last_entry()[0]
    game.ledger.db.close()
    if game.ledger.play_lock is not None:  # as a process that dies: its kernel drops the play lock
        os.close(game.ledger.play_lock)
        game.ledger.play_lock = None
    old = tmp / "before.db"
    old.write_bytes(long_db.read_bytes())
    clean_m, unclean_m, before_m = [], [], []
    for _ in range(rounds):  # alternating, so a busy moment of the machine weighs on each alike
        clean_m.append(statistics.median(resume_times(clean, key, opens)))
        unclean_m.append(statistics.median(resume_times(unclean, key, opens, image)))
        if before is not None:
            child = subprocess.run([sys.executable, "-c", RESUME_BEFORE_CHILD, str(before), str(old), key.hex(),
                                    str(opens)], capture_output=True, text=True, check=True)
            before_m.append(float(child.stdout))
    c, u = statistics.median(clean_m), statistics.median(unclean_m)
    print(f"\n(d) resuming a game of {entries} entries as the terminal does at start-up, median of {rounds} "
          f"alternating rounds of {opens}")
    print(f"    after a clean stop:   {c * 1000:7.2f} ms  (rounds: {', '.join(f'{x * 1000:.2f}' for x in clean_m)})")
    print(f"    after an unclean stop, 100 operations since the last resume ({image[1].stat().st_size // 1024} KiB "
          f"of WAL): {u * 1000:7.2f} ms  (rounds: {', '.join(f'{x * 1000:.2f}' for x in unclean_m)})")
    print(f"    ratio unclean/clean: {u / c:.2f}  (target <= 1.5: {'met' if u / c <= 1.5 else 'NOT met'})")
    if before_m:
        b = statistics.median(before_m)
        print(f"    the clean resume before issue 11 ({before}, Game.open in its own process): {b * 1000:7.2f} ms "
              f"(rounds: {', '.join(f'{x * 1000:.2f}' for x in before_m)}); ratio now/before: {c / b:.2f}  "
              f"(target <= 1.5: {'met' if c / b <= 1.5 else 'NOT met'})")


# -- (e) backup cost per operation --------------------------------------------------------------------------
def bench_backups(tmp: Path, key: bytes) -> None:
    from host_ui.shell.backup import backup_due, rotate_backup
    from host_ui.shell.startup import mirror_of
    every = 20
    ops = accepted_ops(LONG_LOG)
    warm = new_game(tmp / "warm.db", key)  # imports and page cache, before anything is timed
    rotate_backup(warm.path, tmp / "warm-backups", keep=1)
    warm.close()
    print(f"\n(e) backup cost per operation, backup_every = {every} (time of the full copies / operations)")
    for length in (100, 1_000, 10_000):
        row = []
        for policy in ("doubling (now)", "every 20 (before)"):
            folder = tmp / f"e-{length}-{policy.split()[0]}"
            folder.mkdir()
            game = new_game(folder / "g.db", key)
            last, spent, copies = None, 0.0, 0
            for i in range(length):
                if i < len(ops):
                    game.apply(ops[i])
                else:  # the recorded game is a little shorter than 10 000 operations: GO salaries after it
                    game.pass_go(game.players[i % len(game.players)])
                seq = game.ledger.last_entry()[0]
                if policy.startswith("every"):
                    due = last is None or seq - last >= every
                else:
                    due = backup_due(seq, last, every)
                if due:
                    start = time.perf_counter()
                    rotate_backup(game.path, folder / "backups", keep=3)
                    spent += time.perf_counter() - start
                    last, copies = seq, copies + 1
            game.close()
            row.append(f"{policy}: {spent / length * 1000:6.3f} ms/op ({copies} copies)")
        print(f"    {length:>6} operations: " + ";  ".join(row))
    # the mirror: the same operations with and without it
    n = 300
    measured: dict[str, list[float]] = {"without": [], "with": []}
    header = read_table_log(LONG_LOG).header
    for r in range(5):  # alternating rounds
        for label in ("without", "with"):
            path = tmp / f"mirror-{label}-{r}.db"
            game = Game.create(path, header["edition"], header["players"], rules=header.get("rules"), key=key,
                               mirror=mirror_of(path, tmp / "mirrors") if label == "with" else None)
            start = time.perf_counter()
            for op in ops[:n]:
                game.apply(op)
            measured[label].append((time.perf_counter() - start) / n)
            game.close()
    rates = {label: statistics.median(values) for label, values in measured.items()}
    print(f"    the mirror of acknowledged entries: {(rates['with'] - rates['without']) * 1000:.3f} ms/op "
          f"({rates['without'] * 1000:.2f} ms/op without it, {rates['with'] * 1000:.2f} with it), the same at "
          f"any length (one appended line, flushed)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path(__file__).resolve().parent,
                        help="where to put the temporary files (a real disk)")
    parser.add_argument("--ops", type=int, default=500, help="operations per throughput round (a)")
    parser.add_argument("--rounds", type=int, default=3, help="throughput rounds, alternating (a)")
    parser.add_argument("--opens", type=int, default=15, help="opens per game (b)")
    parser.add_argument("--only", default="abcde", help="which parts to run, e.g. 'de' (default: all)")
    parser.add_argument("--before", type=Path, help="(d) a checkout of the code before issue 11, to compare")
    args = parser.parse_args()
    key = secrets.token_bytes(32)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-ledger-", dir=args.dir) as tmp_name:
        tmp = Path(tmp_name)
        print(f"Banquier ledger benchmark — Python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}, "
              f"files in {tmp} on {filesystem_of(tmp)}")

        only = set(args.only)
        # (c) first, in its own process, so its peak memory is the replay's alone (the long game is used by
        # (b) and (d) too).
        long_db = tmp / "long.db"
        child = subprocess.run([sys.executable, "-c", REPLAY_CHILD, str(ROOT), str(LONG_LOG), str(long_db),
                                key.hex()], capture_output=True, text=True, check=True)
        replay = json.loads(child.stdout)

        if "d" in only:
            bench_resume(tmp, long_db, key, args.opens, args.before)
        if "e" in only:
            bench_backups(tmp, key)
        if not only & set("abc"):
            print(f"\ntotal {time.perf_counter() - t0:.1f} s")
            return 0

        # (a)
        ops = accepted_ops(LONG_LOG, args.ops)
        ours_rates, bare_rates = [], []
        for i in range(args.rounds):
            bare_rates.append(bare(tmp / f"bare-{i}.db", ops))
            ours_rates.append(ours(tmp / f"ours-{i}.db", key, ops))
        ours_rate, bare_rate = statistics.median(ours_rates), statistics.median(bare_rates)
        ratio_a = bare_rate / ours_rate
        print(f"\n(a) committed operations per second, {len(ops)} operations of the long game, "
              f"median of {args.rounds} alternating rounds")
        print(f"    Game.apply (WAL, synchronous=FULL):          {ours_rate:8.0f} op/s "
              f"({1000 / ours_rate:.2f} ms/op; rounds: {', '.join(f'{r:.0f}' for r in ours_rates)})")
        print(f"    bare sqlite3 INSERT+COMMIT (same pragmas):   {bare_rate:8.0f} op/s "
              f"({1000 / bare_rate:.2f} ms/op; rounds: {', '.join(f'{r:.0f}' for r in bare_rates)})")
        print(f"    ratio bare/ours: {ratio_a:.2f}x  (target <= 3x: {'met' if ratio_a <= 3 else 'NOT met'})")

        # (b)
        short_db = tmp / "short.db"
        game = new_game(short_db, key)
        for op in accepted_ops(LONG_LOG, 100):
            game.apply(op)
        game.close()
        with Game.open(long_db, key=key) as game:
            last = game.ledger.last_entry()
            assert last is not None, "the long game has entries"
            long_entries = last[0]
        open_times(short_db, key, 2)  # warm the page cache and the edition loader
        open_times(long_db, key, 2)
        short_times = open_times(short_db, key, args.opens)
        long_times = open_times(long_db, key, args.opens)
        short_open, long_open = statistics.median(short_times), statistics.median(long_times)
        ratio_b = long_open / short_open
        print(f"\n(b) Game.open after a clean shutdown, median of {args.opens} opens")
        print(f"    100 operations   ({short_db.stat().st_size / 1024:7.0f} KiB): {short_open * 1000:7.2f} ms")
        print(f"    {long_entries - 1} operations ({long_db.stat().st_size / 1024:7.0f} KiB): "
              f"{long_open * 1000:7.2f} ms")
        print(f"    ratio: {ratio_b:.2f}  (target <= 1.5: {'met' if ratio_b <= 1.5 else 'NOT met'})")
        start = time.perf_counter()
        with Game.open(long_db, key=key, check="full"):
            pass
        print(f"    for comparison, the full audit on opening the long game (check='full'): "
              f"{time.perf_counter() - start:.2f} s")

        # (c)
        rate = replay["operations"] / replay["seconds"]
        print(f"\n(c) replay of {LONG_LOG.name} (terminal.bank.tablelog.replay, checks included)")
        print(f"    {replay['operations']} operations ({replay['refused']} refused), {replay['checks']} checks "
              f"in {replay['seconds']:.2f} s: {rate:.0f} op/s")
        print(f"    peak resident memory of the replaying process: {replay['rss_peak_kib'] / 1024:.1f} MiB "
              f"(after imports, before the replay: {replay['rss_before_kib'] / 1024:.1f} MiB)")
    print(f"\ntotal {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
