"""The full audit of a game file: does everything in it agree with everything else?

Checks, in order, and reports every problem found (never changes the file):

1. SQLite's own ``integrity_check``.
2. The keyed hash chain: the header's hash, then each entry's hash over itself and the previous hash. The
   first entry whose hash fails is the first one edited behind the Bank's back.
3. Each entry's postings sum to zero.
4. Replay: each operation is recomputed through the rules engine from the start; its recorded effects must be
   exactly what the rules give now. An undo must be exactly the inverse of the entry it undoes (and, for the
   end of a time-limited game whose time is played, the limit lifted: ``engine.undo_effects``).
5. The replayed state equals the stored projection, and each account's balance summed in SQL from the
   postings equals the projected cash.
"""
from __future__ import annotations

import _thread
import contextlib
import json
import logging
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cards.editions import load_edition
from terminal.bank import engine
from terminal.bank.background import BACKGROUND_NICE, lower_priority
from terminal.bank.history import summary_problems
from terminal.bank.ledger.journal import Ledger
from terminal.bank.ledger.records import canonical
from terminal.bank.state import State
from terminal.bank.types import LEGACY_RULES_VERSION, LEGACY_SETTLEMENT, Effects, GameConfig
from terminal.errors import AuditFailed, GameError, LedgerError, one_line

log = logging.getLogger("banquier")


@dataclass
class AuditReport:
    """``ok``; ``problems``: one sentence each; ``first_bad_seq``: the first entry found edited or
    inconsistent (None if none); ``entries``: how many entries were checked."""

    ok: bool = True
    problems: list[str] = field(default_factory=list)
    first_bad_seq: int | None = None
    entries: int = 0

    def fail(self, problem: str, seq: int | None = None) -> None:
        self.ok = False
        self.problems.append(problem)
        if seq is not None and (self.first_bad_seq is None or seq < self.first_bad_seq):
            self.first_bad_seq = seq

    def summary(self) -> str:
        if self.ok:
            entries = f"{self.entries} entr{'y' if self.entries == 1 else 'ies'}"
            return f"Audit passed: {entries}, hash chain, sums and replay all agree."
        where = f" First entry edited or inconsistent: #{self.first_bad_seq}." if self.first_bad_seq else ""
        count = len(self.problems)
        return (f"Audit FAILED ({count} problem{'' if count == 1 else 's'}).{where} "
                + " ".join(self.problems[:5]) + (" ..." if len(self.problems) > 5 else ""))


def _same(a: Any, b: Any) -> bool:
    return canonical(a) == canonical(b)


# What a damaged or edited file can make Python raise while it is read (an undecodable text, a JSON value of
# the wrong shape, a missing key, a b-tree SQLite cannot walk, JSON nested too deep).
DAMAGE = (sqlite3.DatabaseError, ValueError, KeyError, TypeError, AttributeError, IndexError, LookupError,
          RecursionError, OverflowError)


def audit_ledger(ledger: Ledger, config: GameConfig) -> AuditReport:
    """Run every check on ``ledger`` (see the module docstring) and return the report. Never raises for what
    is in the file: a file too damaged to read further is one more problem of the report."""
    report = AuditReport()
    try:
        _audit(ledger, config, report)
        missing = ledger.schema_problems()
        if missing:  # told after the entries: the first edited entry is what the banker needs first
            report.fail(f"The file's structure was changed outside the terminal: {'; '.join(missing)}.")
        for problem in summary_problems(ledger):  # the chart's summary (terminal.bank.history)
            report.fail(problem)
    except GameError as exc:
        report.fail(one_line(exc))
    except DAMAGE as exc:
        report.fail(f"The file is damaged and could not be read to the end ({type(exc).__name__}: "
                    f"{one_line(exc)[:200]}). Restore a backup.")
    return report


