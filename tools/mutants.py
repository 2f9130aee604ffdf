"""Mutation testing of the Bank: run mutmut on some of the money core's files, then count what the tests killed.

    ./dev.sh mutants [FILE ...] [--all] [--max-children N] [--fresh | --survivors] [--report] [--print]

- FILE: a file of ``[tool.mutmut] only_mutate`` in pyproject.toml (``terminal/bank/tx.py``) or its module
  (``terminal.bank.tx``) or its short name (``tx``). Default: :data:`DEFAULT_FILES` (``tx``, ``rules``,
  ``ultimate``). ``--all``: every file of ``only_mutate`` (the whole money core).
- ``--max-children N``: mutants tested at once (default: the number of CPUs).
- ``--fresh``: delete ``mutants/`` first (mutmut's working copy and its results), so that every mutant is tested
  again against the tests as they are now; without it mutmut keeps the results it has and tests the rest.
- ``--survivors``: test again only the mutants of those files that survived, that no test reached or that an
  interrupted run left unchecked, in the results kept in ``mutants/``: after adding tests, minutes instead of the
  whole run (mutmut first collects which of the tests are new and what they reach).
- ``--report``: only count the results already in ``mutants/`` (nothing is run).
- ``--print``: print the mutmut command and exit.

The tests are pyproject.toml's ``pytest_add_cli_args_test_selection``: tests/terminal, not marked slow. After the
run the results are counted by file and by kind of mutant (:func:`kind`): ``logic`` (a comparison, a constant,
``and``/``or``, an argument...), ``refusal`` (only the ``code`` or ``params`` of an error) and ``message`` (only
an error's text); then every survivor is listed with its change. Exit status: mutmut's when it failed, else 0.
tests/README.md, "Mutation testing", has the figures of the last run and why each survivor is harmless.
"""
from __future__ import annotations

import argparse
import ast
import itertools
import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILES = ("terminal/bank/tx.py", "terminal/bank/rules.py", "terminal/bank/ultimate.py")
#: mutmut's exit codes (mutmut.stats.status_by_exit_code) as this report names them.
STATUS = {1: "killed", 3: "killed", 37: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped",
          36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout", None: "not checked"}
KINDS = ("logic", "refusal", "message")
#: The names of the terminal's error classes end so (terminal/errors.py): a call to one builds a refusal.
ERROR_SUFFIXES = ("Error", "Violation", "Cash", "Debt", "Bankrupt", "Name", "Amount", "Operation", "Over", "Undo",
                  "Mismatch")


def mutable_files(root: Path = ROOT) -> list[str]:
    """``[tool.mutmut] only_mutate`` of pyproject.toml: the files mutmut may mutate."""
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    return list(data["tool"]["mutmut"]["only_mutate"])


def resolve(names: Sequence[str], allowed: Sequence[str]) -> list[str]:
    """The files of ``allowed`` that ``names`` designate (a path, a dotted module or a short module name), in the
    order given, each once. Raises ValueError naming what matches none."""
    out: list[str] = []
    for name in names:
        candidates = [f for f in allowed
                      if name in (f, f.removesuffix(".py").replace("/", "."), Path(f).stem, Path(f).name)]
        if not candidates:
            raise ValueError(f"{name!r} is not a file mutation testing covers; choose among: {', '.join(allowed)} "
                             f"(pyproject.toml, [tool.mutmut] only_mutate)")
        out.extend(c for c in candidates if c not in out)
    return out


def mutant_glob(path: str) -> str:
    """mutmut's name pattern for the mutants of ``path``: ``terminal/bank/tx.py`` -> ``terminal.bank.tx.*``."""
    return path.removesuffix(".py").replace("/", ".") + ".*"


def parse_args(argv: Sequence[str], allowed: Sequence[str]) -> argparse.Namespace:
    """The command line (module docstring); ``files`` resolved against ``allowed``. Exits 2 on a bad one."""
    parser = argparse.ArgumentParser(prog="./dev.sh mutants", description="Mutation testing of the Bank (mutmut).")
    parser.add_argument("files", nargs="*", help="files to mutate (default: tx, rules, ultimate)")
    parser.add_argument("--all", action="store_true", help="every file of [tool.mutmut] only_mutate")
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 1, help="mutants tested at once")
    parser.add_argument("--fresh", action="store_true", help="delete mutants/ first: test every mutant again")
    parser.add_argument("--survivors", action="store_true", help="test again only the survivors kept in mutants/")
    parser.add_argument("--report", action="store_true", help="only count the results in mutants/")
    parser.add_argument("--print", action="store_true", dest="print_only", help="print the mutmut command")
    args = parser.parse_args(list(argv))
    if args.all and args.files:
        parser.error("give files or --all, not both")
    if args.max_children < 1:
        parser.error("--max-children is at least 1")
    if args.fresh and args.survivors:
        parser.error("--fresh deletes the results --survivors needs: give one of them")
    try:
        args.files = list(allowed) if args.all else resolve(args.files or DEFAULT_FILES, allowed)
    except ValueError as exc:
        parser.error(str(exc))
    return args


