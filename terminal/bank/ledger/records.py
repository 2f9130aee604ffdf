"""The journal's stored forms: the one JSON spelling every text is stored and hashed in (:func:`canonical`), an
entry's signed posting rows, an entry as read back (:class:`Entry`).

Each text is spelled once: an entry's keyed hash is computed over the very texts stored
(:func:`entry_payload`), a list's canonical spelling being its items' spellings joined by commas.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from terminal.bank.types import Posting

#: A posting's signed row as stored: ``(n, account, amount)``.
Row = tuple[int, str, int]

_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
encode_str: Callable[[str], str] = json.encoder.encode_basestring
# json.dumps builds an encoder on every call; the one spelling is made here once (the C encoder json.dumps uses,
# with the same options; no check for circular values, which a journal never holds: RecursionError then).
_c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
_ENCODE: Callable[[Any, int], Sequence[str]] | None = (
    None if _c_make_encoder is None else
    _c_make_encoder(None, _CANONICAL.default, encode_str, None, ":", ",", True, False, True))


def canonical(value: Any) -> str:
    """The one JSON spelling hashed and stored: sorted keys, no spaces, UTF-8 kept (``json.dumps(value,
    sort_keys=True, separators=(",", ":"), ensure_ascii=False)``)."""
    if type(value) is str:
        return encode_str(value)
    if _ENCODE is None:
        return _CANONICAL.encode(value)
    return "".join(_ENCODE(value, 0))



def rows_text(rows: Sequence[Row]) -> str:
    """``canonical`` of the signed rows as lists (the form the keyed hash covers)."""
    parts = []
    for r in rows:
        if len(r) != 3 or type(r[0]) is not int or type(r[1]) is not str or type(r[2]) is not int:
            return canonical([list(r) for r in rows])
        parts.append(f"[{r[0]},{encode_str(r[1])},{r[2]}]")
    return "[" + ",".join(parts) + "]"



def keys_are_texts(value: Any) -> bool:
    """Whether every object inside ``value`` (lists, tuples, dicts of JSON values) has text keys only: then its
    canonical spelling is also that of the value it reads back as (``json.loads``)."""
    t = type(value)
    if t is dict:
        for k, v in value.items():
            if type(k) is not str or (type(v) not in _SCALARS and not keys_are_texts(v)):
                return False
    elif t is list or isinstance(value, tuple):
        for v in value:
            if type(v) not in _SCALARS and not keys_are_texts(v):
                return False
    return True


_SCALARS = frozenset((str, int, bool, float, type(None)))

def entry_payload(prev_mac: Any, seq: int, kind: Any, op_text: str, undoes: Any, rows_text: str,
                   changes_text: str, recorded_at: Any) -> str:
    """The text an entry's keyed hash covers, ``canonical([prev_mac, seq, kind, op, undoes, rows, changes,
    recorded_at])``, put together from the canonical texts of ``op``, the rows and the changes (each a
    complete JSON value: a list's canonical spelling is its items' spellings joined by commas)."""
    u = "null" if undoes is None else (str(undoes) if type(undoes) is int else canonical(undoes))
    return (f"[{canonical(prev_mac)},{seq if type(seq) is int else canonical(seq)},{canonical(kind)},{op_text},"
            f"{u},{rows_text},{changes_text},{canonical(recorded_at)}]")  # canonical(str): one C call


#: A posting's signed row as stored: ``(n, account, amount)``.

def posting_rows(postings: Sequence[tuple[str, str, int]]) -> list[Row]:
    """Signed rows ``(n, account, amount)``: a transfer of A to B of x is (A, -x) then (B, +x)."""
    rows: list[Row] = []
    for i, (payer, payee, amount) in enumerate(postings):
        rows.append((2 * i, payer, -amount))
        rows.append((2 * i + 1, payee, amount))
    return rows


def transfers(rows: Sequence[Sequence[Any]]) -> list[Posting]:
    """The transfers of an entry from its signed rows ``(n, account, amount)`` in order (:func:`posting_rows`
    read back)."""
    return [Posting(rows[i][1], rows[i + 1][1], rows[i + 1][2]) for i in range(0, len(rows) - 1, 2)]


@dataclass(frozen=True)
class Entry:
    """One journal entry as stored. ``postings``: the :class:`~terminal.bank.types.Posting` transfers rebuilt
    from the signed rows. ``changes``: ``[section, key, before, after]`` lists, exactly as read back (the keyed
    hash covers them in that form; :meth:`terminal.bank.types.Effects.recorded` makes them
    :class:`~terminal.bank.types.Change` records)."""

    seq: int
    kind: str
    op: dict[str, Any]
    undoes: int | None
    postings: list[Posting]
    changes: list[list[Any]]
    recorded_at: str
    mac: str
