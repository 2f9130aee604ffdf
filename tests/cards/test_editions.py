"""Edition files: contents against board.csv and decks.md, and refusal of malformed files."""
from __future__ import annotations

import copy
import csv
import json
import pickle
import re
import shutil

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from cards.editions import (
    COLOR_GROUPS,
    LANGUAGES,
    NAMED_GROUPS,
    Localized,
    available_editions,
    describe_missing,
    join_localized,
    load_edition,
    load_edition_file,
    localized,
    missing_texts,
)
from cards.errors import CardsError, EditionError, UnknownEditionError
from tests.conftest import ROOT


def _board() -> list[dict[str, str]]:
    with open(ROOT / "cards" / "data" / "board.csv", encoding="utf-8", newline="") as rows:
        return list(csv.DictReader(rows))


def _names() -> list[dict[str, str]]:
    with open(ROOT / "cards" / "data" / "names.csv", encoding="utf-8", newline="") as rows:
        return list(csv.DictReader(rows))


BOARD = _board()


def test_shipped_editions():
    assert available_editions() == ["fr", "fr-francs", "ru-roubles", "ultimate", "us", "us-1935"]


@pytest.mark.parametrize("name, column", [("fr", "fr_name"), ("us", "us_name")])
def test_board_matches_board_csv(name, column):
    edition = load_edition(name)
    for row, square in zip(BOARD, edition.squares, strict=True):
        assert square.name == row[column]
        assert square.kind == row["kind"]
        if square.is_deed:
            assert square.price == int(row["price"]) and square.mortgage == int(row["mortgage"])
            assert square.rents[0] == int(row["rent_0"])
        if square.kind == "street":
            assert square.rents == tuple(int(row[c]) for c in
                                         ("rent_0", "rent_1", "rent_2", "rent_3", "rent_4", "rent_hotel"))
            assert square.house_cost == int(row["house_cost"])
    assert len(edition.deeds()) == 28
    assert edition.starting_cash == 1500 and edition.go_salary == 200 and edition.jail_fine == 50
    assert (edition.houses, edition.hotels) == (32, 12)


def test_scaled_and_older_editions():
    francs = load_edition("fr-francs")
    assert (francs.starting_cash, francs.go_salary, francs.jail_fine) == (150000, 20000, 5000)
    assert francs.square(39).rents[5] == 200000 and francs.square(12).rents == (4, 10)
    assert francs.decks["chance"][12].params["amount"] == 1500
    roubles = load_edition("ru-roubles")
    assert (roubles.starting_cash, roubles.go_salary) == (1500000, 200000)
    old = load_edition("us-1935")
    assert old.luxury_tax == 75 and old.rules["income_tax_percent"] is True
    assert load_edition("us").luxury_tax == 100


def test_rule_defaults_differ_by_edition():
    assert load_edition("fr").rules["double_rent_with_mortgaged_street"] is False
    assert load_edition("us").rules["double_rent_with_mortgaged_street"] is True


def test_decks_have_sixteen_cards_and_one_jail_card_each():
    for name in ("fr", "us"):
        for deck in load_edition(name).decks.values():
            assert len(deck) == 16
            assert sum(card.action == "jail_card" for card in deck) == 1
            assert all(card.text["fr"] and card.text["en"] for card in deck)
    fr_cc = load_edition("fr").decks["community_chest"]
    assert any(c.action == "pay_or_draw" and c.params["amount"] == 10 for c in fr_cc)


def test_unknown_edition_and_square():
    with pytest.raises(UnknownEditionError, match="choose one of"):
        load_edition("monaco")
    with pytest.raises(LookupError):
        load_edition("fr").square(40)


