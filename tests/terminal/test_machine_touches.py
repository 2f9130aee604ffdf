"""The touches a family makes for the common operations, counted on the tap machine driven by taps, keys and
buttons (each card tap, each button, each option and each keypad key counts one): a utility's rent in 3, a
building, a sale of a building, a mortgage and its lifting in 3 (the button names the amount and commits, as
the GO salary's does), a deed sold for an amount ("A gives a deed, B pays") in 9 with a 3-digit amount."""
from __future__ import annotations

import pytest

from terminal.table.i18n import text
from tests.terminal.test_machine import ANN, BOB, Table
from tests.terminal.ui_driver import deed_uid


@pytest.fixture
def table(make_game):
    return Table(make_game)


def touches(table) -> int:
    """The touches made so far: a typed number counts its digits and OK (the keypad opens empty)."""
    return sum(len(str(value)) + 1 if kind == "type" else 1 for kind, value in table.driver.inputs)


def _keys(table, *keys: str) -> None:
    """Type on the keypad as a person does, key by key (no clear first: it opened empty)."""
    for char in keys:
        table.terminal.digit(char, version=table.view.screen_version)
        table.driver.inputs.append(("key", char))


def test_a_utility_rent_takes_3_touches(table):
    table.game.buy("Bob", 12)  # Compagnie d'électricité: 4 × the dice with one utility
    d = table.driver
    d.tap(deed_uid(12))  # the keypad for the dice opens at once
    _keys(table, "8")
    assert "32" in text(table.view.title, "fr"), "the rent is on screen before the payer's card"
    d.tap(ANN)  # the payer's card commits
    assert table.game.cash("Ann") == 1500 - 32 and table.game.cash("Bob") == 1500 - 150 + 32
    assert touches(table) == 3


@pytest.mark.parametrize("option, label, cash", [
    ("build", "Construire une maison −200\u00a0€", 1500 - 400 - 350 - 200),
    ("mortgage", "Hypothéquer +200\u00a0€", 1500 - 400 - 350 + 200),
])
def test_building_and_mortgaging_take_3_touches(table, option, label, cash):
    table.game.buy("Ann", 37)
    table.game.buy("Ann", 39)
    d = table.driver
    d.tap(deed_uid(39))
    d.tap(ANN)
    assert text(next(o.label for o in table.view.options if o.id == option), "fr") == label
    d.choose(option)  # the button names the amount: it commits
    assert table.game.cash("Ann") == cash and table.view.screen == "idle"
    assert touches(table) == 3


def test_selling_a_building_and_lifting_a_mortgage_take_3_touches(table):
    g = table.game
    for square in (37, 39):
        g.buy("Ann", square)
    g.build("Ann", 39)
    d = table.driver
    d.tap(deed_uid(39))
    d.tap(ANN)
    assert text(next(o.label for o in table.view.options if o.id == "sell_building"), "fr") == \
        "Vendre une maison +100\u00a0€"
    d.choose("sell_building")
    assert g.current.level.get(39, 0) == 0 and touches(table) == 3
    g.mortgage("Ann", 37)
    before = g.cash("Ann")
    d.tap(deed_uid(37))
    d.tap(ANN)
    assert not next(o for o in table.view.options if o.id == "mortgage").enabled, "already mortgaged: greyed"
    d.choose("unmortgage")
    assert g.cash("Ann") == before - 175 - 18 and not g.current.mortgaged.get(37)
    assert touches(table) == 6


def test_a_deed_sold_for_an_amount_takes_9_touches(table):
    g = table.game
    g.buy("Ann", 39)
    d = table.driver
    d.tap(deed_uid(39))            # 1: the deed
    d.choose("sell_deed")          # 2: sell it to a player
    assert table.view.screen == "choose"
    d.tap(BOB)                     # 3: the buyer's card; the keypad asks what Bob pays
    assert table.view.screen == "keypad"
    _keys(table, "3", "0", "0")            # 4-6
    _keys(table, "OK")             # 7: back to the trade, which shows both sides
    assert table.view.screen == "trade"
    assert table.view.extra["gives"] == {"Ann": {"cash": 0, "squares": [39], "jail_cards": 0},
                                         "Bob": {"cash": 300, "squares": [], "jail_cards": 0}}
    d.tap(ANN)                     # 8: Ann's card: done, and Ann's confirmation
    assert table.view.screen == "confirm" and table.view.pending.confirmed_by == ("Ann",)
    assert g.current.owner[39] == "Ann", "nothing moves before both cards"
    d.tap(BOB)                     # 9: Bob's card commits
    assert g.current.owner[39] == "Bob" and g.cash("Ann") == 1500 - 400 + 300 and g.cash("Bob") == 1200
    assert touches(table) == 9


def test_the_trade_screen_takes_only_the_two_players_cards(table):
    g = table.game
    g.buy("Ann", 39)
    d = table.driver
    d.tap(ANN)
    d.choose("trade")
    d.tap(BOB)
    d.tap(table.driver.card_of("Cid"))  # a third player's card: refused, nothing opened
    assert table.view.screen == "trade" and table.view.message.code == "screen_needs"
    d.choose("deed:Ann:39")
    d.tap(BOB)  # either player's card opens the confirmation, counted as theirs
    assert table.view.screen == "confirm" and table.view.pending.confirmed_by == ("Bob",)
    d.button("cancel")
    assert g.current.owner[39] == "Ann"
