"""Tap -> beep on the device's real path, on the PC and estimated for a Raspberry Pi with an SD card.

The path, as ``banquier run`` wires it (host_ui.device): a game resumed at start-up (``resume_at_startup``: its
mirror kept, its background audit started in a process of its own, the WAL and mirror as the device keeps them),
the card reader polled from its own thread (``hal.poller.ReaderThread`` over the simulated reader, whose field a
"hand" thread fills as a card is put down), the screen loop (``TerminalApp`` on SDL's dummy driver, which wakes
up every millisecond as on KMS/DRM: every frame drawn, the backups kept by ``BackupKeeper``), and the beeper's
worker (``hal.gpio_beeper.GpioBeeper`` on the fake RPi.GPIO: the real worker code). A tap is timed from the moment
its card enters the field to the moment the beeper's worker starts its first tone.

Each rent is two taps, interleaved: the title deed (the baseline: the same path to an ``accepted`` tone, nothing
written) then the payer's card (the figure: the rent committed, ``synchronous=FULL``, to its ``success`` tone).
The hand puts the next card down 50 ms after the beep's pattern ended, and waits longer now and then (0.6 s, one
rent in ten: idle time, when the terminal folds the WAL into the file).

Disks: each run is a fresh interpreter with ``bench/fsync_shim.c`` preloaded (``LD_PRELOAD``, built here with the
PC's C compiler), which counts every ``fsync``/``fdatasync`` of the process (SQLite's own included) and adds an
SD card's latency to each, log-normal: none (the PC's disk alone, the game files on the project's disk), a good
card (2 ms median, 20 ms p99) and an ordinary one (5 ms median, 60 ms p99), the game files then on a tmpfs
(``/dev/shm``), so that the card's latency stands for the whole flush (on the PC's disk, shared with other work,
a flush's own tail reaches 100-300 ms and would be added to the card's).

Pi estimate: each tap's time with its CPU part scaled and the PC's load taken out, ``wall - runq + (F - 1) * cpu``,
where ``cpu`` is the path's CPU time (the loop's thread's from the moment it hands the card to the terminal to the
tone, and the reader's thread's from the card to the tone: their own CPU clocks; the loop's idle wake-ups while it
waits for the card run beside the reader's poll, not before it: the figure that scales them too is in the note),
``runq`` the time the loop's thread waited, runnable, for a processor (Linux's schedstat: the load of the PC's
other work, which a Pi running only Banquier does not have; the figure with it left in is in the note), and
F = 4 for a Pi 4, 10 for a Zero 2 W (the README's factors); the waits (the reader's 20 ms poll, the disk, the
injected card latency) are not scaled. Not in: the SPI transfers of a real MFRC522 scan (bench/bench_hal.py), the
display's own write of a frame (on a Pi's framebuffer: a copy), other processes on the Pi.

Where the time goes: each tap also records the disk's own time in the loop thread's flushes (the shim times the real
call, its added latency apart), the time from the card to the loop, the terminal's handling up to the beep's request
and from there to the tone, whether a backup was being made or the audit running, and the other threads' flushes.
Before each rent the hand flushes a 512-byte write to the same disk (``fdatasync``, from its own thread): the disk's
own flush at that moment, the baseline of the tap's flush. A row gives the p99 without the flush's disk time (the
product's part on a shared disk) and the mean breakdown of the slowest 1 % of taps.

Targets: x86 p99 < 50 ms (issue 14's, any disk; it fails when the disk's own flush has a tail of 30 ms or more, which
the probe's p99 shows, or when the product slows: the row without the flush's disk time then fails too); Zero 2 W
with an ordinary card p99 < 100 ms; syncs per committing tap: exactly 1 (the WAL's commit; the mirror and the WAL's
folding come after the beep).

    .venv/bin/python bench/bench_device.py [--rents N] [--ops N] [--dir DIR] [--cards none,good,ordinary]
"""
from __future__ import annotations

import argparse
import ctypes
import dataclasses
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import percentile  # noqa: E402  (this folder, as for every bench script)
from report import Row, emit  # noqa: E402

if TYPE_CHECKING:
    from host_ui.device import PartReader

