"""The electronic board's Event cards read as printed (rules version 2; docs/RULES.md, The Ultimate Banking board,
Rules versions): side and colour-set cards through one of the drawer's own properties, chosen by tapping it; the
market slump for every player; a bankruptcy only when nothing is left to sell; an Event that changes nothing set
aside; the classic Free Parking jackpot and pay/collect-each operations refused. Through the Bank and through the
simulated reader, as a person would."""
from __future__ import annotations

import pytest

from host_ui.demo import event_uid
from terminal.bank.operations import parse_operation
from terminal.errors import RuleViolation
from terminal.table.i18n import text, translate
from tests.terminal.oracles import journal_of
from tests.terminal.test_machine_ultimate import ANN, BOB, CID, Table, sticker


@pytest.fixture
def table(make_game):
    return Table(make_game)


@pytest.fixture
def game(make_game):
    return make_game("ultimate", ("Ann", "Bob", "Cid"))


def test_a_side_card_is_played_by_tapping_one_of_the_drawers_properties(table):
    t = table
    t.game.buy("Ann", 19), t.game.buy("Bob", 21), t.game.buy("Bob", 1)
    t.tap(ANN)
    t.tap(event_uid(9))  # +1 on a side, through one of Ann's properties
    assert t.view.title.code == "ev_ask_side" and [o.id for o in t.view.options] == ["side:3"]
    before = t.entries()
    t.tap(sticker(1))  # Bob's, on side 1: not Ann's
    assert t.view.screen == "event" and t.view.message.code == "ev_not_yours" and t.entries() == before
    t.tap(sticker(19))  # Ann's, on side 3: Bob's 21 there rises too
    assert t.view.screen == "confirm"
    t.ok()
    assert (t.game.level(19), t.game.level(21), t.game.level(1)) == (2, 2, 1)


def test_a_colour_set_card_by_tapping_one_of_the_drawers_properties(table):
    t = table
    t.game.buy("Ann", 1), t.game.buy("Bob", 3), t.game.raise_level("Bob", 3)
    t.tap(BOB)
    t.tap(event_uid(13))  # -1 on a colour set, through one of Bob's properties
    t.tap(sticker(3))
    t.ok()
    assert (t.game.level(1), t.game.level(3)) == (1, 1)  # Ann's at 1 stays 1
    t.tap(CID)
    t.tap(event_uid(11))  # Cid owns nothing: no set can take it, set aside
    assert t.view.screen == "idle" and t.view.message.code == "ev_cannot_apply_group"


def test_a_side_or_set_the_drawer_owns_nothing_on_is_refused_saying_why(game):
    game.buy("Ann", 1)
    with pytest.raises(RuleViolation) as side:
        game.apply(parse_operation({"op": "event_side_up", "player": "Cid", "side": 1, "card": 9}))
    assert side.value.code == "event_side_not_yours" and str(side.value).startswith("Cid owns nothing on side 1")
    with pytest.raises(RuleViolation) as group:
        game.apply(parse_operation({"op": "event_group_down", "player": "Bob", "group": "brown"}))
    assert group.value.code == "event_group_not_yours"
    for error in (side.value, group.value):
        for language in ("fr", "en", "uk"):
            words = translate(error.code, error.params, language)
            assert words and "{" not in words and error.params["player"] in words
    assert "ne possède rien sur le côté 1" in translate(side.value.code, side.value.params, "fr")


def test_the_market_slump_is_every_players_next_two_rents(game):
    game.buy("Ann", 35)
    for _ in range(2):
        game.raise_level("Ann", 35)  # level 3: 560
    game.apply(parse_operation({"op": "event_market_slump", "player": "Ann", "payments": 2, "card": 15}))
    game.pay_rent("Bob", 35)  # level 1's 300, though Ann drew it; the level rises to 4
    # back to two, not three
    game.apply(parse_operation({"op": "event_market_slump", "player": "Cid", "payments": 2, "card": 15}))
    assert game.state()["slump"] == {"Ann": 2, "Bob": 2, "Cid": 2}
    game.pay_rent("Cid", 35)  # 300 (level 5 next)
    game.pay_rent("Bob", 35)  # 300
    game.pay_rent("Cid", 35)  # the slump is over: level 5, 1600
    assert game.cash("Bob") == 1500 - 300 - 300 and game.cash("Cid") == 1500 - 300 - 1200
    assert game.state()["debt"] == {"Cid": [{"to": "Ann", "amount": 400}]}