def _refusal_of_edited_fr(tmp_path, edit) -> pytest.ExceptionInfo[EditionError]:
    """The refusal of the French edition file once ``edit`` has changed it (the edit must change something)."""
    source = (ROOT / "cards" / "data" / "fr.toml").read_text(encoding="utf-8")
    broken = edit(source)
    assert broken != source
    path = tmp_path / "fr.toml"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(EditionError) as info:
        load_edition_file(path)
    return info


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("price = 400", "price = 401"), "square 39.mortgage: 200 is not half the price 401"),
    (lambda t: t.replace("rents = [50, 200, 600", "rents = [50, 20, 600"), "square 39.rents: must increase"),
    (lambda t: t.replace('group = "dark_blue"\nprice = 400', 'group = "purple"\nprice = 400'),
     "square 39: group 'purple'"),
    (lambda t: t.replace("starting_cash = 1500", "starting_cash = -1"), "edition.starting_cash: must be at least 1"),
    (lambda t: t.replace("interest_rounding = \"up\"", "interest_rounding = \"sideways\""), "rules.interest_rounding"),
    (lambda t: t.replace("action = \"jail_card\"", "action = \"collect\"\namount = 5", 1), "one Get Out of Jail"),
    (lambda t: t + "\n[surprise]\nx = 1\n", "surprise: unknown table"),
    (lambda t: t.replace("house_cost = 200", "house_cost = 150", 1), "share one house cost"),
    (lambda t: t.replace("[[square]]\nindex = 39", "[[square]]\nindex = 38", 1), "expected index 39"),
    (lambda t: t[:-200], "not a valid TOML file"),
])
def test_malformed_edition_files_are_refused_with_file_entry_and_reason(tmp_path, edit, message):
    info = _refusal_of_edited_fr(tmp_path, edit)
    assert message in str(info.value)
    assert "fr.toml" in str(info.value)


def test_a_derived_edition_file_beside_its_base(tmp_path):
    shutil.copy(ROOT / "cards" / "data" / "us.toml", tmp_path / "us.toml")
    (tmp_path / "us-big.toml").write_text('[edition]\nname = "us-big"\nbase = "us"\nscale = 10\n')
    big = load_edition_file(tmp_path / "us-big.toml")
    assert big.starting_cash == 15000 and big.square(39).price == 4000 and big.scale == 10
    (tmp_path / "bad.toml").write_text('[edition]\nname = "bad"\nbase = "us"\n[square_amounts]\n39 = 5\n')
    with pytest.raises(EditionError, match=r"square_amounts\.39"):
        load_edition_file(tmp_path / "bad.toml")


# -- texts by language --------------------------------------------------------------------------------------
NAMES = _names()


def test_every_shipped_edition_has_every_text_in_every_screen_language():
    from terminal.table.i18n import LANGUAGES as SCREEN_LANGUAGES

    assert set(LANGUAGES) == set(SCREEN_LANGUAGES)
    for name in available_editions():
        edition = load_edition(name)
        assert missing_texts(edition) == [], name
        assert describe_missing(edition) == ""
        # the Ultimate Banking board has colour groups only (no railroads, no utilities)
        assert set(edition.group_names) == set(COLOR_GROUPS if edition.is_ultimate else NAMED_GROUPS)


@pytest.mark.parametrize("name, board, own, column", [
    ("fr", "fr", "fr", "fr_name"), ("us", "us", "en", "us_name"), ("fr-francs", "fr", "fr", "fr_name"),
    ("us-1935", "us", "en", "us_name"), ("ru-roubles", "fr", "fr", "fr_name")])
def test_square_names_by_language_follow_board_and_names_csv(name, board, own, column):
    edition = load_edition(name)
    for row, names, square in zip(BOARD, NAMES, edition.squares, strict=True):
        assert square.name == row[column] and square.name_in(own) == row[column]  # the Bank's names as before
        for language in LANGUAGES:
            expected = row[column] if language == own else names[f"{board}_{language}"]
            assert edition.square_name(square.index, language) == expected
    assert edition.square_name(39, "uk") == {"fr": "Вулиця Миру", "us": "Бордвок"}[board]
    assert edition.square_name(0, "uk") == "СТАРТ" and edition.square_name(20, "uk") == "Безкоштовна стоянка"
    assert edition.group_name("dark_blue", "uk") == "Синя" and edition.group_name("railroad", "en")


