"""Each operation of the table-log spec on both editions, with RULES.md's figures, and each refusal."""
from __future__ import annotations

import pytest

from terminal.errors import (
    InsufficientCash,
    InvalidAmount,
    MalformedOperation,
    NothingToUndo,
    RuleViolation,
    UnknownName,
)
from tests.terminal.refusals import refused

EDITIONS = ["fr", "us"]


def deed(game, square):
    """The name of ``square`` in ``game``'s edition (a refusal's ``deed`` param)."""
    return game.edition.squares[square].name


def joined(game, *squares):
    """The names of ``squares`` as a refusal's ``*_names`` param gives them: joined by ", "."""
    return ", ".join(deed(game, s) for s in squares)


@pytest.fixture(params=EDITIONS)
def game(request, make_game):
    return make_game(request.param, ("Ann", "Bob", "Cid"))


def test_setup_gives_the_starting_cash(game):
    assert game.state()["cash"] == {"Ann": 1500, "Bob": 1500, "Cid": 1500}
    assert game.state()["bank"] == {"houses": 32, "hotels": 12, "pot": 0}


def test_go_salary_and_card_payments(game):
    game.pass_go("Ann")
    game.bank_pays("Bob", 50)
    game.pay_bank("Cid", 15)
    assert game.state()["cash"] == {"Ann": 1700, "Bob": 1550, "Cid": 1485}


def test_pay_each_player_and_collect_from_each(game):
    game.pay_each_player("Ann", 50)
    game.collect_from_each_player("Bob", 10)
    assert game.state()["cash"] == {"Ann": 1390, "Bob": 1570, "Cid": 1540}


def test_taxes(game):
    game.pay_tax("Ann", 4)
    game.pay_tax("Bob", 38)
    assert game.state()["cash"] == {"Ann": 1300, "Bob": 1400, "Cid": 1500}
    refused(game, lambda: game.pay_tax("Ann", 5), RuleViolation, "not a tax square",
            code="not_a_tax", params={"deed": deed(game, 5), "square": 5})
    refused(game, lambda: game.pay_tax("Ann", 4, choice="percent"), RuleViolation, "10 % rule",
            code="tax_no_choice", params={"deed": deed(game, 4), "square": 4})


@pytest.mark.parametrize("rounding", ["up", "down"])
def test_income_tax_percent_of_total_worth(make_game, rounding):
    game = make_game("us-1935", ("Ann", "Bob"), rules={"interest_rounding": rounding})
    game.buy("Ann", 1)  # 60
    game.buy("Ann", 3)  # 60
    game.build("Ann", 1)  # 50
    game.buy("Ann", 5)  # 200
    game.mortgage("Ann", 5)  # +100 cash, deed still counted at printed price
    # cash 1500-60-60-50-200+100 = 1230; bring it to 1165 so that 10 % is not whole:
    # cash 1165 + deeds at printed price 60+60+200 (mortgaged or not) + buildings 50 = 1535 -> 153.5
    game.pay_bank("Ann", 1230 - 1165)
    cash_before = game.cash("Ann")
    game.pay_tax("Ann", 4, choice="percent")
    total = 1165 + 320 + 50
    assert total == 1535
    assert cash_before - game.cash("Ann") == {"up": 154, "down": 153}[rounding]
    game.pay_tax("Bob", 4, choice="flat")
    game.pay_tax("Bob", 38)
    assert game.cash("Bob") == 1500 - 200 - 75


