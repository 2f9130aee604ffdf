"""The board a game is played on: the few questions of the Bank whose answer differs between boards.

:class:`Board` answers them for the classic board (RULES.md); the electronic Ultimate Banking board answers
them in its own file, :class:`terminal.bank.ultimate.UltimateBoard`, a subclass; :mod:`terminal.bank.boards`
chooses one from the edition (``board`` in its file), once for a game. Every other line of the Bank is the same
on every board.

The questions: which operations the board takes and which of them it computes its own way (:meth:`Board.handler`),
its modes, the rent and its reason, what a player in debt could still raise and how they are told to raise it,
when a bankruptcy is refused and what passes to the creditor, when the game is over, a property's level, its
Event cards, and the checks a table log makes of a game (docs/table-log.md).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from cards.editions import Edition, Square
from terminal.bank import rules
from terminal.bank.money import half
from terminal.bank.operations import CLASSIC_OPERATIONS, Operation
from terminal.bank.state import BANK, HOTEL, MODES, POT, State
from terminal.bank.tx import Tx, account_name
from terminal.bank.types import RULES_VERSION, Debt, GameConfig, Rent
from terminal.errors import PlayerInDebt, RuleViolation

__all__ = ["Board", "Handler", "CLASSIC"]

#: An operation's computation on a transaction (``handler(tx, record)``): terminal/bank/engine.py's, or a board's.
Handler = Callable[[Tx, Any], None]


class Board:
    """The classic board's answers (and the defaults of every board). Stateless: one object serves every game
    of the board."""

    #: The board's name, as editions give it (``board`` in ``cards/data/*.toml``).
    name: ClassVar[str] = "classic"
    #: The modes a game of this board may be played in, the default first (RULES.md, End of the game).
    modes: ClassVar[tuple[str, ...]] = MODES
    #: The operations a game of this board takes; any other is refused (:meth:`handler`).
    operations: ClassVar[frozenset[type[Operation]]] = CLASSIC_OPERATIONS
    #: The rules version of a table log of this board whose header names none (docs/table-log.md): on the classic
    #: board the version changes no rule, and such a game records the current one.
    unnamed_rules_version: ClassVar[int] = RULES_VERSION

    # -- operations ----------------------------------------------------------------------------------------
    def handler(self, kind: type[Operation], config: GameConfig | None = None) -> Handler | None:
        """How this board computes operation ``kind`` in a game of ``config`` (its rules version: None, the
        current): its own handler, or None for the engine's (the classic computation). Raises RuleViolation for an
        operation the board does not take."""
        if kind not in self.operations:
            raise RuleViolation(f"{kind.op.replace('_', ' ').capitalize()} is an operation of the Ultimate Banking "
                                f"board; this game is played on the classic board.", code="ultimate_only",
                                params={"op": kind.op})
        return None

    def after(self, tx: Tx) -> None:
        """After each operation: mark the game over when its mode says so (RULES.md, End of the game): in every
        mode when one player is left; at the first bankruptcy in ``sans_frontieres``, at the second in
        ``quick``."""
        self.end_if_over(tx, {"sans_frontieres": 1, "quick": 2}.get(tx.cfg.mode))

    @staticmethod
    def end_if_over(tx: Tx, bankruptcies: int | None) -> None:
        """Record the end of the game (``game.over``) once one player is left, or after ``bankruptcies``
        bankruptcies (None: only the last player left ends it)."""
        state = tx.s
        if state.game.get("over"):
            return
        if len(state.active_players()) <= 1 or (bankruptcies is not None and len(state.bankrupt_list) >= bankruptcies):
            tx.set("game", "over", True)

    # -- money questions -----------------------------------------------------------------------------------
    def rent_due(self, state: State, config: GameConfig, payer: str, deed: Square, dice: int | None = None,
                 card: str | None = None) -> Rent:
        """The rent ``payer`` owes on landing on ``deed`` now, to its owner, with the reason
        (:class:`~terminal.bank.types.Rent`). Refused (RuleViolation) on every board when nobody owns the deed
        (``rent_unowned``), the payer owns it (``rent_own_deed``) or it is mortgaged (``rent_mortgaged``);
        then the board's own rules (:meth:`rent_of`)."""
        owner = state.owner.get(deed.index)
        if owner is None:
            raise RuleViolation(f"No rent on {deed.name}: nobody owns it. The player may buy it or it is auctioned.",
                                code="rent_unowned", params={"square": deed.index, "deed": deed.name})
        if owner == payer:
            raise RuleViolation(f"No rent: {payer} owns {deed.name}.", code="rent_own_deed",
                                params={"square": deed.index, "deed": deed.name, "player": payer, "owner": owner})
        if state.mortgaged.get(deed.index):
            raise RuleViolation(f"No rent on {deed.name}: it is mortgaged.", code="rent_mortgaged",
                                params={"square": deed.index, "deed": deed.name, "owner": owner})
        return self.rent_of(state, config, owner, payer, deed, dice, card)

    def rent_of(self, state: State, config: GameConfig, owner: str, payer: str, deed: Square, dice: int | None,
                card: str | None) -> Rent:
        """The rent ``payer`` owes on ``deed``, held by ``owner`` and not mortgaged, on this board:
        :func:`terminal.bank.rules.rent_of` (the payer does not change it on the classic board)."""
        return rules.rent_of(state, config, owner, deed, dice, card)

    def raisable(self, state: State, config: GameConfig, player: str) -> int:
        """What ``player`` could still raise from the Bank: :func:`terminal.bank.rules.raisable`."""
        return rules.raisable(state, config, player)

    def in_debt(self, player: str, what: str, debts: Sequence[Debt]) -> PlayerInDebt:
        """The refusal of a voluntary payment (``what``) by a player in debt, saying how to raise the money:
        sell buildings, mortgage deeds, trade (RULES.md, Debts)."""
        return PlayerInDebt(
            f"{player} owes {owed_text(debts)}: {what} must wait. Raise the money by selling buildings, mortgaging "
            f"deeds or trading, or declare bankruptcy.",
            params={"player": player, "what": what, "debts": [d.to_json() for d in debts],
                    "owed": sum(d.amount for d in debts), "creditor_list": [d.creditor for d in debts],
                    "remedy_code": "part_debt_remedy"})

    # -- bankruptcy (terminal/bank/bankruptcy.py) --------------------------------------------------------------
    def check_bankruptcy(self, player: str, owed: int, raisable: int, lift_now: Sequence[int],
                         state: State | None = None, config: GameConfig | None = None) -> None:
        """Refused while the debts (``owed``) are no more than the player could still raise from the Bank
        (``bankruptcy_can_pay``; RULES.md, Debts and bankruptcy). ``lift_now`` is checked against the deeds
        received (terminal/bank/bankruptcy.py); ``state`` and ``config`` (the game now) are for boards whose
        refusal depends on what is held."""
        if owed <= raisable:
            raise RuleViolation(
                f"{player} owes {owed} but could still raise {raisable} by selling buildings and mortgaging "
                f"deeds: raise the money instead of going bankrupt.", code="bankruptcy_can_pay",
                params={"player": player, "owed": owed, "raisable": raisable})

    def hand_over(self, tx: Tx, player: str, creditor: str) -> None:
        """Everything of a bankrupt ``player`` to ``creditor`` (RULES.md, Debts and bankruptcy; End of the game,
        Quick game).

        - To a player: the buildings go back to the Bank at half price (in the quick game they stand and pass
          with their streets), the creditor gets all the cash, every deed and every Get Out of Jail Free card
          (the mortgaged deeds received cost 10 % at once: terminal/bank/bankruptcy.py).
        - To the Bank (or the Free Parking pot under the jackpot rule, for the cash): the buildings return to the
          Bank's supply, the deeds return to the Bank unmortgaged (to be auctioned), the Jail cards go back
          under their decks."""
        state = tx.s
        to_player = creditor not in (BANK, POT)
        deeds = state.deeds_of(player)
        hbh = tx.cfg.houses_before_hotel
        keep_buildings = to_player and tx.cfg.mode == "quick"
        houses_back = hotels_back = refund = 0
        for square in deeds:
            level = state.level.get(square, 0)
            if not level or keep_buildings:
                continue
            cost = tx.ed.squares[square].house_cost
            if level == HOTEL:
                hotels_back += 1
                refund += half(cost * (hbh + 1))
            else:
                houses_back += level
                refund += half(cost * level)
            tx.set("level", square, 0)
        tx.set("bank", "houses", state.bank["houses"] + houses_back)
        tx.set("bank", "hotels", state.bank["hotels"] + hotels_back)
        if to_player:
            tx.move(BANK, player, refund)  # sold to the Bank at half price; the cash goes to the creditor
        tx.move(player, creditor, state.cash[player])
        for square in deeds:
            if to_player:
                tx.set("owner", square, creditor)
            else:
                tx.set("owner", square, None)
                tx.set("mortgaged", square, False)
        for deck in state.jail_cards_of(player):
            tx.set("jail_card", deck, creditor if to_player else None)

    # -- the table's questions -----------------------------------------------------------------------------
    def level(self, state: State, square: int) -> int:
        """The level of ``square``: the houses on a street (5: a hotel); 0 for a deed the Bank holds."""
        return int(state.level.get(square, 0)) if square in state.owner else 0

    def event_operation(self, edition: Edition, number: int, player: str, rules_version: int = RULES_VERSION,
                        **targets: Any) -> Operation:
        """The operation of Event card ``number``: the classic board has no Event cards (RuleViolation)."""
        raise RuleViolation("The classic board has no Event cards: they are the Ultimate Banking board's.",
                            code="ultimate_only", params={"op": "event"})

    def event_targets(self, state: State, config: GameConfig, player: str, action: str) -> dict[str, list[Any]]:
        """Where an Event card would apply: the classic board has none (RuleViolation)."""
        raise RuleViolation("The classic board has no Event cards: they are the Ultimate Banking board's.",
                            code="ultimate_only", params={"op": "event"})

    def checks(self, state: State, config: GameConfig, common: Mapping[str, Any]) -> dict[str, Any]:
        """What a table log's ``expect`` can check of a game of this board (docs/table-log.md, Checks), in the
        order the export writes it: ``common`` (``cash``, ``owner``, ``debt``, ``bankrupt``, ``worth``,
        ``standings``, ``game_over``, and ``x_time`` for a time-limited game) with ``buildings``
        {"square": 0-4 or 5 = hotel}, ``mortgaged`` [squares], ``jail_cards`` {player: n} and ``bank``
        {"houses", "hotels", "pot"}."""
        deeds = [d.index for d in config.edition.deeds()]
        out = {
            "cash": common["cash"],
            "owner": common["owner"],
            "buildings": {str(i): state.level.get(i, 0) for i in deeds},
            "mortgaged": sorted(i for i, m in state.mortgaged.items() if m),
            "debt": common["debt"],
            "jail_cards": {p: len(state.jail_cards_of(p)) for p in state.players},
            "bankrupt": common["bankrupt"],
            "bank": {"houses": state.bank["houses"], "hotels": state.bank["hotels"], "pot": state.cash[POT]},
            "worth": common["worth"],
            "standings": common["standings"],
            "game_over": common["game_over"],
        }
        if "x_time" in common:
            out["x_time"] = common["x_time"]
        return out


#: The classic board.
CLASSIC = Board()


def owed_text(debts: Sequence[Debt]) -> str:
    """The debts of a refusal in words: "200 to Ann, 50 to the Bank"."""
    return ", ".join(f"{d.amount} to {account_name(d.creditor)}" for d in debts)
