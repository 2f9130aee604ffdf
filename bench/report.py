"""The one table every benchmark prints: figure, measured, target, ratio, pass/fail, baseline, how it was measured
and what would make it fail.

Each ``bench/bench_*.py`` script builds :class:`Row` values and calls :func:`emit` for each: the row is printed
at once (one line, so a long run shows progress) and, when the environment variable ``BANQUIER_BENCH_ROWS``
names a file, appended to it as one JSON line. ``./dev.sh bench`` runs every script with that variable set and
ends with :func:`main`, which prints all the rows as one table, the count of targets met, and the judged rows
that lack a baseline or a failure condition (every judged row should state both).

A row compares a figure with its target. ``ratio`` is measured / target-or-baseline as the script defines it
(say which in ``note``); ``ok`` is None for a figure printed for information only (no target). Benchmarks print;
they never assert, and the tests never time.

    .venv/bin/python bench/report.py ROWS.jsonl      print the table of a finished run
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass(frozen=True)
class Row:
    """One figure of a benchmark.

    ``figure``: what is measured, with its conditions ("resume 10 000 ops, unclean / clean");
    ``measured`` and ``target``: human-readable values with units ("2.4 ms", "<= 1.5x");
    ``ratio``: the number the target is judged on (None when not a ratio); ``ok``: target met, or None when the
    row has no target; ``note``: how the figure was taken (min/median/max, runs, filesystem, the machine's load);
    ``baseline``: what it is compared with, measured in the same run (empty: told in ``note``); ``fails``: what
    would make it fail.
    """

    bench: str
    figure: str
    measured: str
    target: str = ""
    ratio: float | None = None
    ok: bool | None = None
    note: str = ""
    baseline: str = ""
    fails: str = ""


def _line(row: Row) -> str:
    verdict = {True: "pass", False: "FAIL", None: "-"}[row.ok]
    ratio = "" if row.ratio is None else f"{row.ratio:.2f}"
    tail = "; ".join(part for part in (f"baseline: {row.baseline}" if row.baseline else "", row.note,
                                       f"fails if: {row.fails}" if row.fails else "") if part)
    return f"{row.bench:<10} | {row.figure:<48} | {row.measured:<22} | {row.target:<12} | {ratio:>6} | {verdict:<6}" + (
        f" | {tail}" if tail else "")


HEADER = (f"{'bench':<10} | {'figure':<48} | {'measured':<22} | {'target':<12} | {'ratio':>6} | result | baseline; "
          f"how measured; fails if")


def emit(row: Row) -> None:
    """Print ``row`` as one table line and append it to ``$BANQUIER_BENCH_ROWS`` when that is set."""
    print(_line(row), flush=True)
    target = os.environ.get("BANQUIER_BENCH_ROWS")
    if target:
        with open(target, "a", encoding="utf-8") as out:
            out.write(json.dumps(asdict(row), ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    """Print the table of the rows in the file given (exit 0; exit 2 on a missing or unreadable file)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: bench/report.py ROWS.jsonl", file=sys.stderr)
        return 2
    try:
        lines = Path(args[0]).read_text(encoding="utf-8").splitlines()
        rows = [Row(**json.loads(line)) for line in lines if line.strip()]
    except (OSError, ValueError, TypeError) as exc:
        print(f"bench/report.py: cannot read {args[0]}: {exc}", file=sys.stderr)
        return 2
    print(HEADER)
    print("-" * len(HEADER))
    for row in rows:
        print(_line(row))
    judged = [row for row in rows if row.ok is not None]
    met = sum(1 for row in judged if row.ok)
    print(f"\n{met} of {len(judged)} targets met ({len(rows) - len(judged)} figures without a target)")
    bare = [f"{row.bench}: {row.figure}" for row in judged if not (row.baseline and row.fails)]
    if bare:
        print(f"{len(bare)} judged figures without a baseline or a failure condition: " + "; ".join(bare))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
