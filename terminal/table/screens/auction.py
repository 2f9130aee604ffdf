"""An auction of a deed the Bank holds (a purchase declined, or a bankrupt player's deeds gone to the Bank):
each bidder taps their card and types a bid; OK (or "Close the auction") sells to the best bid, confirmed by
the winner (RULES.md, Auctions). The bids are the Bank's :class:`~terminal.bank.auction.DeedAuction`; only the
sale is recorded."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from terminal.bank.auction import DeedAuction
from terminal.bank.operations import Auction
from terminal.errors import GameError
from terminal.table.i18n import N_
from terminal.table.screens.base import Common, KeypadNext, PlayerTap, Screen, Table, Tapped, inputs
from terminal.table.view import Msg, Option, View


def start_auction(t: Table, square: int) -> None:
    """The auction of ``square`` (refused by the Bank when the deed is not its own)."""
    try:
        auction = t.bank.start_auction(square)
    except GameError as exc:
        return t.refuse_error(exc)
    t.go(AuctionScreen(auction=auction, square=square))


@dataclass
class AuctionScreen(Screen):
    """The auction of ``square``: the bids so far and the best one."""

    name: ClassVar[str] = "auction"
    takes: ClassVar[frozenset[str]] = inputs("player ok option")
    needs: ClassVar[str] = N_("part_card_bidder")
    goes_to: ClassVar[frozenset[str]] = inputs("keypad confirm")
    long: ClassVar[bool] = True

    auction: DeedAuction
    square: int

    def kept(self) -> Screen | None:
        """Kept by a timeout once a bid was made."""
        return self if self.auction.bids else None

    def on_card(self, t: Table, tapped: Tapped) -> None:
        """A bidder's card: the keypad for their bid."""
        if not isinstance(tapped, PlayerTap):
            return t.refuse_needs()
        t.accept()
        name = t.deed_name(self.square)
        who = tapped.player
        t.ask_number(Msg("keypad_bid", {"player": who}, f"{who}'s bid"), Bid(who), kind="bid", player=who,
                     purpose=Msg("auction_title", {"deed": name}, f"Auction: {name}"), square=self.square, back=self)

    def on_ok(self, t: Table) -> None:
        """The sale to the best bid, confirmed by the winner (no bid: the deed stays with the Bank)."""
        name = t.deed_name(self.square)
        best = self.auction.best
        if best is None:
            t.go_idle()
            return t.say(Msg("no_bid", {"deed": name}, f"No bid: {name} stays with the Bank."))
        t.ask_confirm(Auction(self.square, best.player, best.amount), Msg("purpose_auction", {"deed": name}, "Auction"),
                      confirm_by=(best.player,), back=self)

    def on_option(self, t: Table, option_id: str) -> None:
        if option_id == "close":
            self.on_ok(t)

    def view(self, t: Table, base: Common) -> View:
        auction = self.auction
        return View("auction", Msg("auction_title", {"deed": t.deed_name(self.square)}, "Auction"),
                    deed=t.board.deed_view(t, self.square),
                    options=(Option("close", Msg("opt_close_auction", {}, "Close the auction")),),
                    extra={"bids": [(b.player, b.amount) for b in auction.bids],
                           "best": (auction.best.player, auction.best.amount) if auction.best else None}, **base)


@dataclass(frozen=True)
class Bid(KeypadNext):
    """A bid of ``player`` in the auction the keypad was opened from (its ``back``)."""

    player: str

    def entered(self, t: Table, keypad: Any, value: int) -> None:
        screen = keypad.back
        if not isinstance(screen, AuctionScreen):
            raise AssertionError("a bid's keypad comes from an auction")
        t.go(screen)
        try:
            screen.auction.bid(self.player, value)
        except GameError as exc:
            return t.refuse_error(exc, money=("amount", "best", "cash"))
        t.say(Msg("bid_recorded", {"player": self.player, "amount": t.fmt(value)}, f"{self.player} bids {value}"))

    def extra(self, keypad: Any) -> dict[str, Any]:
        """The best bid so far, beside the keypad."""
        if not isinstance(keypad.back, AuctionScreen):
            return {}
        best = keypad.back.auction.best
        return {"best": (best.player, best.amount) if best else None}