def test_jail_fine_and_jail_cards(game):
    game.jail_fine("Ann")
    assert game.cash("Ann") == 1450
    game.gain_jail_card("Bob", "chance")
    refused(game, lambda: game.gain_jail_card("Cid", "chance"), RuleViolation, "held by Bob",
            code="jail_card_taken", params={"deck": "chance", "deck_code": "part_deck_chance", "holder": "Bob"})
    game.gain_jail_card("Cid", "community_chest")
    assert game.state()["jail_cards"] == {"Ann": 0, "Bob": 1, "Cid": 1}
    refused(game, lambda: game.use_jail_card("Ann"), RuleViolation, "no Get Out of Jail Free",
            code="no_jail_card", params={"player": "Ann"})
    refused(game, lambda: game.use_jail_card("Bob", "community_chest"), RuleViolation,
            code="no_jail_card", params={"deck": "community_chest", "player": "Bob"})
    refused(game, lambda: game.gain_jail_card("Ann", "bonus"), UnknownName, "Unknown deck",
            code="unknown_deck", params={"deck": "bonus"})
    game.use_jail_card("Bob")
    game.gain_jail_card("Ann", "chance")
    # Sold to another player at an agreed price: a trade.
    game.trade("Ann", "Cid", {"jail_cards": 1}, {"cash": 30})
    assert game.state()["jail_cards"] == {"Ann": 0, "Bob": 0, "Cid": 2}
    assert game.cash("Ann") == 1480 and game.cash("Cid") == 1470


def test_free_parking_pays_nothing_by_default(game):
    game.pay_tax("Ann", 4)
    game.free_parking("Bob")
    assert game.cash("Bob") == 1500 and game.state()["bank"]["pot"] == 0


def test_free_parking_jackpot(make_game):
    game = make_game("fr", ("Ann", "Bob"), rules={"free_parking_jackpot": True})
    game.pay_tax("Ann", 4)
    game.jail_fine("Ann")
    game.pay_bank("Bob", 15)
    game.buy("Bob", 1)
    assert game.state()["bank"]["pot"] == 265
    game.free_parking("Bob")
    assert game.cash("Bob") == 1500 - 15 - 60 + 265
    assert game.state()["bank"]["pot"] == 0


def test_buy_and_auction(game):
    game.buy("Ann", 39)
    assert game.state()["owner"]["39"] == "Ann" and game.cash("Ann") == 1100
    refused(game, lambda: game.buy("Bob", 39), RuleViolation, "already belongs to Ann",
            code="deed_owned", params={"deed": deed(game, 39), "owner": "Ann", "square": 39})
    refused(game, lambda: game.buy("Bob", 0), RuleViolation, "not a title deed",
            code="not_a_deed", params={"deed": deed(game, 0), "name": deed(game, 0), "square": 0})
    refused(game, lambda: game.buy("Bob", 40), UnknownName, code="unknown_square", params={"square": 40})
    refused(game, lambda: game.buy("Zoe", 1), UnknownName, "no player 'Zoe'",
            code="unknown_player", params={"player": "Zoe"})
    game.auction(37, "Cid", 1)
    assert game.state()["owner"]["37"] == "Cid" and game.cash("Cid") == 1499
    refused(game, lambda: game.auction(37, "Bob", 10), RuleViolation, "belongs to Cid",
            code="deed_owned", params={"deed": deed(game, 37), "owner": "Cid", "square": 37})
    refused(game, lambda: game.auction(1, "Bob", 0), InvalidAmount,
            code="amount_not_positive", params={"amount": 0, "what": "winning bid"})
    refused(game, lambda: game.auction(1, "Bob", 1501), InsufficientCash,
            code="insufficient_cash", params={"amount": 1501, "cash": 1500, "player": "Bob",
                                              "what": f"the auction of {deed(game, 1)}"})


def test_buying_without_the_cash_is_refused(game):
    game.pay_bank("Ann", 1450)
    refused(game, lambda: game.buy("Ann", 1), InsufficientCash, "only 50 in cash",
            code="insufficient_cash", params={"amount": 60, "cash": 50, "player": "Ann",
                                              "what": f"buying {deed(game, 1)}"})


