"""The screens of the electronic board (the "Ultimate Banking" edition: rent levels, Event cards, Location
squares) and what a tap of an Event card is. Plain records, like :mod:`terminal.table.dialogs`, which adds
them to its :data:`~terminal.table.dialogs.Dialog` union and its ``DIALOGS``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar


@dataclass(frozen=True)
class EventTap:
    """An Event card's sticker: ``number`` is the card's number in the edition's Event deck (1-...)."""

    number: int
    uid: str


@dataclass
class EventScreen:
    """An Event card's effect in progress. ``player``: who drew it (None until their card is tapped, when the
    Event sticker was tapped first); ``card``: the card's number (None until it is tapped or picked on
    screen); ``picks``: what was chosen so far for the effect (``slot -> value``), in the order the effect
    asks for them (:func:`terminal.table.flows_ultimate.event_slots`)."""

    screen: ClassVar[str] = "event"
    player: str | None = None
    card: int | None = None
    picks: dict[str, Any] = field(default_factory=dict)


@dataclass
class LocationScreen:
    """A Location square: ``player`` pays the fee, then chooses the property they move to (its card or the
    list)."""

    screen: ClassVar[str] = "location"
    player: str
    #: The property chosen when the Bank holds it: the player then chooses to buy it or not.
    square: int | None = None
