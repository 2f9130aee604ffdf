"""Money: the only module that divides, rounds or formats amounts.

Every amount is an ``int`` of the edition's unit (euros, dollars, francs...). No floats anywhere near money.
Formatting (:func:`format_amount`) groups digits by the screen's language with Babel's CLDR data; the Bank
itself only keeps and checks ints.
"""
from __future__ import annotations

import decimal
import functools

from babel.numbers import format_decimal

from cards.editions import Edition
from terminal.errors import InvalidAmount

ROUNDINGS = ("up", "down")


def ten_percent(amount: int, rounding: str = "up") -> int:
    """10 % of ``amount`` (>= 0), rounded to a whole unit.

    RULES.md, Mortgages: "amounts that are not whole are rounded up to the whole unit, in the Bank's favour"
    (flag ``interest_rounding``, default ``up``); ``down`` truncates. 10 % of 75 is 8 (up) or 7 (down).
    The same rounding serves every 10 % of the rules: mortgage interest and the income tax option.
    """
    _check_int(amount)
    if rounding == "up":
        return -(-amount // 10)
    if rounding == "down":
        return amount // 10
    raise ValueError(f"rounding must be 'up' or 'down', not {rounding!r}")


def half(amount: int) -> int:
    """Half of ``amount`` (>= 0), what the Bank pays back for a building (RULES.md, Buildings).

    Printed house costs are even, so this is exact on every shipped edition; an odd cost would be rounded
    down, in the Bank's favour as for interest.
    """
    _check_int(amount)
    return amount // 2


def _check_int(amount: object) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        raise TypeError(f"an amount must be a non-negative int, not {amount!r}")


def check_amount(amount: object, edition: Edition, *, allow_zero: bool = False, what: str = "amount") -> int:
    """Validate an amount typed or read for an operation and return it.

    Accepts an ``int`` from 1 (0 too with ``allow_zero``) to ``edition.max_amount``. Raises
    :class:`InvalidAmount` for anything else: a float, a string, a bool, a negative number, zero, or an absurd
    amount (an extra digit typed by mistake).
    """
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise InvalidAmount(f"The {what} must be a whole number of {edition.currency_symbol}, not {amount!r}.",
                            code="amount_not_whole", params={"amount": repr(amount), "what": what})
    if amount < 0 or (amount == 0 and not allow_zero):
        raise InvalidAmount(f"The {what} must be more than zero, not {amount}.",
                            code="amount_not_positive", params={"amount": amount, "what": what})
    if amount > edition.max_amount:
        shown = (format_amount(amount, edition) if amount < 10 ** 15
                 else f"of {len(str(amount))} digits")  # a line of a file, never the keypad's: no page of digits
        raise InvalidAmount(
            f"The {what} {shown} is more than "
            f"{format_amount(edition.max_amount, edition)}: check the digits.",
            code="amount_absurd", params={"amount": amount, "what": what, "max": edition.max_amount})
    return amount


@functools.lru_cache(maxsize=4096)  # a screen shows the same few amounts every frame
def group_digits(value: int, language: str) -> str:
    """``value`` (an int) with its digits grouped as CLDR says for ``language`` (Babel's data): "1\u202f500" in
    French (a narrow no-break space), "1\u00a0500" in Ukrainian (a no-break space), "1,500" in English."""
    with decimal.localcontext() as context:  # Babel rounds through decimal: room for every digit of ``value``
        context.prec = max(context.prec, len(str(abs(value))) + 10)  # and its rounding quantum's places
        return format_decimal(value, locale=language, group_separator=True)


def format_amount(amount: int, edition: Edition, language: str | None = None, display: str = "plain") -> str:
    """Format ``amount`` for a person: the one place amounts become text (the screens, the refusals, the CLI).

    ``language`` (the screen's; default: the edition's): the digit grouping, from Babel's CLDR data
    (:func:`group_digits`). The edition gives the currency symbol and its place: after the number and a no-break
    space ("1 500 €" on a French screen, "1,500 €" on an English one), or before it ("$1,500" for the ``us``
    edition). No decimals: amounts are ints. Negative amounts get a minus sign in front.

    ``display="km"``: the electronic banking editions' display, kept as their cards print it (made here by
    hand, not from CLDR): every amount x 10 000 shown with K and M (1500 -> "15M", 50 -> "500K", 2050 ->
    "20,5M" or "20.5M" in English; the thousands of K grouped with a space, or a comma in English).
    """
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise TypeError(f"amounts are ints, not {amount!r}")
    language = language or edition.language
    sign = "-" if amount < 0 else ""
    value = abs(amount)
    if display == "km":
        units = value * 10_000
        if units >= 1_000_000 and units % 100_000 == 0:
            whole, tenth = divmod(units // 100_000, 10)
            text = f"{whole}{'.' if language == 'en' else ','}{tenth}M" if tenth else f"{whole}M"
        else:
            text = f"{units // 1000:,}K".replace(",", "," if language == "en" else " ")
        return sign + text
    if display != "plain":
        raise ValueError(f"display must be 'plain' or 'km', not {display!r}")
    text = group_digits(value, language)
    if edition.currency_position == "before":
        return f"{sign}{edition.currency_symbol}{text}"
    return f"{sign}{text}\u00a0{edition.currency_symbol}"
