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

from dataclasses import dataclass, field

from terminal.bank import engine
from terminal.bank.ledger import Ledger, canonical
from terminal.bank.state import State
from terminal.bank.types import Effects, GameConfig
from terminal.errors import GameError


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
            return f"Audit passed: {self.entries} entries, hash chain, sums and replay all agree."
        where = f" First entry edited or inconsistent: #{self.first_bad_seq}." if self.first_bad_seq else ""
        return (f"Audit FAILED ({len(self.problems)} problem(s)).{where} "
                + " ".join(self.problems[:5]) + (" ..." if len(self.problems) > 5 else ""))


def _same(a, b) -> bool:
    return canonical(a) == canonical(b)


def audit_ledger(ledger: Ledger, config: GameConfig) -> AuditReport:
    """Run every check on ``ledger`` (see the module docstring) and return the report."""
    report = AuditReport()
    try:
        result = ledger.pragma("integrity_check")
    except Exception as exc:  # a damaged file may fail here
        report.fail(f"SQLite integrity check could not run: {exc}.")
        return report
    if result != "ok":
        report.fail(f"SQLite integrity check: {result}.")
    meta = ledger.meta()
    if meta.get("meta_mac") != ledger._meta_mac(meta):
        report.fail("The game's header (players, edition, rules) was edited.", 0)
        report.first_bad_seq = 0
    prev = meta.get("meta_mac", "")
    state = State.new(config.edition, tuple(meta["players"]))
    by_seq: dict[int, Effects] = {}
    ops: dict[int, dict] = {}
    expected_seq = 1
    for entry in ledger.entries():
        report.entries += 1
        seq = entry.seq
        if seq != expected_seq:
            report.fail(f"Entry #{expected_seq} is missing (next is #{seq}).", expected_seq)
        expected_seq = seq + 1
        rows = ledger.posting_rows_of(seq)
        mac = ledger.entry_mac(prev, seq, entry.kind, entry.op, entry.undoes, rows, entry.changes,
                               entry.recorded_at)
        if mac != entry.mac:
            report.fail(f"Entry #{seq} ({entry.op.get('op')}) does not match its keyed hash: it was edited "
                        f"outside the terminal.", seq)
        prev = entry.mac
        if sum(r[2] for r in rows) != 0:
            report.fail(f"Entry #{seq}: its postings do not sum to zero.", seq)
        recorded = Effects(postings=list(entry.postings), changes=[tuple(c) for c in entry.changes])
        try:
            if entry.kind == "setup":
                state_after, effects = engine.setup_effects(state, config, meta.get("dealt") or None)
            elif entry.kind == "undo":
                target = by_seq.get(entry.undoes)
                if target is None:
                    report.fail(f"Entry #{seq} undoes #{entry.undoes}, which is not an operation.", seq)
                    break
                effects = engine.undo_effects(state, config, ops[entry.undoes], target)
                state_after = engine.replay_effects(state, effects)
            else:
                state_after, effects = engine.apply(state, config, entry.op)
        except GameError as exc:
            report.fail(f"Entry #{seq} ({entry.op.get('op')}) is refused by the rules on replay: {exc}", seq)
            break
        if not _same(effects.to_json(), recorded.to_json()):
            report.fail(f"Entry #{seq} ({entry.op.get('op')}): recorded effects differ from the rules' result.", seq)
            break
        by_seq[seq] = effects
        ops[seq] = entry.op
        state = state_after
    try:
        projection = ledger.projection()
    except GameError as exc:
        report.fail(str(exc))
        return report
    if projection is None:
        report.fail("The file holds no current state.")
        return report
    proj_seq, proj_state, _ = projection
    last = ledger.last_entry()
    if last is None or proj_seq != last[0]:
        report.fail(f"The stored state reflects entry #{proj_seq}, the journal ends at #{last[0] if last else 0}.")
    if report.ok and not _same(state.to_json(), proj_state):
        report.fail("The stored state differs from a replay of the journal.")
    sql = ledger.balances_by_sql()
    for account, balance in proj_state["cash"].items():
        if sql.get(account, 0) != balance:
            report.fail(f"Account {account}: postings sum to {sql.get(account, 0)}, the stored state says "
                        f"{balance}.")
    if sum(sql.values()) != 0:
        report.fail(f"All accounts together sum to {sum(sql.values())}, not 0.")
    return report