def _audit(ledger: Ledger, config: GameConfig, report: AuditReport) -> None:
    try:
        problems = [one_line(row[0]) for row in ledger.db.execute("PRAGMA integrity_check").fetchall()]
    except sqlite3.DatabaseError as exc:  # a damaged file may fail here
        report.fail(f"SQLite integrity check could not run: {one_line(exc)}.")
        return
    if problems != ["ok"]:
        report.fail(f"SQLite integrity check: {'; '.join(problems[:5])}"
                    + (f" (and {len(problems) - 5} more)." if len(problems) > 5 else "."))
    meta = ledger.meta()
    if meta.get("meta_mac") != ledger.keys.meta_mac(meta):
        report.fail("The game's header (players, edition, rules) was edited.", 0)
        report.first_bad_seq = 0
    prev = meta.get("meta_mac", "")
    state = State.new(config.edition, tuple(meta["players"]))
    # The entries replayed so far, one byte each (an undo's target must be one of them; its operation and effects
    # are read back from the file then, as recorded, which the replay found equal to the rules' result): nothing
    # else is kept per entry, so the audit's memory does not grow with the game.
    replayed = bytearray()
    expected_seq = 1
    for entry in ledger.entries():
        report.entries += 1
        seq = entry.seq
        if seq != expected_seq:
            report.fail(f"Entry #{expected_seq} is missing (next is #{seq}).", expected_seq)
        expected_seq = seq + 1
        rows = ledger.posting_rows_of(seq)
        mac = ledger.keys.entry_mac(prev, seq, entry.kind, entry.op, entry.undoes, rows, entry.changes,
                               entry.recorded_at)
        if mac != entry.mac:
            report.fail(f"Entry #{seq} ({entry.op.get('op')}) does not match its keyed hash: it was edited "
                        f"outside the terminal.", seq)
        prev = entry.mac
        if sum(r[2] for r in rows) != 0:
            report.fail(f"Entry #{seq}: its postings do not sum to zero.", seq)
        # The recorded effects in their stored form (that of Effects.to_json), compared as read: a change of the
        # wrong length in an edited file is then a difference of effects (Change records would refuse it as a
        # damaged read and end the audit there).
        recorded = {"postings": [list(p) for p in entry.postings], "changes": [list(c) for c in entry.changes]}
        try:
            if entry.kind == "setup":
                dealt = meta.get("dealt") or None
                state_after, effects = engine.setup_effects(state, config, dealt)
                if dealt and not _same(effects.to_json(), recorded):  # an older file: the deal's order
                    state_after, effects = engine.setup_effects(state, config, dealt,
                                                                order=deal_order(recorded["postings"], dealt))
            elif entry.kind == "undo":
                undoes = entry.undoes
                target = ledger.entry(undoes) if isinstance(undoes, int) and 0 < undoes < len(replayed) \
                    and replayed[undoes] else None
                if undoes is None or target is None:
                    report.fail(f"Entry #{seq} undoes #{undoes}, which is not an operation.", seq)
                    break
                effects = engine.undo_effects(state, config, target.op,
                                              Effects.recorded(target.postings, target.changes))
                state_after = engine.replay_effects(state, effects)
            else:
                state_after, effects = engine.apply(state, config, entry.op)
        except GameError as exc:
            report.fail(f"Entry #{seq} ({entry.op.get('op')}) is refused by the rules on replay: {exc}", seq)
            break
        if not _same(effects.to_json(), recorded):
            report.fail(f"Entry #{seq} ({entry.op.get('op')}): recorded effects differ from the rules' result.", seq)
            break
        if seq >= len(replayed):
            replayed.extend(bytes(seq + 1 - len(replayed)))
        replayed[seq] = 1
        state = state_after
    projection = ledger.projection()
    if projection is None:
        report.fail("The file holds no current state.")
        return
    proj_seq, proj_state, _ = projection
    last = ledger.last_entry()
    if last is None or proj_seq != last[0]:
        report.fail(f"The stored state reflects entry #{proj_seq}, the journal ends at #{last[0] if last else 0}.")
    if report.ok and not _same(state.to_json(), proj_state):
        report.fail("The stored state differs from a replay of the journal.")
    sql = ledger.balances_by_sql()
    cash = proj_state.get("cash") if isinstance(proj_state, dict) else None
    if not isinstance(cash, dict):
        report.fail("The stored state has no cash balances: it was edited or is damaged.")
        return
    for account, balance in cash.items():
        if sql.get(account, 0) != balance:
            report.fail(f"Account {account}: postings sum to {sql.get(account, 0)}, the stored state says "
                        f"{balance}.")
    if sum(sql.values()) != 0:
        report.fail(f"All accounts together sum to {sum(sql.values())}, not 0.")


