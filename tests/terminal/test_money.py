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


def test_ten_percent_rounds_up_unless_told():
    """RULES.md, Mortgages: interest is rounded up, in the Bank's favour, unless the game's flag says down."""
    assert ten_percent(75) == 8 and ten_percent(1) == 1


@pytest.mark.parametrize("bad", [-1, -10, True, False, 7.5, "10"])
def test_the_ten_percent_and_the_half_take_only_a_non_negative_int(bad):
    """A negative amount, a bool (a JSON ``true`` is no number) or anything else is a fault of the caller."""
    with pytest.raises(TypeError):
        ten_percent(bad)
    with pytest.raises(TypeError):
        half(bad)


def test_an_absurd_amount_is_shown_as_typed_or_by_its_count_of_digits():
    """The refusal of an amount beyond the edition's maximum shows the amount formatted, up to 15 digits; from
    10**15 (16 digits) only how many digits it has (a line of a file, never a page of digits)."""
    fr = load_edition("fr")
    with pytest.raises(InvalidAmount) as info:
        check_amount(150001, fr)
    assert (info.value.code, info.value.params) == ("amount_absurd",
                                                    {"amount": 150001, "what": "amount", "max": 150000})
    assert str(info.value).startswith("The amount 150\u202f001\u00a0€ is more than 150\u202f000\u00a0€")
    with pytest.raises(InvalidAmount) as info:
        check_amount(10 ** 15 - 1, fr)
    assert "999\u202f999\u00a0€ is more than" in str(info.value)
    with pytest.raises(InvalidAmount) as info:
        check_amount(10 ** 15, fr, what="bid")
    assert str(info.value).startswith("The bid of 16 digits is more than")
    assert info.value.params == {"amount": 10 ** 15, "what": "bid", "max": 150000}


@pytest.mark.parametrize("bad", [True, 1.0, "15"])
def test_format_amount_takes_only_an_int(bad):
    with pytest.raises(TypeError):
        format_amount(bad, load_edition("fr"))


@pytest.mark.parametrize("amount, language, text", [
    (100, "fr", "1M"),           # exactly a million units: shown in M
    (99, "fr", "990K"),
    (2050, "en", "20.5M"), (2050, "fr", "20,5M"), (2050, "uk", "20,5M"),
    (2055, "fr", "20 550K"), (2055, "en", "20,550K"), (2055, "uk", "20 550K"),
    (-5, "en", "-50K"),
])
def test_the_km_display_by_language(amount, language, text):
    """The electronic banking editions' display (x 10 000, K and M): the decimal point and the thousands of K
    follow the screen's language, English a point and commas, the others a comma and spaces."""
    assert format_amount(amount, load_edition("fr"), language, display="km") == text


def test_format_amount_refuses_an_unknown_display():
    with pytest.raises(ValueError):
        format_amount(5, load_edition("fr"), display="kM")
