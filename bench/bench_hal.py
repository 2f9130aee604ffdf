"""Benchmark of the card reader path: the real hal + mfrc522 package code on the emulated chip.

Prints:
* latency from a card entering the field to the CardPresented event, at the default poll rate
  (median and p99 over --trials presentations, each at a random moment);
* CPU time per second of idle polling (no card) at the default poll rate;
* SPI transfers per empty poll: our transceive vs the package's MFRC522_ToCard, and per poll with a
  resting card.

The chip is tests/fakes/fake_mfrc522.py running in real time (its timer counts real microseconds), so the
figures include the emulator's own Python cost instead of the kernel's SPI driver; on a Pi each transfer
costs more, which makes the package's 2 000-transfer empty poll worse, not ours.

Usage: .venv/bin/python bench/bench_hal.py [--trials N] [--idle-seconds S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hal.interfaces import CardPresented
from hal.mfrc522_reader import Mfrc522Reader
from tests.fakes.fake_gpio import FakeGPIO
from tests.fakes.fake_mfrc522 import FakeCard, FakeMFRC522
from tests.fakes.fake_spidev import FakeSpiBus
from tests.fakes.install import installed


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def latency(reader: Mfrc522Reader, chip: FakeMFRC522, trials: int, rng: random.Random) -> list[float]:
    results = []
    previous = None
    for i in range(trials):
        uid = f"04{i:06X}"
        if previous is not None:
            chip.leave(previous)
        t0 = time.perf_counter() + rng.uniform(0.0, 0.1)
        previous = chip.enter_at(FakeCard(uid), t0)
        while True:
            events = reader.poll()
            if any(isinstance(e, CardPresented) and e.uid == uid for e in events):
                results.append(time.perf_counter() - t0)
                break
            time.sleep(reader.next_poll_in())
    chip.leave(previous)
    return results


def idle_cpu(reader: Mfrc522Reader, seconds: float) -> tuple[float, float]:
    """Return (CPU seconds per wall second, scans per second) while polling with no card."""
    for _ in range(40):  # let the last card's removal go by
        reader.poll()
        time.sleep(reader.next_poll_in())
    scans = reader.scans
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall0 < seconds:
        reader.poll()
        time.sleep(reader.next_poll_in())
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return cpu / wall, (reader.scans - scans) / wall


def transfers(chip: FakeMFRC522, action: Callable[[], object]) -> int:
    before = chip.transfers
    action()
    return chip.transfers - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--idle-seconds", type=float, default=3.0)
    args = parser.parse_args()

    gpio = FakeGPIO()
    chip = FakeMFRC522(clock=time.perf_counter)
    gpio.watch(22, chip.reset_pin_changed)
    with installed(gpio=gpio, spi=FakeSpiBus({(0, 0): chip})):
        reader = Mfrc522Reader()  # defaults: 20 Hz, 1 MHz SPI, 1 ms response window, time.sleep
        try:
            lat = latency(reader, chip, args.trials, random.Random(4))
            cpu, rate = idle_cpu(reader, args.idle_seconds)
            package = reader.chip
            ours = statistics.median(transfers(chip, reader.empty_poll) for _ in range(20))
            theirs = statistics.median(
                transfers(chip, lambda: package.MFRC522_Request(package.PICC_REQIDL)) for _ in range(5))
            def wait_and_poll() -> None:
                time.sleep(reader.next_poll_in())
                reader.poll()

            resting = {}
            for uid in ("04A1B2C3", "04A1B2C3D4E5F6"):
                card = chip.enter(uid)
                reader.poll()
                time.sleep(reader.next_poll_in())
                resting[uid] = transfers(chip, wait_and_poll)
                chip.leave(card)
        finally:
            reader.close()

    print(f"hal card reader benchmark (mfrc522 backend, real mfrc522 package, emulated chip, "
          f"poll interval {reader.poll_interval_s * 1000:.0f} ms)")
    print(f"  card entering the field -> CardPresented: median {statistics.median(lat) * 1000:.1f} ms, "
          f"p99 {percentile(lat, 0.99) * 1000:.1f} ms, max {max(lat) * 1000:.1f} ms ({len(lat)} taps)")
    print(f"  idle polling: {cpu * 1000:.1f} ms CPU per second ({cpu * 100:.2f} % of a core), "
          f"{rate:.1f} scans/s")
    print(f"  SPI transfers per empty poll: ours {ours:.0f}, package MFRC522_ToCard {theirs:.0f} "
          f"(ratio {theirs / ours:.0f}x)")
    print("  SPI transfers per poll with a resting card: "
          + ", ".join(f"{len(uid) // 2}-byte UID {n}" for uid, n in resting.items()))


if __name__ == "__main__":
    main()
