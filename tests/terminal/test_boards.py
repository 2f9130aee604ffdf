"""One Board per board (issue 23, part 4): what differs on the electronic board is one file of the Bank,
terminal/bank/ultimate.py; the classic code asks its board, and tests no board itself. Kept so by reading the
Bank's sources, as the import contracts are kept (pyproject.toml)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cards.editions import BOARDS as EDITION_BOARDS
from cards.editions import load_edition
from terminal.bank import boards
from terminal.bank.board import CLASSIC, Board
from terminal.bank.ultimate import BOARD, UltimateBoard

BANK = Path(__file__).resolve().parents[2] / "terminal" / "bank"
#: The electronic board's file, and the one that names every board.
BOARD_FILES = {"ultimate.py", "boards.py"}


def _classic_sources() -> list[Path]:
    return sorted(p for p in BANK.glob("*.py") if p.name not in BOARD_FILES)


@pytest.mark.parametrize("path", _classic_sources(), ids=lambda p: p.name)
def test_the_classic_code_tests_no_board(path):
    """No ``edition.is_ultimate``, no ``"ultimate"`` compared or looked up, no import of the electronic board's
    file: the board's answers come from the Board (terminal/bank/board.py)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        edition = isinstance(node, ast.Attribute) and ast.unparse(node.value).endswith(("ed", "edition"))
        if edition and node.attr in ("is_ultimate", "board"):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.Constant) and node.value == "ultimate":
            found.append(f"line {node.lineno}: the string 'ultimate'")
        if isinstance(node, ast.ImportFrom) and node.module == "terminal.bank.ultimate":
            found.append(f"line {node.lineno}: from terminal.bank.ultimate import ...")
        if isinstance(node, ast.ImportFrom) and node.module == "terminal.bank" and \
                any(alias.name == "ultimate" for alias in node.names):
            found.append(f"line {node.lineno}: from terminal.bank import ultimate")
    assert not found, f"{path.name} asks which board it is on: {found}"


def test_the_electronic_board_is_imported_by_the_choice_of_boards_only():
    importers = []
    for path in BANK.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, ast.ImportFrom) and n.module == "terminal.bank.ultimate" for n in ast.walk(tree)):
            importers.append(path.name)
    assert importers == ["boards.py"]


def test_every_board_of_an_edition_has_its_answers():
    assert set(boards.BOARDS) == set(EDITION_BOARDS)
    assert boards.board_of(load_edition("fr")) is CLASSIC and boards.board_of(load_edition("ultimate")) is BOARD
    assert isinstance(BOARD, UltimateBoard) and isinstance(BOARD, Board)
    assert boards.ALL_MODES == ("classic", "sans_frontieres", "quick", "time_limit", "ultimate")


def test_a_game_asks_its_board(make_game):
    assert make_game("fr").board is CLASSIC
    assert make_game("ultimate", ("Ann", "Bob")).board is BOARD