@pytest.mark.parametrize("amount", [0, -5, 10**9, 2.5, "12", True])
def test_absurd_amounts_are_refused(game, amount):
    calls = {"bank_pays": lambda: game.bank_pays("Ann", amount), "pay_bank": lambda: game.pay_bank("Ann", amount),
             "transfer": lambda: game.transfer("Ann", "Bob", amount),
             "pay_each_player": lambda: game.pay_each_player("Ann", amount)}
    for op, call in calls.items():
        if not isinstance(amount, int) or isinstance(amount, bool):  # not an int: the operation's record refuses it
            refused(game, call, MalformedOperation, code="wrong_type", params={"field": "amount", "op": op})
        elif amount <= 0:
            refused(game, call, InvalidAmount, code="amount_not_positive", params={"amount": amount, "what": "amount"})
        else:  # more than the edition's largest amount
            refused(game, call, InvalidAmount, code="amount_absurd",
                    params={"amount": amount, "max": game.edition.max_amount, "what": "amount"})


def test_building_rules(game):
    for s in (6, 8, 9):
        game.buy("Ann", s)
    game.buy("Bob", 1)
    refused(game, lambda: game.build("Bob", 1), RuleViolation, "whole colour group",
            code="build_group_incomplete", params={"deed": deed(game, 1), "missing": [deed(game, 3)],
                                                   "missing_names": deed(game, 3), "owner": "Bob", "square": 1})
    refused(game, lambda: game.build("Ann", 5), RuleViolation, "does not hold",
            code="not_owner", params={"deed": deed(game, 5), "owner": "bank", "player": "Ann", "square": 5})
    game.build("Ann", 6)
    refused(game, lambda: game.build("Ann", 6), RuleViolation, "build evenly",
            code="build_uneven", params={"behind": [deed(game, 8), deed(game, 9)], "behind_names": joined(game, 8, 9),
                                         "deed": deed(game, 6), "lowest": 0, "lowest_code": "part_level_0",
                                         "square": 6})
    game.build("Ann", 8)
    game.build("Ann", 9)
    for _ in range(3):
        for s in (6, 8, 9):
            game.build("Ann", s)
    assert game.state()["bank"]["houses"] == 32 - 12
    game.build("Ann", 9)  # hotel: its 4 houses go back
    assert game.state()["buildings"]["9"] == 5
    assert game.state()["bank"] == {"houses": 24, "hotels": 11, "pot": 0}
    refused(game, lambda: game.build("Ann", 9), RuleViolation, "one hotel per street",
            code="build_max", params={"deed": deed(game, 9), "square": 9})
    refused(game, lambda: game.mortgage("Ann", 6), RuleViolation, "sell the buildings",
            code="mortgage_group_built", params={"built": [deed(game, 6), deed(game, 8), deed(game, 9)],
                                                 "built_names": joined(game, 6, 8, 9), "deed": deed(game, 6),
                                                 "square": 6})
    refused(game, lambda: game.sell_building("Ann", 6), RuleViolation, "Sell evenly",
            code="sell_uneven", params={"ahead": [deed(game, 9)], "ahead_names": deed(game, 9), "deed": deed(game, 6),
                                        "square": 6})
    cash = game.cash("Ann")
    game.sell_building("Ann", 9)  # the hotel breaks back into 4 houses, the Bank pays half of 50
    assert game.cash("Ann") == cash + 25
    assert game.state()["bank"] == {"houses": 20, "hotels": 12, "pot": 0}
    assert game.state()["buildings"]["9"] == 4
    cash = game.cash("Ann")
    game.sell_building("Ann", 6, whole=True)
    assert game.cash("Ann") == cash + 12 * 25
    assert game.state()["bank"]["houses"] == 32
    assert [game.state()["buildings"][str(s)] for s in (6, 8, 9)] == [0, 0, 0]
    refused(game, lambda: game.sell_building("Ann", 6), RuleViolation, "no building",
            code="sell_nothing", params={"deed": deed(game, 6), "square": 6})


def test_no_building_on_a_mortgaged_group(game):
    for s in (1, 3):
        game.buy("Ann", s)
    game.mortgage("Ann", 3)
    refused(game, lambda: game.build("Ann", 1), RuleViolation, "is mortgaged",
            code="build_group_mortgaged", params={"deed": deed(game, 1), "mortgaged": [deed(game, 3)],
                                                  "mortgaged_names": deed(game, 3), "square": 1})
    refused(game, lambda: game.build("Ann", 5), RuleViolation,
            code="not_owner", params={"deed": deed(game, 5), "owner": "bank", "player": "Ann", "square": 5})


