"""Auctions run by the Bank (RULES.md, Title deeds; Buildings, housing shortage).

Bids are held in memory while the auction runs; only the result is recorded, as one ``auction`` operation
(a deed) or one ``build`` with ``price`` (a housing-shortage auction). Closing with no bid records nothing:
the deed stays with the Bank. Every player still in the game may bid, the one who declined included.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from cards.editions import Edition
from terminal.bank import rules
from terminal.bank.board import Board
from terminal.bank.door import Receipt
from terminal.bank.money import check_amount
from terminal.bank.state import State
from terminal.bank.tx import Tx
from terminal.bank.types import GameConfig
from terminal.errors import GameOver, InsufficientCash, RuleViolation


class AuctionTable(Protocol):
    """What an auction needs of the game it runs in (:class:`terminal.Game` is one); declared here so that
    this module does not import the game's."""

    @property
    def raw_state(self) -> State: ...
    @property
    def board(self) -> Board: ...
    @property
    def config(self) -> GameConfig: ...
    @property
    def edition(self) -> Edition: ...
    def is_over(self) -> bool: ...
    def cash(self, player: str) -> int: ...
    def auction(self, square: int, winner: str, price: int) -> Receipt: ...
    def build(self, player: str, square: int, price: int | None = None) -> Receipt: ...


@dataclass(frozen=True)
class Bid:
    player: str
    amount: int
    square: int | None = None


class _Auction:
    def __init__(self, game: AuctionTable):
        if game.is_over():
            raise GameOver("The game is over: no more auctions.")
        self.game = game
        self.bids: list[Bid] = []
        self.closed = False

    @property
    def best(self) -> Bid | None:
        """The highest bid so far, or None."""
        return self.bids[-1] if self.bids else None

    def close(self) -> Receipt | None:
        """Close the auction: record the best bid (see ``_record``), or nothing when nobody bid. The result
        is checked by the rules again as it is recorded."""
        self.closed = True
        return self._record(self.best) if self.best else None

    def _record(self, best: Bid) -> Receipt:
        raise NotImplementedError

    def _check_bid(self, player: str, amount: int) -> None:
        if self.closed:
            raise RuleViolation("This auction is closed.", code="auction_closed")
        tx = Tx(self.game.raw_state, self.game.config, self.game.board)
        tx.player(player)
        check_amount(amount, self.game.edition, what="bid")
        tx.require_no_debt(player, "a bid")
        if self.best and amount <= self.best.amount:
            raise RuleViolation(f"A bid must be above the best bid, {self.best.amount} by {self.best.player}.",
                                code="bid_too_low",
                                params={"amount": amount, "best": self.best.amount, "leader": self.best.player})
        cash = self.game.cash(player)
        if amount > cash:
            raise InsufficientCash(f"{player} cannot bid {amount}: only {cash} in cash.",
                                   params={"player": player, "amount": amount, "cash": cash})


class DeedAuction(_Auction):
    """The auction of one unowned deed. Any starting price; a winning bid is at least 1; the highest bid
    wins and is paid to the Bank. Raises RuleViolation for a deed a player holds."""

    def __init__(self, game: AuctionTable, square: int):
        super().__init__(game)
        tx = Tx(game.raw_state, game.config, game.board)
        self.deed = tx.deed(square)
        if game.raw_state.owner.get(square):
            raise RuleViolation(f"{self.deed.name} belongs to {game.raw_state.owner[square]}: only the Bank's "
                                f"deeds are auctioned.", code="deed_owned",
                                params={"square": square, "deed": self.deed.name,
                                        "owner": game.raw_state.owner[square]})
        self.square = square

    def bid(self, player: str, amount: int) -> Bid:
        """Record a bid. Refused (InsufficientCash, RuleViolation) above the bidder's cash, not above the
        best bid, from a bankrupt or indebted player, or for a zero/absurd amount."""
        self._check_bid(player, amount)
        bid = Bid(player, amount)
        self.bids.append(bid)
        return bid

    def _record(self, best: Bid) -> Receipt:
        """Sell to the best bidder: one ``auction`` operation. No bid leaves the deed with the Bank."""
        return self.game.auction(self.square, best.player, best.amount)


class BuildingAuction(_Auction):
    """Housing shortage: one house (or hotel) auctioned when the Bank has fewer than players want. Each bid
    names the street the bidder builds on and starts at that street's printed house price; the winner builds
    there at the bid price."""

    def __init__(self, game: AuctionTable, building: str = "house"):
        super().__init__(game)
        if building not in ("house", "hotel"):
            raise RuleViolation(f"Only a house or a hotel can be auctioned, not {building!r}.",
                                code="auction_bad_building", params={"building": building})
        self.building = building

    def bid(self, player: str, square: int, amount: int) -> Bid:
        """Record a bid for building on ``square``. Refused where the player could not build that building
        there, below the printed house price, not above the best bid, or above the player's cash."""
        state = self.game.raw_state
        tx = Tx(state, self.game.config, self.game.board)
        deed = tx.own_deed(tx.player(player), square)
        _, level = rules.check_build(state, self.game.config, deed)
        wanted = "hotel" if level == 5 else "house"
        if wanted != self.building:
            raise RuleViolation(f"This auction is for a {self.building}; {deed.name} needs a {wanted} next.",
                                code="auction_wrong_building",
                                params={"building": self.building, "wanted": wanted, "square": deed.index,
                                        "deed": deed.name,
                                        "building_code": "part_hotel" if self.building == "hotel" else "part_house",
                                        "wanted_code": "part_hotel" if wanted == "hotel" else "part_house"})
        if amount < deed.house_cost:
            raise RuleViolation(f"Bids start at the printed house price, {deed.house_cost}.",
                                code="auction_below_house_price",
                                params={"amount": amount, "price": amount, "house_cost": deed.house_cost,
                                        "square": deed.index, "deed": deed.name})
        self._check_bid(player, amount)
        bid = Bid(player, amount, square)
        self.bids.append(bid)
        return bid

    def _record(self, best: Bid) -> Receipt:
        """The winner builds at the bid price: one ``build`` operation with ``price``. No bid, no build."""
        assert best.square is not None, "a building auction's bids name their street"
        return self.game.build(best.player, best.square, price=best.amount)
