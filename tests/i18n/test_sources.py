"""The message ids in the code and the catalogs agree, and the code gives them in a way extraction sees.

- ``pybabel extract`` with the repository's ``babel.cfg`` finds exactly the ids of the catalogs (an id used in
  the code with no translation fails, and so does a catalog entry nothing uses), plural where the code gives a
  count;
- every translation call (``Msg(...)``, ``translate(...)``, ``t(...)``) takes a literal message id, or a value
  that can only hold literal ids marked for extraction (``N_("...")`` in a map or a variable, a refusal's
  ``.code``); a computed id such as ``f"opt_{kind}"`` fails;
- a translated text is never glued to another with ``+``, ``str.join`` or an f-string: the catalog's entries
  take named placeholders instead.
"""
from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from cards.editions import RULE_FLAGS
from terminal.bank import operations
from terminal.bank.boards import ALL_MODES
from terminal.table import i18n
from terminal.table.i18n import LANGUAGES, LOCALE_DIR, translate
from terminal.table.i18n_extract import MARKERS, called

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(p for pattern in ("terminal/**/*.py", "cards/**/*.py", "host_ui/**/*.py") for p in ROOT.glob(pattern))
#: The calls that translate (or will translate) the id they are given first.
TRANSLATING = {"Msg", "translate", "t"}
#: The calls whose result is a translated text.
TRANSLATED = {"translate", "t", "text", "msg"}


def extracted() -> dict[str, bool]:
    """{id: plural} as ``pybabel extract -F babel.cfg`` finds them."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found: dict[str, bool] = {}
    for _, _, message, _, _ in extract_from_dir(str(ROOT), method_map, options_map):
        code = message[0] if isinstance(message, tuple) else message
        found[code] = found.get(code, False) or isinstance(message, tuple)
    return found


def catalog_ids(language: str) -> dict[str, bool]:
    with (LOCALE_DIR / language / "LC_MESSAGES" / "banquier.po").open("rb") as f:
        catalog = read_po(f, locale=language)
    return {(m.id[0] if m.pluralizable else m.id): m.pluralizable for m in catalog if m.id}


EXTRACTED = extracted()


def test_extraction_finds_the_screens_ids():
    assert len(EXTRACTED) > 400
    assert {"idle", "insufficient_cash", "part_deck_chance", "enrol_tap_banker", "opt_pass_go", "game_error",
            "part_card_player_or_deed"} <= set(EXTRACTED)
    assert EXTRACTED["ui_railroads"] and EXTRACTED["why_houses"] and not EXTRACTED["idle"]
    assert not {"key_exists_nowhere", "pin_code"} & set(EXTRACTED)  # the host's configuration keys are not ids


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_id_in_the_code_has_a_translation_and_every_entry_is_used(language):
    ids = catalog_ids(language)
    missing = sorted(set(EXTRACTED) - set(ids))
    unused = sorted(set(ids) - set(EXTRACTED))
    assert not missing, f"{language}: ids used in the code with no entry (run ./dev.sh i18n, then translate): {missing}"
    assert not unused, f"{language}: entries nothing uses (run ./dev.sh i18n): {unused}"
    wrong = sorted(code for code, plural in EXTRACTED.items() if ids[code] != plural)
    assert not wrong, f"{language}: plural in the code but not in the catalog, or the reverse: {wrong}"


def test_the_template_is_up_to_date():
    """terminal/table/locale/banquier.pot, which translators' tools read, holds what extraction finds."""
    with (LOCALE_DIR / "banquier.pot").open("rb") as f:
        template = read_po(f)
    ids = {(m.id[0] if m.pluralizable else m.id): m.pluralizable for m in template if m.id}
    assert ids == EXTRACTED, "run ./dev.sh i18n"


def test_the_extractor_gives_babel_plural_entries():
    import io

    from terminal.table.i18n_extract import extract
    source = (b'Msg("a", {"n": 2}); t("b"); N_("c"); X(code="d"); E(params={"deck_code": "e"})\n'
              b'class K:\n    code = "f"\n')
    found = [(func, message) for _, func, message, _ in extract(io.BytesIO(source), [], [], {})]
    assert sorted(found, key=str) == sorted([("ngettext", ("a", "a_plural")), ("gettext", "b"), ("gettext", "c"),
                                             ("gettext", "d"), ("gettext", "e"), ("gettext", "f")], key=str)
    markers = [message for _, _, message, _ in extract(io.BytesIO(source), [], [], {"scope": "markers"})]
    assert sorted(markers, key=str) == sorted([("a", "a_plural"), "b", "c"], key=str)