def test_ukrainian_card_texts_use_the_ukrainian_names():
    fr = load_edition("fr")
    assert fr.decks["chance"][0].text_in("uk") == "Вирушайте на вулицю Миру."
    assert "«СТАРТ»" in fr.decks["chance"][1].text_in("uk")
    assert "«Шанс»" in fr.decks["community_chest"][12].text_in("uk")
    us = load_edition("us")
    assert us.decks["chance"][0].text_in("uk") == "Вирушайте на Бордвок."
    for edition in (fr, us):
        for deck in edition.decks.values():
            for card in deck:
                assert len({card.text_in(lang) for lang in LANGUAGES}) == 3, card  # really translated


def test_a_text_missing_in_a_language_falls_back_to_the_editions_own_and_is_reported(tmp_path):
    source = (ROOT / "cards" / "data" / "fr.toml").read_text(encoding="utf-8")
    source = source.replace(', uk = "Вулиця Миру" }', " }")
    source = source.replace('dark_blue = { fr = "Bleu foncé", en = "Dark blue", uk = "Синя" }\n', "")
    source = source.replace(', uk = "Вирушайте на вулицю Миру."', "")
    path = tmp_path / "fr-custom.toml"
    path.write_text(source.replace('name = "fr"', 'name = "fr-custom"', 1), encoding="utf-8")
    edition = load_edition_file(path)
    assert edition.square_name(39, "uk") == "Rue de la Paix"  # the edition's own language
    assert edition.decks["chance"][0].text_in("uk") == "Rendez-vous rue de la Paix."
    assert edition.group_name("dark_blue", "uk") == ""
    assert missing_texts(edition) == [("fr-custom", "fr", "group dark_blue"), ("fr-custom", "en", "group dark_blue"),
                                      ("fr-custom", "uk", "square 39"), ("fr-custom", "uk", "group dark_blue"),
                                      ("fr-custom", "uk", "chance card 1")]
    assert describe_missing(edition) == ("fr: 1 group (first: group dark_blue); en: 1 group (first: group "
                                         "dark_blue); uk: 1 square, 1 group, 1 card (first: square 39)")


def test_an_old_file_with_one_name_per_square_is_its_own_language(tmp_path):
    source = (ROOT / "cards" / "data" / "us.toml").read_text(encoding="utf-8")
    old = re.sub(r'name = \{ fr = "[^"]*", en = ("[^"]*"), uk = "[^"]*" \}', r"name = \1", source)
    old = re.sub(r'text = \{ fr = ("[^"]*"), en = ("[^"]*"), uk = "[^"]*" \}', r"text = { fr = \1, en = \2 }", old)
    old = re.sub(r"\[groups\]\n(.+\n)+", "", old)
    old = re.sub(r"^label = .*\n", "", old, flags=re.M)  # an old file has no label either
    assert "uk = " not in old and 'name = "Boardwalk"' in old
    path = tmp_path / "us-old.toml"
    path.write_text(old.replace('name = "us"', 'name = "us-old"', 1), encoding="utf-8")
    edition = load_edition_file(path)
    assert edition.squares == load_edition("us").squares  # the same board, names equal in their own language
    assert edition.square_name(39, "fr") == edition.square_name(39, "uk") == "Boardwalk"
    gaps = missing_texts(edition)
    assert ("us-old", "en", "square 39") not in gaps and ("us-old", "fr", "square 39") in gaps
    assert ("us-old", "uk", "chance card 16") in gaps and ("us-old", "fr", "chance card 16") not in gaps


