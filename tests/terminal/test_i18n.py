"""Every refusal reaches the screen in French, English and Ukrainian, with no ``{placeholder}`` left over.

The raise sites are read from the source with :mod:`ast`: every construction of an error class (a subclass of
``terminal.errors.GameError`` or ``cards.errors.CardsError``) in ``terminal/*.py`` and ``cards/*.py``, with
its ``code=`` (or the class's default ``code``) and the keys of its ``params=`` dict. A template may only use
keys that EVERY raise site of its code passes. The enrolment prompts and results of ``cards/registry.py``
are checked the same way against the params they are documented to carry. A ``*_code`` param (a word the
screen translates, see :func:`terminal.table.i18n.translate`) must be a literal code, or a choice between literal
codes, each an entry of the catalog in the three languages without params.
"""
from __future__ import annotations

import ast
import string
from collections import defaultdict
from pathlib import Path

import pytest

from cards.registry import BankerCard, CardRegistry, DeedCard, Enrolment, PlayerCard, role_params
from terminal.errors import GameError
from terminal.table.i18n import LANGUAGES, has_text, template, translate

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([*ROOT.glob("terminal/**/*.py"), *ROOT.glob("cards/*.py")])
ROOTS = {"GameError", "CardsError"}

# The keys every role's role_params() holds (``number`` or ``square``/``name`` depend on the role's kind).
ROLE_KEYS = frozenset.intersection(*(frozenset(role_params(r)) for r in (BankerCard(), PlayerCard(1), DeedCard(1))))


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _classes(trees: dict[Path, ast.Module]) -> dict[str, tuple[list[str], str | None]]:
    """{class name: (base names, its own ``code`` attribute or None)} over all the sources."""
    found = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                code = None
                for stmt in node.body:
                    targets = stmt.targets if isinstance(stmt, ast.Assign) else \
                        [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
                    if any(isinstance(t, ast.Name) and t.id == "code" for t in targets) and \
                            isinstance(stmt.value, ast.Constant):
                        code = stmt.value.value
                found[node.name] = ([_name(b) for b in node.bases], code)
    return found


def _params_keys(node: ast.AST | None, where: str, problems: list[str]) -> frozenset[str]:
    """The keys a ``params=`` expression surely holds."""
    if node is None:
        return frozenset()
    if isinstance(node, ast.Call) and _name(node.func) == "role_params":
        return ROLE_KEYS
    if not isinstance(node, ast.Dict):
        problems.append(f"{where}: params is not a dict literal: {ast.unparse(node)}")
        return frozenset()
    keys = set()
    for key, value in zip(node.keys, node.values, strict=True):
        if key is None:  # **spread
            keys |= _params_keys(value, where, problems)
        elif isinstance(key, ast.Constant) and isinstance(key.value, str):
            keys.add(key.value)
        else:
            problems.append(f"{where}: params key is not a string literal: {ast.unparse(key)}")
    return frozenset(keys)


def _literal_codes(node: ast.AST) -> set[str] | None:
    """The codes a ``*_code`` param's value can be: a string literal, ``a if c else b`` of those, or a
    subscript of a literal tuple, list or dict of those. None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        body, orelse = _literal_codes(node.body), _literal_codes(node.orelse)
        return None if body is None or orelse is None else body | orelse
    if isinstance(node, ast.Subscript):
        container = node.value
        items = container.values if isinstance(container, ast.Dict) else \
            container.elts if isinstance(container, (ast.Tuple, ast.List)) else None
        if items is None:
            return None
        codes: set[str] = set()
        for item in items:
            found = _literal_codes(item)
            if found is None:
                return None
            codes |= found
        return codes
    return None


def _code_params(node: ast.AST | None, where: str, problems: list[str]) -> dict[str, set[str]]:
    """{key: the codes it can hold} for the ``*_code`` keys of a ``params=`` dict literal."""
    found: dict[str, set[str]] = {}
    if not isinstance(node, ast.Dict):
        return found
    for key, value in zip(node.keys, node.values, strict=True):
        if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.endswith("_code"):
            codes = _literal_codes(value)
            if codes is None:
                problems.append(f"{where}: {key.value} is not a literal code: {ast.unparse(value)}")
            else:
                found[key.value] = codes
    return found


#: (file:line, key, codes) for every ``*_code`` param given at a raise site.
CODE_PARAMS: list[tuple[str, str, set[str]]] = []


def scan() -> tuple[dict[str, list[tuple[str, frozenset[str]]]], list[str]]:
    """({code: [(file:line, param keys), ...]}, problems). Default codes of error classes never raised with
    that code get one pseudo-site without params."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in SOURCES}
    classes = _classes(trees)

    def is_error(name, seen=frozenset()):
        if name in ROOTS:
            return True
        if name not in classes or name in seen:
            return False
        return any(is_error(base, seen | {name}) for base in classes[name][0] if base)

    def default_code(name):
        bases, code = classes[name]
        return code or next(default_code(b) for b in bases if b in classes and is_error(b))

    errors = {name for name in classes if is_error(name)}
    sites: dict[str, list[tuple[str, frozenset[str]]]] = defaultdict(list)
    problems: list[str] = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            keywords = {k.arg: k.value for k in node.keywords}
            if isinstance(node.func, ast.Call) and _name(node.func.func) == "type":
                # ``type(exc)(..., params={**exc.params, ...})`` re-raises a caught error with more params:
                # its code's other sites already cover it.
                params = keywords.get("params")
                if "code" in keywords or not (isinstance(params, ast.Dict) and None in params.keys and any(
                        k is None and ast.unparse(v).endswith(".params")
                        for k, v in zip(params.keys, params.values, strict=True))):
                    problems.append(f"{where}: an error of a dynamic type that does not extend exc.params")
                continue
            name = _name(node.func)
            if name not in errors:
                continue
            code_node = keywords.get("code")
            if code_node is None:
                code = default_code(name)
            elif isinstance(code_node, ast.Constant) and isinstance(code_node.value, str):
                code = code_node.value
            else:
                problems.append(f"{where}: code is not a string literal: {ast.unparse(code_node)}")
                continue
            sites[code].append((where, _params_keys(keywords.get("params"), where, problems)))
            CODE_PARAMS.extend((where, key, codes)
                               for key, codes in _code_params(keywords.get("params"), where, problems).items())
    for name in errors:
        sites.setdefault(default_code(name), [(f"default code of {name}", frozenset())])
    return dict(sites), problems


# The enrolment's messages (cards/registry.py: EnrolmentStep, EnrolmentResult, EnrolmentSummary) and the
# params each always carries. Refused results reuse the codes of AlreadyEnrolled and RoleHasCard.
ENROLMENT = {
    "enrol_tap_banker": frozenset(role_params(BankerCard())),
    "enrol_tap_player": frozenset(role_params(PlayerCard(1))),
    "enrol_tap_deed": frozenset(role_params(DeedCard(1))),
    "enrol_enrolled": {"uid"} | ROLE_KEYS,
    "enrol_unchanged": {"uid"} | ROLE_KEYS,
    "enrol_replaced": {"uid", "previous_uid"} | ROLE_KEYS,
    "enrol_summary": frozenset({"enrolled", "replaced", "unchanged", "skipped", "pending"}),
}


def enrolment_codes() -> set[str]:
    """The message codes the registry's enrolment gives, read from its source."""
    tree = ast.parse((ROOT / "cards" / "registry.py").read_text(encoding="utf-8"))
    codes = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in ("EnrolmentStep", "EnrolmentResult"):
            position = 1 if _name(node.func) == "EnrolmentStep" else 3
            if len(node.args) > position:
                arg = node.args[position]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    codes.add(arg.value)
        if isinstance(node, ast.ClassDef) and node.name == "EnrolmentSummary":
            for stmt in node.body:
                if isinstance(stmt, ast.AnnAssign) and getattr(stmt.target, "id", "") == "code":
                    codes.add(stmt.value.value)
    return codes


def placeholders(template: str) -> set[str]:
    names = set()
    for _, field, _, _ in string.Formatter().parse(template):
        if field is not None:
            names.add(field.split(".")[0].split("[")[0])
    return names


SITES, PROBLEMS = scan()


def test_the_scan_understands_every_raise_site():
    assert not PROBLEMS, "\n".join(PROBLEMS)
    assert len(SITES) > 100  # the scan found the refusals (sanity)
    assert {"insufficient_cash", "build_uneven", "rent_own_deed", "card_already_enrolled"} <= set(SITES)


def test_code_params_name_catalog_words():
    assert {key for _, key, _ in CODE_PARAMS} >= {"deck_code", "card_code", "building_code", "wanted_code",
                                                  "lowest_code"}
    for where, key, codes in CODE_PARAMS:
        for code in codes:
            assert has_text(code), f"{where}: {key}={code!r} is not in the catalog"
            for language in LANGUAGES:
                found = template(code, language, None)
                assert found, f"{where}: {code} has no {language} text"
                assert not placeholders(found), f"{code} ({language}) takes params: it cannot"


def test_translate_shows_code_params_in_the_language():
    params = {"holder": "Bob", "deck": "chance", "deck_code": "part_deck_community_chest"}
    assert "Caisse de communauté" in translate("jail_card_taken", params, "fr")
    assert "Community Chest" in translate("jail_card_taken", params, "en")
    assert "«Громадська скарбниця»" in translate("jail_card_taken", params, "uk")
    # English shows the error's own message; a code the catalog lacks, or a value that is not text, stays.
    assert translate("jail_card_taken", params, "en", "own words", prefer_english=True) == "own words"
    assert translate("deed_context", {"deed": "x", "other_code": "no_such_code"}, "fr") == "x"
    assert translate("unknown_player", {"player": "a", "n_code": 3}, "fr") == (
        "Il n'y a pas de joueur « a » dans cette partie : choisissez un joueur de la partie.")
    plain = {"player": "Ann"}
    assert translate("pay_self", plain, "fr") == translate("pay_self", dict(plain), "fr")


def test_enrolment_codes_are_known():
    assert enrolment_codes() == set(ENROLMENT)


@pytest.mark.parametrize("code", sorted(set(SITES) | set(ENROLMENT)))
def test_every_code_has_the_three_languages(code):
    assert has_text(code), f"{code} has no catalog entry (add it to the catalogs: README, Translating Banquier)"
    for language in LANGUAGES:
        assert template(code, language, None), f"{code} has no {language} text"


@pytest.mark.parametrize("code", sorted(set(SITES) | set(ENROLMENT)))
def test_placeholders_are_given_at_every_raise_site(code):
    sites = SITES.get(code, []) + ([("cards/registry.py enrolment", frozenset(ENROLMENT[code]))]
                                   if code in ENROLMENT else [])
    for language in LANGUAGES:
        for where, keys in sites:
            missing = placeholders(template(code, language, None) or "") - keys
            assert not missing, f"{code} ({language}) uses {sorted(missing)}, which {where} does not give"


# -- real refusals -------------------------------------------------------------------------------------------


def refusal(call) -> GameError:
    with pytest.raises(GameError) as info:
        call()
    return info.value


def check_translated(error: GameError) -> None:
    english = str(error)
    assert has_text(error.code)
    texts = {language: translate(error.code, error.params, language, english) for language in LANGUAGES}
    for language, text in texts.items():
        assert "{" not in text and "}" not in text, (error.code, language, text)
    assert texts["fr"] != english and texts["fr"] != texts["en"], (error.code, texts["fr"])
    assert texts["uk"] != english and texts["uk"] != texts["en"], (error.code, texts["uk"])


def test_build_unevenly(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Ann", 1)
    game.buy("Ann", 3)
    game.build("Ann", 1)
    error = refusal(lambda: game.build("Ann", 1))
    assert error.code == "build_uneven"
    check_translated(error)
    assert "façon égale" in translate(error.code, error.params, "fr", str(error))


def test_build_without_the_whole_group_and_mortgage_a_built_group(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Ann", 1)
    error = refusal(lambda: game.build("Ann", 1))
    assert error.code == "build_group_incomplete"
    check_translated(error)
    game.buy("Ann", 3)
    game.build("Ann", 1)
    error = refusal(lambda: game.mortgage("Ann", 3))
    assert error.code == "mortgage_group_built"
    check_translated(error)


def test_buy_without_cash(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.transfer("Ann", "Bob", 1450)
    error = refusal(lambda: game.buy("Ann", 39))
    assert error.code == "insufficient_cash"
    check_translated(error)
    text = translate(error.code, error.params, "fr", str(error))
    assert "Ann" in text and "50" in text and "espèces" in text


def test_rent_on_own_deed_and_on_a_mortgaged_deed(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Ann", 39)
    error = refusal(lambda: game.pay_rent("Ann", 39))
    assert error.code == "rent_own_deed"
    check_translated(error)
    assert "Ann" in translate(error.code, error.params, "uk", str(error))
    game.mortgage("Ann", 39)
    error = refusal(lambda: game.pay_rent("Bob", 39))
    assert error.code == "rent_mortgaged"
    check_translated(error)


def test_bankruptcy_refused(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    error = refusal(lambda: game.declare_bankruptcy("Ann"))
    assert error.code == "bankruptcy_no_debt"
    check_translated(error)
    game.buy("Ann", 39)
    game.pay_bank("Ann", 1200)
    error = refusal(lambda: game.declare_bankruptcy("Ann"))
    assert error.code == "bankruptcy_can_pay"
    check_translated(error)
    text = translate(error.code, error.params, "fr", str(error))
    assert "100" in text and "200" in text and "faillite" in text
    error = refusal(lambda: game.buy("Ann", 1))
    assert error.code == "player_in_debt"
    check_translated(error)


def test_unknown_player_bad_amount_and_self_trade(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    error = refusal(lambda: game.pass_go("Zed"))
    assert error.code == "unknown_player"
    check_translated(error)
    assert "Zed" in translate(error.code, error.params, "fr", str(error))
    error = refusal(lambda: game.bank_pays("Ann", 0))
    assert error.code == "amount_not_positive"
    check_translated(error)
    error = refusal(lambda: game.trade("Ann", "Ann", {"cash": 10}, {}))
    assert error.code == "trade_self"
    check_translated(error)
    error = refusal(lambda: game.use_jail_card("Ann"))
    assert error.code == "no_jail_card"
    check_translated(error)


def test_enrolment_messages_and_refusals_translate():
    registry = CardRegistry(None)
    enrolment = Enrolment(registry, [BankerCard(), PlayerCard(1), DeedCard(39)])
    messages = [(step.code, step.params) for step in enrolment.steps]
    messages.append(((result := enrolment.present("04A1B2C3")).code, result.params))
    refused = enrolment.present("04A1B2C3")  # the banker card again, for player 1
    assert refused.code == "card_already_enrolled" and not refused.accepted
    messages.append((refused.code, refused.params))
    summary = enrolment.summary()
    messages.append((summary.code, summary.params))
    for code, params in messages:
        for language in LANGUAGES:
            text = translate(code, params, language)
            assert "{" not in text and text != code, (code, language, text)
        assert translate(code, params, "fr") != translate(code, params, "en")


# -- French texts name the title deed ----------------------------------------------------------------------


def fr(error: GameError) -> str:
    check_translated(error)
    return translate(error.code, error.params, "fr", str(error))


def test_french_build_refusals_name_the_deeds(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Ann", 3)
    assert fr(refusal(lambda: game.build("Ann", 3))) == (
        "Impossible de construire sur Rue Lecourbe : Ann doit posséder tout le groupe de couleur. Il manque : "
        "Boulevard de Belleville (à obtenir par un achat ou un échange).")
    game.buy("Ann", 1)
    game.build("Ann", 3)
    assert fr(refusal(lambda: game.build("Ann", 3))) == (
        "Impossible de construire sur Rue Lecourbe : construisez de façon égale sur le groupe de couleur, "
        "d'abord sur Boulevard de Belleville (aucune maison).")
    game.buy("Ann", 5)
    error = refusal(lambda: game.build("Ann", 5))
    assert error.code == "build_not_street" and "Gare Montparnasse" in fr(error)
    error = refusal(lambda: game.mortgage("Ann", 1))
    assert fr(error) == ("Impossible d'hypothéquer Boulevard de Belleville : le groupe de couleur a des "
                         "bâtiments. Vendez d'abord à la Banque les maisons et hôtels de Rue Lecourbe.")
    error = refusal(lambda: game.sell_building("Ann", 1))
    assert error.code == "sell_nothing" and fr(error) == "Il n'y a aucun bâtiment à vendre sur Boulevard de Belleville."
    error = refusal(lambda: game.trade("Ann", "Bob", {"squares": [1]}, {"cash": 10}))
    assert error.code == "trade_group_built" and "Impossible d'échanger Boulevard de Belleville" in fr(error)
    assert "(Rue Lecourbe)" in fr(error)


def test_french_deed_refusals_name_the_deed_and_owner(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Ann", 39)
    error = refusal(lambda: game.buy("Bob", 39))
    assert error.code == "deed_owned" and fr(error).startswith("Rue de la Paix appartient déjà à Ann :")
    error = refusal(lambda: game.start_auction(39))
    assert error.code == "deed_owned" and fr(error).startswith("Rue de la Paix appartient déjà à Ann :")
    error = refusal(lambda: game.mortgage("Bob", 39))
    assert error.code == "not_owner"
    assert fr(error) == "Bob ne possède pas Rue de la Paix : seul son propriétaire peut faire cela."
    assert fr(refusal(lambda: game.pay_rent("Ann", 39))) == "Pas de loyer : Ann est le propriétaire de Rue de la Paix."
    error = refusal(lambda: game.unmortgage("Ann", 39))
    assert error.code == "not_mortgaged" and fr(error).startswith("Rue de la Paix n'est pas sous hypothèque")
    game.mortgage("Ann", 39)
    error = refusal(lambda: game.pay_rent("Bob", 39))
    assert fr(error) == "Pas de loyer sur Rue de la Paix : ce titre de propriété est hypothéqué."
    error = refusal(lambda: game.pay_rent("Bob", 12))
    assert error.code == "rent_unowned" and "Compagnie de distribution d'électricité" in fr(error)
    error = refusal(lambda: game.pay_rent("Bob", 5, card="nearest_utility"))
    assert fr(error).startswith("Pas de loyer sur Gare Montparnasse")


def test_french_cards_and_auctions_are_translated_words(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.gain_jail_card("Ann", "community_chest")
    error = refusal(lambda: game.gain_jail_card("Bob", "community_chest"))
    assert error.code == "jail_card_taken"
    assert fr(error) == ("Ann a déjà la carte « libéré de prison » du paquet Caisse de communauté : chaque paquet "
                         "n'en a qu'une.")
    assert "«Громадська скарбниця»" in translate(error.code, error.params, "uk", str(error))
    for square in (1, 3):
        game.buy("Ann", square)
    auction = game.start_building_auction("hotel")
    error = refusal(lambda: auction.bid("Ann", 3, 100))
    assert error.code == "auction_wrong_building"
    assert fr(error) == ("Ces enchères sont pour un hôtel, mais Rue Lecourbe doit d'abord recevoir une maison : "
                         "enchérissez pour une autre rue.")
    auction = game.start_building_auction("house")
    error = refusal(lambda: auction.bid("Ann", 3, 10))
    assert error.code == "auction_below_house_price"
    assert fr(error) == ("Les enchères pour construire sur Rue Lecourbe commencent au prix d'une maison imprimé "
                         "sur le titre, 50 : 10 ne suffit pas.")
    error = refusal(lambda: game.build("Ann", 3, price=10))
    assert error.code == "auction_below_house_price" and fr(error).endswith("50 : 10 ne suffit pas.")
    auction.bid("Ann", 3, 60)
    error = refusal(lambda: auction.bid("Ann", 1, 60))
    assert error.code == "bid_too_low" and "60 de Ann" in fr(error)


def test_french_debt_says_how_much(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.pay_bank("Ann", 1600)
    error = refusal(lambda: game.buy("Ann", 1))
    assert error.code == "player_in_debt" and error.params["owed"] == 100
    assert error.params["creditor_list"] == ["bank"]
    assert fr(error).startswith("Ann doit encore 100 : réglez d'abord cette dette")
