"""The background audit's memory and time (the device's judgment of a resumed game: SQLite's quick check, then
every entry replayed, in a process of its own: ``python -m terminal.bank.audit``), at 10 000 and 50 000 operations.

Each figure is taken in a fresh interpreter that runs only the worker's checks (``terminal.bank.audit._checks``,
what ``python -m terminal.bank.audit`` runs), and reads its own peak resident memory from ``/proc/self/status``
(``VmHWM`` after ``exec``: what this process touched, never a parent's peak, which ``ru_maxrss`` of a child
carries over on Linux). Its baseline is the same interpreter's memory once the modules are imported and the game
opened (``VmRSS`` before the checks): what the audit itself adds is the difference.

Targets: the peak at most 80 MiB at 50 000 operations (a Pi Zero 2 W has 512 MB for everything), and growing at
most 10 % from 10 000 to 50 000 operations (the entries are streamed: nothing is kept per entry). Time: the wall
and CPU time of the checks; on a Pi, estimated as the CPU time times 4 (Pi 4) and 10 (Zero 2 W), the factors the
README gives.

    .venv/bin/python bench/bench_audit.py [--lengths 10000,50000] [--rounds N] [--dir DIR]
"""
from __future__ import annotations

import argparse
import json
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_ledger import build, load  # noqa: E402  (this folder, as for every bench script)
from report import Row, emit  # noqa: E402

BENCH = "audit"
PEAK_MIB = 80.0
GROWTH = 1.10
PI_FACTORS = {"Pi 4": 4, "Pi Zero 2 W": 10}

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
def status(name):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(name + ":"):
                return int(line.split()[1])  # KiB
from terminal.bank.audit import _checks
from terminal.bank.ledger.journal import Ledger
key = bytes.fromhex(sys.stdin.readline().strip())
Ledger.open(sys.argv[2], key, read_only=True, copy=False).discard()  # the modules a check needs, loaded
before = status("VmRSS")
t, c = time.perf_counter(), time.process_time()
messages = list(_checks(__import__("pathlib").Path(sys.argv[2]), key))
seconds, cpu = time.perf_counter() - t, time.process_time() - c
print(json.dumps({"messages": messages, "seconds": seconds, "cpu": cpu, "before_kib": before,
                  "peak_kib": status("VmHWM")}))
"""


def audit_once(path: Path, key: bytes) -> dict[str, Any]:
    done = subprocess.run(["nice", "-n", "0", sys.executable, "-c", CHILD, str(ROOT), str(path)],
                          input=key.hex() + "\n", capture_output=True, text=True, check=True)
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    full = [m for m in out["messages"] if m.get("stage") == "full"]
    if not full or not full[0].get("ok"):
        raise RuntimeError(f"the audit did not pass: {out['messages']}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="10000,50000", help="the games' lengths (the first is the baseline)")
    parser.add_argument("--rounds", type=int, default=3, help="audits of each game, alternating")
    parser.add_argument("--dir", type=Path, default=Path(__file__).resolve().parent)
    args = parser.parse_args(argv)
    lengths = [int(n) for n in args.lengths.split(",")]
    key = secrets.token_bytes(32)
    with tempfile.TemporaryDirectory(prefix="bench-audit-", dir=args.dir) as tmp_name:
        tmp = Path(tmp_name)
        print(f"Banquier audit benchmark; {load()}", flush=True)
        games = {}
        for n in lengths:
            folder = tmp / f"g-{n}"
            folder.mkdir()
            t = time.perf_counter()
            games[n] = build(folder / "g.db", key, n)
            print(f"  built {n} operations in {time.perf_counter() - t:.1f} s", flush=True)
        runs: dict[int, list[dict[str, Any]]] = {n: [] for n in lengths}
        for _ in range(args.rounds):  # alternating: the same machine weather for every length
            for n in lengths:
                runs[n].append(audit_once(games[n], key))
    mib = 1 / 1024
    peak = {n: max(r["peak_kib"] for r in runs[n]) * mib for n in lengths}
    base = {n: statistics.median(r["before_kib"] for r in runs[n]) * mib for n in lengths}
    cpu = {n: statistics.median(r["cpu"] for r in runs[n]) for n in lengths}
    wall = {n: statistics.median(r["seconds"] for r in runs[n]) for n in lengths}
    first, last = lengths[0], lengths[-1]
    where = f"{args.rounds} audits each, fresh interpreter each, VmHWM; {load()}"
    emit(Row(BENCH, f"background audit peak memory, {last} ops", f"{peak[last]:.1f} MiB", f"<= {PEAK_MIB:g} MiB",
             peak[last] / PEAK_MIB, peak[last] <= PEAK_MIB, where,
             baseline=f"the same interpreter before the checks (modules loaded, game opened): {base[last]:.1f} MiB",
             fails="the audit keeps what grows with the game (every entry's effects, every posting)"))
    growth = peak[last] / peak[first]
    emit(Row(BENCH, f"audit peak memory, {last} / {first} ops", f"{peak[last]:.1f} / {peak[first]:.1f} MiB",
             f"<= {GROWTH:g}x", growth / GROWTH, growth <= GROWTH, f"ratio: growth / {GROWTH:g}; {where}",
             baseline=f"the same audit of the {first}-operation game, interleaved",
             fails="the audit's memory follows the game's length"))
    for n in lengths:
        pi = ", ".join(f"{name} ~{cpu[n] * f:.1f} s" for name, f in PI_FACTORS.items())
        emit(Row(BENCH, f"audit time, {n} ops", f"{wall[n]:.2f} s wall, {cpu[n]:.2f} s CPU", "", None, None,
                 f"for information: Pi estimate (CPU x4 / x10): {pi}; the table plays meanwhile; {where}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
