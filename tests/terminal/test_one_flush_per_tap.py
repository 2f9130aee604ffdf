"""One disk flush between a tap and its beep: the entry's commit (the WAL, ``synchronous=FULL``). The mirror's line
of the entry is flushed just after the beep (the screen loop's turn that beeped ends with it), before the next entry
is acknowledged, and the WAL is folded into the file (a checkpoint: two more flushes) in idle time, never between a
tap and its beep.

Counted twice: the flushes Python makes (``os.fsync``/``os.fdatasync``: the mirror, the folders), by patching them;
and every flush of the process, SQLite's from C included, by the ``LD_PRELOAD`` shim the benchmarks use
(``bench/fsync_shim.c``, built with the PC's C compiler), in a fresh interpreter.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from terminal.bank.ledger import schema

ROOT = Path(__file__).resolve().parents[2]

#: Drives a terminal on a game with a mirror: every tap's flushes up to its success beep, and from the beep to the
#: next tap. ``COUNT()``: the flushes so far (the shim's count, or Python's).
_DRIVER = r'''
import json, sys, time
from pathlib import Path
from cards.registry import CardRegistry, DeedCard, PlayerCard
from hal.interfaces import CardPresented
from terminal.bank.game import Game
from terminal.table.machine import Terminal
from terminal.table.settings import TerminalSettings

def run(folder, count, rents):
    game = Game.create(folder / "g.db", "fr", ["Ann", "Bob"], key=bytes(32), mirror=folder / "g.mirror")
    game.buy("Ann", 37)
    game.buy("Bob", 39)
    clock = [0.0]
    beeps = []
    class Beeper:
        def play(self, pattern):
            beeps.append((pattern, count()))
            return True
    registry = CardRegistry(None, {"AA000001": PlayerCard(1), "AA000002": PlayerCard(2),
                                   "DD000025": DeedCard(37), "DD000027": DeedCard(39)})
    terminal = Terminal(game, registry, Beeper(), lambda: clock[0], TerminalSettings())
    clock[0] += 1
    terminal.tick()  # the idle tick before the first tap
    taps = []  # (flushes from the committing tap to its beep, flushes from the beep to the next tap)
    for i in range(rents):
        payer, deed = (("AA000002", "DD000025"), ("AA000001", "DD000027"))[i % 2]
        entries = game.ledger.last_entry()
        for uid in (deed, payer, payer):
            clock[0] += 2
            before = count()
            del beeps[:]
            terminal.handle(CardPresented(uid))
            success = [n for p, n in beeps if p == "success"]
            if success:
                break
        assert success and game.ledger.last_entry() != entries, terminal.view.message
        terminal.settle_writes()  # the screen loop, at the end of the turn that beeped
        if i % 2:
            clock[0] += 1
            terminal.tick()  # idle time between two taps, now and then: the WAL folded when due
        taps.append([success[0] - before, count() - success[0]])
    game.close()
    return taps
'''


def _rents(count, folder: Path, rents: int) -> list[list[int]]:
    namespace: dict = {}
    exec(compile(_DRIVER, "driver", "exec"), namespace)
    return namespace["run"](folder, count, rents)


def test_python_flushes_nothing_between_a_tap_and_its_beep_and_the_mirror_right_after(tmp_path, monkeypatch):
    """The mirror's flush (and its folder's) come after the beep, before the next tap: Python's flushes counted."""
    calls = [0]
    real_fsync, real_fdatasync = os.fsync, os.fdatasync

    def fsync(fd):
        calls[0] += 1
        real_fsync(fd)

    def fdatasync(fd):
        calls[0] += 1
        real_fdatasync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "fdatasync", fdatasync)
    taps = _rents(lambda: calls[0], tmp_path, 30)
    assert all(to_beep == 0 for to_beep, _ in taps), taps
    assert all(after >= 1 for _, after in taps), f"the mirror's line is flushed after each beep: {taps}"


def _shim(tmp_path: Path) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler to build the fsync shim (the development PC has one)")
    shim = tmp_path / "fsync_shim.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(shim), str(ROOT / "bench" / "fsync_shim.c"),
                    "-ldl", "-lm", "-lpthread"], check=True)
    return shim


def test_every_flush_of_the_process_one_per_tap_checkpoints_after_the_beep(tmp_path):
    """Every fsync/fdatasync of the process (SQLite's own, from C, included): exactly one between the tap that
    commits and its beep, on every tap (also the first, and the one after the WAL was folded); the WAL is folded
    (three flushes at least) after a beep."""
    shim = _shim(tmp_path)
    script = _DRIVER + r'''
import ctypes
lib = ctypes.CDLL(None)
lib.banquier_syncs.restype = ctypes.c_longlong
folder = Path(sys.argv[1])
print(json.dumps(run(folder, lib.banquier_syncs, int(sys.argv[2]))))
'''
    env = {**os.environ, "LD_PRELOAD": str(shim), "PYTHONPATH": str(ROOT)}
    rents = 4 * schema.FOLD_ENTRIES
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path), str(rents)], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=True)
    taps = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(taps) == rents
    assert [to_beep for to_beep, _ in taps] == [1] * rents, taps
    assert all(after >= 1 for _, after in taps), taps  # the mirror's line
    folded = [after for _, after in taps if after >= 3]
    assert len(folded) >= 3, f"the WAL was folded after some beeps: {taps}"


def test_the_shim_counts_sqlites_own_flushes(tmp_path):
    """The count above is not blind to SQLite: a bare commit with synchronous=FULL counts one flush, OFF none."""
    shim = _shim(tmp_path)
    script = r'''
import ctypes, sqlite3, sys
lib = ctypes.CDLL(None)
lib.banquier_syncs.restype = ctypes.c_longlong
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA journal_mode=WAL")
conn.execute("CREATE TABLE t (x)")
out = []
for mode in ("FULL", "OFF", "FULL"):
    conn.execute(f"PRAGMA synchronous={mode}")
    before = lib.banquier_syncs()
    conn.execute("INSERT INTO t VALUES (1)")
    out.append(lib.banquier_syncs() - before)
print(out)
'''
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "t.db")], capture_output=True, text=True,
                          check=True, env={**os.environ, "LD_PRELOAD": str(shim)})
    assert done.stdout.strip() == "[1, 0, 1]"

