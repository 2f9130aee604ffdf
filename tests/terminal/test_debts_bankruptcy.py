"""Debts, bankruptcy, auctions and the end of the game (RULES.md, Debts and bankruptcy; End of the game)."""
from __future__ import annotations

import random
from datetime import UTC

import pytest

from terminal.errors import GameOver, InsufficientCash, PlayerBankrupt, PlayerInDebt, RuleViolation
from tests.terminal.oracles import worth_history
from tests.terminal.refusals import refused


def test_a_charge_beyond_cash_takes_all_and_leaves_a_debt(make_game):
    game = make_game("fr", ("Ann", "Bob", "Cid"))
    game.buy("Ann", 39)
    game.bank_pays("Ann", 2000)
    for s in (37,):
        game.buy("Ann", s)
    for _ in range(5):
        for s in (37, 39):
            game.build("Ann", s)
    game.pay_bank("Bob", 1400)  # Bob has 100
    game.pay_rent("Bob", 39)  # hotel: 2000
    assert game.cash("Bob") == 0
    assert game.state()["debt"] == {"Bob": [{"to": "Ann", "amount": 1900}]}
    # Voluntary operations are refused while in debt, with what is owed.
    refused(game, lambda: game.buy("Bob", 1), PlayerInDebt, "owes 1900 to Ann",
            code="player_in_debt", params={"creditor_list": ["Ann"], "debts": [{"amount": 1900, "creditor": "Ann",
                                           "debtor": "Bob"}], "owed": 1900, "player": "Bob",
                                           "remedy_code": "part_debt_remedy",
                                           "what": "buying Boulevard de Belleville"})
    refused(game, lambda: game.transfer("Bob", "Cid", 1), PlayerInDebt,
            code="player_in_debt", params={"creditor_list": ["Ann"], "debts": [{"amount": 1900, "creditor": "Ann",
                                           "debtor": "Bob"}], "owed": 1900, "player": "Bob",
                                           "remedy_code": "part_debt_remedy", "what": "a payment of 1 to Cid"})
    # What Bob receives goes to Ann.
    ann = game.cash("Ann")
    game.pass_go("Bob")
    assert game.cash("Bob") == 0 and game.cash("Ann") == ann + 200
    assert game.state()["debt"] == {"Bob": [{"to": "Ann", "amount": 1700}]}
    # Charges queue behind the first debt; debts are paid oldest first.
    game.pay_tax("Bob", 4)
    assert game.state()["debt"]["Bob"] == [{"to": "Ann", "amount": 1700}, {"to": "bank", "amount": 200}]
    game.collect_from_each_player("Bob", 1800)  # Ann pays 1800 and Cid 1800 (Cid only has 1500)
    state = game.state()
    assert state["debt"] == {"Cid": [{"to": "Bob", "amount": 300}]}
    assert state["cash"]["Bob"] == 1800 + 1500 - 1700 - 200


def test_pay_each_player_into_debt_in_play_order(make_game):
    game = make_game("fr", ("Ann", "Bob", "Cid", "Dee"))
    game.pay_bank("Bob", 1400)
    game.pay_each_player("Bob", 50)
    assert game.state()["debt"] == {"Bob": [{"to": "Dee", "amount": 50}]}
    assert game.state()["cash"] == {"Ann": 1550, "Bob": 0, "Cid": 1550, "Dee": 1500}


def test_raising_money_while_in_debt(make_game):
    game = make_game("us", ("Ann", "Bob"))
    for s in (1, 3):
        game.buy("Bob", s)
    game.build("Bob", 1)
    game.build("Bob", 3)
    assert game.cash("Bob") == 1280
    game.pay_bank("Bob", 1380)
    assert game.state()["debt"] == {"Bob": [{"to": "bank", "amount": 100}]}
    # Half of two houses (25 + 25) and two mortgages (30 + 30) could raise 110 >= 100.
    refused(game, lambda: game.declare_bankruptcy("Bob"), RuleViolation, "could still raise 110",
            code="bankruptcy_can_pay", params={"owed": 100, "player": "Bob", "raisable": 110})
    game.sell_building("Bob", 1)
    assert game.state()["debt"] == {"Bob": [{"to": "bank", "amount": 75}]}
    game.sell_building("Bob", 3)
    game.mortgage("Bob", 1)
    assert game.state()["debt"] == {"Bob": [{"to": "bank", "amount": 20}]} and game.cash("Bob") == 0
    game.mortgage("Bob", 3)
    assert game.state()["debt"] == {} and game.cash("Bob") == 10
    game.pass_go("Bob")
    assert game.cash("Bob") == 210


