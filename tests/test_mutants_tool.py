"""tools/mutants.py (``./dev.sh mutants``): which files a run covers, the mutmut command it gives, how a mutant is
classified (logic, refusal code/params, message) and the report it counts from mutmut's results. mutmut itself is
not run here (tests/README.md, "Mutation testing": the run is long, a maintainer's command)."""
from __future__ import annotations

import ast
import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("mutants_tool", ROOT / "tools" / "mutants.py")
assert _spec and _spec.loader
tool = importlib.util.module_from_spec(_spec)
sys.modules["mutants_tool"] = tool
_spec.loader.exec_module(tool)

ALLOWED = tool.mutable_files()


def test_the_configured_files_are_the_money_core_and_exist():
    assert ALLOWED[:3] == list(tool.DEFAULT_FILES)
    assert {Path(f).stem for f in ALLOWED} == {"tx", "rules", "ultimate", "bankruptcy", "engine", "auction",
                                               "operations", "money"}
    assert all((ROOT / f).is_file() for f in ALLOWED)


def test_no_file_named_runs_the_default_set():
    args = tool.parse_args([], ALLOWED)
    assert args.files == list(tool.DEFAULT_FILES)
    assert not (args.fresh or args.report or args.print_only)
    assert args.max_children >= 1


@pytest.mark.parametrize("name", ["terminal/bank/engine.py", "terminal.bank.engine", "engine", "engine.py"])
def test_one_file_by_path_module_or_short_name(name):
    assert tool.parse_args([name], ALLOWED).files == ["terminal/bank/engine.py"]


def test_files_in_the_order_given_each_once():
    assert tool.parse_args(["money", "tx", "terminal/bank/money.py"], ALLOWED).files == [
        "terminal/bank/money.py", "terminal/bank/tx.py"]


def test_all_is_every_configured_file():
    assert tool.parse_args(["--all", "--max-children", "1"], ALLOWED).files == ALLOWED


@pytest.mark.parametrize("argv", [["terminal/table/machine.py"], ["nothing"], ["--all", "tx"],
                                  ["--max-children", "0"], ["--max-children", "two"]])
def test_bad_arguments_exit_2_with_a_message(argv, capsys):
    with pytest.raises(SystemExit) as info:
        tool.parse_args(argv, ALLOWED)
    assert info.value.code == 2
    assert "./dev.sh mutants: error:" in capsys.readouterr().err


def test_the_mutmut_command_names_each_files_mutants():
    command = tool.mutmut_command(["terminal/bank/tx.py", "terminal/bank/rules.py"], 3)
    assert command[1:] == ["-m", "mutmut", "run", "--max-children", "3", "terminal.bank.tx.*",
                           "terminal.bank.rules.*"]


def test_print_shows_the_command_and_runs_nothing(capsys):
    assert tool.main(["ultimate", "--print", "--max-children", "2"]) == 0
    assert capsys.readouterr().out.split()[1:] == ["-m", "mutmut", "run", "--max-children", "2",
                                                   "terminal.bank.ultimate.*"]


ORIGINAL = '''
def f(x):
    if x < 1:
        raise RuleViolation(f"{x} is too small.", code="too_small", params={"x": x})
    return x + 1
'''


@pytest.mark.parametrize(("mutant", "kind"), [
    (ORIGINAL.replace("x < 1", "x <= 1"), "logic"),
    (ORIGINAL.replace("x + 1", "x - 1"), "logic"),
    (ORIGINAL.replace('code="too_small"', 'code="XXtoo_smallXX"'), "refusal"),
    (ORIGINAL.replace('code="too_small"', "code=None"), "refusal"),
    (ORIGINAL.replace('{"x": x}', '{"x": None}'), "refusal"),
    (ORIGINAL.replace(', params={"x": x}', ""), "refusal"),
    (ORIGINAL.replace("is too small.", "XXis too small.XX"), "message"),
    (ORIGINAL.replace('f"{x} is too small.", ', ""), "message"),
])
def test_a_mutant_is_logic_refusal_or_message(mutant, kind):
    original = ast.parse(ORIGINAL).body[0]
    changed = ast.parse(mutant).body[0]
    assert tool.kind(original, changed).kind == kind


