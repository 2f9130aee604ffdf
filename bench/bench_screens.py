#!/usr/bin/env python3
"""Benchmark of the screens and the export at every length of game (issue 14, points 5, 6 and 8).

    .venv/bin/python bench/bench_screens.py [--lengths 100,1000,10000,50000] [--rounds 5] [--dir DIR]

For games of 100, 1 000, 10 000 and 50 000 operations:

- history, first page: the banker opens the history (the view built by the state machine, then drawn at
  800x480 as the screen does), wall and CPU milliseconds; target <= 50 ms;
- history, scroll: a page up (drawn again), target <= 50 ms;
- net-worth chart, first draw: the end-of-game screen drawn by a new renderer (the chart's points read from the
  game and its summary), target <= 50 ms: after the games' clean close, and after an unclean stop (a power
  cut, ``kill -9``) of a game played with the terminal's upkeep after each operation (``Game.maintain``, what
  its tick calls: the summary kept as the game goes); for information, the same without the summary (a file
  from before it: the points counted from the whole journal), and how many ticks, and milliseconds each, the
  upkeep takes to catch such a file up, and what it costs a tick with nothing to do;
- resident memory: the peak (VmHWM) of a fresh process that opens the game, draws the history and the
  end-of-game screen, and nothing else; target <= 80 MiB;
- export: ``banquier export --format table-log``, ``csv`` and ``json`` in a fresh process each: the command's
  time (the full audit it runs first included) and that of its writing alone, and the peak memory; per
  operation beyond the shortest game's time (the fixed cost), the 50 000 / 10 000 ratio (linear: ~1; target
  <= 1.3).

The games are built once (synthetic play through ``Game``: GO salaries, rents, transfers, houses built and
sold, mortgages and their lifting, undos, the play clock's entries of a time-limited game; the game is ended
by its last operation) afresh on every run, in a folder of the run under the data folder (default ``out/bench``
of the checkout: the project's disk, never the system's temp dir; ignored by git and left out of the install),
removed at the end (``--keep-games``: kept between runs instead, for development; rebuilt when ``GENERATOR``
changes); building is not timed. Each round's screens are drawn on a fresh copy of the built game, never
opened since its last clean close and out of the page cache (``posix_fadvise``): the first draw the table
sees after a restart, not a file the benchmark has opened before. Every timed figure is the
min / median / max of ``--rounds`` rounds, the lengths interleaved in each round so a busy moment of the
machine weighs on every length alike. Figures print through ``bench/report.py``.
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from measure import cpu, filesystem_of  # noqa: E402
from report import Row, emit  # noqa: E402

BENCH = "screens"
PLAYERS = ("Alice", "Bob", "Charlie", "Diana")
GENERATOR = 2  # bump when the synthetic play changes: the cached games are built again
LIMIT_MS = 50.0
LIMIT_MIB = 80.0
LINEAR = 1.3
STREAM_MIB = 5.0  # what streaming the export may add to the memory of the open game


# -- the games ---------------------------------------------------------------------------------------------
def key_of(folder: Path) -> Path:
    path = folder / "screens.key"
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        path.write_bytes(secrets.token_bytes(32))
        path.chmod(0o600)
    return path


def build_game(path: Path, operations: int, key: bytes, ticking: bool = False) -> None:
    """A game of ``operations`` journal entries (setup and the final end of the game included), played through
    :class:`terminal.Game`; durability is turned off while it is built (building is not what is measured).
    ``ticking``: the terminal's upkeep (:meth:`terminal.Game.maintain`, what its tick calls) after each
    operation, and the game left without a clean close at the end (a power cut, ``kill -9``)."""
    from terminal.bank.game import Game
    from terminal.bank.operations import PlayTime
    from terminal.errors import GameError
    building = path.with_name(path.name + ".building")
    for leftover in path.parent.glob(building.name + "*"):
        leftover.unlink()
    a, b, c, d = PLAYERS
    game = Game.create(building, "us", PLAYERS, mode="time_limit", key=key,
                       dealt={a: [1, 3], b: [6, 8], c: [5, 15], d: [11, 12]})
    game.ledger.db.execute("PRAGMA synchronous = OFF")
    game.buy(b, 9)
    rent_on = {a: 3, b: 6, c: 5, d: 11}
    houses = 0
    mortgaged = False
    step = 0

    def entries() -> int:
        last = game.ledger.last_entry()
        return last[0] if last else 0
    try:
        while entries() < operations - 1:
            if ticking:
                game.maintain()
            step += 1
            p = PLAYERS[step % 4]
            q = PLAYERS[(step + 1) % 4]
            kind = step % 10
            try:
                poorest = min(PLAYERS, key=game.cash)
                if game.cash(poorest) < 1500:  # everyone stays solvent: no debt piles up
                    game.bank_pays(poorest, 1000)
                elif kind in (0, 5):
                    game.pass_go(p)
                elif kind in (1, 6):
                    game.pay_rent(q, rent_on[p])
                elif kind == 2:
                    game.transfer(p, q, 10 + step % 90)
                elif kind == 3:
                    if houses < 4:
                        game.build(a, 1)
                        game.build(a, 3)
                        houses += 1
                    else:
                        game.sell_building(a, 1)
                        game.sell_building(a, 3)
                        houses = 0
                elif kind == 4:
                    if mortgaged:
                        game.unmortgage(c, 15)
                    else:
                        game.mortgage(c, 15)
                    mortgaged = not mortgaged
                elif kind == 7:
                    game.pay_bank(p, 25)
                elif kind == 8:
                    game.bank_pays(p, 25)
                elif step % 50 == 9:
                    game.undo()
                elif step % 20 == 19:
                    game.apply(PlayTime(60))  # the play clock's entry, every minute
                else:
                    game.pass_go(q)
            except GameError:
                game.pass_go(p)
        game.end_game()
        if ticking:
            game.maintain()
    finally:
        if ticking:
            abandon(game)
        else:
            game.close()
    for suffix in ("-wal", "-shm", ""):
        if Path(str(building) + suffix).exists():
            Path(str(building) + suffix).rename(str(path) + suffix)


def abandon(game: Any) -> None:
    """Leave ``game`` as a process that dies does: its connection dropped without a clean close (the file stays
    marked in use, its WAL as it is) and its play lock released (as the dead process's kernel would)."""
    ledger = game.ledger
    ledger.db.close()
    if ledger.play_lock is not None:
        os.close(ledger.play_lock)
        ledger.play_lock = None


def copy_game(path: Path, to: Path) -> Path:
    """A copy of a game file with its WAL (one left by an unclean stop), under a new name, flushed and dropped
    from the page cache (its first read comes from the disk, as after a restart)."""
    for suffix in ("-wal", "-shm"):
        Path(str(to) + suffix).unlink(missing_ok=True)
    for suffix in ("", "-wal"):
        if Path(str(path) + suffix).exists():
            shutil.copyfile(str(path) + suffix, str(to) + suffix)
            fd = os.open(str(to) + suffix, os.O_RDONLY)
            try:
                os.fsync(fd)
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)
    return to


