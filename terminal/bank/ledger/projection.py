"""The projection's text: the state after the last entry, in its canonical spelling (the ``projection`` table's
``state``), made once per entry with the spelling of every section that did not change reused."""
from __future__ import annotations

from typing import Any

from terminal.bank.ledger.records import canonical, encode_str


class ProjectionText:
    """The canonical spelling of successive states of one game (:meth:`text`), reusing each top-level section's
    spelling while it is equal to the one before: most operations change one or two sections of the state."""

    def __init__(self) -> None:
        self._parts: dict[str, tuple[Any, str]] = {}
        self._keys: tuple[set[str], list[str]] = (set(), [])

    def text(self, state: Any) -> str:
        """``canonical(state)``. (Equal values spelled differently inside a section, as ``0`` and ``false``,
        would keep the first spelling: the state's values never change type, flags being booleans and counts
        and money integers; a section of another type is spelled again.)"""
        if type(state) is not dict:
            return canonical(state)
        keys = self._keys
        if state.keys() != keys[0]:
            if not all(type(k) is str for k in state):
                return canonical(state)
            keys = self._keys = (set(state), sorted(state))
        cache = self._parts
        parts = []
        for k in keys[1]:
            v = state[k]
            hit = cache.get(k)
            if hit is None or hit[0] != v or type(hit[0]) is not type(v):
                hit = cache[k] = (v, f"{encode_str(k)}:{canonical(v)}")
            parts.append(hit[1])
        return "{" + ",".join(parts) + "}"
