"""Auctions (RULES.md, Title deeds; Buildings, housing shortage): bids, refusals, closing."""
from __future__ import annotations

from terminal.errors import GameOver, InsufficientCash, InvalidAmount, PlayerInDebt, RuleViolation
from tests.terminal.refusals import refused


def test_deed_auction_any_start_highest_wins_decliner_may_bid(make_game):
    game = make_game("fr", ("Ann", "Bob", "Cid"))
    auction = game.start_auction(39)  # Ann declined Rue de la Paix at 400
    auction.bid("Bob", 1)
    auction.bid("Ann", 250)  # the one who declined may bid
    refused(game, lambda: auction.bid("Cid", 250), RuleViolation, "above the best bid, 250 by Ann",
            code="bid_too_low", params={"amount": 250, "best": 250, "leader": "Ann"})
    refused(game, lambda: auction.bid("Cid", 0), InvalidAmount,
            code="amount_not_positive", params={"amount": 0, "what": "bid"})
    auction.bid("Cid", 251)
    assert [(b.player, b.amount) for b in auction.bids] == [("Bob", 1), ("Ann", 250), ("Cid", 251)]
    assert game.cash("Cid") == 1500, "nothing is paid before the auction closes"
    receipt = auction.close()
    assert receipt.paid("Cid", "bank") == 251
    assert game.state()["owner"]["39"] == "Cid"
    refused(game, lambda: auction.bid("Ann", 300), RuleViolation, "closed", code="auction_closed", params={})


def test_auction_refusals(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Ann", 39)
    refused(game, lambda: game.start_auction(39), RuleViolation, "belongs to Ann",
            code="deed_owned", params={"deed": "Rue de la Paix", "owner": "Ann", "square": 39})
    refused(game, lambda: game.start_auction(0), RuleViolation, "not a title deed",
            code="not_a_deed", params={"deed": "Départ", "name": "Départ", "square": 0})
    auction = game.start_auction(37)
    refused(game, lambda: auction.bid("Bob", 1501), InsufficientCash,
            code="insufficient_cash", params={"amount": 1501, "cash": 1500, "player": "Bob"})
    game.pay_bank("Bob", 1600)
    refused(game, lambda: auction.bid("Bob", 1), PlayerInDebt,
            code="player_in_debt", params={"creditor_list": ["bank"], "debts": [{"amount": 100, "creditor": "bank",
                                           "debtor": "Bob"}], "owed": 100, "player": "Bob",
                                           "remedy_code": "part_debt_remedy", "what": "a bid"})


def test_building_auction_in_a_housing_shortage(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.bank_pays("Ann", 20000)
    game.bank_pays("Bob", 20000)
    for s in (37, 39, 31, 32, 34, 26, 27, 29):
        game.buy("Ann", s)
    for s in (21, 23, 24, 1, 3):
        game.buy("Bob", s)
    for group in ((37, 39), (31, 32, 34), (26, 27, 29)):
        for _ in range(4):
            for s in group:
                game.build("Ann", s)
    game.build("Ann", 39)  # a hotel gives 4 houses back: 4 left, both players want more
    assert game.state()["bank"]["houses"] == 4
    auction = game.start_building_auction("house")
    refused(game, lambda: auction.bid("Bob", 21, 100), RuleViolation, "printed house price, 150",
            code="auction_below_house_price", params={"amount": 100, "deed": "Avenue Matignon", "house_cost": 150,
                                                      "price": 100, "square": 21})
    # Avenue de Breteuil needs a hotel next
    refused(game, lambda: auction.bid("Ann", 31, 250), RuleViolation, "This auction is for a house; Avenue de Breteuil",
            code="auction_wrong_building", params={"building": "house", "building_code": "part_house",
                                                   "deed": "Avenue de Breteuil", "square": 31, "wanted": "hotel",
                                                   "wanted_code": "part_hotel"})
    auction.bid("Bob", 21, 150)
    auction.bid("Bob", 1, 160)  # a bid for another street, above the best
    receipt = auction.close()
    assert receipt.operation.to_json() == {"op": "build", "player": "Bob", "square": 1, "price": 160}
    assert game.state()["buildings"]["1"] == 1 and game.state()["bank"]["houses"] == 3
    assert game.start_building_auction("hotel").close() is None


def test_no_auction_after_the_end(make_game):
    game = make_game("fr", ("Ann", "Bob"), mode="sans_frontieres")
    game.pay_bank("Bob", 2000)
    game.declare_bankruptcy("Bob")
    refused(game, lambda: game.start_auction(1), GameOver, code="game_over", params={})


def test_a_bid_of_all_ones_cash_is_taken_and_one_more_refused(make_game):
    """A bid is paid in cash (RULES.md, Title deeds): a bidder may offer everything they hold, not more."""
    game = make_game("us", ("Ann", "Bob"))
    auction = game.start_auction(39)
    refused(game, lambda: auction.bid("Ann", 1501), InsufficientCash,
            code="insufficient_cash", params={"amount": 1501, "cash": 1500, "player": "Ann"})
    auction.bid("Ann", 1500)
    assert auction.close().paid("Ann", "bank") == 1500
    assert game.cash("Ann") == 0 and game.state()["owner"]["39"] == "Ann"


def test_a_building_auction_is_of_a_house_unless_told(make_game):
    from terminal.bank.auction import BuildingAuction
    game = make_game("us", ("Ann", "Bob"))
    assert BuildingAuction(game).building == "house"
    assert game.start_building_auction().building == "house"
