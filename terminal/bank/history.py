"""The journal read for what shows or writes a long game: the history screen a page at a time, the end-of-game
chart from a bounded number of points, and the export as a stream.

Everything here only reads the game's connection (the one of the open game, or a read-only view of it) and
keeps in memory what one page, the chart's points or one chunk of the export needs, whatever the length of the
game. The entries read are those of :meth:`terminal.Game.history` (``{"seq", "kind", "op", "undoes",
"postings", "undone", "recorded_at"}``), the play clock's entries left out unless asked for.
"""
from __future__ import annotations

import bisect
import hashlib
import hmac
import json
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

from cards.editions import Edition
from terminal.bank.ledger.journal import Ledger
from terminal.bank.ledger.records import canonical, transfers
from terminal.bank.ledger.schema import CLOCK_ENTRY, CLOCK_INDEX
from terminal.bank.operations import CLOCK_OPERATIONS
from terminal.bank.state import State, worth
from terminal.bank.types import Debt

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
        out.append({"seq": seq, "kind": kind, "op": op, "undoes": undoes, "postings": transfers(rows.get(seq, [])),
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
        self._seqs: list[int] | None = None  # the seq of each entry shown, only for a journal with a gap
        count = ledger.db.execute("SELECT COUNT(*) FROM journal").fetchone()[0]  # SQLite counts without reading
        if count != self.last:  # a damaged file: an entry is missing (the audit says which)
            clock = set(self._clock)
            self._seqs = [row[0] for row in ledger.db.execute(
                "SELECT seq FROM journal WHERE seq <= ? ORDER BY seq", [self.last]) if row[0] not in clock]
            cash = dict(ledger.db.execute(  # the postings that are there, not the stored state
                "SELECT account, SUM(amount) FROM postings WHERE seq <= ? GROUP BY account", [self.last]))
        self._end_cash = {p: int(cash.get(p, 0)) for p in self.players}
        self._anchor: tuple[int, dict[str, int]] = (self.last, dict(self._end_cash))
        self._rows: dict[int, dict[str, Any]] = {}  # index -> entry, for the pages read so far (one or two)

    def __len__(self) -> int:
        return len(self._seqs) if self._seqs is not None else self.last - len(self._clock)

    def seq_of(self, index: int) -> int:
        """The ``seq`` of the ``index``-th entry shown (0: the first)."""
        if self._seqs is not None:
            return self._seqs[index]
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
            return [self._rows[i] for i in range(start, stop) if i in self._rows]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("history index out of range")
        self._read(index, index + 1)
        if index not in self._rows:
            raise IndexError(f"history entry {index} can no longer be read: the game was closed")
        return self._rows[index]

    def _read(self, start: int, stop: int) -> None:
        if stop <= start or all(i in self._rows for i in range(start, stop)):
            return
        if len(self._rows) > 4 * (stop - start) + 64:
            self._rows.clear()  # keep about a page: what is shown
        try:
            entries = read_entries(self._ledger, self.seq_of(start), self.seq_of(stop - 1), self.last)
        except sqlite3.ProgrammingError:  # the game was closed since (its file is read no more)
            entries = []
        for offset, entry in enumerate(entries):
            self._rows[start + offset] = entry

    def balances(self, index: int) -> dict[str, int]:
        """Each player's cash after the ``index``-th entry shown: the sum of the postings up to it (empty once
        the game is closed)."""
        seq = self.seq_of(index)
        anchors = [(0, dict.fromkeys(self.players, 0)), self._anchor, (self.last, self._end_cash)]
        base_seq, base = min(anchors, key=lambda a: abs(a[0] - seq))
        cash = dict(base)
        low, high, sign = (base_seq, seq, 1) if seq >= base_seq else (seq, base_seq, -1)
        if high > low:
            try:
                sums = self._ledger.db.execute(
                    "SELECT account, SUM(amount) FROM postings WHERE seq > ? AND seq <= ? GROUP BY account",
                    [low, high]).fetchall()
            except sqlite3.ProgrammingError:  # the game was closed since: no balance to show
                return {}
            for account, amount in sums:
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


#: What a stretch of entries did to the worth: the postings summed per account, and the last value recorded
#: of each ``(section, key)`` a worth depends on.
Stretch = tuple[dict[str, int], dict[tuple[str, Any], Any]]


def _aggregate(ledger: Ledger, first: int, last: int, stride: int) -> dict[int, Stretch]:
    """The stretches ``(seq - 1) // stride`` of the entries ``first <= seq <= last``, counted by SQLite."""
    out: dict[int, Stretch] = {}
    if last < first:
        return out
    db = ledger.db
    for bucket, account, amount in db.execute(
            "SELECT (seq - 1) / ? AS b, account, SUM(amount) FROM postings WHERE seq BETWEEN ? AND ? "
            "GROUP BY b, account", [stride, first, last]):
        out.setdefault(bucket, ({}, {}))[0][account] = amount
    sections = ", ".join(f"'{s}'" for s in _WORTH_SECTIONS)
    for bucket, section, key, after, _order in db.execute(
            "SELECT (j.seq - 1) / ? AS b, json_extract(c.value, '$[0]') AS section, "
            "json_extract(c.value, '$[1]') AS k, json_quote(json_extract(c.value, '$[3]')), "
            "MAX(j.seq * 65536 + c.key) FROM journal AS j, json_each(j.changes) AS c "
            f"WHERE j.seq BETWEEN ? AND ? AND j.changes != '[]' AND section IN ({sections}) GROUP BY b, section, k",
            [stride, first, last]):
        out.setdefault(bucket, ({}, {}))[1][(section, _key(section, key))] = json.loads(after)
    return out


def _key(section: str, key: Any) -> Any:
    """A change's key as the state holds it: a square for deeds, houses and mortgages, else a name."""
    return int(key) if section in ("owner", "level", "mortgaged") else str(key)


def _merge(stretches: Sequence[Stretch]) -> Stretch:
    cash: dict[str, int] = {}
    values: dict[tuple[str, Any], Any] = {}
    for part_cash, part_values in stretches:
        for account, amount in part_cash.items():
            cash[account] = cash.get(account, 0) + amount
        values.update(part_values)
    return cash, values


# -- the chart's summary, kept in the game's file -------------------------------------------------------------
# A game longer than CHART_POINTS entries is charted in stretches of 2**level entries (the smallest power of two
# that gives at most CHART_POINTS of them). The stretches already complete are kept in the table chart_summary
# (written when the game is closed, see keep_summary): a pure function of the journal, each row tied to the entry
# that ends its stretch (its keyed hash) and signed with the device key, so a row that does not match is not used
# (counted again from the journal) and the audit names it (summary_problems). A file without the table (older, or
# opened read-only) is charted from the journal alone: the same points, read in more time.
_SUMMARY_TABLE = ("CREATE TABLE IF NOT EXISTS chart_summary (level INTEGER NOT NULL, bucket INTEGER NOT NULL, "
                  "last_mac TEXT NOT NULL, data TEXT NOT NULL, mac TEXT NOT NULL, PRIMARY KEY (level, bucket))")


def chart_level(last: int, limit: int = CHART_POINTS) -> int:
    """The level of the chart's stretches for a journal of ``last`` entries (0: every entry a point)."""
    level = 0
    while (1 << level) * max(1, limit) < last:
        level += 1
    return level


def _row_mac(ledger: Ledger, level: int, bucket: int, last_mac: str, data: str) -> str:
    return ledger.keys.mac(canonical(["chart_summary", level, bucket, last_mac, data]))


def _encode(stretch: Stretch) -> str:
    cash, values = stretch
    ordered = sorted(values.items(), key=lambda item: (item[0][0], str(item[0][1])))
    return canonical({"cash": cash, "values": [[section, key, value] for (section, key), value in ordered]})


def _decode(data: str) -> Stretch:
    raw = json.loads(data)
    return ({str(a): int(v) for a, v in raw["cash"].items()},
            {(str(section), _key(str(section), key)): value for section, key, value in raw["values"]})


# The seal of the summary: one row signed with the device key, written with the rows (keep_summary, and the
# terminal's tick once every complete stretch of the level is kept), that holds the digest of the rows of its
# level below ``complete`` and the keyed hash of the entry that ends the last of them. The journal is a keyed hash
# chain, so that one entry's hash unchanged ties every row the seal covers: the chart's first draw reads the rows
# and one entry of the journal instead of one per row (a cold file's random reads). A seal that does not verify
# is not used (the rows are then tied one by one).
_SEAL_TABLE = ("CREATE TABLE IF NOT EXISTS chart_seal (id INTEGER PRIMARY KEY CHECK (id = 1), level INTEGER NOT NULL, "
               "complete INTEGER NOT NULL, last_mac TEXT NOT NULL, digest TEXT NOT NULL, mac TEXT NOT NULL)")


def _digest(rows: Sequence[tuple[Any, ...]]) -> str:
    return hashlib.sha256(canonical([list(row) for row in rows]).encode()).hexdigest()


def _seal_mac(ledger: Ledger, level: int, complete: int, last_mac: str, digest: str) -> str:
    return ledger.keys.mac(canonical(["chart_seal", level, complete, last_mac, digest]))


def _write_seal(ledger: Ledger, level: int, complete: int) -> None:
    """Seal the rows of ``level`` below ``complete`` (inside the caller's write; every one of them tied to its
    entry, which the caller has checked)."""
    db = ledger.db
    rows = db.execute("SELECT bucket, last_mac, data, mac FROM chart_summary WHERE level = ? AND bucket < ? "
                      "ORDER BY bucket", [level, complete]).fetchall()
    db.execute(_SEAL_TABLE)
    if len(rows) != complete or complete == 0:
        db.execute("DELETE FROM chart_seal")
        return
    last_mac, digest = str(rows[-1][1]), _digest(rows)
    db.execute("INSERT OR REPLACE INTO chart_seal(id, level, complete, last_mac, digest, mac) "
               "VALUES (1, ?, ?, ?, ?, ?)",
               [level, complete, last_mac, digest, _seal_mac(ledger, level, complete, last_mac, digest)])


def _sealed_as(ledger: Ledger, level: int, complete: int) -> bool:
    """Whether the seal is there for ``level`` and ``complete`` (not verified: :func:`_sealed` does)."""
    try:
        return ledger.db.execute("SELECT 1 FROM chart_seal WHERE id = 1 AND level = ? AND complete = ?",
                                 [level, complete]).fetchone() is not None
    except sqlite3.OperationalError as exc:
        if not _no_table(exc):
            raise
        return False


def _sealed(ledger: Ledger, level: int, complete: int) -> tuple[int, dict[int, Stretch]]:
    """``(n, stretches)``: the rows of ``level`` below ``n <= complete`` that the seal covers and ties, decoded;
    ``(0, {})`` without a seal of that level that verifies."""
    db = ledger.db
    try:
        seal = db.execute("SELECT level, complete, last_mac, digest, mac FROM chart_seal WHERE id = 1").fetchone()
    except sqlite3.OperationalError as exc:
        if not _no_table(exc):
            raise
        return 0, {}
    if seal is None:
        return 0, {}
    stored, n, last_mac, digest, mac = seal
    if stored != level or not isinstance(n, int) or not 0 < n <= complete or not isinstance(last_mac, str) \
            or not isinstance(digest, str) \
            or not hmac.compare_digest(str(mac), _seal_mac(ledger, level, n, last_mac, digest)):
        return 0, {}
    entry = db.execute("SELECT mac FROM journal WHERE seq = ?", [n << level]).fetchone()
    if entry is None or entry[0] != last_mac:
        return 0, {}
    rows = db.execute("SELECT bucket, last_mac, data, mac FROM chart_summary WHERE level = ? AND bucket < ? "
                      "ORDER BY bucket", [level, n]).fetchall()
    if len(rows) != n or not hmac.compare_digest(_digest(rows), digest):
        return 0, {}
    try:
        return n, {int(bucket): _decode(data) for bucket, _, data, _ in rows}
    except (ValueError, TypeError, KeyError, AttributeError):
        return 0, {}


def _stored_summary(ledger: Ledger, level: int, complete: int, start: int = 0) -> dict[int, Stretch]:
    """The verified stretches of ``level`` from ``start`` to below ``complete`` kept in the file: each from its
    own row, else merged from the rows of finer levels that cover it (while the summary kept during play moves to
    a new level, both are there); rows that do not verify (edited, or tied to an entry that is no longer the one
    they were counted from) are left out."""
    db = ledger.db
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chart_summary'").fetchone() is None:
        return {}
    sealed: dict[int, Stretch] = {}
    if start == 0:  # the chart's draw: the rows the seal ties, then the others one by one
        start, sealed = _sealed(ledger, level, complete)
        if start >= complete:
            return sealed
    rows: dict[tuple[int, int], Stretch] = {}
    for stored, bucket, last_mac, data, mac, entry_mac in db.execute(
            "SELECT s.level, s.bucket, s.last_mac, s.data, s.mac, j.mac FROM chart_summary AS s "
            "LEFT JOIN journal AS j ON j.seq = (s.bucket + 1) << s.level WHERE s.level <= ? "
            "AND s.bucket << s.level >= ? AND (s.bucket + 1) << s.level <= ? ORDER BY s.level, s.bucket",
            [level, start << level, complete << level]):
        if entry_mac is None or entry_mac != last_mac or not isinstance(data, str) \
                or not hmac.compare_digest(str(mac), _row_mac(ledger, stored, bucket, last_mac, data)):
            continue
        try:
            rows[(int(stored), int(bucket))] = _decode(data)
        except (ValueError, TypeError, KeyError, AttributeError):
            continue
    if not rows:
        return sealed
    finest = min(stored for stored, _ in rows)

    def stretch(at: int, bucket: int) -> Stretch | None:
        found = rows.get((at, bucket))
        if found is not None or at <= finest:
            return found
        first = stretch(at - 1, 2 * bucket)
        second = stretch(at - 1, 2 * bucket + 1) if first is not None else None
        return _merge([first, second]) if first is not None and second is not None else None

    out: dict[int, Stretch] = sealed
    for bucket in range(start, complete):
        found = stretch(level, bucket)
        if found is not None:
            out[bucket] = found
    return out


def _kept(ledger: Ledger, level: int, complete: int) -> set[int]:
    """The buckets below ``complete`` whose row of ``level`` is tied to the entry that ends them now (its keyed
    hash); a row whose entry is no longer that one is not counted (it is rewritten)."""
    return {row[0] for row in ledger.db.execute(
        "SELECT s.bucket FROM chart_summary AS s JOIN journal AS j ON j.seq = (s.bucket + 1) << s.level "
        "WHERE s.level = ? AND s.bucket < ? AND j.mac = s.last_mac", [level, complete])}


def _stretches(ledger: Ledger, last: int, level: int, limit: int) -> dict[int, Stretch]:
    """Every stretch of ``level`` up to entry ``last``: the complete ones from the summary where it holds them,
    the others (and the last, incomplete one) counted from the journal."""
    span = 1 << level
    if level == 0 or last <= limit:
        return _aggregate(ledger, 1, last, span)
    complete = last // span
    out = _stored_summary(ledger, level, complete)
    bucket = 0
    while bucket < complete:  # each run of missing stretches in one count
        if bucket in out:
            bucket += 1
            continue
        end = bucket
        while end < complete and end not in out:
            end += 1
        out.update(_aggregate(ledger, bucket * span + 1, end * span, span))
        for b in range(bucket, end):
            out.setdefault(b, ({}, {}))
        bucket = end
    out.update(_aggregate(ledger, complete * span + 1, last, span))
    return out


def keep_summary(ledger: Ledger, limit: int = CHART_POINTS) -> int:
    """Write the chart's complete stretches that the file does not hold yet (at the level the game's length
    needs; the rows of another level are dropped), in one transaction. Returns how many rows were written (0
    for a game of at most ``limit`` entries: its chart reads every entry). Raises what the write raises."""
    last = _last_seq(ledger)
    level = chart_level(last, limit)
    if last <= limit or level == 0:
        return 0
    span = 1 << level
    complete = last // span
    db = ledger.db
    have: set[int] = set()
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chart_summary'").fetchone():
        have = _kept(ledger, level, complete)
    if len(have) >= complete and all(b in have for b in range(complete)):
        if _sealed_as(ledger, level, complete):
            return 0
        with ledger.writing():  # a file from before the seal, or one sealed at fewer stretches
            _write_seal(ledger, level, complete)
        return 0
    stretches = _stretches(ledger, complete * span, level, limit)
    macs = dict(db.execute("SELECT seq, mac FROM journal WHERE seq % ? = 0 AND seq <= ?", [span, complete * span]))
    written = 0
    with ledger.writing():
        db.execute(_SUMMARY_TABLE)
        db.execute("DELETE FROM chart_summary WHERE level != ?", [level])
        for bucket in range(complete):
            last_mac = macs.get((bucket + 1) * span)
            if bucket in have or last_mac is None:
                continue
            data = _encode(stretches.get(bucket, ({}, {})))
            db.execute("INSERT OR REPLACE INTO chart_summary(level, bucket, last_mac, data, mac) "
                       "VALUES (?, ?, ?, ?, ?)", [level, bucket, last_mac, data,
                                                  _row_mac(ledger, level, bucket, last_mac, data)])
            written += 1
        _write_seal(ledger, level, complete)
    return written


#: What :func:`maintain_summary` does at most per call: stretches counted from the journal, rows merged from
#: those of the finer level (no journal read), and the time it may take (checked after each stretch).
MAINTAIN_STRETCHES = 2
MAINTAIN_MERGES = 32
MAINTAIN_BUDGET_S = 0.002


def _no_table(exc: sqlite3.OperationalError) -> bool:
    return "no such table" in str(exc)


def maintain_summary(ledger: Ledger, limit: int = CHART_POINTS, stretches: int = MAINTAIN_STRETCHES,
                     budget_s: float = MAINTAIN_BUDGET_S, merges: int = MAINTAIN_MERGES) -> int:
    """Keep the chart's summary up to date as the game goes, a bounded step at a time (the terminal's tick):
    write the rows of the stretches completed since the last one kept (a stretch is complete once its last
    entry exists), at most ``stretches`` of them counted from the journal and ``merges`` merged from the rows of
    the finer level (when the game's length moves the chart to longer stretches), stopping after the stretch
    that passes ``budget_s``; a row tied to an entry that is no longer the one it was counted from is rewritten.
    Once every complete stretch of the level is kept, the rows of other levels are dropped. The rows are those
    :func:`keep_summary` writes. When there is nothing to do it reads the last entry and one count of the
    summary's index. Returns how many rows were written; raises what the write raises."""
    last_entry = ledger.last_entry()
    if last_entry is None or last_entry[0] <= limit:
        return 0
    last = last_entry[0]
    level = chart_level(last, limit)
    if level == 0:
        return 0
    span = 1 << level
    complete = last // span
    db = ledger.db
    try:
        count, tied, others = db.execute(
            "SELECT (SELECT COUNT(*) FROM chart_summary WHERE level = ? AND bucket < ?), "
            "(SELECT s.last_mac = j.mac FROM chart_summary AS s, journal AS j WHERE s.level = ? AND s.bucket = ? "
            "AND j.seq = ?), (SELECT COUNT(*) FROM chart_summary WHERE level != ?)",
            [level, complete, level, complete - 1, complete * span, level]).fetchone()
    except sqlite3.OperationalError as exc:  # a file from before the summary: it catches up from the start
        if not _no_table(exc):
            raise
        count, tied, others = 0, None, 0
    if count == complete and tied and not others:
        return 0  # the journal is appended to only: the last row tied to its entry ties those before it
    kept = _kept(ledger, level, complete) if count else set()
    todo = [bucket for bucket in range(complete) if bucket not in kept]
    rows: dict[int, Stretch] = {}
    first = todo[:max(merges, stretches, 1)]  # the next ones, in order
    if first:  # merged from the finer level's rows, where they are kept and verify
        finer = _stored_summary(ledger, level - 1, 2 * first[-1] + 2, 2 * first[0])
        for bucket in first[:merges]:
            if 2 * bucket in finer and 2 * bucket + 1 in finer:
                rows[bucket] = _merge([finer[2 * bucket], finer[2 * bucket + 1]])
    deadline = time.perf_counter() + budget_s
    counted = 0
    for bucket in first:
        if counted >= stretches or (counted and time.perf_counter() > deadline):
            break
        if bucket in rows:
            continue
        rows[bucket] = _aggregate(ledger, bucket * span + 1, (bucket + 1) * span, span).get(bucket, ({}, {}))
        counted += 1
    if not rows and not (not todo and others):
        return 0
    macs = dict(db.execute(f"SELECT seq, mac FROM journal WHERE seq IN ({', '.join('?' * len(rows))})",
                           [(bucket + 1) * span for bucket in rows])) if rows else {}
    written = 0
    with ledger.writing():
        db.execute(_SUMMARY_TABLE)
        for bucket, stretch in sorted(rows.items()):
            last_mac = macs.get((bucket + 1) * span)
            if last_mac is None:
                continue
            data = _encode(stretch)
            db.execute("INSERT OR REPLACE INTO chart_summary(level, bucket, last_mac, data, mac) "
                       "VALUES (?, ?, ?, ?, ?)", [level, bucket, last_mac, data,
                                                  _row_mac(ledger, level, bucket, last_mac, data)])
            written += 1
        if written == len(todo):  # every complete stretch of the level kept: the other levels are of no use
            db.execute("DELETE FROM chart_summary WHERE level != ?", [level])
            _write_seal(ledger, level, complete)
    return written


def keep(ledger: Ledger, limit: int = CHART_POINTS) -> None:
    """What a clean close of a game opened to play leaves for the screens of a long game: the index of the play
    clock's entries (made for a file written before it) and the chart's summary (:func:`keep_summary`)."""
    if ledger.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'journal_clock'").fetchone() \
            is None:
        with ledger.writing():
            ledger.db.execute(CLOCK_INDEX)
    keep_summary(ledger, limit)


def summary_problems(ledger: Ledger) -> list[str]:
    """What in the chart's summary does not match the journal (a row edited, or tied to an entry that is no
    longer the one it was counted from): one sentence per kind of problem; empty when all matches."""
    db = ledger.db
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chart_summary'").fetchone() is None:
        return []
    bad: list[int] = []
    for level, bucket, last_mac, data, mac in db.execute(
            "SELECT level, bucket, last_mac, data, mac FROM chart_summary ORDER BY level, bucket"):
        span = 1 << int(level)
        entry = db.execute("SELECT mac FROM journal WHERE seq = ?", [(bucket + 1) * span]).fetchone()
        counted = _aggregate(ledger, bucket * span + 1, (bucket + 1) * span, span).get(bucket, ({}, {}))
        if entry is None or entry[0] != last_mac or not isinstance(data, str) \
                or not hmac.compare_digest(str(mac), _row_mac(ledger, level, bucket, last_mac, data)) \
                or data != _encode(counted):
            bad.append(int(bucket) * span + 1)
    if not bad:
        return []
    return [(f"The chart's summary does not match the journal from entry #{bad[0]} ({len(bad)} stretch(es) of "
             f"entries): it was edited outside the terminal.")]


def worth_series(ledger: Ledger, edition: Edition, players: Sequence[str], houses_before_hotel: int,
                 limit: int = CHART_POINTS) -> WorthSeries:
    """The points of the end-of-game chart: the worth at the end of each stretch of entries (every entry while
    the game has at most ``limit``; else the stretches of :func:`chart_level`), and always after the last entry.
    Each stretch's postings summed and the last value of what a worth depends on (deeds, houses, mortgages,
    debts, bankruptcies) come from the chart's summary or are counted by SQLite; Python builds the state at the
    end of each stretch and values it with :func:`terminal.bank.state.worth`."""
    players = tuple(players)
    last = _last_seq(ledger)
    if last == 0:
        return WorthSeries()
    clock = clock_seqs(ledger, last)
    level = chart_level(last, limit)
    span = 1 << level
    stretches = _stretches(ledger, last, level, limit)
    state = State.new(edition, players)
    points: list[dict[str, int]] = []
    positions: list[int] = []
    for bucket in range((last - 1) // span + 1):
        cash, values = stretches.get(bucket, ({}, {}))
        for account, amount in cash.items():
            if account in state.cash:
                state.cash[account] += amount
        for (section, key), value in values.items():
            if section == "debts":
                state.debts = tuple(Debt.from_json(d) for d in value or ())
            elif section == "bankrupt":
                _set(state.bankrupt, section, key, list(value) if value is not None else None)
            else:
                _set(getattr(state, section), section, key, value)
        start, end = bucket * span, min(last, (bucket + 1) * span)
        shown = end - bisect.bisect_right(clock, end)  # entries shown up to the end of the stretch
        if shown == start - bisect.bisect_right(clock, start):
            continue  # a stretch of clock entries only: no point, as in the history
        positions.append(shown - 1)
        points.append({p: worth(state, edition, p, houses_before_hotel) for p in players})
    return WorthSeries(tuple(points), tuple(positions), last - len(clock))