def test_a_creditor_may_take_deeds_against_the_debt(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Bob", 39)
    game.buy("Ann", 37)
    game.pay_bank("Bob", 1100)  # Bob: 0 cash, holds Rue de la Paix
    game.pay_rent("Bob", 37)  # 35 owed to Ann
    assert game.state()["debt"] == {"Bob": [{"to": "Ann", "amount": 35}]}
    ann = game.cash("Ann")
    game.trade("Bob", "Ann", {"squares": [39]}, {"cash": 300})  # agreed value 300: 35 go against the debt
    assert game.state()["debt"] == {}
    assert game.cash("Bob") == 265 and game.cash("Ann") == ann - 265


def test_bankruptcy_refused_without_debt_or_while_able_to_pay(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    refused(game, lambda: game.declare_bankruptcy("Ann"), RuleViolation, "owes nothing",
            code="bankruptcy_no_debt", params={"player": "Ann"})
    game.buy("Ann", 39)
    game.pay_bank("Ann", 1200)  # 100 in debt, could raise 200 by mortgaging
    refused(game, lambda: game.declare_bankruptcy("Ann"), RuleViolation, "could still raise 200",
            code="bankruptcy_can_pay", params={"owed": 100, "player": "Ann", "raisable": 200})


def test_bankruptcy_to_a_player_moves_everything(make_game):
    game = make_game("fr", ("Ann", "Bob", "Cid"))
    game.bank_pays("Bob", 400)
    for s in (1, 3, 5, 15):
        game.buy("Bob", s)
    game.build("Bob", 1)
    game.build("Bob", 3)
    game.mortgage("Bob", 15)
    game.gain_jail_card("Bob", "community_chest")
    game.buy("Ann", 39)
    for s in (37,):
        game.buy("Ann", s)
    game.bank_pays("Ann", 2000)
    for _ in range(5):
        game.build("Ann", 37)
        game.build("Ann", 39)
    game.pay_rent("Bob", 39)  # 2000: far beyond Bob's means
    assert game.cash("Bob") == 0
    owed = game.current.debts_of("Bob")[0].amount
    assert owed > game.raisable("Bob")
    ann_cash = game.cash("Ann")
    game.declare_bankruptcy("Bob", lift_now=[15])
    state = game.state()
    assert state["bankrupt"] == ["Bob"]
    assert state["cash"]["Bob"] == 0 and state["worth"]["Bob"] == 0
    assert {s for s, o in state["owner"].items() if o == "Ann"} == {"1", "3", "5", "15", "37", "39"}
    assert state["buildings"]["1"] == 0 and state["buildings"]["3"] == 0
    assert state["jail_cards"] == {"Ann": 1, "Bob": 0, "Cid": 0}
    # Ann receives the buildings' half price (25 + 25), pays 10 on Gare de Lyon and lifts it for 100.
    assert game.cash("Ann") == ann_cash + 50 - 10 - 100
    assert state["mortgaged"] == []
    assert state["debt"] == {}
    refused(game, lambda: game.pass_go("Bob"), PlayerBankrupt, code="player_bankrupt", params={"player": "Bob"})
    refused(game, lambda: game.declare_bankruptcy("Bob"), PlayerBankrupt,
            code="player_bankrupt", params={"player": "Bob"})
    game.collect_from_each_player("Cid", 10)  # skips Bob
    assert game.cash("Cid") == 1510


def test_bankruptcy_to_the_bank_then_auctions(make_game):
    game = make_game("us", ("Ann", "Bob", "Cid"))
    for s in (1, 3, 5):
        game.buy("Bob", s)
    game.build("Bob", 1)
    game.mortgage("Bob", 5)
    game.gain_jail_card("Bob", "chance")
    game.pay_bank("Bob", 5000)
    assert game.state()["debt"]["Bob"][0]["to"] == "bank"
    game.declare_bankruptcy("Bob")
    state = game.state()
    assert state["bankrupt"] == ["Bob"]
    assert [state["owner"][str(s)] for s in (1, 3, 5)] == ["bank"] * 3
    assert state["mortgaged"] == [] and state["buildings"]["1"] == 0
    assert state["bank"]["houses"] == 32 and state["jail_cards"]["Bob"] == 0
    game.gain_jail_card("Ann", "chance")  # back under its deck
    auction = game.start_auction(5)
    auction.bid("Ann", 10)
    refused(game, lambda: auction.bid("Cid", 10), RuleViolation, "above the best bid",
            code="bid_too_low", params={"amount": 10, "best": 10, "leader": "Ann"})
    refused(game, lambda: auction.bid("Cid", 1600), InsufficientCash,
            code="insufficient_cash", params={"amount": 1600, "cash": 1500, "player": "Cid"})
    refused(game, lambda: auction.bid("Bob", 20), PlayerBankrupt, code="player_bankrupt", params={"player": "Bob"})
    auction.bid("Cid", 11)
    receipt = auction.close()
    assert receipt.operation.to_json() == {"op": "auction", "square": 5, "winner": "Cid", "price": 11}
    assert game.state()["owner"]["5"] == "Cid"
    nobody = game.start_auction(1)
    assert nobody.close() is None and game.state()["owner"]["1"] == "bank"


def test_undo_across_a_bankruptcy_restores_everything(make_game):
    game = make_game("fr", ("Ann", "Bob", "Cid"))
    game.buy("Bob", 1)
    game.buy("Ann", 39)
    game.pay_bank("Bob", 1400)
    game.pay_rent("Bob", 39)
    game.pay_rent("Bob", 39)
    before = game.state()
    game.declare_bankruptcy("Bob")
    assert game.state() != before
    game.undo()
    assert game.state() == before


@pytest.mark.parametrize("mode, over_after", [("classic", 2), ("sans_frontieres", 1), ("quick", 2),
                                              ("time_limit", 2)])
def test_end_of_game_by_mode(make_game, mode, over_after):
    dealt = {"Ann": [1, 3], "Bob": [6, 8], "Cid": [11, 13]} if mode in ("quick", "time_limit") else None
    game = make_game("fr", ("Ann", "Bob", "Cid", "Dee")[:3], mode=mode, dealt=dealt)
    for n, player in enumerate(("Bob", "Cid")):
        game.pay_bank(player, 10000)
        game.declare_bankruptcy(player)
        assert game.is_over() == (n + 1 >= over_after), (mode, n)
        if game.is_over():
            break
    assert game.state()["game_over"]
    assert game.state()["standings"][0] == "Ann"
    refused(game, lambda: game.pass_go("Ann"), GameOver, code="game_over", params={})
    game.undo()  # undoing the operation that ended the game reopens it
    assert not game.is_over()
    game.pass_go("Ann")


def test_quick_game_deals_two_paid_deeds_and_stops_at_three_houses(make_game):
    game = make_game("fr", ("Ann", "Bob"), mode="quick", dealt={"Ann": [1, 3], "Bob": [37, 39]})
    assert game.state()["cash"] == {"Ann": 1380, "Bob": 750}
    for _ in range(3):
        game.build("Ann", 1)
        game.build("Ann", 3)
    game.build("Ann", 3)  # hotel after the third house
    assert game.state()["buildings"]["3"] == 5
    assert game.state()["bank"]["houses"] == 32 - 6 + 3
    assert game.worth("Ann") == game.cash("Ann") + 120 + 3 * 50 + 4 * 50


def test_time_limited_game_ends_at_its_time(make_game):
    """An ``end_time`` game (docs/table-log.md, Time limit): the wall clock is read once, at its start here, as
    play time left; then only play time ends it."""
    from datetime import datetime, timedelta
    end = datetime(2100, 12, 1, 20, 0, tzinfo=UTC)  # after the game's created_at (the real time)
    game = make_game("us", ("Ann", "Bob"), mode="time_limit", end_time=end.isoformat(), rng=random.Random(1),
                     clock=lambda: end - timedelta(minutes=30))
    assert sum(len(game.raw_state.deeds_of(p)) for p in game.players) == 4
    assert game.play_clock.time_left() == 30 * 60
    assert game.play_clock.tick(0.0) is None and game.play_clock.tick(30 * 60 - 1.0) is None and not game.is_over()
    assert game.play_clock.tick(30 * 60.0) is not None
    assert game.is_over()
    refused(game, lambda: game.pass_go("Ann"), GameOver, code="game_over", params={})


def test_end_game_only_in_a_time_limited_game(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    refused(game, lambda: game.end_game(), RuleViolation, "time-limited",
            code="end_game_not_time_limit", params={"mode": "classic"})


def test_worth_and_standings(make_game):
    game = make_game("fr", ("Ann", "Bob", "Cid"))
    game.buy("Ann", 1)
    game.buy("Ann", 3)
    game.build("Ann", 1)
    game.buy("Bob", 5)
    game.mortgage("Bob", 5)
    game.pay_bank("Cid", 90)
    # Ann: 1500-60-60-50 + 60 + 60 + 50 = 1500; Bob: 1500-200+100 + 100 = 1500; Cid 1410
    assert game.state()["worth"] == {"Ann": 1500, "Bob": 1500, "Cid": 1410}
    # Tie: more cash first.
    assert game.standings() == ["Bob", "Ann", "Cid"]


def test_worth_history_has_one_row_per_entry(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Ann", 39)
    game.pay_rent("Bob", 39)
    history = worth_history(game)
    assert history == [{"Ann": 1500, "Bob": 1500}, {"Ann": 1500, "Bob": 1500}, {"Ann": 1550, "Bob": 1450}]


@pytest.mark.parametrize("players, code", [("AB", "player_count"), (("Ann", "ann"), "player_duplicate"),
                                           (("Ann", "Bob\u0000x"), "player_name"), (("Ann", "Bo\nb"), "player_name"),
                                           (("Ann",), "player_count"), (("Ann", "Bank"), "player_name_reserved")])
def test_bad_player_lists_are_refused(make_game, players, code):
    with pytest.raises(RuleViolation) as info:
        make_game("fr", players)
    assert info.value.code == code


@pytest.mark.parametrize("dealt", [{"Ann": [1, 3, 5], "Bob": [6, 8]}, {"Ann": [1, 3]}])
def test_a_quick_deal_gives_two_deeds_to_each_player(make_game, dealt):
    with pytest.raises(RuleViolation) as info:
        make_game("fr", ("Ann", "Bob"), mode="quick", dealt=dealt)
    assert info.value.code == "deal_count"
