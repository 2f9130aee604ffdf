"""Rent, from board.csv: every street at every building level, railroads, utilities, both flag settings.
RULES.md, Title deeds."""
from __future__ import annotations

import csv

import pytest

from terminal.bank.types import Rent
from terminal.errors import RuleViolation
from tests.conftest import ROOT
from tests.terminal.refusals import refused


def _board() -> list[dict[str, str]]:
    with open(ROOT / "cards" / "data" / "board.csv", encoding="utf-8", newline="") as rows:
        return list(csv.DictReader(rows))


BOARD = _board()
STREETS = [row for row in BOARD if row["kind"] == "street"]
LEVELS = ["rent_0", "rent_1", "rent_2", "rent_3", "rent_4", "rent_hotel"]


@pytest.mark.parametrize("edition", ["fr", "us"])
@pytest.mark.parametrize("row", STREETS, ids=lambda r: f"{r['square']}-{r['group']}")
def test_every_street_at_every_level(make_game, edition, row):
    square = int(row["square"])
    game = make_game(edition, ("Ann", "Bob"))
    # Bare street, group not complete: printed rent.
    game.bank_pays("Ann", int(row["price"]))
    game.buy("Ann", square)
    before = game.cash("Bob")
    game.pay_rent("Bob", square)
    assert before - game.cash("Bob") == int(row["rent_0"])
    # Whole group held, bare: double.
    for s in game.edition.group_of(square):
        if s != square:
            game.bank_pays("Ann", game.edition.squares[s].price)
            game.buy("Ann", s)
    assert game.rent("Bob", square) == Rent(2 * int(row["rent_0"]), "Ann", "group")
    # 1..4 houses and a hotel, built evenly.
    game.bank_pays("Ann", 5 * 3 * int(row["house_cost"]))
    for level in range(1, 6):
        for s in game.edition.group_of(square):
            game.build("Ann", s)
        assert game.raw_state.level[square] == level
        before = game.cash("Bob")
        game.bank_pays("Bob", 3000)
        game.pay_rent("Bob", square)
        assert before + 3000 - game.cash("Bob") == int(row[LEVELS[level]])
        assert game.rent("Bob", square) == (Rent(int(row[LEVELS[level]]), "Ann", "hotel") if level == 5 else
                                            Rent(int(row[LEVELS[level]]), "Ann", "houses", {"n": level}))


@pytest.mark.parametrize("edition, flag_default", [("fr", False), ("us", True)])
@pytest.mark.parametrize("flag", [None, True, False])
def test_double_rent_with_a_mortgaged_street_follows_the_flag(make_game, edition, flag_default, flag):
    rules = {} if flag is None else {"double_rent_with_mortgaged_street": flag}
    game = make_game(edition, ("Ann", "Bob"), rules=rules)
    for s in (11, 13, 14):
        game.buy("Ann", s)
    assert game.rent("Bob", 11) == Rent(20, "Ann", "group")
    game.mortgage("Ann", 14)
    keeps = flag_default if flag is None else flag
    assert game.rent("Bob", 11) == (Rent(20, "Ann", "group") if keeps else Rent(10, "Ann", "bare"))
    refused(game, lambda: game.pay_rent("Bob", 14), RuleViolation, "mortgaged", code="rent_mortgaged",
            params={"square": 14, "deed": game.edition.squares[14].name, "owner": "Ann"})


@pytest.mark.parametrize("held, rent", [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_railroads_count_mortgaged_ones(make_game, held, rent):
    game = make_game("us", ("Ann", "Bob"))
    railroads = [5, 15, 25, 35][:held]
    for s in railroads:
        game.buy("Ann", s)
    if held > 1:
        game.mortgage("Ann", railroads[-1])
    before = game.cash("Bob")
    game.pay_rent("Bob", 5)
    assert before - game.cash("Bob") == rent
    before = game.cash("Bob")
    game.pay_rent("Bob", 5, card="nearest_railroad")
    assert before - game.cash("Bob") == 2 * rent


@pytest.mark.parametrize("dice", [2, 7, 12])
def test_utilities(make_game, dice):
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Ann", 12)
    assert game.rent("Bob", 12, dice=dice) == Rent(4 * dice, "Ann", "dice", {"times": 4, "dice": dice})
    assert game.rent("Bob", 12, dice=dice, card="nearest_utility") == Rent(10 * dice, "Ann", "dice",
                                                                            {"times": 10, "dice": dice})
    game.buy("Ann", 28)
    game.mortgage("Ann", 28)
    assert game.rent("Bob", 12, dice=dice) == Rent(10 * dice, "Ann", "dice", {"times": 10, "dice": dice})


def test_utility_rent_scales_with_the_edition(make_game):
    game = make_game("fr-francs", ("Ann", "Bob"))
    game.buy("Ann", 12)
    assert game.rent("Bob", 12, dice=7) == Rent(2800, "Ann", "dice", {"times": 4, "dice": 7})


@pytest.mark.parametrize("dice", [None, 1, 13, 0, -3])
def test_utility_rent_needs_dice_in_range(make_game, dice):
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Ann", 12)
    deed = {"square": 12, "deed": "Compagnie de distribution d'électricité"}
    refused(game, lambda: game.pay_rent("Bob", 12, dice=dice), RuleViolation, "dice",
            **({"code": "rent_needs_dice", "params": deed} if dice is None
               else {"code": "dice_out_of_range", "params": {"dice": dice, **deed}}))
    assert game.cash("Bob") == 1500


def test_no_rent_when_none_is_due(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    refused(game, lambda: game.pay_rent("Bob", 39), RuleViolation, "nobody owns it",
            code="rent_unowned", params={"square": 39, "deed": "Rue de la Paix"})
    game.buy("Ann", 39)
    refused(game, lambda: game.pay_rent("Ann", 39), RuleViolation, "owns",
            code="rent_own_deed", params={"square": 39, "deed": "Rue de la Paix", "player": "Ann", "owner": "Ann"})
    refused(game, lambda: game.pay_rent("Bob", 4), RuleViolation, "not a title deed",
            code="not_a_deed", params={"square": 4, "name": "Impôts sur le revenu", "deed": "Impôts sur le revenu"})
    refused(game, lambda: game.pay_rent("Bob", 39, dice=7), RuleViolation, "does not depend on the dice",
            code="rent_no_dice", params={"square": 39, "deed": "Rue de la Paix"})
    refused(game, lambda: game.pay_rent("Bob", 39, card="nearest_railroad"), RuleViolation, "railroad",
            code="rent_card_wrong_deed", params={"card": "nearest_railroad", "square": 39, "deed": "Rue de la Paix",
                                                 "card_code": "part_nearest_railroad"})
    refused(game, lambda: game.pay_rent("Bob", 39, card="nearest_street"), RuleViolation, "Unknown rent card",
            code="unknown_rent_card", params={"card": "nearest_street", "square": 39, "deed": "Rue de la Paix"})
    assert game.state()["cash"] == {"Ann": 1100, "Bob": 1500}
