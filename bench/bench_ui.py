#!/usr/bin/env python3
"""Benchmark of the simulator at 800x480: time from start to the first frame without compiled bytecode, CPU
per second while idle and while a demo replays, resident memory.

    python bench/bench_ui.py [--seconds 3] [--repeats 3] [--window] [--log LOG] [--speed 20]

* Start-up: ``--repeats`` fresh processes, each ``PYTHONDONTWRITEBYTECODE=1`` in a fresh ``git clone`` of this
  checkout's last commit (no ``__pycache__`` anywhere in Banquier's code; the virtual environment's packages
  keep theirs), running what ``banquier sim`` runs (the CLI module, then the simulator, creating a game in an
  empty data folder) until its first frame is drawn. Timed from just before the process is started (so the
  interpreter's own start is in), with the process's CPU time beside it. Interleaved with it, the baseline: a
  bare pygame process opening the same window and drawing one frame.
* Idle: the simulator, in this process, after its first frame, for ``--seconds``; interleaved with the
  baseline of the old loop's sleep (a window doing nothing but ``pygame.event.wait``).

The idle target is for a real window: with ``--window`` (it needs DISPLAY), or by default when there is a
DISPLAY, or when ``xvfb-run`` is installed (the script then runs itself under it). ``--dummy`` uses SDL's dummy
driver, which has no real wait (SDL looks for events every millisecond there, as on KMS/DRM): its idle figure
is printed without a target.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from report import Row, emit  # noqa: E402  (this folder, as for every bench script)

BENCH = "ui"
WINDOW = (800 + 430, 600)  # the simulator's window at 800x480 (screen and tray)

#: The child that times the simulator's first frame: what `banquier sim` runs, on an empty data folder.
SIM_CHILD = """
import json, os, resource, sys, time
sys.path.insert(0, os.getcwd())
import host_ui.cli  # what the `banquier` command loads first
from host_ui.sim import run_sim
def first(app):
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"at": time.monotonic(), "cpu": usage.ru_utime + usage.ru_stime}), flush=True)
    app.running = False
run_sim(None, headless=sys.argv[1] == "dummy", size=(800, 480), data_dir=sys.argv[2], audio=False,
        max_seconds=5, on_start=first)
