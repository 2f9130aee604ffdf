"""The shared check of a refusal: the error's class, its ``code`` and ``params`` (what the screen translates:
terminal/table/i18n.py renders the code's catalog text with the params), optionally an English regex, and that
nothing changed (the state and the journal).

A refusal checked by its English message only lets a wrong ``code`` or a wrong ``params`` through: the table
would show another message, or the right one with wrong figures.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from terminal.errors import GameError
from tests.terminal.oracles import journal_of


def refused(game: Any, call: Callable[[], object], error: type[GameError] | tuple[type[GameError], ...] = GameError,
            match: str | None = None, *, code: str, params: Mapping[str, Any]) -> GameError:
    """Assert that ``call`` raises ``error`` with ``code`` and exactly ``params`` (and a message matching
    ``match`` when given), and that ``game``'s state and journal are unchanged. Returns the error."""
    before, entries = game.state(), len(journal_of(game))
    with pytest.raises(error, match=match) as info:
        call()
    assert info.value.code == code, f"refused with code {info.value.code!r}, not {code!r}: {info.value}"
    assert info.value.params == dict(params), f"{code}: params {info.value.params!r}, not {dict(params)!r}"
    assert game.state() == before
    assert len(journal_of(game)) == entries
    return info.value
