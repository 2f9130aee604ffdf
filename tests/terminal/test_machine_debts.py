"""Debts and bankruptcy shown before they happen (issue 12, point 4): what is paid and what stays owed; the
bankruptcy confirmation lists per creditor what they receive and the debts it ends; the creditor decides
"lift now" on their own tap."""
from __future__ import annotations

import pytest

from terminal.bank.types import Debt
from terminal.table.i18n import text
from tests.terminal.test_machine import ANN, BOB, Table
from tests.terminal.ui_driver import deed_uid

NBSP = "\u00a0"


@pytest.fixture
def table(make_game):
    return Table(make_game, edition="us")


def _bob_owes_ann(table):
    g = table.game
    g.buy("Ann", 39), g.buy("Ann", 37)
    g.build("Ann", 39), g.build("Ann", 37), g.build("Ann", 39)
    g.buy("Bob", 1), g.buy("Bob", 3), g.build("Bob", 1), g.buy("Bob", 5), g.mortgage("Bob", 5)
    g.gain_jail_card("Bob", "chance")
    g.pay_bank("Bob", 900)


def test_a_rent_beyond_the_cash_says_what_is_paid_and_owed_before_commit(table):
    _bob_owes_ann(table)
    start = table.entries()
    table.driver.tap(deed_uid(39))
    assert "600" in text(table.view.title, "en")
    table.driver.tap(BOB)
    pending = table.view.pending
    assert table.entries() == start and pending.owes == (Debt("Bob", "Ann", 270),)
    assert text(pending.warning, "en").startswith("Bob pays ") and "owes" in text(pending.warning, "en")


def test_bankruptcy_lists_per_creditor_and_the_creditor_decides_on_their_tap(table):
    _bob_owes_ann(table)
    table.game.pay_rent("Bob", 39)  # Bob pays what he has and owes Ann the rest
    d = table.driver
    d.tap(BOB)
    d.choose("bankruptcy")
    view = table.view
    assert view.screen == "bankruptcy" and view.extra["creditor"] == "Ann"
    assert not any(o.enabled for o in view.options), "nothing is chosen before the creditor's card"
    d.tap(BOB)  # the debtor's card: the screen needs the creditor's
    assert view.screen == "bankruptcy"
    assert text(table.view.message, "en") == "This screen needs Ann's card (the creditor)."
    d.tap(ANN)
    assert all(o.enabled for o in table.view.options) and table.view.player == "Ann"
    d.choose("lift:5")
    d.choose("done")
    pending = table.view.pending
    assert table.view.screen == "confirm" and pending.op.lift_now == (5,)
    lines = [text(m, "en") for m in pending.details]
    receives = next(line for line in lines if line.startswith("Ann receives: "))
    assert "Mediterranean Avenue" in receives and "Baltic Avenue" in receives
    assert "Reading Railroad (mortgage lifted: $110)" in receives.replace(NBSP, " ")
    assert "a Get Out of Jail Free card" in receives
    assert any(line.startswith("Sold back to the Bank: 1 house on Mediterranean Avenue") for line in lines)
    assert any(line.startswith("Debt ended: ") and "Ann" in line for line in lines)
    assert "Bob" not in table.game.current.bankrupt_list, "nothing happens before the confirmation"
    d.button("confirm")
    assert "Bob" in table.game.current.bankrupt_list and table.game.current.owner[5] == "Ann"
    assert not table.game.current.mortgaged.get(5)


def test_bankruptcy_to_the_bank_lists_what_returns_to_it(table):
    g = table.game
    g.buy("Bob", 1), g.gain_jail_card("Bob", "chance"), g.pay_bank("Bob", 2000)
    d = table.driver
    d.tap(BOB)
    d.choose("bankruptcy")
    assert table.view.screen == "confirm"
    lines = [text(m, "en") for m in table.view.pending.details]
    assert lines[0] == "Bank receives: Mediterranean Avenue, a Get Out of Jail Free card"
    assert any(line.startswith("Debt ended: ") for line in lines)


