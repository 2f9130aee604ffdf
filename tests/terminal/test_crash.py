"""Crash test (issue 2, Tests): a replay in a subprocess is killed with SIGKILL at random moments.

The child applies a plan (the operations of a recorded game, with undos woven in) through ``Game.apply`` and
prints the ``seq`` of each committed entry on stdout, unbuffered, as soon as ``apply`` returns. The parent
reads those lines and kills the child after a random number of commits (plus a random fraction of the next
operation), or, on some rounds, after a random delay from its start (killing it while it imports, opens or
audits the file). After every kill:

- ``Game.open(background=False)`` detects the unclean stop and runs the full audit, which passes;
- the journal is contiguous, holds every seq the child reported as done, and nothing half-written (no postings
  without their entry, the projection reflects the last entry);
- the entries are exactly a prefix of the plan, and the state equals a replay of that prefix computed
  independently (rules engine only, undo modelled as "back to the state before the operation").

The next child resumes the same file from where the journal ends, so one file goes through many kills.
(Durability across a power cut is the pragmas' job: :func:`test_ledger_connection_is_wal_and_synchronous_full`.)
"""
from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import terminal.bank.opening as opening_module
from terminal.bank import engine
from terminal.bank.game import Game
from terminal.bank.ledger.records import canonical
from terminal.bank.operations import parse_operation
from terminal.bank.state import State
from terminal.bank.tablelog import read_table_log
from terminal.errors import GameError
from tests.unclean import abandon

ROOT = Path(__file__).resolve().parents[2]
RECORDED = ROOT / "terminal" / "examples" / "recorded"
KILLS = 50
SEED = 20_240_521

# The child: applies the plan's lines in order through Game.apply, printing each committed seq. Resumes an
# existing file after the entries already in its journal.
CHILD = r"""
import json, sys
from pathlib import Path
from terminal.errors import GameError
from terminal.bank.game import Game
from terminal.bank.operations import parse_operation

plan_path, db_path, key_hex = sys.argv[1:]
key = bytes.fromhex(key_hex)
plan = json.loads(Path(plan_path).read_text(encoding="utf-8"))
header, lines = plan["header"], plan["lines"]

def report(seq):
    sys.stdout.write(f"{seq}\n")
    sys.stdout.flush()

if Path(db_path).exists():
    game = Game.open(db_path, key=key)
    recorded = game.ledger.last_entry()[0] - 1          # entries after the setup
else:
    game = Game.create(db_path, header["edition"], header["players"], mode=header.get("mode", "classic"),
                       rules=header.get("rules") or None, dealt=header.get("dealt") or None, key=key)
    report(game.ledger.last_entry()[0])                  # the setup entry
    recorded = 0
done = 0
for line in lines:
    refused = bool(line.get("refused"))
    if done < recorded:
        done += not refused
        continue
    try:
        receipt = game.apply(parse_operation(line))
    except GameError:
        if refused:
            continue
        raise
    if refused:
        raise SystemExit(f"accepted an operation the log says must be refused: {line}")
    report(receipt.seq)
game.close()
sys.stdout.write("done\n")
sys.stdout.flush()
"""


def make_plan(log_path: Path) -> dict:
    """The recorded game's operations (refused ones kept, marked), with undos woven in: after every 7th
    accepted operation ``undo`` + the same operation again; after every 23rd, two undos + the previous accepted
    operation + this one again. Checks (``expect`` lines) are left out."""
    log = read_table_log(log_path)
    lines: list[dict] = []
    accepted: list[dict] = []
    for line in log.lines:
        data = line.data
        if "op" not in data:
            continue
        lines.append(data)
        if data.get("refused"):
            continue
        accepted.append(data)
        i = len(accepted)
        if i % 23 == 11:
            lines += [{"op": "undo"}, {"op": "undo"}, accepted[-2], data]
        elif i % 7 == 3:
            lines += [{"op": "undo"}, data]
    return {"header": log.header, "lines": lines}


def expected_entries(plan: dict, config) -> tuple[list[tuple[str, str]], list[str]]:
    """``entries``: ``(kind, canonical op)`` of every journal entry the plan writes after the setup;
    ``states``: the canonical state after the setup and after each of those entries, computed with the rules
    engine alone (an undo goes back to the state before the operation it undoes)."""
    h = plan["header"]
    state = State.new(config.edition, tuple(h["players"]))
    state, _ = engine.setup_effects(state, config, h.get("dealt") or None)
    states = [canonical(state.to_json())]
    entries: list[tuple[str, str]] = []
    before: list[State] = []  # state before each operation not yet undone
    for line in plan["lines"]:
        if line["op"] == "undo":
            state = before.pop()
            entries.append(("undo", canonical({"op": "undo"})))
        else:
            op = parse_operation(dict(line)).to_json()
            try:
                new_state, _ = engine.apply(state, config, op)
            except GameError:
                assert line.get("refused"), f"the plan's line {line} is refused by the rules"
                continue
            assert not line.get("refused"), f"the plan's line {line} is accepted by the rules"
            before.append(state)
            state = new_state
            entries.append(("op", canonical(op)))
        states.append(canonical(state.to_json()))
    return entries, states