def game_file(folder: Path, operations: int, key: bytes, ticking: bool = False) -> Path:
    path = folder / f"screens-g{GENERATOR}-{operations}{'-ticked' if ticking else ''}.db"
    if not path.is_file():
        start = time.perf_counter()
        print(f"building a game of {operations} operations{' (ticking, left unclean)' if ticking else ''} in "
              f"{path} ...", flush=True)
        build_game(path, operations, key, ticking)
        print(f"  built in {time.perf_counter() - start:.1f} s (not timed)", flush=True)
    return path


# -- in-process figures --------------------------------------------------------------------------------------
class Screens:
    """One game open as the terminal has it, with the banker's history screen and the end-of-game screen."""

    def __init__(self, path: Path, key: bytes, folder: Path) -> None:
        from hal.sim_beeper import SimBeeper
        from host_ui.demo import FakeClock, make_registry
        from host_ui.screen.render import Renderer
        from terminal.bank.game import Game
        from terminal.table.machine import Terminal
        from terminal.table.settings import TerminalSettings
        self.game = Game.open(path, key=key)
        clock = FakeClock()
        self.terminal = Terminal(self.game, make_registry(4), SimBeeper(audio=False, clock=clock), clock,
                                 TerminalSettings(language="en", banker_pin="1234"))
        self.new_renderer: Callable[[], Any] = lambda: Renderer((800, 480), game=self.game)
        self.renderer = self.new_renderer()
        self.over_view = self.terminal.view

    def close(self) -> None:
        self.game.close()

    def history_first_page(self) -> None:
        self.terminal.choose("history")  # the end of the game's "History"
        self.renderer = self.new_renderer()
        frame = self.renderer.render(self.terminal.view, "")
        assert frame.texts_with("history_seq"), "the history drew no row"

    def history_scroll(self) -> None:
        self.renderer.ui_event(("page", -1))
        frame = self.renderer.render(self.terminal.view, "")
        assert frame.texts_with("history_seq"), "the history drew no row"

    def chart_first_draw(self) -> None:
        renderer = self.new_renderer()
        frame = renderer.render(self.over_view, "")
        assert frame.texts_with("chart_legend"), "the end-of-game screen drew no chart"

    def chart_without_summary(self) -> None:
        """The first draw of a game whose chart summary does not cover it (one grown since its last clean close,
        or a file from before the summary): the summary is dropped inside a transaction rolled back after."""
        db = self.game.ledger.db
        db.execute("BEGIN")
        try:
            db.execute("DROP TABLE IF EXISTS chart_summary")
            self.chart_first_draw()
        finally:
            db.execute("ROLLBACK")