def test_a_bankruptcy_is_refused_while_a_property_is_held_saying_what_to_sell(game):
    game.buy("Ann", 35)
    for _ in range(4):
        game.raise_level("Ann", 35)
    game.buy("Bob", 1), game.buy("Bob", 3)
    game.pay_rent("Bob", 35)  # 1600: Bob has 1380, owes 220; his properties would fetch 120
    with pytest.raises(RuleViolation) as refused:
        game.declare_bankruptcy("Bob")
    error = refused.value
    assert error.code == "bankruptcy_sell_first" and error.params["squares"] == [1, 3]
    for language in ("fr", "en", "uk"):
        words = translate(error.code, error.params, language)
        assert "Boulevard de Belleville (60)" in words and "Rue Lecourbe (60)" in words and "{" not in words
    game.sell_property("Bob", 1), game.sell_property("Bob", 3)
    game.declare_bankruptcy("Bob")
    # Ann received what the properties fetched: 1100 + 1380 + 60 + 60
    assert game.cash("Ann") == 2600 and game.standings()[0] == "Ann"


def test_the_house_rule_bankrupt_sells_nothing_back(make_game):
    game = make_game("ultimate", ("Ann", "Bob"), rules={"charge_beyond_cash": "bankrupt"})
    game.buy("Ann", 35)
    for _ in range(4):
        game.raise_level("Ann", 35)
    game.buy("Bob", 1)
    game.pay_rent("Bob", 35)
    game.declare_bankruptcy("Bob")  # holding Boulevard de Belleville: it goes back to the Bank unpaid
    assert game.cash("Ann") == 1100 + 1440 and game.is_over()


def test_an_event_that_changes_nothing_is_refused_and_set_aside(game, table):
    with pytest.raises(RuleViolation) as refused:
        game.apply(parse_operation({"op": "event_pay_per_property", "player": "Ann", "amount": 50, "card": 14}))
    assert refused.value.code == "event_no_effect"
    t = table
    before = t.entries()
    t.tap(ANN)
    t.tap(event_uid(14))
    assert t.view.screen == "idle" and t.view.message.code == "ev_changes_nothing" and t.entries() == before
    assert "{" not in text(t.view.message, "uk")


@pytest.mark.parametrize("op", [{"op": "free_parking", "player": "Ann"},
                                {"op": "pay_each_player", "player": "Ann", "amount": 10},
                                {"op": "collect_from_each_player", "player": "Ann", "amount": 10}])
def test_the_classic_card_operations_are_not_on_this_board(game, op):
    with pytest.raises(RuleViolation) as refused:
        game.apply(parse_operation(op))
    assert refused.value.code == "not_on_this_board"
    game.apply(parse_operation({"op": "bank_pays", "player": "Ann", "amount": 10}))  # the banker's adjustments stay
    game.apply(parse_operation({"op": "pay_bank", "player": "Ann", "amount": 10}))
    assert game.cash("Ann") == 1500


def test_the_table_offers_no_classic_card_operations(table):
    table.tap(ANN)
    ids = [o.id for o in table.view.options]
    assert not {"free_parking", "pay_each_player", "collect_from_each_player"} & set(ids)
    assert {"pay_bank", "bank_pays", "transfer"} <= set(ids)