def recorded_logs() -> list[Path]:
    """The short recorded games, French and US editions alternating."""
    fr = sorted(RECORDED.glob("game-fr-*.jsonl"))
    us = sorted(RECORDED.glob("game-us-*.jsonl"))
    return [p for pair in zip(fr, us, strict=True) for p in pair]


def raw_journal(path: Path) -> dict:
    """What a fresh connection sees in the file."""
    conn = sqlite3.connect(path)
    try:
        return {
            "journal": [r[0] for r in conn.execute("SELECT seq FROM journal ORDER BY seq")],
            "orphan_postings": conn.execute(
                "SELECT COUNT(*) FROM postings WHERE seq NOT IN (SELECT seq FROM journal)").fetchone()[0],
            "unbalanced": conn.execute(
                "SELECT COUNT(*) FROM (SELECT seq FROM postings GROUP BY seq HAVING SUM(amount) != 0)").fetchone()[0],
            "projection_seq": conn.execute("SELECT seq FROM projection WHERE id = 1").fetchone()[0],
        }
    finally:
        conn.close()


class Child:
    """One run of the child process on ``db``; ``reported``: the seqs it printed as committed."""

    def __init__(self, plan_path: Path, db: Path, key: bytes):
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.proc = subprocess.Popen([sys.executable, "-u", "-c", CHILD, str(plan_path), str(db), key.hex()],
                                     cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        self.reported: set[int] = set()
        self.finished = False
        self.started = time.monotonic()
        self.first_commit_after: float | None = None  # seconds from the start to the first commit it printed

    def _take(self, line: str) -> None:
        line = line.strip()
        if line == "done":
            self.finished = True
        elif line:
            self.reported.add(int(line))

    def read_commits(self, count: int) -> None:
        """Block until the child has reported ``count`` commits (or has ended)."""
        seen = 0
        while seen < count and not self.finished:
            line = self.proc.stdout.readline()
            if not line:  # EOF: the child ended
                return
            if self.first_commit_after is None:
                self.first_commit_after = time.monotonic() - self.started
            self._take(line)
            seen += line.strip() != "done"

    def kill(self) -> bool:
        """SIGKILL the child (if still running); collect what it printed. Returns whether it was killed."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        rest, err = self.proc.communicate(timeout=30)
        for line in rest.splitlines():
            self._take(line)
        code = self.proc.returncode
        assert code in (0, -signal.SIGKILL), f"the child failed (exit {code}):\n{err}"
        return code == -signal.SIGKILL


@pytest.mark.slow
def test_sigkill_at_random_moments(tmp_path, key, mocker):
    rng = random.Random(SEED)
    audit_spy = mocker.spy(opening_module, "audit_ledger")
    kills = audited_kills = killed_mid_operation = timer_kills = 0
    # How long the last child took to import, open (and audit) the file and commit once: the timer kills are
    # drawn around it, so that they land before, during and after that on a slow disk or a RAM disk alike.
    startup = 0.3
    logs = recorded_logs()
    for number in range(3 * len(logs)):  # usually about 7 games are enough
        if audited_kills >= KILLS:
            break
        log_path = logs[number % len(logs)]
        plan = make_plan(log_path)
        plan_path = tmp_path / f"{log_path.stem}.plan.json"
        plan_path.write_text(json.dumps(plan), encoding="utf-8")
        db = tmp_path / f"{number}-{log_path.stem}.db"
        entries = states = None
        previous_last = 0
        finished = False
        while not finished and audited_kills < KILLS:
            existed = db.exists()
            child = Child(plan_path, db, key)
            if existed and rng.random() < 0.2:
                # A kill at any moment of the run: while importing, opening (and auditing) or replaying.
                try:
                    child.proc.wait(timeout=rng.uniform(0.15, 1.5) * startup)
                except subprocess.TimeoutExpired:
                    timer_kills += 1
            else:
                child.read_commits(rng.randint(1, 60))
                if child.first_commit_after is not None:
                    startup = child.first_commit_after
                # Land somewhere inside the next operation (one commit costs a millisecond or two).
                _spin(rng.uniform(0, 0.003))
            was_killed = child.kill()
            kills += was_killed

            calls_before = audit_spy.call_count
            game = Game.open(db, key=key, background=False)  # the full audit here, after an unclean stop
            # (the terminal's resume, judged beside play, is killed and resumed by tests/test_whole_product.py)
            try:
                if entries is None:
                    entries, states = expected_entries(plan, game.config)
                last_seq = game.ledger.last_entry()[0]
                complete = last_seq - 1 == len(entries)
                unclean = game.ledger.was_unclean
                if child.finished:
                    assert complete and not unclean
                elif last_seq > previous_last and not complete:
                    assert unclean, (f"{db.name}: killed after writing #{last_seq}, but the file says it was "
                                     f"closed cleanly")
                if unclean:
                    assert audit_spy.call_count == calls_before + 1, "no audit after an unclean stop"
                    report = audit_spy.spy_return
                    assert report.ok, report.summary()
                    assert report.entries == last_seq
                    audited_kills += was_killed
                else:
                    assert audit_spy.call_count == calls_before, "audited after a clean stop"

                raw = raw_journal(db)
                assert raw["journal"] == list(range(1, last_seq + 1)), "the journal has a gap"
                assert raw["orphan_postings"] == 0, "postings of an entry that is not in the journal"
                assert raw["unbalanced"] == 0
                assert raw["projection_seq"] == last_seq, "the stored state is not the last entry's"
                lost = child.reported - set(raw["journal"])
                assert not lost, f"{db.name}: entries reported as committed are missing: {sorted(lost)}"
                if was_killed and last_seq > max(child.reported, default=0):
                    killed_mid_operation += 1  # committed but not yet reported when killed

                recorded = [(e.kind, canonical(e.op)) for e in game.ledger.entries(2)]
                assert recorded == entries[:last_seq - 1], f"{db.name}: the journal is not a prefix of the plan"
                assert canonical(game.raw_state.to_json()) == states[last_seq - 1], (
                    f"{db.name}: the state after {last_seq} entries differs from a replay of those entries")
            finally:
                if rng.random() < 0.5:
                    game.close()
                else:
                    abandon(game)  # leave it unclean: the next child's open must audit it
            previous_last = last_seq
            finished = child.finished
    assert audited_kills >= 50, (kills, audited_kills)
    # The kills did land at varied moments (a check of the test itself, not of the ledger).
    assert timer_kills >= 3, (kills, timer_kills)
    assert killed_mid_operation >= 1, (kills, killed_mid_operation)


def _spin(seconds: float) -> None:
    """Busy-wait a sub-millisecond-precise random delay, so the kill lands at a random point of the next
    operation (time.sleep rounds up too coarsely)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_ledger_connection_is_wal_and_synchronous_full(tmp_path, key):
    path = tmp_path / "g.db"
    game = Game.create(path, "fr", ["Ann", "Bob"], key=key)
    try:
        _assert_durable(game)
        changes = game.ledger.db.conn.total_changes
        game.pass_go("Ann")
        assert game.ledger.db.conn.total_changes > changes, "the operation was not written on this connection"
    finally:
        game.close()
    game = Game.open(path, key=key)
    try:
        _assert_durable(game)
    finally:
        game.close()
    # WAL is a property of the file too: a fresh connection sees it.
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()


def _assert_durable(game: Game) -> None:
    assert game.ledger.pragma("journal_mode") == "wal"
    assert game.ledger.pragma("synchronous") == 2  # FULL
    assert game.ledger.pragma("busy_timeout") == 5000
    assert game.ledger.pragma("foreign_keys") == 1


CREATE_THEN_DIE = r"""
import os, sys
from terminal.bank.ledger.journal import Ledger
from terminal.bank.game import Game

original = Ledger.append
def die_before_setup(self, kind, *args, **kwargs):
    if kind == "setup":
        os._exit(9)          # the process dies between Ledger.create and the setup entry
    return original(self, kind, *args, **kwargs)
Ledger.append = die_before_setup
Game.create(sys.argv[1], "fr", ["Ann", "Bob"], key=bytes.fromhex(sys.argv[2]))
"""


def test_kill_during_create_leaves_a_startable_path(tmp_path, key):
    """A process killed while creating a game leaves nothing half-made at the path (the file is built under a
    temporary name and renamed when complete): the game can be created again."""
    path = tmp_path / "g.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    result = subprocess.run([sys.executable, "-c", CREATE_THEN_DIE, str(path), key.hex()], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 9, result.stderr
    assert not path.exists()
    with Game.create(path, "fr", ["Ann", "Bob"], key=key) as game:
        assert game.cash("Ann") == 1500
