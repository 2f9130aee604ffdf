"""The journal read for what shows or writes a long game: the history screen a page at a time, the end-of-game
chart from a bounded number of points, and the export as a stream.

Everything here only reads the game's connection (the one of the open game, or a read-only view of it) and
keeps in memory what one page, the chart's points or one chunk of the export needs, whatever the length of the
game. The entries read are those of :meth:`terminal.Game.history` (``{"seq", "kind", "op", "undoes",
"postings", "undone", "recorded_at"}``), the play clock's entries left out unless asked for.
"""
from __future__ import annotations

import bisect
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

from cards.editions import Edition
from terminal.bank.ledger import CLOCK_ENTRY, Ledger
from terminal.bank.operations import CLOCK_OPERATIONS
from terminal.bank.state import State, worth
from terminal.bank.types import Debt, Posting

#: Entries read per query when the whole journal is walked (the export).
CHUNK = 512
#: At most this many points on the end-of-game chart (every entry's point while the game has no more).
CHART_POINTS = 400

# The same condition as the journal's index of the play clock's entries (ledger.CLOCK_INDEX), so SQLite uses it.
_CLOCK = CLOCK_ENTRY
# What the worth of a player depends on besides cash (see terminal.bank.state.worth).
_WORTH_SECTIONS = ("owner", "level", "mortgaged", "debts", "bankrupt")


def clock_seqs(ledger: Ledger, last: int) -> list[int]:
    """The ``seq`` of every play-clock entry up to ``last``, in order (read from their index)."""
    return [row[0] for row in ledger.db.execute(f"SELECT seq FROM journal WHERE {_CLOCK} AND seq <= ? ORDER BY seq",
                                                [last])]


def _last_seq(ledger: Ledger) -> int:
    last = ledger.last_entry()
    return last[0] if last else 0


def _transfers(rows: Sequence[tuple[int, str, int]]) -> list[Posting]:
    """The transfers of an entry from its signed rows ``(n, account, amount)`` in order."""
    return [Posting(rows[i][1], rows[i + 1][1], rows[i + 1][2]) for i in range(0, len(rows) - 1, 2)]


def read_entries(ledger: Ledger, first: int, last: int, upto: int, with_clock: bool = False) -> list[dict[str, Any]]:
    """The entries with ``first <= seq <= last`` as :meth:`terminal.Game.history` gives them, ``undone`` as
    of entry ``upto`` (an undo written after it does not count)."""
    db = ledger.db
    rows: dict[int, list[tuple[int, str, int]]] = {}
    for seq, n, account, amount in db.execute(
            "SELECT seq, n, account, amount FROM postings WHERE seq BETWEEN ? AND ? ORDER BY seq, n", [first, last]):
        rows.setdefault(seq, []).append((n, account, amount))
    undone = {row[0] for row in db.execute(
        "SELECT undoes FROM journal WHERE undoes BETWEEN ? AND ? AND seq <= ?", [first, last, upto])}
    out: list[dict[str, Any]] = []
    for seq, kind, op_text, undoes, recorded_at in db.execute(
            "SELECT seq, kind, op, undoes, recorded_at FROM journal WHERE seq BETWEEN ? AND ? ORDER BY seq",
            [first, last]):
        op = json.loads(op_text)
        if not with_clock and op.get("op") in CLOCK_OPERATIONS:
            continue
        out.append({"seq": seq, "kind": kind, "op": op, "undoes": undoes, "postings": _transfers(rows.get(seq, [])),
                    "undone": seq in undone, "recorded_at": recorded_at})
    return out


def iter_history(ledger: Ledger, with_clock: bool = False, chunk: int = CHUNK) -> Iterator[dict[str, Any]]:
    """Every entry, oldest first, as :meth:`terminal.Game.history` lists them, read ``chunk`` entries at a time
    (the memory of one chunk, whatever the length of the game). The journal is the one of the moment the walk
    began: entries written meanwhile are not read."""
    last = _last_seq(ledger)
    for first in range(1, last + 1, chunk):
        yield from read_entries(ledger, first, min(first + chunk - 1, last), last, with_clock)


def iter_operations(ledger: Ledger, chunk: int = CHUNK) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """``(seq, kind, op)`` of every entry, oldest first, ``chunk`` entries at a time (the table log's export)."""
    last = _last_seq(ledger)
    for first in range(1, last + 1, chunk):
        for seq, kind, op_text in ledger.db.execute(
                "SELECT seq, kind, op FROM journal WHERE seq BETWEEN ? AND ? ORDER BY seq",
                [first, min(first + chunk - 1, last)]):
            yield seq, kind, json.loads(op_text)


