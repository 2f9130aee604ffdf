"""The one table of the screens' layouts (:data:`LAYOUTS`: a screen's name, ``View.screen``, to its layout) and
the board of each edition (:func:`board_for`): the one place of the screen that names every board. Checked at
import: every screen of the tap machine (:data:`terminal.table.screens.SCREENS`) has its layout."""
from __future__ import annotations

from collections.abc import Mapping

from cards.editions import Edition
from host_ui.screen import screens, ultimate
from host_ui.screen.board import CLASSIC, ScreenBoard
from host_ui.screen.pieces import Layout
from terminal.table.screens import SCREENS

#: Every screen's layout, by the screen's name.
LAYOUTS: Mapping[str, Layout] = {**screens.LAYOUTS, **ultimate.LAYOUTS}
#: Every board, by the name an edition gives its ``board``.
BOARDS: Mapping[str, ScreenBoard] = {board.name: board for board in (CLASSIC, ultimate.ULTIMATE)}


def board_for(edition: Edition | None) -> ScreenBoard:
    """The board ``edition`` is played on (the classic board's when no game is open)."""
    return BOARDS[edition.board] if edition is not None else CLASSIC


def check(layouts: Mapping[str, Layout] = LAYOUTS) -> None:
    """Every screen has a layout, and every layout is a screen's. Raises AssertionError naming them."""
    if set(layouts) != set(SCREENS):
        raise AssertionError(f"screens without a layout: {sorted(set(SCREENS) - set(layouts))}; layouts of no "
                             f"screen: {sorted(set(layouts) - set(SCREENS))}")


check()