def deal_order(postings: list[list[Any]], dealt: Any) -> list[str]:
    """The order in which the players of ``dealt`` paid for their dealt deeds in a setup entry's recorded
    ``postings`` (``[payer, payee, amount]`` lists): the order of their first payment.

    Our reading: a deal is a set of deeds per player; the order in which the players pay for them is no rule.
    Games pay in seat order; older files paid in the order the deal was given (the seats' for a deal drawn by
    the terminal, the table log's for a given one), which the header, a JSON object with sorted keys, does not
    keep. The audit of such a file takes the order its setup entry recorded and recomputes everything else, so
    a game is never refused for it and no other difference passes."""
    names = dealt if isinstance(dealt, dict) else {}
    order: list[str] = []
    for posting in postings:
        payer = posting[0] if isinstance(posting, list) and posting else None
        if isinstance(payer, str) and payer in names and payer not in order:
            order.append(payer)
    return order


# -- SQLite's own check before the first payment -------------------------------------------------------------------
def quick_check(ledger: Ledger) -> tuple[bool, str]:
    """SQLite's ``quick_check`` of ``ledger``'s file: ``(ok, its first 3 lines joined by "; ")``."""
    rows = [one_line(r[0]) for r in ledger.db.execute("PRAGMA quick_check").fetchall()]
    return rows == ["ok"], "; ".join(rows[:3])