def test_the_move_to_any_property_cards_buy_or_raise_without_a_fee(table):
    t = table
    t.game.buy("Bob", 8)
    t.tap(ANN)
    t.tap(event_uid(24))  # move to any property space: buy it or raise its level
    assert t.view.title.code == "ev_ask_any_property"
    listed = [o.id for o in t.view.options]
    assert "square:6" in listed and "square:8" not in listed  # Bob's: not under buy_or_raise (the default)
    t.tap(sticker(8))
    assert t.view.screen == "event" and t.view.message.code == "location_not_yours"
    t.tap(sticker(6))  # the Bank's: the buy offered at once, at its price, no fee
    assert t.view.screen == "confirm"
    t.ok()
    assert t.game.current.owner[6] == "Ann" and t.game.cash("Ann") == 1400 and t.game.level(6) == 1
    t.tap(ANN)
    t.tap(event_uid(19))  # a card that stays keeps its number: now carried out
    t.tap(sticker(6))  # her own: +1 level
    t.ok()
    assert t.game.level(6) == 2 and t.game.cash("Ann") == 1400
    assert journal_of(t.game)[-1]["op"] == {"op": "event_move_to_property", "player": "Ann", "square": 6, "card": 19}


def test_move_to_property_through_the_bank(make_game):
    game = make_game("ultimate", ("Ann", "Bob"), rules={"location_landing": "land"})
    game.buy("Bob", 35)
    game.event("Ann", 20, square=35)  # another's, under "land": the rent at level 1 (300), then +1 level
    assert game.cash("Ann") == 1200 and game.level(35) == 2
    game.event("Ann", 24, square=1, buy=True)
    assert game.current.owner[1] == "Ann" and game.cash("Ann") == 1140
    for _ in range(4):
        game.raise_level("Ann", 1)
    with pytest.raises(RuleViolation) as refused:
        game.event("Ann", 19, square=1)  # her own at level 5
    assert refused.value.code == "level_at_max"
    with pytest.raises(RuleViolation) as refused:
        game.apply(parse_operation({"op": "event_move_to_property", "player": "Ann", "square": 5, "buy": True,
                                    "card": 18}))
    assert refused.value.code == "event_card_mismatch"


def test_everyone_to_free_parking_is_recorded_with_its_text(table):
    t = table
    before = t.entries()
    t.tap(ANN)
    t.tap(event_uid(23))
    assert t.view.screen == "idle" and t.entries() == before + 1
    assert t.game.cash("Ann") == 1500  # no GO salary


@pytest.mark.parametrize("op", [{"op": "build", "player": "Ann", "square": 1},
                                {"op": "mortgage", "player": "Ann", "square": 1},
                                {"op": "free_parking", "player": "Ann"}])
def test_the_demo_gives_up_before_tapping_on_an_operation_this_board_lacks(table, op):
    from host_ui.demo import GaveUp
    t = table
    t.game.buy("Ann", 1)
    before = t.entries()
    with pytest.raises(GaveUp, match="not offered on this board"):
        t.driver.play(op)
    assert t.entries() == before and t.game.level(1) == 1 and t.view.screen == "idle"


def test_the_demo_reads_card_0_as_a_card_number(table):
    from host_ui.demo import GaveUp
    t = table
    before = t.entries()
    with pytest.raises(GaveUp, match="no such Event card"):
        t.driver.play({"op": "event_movement", "player": "Ann", "card": 0})
    assert t.entries() == before
    t.driver.play({"op": "event_movement", "player": "Ann"})  # no card given: the first movement card of the deck
    assert t.entries() == before + 1


def test_the_table_says_what_to_sell_before_a_bankruptcy(table):
    t = table
    t.game.buy("Ann", 35)
    for _ in range(4):
        t.game.raise_level("Ann", 35)
    t.game.buy("Bob", 1), t.game.buy("Bob", 3)
    t.game.pay_rent("Bob", 35)  # Bob owes 220, his properties would fetch 120
    before = t.entries()
    t.tap(BOB)
    t.choose("bankruptcy")
    if t.view.screen == "confirm":
        t.ok()
    assert t.entries() == before and not t.game.current.bankrupt_list
    assert t.view.message is not None and t.view.message.code == "bankruptcy_sell_first"
    assert "Boulevard de Belleville (60)" in text(t.view.message, "fr")
