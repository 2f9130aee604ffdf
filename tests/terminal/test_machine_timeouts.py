"""Time that suits each flow (issue 12, point 7): any input restarts the timeout; keypads inside trades and
auctions, card lists and the wizard use the long timeout; a timeout never throws away a trade or an auction
already set up without asking."""
from __future__ import annotations

import pytest

from terminal.bank.operations import Undo
from tests.terminal.test_machine import ANN, BOB, Table
from tests.terminal.ui_driver import BANKER_UID, deed_uid


@pytest.fixture
def table(make_game):
    return Table(make_game)  # timeouts: 10 s, long 60 s


def wait(table, seconds):
    table.clock.advance(seconds)
    table.terminal.tick()


def test_any_input_restarts_the_timeout(table):
    table.driver.tap(ANN)
    wait(table, 8)
    table.driver.tap(deed_uid(1))  # even a refused or wrong input shows someone is there
    wait(table, 8)
    assert table.view.screen != "idle"
    table.terminal.digit("5", version=table.view.screen_version - 1)  # a dropped input counts too
    wait(table, 8)
    assert table.view.screen != "idle"
    wait(table, 3)
    assert table.view.screen == "idle" and table.view.message.code == "timed_out"


def test_typing_the_cash_of_a_trade_has_the_long_timeout(table):
    d = table.driver
    d.tap(ANN)
    d.choose("trade")
    d.tap(BOB)
    d.choose("cash:Ann")
    for char in "15":
        table.terminal.digit(char)
    wait(table, 11)
    assert table.view.screen == "keypad" and table.view.keypad == "15"
    table.terminal.digit("0")
    table.terminal.digit("OK")
    assert table.view.screen == "trade" and table.view.extra["gives"]["Ann"]["cash"] == 150


def test_a_card_list_has_the_long_timeout(table):
    table.driver.tap(ANN)
    table.driver.choose("chance")
    wait(table, 30)
    assert table.view.screen == "choose"
    wait(table, 31)
    assert table.view.screen == "idle"


def test_a_bid_keypad_in_an_auction_has_the_long_timeout(table):
    d = table.driver
    d.tap(deed_uid(39))
    d.choose("decline")
    d.tap(ANN)
    wait(table, 20)
    assert table.view.screen == "keypad"


def test_the_wizard_has_the_long_timeout(make_game):
    table = Table(make_game)
    table.terminal.game_factory = lambda *a, **k: None  # the wizard opens; nothing is started here
    table.driver.tap(BANKER_UID)
    table.driver.choose("new_game")
    wait(table, 30)
    assert table.view.screen == "new_game"


def test_a_trade_set_up_is_not_thrown_away_without_asking(table):
    d = table.driver
    table.game.buy("Ann", 1)
    d.tap(ANN)
    d.choose("trade")
    d.tap(BOB)
    d.choose("deed:Ann:1")
    d.choose("done")                      # the confirmation waits for both cards
    wait(table, 61)
    view = table.view
    assert view.screen == "trade" and view.message.code == "timeout_kept_trade"
    assert view.extra["gives"]["Ann"]["squares"] == [1], "kept as it was"
    wait(table, 61)                       # asked, and nobody answered: now it is dropped
    assert table.view.screen == "idle" and table.view.message.code == "timed_out_dropped"
    assert table.game.current.owner[1] == "Ann"


def test_answering_the_question_keeps_the_trade_going(table):
    d = table.driver
    table.game.buy("Ann", 1)
    d.tap(ANN)
    d.choose("trade")
    d.tap(BOB)
    d.choose("deed:Ann:1")
    wait(table, 61)
    assert table.view.message.code == "timeout_kept_trade"
    d.choose("done")
    d.tap(ANN)
    d.tap(BOB)
    assert table.game.current.owner[1] == "Bob"


def test_an_empty_trade_times_out_at_once(table):
    d = table.driver
    d.tap(ANN)
    d.choose("trade")
    d.tap(BOB)
    wait(table, 61)
    assert table.view.screen == "idle" and table.view.message.code == "timed_out"


