"""The boards a game can be played on, and the choice of one from the edition (its ``board``, in
``cards/data/*.toml``): made once for a game (:func:`board_of`), it answers the few questions whose answer differs
between boards (:class:`terminal.bank.board.Board`).

To add a board: its answers in a file of their own (a :class:`~terminal.bank.board.Board` subclass, as
:mod:`terminal.bank.ultimate` is the electronic board's), named here in :data:`BOARDS`; see
terminal/bank/README.md.
"""
from __future__ import annotations

from cards.editions import Edition
from terminal.bank.board import CLASSIC, Board
from terminal.bank.ultimate import BOARD as ULTIMATE_BOARD

#: Every board, by the name editions give it.
BOARDS: dict[str, Board] = {board.name: board for board in (CLASSIC, ULTIMATE_BOARD)}
#: Every mode a game header may name: each board's, in this order.
ALL_MODES: tuple[str, ...] = tuple(mode for board in BOARDS.values() for mode in board.modes)


def board_of(edition: Edition) -> Board:
    """The board ``edition`` is played on. Raises LookupError for a board this Banquier does not know (an
    edition's file is checked against :data:`cards.editions.BOARDS` when it is loaded)."""
    try:
        return BOARDS[edition.board]
    except KeyError:
        raise LookupError(f"Edition {edition.name!r} is played on the board {edition.board!r}, which this Banquier "
                          f"does not have.") from None