class QuickCheckFirst:
    """SQLite's ``quick_check`` of a resumed game, run once before its first entry is written (its cost follows
    the file's size, so a resume does not wait for it; a payment refused for it writes nothing). What
    ``Game.open(background=False)`` keeps; the terminal uses :class:`BackgroundAudit`."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.quick: bool | None = None
        self.quick_problem = ""

    def verdict(self) -> bool | None:
        """Whether the game was judged sound (True), damaged (False), or not yet (None)."""
        return False if self.quick is False else None

    def wait_verdict(self, timeout_s: float) -> bool | None:
        """:meth:`verdict`, at once: this check runs before the first write, in this thread; nothing to wait
        for."""
        return self.verdict()

    def before_write(self, ledger: Ledger) -> None:
        if self.quick is None:  # the check runs here, once
            self.quick, self.quick_problem = quick_check(ledger)
        if not self.quick:
            raise LedgerError(f"Payments are stopped: {self.path.name} is damaged (SQLite's check: "
                              f"{self.quick_problem}). Nothing more is written to it; restore its newest good "
                              f"backup or start a new game.", code="ledger_damaged",
                              params={"path": str(self.path), "reason": self.quick_problem})

    def stop(self) -> None:
        pass


# -- the full audit in a separate process, while the game is played --------------------------------------------

class BackgroundAudit(QuickCheckFirst):
    """Start-up's judgment of a resumed game, in a separate process (a thread would hold the interpreter against
    the tap loop): SQLite's ``quick_check`` first, then the full audit (every entry replayed), both read in one
    read transaction through a read-only connection (nothing is written).

    Play does not wait for it (the quick check of a long game takes 0.4 to 1.2 s on a PC, 4 to 10 times that on a
    Pi): the ledger holds the game's files as found
    meanwhile (:meth:`terminal.bank.ledger.journal.Ledger.hold`: no checkpoint, the WAL as found recorded), and every
    entry is acknowledged only once in the mirror. Once either check has failed every payment is refused at once
    (:class:`~terminal.errors.AuditFailed` or LedgerError with the problem and the fix) and the files are put back
    as found, so nothing judged damaged keeps a write and nothing acknowledged is lost (restoring the newest good
    backup brings the mirror's entries back). A full audit that passed moves the file's keyed checkpoint up to
    what it verified, so the next start-up verifies only the entries written since. If the worker cannot be
    started, the same checks run in a thread of this process (slower for the table, as safe)."""

    def __init__(self, path: Path, key: bytes, *, start_after_s: float = 0.2):
        super().__init__(path)
        self.full: bool | None = None
        self.full_summary = ""
        self.audited: tuple[int, str] | None = None
        self._recorded = False
        self._quick_done = threading.Event()
        self._full_done = threading.Event()
        self._proc: subprocess.Popen[str] | None = None
        self._stopped = False
        self._stop_event = threading.Event()
        # Launched from a thread a moment later: launching a process costs milliseconds (and holds the
        # interpreter meanwhile) that the resume need not wait for; the first payment waits for the quick check.
        # (_thread: threading.Thread.start would wait for the new thread to be scheduled, on a busy device
        # as long as the resume itself)
        _thread.start_new_thread(self._run, (key, start_after_s))

    def _run(self, key: bytes, start_after_s: float) -> None:
        if start_after_s > 0 and self._stop_event.wait(start_after_s):
            self._quick_done.set()
            self._full_done.set()
            return
        package_root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root,
                                                                          os.environ.get("PYTHONPATH")]))}
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "terminal.bank.audit", str(self.path)], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
                close_fds=False)  # lets Python use posix_spawn; every file this process opens is
            # close-on-exec anyway (Python's and SQLite's default)
        except OSError:  # no worker process (none may be started here): the same checks in a thread
            self._checks_here(key)
            return
        self._proc = proc
        if self._stopped:
            self.stop()
            return
        assert proc.stdin is not None
        try:
            proc.stdin.write(key.hex() + "\n")  # never on the command line, where others may read it
            proc.stdin.close()
        except OSError:
            pass
        self._read(key)

    def _read(self, key: bytes) -> None:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        try:
            for line in proc.stdout:
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if isinstance(message, dict):
                    self._take(message)
        except (OSError, ValueError):
            pass
        if not self._stopped and (self.quick is None or self.full is None):
            self._checks_here(key)  # the worker ended without its answers (killed, out of memory): here
            return
        self._quick_done.set()
        self._full_done.set()

    def _checks_here(self, key: bytes) -> None:
        """:func:`_worker`'s checks, in this thread (the worker process could not be started)."""
        try:
            for message in _checks(self.path, key):
                self._take(message)
                if message["stage"] == "quick":  # now the tap loop goes first (this thread only); a refusal is logged
                    lower_priority("the background audit")
        finally:
            self._quick_done.set()
            self._full_done.set()

    def _take(self, message: dict[str, Any]) -> None:
        if message.get("stage") == "quick":
            self.quick, self.quick_problem = bool(message.get("ok")), str(message.get("problem", ""))
            self._quick_done.set()
        elif message.get("stage") == "priority" and message.get("lowered") is False:
            log.warning("the background audit of %s cannot lower its priority: it competes with the tap loop for "
                        "the processor", self.path.name)
        elif message.get("stage") == "full":
            self.full, self.full_summary = bool(message.get("ok")), str(message.get("summary", ""))
            if self.full and isinstance(message.get("seq"), int) and isinstance(message.get("mac"), str):
                self.audited = (message["seq"], message["mac"])
            self._full_done.set()

    def wait_verdict(self, timeout_s: float) -> bool | None:
        """:meth:`verdict`, once both checks answered or ``timeout_s`` seconds (>= 0) passed: True (both passed),
        False (one failed), None (they had not answered in time, or were stopped)."""
        self._full_done.wait(max(0.0, timeout_s))
        return self.verdict()

    def verdict(self) -> bool | None:
        """True once both checks passed, False as soon as one failed, None while they run."""
        if self.quick is False or self.full is False:
            return False
        if self.quick and self.full:
            return True
        return None

    def before_write(self, ledger: Ledger) -> None:
        if self.quick is False:
            super().before_write(ledger)  # raises with SQLite's problem
        if self.full is False:
            raise AuditFailed(f"Payments are stopped: the audit of {self.path.name} found {self.full_summary} "
                              f"Nothing more is written to it; `banquier audit` tells more; restore its newest "
                              f"good backup.", params={"problems": [self.full_summary], "first_bad_seq": None})
        if self.full and self.audited is not None and not self._recorded:
            self._recorded = True
            with contextlib.suppress(sqlite3.Error, GameError):
                ledger.set_checkpoint(*self.audited)

    def stop(self) -> None:
        self._stopped = True
        self._stop_event.set()
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=5)


