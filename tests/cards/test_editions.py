"""Edition files: contents against board.csv and decks.md, and refusal of malformed files."""
from __future__ import annotations

import csv
import shutil

import pytest

from cards.editions import available_editions, load_edition, load_edition_file
from cards.errors import EditionError, UnknownEditionError
from tests.conftest import ROOT


def _board() -> list[dict[str, str]]:
    with open(ROOT / "cards" / "data" / "board.csv", encoding="utf-8", newline="") as rows:
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
    source = (ROOT / "cards" / "data" / "fr.toml").read_text(encoding="utf-8")
    broken = edit(source)
    assert broken != source
    path = tmp_path / "fr.toml"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(EditionError) as info:
        load_edition_file(path)
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
