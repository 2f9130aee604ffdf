#!/usr/bin/env python3
"""Benchmark of the simulator at 800x480: CPU time per second while idle and while a demo replays,
resident memory, and time from start to the first frame.

    python bench/bench_ui.py [--seconds 5] [--log tests/table_logs/us-end-classic.jsonl] [--speed 20]

Runs on SDL's dummy driver unless --window is given (then it needs DISPLAY, e.g. Xvfb :99).
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="idle measurement length")
    parser.add_argument("--log", default=str(ROOT / "tests" / "table_logs" / "us-end-classic.jsonl"))
    parser.add_argument("--speed", type=float, default=20.0, help="demo speed (table seconds per second)")
    parser.add_argument("--window", action="store_true")
    args = parser.parse_args(argv)
    if not args.window:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    tmp = Path(tempfile.mkdtemp(prefix="banquier-bench-"))
    os.environ["BANQUIER_KEY_FILE"] = str(tmp / "device.key")
    start = time.monotonic()

    # loaded late, after the SDL settings above and inside the time to the first frame (they load pygame)
    import host_ui.screen.app as app_module
    from host_ui.sim import run_sim

    first: dict[str, float] = {}
    original = app_module.TerminalApp.draw_if_needed

    def timed(self: app_module.TerminalApp, now: float, force: bool = False) -> bool:
        drew = original(self, now, force)
        if drew and "t" not in first:
            first["t"] = time.monotonic() - start
            first["cpu"], first["wall"] = cpu(), time.monotonic()
        return drew
    # the benchmark wraps the method to time the first frame
    app_module.TerminalApp.draw_if_needed = timed  # type: ignore[method-assign]

    cpu()
    time.monotonic()
    run_sim(None, headless=not args.window, size=(800, 480), data_dir=tmp / "idle", max_seconds=args.seconds,
            audio=False)
    idle_wall = time.monotonic() - first["wall"]
    idle_cpu = cpu() - first["cpu"]
    startup = first.get("t", float("nan"))
    rss_idle = rss_mb()

    demo_cpu0 = cpu()
    demo_t0 = time.monotonic()
    code = run_sim(args.log, headless=not args.window, speed=args.speed, size=(800, 480), data_dir=tmp / "demo",
                   audio=False)
    demo_wall = time.monotonic() - demo_t0
    demo_cpu = cpu() - demo_cpu0
    print(f"simulator 800x480, SDL driver {os.environ.get('SDL_VIDEODRIVER', 'default')}")
    print(f"start to first frame:      {startup * 1000:7.0f} ms (imports, game file, fonts included)")
    print(f"idle:  CPU per second      {idle_cpu / idle_wall * 1000:7.1f} ms/s over {idle_wall:.1f} s "
          f"after the first frame ({idle_cpu:.3f} s CPU)")
    print(f"demo:  CPU per second      {demo_cpu / demo_wall * 1000:7.1f} ms/s over {demo_wall:.1f} s "
          f"(speed x{args.speed:g}, exit code {code})")
    print(f"resident memory:           {rss_mb():7.1f} MB (after idle: {rss_idle:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