BENCH = "device"
CARDS = {"none": (0.0, 0.0), "good": (2.0, 20.0), "ordinary": (5.0, 60.0)}
FACTORS = {"Pi 4": 4, "Zero 2 W": 10}
X86_P99_MS = 50.0
PI_P99_MS = 100.0
SHM = Path("/dev/shm")
GAP_S = 0.05  # between a beep's end and the next card
ANN, BOB, DEED_37, DEED_39 = "AA000001", "AA000002", "DD000025", "DD000027"


def build_shim(folder: Path) -> Path:
    """Compile bench/fsync_shim.c into ``folder`` with the PC's C compiler; raises RuntimeError without one."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise RuntimeError("no C compiler (cc or gcc) to build bench/fsync_shim.c")
    shim = folder / "fsync_shim.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(shim), str(ROOT / "bench" / "fsync_shim.c"),
                    "-ldl", "-lm", "-lpthread"], check=True)
    return shim


# -- the child: one run of the device's path ------------------------------------------------------------------
class Clocks:
    """The CPU clocks of the loop's thread and the reader's thread, read from any thread."""

    def __init__(self) -> None:
        self.ids: list[int] = []
        self.loop_tid = 0

    def watch(self, thread: threading.Thread) -> None:
        assert thread.ident is not None
        self.ids.append(time.pthread_getcpuclockid(thread.ident))

    def cpu(self) -> float:
        return sum(time.clock_gettime(c) for c in self.ids)

    def loop_cpu(self) -> float:
        """The loop's thread's CPU clock (seconds)."""
        return time.clock_gettime(self.ids[0])

    def reader_cpu(self) -> float:
        """The reader's thread's CPU clock (seconds)."""
        return time.clock_gettime(self.ids[1])

    def waited(self) -> float:
        """Seconds the loop's thread has waited for a processor, runnable (Linux's schedstat run delay): the
        PC's load, which a Pi running only Banquier does not have."""
        try:
            with open(f"/proc/self/task/{self.loop_tid}/schedstat") as f:
                return int(f.read().split()[1]) / 1e9
        except (OSError, IndexError, ValueError):
            return 0.0


