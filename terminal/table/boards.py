"""The boards the table plays, by the edition's ``board`` (``cards.editions.Edition.board``): each a
:class:`~terminal.table.screens.base.Board` answering what the table does differently on it. The one place that
names every board: a new board is a module with its :class:`Board` and a line here (CONTRIBUTING.md, "Adding a
board")."""
from __future__ import annotations

from collections.abc import Mapping

from cards.editions import Edition
from terminal.table.classic import ClassicBoard
from terminal.table.screens.base import Board
from terminal.table.ultimate import UltimateBoard

#: Every board, by the name an edition gives its ``board``.
BOARDS: Mapping[str, Board] = {board.name: board for board in (ClassicBoard(), UltimateBoard())}


def board_for(edition: Edition) -> Board:
    """The board ``edition`` is played on."""
    return BOARDS[edition.board]
