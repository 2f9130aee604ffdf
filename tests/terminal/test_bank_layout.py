"""The Bank's seams, kept as the import contracts are (issue 23, part 3): the Game and the modules that make and
open its file reach the ledger through its public members only, and the Bank reads the wall clock only through
the clock it is given."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

BANK = Path(__file__).resolve().parents[2] / "terminal" / "bank"
#: The modules above the ledger that hold a ledger (the Game and what makes, opens and keeps its file).
ABOVE_THE_LEDGER = ["game.py", "opening.py", "play_clock.py", "upkeep.py", "audit.py", "history.py", "tablelog.py",
                    "auction.py"]


def _private_uses(path: Path) -> list[str]:
    """Every ``x._name`` in ``path`` where ``x`` is not ``self`` or ``cls`` (a private member of another object)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if isinstance(owner, ast.Name) and owner.id in ("os", "sys", "json", "_thread"):
                continue  # the standard library's own (json.encoder's C encoder, os._exit...)
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("name", ABOVE_THE_LEDGER)
def test_no_private_member_of_another_object(name):
    """``self._ledger`` is the Game's own; ``self._ledger._batch`` or ``view._discard()`` would be the ledger's."""
    assert not _private_uses(BANK / name), f"{name} reaches into another object's private members"


def test_the_game_reaches_the_ledger_through_its_public_members():
    tree = ast.parse((BANK / "game.py").read_text(encoding="utf-8"))
    reached = sorted({node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                      and isinstance(node.value, ast.Attribute) and node.value.attr == "_ledger"})
    assert reached and not [name for name in reached if name.startswith("_")], reached


def test_the_bank_reads_the_wall_clock_only_through_the_clock_it_is_given():
    """No ``time.time()``, ``datetime.now()`` or ``date.today()`` in the Bank but the default clock itself
    (``terminal.bank.types.system_clock``); monotonic time (``time.monotonic``, ``time.perf_counter``) only bounds
    work and waits."""
    found = []
    for path in sorted(BANK.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                call = ast.unparse(node.func)
                if call in ("time.time", "time.time_ns", "datetime.now", "datetime.today", "date.today",
                            "datetime.utcnow"):
                    found.append(f"{path.relative_to(BANK)}:{node.lineno}: {call}()")
    assert found == ["types.py:27: datetime.now()"], found
