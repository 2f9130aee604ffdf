"""The Babel extraction method that finds the screen's message ids in the Python sources (``pybabel extract``).

Registered as the ``banquier`` extractor (pyproject ``babel.extractors``) and named in ``babel.cfg``. Message
ids are the program's stable codes (:mod:`terminal.table.i18n`), written as string literals where they are
made; this reads them with :mod:`ast`:

- the id argument of a marker call: ``Msg(id, ...)``, ``translate(id, ...)``, ``t(id, ...)``, ``N_(id)`` (an id
  kept in a map for later, as a screen's ``needs``), ``EnrolmentStep(role, id, ...)`` and
  ``EnrolmentResult(..., id, ...)``; a conditional ``"a" if c else "b"`` gives both, and
  ``getattr(x, "code", id)`` its default;
- the ``code=`` keyword of any call (a refusal's code), and the ``code = "..."`` attribute of
  a class (an error class's default code, the enrolment summary's);
- the value of a param whose key ends in ``_code`` (a word the screen translates: ``deck_code="part_..."``).

An id whose marker call gives a count, the param ``n`` (``Msg(id, {"n": ...})``, ``t(id, n=...)``), is a plural
entry: ``msgid`` the id, ``msgid_plural`` the id followed by ``_plural``.

Since an id is a code, not a sentence, every entry carries the English catalog's text as an extracted comment
(``#. en: Tap a card``), which a translator's ``.po`` editor shows beside the entry (a new id gets it once its
English text is written and the catalogs are updated again).
"""
from __future__ import annotations

import ast
import functools
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from babel.messages.pofile import read_po

#: Marker calls: the name called -> the position of the message id among its positional arguments.
MARKERS: Mapping[str, int] = {"Msg": 0, "translate": 0, "t": 0, "N_": 0, "EnrolmentStep": 1,
                              "EnrolmentResult": 3}
#: Keyword arguments that hold a message id, in any call.
ID_KEYWORDS = frozenset({"code"})
#: The param of a plural entry that holds its count, and the suffix of its plural id.
COUNT = "n"
PLURAL_SUFFIX = "_plural"


