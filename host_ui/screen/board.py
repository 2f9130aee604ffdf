"""What the screen draws differently on one board: :class:`ScreenBoard`, and the classic board's
(:data:`CLASSIC`). The electronic board's is in :mod:`host_ui.screen.ultimate`; :mod:`host_ui.screen.layouts` finds
an edition's."""
from __future__ import annotations

from dataclasses import dataclass

from host_ui.screen.deed_card import CLASSIC_FACE, DeedFace


@dataclass(frozen=True)
class ScreenBoard:
    """A board as the screen draws it: ``name`` (the editions' ``board``), ``face`` (what its title deeds print).
    The screens a board has of its own are in the one table of layouts (:data:`host_ui.screen.layouts.LAYOUTS`),
    and whether the Bank holds buildings is in the view (``View.bank_houses``)."""

    name: str
    face: DeedFace


#: The classic board.
CLASSIC = ScreenBoard("classic", CLASSIC_FACE)
