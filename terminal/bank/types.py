"""Types the Bank's modules share: a game's fixed configuration and the recorded effects of one operation.

Kept apart from :mod:`terminal.bank.engine` so that the rules, bankruptcy and the transaction import them
without importing the engine (no import cycle).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cards.editions import Edition


@dataclass(frozen=True)
class GameConfig:
    """What is fixed for a whole game: the edition, the mode and the rule flags (edition defaults merged
    with the game's choices)."""

    edition: Edition
    mode: str
    rules: dict

    @property
    def houses_before_hotel(self) -> int:
        """4 houses before a hotel; 3 in the quick game (RULES.md, End of the game, Quick game)."""
        return 3 if self.mode == "quick" else self.edition.houses_before_hotel

    @property
    def jackpot(self) -> bool:
        return bool(self.rules.get("free_parking_jackpot"))

    @property
    def rounding(self) -> str:
        return self.rules.get("interest_rounding", "up")


@dataclass
class Effects:
    """What one operation did. ``postings``: ``(payer, payee, amount)`` transfers, amount > 0, in order.
    ``changes``: ``(section, key, before, after)``. ``notes``: facts for the screen (e.g. a debt created)."""

    postings: list[tuple[str, str, int]] = field(default_factory=list)
    changes: list[tuple[str, Any, Any, Any]] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"postings": [list(p) for p in self.postings], "changes": [list(c) for c in self.changes]}

    @classmethod
    def from_json(cls, data: dict) -> Effects:
        return cls(postings=[tuple(p) for p in data["postings"]], changes=[tuple(c) for c in data["changes"]])




@dataclass(frozen=True)
class Receipt:
    """What a committed operation did. ``seq``: its journal number; ``op``: the operation as recorded;
    ``postings``: ``(payer, payee, amount)`` transfers in order (``"bank"``, ``"pot"`` or a player);
    ``debts``: each player's outstanding debts after it (``{player: [{"to", "amount"}]}``)."""

    seq: int
    op: dict
    postings: tuple[tuple[str, str, int], ...]
    debts: Mapping[str, list]

    def paid(self, payer: str, payee: str) -> int:
        """Total moved from ``payer`` to ``payee`` by this operation."""
        return sum(a for p, q, a in self.postings if p == payer and q == payee)
