"""PROVISIONAL (for ub-bank to replace with the card registry's own Event card role, ``cards.registry``): an
Event card's sticker as a role, and a card lookup that knows the stickers of the Event cards besides the
registry's cards. The machine recognises any role named ``EventCard`` with an int ``number``
(:func:`terminal.table.flows_ultimate.event_number`), so the registry's own role replaces this one unchanged.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from terminal.table.shared import CardLookup


@dataclass(frozen=True)
class EventCard:
    """The sticker on Event card ``number`` (1-based, in the edition's order) of the electronic board."""

    number: int

    @property
    def label(self) -> str:
        return f"event {self.number}"


class WithEventCards:
    """``registry``'s cards, and the Event cards' stickers of ``events`` (UID -> card number)."""

    def __init__(self, registry: CardLookup, events: Mapping[str, int]):
        self.registry = registry
        self.events = dict(events)

    def lookup(self, uid: str, /) -> Any:  # Role | EventCard | None (the machine's CardLookup says Role | None)
        if uid in self.events:
            return EventCard(self.events[uid])
        return self.registry.lookup(uid)