class HistoryPages(Sequence[dict[str, Any]]):
    """The history screen's list: the journal as of its last entry when this was made (the clock's entries
    left out), read from the file a page at a time. ``len()`` and indexing as a list of
    :meth:`terminal.Game.history`'s entries; :meth:`balances` gives the players' cash after one of them.

    ``cash``: every account's balance after the last entry (the game's state), from which the balances of the
    entries near the end are counted back; those near the start are counted from zero."""

    def __init__(self, ledger: Ledger, players: Sequence[str], cash: Mapping[str, int]) -> None:
        self._ledger = ledger
        self.players = tuple(players)
        self.last = _last_seq(ledger)
        self._clock = clock_seqs(ledger, self.last)
        self._end_cash = {p: int(cash.get(p, 0)) for p in self.players}
        self._anchor: tuple[int, dict[str, int]] = (self.last, dict(self._end_cash))
        self._rows: dict[int, dict[str, Any]] = {}  # index -> entry, for the pages read so far (one or two)

    def __len__(self) -> int:
        return self.last - len(self._clock)

    def seq_of(self, index: int) -> int:
        """The ``seq`` of the ``index``-th entry shown (0: the first)."""
        seq = index + 1
        while True:  # the index-th number not in the clock's entries
            moved = index + 1 + bisect.bisect_right(self._clock, seq)
            if moved == seq:
                return seq
            seq = moved

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return [self[i] for i in range(start, stop, step)]
            self._read(start, stop)
            return [self._rows[i] for i in range(start, stop)]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("history index out of range")
        self._read(index, index + 1)
        return self._rows[index]

    def _read(self, start: int, stop: int) -> None:
        if stop <= start or all(i in self._rows for i in range(start, stop)):
            return
        if len(self._rows) > 4 * (stop - start) + 64:
            self._rows.clear()  # keep about a page: what is shown
        entries = read_entries(self._ledger, self.seq_of(start), self.seq_of(stop - 1), self.last)
        for offset, entry in enumerate(entries):
            self._rows[start + offset] = entry

    def balances(self, index: int) -> dict[str, int]:
        """Each player's cash after the ``index``-th entry shown: the sum of the postings up to it."""
        seq = self.seq_of(index)
        anchors = [(0, dict.fromkeys(self.players, 0)), self._anchor, (self.last, self._end_cash)]
        base_seq, base = min(anchors, key=lambda a: abs(a[0] - seq))
        cash = dict(base)
        low, high, sign = (base_seq, seq, 1) if seq >= base_seq else (seq, base_seq, -1)
        if high > low:
            for account, amount in self._ledger.db.execute(
                    "SELECT account, SUM(amount) FROM postings WHERE seq > ? AND seq <= ? GROUP BY account",
                    [low, high]):
                if account in cash:
                    cash[account] += sign * amount
        self._anchor = (seq, cash)
        return dict(cash)


# -- the end-of-game chart ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class WorthSeries(Sequence[dict[str, int]]):
    """Points of the players' worth over the game: ``points[k]`` is every player's worth after the entry shown
    at ``positions[k]`` (0: the setup) of ``length`` entries (the clock's left out). Every entry is a point while
    there are at most :data:`CHART_POINTS`; else one point per stretch of entries, the worth after its last one,
    and always the last entry's (the final worth, exact)."""

    points: tuple[dict[str, int], ...] = ()
    positions: tuple[int, ...] = ()
    length: int = 0

    def __len__(self) -> int:
        return len(self.points)

    @overload
    def __getitem__(self, index: int) -> dict[str, int]: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[dict[str, int]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, int] | Sequence[dict[str, int]]:
        return self.points[index]


def _set(table: dict[Any, Any], section: str, key: Any, value: Any) -> None:
    """One recorded change's value, as :func:`terminal.bank.engine.replay_effects` applies it."""
    if value is None or (section == "level" and value == 0) or (section == "mortgaged" and not value):
        table.pop(key, None)
    else:
        table[key] = value


def worth_series(ledger: Ledger, edition: Edition, players: Sequence[str], houses_before_hotel: int,
                 limit: int = CHART_POINTS) -> WorthSeries:
    """The points of the end-of-game chart, counted by SQLite in at most ``limit`` stretches of entries: the
    postings summed per stretch and account, and of each value a player's worth depends on (deeds, houses,
    mortgages, debts, bankruptcies) the last recorded in the stretch; Python then builds the state at the end
    of each stretch and values it with :func:`terminal.bank.state.worth`."""
    players = tuple(players)
    last = _last_seq(ledger)
    if last == 0:
        return WorthSeries()
    clock = clock_seqs(ledger, last)
    stride = max(1, -(-last // max(1, limit)))
    db = ledger.db
    cash_of: dict[int, dict[str, int]] = {}
    for bucket, account, amount in db.execute(
            "SELECT (seq - 1) / ? AS b, account, SUM(amount) FROM postings GROUP BY b, account", [stride]):
        cash_of.setdefault(bucket, {})[account] = amount
    sections = ", ".join(f"'{s}'" for s in _WORTH_SECTIONS)
    changes_of: dict[int, list[tuple[str, Any, str]]] = {}
    for bucket, section, key, after, _order in db.execute(
            "SELECT (j.seq - 1) / ? AS b, json_extract(c.value, '$[0]') AS section, "
            "json_extract(c.value, '$[1]') AS k, "
            "json_quote(json_extract(c.value, '$[3]')), MAX(j.seq * 65536 + c.key) "
            "FROM journal AS j, json_each(j.changes) AS c "
            f"WHERE j.changes != '[]' AND section IN ({sections}) GROUP BY b, section, k", [stride]):
        changes_of.setdefault(bucket, []).append((section, key, after))
    state = State.new(edition, players)
    points: list[dict[str, int]] = []
    positions: list[int] = []
    for bucket in range((last - 1) // stride + 1):
        for account, amount in cash_of.get(bucket, {}).items():
            if account in state.cash:
                state.cash[account] += amount
        for section, key, after in sorted(changes_of.get(bucket, ()), key=lambda c: c[0]):
            value = json.loads(after)
            if section == "debts":
                state.debts = tuple(Debt.of(d) for d in value or ())
            elif section == "bankrupt":
                _set(state.bankrupt, section, key, list(value) if value is not None else None)
            else:
                _set(getattr(state, section), section, int(key), value)
        end = min(last, (bucket + 1) * stride)
        clock_up_to = bisect.bisect_right(clock, end)
        shown = end - clock_up_to  # entries shown up to the end of the stretch
        start = bucket * stride
        first_shown = start - bisect.bisect_right(clock, start)  # entries shown before the stretch
        if shown == first_shown:
            continue  # a stretch of clock entries only: no point, as in the history
        positions.append(shown - 1)
        points.append({p: worth(state, edition, p, houses_before_hotel) for p in players})
    return WorthSeries(tuple(points), tuple(positions), last - len(clock))
