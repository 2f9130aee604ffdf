"""Cards that move the token, through the tap machine: the landing square is handled as if the player had landed
there (its deed to buy or its rent, its tax, the deck of a Chance or Community Chest square), after the GO salary
when the move passed GO; a relative move asks from which square of its deck it was drawn. The game played by the
cards is the hand-computed table log ``fr-card-moves.jsonl``, operation by operation and cash by cash."""
from __future__ import annotations

import pytest

from terminal.bank.tablelog import read_table_log
from terminal.table.i18n import text
from tests.conftest import OWN_LOGS
from tests.terminal.test_machine import ANN, CID, Table

LOG = read_table_log(OWN_LOGS / "fr-card-moves.jsonl")


@pytest.fixture
def table(make_game):
    t = Table(make_game)
    for square in (1, 19, 15):
        t.game.buy("Bob", square)
    return t


def _draw(table, uid, deck, number):
    d = table.driver
    d.tap(uid)
    d.choose(deck)
    d.choose(str(number))


def _ops(table):
    last = table.game.ledger.last_entry()[0]
    return [table.game.ledger.entry(n).op for n in range(2, last + 1)]


def _cash(table):
    return {p: table.game.cash(p) for p in ("Ann", "Bob", "Cid")}


def test_the_moving_cards_play_the_hand_computed_log(table):
    d = table.driver
    expects = [line.data["expect"]["cash"] for line in LOG.lines if "expect" in line.data]
    assert _cash(table) == expects[0]
    # Community Chest 7: back to Boulevard de Belleville, Bob's: its rent, shown before it is paid
    _draw(table, ANN, "community_chest", 7)
    assert table.view.screen == "confirm" and table.view.pending.postings == (("Ann", "Bob", 2),)
    d.button("confirm")
    assert _cash(table) == expects[1]
    # Chance 11, back three squares: from which Chance square? 7 -> the income tax
    _draw(table, ANN, "chance", 11)
    assert table.view.screen == "choose" and [o.id for o in table.view.options] == ["7", "22", "36"]
    labels = [text(o.label, "fr") for o in table.view.options]
    assert "Impôts sur le revenu" in labels[0] and "Place Pigalle" in labels[1] and "Caisse" in labels[2]
    d.choose("7")
    assert table.view.screen == "confirm" and table.view.pending.postings == (("Ann", "bank", 200),)
    d.button("confirm")
    assert _cash(table) == expects[2]
    # ... from 22 -> Place Pigalle, Bob's
    _draw(table, CID, "chance", 11)
    d.choose("22")
    assert table.view.pending.postings == (("Cid", "Bob", 16),)
    d.button("confirm")
    assert _cash(table) == expects[3]
    # ... from 36 -> Community Chest: its deck is offered
    _draw(table, CID, "chance", 11)
    d.choose("36")
    assert table.view.screen == "choose" and text(table.view.title, "fr") == "Carte Caisse de communauté"
    d.choose("2")  # a fixed amount: the touch on it commits
    assert _cash(table) == expects[4]
    # Chance 5, Gare de Lyon, passing GO: the salary, then the station's rent (never "nothing to pay")
    _draw(table, ANN, "chance", 5)
    d.choose("passed")
    assert table.view.pending.postings == (("bank", "Ann", 200),)
    d.button("confirm")
    assert table.view.screen == "confirm" and table.view.pending.postings == (("Ann", "Bob", 25),)
    assert table.view.message is not None and table.view.message.code.startswith("done")
    d.button("confirm")
    assert _cash(table) == expects[5]
    # Chance 4, Boulevard de la Villette, GO not passed: unowned, offered; the button names the price
    _draw(table, CID, "chance", 4)
    d.choose("not_passed")
    assert table.view.screen == "offer"
    d.choose("buy")
    assert _cash(table) == expects[6]
    assert _ops(table) == [line.data for line in LOG.lines if "op" in line.data]


def test_a_relative_move_is_said_in_every_language(table):
    _draw(table, ANN, "chance", 11)
    for language in ("fr", "en", "uk"):
        assert text(table.view.title, language) and "{" not in text(table.view.title, language)
        assert all("{" not in text(o.label, language) for o in table.view.options)


@pytest.mark.parametrize("how", ["cancel", "timeout"])
def test_dropping_the_purchase_after_a_cards_go_salary_says_the_salary_stands(make_game, how):
    # Chance 5, Gare de Lyon unowned, passing GO: the salary is confirmed (recorded), then the offer is dropped:
    # the screen must not say "nothing was done", for 200 were paid; it says the salary stands, only the rest
    # was not done.
    table = Table(make_game)
    d = table.driver
    _draw(table, ANN, "chance", 5)
    d.choose("passed")
    d.button("confirm")
    assert table.view.screen == "offer" and table.game.cash("Ann") == 1700
    if how == "cancel":
        d.button("cancel")
    else:
        table.clock.now += table.terminal.timeout_s() + 1
        table.terminal.tick()
    assert table.view.screen == "idle" and table.game.cash("Ann") == 1700 and 15 not in table.game.state()["owner"]
    message = table.view.message
    assert message is not None and message.code == ("cancelled" if how == "cancel" else "timed_out") + "_salary_stands"
    assert "salaire" in text(message, "fr") and "Ann" in text(message, "fr")
    assert "rien n'a été fait" not in text(message, "fr")
    for language in ("fr", "en", "uk"):
        assert "{" not in text(message, language) and "Ann" in text(message, language)
    # the next cancel, of another flow, is an ordinary one again
    d.tap(ANN)
    d.button("cancel")
    assert table.view.message.code == "cancelled"
