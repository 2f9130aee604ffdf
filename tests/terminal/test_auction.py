"""Auctions (RULES.md, Title deeds; Buildings, housing shortage): bids, refusals, closing."""
from __future__ import annotations

import pytest

from terminal.errors import GameOver, InsufficientCash, InvalidAmount, PlayerInDebt, RuleViolation


def test_deed_auction_any_start_highest_wins_decliner_may_bid(make_game):
    game = make_game("fr", ("Ann", "Bob", "Cid"))
    auction = game.start_auction(39)  # Ann declined Rue de la Paix at 400
    auction.bid("Bob", 1)
    auction.bid("Ann", 250)  # the one who declined may bid
    with pytest.raises(RuleViolation, match="above the best bid, 250 by Ann"):
        auction.bid("Cid", 250)
    with pytest.raises(InvalidAmount):
        auction.bid("Cid", 0)
    auction.bid("Cid", 251)
    assert [(b.player, b.amount) for b in auction.bids] == [("Bob", 1), ("Ann", 250), ("Cid", 251)]
    assert game.cash("Cid") == 1500, "nothing is paid before the auction closes"
    receipt = auction.close()
    assert receipt.paid("Cid", "bank") == 251
    assert game.state()["owner"]["39"] == "Cid"
    with pytest.raises(RuleViolation, match="closed"):
        auction.bid("Ann", 300)


def test_auction_refusals(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Ann", 39)
    with pytest.raises(RuleViolation, match="belongs to Ann"):
        game.start_auction(39)
    with pytest.raises(RuleViolation, match="not a title deed"):
        game.start_auction(0)
    auction = game.start_auction(37)
    with pytest.raises(InsufficientCash):
        auction.bid("Bob", 1501)
    game.pay_bank("Bob", 1600)
    with pytest.raises(PlayerInDebt):
        auction.bid("Bob", 1)


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
    with pytest.raises(RuleViolation, match="printed house price, 150"):
        auction.bid("Bob", 21, 100)
    with pytest.raises(RuleViolation, match="This auction is for a house; Avenue de Breteuil"):
        auction.bid("Ann", 31, 250)  # Avenue de Breteuil needs a hotel next
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
    with pytest.raises(GameOver):
        game.start_auction(1)
