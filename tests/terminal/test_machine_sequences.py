"""Two touches for the common operations, the amount on screen before the touch that commits (issue 12,
point 3), each sequence asserted touch by touch; and the explicit confirmations kept where a mistake costs
more (a typed amount, a payment that creates a debt, a second GO salary, a trade, bankruptcy, undo)."""
from __future__ import annotations

import pytest

from terminal.bank.operations import Undo
from terminal.bank.types import Debt
from terminal.table.i18n import text
from tests.terminal.test_machine import ANN, BOB, Table
from tests.terminal.ui_driver import BANKER_UID, deed_uid

NBSP = "\u00a0"


@pytest.fixture
def table(make_game):
    return Table(make_game)


def _label(table, option_id: str) -> str:
    option = next(o for o in table.view.options if o.id == option_id)
    return text(option.label, "fr")


def _nothing_yet(table, entries: int) -> None:
    assert table.entries() == entries, "nothing is committed before the last touch"


@pytest.mark.parametrize("option, label, cash", [
    ("pass_go", f"Salaire (Départ) +200{NBSP}€", 1700),
    ("income_tax", f"Impôts sur le revenu −200{NBSP}€", 1300),
    ("luxury_tax", f"Taxe de luxe −100{NBSP}€", 1400),
    ("jail_fine", f"Amende de prison −50{NBSP}€", 1450),
])
def test_player_card_then_the_button_that_names_the_amount(table, option, label, cash):
    d, start = table.driver, table.entries()
    d.tap(ANN)                                      # touch 1: the player's card
    assert table.view.screen == "player" and _label(table, option) == label
    _nothing_yet(table, start)
    d.choose(option)                                # touch 2: the button naming the amount commits
    assert table.entries() == start + 1 and table.game.cash("Ann") == cash
    assert table.view.screen == "idle" and table.beeps()[-1] == "success"


def test_rent_on_a_street_deed_then_the_payers_card(table):
    for square in (37, 39):
        table.game.buy("Ann", square)
    d, start = table.driver, table.entries()
    d.tap(deed_uid(39))                             # touch 1: the deed card: owner, rent and why
    view = table.view
    assert view.screen == "deed" and view.deed.owner == "Ann"
    assert text(view.title, "fr") == f"Loyer 100{NBSP}€ (groupe complet : loyer double) : le payeur touche sa carte"
    _nothing_yet(table, start)
    d.tap(BOB)                                      # touch 2: the payer's card commits
    assert table.entries() == start + 1 and table.game.cash("Bob") == 1400 and table.view.screen == "idle"


def test_rent_on_a_railroad_deed_then_the_payers_card(table):
    for square in (5, 15):
        table.game.buy("Ann", square)
    d, start = table.driver, table.entries()
    d.tap(deed_uid(15))
    assert "2 gares possédées" in text(table.view.title, "fr") and f"50{NBSP}€" in text(table.view.title, "fr")
    _nothing_yet(table, start)
    d.tap(BOB)
    assert table.entries() == start + 1 and table.game.cash("Bob") == 1450


def test_rent_on_a_utility_adds_the_dice_before_the_payers_card(table):
    table.game.buy("Ann", 12)
    d, start = table.driver, table.entries()
    d.tap(deed_uid(12))                             # the deed card opens the keypad for the dice
    assert table.view.screen == "keypad" and table.view.deed.owner == "Ann"
    table.terminal.digit("8", version=table.view.screen_version)   # the dice total
    assert text(table.view.title, "fr") == f"Loyer 32{NBSP}€ (4 × 8 aux dés) : le payeur touche sa carte"
    _nothing_yet(table, start)
    d.tap(BOB)                                      # the payer's card commits: 4 × 8
    assert table.entries() == start + 1 and table.game.cash("Bob") == 1500 - 32


def test_buying_the_deed_card_then_the_buyers_card(table):
    d, start = table.driver, table.entries()
    d.tap(deed_uid(39))                             # touch 1: price, "tap the buyer's card", Decline: auction
    view = table.view
    assert text(view.title, "fr") == f"À vendre 400{NBSP}€ : l'acheteur touche sa carte"
    assert [o.id for o in view.options] == ["decline"]
    _nothing_yet(table, start)
    d.tap(ANN)                                      # touch 2: the buyer's card commits
    assert table.entries() == start + 1 and table.game.current.owner[39] == "Ann"
    assert table.game.cash("Ann") == 1100


