"""The journal read the slow, obvious way, as oracles for the Bank's own readers (which read a page, a chunk or a
summary at a time: terminal/bank/history.py)."""
from __future__ import annotations

from typing import Any

from terminal.bank import engine
from terminal.bank.operations import CLOCK_OPERATIONS
from terminal.bank.state import State, worth
from terminal.bank.types import Effects


def journal_of(game: Any, with_clock: bool = False) -> list[dict[str, Any]]:
    """The journal, oldest first: ``{"seq", "kind", "op", "undoes", "postings", "undone", "recorded_at"}``; the
    clock's entries (play time) only ``with_clock`` (what the history screen's pages show, all at once)."""
    entries = list(game.ledger.entries())
    undone = {e.undoes for e in entries if e.undoes is not None}
    return [{"seq": e.seq, "kind": e.kind, "op": e.op, "undoes": e.undoes, "postings": e.postings,
             "undone": e.seq in undone, "recorded_at": e.recorded_at} for e in entries
            if with_clock or e.op.get("op") not in CLOCK_OPERATIONS]


def worth_history(game: Any) -> list[dict[str, int]]:
    """Every player's worth after each journal entry (setup first), the clock's entries left out: what the
    end-of-game chart draws (:meth:`terminal.Game.worth_series` gives it at a bounded number of points)."""
    state = State.new(game.edition, game.players)
    out: list[dict[str, int]] = []
    hbh = game.config.houses_before_hotel
    for entry in game.ledger.entries():
        if entry.op.get("op") in CLOCK_OPERATIONS:
            continue  # no money moves
        state = engine.replay_effects(state, Effects.recorded(entry.postings, entry.changes))
        out.append({p: worth(state, game.edition, p, hbh) for p in game.players})
    return out