def called(node: ast.Call) -> str | None:
    """The name a call calls: ``f`` for ``f(...)`` and ``x.f(...)``."""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def literals(node: ast.AST | None) -> list[str]:
    """The ids a literal id expression stands for: a string, ``N_("...")``, or a conditional of those."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return literals(node.body) + literals(node.orelse)
    if isinstance(node, ast.Call) and called(node) == "N_" and node.args:
        return literals(node.args[0])
    if isinstance(node, ast.Call) and called(node) == "getattr" and len(node.args) == 3:  # getattr(x, "code", id)
        return literals(node.args[2])
    return []


def _gives_count(node: ast.Call, name: str) -> bool:
    """Whether a marker call passes the count param ``n`` (in its params dict, or as ``n=`` to ``t``)."""
    if any(k.arg == COUNT for k in node.keywords):
        return True
    params = next((k.value for k in node.keywords if k.arg == "params"), None)
    if params is None and name in ("Msg", "translate") and len(node.args) > 1:
        params = node.args[1]
    return isinstance(params, ast.Dict) and any(
        isinstance(k, ast.Constant) and k.value == COUNT for k in params.keys)


def _code_params(node: ast.AST) -> Iterator[tuple[int, str]]:
    """The ``*_code`` params of a dict literal or of keyword arguments."""
    if isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values, strict=True):
            if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.endswith("_code"):
                yield from ((value.lineno, code) for code in literals(value) + _subscripted(value))
    if isinstance(node, ast.Call):
        for keyword in node.keywords:
            if keyword.arg and keyword.arg.endswith("_code"):
                yield from ((keyword.value.lineno, code) for code in literals(keyword.value))


def _subscripted(node: ast.AST) -> list[str]:
    """The ids of ``("a", "b")[i]`` or ``{"k": "a"}[k]``: every literal of the literal container."""
    if not isinstance(node, ast.Subscript):
        return []
    container = node.value
    items = container.values if isinstance(container, ast.Dict) else \
        container.elts if isinstance(container, ast.Tuple | ast.List) else []
    return [code for item in items for code in literals(item)]


#: What :func:`message_ids` reads: the marker calls; also the refusals' codes; also the ``*_code`` params.
SCOPES = ("markers", "refusals", "all")


def message_ids(tree: ast.AST, scope: str = "all") -> Iterator[tuple[int, str, bool]]:
    """``(line, id, plural)`` for every message id written in a module's tree, as far as ``scope`` (one of
    :data:`SCOPES`) reads: the host's modules give ids in marker calls only, or in refusals too, but
    their ``*_code`` keys are configuration, not message ids."""
    if scope not in SCOPES:
        raise ValueError(f"scope must be one of {', '.join(SCOPES)}, not {scope!r}")
    markers_only, code_params = scope == "markers", scope == "all"
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = called(node)
            position = MARKERS.get(name or "")
            if name is not None and position is not None and len(node.args) > position:
                plural = name != "N_" and _gives_count(node, name)
                for code in literals(node.args[position]):
                    yield node.lineno, code, plural
            if markers_only:
                continue
            for keyword in node.keywords:
                if keyword.arg in ID_KEYWORDS:
                    plural = _gives_count(node, "")
                    for code in literals(keyword.value):
                        yield keyword.value.lineno, code, plural
            if code_params:
                yield from ((line, code, False) for line, code in _code_params(node))
        elif markers_only:
            continue
        elif isinstance(node, ast.Dict) and code_params:
            yield from ((line, code, False) for line, code in _code_params(node))
        elif isinstance(node, ast.ClassDef):
            for stmt in node.body:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else \
                    [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
                if any(isinstance(t, ast.Name) and t.id == "code" for t in targets):
                    value = stmt.value if isinstance(stmt, ast.Assign | ast.AnnAssign) else None
                    yield from ((stmt.lineno, code, False) for code in literals(value))


#: The English catalog, whose texts become the entries' comments.
ENGLISH = Path(__file__).resolve().parent / "locale" / "en" / "LC_MESSAGES" / "banquier.po"


@functools.cache
def english_texts() -> Mapping[str, tuple[str, ...]]:
    """{id: its English text, or plural forms} from the English catalog (empty while it does not exist)."""
    if not ENGLISH.is_file():
        return {}
    with ENGLISH.open("rb") as f:
        catalog = read_po(f, locale="en")
    found: dict[str, tuple[str, ...]] = {}
    for message in catalog:
        if not message.id:
            continue
        code = message.id[0] if isinstance(message.id, tuple | list) else message.id
        forms = tuple(message.string) if isinstance(message.string, tuple | list) else (message.string,)
        found[str(code)] = tuple(str(form) for form in forms if form)
    return found


def _comments(code: str) -> list[str]:
    forms = english_texts().get(code, ())
    return [f"en: {forms[0]}"] + [f"en (plural): {form}" for form in forms[1:2]] if forms else []


def extract(fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
            options: Mapping[str, Any]) -> Iterator[tuple[int, str, str | tuple[str, str], list[str]]]:
    """Babel's extraction method interface: ``(line, funcname, message, comments)`` for each message id
    (``message`` is ``(id, id + "_plural")`` for a plural entry; ``comments``: its English text).
    ``keywords`` and ``comment_tags`` are not used: the markers are :data:`MARKERS` and :data:`ID_KEYWORDS`.
    Option ``scope`` (babel.cfg): one of :data:`SCOPES`, ``all`` by default."""
    source = fileobj.read().decode(str(options.get("encoding", "utf-8")))
    tree = ast.parse(source)
    for line, code, plural in sorted(set(message_ids(tree, str(options.get("scope", "all"))))):
        if plural:
            yield line, "ngettext", (code, code + PLURAL_SUFFIX), _comments(code)
        else:
            yield line, "gettext", code, _comments(code)