"""

#: The baseline child: pygame alone, the same window, one frame.
BARE_CHILD = """
import json, os, resource, sys, time
import pygame
pygame.display.init()
pygame.font.init()
window = pygame.display.set_mode((int(sys.argv[1]), int(sys.argv[2])))
window.fill((30, 30, 30))
pygame.display.flip()
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"at": time.monotonic(), "cpu": usage.ru_utime + usage.ru_stime}), flush=True)
"""


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


def fresh_checkout(into: Path) -> tuple[Path, str]:
    """A copy of Banquier's code with no compiled bytecode: a ``git clone`` of the last commit, or (no git) a
    copy of the files without ``__pycache__``. Returns the folder and how it was made."""
    target = into / "clone"
    try:
        subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(target)], check=True,
                       capture_output=True, timeout=120)
        head = subprocess.run(["git", "-C", str(target), "rev-parse", "--short", "HEAD"], check=True,
                              capture_output=True, text=True).stdout.strip()
        how = f"fresh git clone of {head}"
    except (OSError, subprocess.SubprocessError):
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns("__pycache__", ".venv", ".git", "*.pyc"))
        how = "copy without __pycache__ (no git)"
    left = list(target.rglob("__pycache__"))
    if left:
        raise RuntimeError(f"compiled bytecode in the fresh checkout: {left[0]}")
    return target, how


def first_frame(code: str, cwd: Path, args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds from just before the start to the first frame, the child's CPU seconds by then)."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"no first frame (exit {done.returncode}): {done.stderr.strip()[-500:]}")
    got = json.loads(lines[0])
    return got["at"] - start, got["cpu"]


def startup(repeats: int, driver: str, tmp: Path) -> None:
    clone, how = fresh_checkout(tmp)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYGAME_HIDE_SUPPORT_PROMPT": "1",
           "SDL_AUDIODRIVER": "dummy", "BANQUIER_KEY_FILE": str(tmp / "startup.key")}
    env.pop("PYTHONPATH", None)
    if driver == "dummy":
        env["SDL_VIDEODRIVER"] = "dummy"
    sims, bares = [], []
    for i in range(repeats):  # interleaved: simulator, bare pygame, simulator, ...
        sims.append(first_frame(SIM_CHILD, clone, [driver, str(tmp / f"start-{i}")], env))
        bares.append(first_frame(BARE_CHILD, clone, [str(WINDOW[0]), str(WINDOW[1])], env))
    if list(clone.rglob("__pycache__")):
        raise RuntimeError("the simulator wrote bytecode although PYTHONDONTWRITEBYTECODE=1")
    walls, cpus = [w for w, _ in sims], [c for _, c in sims]
    bare = statistics.median(w for w, _ in bares)
    wall = statistics.median(walls)
    emit(Row(BENCH, f"simulator first frame, no bytecode ({driver})", f"{wall * 1000:.0f} ms", "< 1000 ms",
             round(wall / 1.0, 2), wall < 1.0,
             f"min/median/max {min(walls) * 1000:.0f}/{wall * 1000:.0f}/{max(walls) * 1000:.0f} ms over {repeats} "
             f"processes, CPU {statistics.median(cpus) * 1000:.0f} ms median; from process start, {how}, "
             f"PYTHONDONTWRITEBYTECODE=1; bare pygame window in the same run {bare * 1000:.0f} ms "
             f"(x{wall / bare:.1f}); load {os.getloadavg()[0]:.2f}",
             baseline=f"a bare pygame process opening the same window and drawing one frame, interleaved process by "
                      f"process: {bare * 1000:.0f} ms",
             fails="the simulator imports or builds more before its first frame (a second behind the bare window is "
                   "the margin)"))


def idle_baseline(seconds: float) -> tuple[float, float]:
    """CPU per second of the same window open and drawn once, idle: (its process asleep, woken twice a second to
    take its events: the floor of an idle window; the old loop's ``pygame.event.wait(500)``, for information:
    pygame waits for an event by looking every millisecond, on X11 as on the dummy driver, about 2.5 % of a core
    on this PC). Each for half of ``seconds``."""
    import pygame
    pygame.display.init()
    pygame.display.set_mode(WINDOW)
    pygame.display.flip()
    wall0, cpu0 = time.monotonic(), cpu()
    while time.monotonic() - wall0 < seconds / 2:
        time.sleep(0.5)
        pygame.event.get()
    floor = (cpu() - cpu0) / (time.monotonic() - wall0)
    wall0, cpu0 = time.monotonic(), cpu()
    while time.monotonic() - wall0 < seconds / 2:
        pygame.event.wait(500)
        pygame.event.get()
    old = (cpu() - cpu0) / (time.monotonic() - wall0)
    pygame.display.quit()
    return floor, old


def device_idle(window: bool, seconds: float, tmp: Path) -> tuple[float, float]:
    """(CPU per second of ``banquier run``'s loop, reader polls per second) with an MFRC522 (the emulated chip
    in real time, the real mfrc522 package) watching an empty field from its thread, no beeper, no buttons."""
    import host_ui.screen.app as app_module
    from hal.mfrc522_reader import Mfrc522Reader
    from host_ui.device import run_device
    from host_ui.shell.config import load_config
    from tests.fakes.fake_gpio import FakeGPIO
    from tests.fakes.fake_mfrc522 import FakeMFRC522
    from tests.fakes.fake_spidev import FakeSpiBus
    from tests.fakes.install import installed

    data = tmp / f"device-{time.monotonic_ns()}"
    config_file = tmp / "device.toml"
    config_file.write_text(
        '[hardware.reader]\nbackend = "mfrc522"\n[hardware.beeper]\nbackend = "none"\n[hardware.buttons]\n'
        f'backend = "none"\n[storage]\ndata_dir = "{data}"\nkey_file = "{tmp / "device.key"}"\n'
        '[logging]\nlevel = "warning"\n', encoding="utf-8")
    gpio = FakeGPIO()
    chip = FakeMFRC522(clock=time.perf_counter)
    gpio.watch(22, chip.reset_pin_changed)
    span: dict[str, float] = {}
    readers: list[Mfrc522Reader] = []
    run = app_module.TerminalApp.run
    scans = Mfrc522Reader.poll

    def timed_run(self: app_module.TerminalApp, until: object = lambda: False) -> None:
        self.draw_if_needed(time.monotonic(), force=True)  # the first frame, then the idle loop
        span["cpu0"], span["wall0"] = cpu(), time.monotonic()
        try:
            run(self, until)  # type: ignore[arg-type]
        finally:
            span["cpu1"], span["wall1"] = cpu(), time.monotonic()

    def counted(self: Mfrc522Reader) -> list[object]:
        if self not in readers:
            readers.append(self)
        return scans(self)  # type: ignore[return-value]
    app_module.TerminalApp.run = timed_run  # type: ignore[method-assign]
    Mfrc522Reader.poll = counted  # type: ignore[assignment,method-assign]
    try:
        with installed(gpio=gpio, spi=FakeSpiBus({(0, 0): chip})):
            code = run_device(load_config(config_file, env={}), headless=not window, max_seconds=seconds + 0.5)
    finally:
        app_module.TerminalApp.run = run  # type: ignore[method-assign]
        Mfrc522Reader.poll = scans  # type: ignore[method-assign]
    if code != 0 or "cpu1" not in span:
        raise RuntimeError(f"banquier run stopped with exit code {code}")
    wall = span["wall1"] - span["wall0"]
    return (span["cpu1"] - span["cpu0"]) / wall, sum(r.scans for r in readers) / wall


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one idle block")
    parser.add_argument("--repeats", type=int, default=3, help="start-up processes and idle blocks")
    parser.add_argument("--log", default=str(ROOT / "tests" / "table_logs" / "us-end-classic.jsonl"))
    parser.add_argument("--speed", type=float, default=20.0, help="demo speed (table seconds per second)")
    parser.add_argument("--window", action="store_true", help="a real window (needs DISPLAY)")
    parser.add_argument("--dummy", action="store_true", help="SDL's dummy driver (no window)")
    parser.add_argument("--no-startup", action="store_true", help="skip the start-up processes")
    args = parser.parse_args(argv)
    if not args.window and not args.dummy:
        if os.environ.get("DISPLAY"):
            args.window = True
        elif shutil.which("xvfb-run"):  # a real X window on a virtual screen
            own = [sys.executable, str(Path(__file__).resolve()), "--window", *(argv or sys.argv[1:])]
            return subprocess.run(["xvfb-run", "-a", *own], check=False).returncode
    if not args.window:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    driver = "x11 window" if args.window else "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    tmp = Path(tempfile.mkdtemp(prefix="banquier-bench-ui-"))
    os.environ["BANQUIER_KEY_FILE"] = str(tmp / "device.key")
    print(f"simulator 800x480, SDL driver {driver}; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}, {os.cpu_count()} CPUs", flush=True)
    try:
        if not args.no_startup:
            startup(args.repeats, "window" if args.window else "dummy", tmp)

        import host_ui.screen.app as app_module
        from host_ui.sim import run_sim

        first: dict[str, float] = {}
        last: dict[str, float] = {}

        def on_start(app: app_module.TerminalApp) -> None:
            """From the first frame to the end of the last turn of the loop (not the closing that follows)."""
            first["cpu"], first["wall"] = cpu(), time.monotonic()
            step = app.step

            def timed_step(timeout_s: float = 0.0) -> None:
                step(timeout_s)
                last["cpu"], last["wall"] = cpu(), time.monotonic()
            app.step = timed_step  # type: ignore[method-assign]

        idle, baseline = [], []
        for i in range(args.repeats):  # interleaved: simulator idle, bare window idle, ...
            first.clear()
            sim_code = run_sim(None, headless=not args.window, size=(800, 480), data_dir=tmp / f"idle-{i}",
                    max_seconds=args.seconds, audio=False, on_start=on_start)
            if "cpu" not in first or "cpu" not in last:
                raise RuntimeError(f"the simulator stopped before its first frame (exit code {sim_code})")
            idle.append((last["cpu"] - first["cpu"]) / (last["wall"] - first["wall"]))
            baseline.append(idle_baseline(args.seconds))
        rss_idle = rss_mb()
        med = statistics.median(idle)
        base = statistics.median(f for f, _ in baseline)
        old_wait = statistics.median(o for _, o in baseline)
        window = args.window  # the target is for a real window; the dummy driver polls every millisecond
        floor = (f"the same window open, its process asleep and woken twice a second for its events, interleaved "
                 f"block by block: {base * 100:.2f} % (the old loop's pygame.event.wait(500), which looks every "
                 f"millisecond: {old_wait * 100:.2f} %)")
        emit(Row(BENCH, f"idle simulator CPU ({driver})", f"{med * 100:.2f} %", "< 3 % core" if window else "",
                 round(med / 0.03, 2) if window else None, med < 0.03 if window else None,
                 f"min/median/max {min(idle) * 100:.2f}/{med * 100:.2f}/{max(idle) * 100:.2f} % over "
                 f"{args.repeats} blocks of {args.seconds:g} s after the first frame"
                 + (f"; x{med / base:.0f} the floor" if base > 0 else ""), baseline=floor,
                 fails="the idle loop wakes or draws more (3 % of a core: about what waking every millisecond costs "
                       "here)" if window else ""))

        device = [device_idle(args.window, args.seconds, tmp) for _ in range(args.repeats)]
        loads = [c for c, _ in device]
        dmed = statistics.median(loads)
        emit(Row(BENCH, f"idle `banquier run` CPU, MFRC522 ({driver})", f"{dmed * 100:.2f} %",
                 "< 3 % core" if window else "", round(dmed / 0.03, 2) if window else None,
                 dmed < 0.03 if window else None,
                 f"min/median/max {min(loads) * 100:.2f}/{dmed * 100:.2f}/{max(loads) * 100:.2f} % over "
                 f"{args.repeats} runs of {args.seconds:g} s; the reader's thread polling an empty field at "
                 f"{statistics.median(r for _, r in device):.0f} Hz (the emulated chip's CPU included); no beeper "
                 f"or buttons", baseline=floor,
                 fails="the loop or the reader's thread wakes or works more while nothing happens" if window else ""))

        demo_cpu0, demo_t0 = cpu(), time.monotonic()
        code = run_sim(args.log, headless=not args.window, speed=args.speed, size=(800, 480), data_dir=tmp / "demo",
                       audio=False)
        demo_wall, demo_cpu = time.monotonic() - demo_t0, cpu() - demo_cpu0
        emit(Row(BENCH, f"demo CPU per second (x{args.speed:g}, {driver})", f"{demo_cpu / demo_wall * 100:.1f} %",
                 note=f"{Path(args.log).name} over {demo_wall:.1f} s, exit code {code}"))
        emit(Row(BENCH, "resident memory", f"{rss_mb():.1f} MiB", note=f"after idle: {rss_idle:.1f} MiB"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