def mutmut_command(files: Sequence[str], max_children: int, names: Sequence[str] | None = None) -> list[str]:
    """The mutmut command that tests the mutants of ``files``, or only the mutants ``names`` when given."""
    return [sys.executable, "-m", "mutmut", "run", "--max-children", str(max_children),
            *(names if names is not None else [mutant_glob(f) for f in files])]


def survivors(found: dict[str, list[tuple[str, str, Change]]]) -> list[str]:
    """The names of the mutants that survived, that no test reached or that are not checked yet."""
    return [name for rows in found.values() for name, status, _ in rows
            if status in ("survived", "no tests", "not checked")]


# -- the kind of a mutant -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Change:
    """What a mutant changes: the node of the original and of the mutant (source text), and the kind."""
    before: str
    after: str
    kind: str


def _differing(a: ast.AST, b: ast.AST, chain: list[ast.AST]) -> list[ast.AST]:
    """The chain of ``b``'s nodes from its root down to the smallest node where ``a`` and ``b`` differ."""
    chain = [*chain, b]
    if type(a) is not type(b):
        return chain
    differing: list[tuple[ast.AST, ast.AST]] = []
    for field in a._fields:
        x, y = getattr(a, field, None), getattr(b, field, None)
        if isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return chain
            differing.extend((p, q) for p, q in zip(x, y, strict=True)
                             if (not (isinstance(p, ast.AST) and isinstance(q, ast.AST)) and p != q)
                             or (isinstance(p, ast.AST) and ast.dump(p) != ast.dump(q)))
        elif isinstance(x, ast.AST) and isinstance(y, ast.AST):
            if ast.dump(x) != ast.dump(y):
                differing.append((x, y))
        elif x != y:
            return chain
    if len(differing) == 1 and all(isinstance(n, ast.AST) for n in differing[0]):
        return _differing(*differing[0], chain)
    return chain


def _is_error_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
    return name.endswith(ERROR_SUFFIXES) and name != "Debt"  # terminal.bank.types.Debt: a record, not an error


def kind(original: ast.AST, mutant: ast.AST) -> Change:
    """Classify the mutant ``mutant`` of function ``original`` (both ``FunctionDef``, names aside): ``refusal``
    when it changes only the ``code`` or ``params`` keyword of a call to an error class, ``message`` when it
    changes only the rest of such a call (its text), ``logic`` for everything else."""
    a = ast.parse(ast.unparse(original)).body[0]
    b = ast.parse(ast.unparse(mutant)).body[0]
    b.name = a.name  # type: ignore[attr-defined]
    chain = _differing(a, b, [])
    while len(chain) > 1 and not isinstance(chain[-1], ast.expr | ast.stmt | ast.keyword | ast.arg):
        chain.pop()  # an operator (``+`` -> ``-``, ``<`` -> ``<=``) is shown with its expression
    here = chain[-1]
    # the same node in the original, found by its position in the chain
    before = _node_at(a, b, chain)
    text = (ast.unparse(before) if before is not None else "?", ast.unparse(here))
    for i, node in enumerate(chain):
        if _is_error_call(node):
            below = chain[i + 1] if i + 1 < len(chain) else None
            if isinstance(below, ast.keyword) and below.arg in ("code", "params"):
                return Change(*text, "refusal")
            if below is None and isinstance(before, ast.Call):  # a keyword removed or added
                old = {k.arg for k in before.keywords}
                new = {k.arg for k in node.keywords}  # type: ignore[attr-defined]
                if (old ^ new and old ^ new <= {"code", "params"}
                        and ast.dump(before.func) == ast.dump(node.func)):  # type: ignore[attr-defined]
                    return Change(*text, "refusal")
            return Change(*text, "message")
    return Change(*text, "logic")