def test_a_debt_built_is_no_refusal():
    """``Debt(...)`` (terminal.bank.types) ends like ``PlayerInDebt`` but is a record: a change of its arguments is
    logic."""
    original = ast.parse("def f(d, a):\n    return Debt(d.debtor, d.creditor, a)").body[0]
    changed = ast.parse("def f(d, a):\n    return Debt(d.debtor, d.creditor, None)").body[0]
    assert tool.kind(original, changed).kind == "logic"


def test_the_report_counts_each_kind_and_lists_the_survivors(tmp_path):
    module = tmp_path / "mutants" / "terminal" / "bank" / "x.py"
    module.parent.mkdir(parents=True)
    source = ORIGINAL.replace("def f(", "def x_f__mutmut_orig(")
    mutants = {1: ORIGINAL.replace("x < 1", "x <= 1"), 2: ORIGINAL.replace("x + 1", "x - 1"),
               3: ORIGINAL.replace('code="too_small"', "code=None"), 4: ORIGINAL.replace("too small", "XXtoo smallXX")}
    for number, text in mutants.items():
        source += text.replace("def f(", f"def x_f__mutmut_{number}(")
    module.write_text(source)
    codes = {"terminal.bank.x.x_f__mutmut_1": 1, "terminal.bank.x.x_f__mutmut_2": 0,
             "terminal.bank.x.x_f__mutmut_3": 0, "terminal.bank.x.x_f__mutmut_4": 36}
    module.with_name("x.py.meta").write_text(json.dumps({"exit_code_by_key": codes}))
    found = tool.results(["terminal/bank/x.py"], tmp_path)
    assert [(name.rsplit("_", 1)[1], status, change.kind) for name, status, change in found["terminal/bank/x.py"]] == [
        ("1", "killed", "logic"), ("2", "survived", "logic"), ("3", "survived", "refusal"), ("4", "timeout", "message")]
    text = tool.report(found)
    assert "| terminal/bank/x.py | 1/2 (50.0 %) | 0/1 (0.0 %) | 1/1 (100.0 %) | 1 | 0 |" in text
    assert "Survivors (2;" in text
    assert "- logic: `terminal.bank.x.x_f__mutmut_2`: `x + 1` -> `x - 1`" in text


def test_survivors_are_tested_again_by_name(tmp_path):
    module = tmp_path / "mutants" / "terminal" / "bank" / "x.py"
    module.parent.mkdir(parents=True)
    source = ORIGINAL.replace("def f(", "def x_f__mutmut_orig(")
    for number in (1, 2, 3, 4):
        source += ORIGINAL.replace("x + 1", f"x + {number + 1}").replace("def f(", f"def x_f__mutmut_{number}(")
    module.write_text(source)
    codes = {"terminal.bank.x.x_f__mutmut_1": 1, "terminal.bank.x.x_f__mutmut_2": 0,
             "terminal.bank.x.x_f__mutmut_3": 33, "terminal.bank.x.x_f__mutmut_4": None}
    module.with_name("x.py.meta").write_text(json.dumps({"exit_code_by_key": codes}))
    names = tool.survivors(tool.results(["terminal/bank/x.py"], tmp_path))
    assert names == ["terminal.bank.x.x_f__mutmut_2", "terminal.bank.x.x_f__mutmut_3", "terminal.bank.x.x_f__mutmut_4"]
    assert tool.mutmut_command(["terminal/bank/x.py"], 2, names)[-3:] == names


def test_fresh_and_survivors_exclude_each_other(capsys):
    with pytest.raises(SystemExit) as info:
        tool.parse_args(["--fresh", "--survivors"], ALLOWED)
    assert info.value.code == 2
    assert "--fresh deletes the results" in capsys.readouterr().err
