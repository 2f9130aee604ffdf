"""The Bank's current state of one game and the questions asked of it (worth, standings, rents owed).

:class:`State` is a plain, JSON-serialisable record. It is changed only by :mod:`terminal.bank.engine` (which
records every change so it can be undone) and stored as the ledger's projection. Accounts: each player's
name, ``"bank"`` (the Bank: it issues money, so its balance is minus the money in play) and ``"pot"`` (the
Free Parking jackpot). Sum of all accounts is always 0.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cards.editions import Edition
from terminal.bank.types import Debt

BANK = "bank"
POT = "pot"
HOTEL = 5
DECKS = ("chance", "community_chest")
#: The classic board's modes (RULES.md, End of the game); every board's: terminal.bank.boards.ALL_MODES.
MODES = ("classic", "sans_frontieres", "quick", "time_limit")


@dataclass
class State:
    """Everything the Bank knows at one moment.

    - ``cash``: account -> int balance (players, ``bank``, ``pot``).
    - ``owner``: square -> player name, for deeds a player holds (absent: the Bank holds it).
    - ``level``: square -> 0..houses_before_hotel houses, or 5 for a hotel (absent: 0). On the Ultimate board:
      an owned property's rent level, 1 to 5 (absent: the Bank holds it).
    - ``mortgaged``: square -> True for mortgaged deeds (absent: not mortgaged).
    - ``jail_card``: deck -> holder's name (absent while the card is in its deck).
    - ``debts``: outstanding debts oldest first (:class:`~terminal.bank.types.Debt`); stored, and recorded in
      the journal's changes, as the section ``debts`` with one key ``list``: ``{"list": [{"debtor", "creditor",
      "amount"}, ...]}``.
    - ``bankrupt``: names of bankrupt players in the order they went bankrupt.
    - ``bank``: ``{"houses": n, "hotels": n}`` left in the Bank.
    - ``game``: ``{"over": bool}``; on the Ultimate board also ``slump`` ({player: rent payments left at level
      1}, absent when none) and, once the game is over, ``standings`` (every player, best worth first).
    """

    players: tuple[str, ...]
    cash: dict[str, int] = field(default_factory=dict)
    owner: dict[int, str] = field(default_factory=dict)
    level: dict[int, int] = field(default_factory=dict)
    mortgaged: dict[int, bool] = field(default_factory=dict)
    jail_card: dict[str, str] = field(default_factory=dict)
    debts: tuple[Debt, ...] = ()
    bankrupt: dict[str, list[str]] = field(default_factory=dict)
    bank: dict[str, int] = field(default_factory=dict)
    game: dict[str, bool] = field(default_factory=dict)

    @classmethod
    def new(cls, edition: Edition, players: tuple[str, ...]) -> State:
        """The state before the setup entry: every account at 0, the Bank holding everything."""
        return cls(players=tuple(players), cash={**dict.fromkeys(players, 0), BANK: 0, POT: 0},
                   jail_card={}, debts=(), bankrupt={"list": []},
                   bank={"houses": edition.houses, "hotels": edition.hotels}, game={"over": False})

    def copy(self) -> State:
        """An independent copy (every section is a dict of plain values; debts are immutable records)."""
        return State(players=self.players, cash=dict(self.cash), owner=dict(self.owner), level=dict(self.level),
                     mortgaged=dict(self.mortgaged), jail_card=dict(self.jail_card), debts=self.debts,
                     bankrupt={"list": list(self.bankrupt["list"])}, bank=dict(self.bank), game=dict(self.game))

    # -- serialisation -------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (int keys become strings; in no particular order: it is stored and compared in its
        canonical spelling, keys sorted)."""
        return {
            "players": list(self.players), "cash": dict(self.cash),
            "owner": {str(k): v for k, v in self.owner.items()},
            "level": {str(k): v for k, v in self.level.items()},
            "mortgaged": {str(k): v for k, v in self.mortgaged.items()},
            "jail_card": dict(self.jail_card), "debts": {"list": [d.to_json() for d in self.debts]},
            "bankrupt": {"list": list(self.bankrupt["list"])}, "bank": dict(self.bank), "game": dict(self.game),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        return cls(players=tuple(data["players"]), cash=dict(data["cash"]),
                   owner={int(k): v for k, v in data["owner"].items()},
                   level={int(k): v for k, v in data["level"].items()},
                   mortgaged={int(k): v for k, v in data["mortgaged"].items()},
                   jail_card=dict(data["jail_card"]), debts=tuple(Debt.from_json(d) for d in data["debts"]["list"]),
                   bankrupt={"list": list(data["bankrupt"]["list"])}, bank=dict(data["bank"]),
                   game=dict(data["game"]))

    # -- simple questions ----------------------------------------------------------------------------------
    @property
    def bankrupt_list(self) -> list[str]:
        return self.bankrupt["list"]

    def active_players(self) -> list[str]:
        """Players not bankrupt, in play order."""
        out = set(self.bankrupt_list)
        return [p for p in self.players if p not in out]

    def debts_of(self, player: str) -> list[Debt]:
        """The player's outstanding debts, oldest first."""
        return [d for d in self.debts if d.debtor == player]

    def total_debt(self, player: str) -> int:
        return sum(d.amount for d in self.debts if d.debtor == player)

    def deeds_of(self, player: str) -> list[int]:
        """Squares of the deeds the player holds, in board order."""
        return sorted(s for s, o in self.owner.items() if o == player)

    def jail_cards_of(self, player: str) -> list[str]:
        """Decks whose Get Out of Jail Free card the player holds."""
        return [d for d in DECKS if self.jail_card.get(d) == player]

    def buildings_of(self, player: str, houses_before_hotel: int) -> tuple[int, int]:
        """(houses, hotels) standing on the player's streets."""
        houses = hotels = 0
        for square in self.deeds_of(player):
            level = self.level.get(square, 0)
            if level == HOTEL:
                hotels += 1
            else:
                houses += level
        return houses, hotels


def worth(state: State, edition: Edition, player: str, houses_before_hotel: int) -> int:
    """A player's worth (RULES.md, End of the game): cash + unmortgaged deeds at printed price + mortgaged
    deeds at half the printed price + houses at their cost + hotels at their cost including the houses given
    for them - outstanding debts. A bankrupt player is worth 0."""
    if player in state.bankrupt_list:
        return 0
    total = state.cash[player] - state.total_debt(player)
    for square in state.deeds_of(player):
        deed = edition.squares[square]
        total += deed.mortgage if state.mortgaged.get(square) else deed.price
        level = state.level.get(square, 0)
        total += deed.house_cost * ((houses_before_hotel + 1) if level == HOTEL else level)
    return total


def standings(state: State, edition: Edition, houses_before_hotel: int) -> list[str]:
    """Every player, best first: players still in the game by worth (ties: more cash, then play order), then
    bankrupt players, the latest bankrupt before the earlier ones (RULES.md, End of the game;
    spec/table-log.md, ``standings``)."""
    order = {p: i for i, p in enumerate(state.players)}
    active = sorted(state.active_players(),
                    key=lambda p: (-worth(state, edition, p, houses_before_hotel), -state.cash[p], order[p]))
    return active + list(reversed(state.bankrupt_list))