def test_a_bankruptcy_the_rules_refuse_is_refused_when_it_is_chosen(table):
    g = table.game
    g.buy("Ann", 39)
    g.buy("Bob", 1), g.buy("Bob", 3), g.buy("Bob", 6), g.buy("Bob", 5), g.mortgage("Bob", 5)
    g.pay_bank("Bob", g.cash("Bob"))
    g.pay_rent("Bob", 39)                 # Bob owes Ann $50 but could still mortgage deeds for $110
    assert g.current.debts_of("Bob")
    start = table.entries()
    d = table.driver
    d.tap(BOB)
    d.choose("bankruptcy")
    view = table.view
    assert view.screen == "player", "refused at once: no creditor's choice, no confirmation"
    assert view.message.code == "bankruptcy_can_pay"
    assert text(view.message, "en").replace(NBSP, " ") == (
        "Bob owes $50 but could still raise $110 by selling buildings and mortgaging deeds: raise the money "
        "instead of going bankrupt.")
    assert text(view.message, "fr").startswith("Bob doit ")
    assert table.entries() == start and "Bob" not in g.current.bankrupt_list


@pytest.mark.parametrize(("language", "expected"), [
    ("fr", "C'est fait : Bob paie le loyer de Rue de la Paix à Ann (0 €) ; Bob doit 600 € à Ann."),
    ("en", "Done: Bob pays Ann the rent on Rue de la Paix (0 €); Bob owes Ann 600 €."),
    ("uk", "Готово: Bob сплачує Ann оренду: Вулиця Миру (0 €); Bob винен Ann 600 €."),
])
def test_a_rent_paid_with_no_cash_names_the_creditor_and_the_debt(make_game, language, expected):
    table = Table(make_game, language=language)  # the French edition
    g = table.game
    g.buy("Ann", 39), g.buy("Ann", 37), g.build("Ann", 39), g.build("Ann", 37), g.build("Ann", 39)
    g.pay_bank("Bob", g.cash("Bob"))
    d = table.driver
    d.tap(deed_uid(39))
    d.tap(BOB)                            # a debt: the confirmation first
    assert table.view.screen == "confirm"
    d.tap(BOB)
    assert table.game.current.debts_of("Bob") == [Debt("Bob", "Ann", 600)]
    message = table.view.message
    assert message.code == "done_what"
    assert text(message, language).replace(NBSP, " ").strip() == expected


def test_a_rent_paid_in_part_says_what_is_still_owed(table):
    g = table.game
    g.buy("Ann", 39), g.buy("Ann", 37), g.build("Ann", 39), g.build("Ann", 37), g.build("Ann", 39)
    g.pay_bank("Bob", g.cash("Bob") - 100)
    d = table.driver
    d.tap(deed_uid(39))
    d.tap(BOB)
    d.tap(BOB)
    said = text(table.view.message, "en").replace(NBSP, " ")
    assert said.startswith("Done: Bob pays Ann the rent on Boardwalk ($100); Bob owes Ann $")
    assert str(g.current.debts_of("Bob")[0].amount) in said


def test_two_debts_to_one_creditor_show_as_one_sum(table):
    # the idle tile listed "owes 100: Ann; owes 1 60…" (cut) for two rents owed to Ann
    _bob_owes_ann(table)
    g = table.game
    g.pay_rent("Bob", 39)
    g.pay_rent("Bob", 39)
    owed = sum(d.amount for d in g.current.debts_of("Bob") if d.creditor == "Ann")
    assert len([d for d in g.current.debts_of("Bob") if d.creditor == "Ann"]) == 2 and owed > 0  # two records
    table.driver.tap(BOB)
    table.driver.button("cancel")
    line = next(p for p in table.view.players if p.name == "Bob")
    assert line.debts == (("Ann", owed),)


def test_a_bankruptcy_done_message_names_the_deeds_each_creditor_received(table):
    g = table.game
    g.buy("Bob", 1), g.buy("Bob", 3), g.pay_bank("Bob", 2000)
    d = table.driver
    d.tap(BOB)
    d.choose("bankruptcy")
    d.button("confirm")
    assert "Bob" in g.current.bankrupt_list
    said = text(table.view.message, "en").replace(NBSP, " ")
    assert "Bob is bankrupt; deeds: " in said and "Mediterranean Avenue" in said and "Baltic Avenue" in said
    assert "→ Bank" in said