def child(args: argparse.Namespace) -> int:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from cards.registry import CardRegistry, DeedCard, PlayerCard
    from hal.gpio_beeper import GpioBeeper
    from hal.sim_reader import SimReader
    from host_ui.device import NoticeOutput, _make_app, _open_output
    from host_ui.shell.backup import BackupKeeper
    from host_ui.shell.config import Config
    from host_ui.shell.startup import new_game, resume_at_startup
    from terminal.table.machine import Terminal
    from tests.fakes.fake_gpio import FakeGPIO
    from tests.fakes.install import installed

    lib = ctypes.CDLL(None)
    lib.banquier_syncs_of.restype = ctypes.c_longlong
    lib.banquier_syncs_of.argtypes = [ctypes.c_long]
    loop_tid = threading.get_native_id()  # the screen loop's thread: the path from the tap to the beep

    lib.banquier_syncs.restype = ctypes.c_longlong
    lib.banquier_real_ns.restype = ctypes.c_longlong
    lib.banquier_real_ns_of.restype = ctypes.c_longlong
    lib.banquier_real_ns_of.argtypes = [ctypes.c_long]

    def syncs() -> int:
        return int(lib.banquier_syncs_of(loop_tid))

    def disk() -> tuple[int, int, int]:
        """(the process's flushes, their disk time in ns, the loop thread's disk time in ns) so far."""
        return int(lib.banquier_syncs()), int(lib.banquier_real_ns()), int(lib.banquier_real_ns_of(loop_tid))

    data = Path(args.child)
    probe_path = data / "disk-probe"  # beside the game, on the same disk
    key = bytes(32)
    backups = data / "backups"
    game = new_game(data, key, "fr", ["Ann", "Bob"], backups=backups)
    game.buy("Ann", 37)
    game.buy("Bob", 39)
    with game.batch():  # a long game, so that its background audit runs while the table plays
        for i in range(args.ops):
            game.pass_go(("Ann", "Bob")[i % 2])
    game.close()
    found = resume_at_startup(data, key, backups=backups)
    assert found.game is not None, found.problem
    game = found.game

    def last_seq() -> int:
        last = game.ledger.last_entry()
        return last[0] if last else 0
    config = Config()
    registry = CardRegistry(None, {ANN: PlayerCard(1), BOB: PlayerCard(2), DEED_37: DeedCard(37),
                                   DEED_39: DeedCard(39)})
    clocks = Clocks()
    # (perf_counter, cpu, syncs, waited, loop cpu, reader cpu, (process flushes, their ns, the loop's ns)) at each
    # first tone
    tones: list[tuple[Any, ...]] = []
    tone = threading.Event()

    asked: list[int] = []  # the loop thread's fsyncs when each beep was asked for (on that thread)

    class TimedBeeper(GpioBeeper):
        def play(self, pattern: str) -> bool:
            asked.append(syncs())
            return super().play(pattern)

        def _perform(self, pattern: str) -> None:
            self.first = True
            super()._perform(pattern)

        def _sound(self, frequency_hz: int, volume: float) -> None:
            if getattr(self, "first", False):
                self.first = False
                tones.append((time.perf_counter(), clocks.cpu(), syncs(), clocks.waited(), clocks.loop_cpu(),
                              clocks.reader_cpu(), disk()))
                tone.set()
            super()._sound(frequency_hz, volume)

    with installed(gpio=FakeGPIO()):
        beeper = TimedBeeper()
        reader = SimReader(idle_poll_interval_s=0.02)  # the MFRC522 backend's schedule: 20 ms empty, 50 ms read
        # the hand alternates two payers faster than a table would: no re-tap guard, no delay before a confirmation
        settings = dataclasses.replace(config.terminal_settings(), retap_guard_s=0.0, confirm_min_delay_s=0.0)
        terminal = Terminal(game, registry, beeper, time.monotonic, settings)
        marks: list[float] = []  # when the loop handed each card to the terminal
        present = terminal.present

        def timed_present(uid: str) -> None:
            marks.append(time.perf_counter())
            cpu = time.thread_time()  # the loop's thread: the same clock as clocks.loop_cpu()
            marks.append(cpu)
            present(uid)
            marks.append(time.thread_time() - cpu)
            marks.append(time.perf_counter())

        terminal.present = timed_present  # type: ignore[method-assign]
        output, _ = _open_output(config, headless=True)
        # the simulated reader straight (banquier run wraps its reader in a PartReader, which only starts it again
        # after a fault): the loop uses only what the two share
        app = _make_app(config, terminal, NoticeOutput(output, list), cast("PartReader", reader))
        keeper = BackupKeeper(backups, config.storage.backup_every, config.storage.backups_kept)
        audit = game.ledger.guard
        taps: list[dict[str, Any]] = []
        done = threading.Event()
        failure: list[str] = []

        last_tone_syncs = [syncs()]

        def probe() -> float:
            """One small write flushed to the same disk, from the hand's thread, timed (ms): the disk's own flush at
            this moment, the baseline of the tap's."""
            start = time.perf_counter()
            with open(probe_path, "ab") as f:
                f.write(b"x" * 512)
                f.flush()
                os.fdatasync(f.fileno())
            return (time.perf_counter() - start) * 1000

        def put_down(uid: str) -> dict[str, Any]:
            tone.clear()
            before = len(tones)
            del marks[:]
            del asked[:]
            start, cpu, synced, waited = time.perf_counter(), clocks.cpu(), syncs(), clocks.waited()
            reader_cpu = clocks.reader_cpu()
            flushes, flush_ns, loop_ns = disk()
            backup_busy = keeper._worker.busy()
            audit_busy = audit is not None and getattr(audit, "full", True) is None
            reader.present(uid)
            if not tone.wait(10):
                raise RuntimeError(f"no tone after {uid}: {terminal.view.message}")
            at, cpu_at, syncs_at, waited_at, loop_at, reader_at, (flushes_at, flush_ns_at, loop_ns_at) = tones[before]
            between = synced - last_tone_syncs[0]  # the loop's flushes since the previous tone: 2 more when it folded
            last_tone_syncs[0] = syncs_at
            reader.remove(uid)
            beeper.wait_idle(5)  # the family puts the next card down once the beep is over
            return {"ms": (at - start) * 1000, "cpu_ms": (cpu_at - cpu) * 1000, "runq_ms": (waited_at - waited) * 1000,
                    "syncs": syncs_at - synced, "syncs_to_ask": asked[0] - synced if asked else None,
                    "to_loop_ms": (marks[0] - start) * 1000 if marks else None,
                    "handle_cpu_ms": marks[2] * 1000 if len(marks) > 2 else None,
                    # the path's own CPU: the loop's from handing the card to the terminal to the tone, the reader's
                    "path_cpu_ms": ((loop_at - marks[1]) + (reader_at - reader_cpu)) * 1000 if len(marks) > 1
                    else (cpu_at - cpu) * 1000,
                    "pattern": beeper.played[-1][1] if beeper.played else "",
                    "audit_running": audit is not None and getattr(audit, "full", True) is None,
                    # where the time went: the loop thread's flushes' disk time (the shim's latency added not in),
                    # the other threads' flushes meanwhile (a backup's), a backup being made, the loop's flushes
                    # since the previous tone (a fold), the handling by the terminal (card handed -> beep asked
                    # for, wall), and from there to the tone
                    "loop_disk_ms": (loop_ns_at - loop_ns) / 1e6,
                    "other_syncs": (flushes_at - flushes) - (syncs_at - synced),
                    "other_disk_ms": ((flush_ns_at - flush_ns) - (loop_ns_at - loop_ns)) / 1e6,
                    "backup_busy": backup_busy or keeper._worker.busy(), "audit_busy": audit_busy,
                    "loop_syncs_before": between,
                    "handle_ms": (marks[3] - marks[0]) * 1000 if len(marks) > 3 else None,
                    "after_handle_ms": (at - marks[3]) * 1000 if len(marks) > 3 else None}

        def hand() -> None:
            try:
                time.sleep(0.5)
                rng = random.Random(1)
                for i in range(args.rents):
                    payer, deed = ((BOB, DEED_37), (ANN, DEED_39))[i % 2]
                    disk_ms = probe()
                    base = put_down(deed)
                    time.sleep(GAP_S)
                    for _ in range(2):  # the second when the screen asks to confirm
                        tap = put_down(payer)
                        time.sleep(GAP_S)
                        if tap["pattern"] == "success":
                            break
                    if tap["pattern"] != "success":
                        raise RuntimeError(f"rent {i}: no success tone ({terminal.view.message})")
                    taps.append({"tap": tap, "base": base, "probe_ms": disk_ms})
                    if rng.random() < 0.1:
                        time.sleep(0.6)  # idle: the terminal's tick runs
            except BaseException as exc:  # reported by the loop's thread
                failure.append(repr(exc))
            finally:
                done.set()

        seen = -1
        first_seq = last_seq()

        def until() -> bool:
            nonlocal seen
            if not clocks.ids and app.poller is not None and app.poller._thread is not None:
                clocks.watch(threading.main_thread())
                clocks.loop_tid = loop_tid
                clocks.watch(app.poller._thread)
                threading.Thread(target=hand, daemon=True).start()
            if terminal.version != seen:
                seen = terminal.version
                keeper.maybe(terminal.game)
            return done.is_set()

        try:
            app.run(until=until)
            if not failure and last_seq() - first_seq != len(taps):
                failure.append(f"{len(taps)} success tones, {last_seq() - first_seq} entries written")
        finally:
            terminal.game.close() if terminal.game is not None else None
            output.close()
            beeper.close()
    if failure:
        print(failure[0], file=sys.stderr)
        return 1
    print(json.dumps(taps))
    return 0