# -- the AST checks ------------------------------------------------------------------------------------------


class Module:
    """A parsed source with its module-level bindings and the names it imports."""

    def __init__(self, path: Path):
        self.path = path
        self.tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        self.imports: dict[str, str] = {}
        for node in self.tree.body:
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    self.imports[alias.asname or alias.name] = node.module

    def scope(self, node: ast.AST) -> ast.AST:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                return node
        return self.tree


MODULES = {path: Module(path) for path in SOURCES}
BY_NAME = {".".join(path.relative_to(ROOT).with_suffix("").parts): m for path, m in MODULES.items()}


def _bindings(module: Module, scope: ast.AST, name: str) -> list[ast.AST] | None:
    """The expressions ``name`` is bound to in ``scope`` (an element of a tuple target is given as
    ``(value, position)``), or None when it is a parameter of ``scope``."""
    if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        args = scope.args
        if name in {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}:
            return None
    found: list[ast.AST] = []
    nodes = ast.walk(scope) if scope is not module.tree else iter(module.tree.body)
    for node in nodes:
        if module.scope(node) is not scope and scope is not module.tree:
            continue
        pairs = [(t, node.value) for t in node.targets] if isinstance(node, ast.Assign) else \
            [(node.target, node.value)] if isinstance(node, ast.AnnAssign) and node.value else \
            [(node.target, node.iter)] if isinstance(node, ast.For) else []
        for target, value in pairs:
            if isinstance(target, ast.Name) and target.id == name:
                found.append(("iter", value) if isinstance(node, ast.For) else value)
            elif isinstance(target, ast.Tuple):
                for position, element in enumerate(target.elts):
                    if isinstance(element, ast.Name) and element.id == name:
                        found.append(("for" if isinstance(node, ast.For) else "unpack", value, position))
    return found


def _container(module: Module, node: ast.AST, scope: ast.AST) -> list[ast.AST] | None:
    """The values of a literal dict, tuple or list (``node`` itself or the name it is bound to)."""
    if isinstance(node, ast.Dict):
        return list(node.values)
    if isinstance(node, ast.Tuple | ast.List):
        return list(node.elts)
    if isinstance(node, ast.Name):
        for where in (scope, module.tree):
            bound = _bindings(module, where, node.id)
            if bound:
                values = [v for b in bound if not isinstance(b, tuple) for v in (_container(module, b, where) or [])]
                return values or None
        source = BY_NAME.get(module.imports.get(node.id, ""))
        if source is not None:
            return _container(source, node, source.tree)
    return None