def catch_up(path: Path, n: int, key: bytes, folder: Path, where: str) -> None:
    """How many ticks an old file without the chart's summary takes to catch up, and the milliseconds the
    upkeep adds to each tick (:meth:`terminal.Game.maintain`, what the terminal's tick calls), on a copy of the
    game with its summary dropped; then the cost of a tick's upkeep with nothing to do."""
    import sqlite3

    from terminal.bank.game import Game
    scratch = copy_game(path, folder / f"scratch-catch-up-{n}.db")
    try:
        conn = sqlite3.connect(scratch)
        conn.execute("DROP TABLE IF EXISTS chart_summary")
        conn.commit()
        conn.close()
        game = Game.open(scratch, key=key)
        try:
            if game.ledger.guard is not None:  # what the first payment does: the start-up check, then the upkeep
                game.ledger.guard.before_write(game.ledger)
            steps: list[tuple[float, float]] = []
            written = 0
            while True:
                c0, t0 = cpu(), time.perf_counter()
                rows = game.maintain()
                steps.append(((time.perf_counter() - t0) * 1000, (cpu() - c0) * 1000))
                if rows == 0:
                    break
                written += rows
            idle = [timed(game.maintain) for _ in range(200)]
        finally:
            game.close()
    finally:
        for suffix in ("", "-wal", "-shm"):
            Path(str(scratch) + suffix).unlink(missing_ok=True)
    work = steps[:-1] or steps
    walls = [w for w, _ in work]
    cpus = [c for _, c in work]
    emit(Row(BENCH, f"summary catch-up of an old file, {n} ops", f"{len(work) if written else 0} ticks, "
             f"{written} rows", "", None, None,
             f"ms per tick wall min/med/max {spread(walls)}, cpu {spread(cpus)}; total {sum(walls):.0f} ms over "
             f"{len(work) * 0.5:.0f} s of ticks (every 0.5 s); {where}"))
    idle_walls = [w * 1000 for w, _ in idle]
    emit(Row(BENCH, f"tick upkeep, nothing to do, {n} ops", f"{statistics.median(idle_walls):.0f} us", "", None,
             None, f"wall min/med/max {spread(idle_walls, 'us')} (one query of the last entry, one of the "
             f"summary's index)"))


def timed(action: Callable[[], object]) -> tuple[float, float]:
    """(wall ms, CPU ms) of one call."""
    c0, t0 = cpu(), time.perf_counter()
    action()
    return (time.perf_counter() - t0) * 1000, (cpu() - c0) * 1000