def test_localized_names_behave_as_their_own_language_text():
    name = load_edition("fr").squares[39].name
    assert isinstance(name, Localized) and name == "Rue de la Paix" and hash(name) == hash("Rue de la Paix")
    assert f"{name}" == "Rue de la Paix" and json.dumps({"deed": name}) == '{"deed": "Rue de la Paix"}'
    assert pickle.loads(pickle.dumps(name)).in_language("uk") == "Вулиця Миру"
    assert copy.deepcopy(name).texts == name.texts
    assert localized([name, "Anne", 3], "uk") == ["Вулиця Миру", "Anne", 3]
    joined = join_localized(", ", [name, load_edition("fr").squares[37].name])
    assert joined == "Rue de la Paix, Avenue des Champs-Élysées"
    assert localized(joined, "uk") == "Вулиця Миру, Єлисейські Поля"
    assert join_localized(", ", ["a", "b"]) == "a, b" and not isinstance(join_localized(", ", ["a"]), Localized)


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('uk = "Вулиця Миру" }', 'uk = "" }'), "square 39.name.uk: expected a non-empty text"),
    (lambda t: t.replace('uk = "Вулиця Миру" }', 'UK = "Вулиця Миру" }'), "square 39.name: 'UK' is not a language"),
    (lambda t: t.replace('name = { fr = "Rue de la Paix", en = "Rue de la Paix", uk = "Вулиця Миру" }', "name = {}"),
     "square 39.name: expected a text, or a table of texts by language"),
    (lambda t: t.replace('name = { fr = "Rue de la Paix", en = "Rue de la Paix", uk = "Вулиця Миру" }', "name = 7"),
     "square 39.name: expected a text"),
    (lambda t: t.replace('uk = "Вулиця Миру" }', 'uk = ["Вулиця Миру"] }'), "square 39.name.uk: expected a non-empty"),
    (lambda t: t.replace('uk = "Синя" }', 'uk = 3 }'), "groups.dark_blue.uk: expected a non-empty text, found 3"),
    (lambda t: t.replace("dark_blue = {", "navy = {"), "groups.'navy': unknown group"),
    (lambda t: re.sub(r"\[groups\]\n(.+\n)+", "", t).replace("[edition]", "groups = 5\n[edition]", 1),
     "[groups]: must be a table"),
    (lambda t: t.replace(', uk = "Вирушайте на вулицю Миру." }', ', u = "x" }'), "chance card 1.text: 'u' is not"),
    (lambda t: t.replace('text = { fr = "Rendez-vous rue de la Paix."', 'texts = { fr = "Rendez-vous rue de la Paix."'),
     "chance card 1.text: missing text"),
    (lambda t: t.replace('language = "fr"', 'language = "French"'), "edition.language: expected a language code"),
])
def test_bad_language_tables_are_refused_on_one_line(tmp_path, edit, message):
    info = _refusal_of_edited_fr(tmp_path, edit)
    assert message in str(info.value) and "fr.toml" in str(info.value)
    assert "\n" not in str(info.value)


def test_a_derived_edition_in_another_language_takes_its_texts_in_that_language(tmp_path):
    (tmp_path / "fr-uk.toml").write_text('[edition]\nname = "fr-uk"\nbase = "fr"\nlanguage = "uk"\n',
                                         encoding="utf-8")
    edition = load_edition_file(tmp_path / "fr-uk.toml")
    assert edition.language == "uk" and edition.squares[39].name == "Вулиця Миру"
    assert edition.square_name(39, "fr") == "Rue de la Paix" and edition.decks["chance"][0].language == "uk"
    assert edition.group_names["dark_blue"] == "Синя" and missing_texts(edition) == []


# Hostile language tables: garbage values, keys and nesting where a name, a group name or a card text goes.
_TEXT_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=12), st.just(""), st.just("\n")),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=8)
_FR_LINES = (ROOT / "cards" / "data" / "fr.toml").read_text(encoding="utf-8").splitlines()
_TEXT_LINES = [i for i, line in enumerate(_FR_LINES)
               if line.startswith(("name = {", "text = {")) or re.match(r"[a-z_]+ = \{ fr = ", line)]


