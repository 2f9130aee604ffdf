"""Banquier's firmware: the Bank (:mod:`terminal.bank`) and the tap-driven state machine (:mod:`terminal.table`).

Public API: :class:`terminal.Game` (see :mod:`terminal.bank.game`). No pygame and no hardware library is imported
from this package.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from terminal.errors import GameError

if TYPE_CHECKING:
    from terminal.bank.door import Receipt
    from terminal.bank.game import Game

__all__ = ["Game", "Receipt", "GameError"]


def __getattr__(name: str) -> Any:
    # A deliberate late load (PEP 562): `import terminal.errors` (every command's error types) must not load the
    # whole Bank, so `banquier --help` and the small commands start fast on a Pi Zero.
    if name == "Game":
        from terminal.bank.game import Game
        return Game
    if name == "Receipt":
        from terminal.bank.door import Receipt
        return Receipt
    raise AttributeError(f"module 'terminal' has no attribute {name!r}")
