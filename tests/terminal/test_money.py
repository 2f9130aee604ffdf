"""Rounding, amount checks and formatting (terminal/bank/money.py)."""
from __future__ import annotations

import pytest

from cards.editions import load_edition
from terminal.bank.money import check_amount, format_amount, half, ten_percent
from terminal.errors import InvalidAmount


@pytest.mark.parametrize("amount, up, down", [(75, 8, 7), (175, 18, 17), (100, 10, 10), (0, 0, 0), (1, 1, 0)])
def test_ten_percent_rounding(amount, up, down):
    assert ten_percent(amount, "up") == up
    assert ten_percent(amount, "down") == down


def test_ten_percent_refuses_floats_and_bad_rounding():
    with pytest.raises(TypeError):
        ten_percent(7.5)
    with pytest.raises(ValueError):
        ten_percent(10, "nearest")


def test_half_rounds_down():
    assert half(50) == 25 and half(51) == 25


@pytest.mark.parametrize("edition, amount, language, text", [
    ("fr", 1500, None, "1\u202f500\u00a0€"),
    ("us", 1500, None, "$1,500"),
    ("us", -20, None, "-$20"),
    ("fr-francs", 150000, None, "150\u202f000\u00a0F"),
    ("fr", 1500, "en", "1,500\u00a0€"),
])
def test_format_amount(edition, amount, language, text):
    assert format_amount(amount, load_edition(edition), language) == text


@pytest.mark.parametrize("amount, text", [(1500, "15M"), (200, "2M"), (50, "500K"), (2050, "20,5M"), (5, "50K")])
def test_format_km_display(amount, text):
    assert format_amount(amount, load_edition("fr"), display="km") == text


def test_check_amount_limits():
    fr = load_edition("fr")
    assert check_amount(fr.max_amount, fr) == 150000
    assert check_amount(0, fr, allow_zero=True) == 0
    for bad in (0, -1, 150001, 1.0, True, None):
        with pytest.raises(InvalidAmount):
            check_amount(bad, fr)


@pytest.mark.parametrize("edition, amount, language, text", [
    ("fr", 1500, "fr", "1\u202f500\u00a0€"),      # CLDR fr: a narrow no-break space between the groups
    ("fr", 1500, "uk", "1\u00a0500\u00a0€"),      # CLDR uk: a no-break space
    ("fr", 1500, "en", "1,500\u00a0€"),
    ("us", 1500, "fr", "$1\u202f500"),
    ("us", 1500, "en", "$1,500"),
    ("fr", 150, "fr", "150\u00a0€"),
    ("fr", 1234567, "uk", "1\u00a0234\u00a0567\u00a0€"),
])
def test_format_amount_groups_digits_by_the_screens_language(edition, amount, language, text):
    from babel.numbers import get_group_symbol
    assert format_amount(amount, load_edition(edition), language) == text
    assert get_group_symbol(language) in text or amount < 1000 or language == "en"