@st.composite
def damaged_language_tables(draw) -> str:
    lines = list(_FR_LINES)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.sampled_from(_TEXT_LINES))
        key = lines[i].split("=", 1)[0]
        value = draw(st.one_of(_TEXT_VALUES, st.dictionaries(st.sampled_from(["fr", "en", "uk", "UK", "x", ""]),
                                                             _TEXT_VALUES, max_size=3)))
        lines[i] = f"{key}= {_toml(value)}"
    return "\n".join(lines) + "\n"


def _toml(value) -> str:
    if value is None:
        return '""'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"


@seed(13)
@settings(max_examples=80, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=damaged_language_tables())
def test_garbage_language_tables_are_refused_cleanly_or_loaded_with_texts(tmp_path, text):
    path = tmp_path / "custom.toml"
    path.write_text(text, encoding="utf-8")
    try:
        edition = load_edition_file(path)
    except CardsError as exc:
        assert "\n" not in str(exc) and "custom.toml" in str(exc), str(exc)[:300]
        return
    for language in LANGUAGES:  # what loads gives a non-empty text in every language
        assert all(s.name_in(language) for s in edition.squares)
        assert all(c.text_in(language) for deck in edition.decks.values() for c in deck)
    missing_texts(edition)


def test_the_board_part_of_the_classic_editions_is_what_build_editions_writes():
    from cards.build_editions import BEGIN, EDITIONS, END, board_toml
    for edition, (own, column) in EDITIONS.items():
        names = [{lang: row[column] if lang == own else tr[f"{edition}_{lang}"] for lang in LANGUAGES}
                 for row, tr in zip(BOARD, NAMES, strict=True)]
        text = (ROOT / "cards" / "data" / f"{edition}.toml").read_text(encoding="utf-8")
        assert text[text.index(BEGIN):text.index(END) + len(END)] == board_toml(BOARD, column, names)


def test_the_wizard_names_each_shipped_edition_in_the_screen_language():
    # the new-game wizard showed raw codes ("Видання: fr"): every shipped edition has a short label in each
    # screen language, and a file without one falls back to its name
    for name in available_editions():
        label = load_edition(name).label
        assert all(label.in_language(lang) for lang in ("fr", "en", "uk")) and label != name, name
    assert load_edition("fr").label.in_language("uk") == "Франція (євро)"


def test_an_edition_without_a_label_shows_its_name(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('[edition]\nname = "mine"\nbase = "fr"\n', encoding="utf-8")
    assert load_edition_file(path).label == "mine"
    path.write_text('[edition]\nname = "mine"\nbase = "fr"\nlabel = { fr = "" }\n', encoding="utf-8")
    with pytest.raises(EditionError, match=r"edition\.label\.fr"):
        load_edition_file(path)


def test_the_ultimate_event_texts_say_what_the_rules_do():
    """The market slump is the next two rents paid by anyone, not the drawer's; the sides and colour sets raised or
    lowered are the drawer's own (RULES.md, The Ultimate Banking board, Event cards), in every language."""
    from cards.editions import load_edition
    edition = load_edition("ultimate")
    by_number = {c.number: c for c in edition.events}
    slump = by_number[15]
    assert slump.action == "market_slump"
    assert slump.text_in("en") == "Market slump: the next 2 rent payments, by any player, are at level 1."
    assert "vos" not in slump.text_in("fr") and "n'importe quel joueur" in slump.text_in("fr")
    assert "ваші" not in slump.text_in("uk") and "хоч би хто" in slump.text_in("uk")
    for number in range(9, 14):
        card = by_number[number]
        assert card.action in ("side_up", "side_down", "group_up", "group_down")
        assert "you own" in card.text_in("en") and "possédez" in card.text_in("fr")
        assert "у вас є" in card.text_in("uk")
