"""The exception root of the ``cards`` package."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any


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


# --- The card registry (cards/registry.py) -------------------------------------------------------------


class InvalidUidError(CardsError, ValueError):
    """Text that is not a card UID: the hex of 4, 5, 7 or 10 bytes (``code`` ``invalid_uid``)."""

    code = "invalid_uid"


class InvalidRoleError(CardsError, ValueError):
    """Not a role a card can have: a player number outside 1-8, a square that is not a title deed, or a
    label that is none of ``banker``, ``player N``, ``deed N``."""

    code = "invalid_role"


class AlreadyEnrolled(CardsError, ValueError):
    """A card that already has a role was presented for another one. ``params`` holds ``uid`` and the
    card's current role (``role``, ``kind`` and ``number`` or ``square``/``name``)."""

    code = "card_already_enrolled"


class AmbiguousCard(CardsError, ValueError):
    """A card whose UID read backwards is another enrolled card's: a reader that writes UIDs in the other byte
    order (many USB readers do) could not tell the two apart. ``params`` holds ``uid``, ``other_uid`` and the
    other card's role."""

    code = "card_ambiguous"


class RoleHasCard(CardsError, ValueError):
    """A role that already has a card was given another one without ``replace``. ``params`` holds the
    role and ``current_uid``."""

    code = "role_has_card"


class NotEnrolled(CardsError, LookupError):
    """A UID that is not in the card set (``forget`` of an unknown card)."""

    code = "card_not_enrolled"


class CardSetError(CardsError, ValueError):
    """A malformed card-set file or imported text: the message names the file (or ``imported text``), the
    line and the reason; ``params`` holds ``file``, ``line`` and ``reason``."""

    code = "card_set_malformed"


class CardSetFileError(CardsError, OSError):
    """A card-set file that cannot be read or written (missing permission, read-only file system, a
    directory in its place...). The file on disk is left as it was."""

    code = "card_set_unreadable"


class EnrolmentStateError(CardsError, ValueError):
    """An enrolment command in the wrong state (``present`` or ``skip`` once finished, ``back`` at the
    first step); the message names both."""

    code = "enrolment_state"