def game_config(meta: dict[str, Any]) -> GameConfig:
    """The rules a game's header sets (edition, mode, flags, debt settlement, agreed length): what every replay of
    its journal uses. Raises LookupError (unknown edition), KeyError or TypeError (a header of the wrong shape)."""
    minutes = meta.get("length_minutes")
    return GameConfig(load_edition(meta["edition"]), meta["mode"], dict(meta["rules"]),
                      settlement=meta.get("settlement", LEGACY_SETTLEMENT),
                      rules_version=meta.get("rules_version", LEGACY_RULES_VERSION),
                      time_limit_s=60 * minutes if type(minutes) is int else None)


def _checks(path: Path, key: bytes) -> Iterator[dict[str, Any]]:
    """The judgment of the game at ``path``, read in place in one read transaction: the message after SQLite's
    quick check (``{"stage": "quick", "ok", "problem"}``), then the one after the full audit (``{"stage": "full",
    "ok", "summary", "seq", "mac"}``: the last entry it verified). Reads only."""
    try:
        ledger = Ledger.open(path, key, read_only=True, copy=False)
    except GameError as exc:
        yield {"stage": "quick", "ok": False, "problem": one_line(exc)}
        return
    try:
        ledger.db.execute("BEGIN")  # one read transaction: one moment of the game, whatever the table writes
        ok, problem = quick_check(ledger)
        yield {"stage": "quick", "ok": ok, "problem": problem}
        report = audit_ledger(ledger, game_config(ledger.meta()))
        last = ledger.last_entry()
        yield {"stage": "full", "ok": report.ok, "summary": report.summary(), "seq": last[0] if last else 0,
               "mac": last[1] if last else ""}
    except (GameError, *DAMAGE) as exc:
        yield {"stage": "quick", "ok": False, "problem": one_line(exc)[:300]}
        yield {"stage": "full", "ok": False, "summary": one_line(exc)[:300]}
    finally:
        ledger.discard()


def _worker(path: Path, key: bytes) -> None:
    """``python -m terminal.bank.audit GAME`` (key in hex on standard input): one JSON line after the quick
    check, one after the full audit (:func:`_checks`). Reads only."""
    for message in _checks(path, key):
        print(json.dumps(message), flush=True)
        if message["stage"] == "quick":  # the quick check answered: now the tap loop goes first whenever both
            # want the processor (a refusal, a system-call filter's, is told to the terminal, which logs it)
            lowered = lower_priority("the background audit", BACKGROUND_NICE, thread=False)
            print(json.dumps({"stage": "priority", "lowered": lowered}), flush=True)


if __name__ == "__main__":
    _worker(Path(sys.argv[1]), bytes.fromhex(sys.stdin.readline().strip()))