# -- the parent: every card, then the table --------------------------------------------------------------------
def run(shim: Path, card: str, folder: Path, rents: int, ops: int) -> list[dict[str, Any]]:
    median, p99 = CARDS[card]
    env = {**os.environ, "LD_PRELOAD": str(shim), "BANQUIER_FSYNC_MEDIAN_MS": str(median),
           "BANQUIER_FSYNC_P99_MS": str(p99), "PYTHONPATH": str(ROOT)}
    data = folder / f"data-{card}"
    done = subprocess.run([sys.executable, __file__, "--child", str(data), "--rents", str(rents), "--ops", str(ops)],
                          env=env, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"the {card} card's run failed: {done.stderr.strip()[-2000:]}")
    taps: list[dict[str, Any]] = json.loads(done.stdout.strip().splitlines()[-1])
    return taps


def report(card: str, taps: list[dict[str, Any]], ops: int, loads: str) -> None:
    """The rows of one card's run."""
    median, p99_card = CARDS[card]
    what = "PC disk" if card == "none" else f"{card} card"
    disk = "the PC's disk" if card == "none" else \
        f"{'an' if card[0] in 'aeiou' else 'a'} {card} SD card ({median:g} ms median / {p99_card:g} ms p99 per fsync)"
    walls = [t["tap"]["ms"] for t in taps]
    bases = [t["base"]["ms"] for t in taps]
    ratios = [t["tap"]["ms"] / t["base"]["ms"] for t in taps if t["base"]["ms"] > 0]
    syncs = [t["tap"]["syncs_to_ask"] for t in taps]
    to_tone = [t["tap"]["syncs"] for t in taps]
    running = sum(t["tap"]["audit_running"] for t in taps)
    how = (f"{len(taps)} rents on {disk}: card in the field -> the beeper worker's first tone; a resumed {ops}-op "
           f"game with its mirror and background audit ({running} taps while it ran), the reader's thread, the "
           f"screen loop; {loads}")
    p99, x86 = percentile(walls, 0.99), card == "none"
    emit(Row(BENCH, f"tap -> tone p99, x86, {what}", f"{p99:.1f} ms", f"< {X86_P99_MS:g} ms" if x86 else "",
             p99 / X86_P99_MS if x86 else None, p99 < X86_P99_MS if x86 else None,
             f"{how}; median {statistics.median(walls):.1f} ms; per-tap ratio to the baseline, median "
             f"{statistics.median(ratios):.2f}x",
             baseline=f"the deed's tap, interleaved tap by tap (the same path, nothing written): p99 "
                      f"{percentile(bases, 0.99):.1f} ms, median {statistics.median(bases):.1f} ms; the disk's own "
                      f"flush at the same moments (a 512-byte fdatasync before each rent): p99 "
                      f"{percentile([t['probe_ms'] for t in taps], 0.99):.1f} ms",
             fails="the commit, the loop or the reader slows, a flush comes back on the path, or the disk's own "
                   "flush (the baseline's second figure) has a tail of 30 ms or more"))
    # where the slowest taps' time went (the 1 % over the p99's rank), and the disk's own flush at the same moments
    slow = sorted(taps, key=lambda t: -t["tap"]["ms"])[:max(1, len(taps) // 100)]

    def mean(key: str) -> float:
        return statistics.fmean(t["tap"][key] or 0.0 for t in slow)
    own = [t["tap"]["ms"] - t["tap"]["loop_disk_ms"] for t in taps]
    probes = [t["probe_ms"] for t in taps]
    emit(Row(BENCH, f"tap -> tone p99 without its flush's disk time, {what}", f"{percentile(own, 0.99):.1f} ms",
             f"< {X86_P99_MS:g} ms" if x86 else "", percentile(own, 0.99) / X86_P99_MS if x86 else None,
             percentile(own, 0.99) < X86_P99_MS if x86 else None,
             f"each tap's time less the disk's own time in the loop thread's flush (timed by the shim around the "
             f"real call; an injected card latency stays in): the product's part; its flush's disk time p99 "
             f"{percentile([t['tap']['loop_disk_ms'] for t in taps], 0.99):.1f} ms; the slowest {len(slow)} taps "
             f"(mean): {statistics.fmean(t['tap']['ms'] for t in slow):.1f} ms = card to loop "
             f"{mean('to_loop_ms'):.1f} + handling {mean('handle_ms'):.1f} (of which the flush's disk "
             f"{mean('loop_disk_ms'):.1f}) + to the tone {mean('after_handle_ms'):.1f} ms, and over the whole tap the "
             f"loop's thread waited {mean('runq_ms'):.1f} ms for a processor; "
             f"{sum(t['tap']['backup_busy'] for t in slow)} with a backup being made, "
             f"{sum(t['tap']['audit_busy'] for t in slow)} with the audit running, "
             f"{sum(t['tap']['other_syncs'] > 0 for t in slow)} with another thread's flush; {how}",
             baseline=f"one 512-byte write flushed (fdatasync) to the same disk just before each rent, from the "
                      f"hand's thread: p99 {percentile(probes, 0.99):.1f} ms, median {statistics.median(probes):.1f} "
                      f"ms (the disk's own flush at those moments)",
             fails="the terminal's own work on the path (the loop, the reader, the commit's CPU, a wait for the "
                   "backup or the audit) slows"))
    odd = [s for s in syncs if s != 1]
    late = sum(1 for a, b in zip(syncs, to_tone, strict=True) if b != a)
    emit(Row(BENCH, f"fsyncs from tap to beep, {what}", f"{min(syncs)}..{max(syncs)} per tap", "= 1",
             None, not odd,
             f"the screen loop's thread's up to its asking for the beep, counted by the LD_PRELOAD shim, SQLite's "
             f"own included ({len(odd)} of {len(syncs)} taps with another count); on {late} taps the loop's next "
             f"flush (the mirror's, after the beep was asked for) came before the worker's first tone (the PC's load "
             f"kept the worker off the processors)",
             baseline=f"the deed's tap, interleaved (nothing written): "
                      f"{min(t['base']['syncs_to_ask'] or 0 for t in taps)}.."
                      f"{max(t['base']['syncs_to_ask'] or 0 for t in taps)} per tap",
             fails="the mirror's flush, a checkpoint or another write's flush comes back between a tap and its beep"))
    for name, factor in FACTORS.items():
        def estimate(t: dict[str, float], factor: int = factor) -> float:
            return t["ms"] - t["runq_ms"] + (factor - 1) * t["path_cpu_ms"]
        est = [estimate(t["tap"]) for t in taps]
        every = [t["tap"]["ms"] - t["tap"]["runq_ms"] + (factor - 1) * t["tap"]["cpu_ms"] for t in taps]
        raw = [t["tap"]["ms"] + (factor - 1) * t["tap"]["cpu_ms"] for t in taps]
        base_est = [estimate(t["base"]) for t in taps]
        p = percentile(est, 0.99)
        judged = name == "Zero 2 W" and card == "ordinary"
        emit(Row(BENCH, f"tap -> tone p99, {name} est., {what}", f"{p:.1f} ms",
                 f"< {PI_P99_MS:g} ms" if judged else "", p / PI_P99_MS if judged else None,
                 p < PI_P99_MS if judged else None,
                 f"per tap: wall - the loop thread's wait for a processor (the PC's load, median "
                 f"{statistics.median(t['tap']['runq_ms'] for t in taps):.1f} ms) + {factor - 1} x the path's CPU (the "
                 f"loop thread's from the card handed to the terminal to the tone, and the reader thread's: median "
                 f"{statistics.median(t['tap']['path_cpu_ms'] for t in taps):.2f} ms), waits unscaled; median "
                 f"{statistics.median(est):.1f} ms; scaling also the loop's idle wake-ups before the card "
                 f"(median {statistics.median(t['tap']['cpu_ms'] for t in taps):.2f} ms in all): p99 "
                 f"{percentile(every, 0.99):.1f} ms; and with the PC's load left in: p99 "
                 f"{percentile(raw, 0.99):.1f} ms; {len(taps)} rents",
                 baseline=f"the deed's tap, estimated the same way: p99 {percentile(base_est, 0.99):.1f} ms",
                 fails="a second fsync on the path, or about 5 ms more CPU per tap on the PC" if judged else ""))

def load() -> str:
    return "load " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rents", type=int, default=1000, help="committing taps per card (default 1 000)")
    parser.add_argument("--ops", type=int, default=10_000, help="operations of the resumed game (default 10 000)")
    parser.add_argument("--cards", default="none,good,ordinary", help="the cards' latencies to inject")
    parser.add_argument("--dir", type=Path, default=Path(__file__).resolve().parent,
                        help="where the game files go (default: the project's disk, not a tmpfs)")
    parser.add_argument("--keep", type=Path, help="also write every tap's figures there (JSON, one run per card)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args)
    with tempfile.TemporaryDirectory(prefix="bench-device-", dir=args.dir) as tmp_name:
        tmp = Path(tmp_name)
        shim = build_shim(tmp)
        for card in args.cards.split(","):
            before = load()
            if card == "none" or not SHM.is_dir():
                taps = run(shim, card, tmp, args.rents, args.ops)
            else:  # the card's latency stands for the whole flush: on a tmpfs, the PC's disk adds nothing to it
                with tempfile.TemporaryDirectory(prefix="bench-device-", dir=SHM) as shm_name:
                    taps = run(shim, card, Path(shm_name), args.rents, args.ops)
            if args.keep is not None:
                args.keep.with_name(f"{args.keep.stem}-{card}{args.keep.suffix}").write_text(json.dumps(taps))
            report(card, taps, args.ops, f"{before} before, {load()} after")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