def spread(values: Sequence[float], unit: str = "ms") -> str:
    return f"{min(values):.1f}/{statistics.median(values):.1f}/{max(values):.1f} {unit}"


# -- fresh processes -----------------------------------------------------------------------------------------
RSS_CHILD = r"""
import json, os, sys
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[1] + "/bench")
from pathlib import Path
from bench_screens import Screens
s = Screens(Path(sys.argv[2]), Path(sys.argv[3]).read_bytes(), Path(sys.argv[2]).parent)
s.history_first_page(); s.history_scroll(); s.chart_first_draw()
s.close()
status = Path("/proc/self/status").read_text().splitlines()
print(json.dumps({k: int(v.split()[0]) for k, v in (l.split(":", 1) for l in status) if k in ("VmHWM", "VmRSS")}))
"""

EXPORT_CHILD = r"""
import json, os, resource, sys, time
sys.path.insert(0, sys.argv[1])
os.environ["BANQUIER_KEY_FILE"] = sys.argv[3]
import host_ui.cli as cli
import host_ui.shell.games as games
def hwm(name="VmHWM"):  # this process's own peak (ru_maxrss of a child carries its parent's peak on Linux)
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith(name + ":"))
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
opened = {}
original = games.open_game
def timed_open(*args, **kwargs):
    t, c = time.perf_counter(), cpu()
    if sys.argv[6] == "no-audit":  # to see the memory of the writing alone
        kwargs["check"] = "none"
    game = original(*args, **kwargs)
    opened.update(s=time.perf_counter() - t, cpu=cpu() - c,
                  peak_kib=hwm())
    return game
games.open_game = timed_open
t, c = time.perf_counter(), cpu()
code = cli.main(["export", sys.argv[2], "--format", sys.argv[4], "--output", sys.argv[5], "--force"])
seconds, used = time.perf_counter() - t, cpu() - c
print(json.dumps({"code": code, "seconds": seconds, "open_s": opened.get("s", 0.0), "cpu": used,
                  "open_cpu": opened.get("cpu", 0.0), "open_peak_kib": opened.get("peak_kib", 0),
                  "peak_kib": hwm()}))
"""


