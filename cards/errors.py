"""The exception root of the ``cards`` package."""
from __future__ import annotations

from typing import Any, Mapping


class CardsError(Exception):
    """Root of every error raised by ``cards``. ``code`` names the message for translation and ``params``
    holds its values; ``str(error)`` is the English message."""

    code = "cards_error"

    def __init__(self, message: str, *, code: str | None = None, params: Mapping[str, Any] | None = None):
        super().__init__(message)
        if code:
            self.code = code
        self.params = dict(params or {})


class EditionError(CardsError, ValueError):
    """A malformed or inconsistent edition file: the message names the file, the entry and the reason."""


class UnknownEditionError(CardsError, LookupError):
    """An unknown edition name or square number."""


class EditionFileError(CardsError, OSError):
    """An edition file that cannot be read."""