def test_hotel_sold_whole_group_when_the_bank_lacks_houses(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.bank_pays("Ann", 20000)
    for s in (37, 39, 31, 32, 34, 26, 27, 29, 21, 23, 24):
        game.buy("Ann", s)
    for group in ((37, 39), (31, 32, 34), (26, 27, 29)):
        for _ in range(4):
            for s in group:
                game.build("Ann", s)
    for s in (37, 39):
        game.build("Ann", s)  # hotels: 8 houses back
    for _ in range(2):
        for s in (21, 23, 24):
            game.build("Ann", s)
    assert game.state()["bank"]["houses"] == 32 - 32 + 8 - 6 - 0 == 2
    cash = game.cash("Ann")
    game.sell_building("Ann", 39)  # only 2 houses in the Bank: both hotels of the group are sold
    assert game.cash("Ann") == cash + 2 * (200 * 5 // 2)
    assert game.state()["buildings"]["37"] == 0 and game.state()["buildings"]["39"] == 0
    assert game.state()["bank"]["hotels"] == 12


def test_housing_shortage_and_auction_price(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.bank_pays("Ann", 30000)
    for s in (37, 39, 31, 32, 34, 26, 27, 29, 21, 23, 24):
        game.buy("Ann", s)
    for group in ((37, 39), (31, 32, 34), (26, 27, 29)):
        for _ in range(4):
            for s in group:
                game.build("Ann", s)
    assert game.state()["bank"]["houses"] == 32 - 32
    refused(game, lambda: game.build("Ann", 21), RuleViolation, "no house left",
            code="no_houses_left", params={"deed": deed(game, 21), "square": 21})
    game.build("Ann", 39)  # a hotel frees 4 houses
    refused(game, lambda: game.build("Ann", 21, price=100), RuleViolation, "starts at the printed house price",
            code="auction_below_house_price", params={"deed": deed(game, 21), "house_cost": 150, "price": 100,
                                                      "square": 21})
    cash = game.cash("Ann")
    game.build("Ann", 21, price=180)
    assert cash - game.cash("Ann") == 180


def test_mortgage_and_unmortgage_rounding(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Ann", 11)  # mortgage 70
    game.buy("Ann", 12)  # mortgage 75
    game.mortgage("Ann", 12)
    assert game.cash("Ann") == 1500 - 140 - 150 + 75
    refused(game, lambda: game.mortgage("Ann", 12), RuleViolation, "already mortgaged",
            code="already_mortgaged", params={"deed": deed(game, 12), "square": 12})
    refused(game, lambda: game.unmortgage("Ann", 11), RuleViolation, "not mortgaged",
            code="not_mortgaged", params={"deed": deed(game, 11), "square": 11})
    cash = game.cash("Ann")
    game.unmortgage("Ann", 12)
    assert cash - game.cash("Ann") == 83
    down = make_game("fr", ("Ann", "Bob"), rules={"interest_rounding": "down"})
    down.buy("Ann", 12)
    down.mortgage("Ann", 12)
    cash = down.cash("Ann")
    down.unmortgage("Ann", 12)
    assert cash - down.cash("Ann") == 82


def test_unmortgage_175_costs_193(make_game):
    game = make_game("us", ("Ann", "Bob"))
    game.buy("Ann", 37)
    game.mortgage("Ann", 37)
    cash = game.cash("Ann")
    game.unmortgage("Ann", 37)
    assert cash - game.cash("Ann") == 193


def test_transfer(game):
    game.transfer("Ann", "Bob", 100)
    game.transfer("Cid", "bank", 10)
    game.transfer("bank", "Cid", 5)
    assert game.state()["cash"] == {"Ann": 1400, "Bob": 1600, "Cid": 1495}
    refused(game, lambda: game.transfer("Ann", "Ann", 5), RuleViolation, "cannot pay themselves",
            code="pay_self", params={"player": "Ann"})
    refused(game, lambda: game.transfer("Ann", "Bob", 1401), InsufficientCash,
            code="insufficient_cash", params={"amount": 1401, "cash": 1400, "player": "Ann",
                                              "what": "a payment of 1401 to Bob"})


def test_trade_with_a_mortgaged_deed(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Ann", 12)
    game.mortgage("Ann", 12)  # mortgage value 75
    game.buy("Ann", 28)
    game.mortgage("Ann", 28)
    game.trade("Ann", "Bob", {"squares": [12, 28]}, {"cash": 100}, lift_now=[28])
    # Bob pays 100, 10 % on each received mortgaged deed (8 + 8) and lifts 28 for 75.
    assert game.cash("Bob") == 1500 - 100 - 8 - 8 - 75
    assert game.state()["mortgaged"] == [12]
    assert game.state()["owner"]["12"] == "Bob"
    cash = game.cash("Bob")
    game.unmortgage("Bob", 12)  # lifting later: 75 + 8 again
    assert cash - game.cash("Bob") == 83


def test_trade_refusals(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    for s in (1, 3):
        game.buy("Ann", s)
    game.build("Ann", 1)
    refused(game, lambda: game.trade("Ann", "Bob", {"squares": [3]}, {"cash": 10}), RuleViolation, "has buildings",
            code="trade_group_built", params={"built": [deed(game, 1)], "built_names": deed(game, 1),
                                              "deed": deed(game, 3), "square": 3})
    refused(game, lambda: game.trade("Ann", "Bob", {"squares": [5]}, {}), RuleViolation, "does not hold",
            code="not_owner", params={"deed": deed(game, 5), "owner": "bank", "player": "Ann", "square": 5})
    refused(game, lambda: game.trade("Ann", "Bob", {}, {}), RuleViolation, "exchanges nothing",
            code="trade_empty", params={})
    refused(game, lambda: game.trade("Ann", "Ann", {"cash": 5}, {}), RuleViolation,
            code="trade_self", params={"player": "Ann"})
    refused(game, lambda: game.trade("Ann", "Bob", {}, {"cash": 5000}), InsufficientCash,
            code="insufficient_cash", params={"amount": 5000, "cash": 1500, "player": "Bob"})
    refused(game, lambda: game.trade("Ann", "Bob", {"jail_cards": 1}, {"cash": 5}), RuleViolation,
            code="no_jail_card", params={"held": 0, "player": "Ann"})


def test_repairs_count_hotels_as_hotels(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.bank_pays("Ann", 5000)
    for s in (1, 3, 6, 8, 9):
        game.buy("Ann", s)
    for _ in range(5):
        for s in (1, 3):
            game.build("Ann", s)
    for s in (6, 8, 9):
        game.build("Ann", s)
    cash = game.cash("Ann")
    game.repairs("Ann", 25, 100)
    assert cash - game.cash("Ann") == 3 * 25 + 2 * 100


def test_undo_again_and_again(game):
    start = game.state()
    game.buy("Ann", 1)
    after_buy = game.state()
    game.pass_go("Bob")
    game.undo()
    assert game.state() == after_buy
    game.undo()
    assert game.state() == start
    with pytest.raises(NothingToUndo):
        game.undo()
    assert game.state() == start


def test_undo_survives_a_restart(make_game, key):
    from terminal.bank.game import Game
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Ann", 39)
    game.pay_rent("Bob", 39)
    path = game.path
    game.close()
    with Game.open(path, key=key) as again:
        again.undo()
        assert again.cash("Bob") == 1500
        assert again.last_undoable() == {"op": "buy", "player": "Ann", "square": 39}


def test_messages_say_what_to_do(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Ann", 1)
    game.buy("Ann", 3)
    game.build("Ann", 3)
    with pytest.raises(RuleViolation) as info:
        game.build("Ann", 3)
    assert str(info.value) == "Can't build on Rue Lecourbe: build evenly, Boulevard de Belleville has no house yet."
    assert info.value.code == "build_uneven"
    assert isinstance(info.value, ValueError)