def child(script: str, *args: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run([sys.executable, "-c", script, str(ROOT), *args], capture_output=True, text=True,
                         env=env, check=False)
    if out.returncode != 0:
        raise SystemExit(f"bench_screens: a measuring process failed:\n{out.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def entries_of(path: Path) -> int:
    import sqlite3
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT MAX(seq) FROM journal").fetchone()[0])
    finally:
        conn.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="100,1000,10000,50000", help="game lengths, in operations")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the in-process figures")
    parser.add_argument("--export-rounds", type=int, default=3, help="rounds of the export figures")
    parser.add_argument("--dir", default=str(ROOT / "out" / "bench"), help="where the games are kept")
    parser.add_argument("--skip-export", action="store_true")
    parser.add_argument("--keep-games", action="store_true",
                        help="keep the built games between runs (development; the default builds them afresh)")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    top = Path(args.dir)
    top.mkdir(parents=True, exist_ok=True)
    if args.keep_games:
        return measure(args, top)
    folder = Path(tempfile.mkdtemp(prefix="screens-run-", dir=top))
    try:
        return measure(args, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def measure(args: argparse.Namespace, folder: Path) -> int:
    """Every figure, on the games built (or kept) in ``folder``."""
    key_path = key_of(folder)
    key = key_path.read_bytes()
    lengths = [int(x) for x in args.lengths.split(",") if x.strip()]
    games = {n: game_file(folder, n, key) for n in lengths}
    ticked = {n: game_file(folder, n, key, ticking=True) for n in lengths}
    load = os.getloadavg()
    where = f"data {filesystem_of(folder)}; load {load[0]:.2f}/{load[1]:.2f}/{load[2]:.2f}"
    print(f"bench_screens: {where}; {args.rounds} rounds, lengths interleaved")

    # in-process: each round opens a fresh copy of every game once, interleaved (never opened since it was built)
    kinds = ("history", "scroll", "chart", "chart_unclean", "chart_cold")
    figures: dict[str, dict[int, list[tuple[float, float]]]] = {k: {n: [] for n in lengths} for k in kinds}
    for _ in range(args.rounds):
        for n in lengths:
            fresh = copy_game(games[n], folder / f"fresh-{n}.db")
            try:
                screens = Screens(fresh, key, folder)
                try:
                    figures["chart"][n].append(timed(screens.chart_first_draw))
                    figures["chart_cold"][n].append(timed(screens.chart_without_summary))
                    figures["history"][n].append(timed(screens.history_first_page))
                    figures["scroll"][n].append(timed(screens.history_scroll))
                finally:
                    screens.close()
            finally:
                for suffix in ("", "-wal", "-shm"):
                    Path(str(fresh) + suffix).unlink(missing_ok=True)
            scratch = copy_game(ticked[n], folder / f"scratch-{n}.db")  # each round: just after the stop
            try:
                screens = Screens(scratch, key, folder)
                try:
                    figures["chart_unclean"][n].append(timed(screens.chart_first_draw))
                finally:
                    screens.close()
            finally:
                for suffix in ("", "-wal", "-shm"):
                    Path(str(scratch) + suffix).unlink(missing_ok=True)
    names = {"history": "history, first page", "scroll": "history, scroll a page",
             "chart": "net-worth chart, first draw",
             "chart_unclean": "chart, first draw after an unclean stop (summary kept by ticks)",
             "chart_cold": "chart, first draw, no summary"}
    for kind in kinds:
        for n in lengths:
            walls = [w for w, _ in figures[kind][n]]
            cpus = [c for _, c in figures[kind][n]]
            med = statistics.median(walls)
            note = (f"wall min/med/max {spread(walls)}; cpu {spread(cpus)}; 800x480; each round on a fresh copy of "
                    f"a game built this run (never opened since its clean close, out of the page cache); {where}")
            if kind == "chart_cold":  # an old file's first draw: for information, the ticks then catch it up
                emit(Row(BENCH, f"{names[kind]}, {n} ops", f"{med:.1f} ms (cpu {statistics.median(cpus):.1f})",
                         "", None, None, f"for information: a file from before the summary (or after a copy "
                         f"without it); the terminal's ticks catch it up (rows below); {note}"))
                continue
            if kind == "chart_unclean":
                note = ("played through Game with the terminal's upkeep after each operation, left without a "
                        f"clean close (WAL as left), reopened to play (its background audit running); {note}")
            shortest = [w for w, _ in figures[kind][lengths[0]]]
            emit(Row(BENCH, f"{names[kind]}, {n} ops", f"{med:.1f} ms (cpu {statistics.median(cpus):.1f})",
                     f"<= {LIMIT_MS:g} ms", med / LIMIT_MS, med <= LIMIT_MS, note,
                     baseline=f"the same on the {lengths[0]}-operation game, interleaved round by round: "
                              f"{spread(shortest)}",
                     fails="the screen reads or computes what grows with the game (or its drawing alone passes "
                           f"{LIMIT_MS:g} ms)"))
    for n in lengths:
        catch_up(games[n], n, key, folder, where)
    rss = {n: max(child(RSS_CHILD, str(games[n]), str(key_path))["VmHWM"] / 1024 for _ in range(2)) for n in lengths}
    for n in lengths:
        peak = rss[n]
        emit(Row(BENCH, f"RSS, history + chart, {n} ops", f"{peak:.1f} MiB", f"<= {LIMIT_MIB:g} MiB",
                 peak / LIMIT_MIB, peak <= LIMIT_MIB, "peak (VmHWM) of a fresh process doing only that, the higher "
                 "of two", baseline=f"the same on the {lengths[0]}-operation game: {rss[lengths[0]]:.1f} MiB",
                 fails="the screens hold what grows with the game (every entry, every point of the chart)"))
    if args.skip_export:
        return 0

    out_dir = folder / "export-out"
    out_dir.mkdir(exist_ok=True)
    for fmt in ("table-log", "csv", "json"):
        results: dict[int, list[dict[str, Any]]] = {n: [] for n in lengths}
        for _ in range(args.export_rounds):
            for n in lengths:
                r = child(EXPORT_CHILD, str(games[n]), str(key_path), fmt, str(out_dir / f"{n}.{fmt}"), "audit")
                if r["code"] != 0:
                    raise SystemExit(f"bench_screens: banquier export failed on {games[n]} (exit {r['code']})")
                results[n].append(r)
        # Per operation beyond the shortest game's time (its time is the command's fixed cost: start, header,
        # state), in CPU time: the machine is shared, and the CPU time of a process does not count its waits.
        base = min(lengths)
        ops = {n: entries_of(games[n]) for n in lengths}
        for n in lengths:
            for r in results[n]:
                r["write_s"], r["write_cpu"] = r["seconds"] - r["open_s"], r["cpu"] - r["open_cpu"]
        meds = {n: {k: statistics.median(r[k] for r in results[n]) for k in ("seconds", "write_s", "cpu", "write_cpu")}
               for n in lengths}
        beyond: dict[str, dict[int, float]] = {k: {} for k in ("seconds", "write_s", "cpu", "write_cpu")}
        for n in lengths:
            if n != base:
                for k in beyond:
                    beyond[k][n] = (meds[n][k] - meds[base][k]) * 1e6 / (ops[n] - ops[base])
            peak = max(r["peak_kib"] for r in results[n]) / 1024
            after_open = max(r["open_peak_kib"] for r in results[n]) / 1024
            total = [r["seconds"] * 1e3 for r in results[n]]
            write = [r["write_s"] * 1e3 for r in results[n]]
            emit(Row(BENCH, f"export {fmt}, {n} ops", f"{meds[n]['seconds']:.2f} s (cpu {meds[n]['cpu']:.2f})",
                     "", None, None,
                     f"command (audit included) min/med/max {spread(total)}; writing alone {spread(write)}, cpu "
                     f"{meds[n]['write_cpu'] * 1e3:.0f} ms; peak RSS {peak:.1f} MiB, {after_open:.1f} MiB once "
                     f"opened (the audit), so the writing added {peak - after_open:.1f} MiB"))
        big = max(lengths)
        no_audit = {n: child(EXPORT_CHILD, str(games[n]), str(key_path), fmt, str(out_dir / f"{n}.{fmt}"),
                          "no-audit")["peak_kib"] / 1024 for n in (base, big)}
        added = no_audit[big] - no_audit[base]
        emit(Row(BENCH, f"export {fmt} memory, {big} vs {base} ops", f"+{added:.1f} MiB", f"<= {STREAM_MIB:g} MiB",
                 added / STREAM_MIB, added <= STREAM_MIB, f"peak RSS of the command without its audit (opened "
                 f"with check='none'): {no_audit[big]:.1f} vs {no_audit[base]:.1f} MiB; the audit's is in the rows "
                 f"above", baseline=f"the same command on the {base}-operation game: {no_audit[base]:.1f} MiB",
                 fails="the export holds the game's entries instead of streaming them"))
        small = next((n for n in sorted(lengths) if 10000 <= n < big), None)
        if small is not None:
            for label, field, wall in (("command", "cpu", "seconds"), ("writing", "write_cpu", "write_s")):
                ratio = beyond[field][big] / beyond[field][small]
                emit(Row(BENCH, f"export {fmt} {label} cpu per op, {big // 1000}k/{small // 1000}k",
                         f"{ratio:.2f}x", f"<= {LINEAR:g}x", ratio, ratio <= LINEAR,
                         f"{beyond[field][big]:.1f} / {beyond[field][small]:.1f} us cpu per op beyond the {base}-op "
                         f"game's (its fixed cost), medians of {args.export_rounds}; wall "
                         f"{beyond[wall][big]:.1f} / {beyond[wall][small]:.1f} us; linear = 1",
                         baseline=f"the same per operation at {small} ops (beyond the {base}-op game's fixed cost): "
                                  f"{beyond[field][small]:.1f} us",
                         fails="the export's cost per operation grows with the game (a quadratic step)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
