"""Every refusal the terminal can give, under one root: :class:`GameError`.

Each class also inherits the matching builtin (``ValueError`` for a rule or an input that breaks it,
``LookupError`` for something unknown, ``OSError`` for a file problem), so callers may catch either.
Every error carries ``code`` (a stable message key for translation) and ``params`` (the values the message
needs); ``str(error)`` is the English message, which says what was refused and what to do instead. A refused
operation changes nothing.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class GameError(Exception):
    """Root of the terminal's errors. ``code``: message key; ``params``: its values."""

    code = "game_error"

    def __init__(self, message: str, *, code: str | None = None, params: Mapping[str, Any] | None = None):
        super().__init__(message)
        if code:
            self.code = code
        self.params = dict(params or {})

    @property
    def message(self) -> str:
        """The English message."""
        return self.args[0] if self.args else ""


class RuleViolation(GameError, ValueError):
    """An operation that a rule of the game forbids (RULES.md names the rule in the message)."""

    code = "rule_violation"


class InvalidAmount(GameError, ValueError):
    """A zero, negative, fractional or absurd amount (more than the edition's ``max_amount``)."""

    code = "invalid_amount"


class InsufficientCash(RuleViolation):
    """A voluntary payment (buy, build, lift a mortgage, transfer, auction bid, trade cash) without the cash."""

    code = "insufficient_cash"


class PlayerInDebt(RuleViolation):
    """A voluntary operation of a player who has an outstanding debt (RULES.md, Debts and bankruptcy)."""

    code = "player_in_debt"


class PlayerBankrupt(RuleViolation):
    """An operation naming a player who has gone bankrupt."""

    code = "player_bankrupt"


class GameOver(RuleViolation):
    """An operation after the end of the game (only undo is allowed)."""

    code = "game_over"


class NothingToUndo(RuleViolation):
    """Undo with no operation left to undo."""

    code = "nothing_to_undo"


class UnknownName(GameError, LookupError):
    """An unknown player, square, deck or operation."""

    code = "unknown_name"


class MalformedOperation(GameError, ValueError):
    """An operation that is not of the right shape (unknown field, wrong type, missing field): a programming
    or file error, not a refusal at the table."""

    code = "malformed_operation"


class LedgerError(GameError, OSError):
    """A game file that cannot be opened or written: damaged, not a Banquier game, locked, read-only."""

    code = "ledger_error"


class AuditFailed(LedgerError):
    """The journal does not match its projections, its sums, or its keyed hash chain. ``params['problems']``
    lists what is wrong; ``params['first_bad_seq']`` names the first entry edited behind the Bank's back."""

    code = "audit_failed"


def one_line(exc: BaseException | str) -> str:
    """An error message on one line (SQLite's integrity messages span several), for a refusal or a log."""
    return "; ".join(part.strip() for part in str(exc).splitlines() if part.strip())