def test_a_rent_reached_from_a_list_is_confirmed_with_its_amount(table):
    table.game.buy("Bob", 39)
    d = table.driver
    d.tap(ANN)
    d.choose("any_deed")
    d.choose("39")  # the list named the deed, not the rent: the confirmation shows it
    assert table.view.screen == "confirm" and table.view.pending.postings == (("Ann", "Bob", 50),)


def test_declining_opens_the_auction_from_the_deed(table):
    d = table.driver
    d.tap(deed_uid(39))
    d.choose("decline")
    assert table.view.screen == "auction"


def test_a_chance_card_with_a_fixed_amount_is_three_touches(table):
    d, start = table.driver, table.entries()
    d.tap(ANN)                                      # touch 1: the player's card
    d.choose("chance")                              # touch 2: the deck
    label = _label(table, "14")
    assert label.startswith(f"−150{NBSP}€ · ") and "scolarité" in label   # the tile shows text and amount
    _nothing_yet(table, start)
    d.choose("14")                                  # touch 3: the card commits
    assert table.entries() == start + 1 and table.game.cash("Ann") == 1350


# -- where a confirmation stays -----------------------------------------------------------------------------
def test_a_typed_amount_is_confirmed(table):
    d = table.driver
    d.tap(ANN)
    d.choose("pay_bank")
    d.type_number(75)
    assert table.view.screen == "confirm" and table.game.cash("Ann") == 1500
    d.button("confirm")
    assert table.game.cash("Ann") == 1425


def test_a_payment_that_creates_a_debt_shows_what_stays_owed_before_it_commits(table):
    d = table.driver
    table.game.bank_pays("Ann", 1000)
    for square in (37, 39):
        table.game.buy("Ann", square)
    for square in (37, 39, 37, 39, 37, 39):
        table.game.build("Ann", square)             # three houses each: rent 1400 on Rue de la Paix
    table.game.pay_bank("Bob", 585)                 # Bob has 915
    start = table.entries()
    d.tap(deed_uid(39))
    d.tap(BOB)
    view = table.view
    assert view.screen == "confirm" and table.entries() == start
    assert view.pending.owes == (Debt("Bob", "Ann", 485),)
    assert text(view.pending.warning, "fr") == f"Bob paie 915{NBSP}€, doit encore 485{NBSP}€ → Ann"
    table.clock.advance(1)
    d.tap(BOB)
    assert table.entries() == start + 1 and table.game.current.debts_of("Bob")[0].amount == 485


def test_a_charge_that_creates_a_debt_from_a_button_is_confirmed(table):
    d = table.driver
    table.game.pay_bank("Ann", 1450)                # 50 left
    d.tap(ANN)
    assert _label(table, "luxury_tax") == f"Taxe de luxe −100{NBSP}€"
    d.choose("luxury_tax")
    assert table.view.screen == "confirm"
    assert text(table.view.pending.warning, "fr") == f"Ann paie 50{NBSP}€, doit encore 50{NBSP}€ → Banque"


def test_trade_bankruptcy_and_undo_keep_their_confirmation(table):
    d = table.driver
    table.game.buy("Ann", 1)
    d.tap(ANN)
    d.choose("trade")
    d.tap(BOB)
    d.choose("deed:Ann:1")
    d.choose("done")
    assert table.view.screen == "confirm" and table.view.pending.confirm_by == ("Ann", "Bob")
    d.button("cancel")
    d.tap(BANKER_UID)
    d.choose("undo")
    assert table.view.screen == "confirm" and table.view.pending.op == Undo()
    d.button("cancel")
    table.game.pay_bank("Bob", 2000)
    d.tap(BOB)
    d.choose("bankruptcy")
    assert table.view.screen == "confirm" and "Bob" not in table.game.current.bankrupt_list


def test_an_advance_card_asks_about_go_only_when_the_board_leaves_it_open(table):
    # French Chance card 1, "Rendez-vous rue de la Paix" (square 39): forward from every Chance square (7, 22,
    # 36) it never passes GO, so the next screen is the deed, with no salary question and no salary.
    d, start = table.driver, table.entries()
    d.tap(ANN)
    d.choose("chance")
    d.choose("1")
    assert {o.id for o in table.view.options} & {"passed", "not_passed"} == set()
    assert "Rue de la Paix" in text(table.view.title, "fr") + " ".join(text(o.label, "fr") for o in table.view.options)
    _nothing_yet(table, start)
    assert table.game.cash("Ann") == 1500
    # Card 3, avenue Henri-Martin (24): from square 36 the token passes GO, from 7 and 22 it does not: ask.
    d.button("cancel")
    d.tap(ANN)
    d.choose("chance")
    d.choose("3")
    assert {o.id for o in table.view.options} == {"passed", "not_passed"}