def marked(module: Module, node: ast.AST, scope: ast.AST, literal_ok: bool) -> bool:
    """Whether ``node`` can only hold message ids that extraction finds (see the module docstring).
    ``literal_ok``: a bare string literal counts (directly in a marker call); elsewhere it must be ``N_``'s."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return literal_ok
    if isinstance(node, ast.Call) and called(node) == "N_":
        return len(node.args) == 1 and isinstance(node.args[0], ast.Constant)
    if isinstance(node, ast.IfExp):
        return marked(module, node.body, scope, literal_ok) and marked(module, node.orelse, scope, literal_ok)
    if isinstance(node, ast.Attribute) and node.attr in ("code", "needs"):
        return True  # an id carried by a refusal, an enrolment result or a screen: extracted where it was made
    if isinstance(node, ast.Call) and called(node) == "getattr" and len(node.args) == 3:
        return isinstance(node.args[1], ast.Constant) and node.args[1].value == "code" and \
            marked(module, node.args[2], scope, literal_ok)
    if isinstance(node, ast.Subscript) or (isinstance(node, ast.Call) and called(node) == "get"):
        target = node.value if isinstance(node, ast.Subscript) else node.func.value  # type: ignore[attr-defined]
        values = _container(module, target, scope)
        default_ok = not isinstance(node, ast.Call) or len(node.args) < 2 or marked(module, node.args[1], scope, False)
        return values is not None and default_ok and all(marked(module, v, scope, False) for v in values)
    if isinstance(node, ast.Name):
        bound = _bindings(module, scope, node.id)
        if bound is None:  # a parameter: allowed in a wrapper of a translation call (its callers are checked)
            return getattr(scope, "name", "") in TRANSLATING | {"opt", "amount_opt", "listing"}
        if not bound:
            bound = _bindings(module, module.tree, node.id) or []
            scope = module.tree
        if not bound:  # imported: its binding in the module it comes from
            source = BY_NAME.get(module.imports.get(node.id, ""))
            return source is not None and marked(source, node, source.tree, literal_ok)
        return all(_bound_marked(module, b, scope) for b in bound)
    return False


def _bound_marked(module: Module, binding: ast.AST | tuple, scope: ast.AST) -> bool:
    if not isinstance(binding, tuple):
        return marked(module, binding, scope, False)
    kind, value, *position = binding
    if kind == "iter":  # for code in (N_("a"), N_("b"))
        values = _container(module, value, scope)
        return values is not None and all(marked(module, v, scope, False) for v in values)
    if kind == "for" and isinstance(value, ast.Call) and called(value) == "zip":  # for x, code in zip(xs, ids)
        values = _container(module, value.args[position[0]], scope) if position[0] < len(value.args) else None
        return values is not None and all(marked(module, v, scope, False) for v in values)
    if kind == "unpack" and isinstance(value, ast.Subscript):  # a, code, b = table[key]
        rows = _container(module, value.value, scope)
        return rows is not None and all(isinstance(r, ast.Tuple) and position[0] < len(r.elts) and
                                        marked(module, r.elts[position[0]], scope, False) for r in rows)
    return False


def translation_calls() -> list[tuple[Module, ast.Call]]:
    return [(m, node) for m in MODULES.values() for node in ast.walk(m.tree)
            if isinstance(node, ast.Call) and called(node) in TRANSLATING and node.args]


def test_every_translation_call_takes_a_literal_message_id():
    calls = translation_calls()
    assert len(calls) > 300
    problems = [f"{m.path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node.args[0])}"
                for m, node in calls if not marked(m, node.args[0], m.scope(node), True)]
    assert not problems, "message ids that extraction cannot see (use a literal, or N_() in a map):\n" + \
        "\n".join(problems)


def _translated_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and called(node) in TRANSLATED and not (
        isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and
        node.func.value.id in ("re", "self") and called(node) == "msg")


def _translated_names(module: Module) -> dict[ast.AST, set[str]]:
    """{function: the local names it binds only to translated texts} (``x = ctx.t(...)``)."""
    found: dict[ast.AST, dict[str, bool]] = {}
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            names = found.setdefault(module.scope(node), {})
            name = node.targets[0].id
            names[name] = names.get(name, True) and _translated_call(node.value)
    return {scope: {n for n, only in names.items() if only} for scope, names in found.items()}


def glue_problems(m: Module) -> list[str]:
    """Where ``m`` glues a translated text (a translating call, or a local name bound only to one) to another
    with ``+``, ``+=``, an f-string or ``join``."""
    local = _translated_names(m)

    def translated(node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id in local.get(m.scope(node), set())
        return _translated_call(node)

    problems = []
    for node in ast.walk(m.tree):
        glued = None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and (
                translated(node.left) or translated(node.right)):
            glued = "+"
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and (
                translated(node.value) or translated(node.target)):
            glued = "+="
        elif isinstance(node, ast.JoinedStr) and any(
                isinstance(v, ast.FormattedValue) and translated(v.value) for v in node.values):
            glued = "an f-string"
        elif isinstance(node, ast.Call) and called(node) == "join" and node.args and any(
                translated(sub) for sub in ast.walk(node.args[0])):
            glued = "join"
        if glued:
            problems.append(f"{m.path}:{node.lineno}: {glued}: {ast.unparse(node)[:100]}")
    return problems


def test_no_translated_text_is_glued_to_another():
    problems = [p for m in MODULES.values() for p in glue_problems(m)]
    assert not problems, "translated texts glued in code (use an entry with named placeholders):\n" + \
        "\n".join(problems)


def test_the_checks_catch_what_they_forbid(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('def f(kind, t):\n'
                   '    code = "opt_" + kind\n'
                   '    a = Msg(f"opt_{kind}")\n'
                   '    b = Msg(code)\n'
                   '    c = t("ui_ok") + t("ui_cancel")\n'
                   '    d = f"{t(\'ui_ok\')}!"\n'
                   '    e = ", ".join(t(x) for x in ("a", "b"))\n'
                   '    return Msg(N_("ok")), Msg("ok" if kind else N_("no")), Msg({"a": N_("x")}[kind])\n',
                   encoding="utf-8")
    module = Module(bad)
    calls = [n for n in ast.walk(module.tree) if isinstance(n, ast.Call) and called(n) == "Msg"]
    verdicts = [marked(module, n.args[0], module.scope(n), True) for n in sorted(calls, key=lambda n: n.col_offset)]
    assert sorted(verdicts) == [False, False, True, True, True]
    assert len(glue_problems(module)) == 3
    named = tmp_path / "named.py"
    named.write_text('def g(ctx):\n    label = ctx.t("ui_ok")\n    label += "!"\n    return f"{label}?"\n',
                     encoding="utf-8")
    assert len(glue_problems(Module(named))) == 2


def test_the_markers_are_the_extractors():
    assert set(MARKERS) >= TRANSLATING


# -- the literal maps and the plural forms -------------------------------------------------------------------


def test_the_maps_cover_every_key():
    assert set(i18n.FLAGS) == set(RULE_FLAGS)
    assert set(i18n.MODES) == set(ALL_MODES) == set(i18n.MODE_HINTS)  # the electronic board's mode too
    kinds = {cls.op for cls in vars(operations).values() if isinstance(getattr(cls, "op", None), str)}
    assert kinds and kinds <= set(i18n.PURPOSES)


@pytest.mark.parametrize(("n", "uk", "fr", "en"), [
    (0, "0 вокзалів", "0 gare", "0 railroads"), (1, "1 вокзал", "1 gare", "1 railroad"),
    (2, "2 вокзали", "2 gares", "2 railroads"), (4, "4 вокзали", "4 gares", "4 railroads"),
    (5, "5 вокзалів", "5 gares", "5 railroads"), (11, "11 вокзалів", "11 gares", "11 railroads"),
    (21, "21 вокзал", "21 gares", "21 railroads"), (22, "22 вокзали", "22 gares", "22 railroads")])
def test_plural_forms_follow_each_language(n, uk, fr, en):
    assert [translate("ui_railroads", {"n": n}, language) for language in ("uk", "fr", "en")] == [uk, fr, en]


def test_nested_plurals_in_one_line():
    houses, hotels = (i18n.Msg("ui_bank_houses", {"n": 3}), i18n.Msg("ui_bank_hotels", {"n": 1}))
    assert translate("ui_bank_stock", {"houses": houses, "hotels": hotels}, "uk") == "Банк: 3 будинки · 1 готель"
    assert translate("ui_bank_stock", {"houses": houses, "hotels": hotels}, "fr") == "Banque : 3 maisons · 1 hôtel"


def _given(node: ast.Call) -> set[str] | None:
    """The params a translation call surely gives, or None when they are not all written out."""
    if called(node) == "t":
        if any(k.arg is None for k in node.keywords):
            return None
        return {k.arg for k in node.keywords if k.arg}
    params = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "params"), None)
    if params is None:
        return set()
    if not isinstance(params, ast.Dict) or None in params.keys:
        return None
    keys = {k.value for k in params.keys if isinstance(k, ast.Constant)}
    return keys if len(keys) == len(params.keys) else None


def test_every_translation_call_gives_its_entrys_placeholders():
    """A literal id with its params written out gives every ``{placeholder}`` of its English entry (a missing
    one would be drawn as "{text}")."""
    english = {}
    with (LOCALE_DIR / "en" / "LC_MESSAGES" / "banquier.po").open("rb") as f:
        for message in read_po(f, locale="en"):
            if message.id:
                forms = message.string if isinstance(message.string, tuple) else (message.string,)
                english[message.id[0] if message.pluralizable else message.id] = set().union(
                    *({f for _, f, _, _ in string.Formatter().parse(form) if f} for form in forms))
    problems = []
    for m, node in translation_calls():
        first, given = node.args[0], _given(node)
        if isinstance(first, ast.Constant) and given is not None and first.value in english:
            missing = english[first.value] - given
            if missing:
                problems.append(f"{m.path.relative_to(ROOT)}:{node.lineno}: {first.value} lacks {sorted(missing)}")
    assert not problems, "\n".join(problems)