def _node_at(a: ast.AST, b: ast.AST, chain: list[ast.AST]) -> ast.AST | None:
    """The node of ``a`` at the place of ``chain[-1]`` in ``b`` (the two trees have the same shape above it)."""
    node_a: ast.AST | None = a
    for parent, child in itertools.pairwise(chain):
        found = None
        for field in parent._fields:
            value = getattr(parent, field, None)
            if value is child:
                found = getattr(node_a, field, None)
            elif isinstance(value, list) and any(v is child for v in value):
                index = next(i for i, v in enumerate(value) if v is child)
                found = getattr(node_a, field)[index]
        node_a = found if isinstance(found, ast.AST) else None
        if node_a is None:
            return None
    return node_a


def functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """Every function and method definition of ``tree`` by name (mutmut's copies: ``x_f__mutmut_3``, and in a class
    ``xǁTxǁcharge__mutmut_3``)."""
    return {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}  # type: ignore[misc]


def results(files: Sequence[str], root: Path = ROOT) -> dict[str, list[tuple[str, str, Change]]]:
    """For each of ``files``: ``(mutant name, status, change)`` of every mutant mutmut made of it, from
    ``mutants/<file>`` and ``mutants/<file>.meta``."""
    out: dict[str, list[tuple[str, str, Change]]] = {}
    for path in files:
        meta = root / "mutants" / (path + ".meta")
        if not meta.is_file():
            continue
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        defs = functions(ast.parse((root / "mutants" / path).read_text(encoding="utf-8")))
        module = path.removesuffix(".py").replace("/", ".") + "."
        rows = []
        for key, code in sorted(codes.items(), key=lambda kv: _natural(kv[0])):
            name = key.removeprefix(module)
            function = name.rsplit("__mutmut_", 1)[0]
            change = kind(defs[function + "__mutmut_orig"], defs[name])
            rows.append((key, STATUS.get(code, "suspicious"), change))
        out[path] = rows
    return out


def _natural(key: str) -> tuple[str, int]:
    head, _, number = key.rpartition("_")
    return head, int(number) if number.isdigit() else -1


def report(found: dict[str, list[tuple[str, str, Change]]]) -> str:
    """The figures: for each file and in all, each kind's mutants killed / tested (and the percent), the
    timeouts, the mutants no test reaches; then the survivors."""
    lines = ["| file | logic killed | refusal code/params killed | message killed | timeout | no tests |",
             "|---|---|---|---|---|---|"]
    total: Counter[tuple[str, str]] = Counter()
    survivors: list[tuple[str, Change]] = []
    for path, rows in found.items():
        counts: Counter[tuple[str, str]] = Counter((change.kind, status) for _, status, change in rows)
        total.update(counts)
        lines.append(f"| {path} | " + " | ".join(_ratio(counts, k) for k in KINDS)
                     + f" | {sum(counts[k, 'timeout'] for k in KINDS)} | {sum(counts[k, 'no tests'] for k in KINDS)} |")
        survivors.extend((name, change) for name, status, change in rows if status in ("survived", "no tests"))
    lines.append("| all | " + " | ".join(_ratio(total, k) for k in KINDS)
                 + f" | {sum(total[k, 'timeout'] for k in KINDS)} | {sum(total[k, 'no tests'] for k in KINDS)} |")
    lines += ["", f"Survivors ({len(survivors)}; `mutmut show NAME` gives the diff):"]
    lines += [f"- {change.kind}: `{name}`: `{_short(change.before)}` -> `{_short(change.after)}`"
              for name, change in survivors]
    return "\n".join(lines)


def _ratio(counts: Counter[tuple[str, str]], what: str) -> str:
    killed = counts[what, "killed"] + counts[what, "timeout"]  # a mutant that hangs the tests is caught
    tested = killed + counts[what, "survived"] + counts[what, "no tests"]
    return f"{killed}/{tested} ({100 * killed / tested:.1f} %)" if tested else "-"


def _short(text: str, width: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 3] + "..."


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv, mutable_files())
    names = None
    if args.survivors:
        names = survivors(results(args.files))
        if not names:
            print("mutants: no survivor kept in mutants/ for these files (run them first)", file=sys.stderr)
            return 0 if (ROOT / "mutants").is_dir() else 1
    command = mutmut_command(args.files, args.max_children, names)
    if args.print_only:
        print(" ".join(command))
        return 0
    if not args.report:
        if args.fresh:
            shutil.rmtree(ROOT / "mutants", ignore_errors=True)
        code = subprocess.run(command, cwd=ROOT, check=False).returncode
        if code:
            print(f"mutants: mutmut failed (exit {code})", file=sys.stderr)
            return code
    print(report(results(args.files)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