def test_an_auction_with_a_bid_is_kept_and_asked_about(table):
    d = table.driver
    d.tap(deed_uid(39))
    d.choose("decline")
    d.tap(ANN)
    d.type_number(120)
    wait(table, 61)
    assert table.view.screen == "auction" and table.view.message.code == "timeout_kept_auction"
    assert table.view.extra["best"] == ("Ann", 120)
    d.button("confirm")
    d.button("confirm")
    assert table.game.current.owner[39] == "Ann" and table.game.cash("Ann") == 1380


def _bob_owes_ann_with_a_mortgaged_deed(table):
    g = table.game
    g.buy("Ann", 39), g.buy("Ann", 37)
    g.build("Ann", 39), g.build("Ann", 37), g.build("Ann", 39)
    g.buy("Bob", 1), g.buy("Bob", 5), g.mortgage("Bob", 5)
    g.pay_bank("Bob", g.cash("Bob"))
    g.pay_rent("Bob", 39)  # Bob has nothing: he owes Ann the rent


def test_every_step_of_a_bankruptcy_has_the_long_timeout(table):
    _bob_owes_ann_with_a_mortgaged_deed(table)
    assert table.game.current.debts_of("Bob")
    d = table.driver
    d.tap(BOB)
    d.choose("bankruptcy")
    assert table.terminal.timeout_s() == 60
    wait(table, 30)                       # the debtor hands over to the creditor, who reads the screen
    assert table.view.screen == "bankruptcy"
    d.tap(ANN)                            # the creditor's card: their choice of lifting mortgages now
    wait(table, 30)
    assert table.view.screen == "bankruptcy" and table.view.player == "Ann"
    d.choose("lift:5")
    wait(table, 30)
    d.choose("done")
    assert table.view.screen == "confirm" and table.terminal.timeout_s() == 60
    wait(table, 30)                       # the confirmation lists what each creditor receives
    assert table.view.screen == "confirm"
    d.tap(BOB)                            # the confirming tap commits: it does not land on the idle screen
    assert "Bob" in table.game.current.bankrupt_list and table.game.current.owner[5] == "Ann"
    assert not table.game.current.mortgaged.get(5)


def test_a_bankruptcy_confirmation_has_the_long_timeout_and_still_times_out(table):
    g = table.game
    g.pay_bank("Bob", 2000)               # owed to the Bank: straight to the confirmation
    d = table.driver
    d.tap(BOB)
    d.choose("bankruptcy")
    assert table.view.screen == "confirm"
    wait(table, 30)
    assert table.view.screen == "confirm"
    wait(table, 31)
    assert table.view.screen == "idle" and table.view.message.code == "timed_out"
    assert "Bob" not in table.game.current.bankrupt_list


def test_an_undo_confirmation_has_the_long_timeout(table):
    table.game.pay_bank("Ann", 100)
    d = table.driver
    d.tap(BANKER_UID)
    d.choose("undo")
    assert table.view.screen == "confirm" and table.view.pending.op == Undo()
    wait(table, 30)                       # the banker reads what is undone
    assert table.view.screen == "confirm"
    d.button("confirm")
    assert table.game.cash("Ann") == 1500


def test_a_confirmation_that_shows_money_waits_long_one_without_keeps_the_short_timeout(table):
    table.game.buy("Bob", 39)
    table.game.pay_bank("Ann", 1495)
    d = table.driver
    d.tap(deed_uid(39))
    d.tap(ANN)                            # a rent beyond Ann's 5 in cash: a debt, so a confirmation
    assert table.view.screen == "confirm" and table.terminal.timeout_s() == 60  # what stays owed, to read
    wait(table, 61)
    assert table.view.screen == "idle"
    table.game.gain_jail_card("Bob", "chance")
    d.tap(BOB)
    d.choose("use_jail_card")             # no money moves
    assert table.view.screen == "confirm" and table.terminal.timeout_s() == 10
    wait(table, 11)
    assert table.view.screen == "idle"
