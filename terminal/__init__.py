"""Banquier's firmware: the Bank's ledger, the money rules and the tap-driven state machine.

Public API: :class:`terminal.Game` (see :mod:`terminal.bank.game`). No pygame and no hardware library is imported
from this package.
"""
from terminal.bank.game import Game
from terminal.bank.types import Receipt
from terminal.errors import GameError

__all__ = ["Game", "Receipt", "GameError"]
