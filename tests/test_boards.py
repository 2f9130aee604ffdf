"""One Board per board, kept so (issue 23, part 4): what differs on the electronic board lives in its board's own
modules (the table's ``terminal/table/ultimate.py`` and its two screens, the screen's ``host_ui/screen/ultimate.py``
and ``levels.py``) and in the one module per layer that names every board (``terminal/table/boards.py``,
``host_ui/screen/layouts.py``). The classic table and screen code never names the electronic board: no name,
attribute or import of it, and no condition on which board is played, as the import contracts keep the layers.

Read from the sources' syntax trees (docstrings and comments may name the board: they explain, they do not
branch)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The layers whose classic code is checked.
LAYERS = ("terminal/table", "host_ui/screen")
#: The modules that are the electronic board's own, or name every board to choose one.
BOARD_MODULES = frozenset({
    "terminal/table/ultimate.py", "terminal/table/screens/event.py", "terminal/table/screens/location.py",
    "terminal/table/boards.py", "host_ui/screen/ultimate.py", "host_ui/screen/levels.py", "host_ui/screen/layouts.py"})
#: Words that name the electronic board, or ask which board is played.
NAMES = ("ultimate", "rent_levels")


def _modules() -> list[Path]:
    return sorted(p for layer in LAYERS for p in (ROOT / layer).rglob("*.py"))


def _names_the_board(text: str) -> bool:
    return any(word in text.lower() for word in NAMES)


def problems(source: str) -> list[str]:
    """Where ``source`` (a module's text) names the electronic board in code or branches on the board played:
    ``line: what``."""
    tree = ast.parse(source)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and _names_the_board(node.id):
            found.append(f"{node.lineno}: name {node.id}")
        elif isinstance(node, ast.Attribute) and _names_the_board(node.attr):
            found.append(f"{node.lineno}: attribute .{node.attr}")
        elif isinstance(node, ast.alias) and _names_the_board(node.name + " " + (node.asname or "")):
            found.append(f"{node.lineno}: import {node.name}")
        elif isinstance(node, ast.ImportFrom) and _names_the_board(node.module or ""):
            found.append(f"{node.lineno}: import from {node.module}")
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for operand in operands:
                if isinstance(operand, ast.Constant) and isinstance(operand.value, str) and \
                        _names_the_board(operand.value):
                    found.append(f"{node.lineno}: compares with {operand.value!r}")
                if isinstance(operand, ast.Attribute) and operand.attr == "board":
                    found.append(f"{node.lineno}: compares the board played")
        elif isinstance(node, ast.MatchValue) and isinstance(node.value, ast.Constant) and \
                isinstance(node.value.value, str) and _names_the_board(node.value.value):
            found.append(f"{node.lineno}: matches {node.value.value!r}")
    return found


@pytest.mark.parametrize("path", [pytest.param(p, id=str(p.relative_to(ROOT))) for p in _modules()
                                  if str(p.relative_to(ROOT)) not in BOARD_MODULES])
def test_the_classic_code_does_not_name_the_electronic_board(path):
    found = problems(path.read_text(encoding="utf-8"))
    assert not found, (f"{path.relative_to(ROOT)} names the electronic board: its differences belong to its Board "
                       f"(terminal/table/ultimate.py, host_ui/screen/ultimate.py):\n" + "\n".join(found))


def test_the_board_modules_exist():
    """The allow-list names real modules (a module renamed must be named here again, not left out)."""
    assert all((ROOT / name).is_file() for name in BOARD_MODULES)
    assert all(str(p.relative_to(ROOT)) in BOARD_MODULES for p in _modules() if "ultimate" in p.name)


@pytest.mark.parametrize("code", [
    "if self._ultimate:\n    pass",
    "x = game.edition.is_ultimate",
    "from terminal.bank.ultimate import level",
    "import host_ui.screen.ultimate",
    "if edition.board == 'classic':\n    pass",
    "ok = name != 'ultimate'",
    "match mode:\n    case 'ultimate':\n        pass",
    "if deed.rent_levels:\n    pass",
])
def test_each_way_of_naming_it_is_seen(code):
    assert problems(code)


def test_what_is_no_branch_is_let_through():
    code = ('"""The electronic board (Ultimate Banking) is in its own module."""\n'
            'MODES = {"classic": "a", "ultimate": "b"}  # a table of texts\n'
            'board = BOARDS[edition.board]\n')
    assert problems(code) == []
