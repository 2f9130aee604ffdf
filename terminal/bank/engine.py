"""The rules engine: computes one operation on a :class:`State` and says exactly what it changed.

:func:`apply` takes a state, the game's configuration and an operation (a record of
:mod:`terminal.bank.operations`) and returns ``(new_state, effects)``: the state after it and its
:class:`~terminal.bank.types.Effects`, the postings (money moved between accounts; they sum to zero by
construction) and the changes (section, key, value before, value after) of everything else. The state passed in
is never touched: a refused operation raises a :class:`~terminal.errors.GameError` and changes nothing.
:func:`replay_effects` and :func:`invert` apply and undo recorded effects.

The handlers here are the classic computations; the board the game is played on takes the operations it takes
and computes some its own way (:meth:`terminal.bank.board.Board.handler`), and says when the game is over.
Money rules follow RULES.md; where it is silent, the reading chosen is written beside the code.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple, TypeVar

from terminal.bank import rules
from terminal.bank.bankruptcy import declare_bankruptcy
from terminal.bank.board import Handler
from terminal.bank.boards import board_of
from terminal.bank.money import ten_percent
from terminal.bank.operations import (
    Auction,
    BankPays,
    Build,
    Buy,
    CollectFromEachPlayer,
    DeclareBankruptcy,
    EndGame,
    FreeParking,
    GainJailCard,
    JailFine,
    Mortgage,
    Operation,
    PassGo,
    PayBank,
    PayEachPlayer,
    PayRent,
    PayTax,
    PlayTime,
    Repairs,
    SellBuilding,
    TimeLimit,
    TimeUp,
    Trade,
    TradeSide,
    Transfer,
    Undo,
    Unmortgage,
    UseJailCard,
    parse_operation,
)
from terminal.bank.state import BANK, DECKS, HOTEL, POT, State
from terminal.bank.tx import Tx, account_name, copy_value
from terminal.bank.types import Change, Debt, Effects, GameConfig, Posting
from terminal.errors import GameOver, InsufficientCash, MalformedOperation, RuleViolation, UnknownName

__all__ = ["apply", "invert", "replay_effects", "setup_effects", "time_limit",
           "time_is_up", "undo_effects"]

_Op = TypeVar("_Op", bound=Operation)

#: The handler of each operation (filled by :func:`_handles`; ``undo`` is the ledger's).
_HANDLERS: dict[type[Operation], Handler] = {}


def _handles(kind: type[_Op]) -> Callable[[Callable[[Tx, _Op], None]], Callable[[Tx, _Op], None]]:
    """Register the decorated function as the handler of the operation ``kind``."""
    def register(handler: Callable[[Tx, _Op], None]) -> Callable[[Tx, _Op], None]:
        _HANDLERS[kind] = handler
        return handler
    return register


@_handles(PassGo)
def _pass_go(tx: Tx, op: PassGo) -> None:
    """GO salary (RULES.md, Money in and out)."""
    player = tx.player(op.player)
    tx.move(BANK, player, tx.ed.go_salary)
    tx.settle()


@_handles(Buy)
def _buy(tx: Tx, op: Buy) -> None:
    """Buy an unowned deed at its printed price (voluntary)."""
    player = tx.player(op.player)
    deed = tx.deed(op.square)
    holder = tx.s.owner.get(deed.index)
    if holder:
        raise RuleViolation(f"{deed.name} already belongs to {holder}; it can only change hands by a trade.",
                            code="deed_owned", params={"square": deed.index, "deed": deed.name, "owner": holder})
    tx.pay_voluntary(player, BANK, deed.price, f"buying {deed.name}")
    tx.set("owner", deed.index, player)


@_handles(Auction)
def _auction(tx: Tx, op: Auction) -> None:
    """The Bank sells an unowned deed to the highest bidder (RULES.md, Title deeds: any starting price, a
    winning bid is at least 1, paid to the Bank; voluntary)."""
    winner = tx.player(op.winner, "winner")
    deed = tx.deed(op.square)
    price = tx.amount(op.price, "winning bid")
    holder = tx.s.owner.get(deed.index)
    if holder:
        raise RuleViolation(f"{deed.name} belongs to {holder}: only the Bank's deeds are auctioned.",
                            code="deed_owned", params={"square": deed.index, "deed": deed.name, "owner": holder})
    tx.pay_voluntary(winner, BANK, price, f"the auction of {deed.name}")
    tx.set("owner", deed.index, winner)


@_handles(PayRent)
def _pay_rent(tx: Tx, op: PayRent) -> None:
    """Pay the owner's rent (RULES.md, Title deeds), with the two card variants."""
    payer = tx.player(op.player)
    deed = tx.deed(op.square)
    rent = tx.effects.rent = tx.board.rent_due(tx.s, tx.cfg, payer, deed, op.dice, op.card)
    tx.charge(payer, rent.owner, rent.amount)


@_handles(PayTax)
def _pay_tax(tx: Tx, op: PayTax) -> None:
    """Income tax or luxury tax (:func:`terminal.bank.rules.tax_due`); the 10 % choice when ``income_tax_percent``
    is on."""
    player = tx.player(op.player)
    amount = rules.tax_due(tx.s, tx.cfg, player, op.square, op.choice)
    tx.charge(player, tx.bank_creditor(), amount)


@_handles(BankPays)
def _bank_pays(tx: Tx, op: BankPays) -> None:
    player = tx.player(op.player)
    tx.move(BANK, player, tx.amount(op.amount))
    tx.settle()


@_handles(PayBank)
def _pay_bank(tx: Tx, op: PayBank) -> None:
    player = tx.player(op.player)
    tx.charge(player, tx.bank_creditor(), tx.amount(op.amount))


@_handles(PayEachPlayer)
def _pay_each_player(tx: Tx, op: PayEachPlayer) -> None:
    """Pay every other player still in the game, one by one in play order (RULES.md, Debts)."""
    player = tx.player(op.player)
    amount = tx.amount(op.amount)
    for other in tx.s.active_players():
        if other != player:
            tx.charge(player, other, amount)


@_handles(CollectFromEachPlayer)
def _collect_from_each_player(tx: Tx, op: CollectFromEachPlayer) -> None:
    player = tx.player(op.player)
    amount = tx.amount(op.amount)
    for other in tx.s.active_players():
        if other != player:
            tx.charge(other, player, amount)


@_handles(Repairs)
def _repairs(tx: Tx, op: Repairs) -> None:
    """Pay the Bank per house and per hotel owned; a hotel counts only as a hotel."""
    player = tx.player(op.player)
    per_house = tx.amount(op.per_house, "price per house", allow_zero=True)
    per_hotel = tx.amount(op.per_hotel, "price per hotel", allow_zero=True)
    houses, hotels = tx.s.buildings_of(player, tx.cfg.houses_before_hotel)
    tx.charge(player, tx.bank_creditor(), houses * per_house + hotels * per_hotel)


@_handles(JailFine)
def _jail_fine(tx: Tx, op: JailFine) -> None:
    player = tx.player(op.player)
    tx.charge(player, tx.bank_creditor(), tx.ed.jail_fine)


def _deck(value: str) -> str:
    if value not in DECKS:
        raise UnknownName(f"Unknown deck {value!r}: 'chance' or 'community_chest'.", code="unknown_deck",
                          params={"deck": value})
    return value


@_handles(GainJailCard)
def _gain_jail_card(tx: Tx, op: GainJailCard) -> None:
    """Draw the deck's Get Out of Jail Free card (each deck holds one)."""
    player = tx.player(op.player)
    deck = _deck(op.deck)
    holder = tx.s.jail_card.get(deck)
    if holder:
        raise RuleViolation(f"The {deck.replace('_', ' ')} Get Out of Jail Free card is held by {holder}; "
                            f"each deck holds only one.", code="jail_card_taken",
                            params={"deck": deck, "holder": holder,
                                    "deck_code": {"chance": "part_deck_chance",
                                                  "community_chest": "part_deck_community_chest"}[deck]})
    tx.set("jail_card", deck, player)


@_handles(UseJailCard)
def _use_jail_card(tx: Tx, op: UseJailCard) -> None:
    player = tx.player(op.player)
    held = tx.s.jail_cards_of(player)
    deck = op.deck
    if deck is not None:
        _deck(deck)
        if deck not in held:
            raise RuleViolation(f"{player} has no {deck.replace('_', ' ')} Get Out of Jail Free card.",
                                code="no_jail_card", params={"player": player, "deck": deck})
    elif not held:
        raise RuleViolation(f"{player} has no Get Out of Jail Free card: pay the fine instead.",
                            code="no_jail_card", params={"player": player})
    # Our reading: with no deck named, the Chance card is used before the Community Chest one (the spec
    # leaves it open; the screen always asks which).
    tx.set("jail_card", deck or held[0], None)


@_handles(FreeParking)
def _free_parking(tx: Tx, op: FreeParking) -> None:
    """Nothing happens (official rule); under the jackpot house rule the player takes the whole pot."""
    player = tx.player(op.player)
    if tx.cfg.jackpot:
        tx.move(POT, player, tx.s.cash[POT])
        tx.settle()


@_handles(Build)
def _build(tx: Tx, op: Build) -> None:
    """The next building on a street (RULES.md, Buildings)."""
    player = tx.player(op.player)
    deed = tx.own_deed(player, op.square)
    price = op.price
    cost, next_level = rules.check_build(tx.s, tx.cfg, deed)
    if price is not None:
        # A housing-shortage auction's result (RULES.md, Buildings). Our reading: the terminal cannot know how
        # many players wanted the last houses, so it accepts any price from the printed house price up.
        price = tx.amount(price, "auction price")
        if price < deed.house_cost:
            raise RuleViolation(
                f"A housing-shortage auction starts at the printed house price {deed.house_cost}; "
                f"{price} is below it.", code="auction_below_house_price",
                params={"price": price, "house_cost": deed.house_cost, "square": deed.index, "deed": deed.name})
        cost = price
    what = "a hotel" if next_level == HOTEL else "a house"
    tx.pay_voluntary(player, BANK, cost, f"{what} on {deed.name}")
    bank = dict(tx.s.bank)
    if next_level == HOTEL:
        bank["hotels"] -= 1
        bank["houses"] += tx.cfg.houses_before_hotel
    else:
        bank["houses"] -= 1
    tx.set("bank", "houses", bank["houses"])
    tx.set("bank", "hotels", bank["hotels"])
    tx.set("level", deed.index, next_level)


@_handles(SellBuilding)
def _sell_building(tx: Tx, op: SellBuilding) -> None:
    """Sell one step back to the Bank at half cost, or the whole colour group (RULES.md, Buildings)."""
    player = tx.player(op.player)
    deed = tx.own_deed(player, op.square)
    whole = bool(op.whole)
    plan = rules.plan_sale(tx.s, tx.cfg, deed, whole)
    for square, new_level in plan.levels.items():
        tx.set("level", square, new_level)
    tx.set("bank", "houses", tx.s.bank["houses"] + plan.houses_back)
    tx.set("bank", "hotels", tx.s.bank["hotels"] + plan.hotels_back)
    tx.move(BANK, player, plan.refund)
    tx.settle()


@_handles(Mortgage)
def _mortgage(tx: Tx, op: Mortgage) -> None:
    """Mortgage a deed whose colour group has no buildings; the Bank pays the mortgage value."""
    player = tx.player(op.player)
    deed = tx.own_deed(player, op.square)
    rules.check_mortgage(tx.s, tx.cfg, deed)
    tx.set("mortgaged", deed.index, True)
    tx.move(BANK, player, deed.mortgage)
    tx.settle()


@_handles(Unmortgage)
def _unmortgage(tx: Tx, op: Unmortgage) -> None:
    """Lift a mortgage: mortgage value + 10 % interest, rounded per ``interest_rounding`` (voluntary)."""
    player = tx.player(op.player)
    deed = tx.own_deed(player, op.square)
    if not tx.s.mortgaged.get(deed.index):
        raise RuleViolation(f"{deed.name} is not mortgaged.", code="not_mortgaged",
                            params={"square": deed.index, "deed": deed.name})
    cost = deed.mortgage + ten_percent(deed.mortgage, tx.cfg.rounding)
    tx.pay_voluntary(player, BANK, cost, f"lifting the mortgage on {deed.name}")
    tx.set("mortgaged", deed.index, False)


@_handles(Transfer)
def _transfer(tx: Tx, op: Transfer) -> None:
    """A voluntary payment between two players, or with the Bank (``"bank"``)."""
    payer, payee = op.payer, op.payee
    if payer != BANK:
        tx.player(payer)
    if payee != BANK:
        tx.player(payee)
    if payer == payee:
        raise RuleViolation(f"{account_name(payer)} cannot pay themselves.", code="pay_self",
                            params={"player": payer})
    amount = tx.amount(op.amount)
    tx.pay_voluntary(payer, payee, amount, f"a payment of {amount} to {account_name(payee)}")


@_handles(Trade)
def _trade(tx: Tx, op: Trade) -> None:
    """A trade between two players: cash, deeds of unbuilt colour groups and Jail cards each way; a received
    mortgaged deed costs 10 % interest at once, and ``lift_now`` lifts it at once for the mortgage value
    (RULES.md, Title deeds, Trading; Mortgages)."""
    a, b = tx.player(op.a), tx.player(op.b)
    if a == b:
        raise RuleViolation(f"{a} cannot trade with themselves.", code="trade_self", params={"player": a})
    sides = [(a, b, _trade_side(tx, op.a_gives, "a_gives")), (b, a, _trade_side(tx, op.b_gives, "b_gives"))]
    if not any(side.cash or side.squares or side.jail_cards for _, _, side in sides):
        raise RuleViolation("This trade exchanges nothing.", code="trade_empty")
    lift_now = list(op.lift_now or [])
    received_mortgaged: dict[int, str] = {}
    for giver, taker, side in sides:
        for square in side.squares:
            deed = tx.own_deed(giver, square)
            rules.check_tradable(tx.s, tx.cfg, deed)
            if tx.s.mortgaged.get(square):
                received_mortgaged[square] = taker
        held = tx.s.jail_cards_of(giver)
        if side.jail_cards > len(held):
            raise RuleViolation(f"{giver} holds {len(held)} Get Out of Jail Free card(s), not {side.jail_cards}.",
                                code="no_jail_card", params={"player": giver, "held": len(held)})
    for square in lift_now:
        if square not in received_mortgaged:
            raise RuleViolation(f"lift_now names square {square}, which is not a mortgaged deed received in this "
                                f"trade.", code="lift_now_not_received",
                                params={"square": square, "deed": rules.square_name(tx.ed, square)})
    # A trade is one exchange: what each side gives is decided on the holdings before it (RULES.md, Title
    # deeds, Trading), so naming the players the other way round changes nothing. Cash given must be in hand
    # before the trade (it is a voluntary payment: nobody pays out of what the same trade brings them), and a
    # player in debt gives no cash at all (RULES.md, Debts: what a debtor receives goes to the creditors).
    # RULES.md, Debts: a creditor may take deeds from its debtor "at an agreed value ... which goes straight
    # back against the debt": the part of the cash the receiver owes the giver is set off against that debt
    # and needs no cash in hand.
    cards = {giver: tx.s.jail_cards_of(giver)[:side.jail_cards] for giver, _, side in sides}
    debts = list(tx.s.debts)
    offsets: dict[str, int] = {}
    for giver, taker, side in sides:
        offset = 0
        for i, debt in enumerate(debts):
            if debt.debtor == taker and debt.creditor == giver and offset < side.cash:
                part = min(debt.amount, side.cash - offset)
                debts[i] = replace(debt, amount=debt.amount - part)
                offset += part
        offsets[giver] = offset
        paid = side.cash - offset
        if paid:
            tx.require_no_debt(giver, "giving cash in a trade")
            if tx.s.cash[giver] < paid:
                raise InsufficientCash(f"{giver} cannot give {paid} in this trade: only {tx.s.cash[giver]} in cash.",
                                       params={"player": giver, "amount": paid, "cash": tx.s.cash[giver]})
    for giver, taker, side in sides:
        for square in side.squares:
            tx.set("owner", square, taker)
        for deck in cards[giver]:
            tx.set("jail_card", deck, taker)
    if any(offsets.values()):
        tx.set_debts(debts)
    for giver, taker, side in sides:
        if offsets[giver]:
            tx.move(giver, taker, offsets[giver])
            tx.move(taker, giver, offsets[giver])
        tx.move(giver, taker, side.cash - offsets[giver])
    tx.settle()
    for square in sorted(received_mortgaged):
        tx.receive_mortgaged(received_mortgaged[square], square, square in lift_now)


class _Side(NamedTuple):
    """One side of a trade, checked, with what it leaves out read as nothing."""

    cash: int
    squares: tuple[int, ...]
    jail_cards: int


def _trade_side(tx: Tx, side: TradeSide, name: str) -> _Side:
    cash = side.cash or 0
    if cash:
        tx.amount(cash, "cash in a trade")
    squares = side.squares or ()
    if len(set(squares)) != len(squares):
        raise RuleViolation(f"{name} names a deed twice.", code="trade_duplicate")
    jail_cards = side.jail_cards or 0
    if jail_cards < 0:
        raise RuleViolation("A trade cannot give a negative number of Jail cards.", code="trade_negative")
    return _Side(cash, squares, jail_cards)


@_handles(DeclareBankruptcy)
def _declare_bankruptcy(tx: Tx, op: DeclareBankruptcy) -> None:
    """Bankruptcy to the creditor of the oldest debt (RULES.md, Debts and bankruptcy)."""
    declare_bankruptcy(tx, tx.player(op.player), list(op.lift_now or []))


@_handles(EndGame)
def _end_game(tx: Tx, op: EndGame) -> None:
    """End a time-limited game now (RULES.md, End of the game, Time limit)."""
    if tx.cfg.mode != "time_limit":
        raise RuleViolation(f"Only a time-limited game ends on request; this one is {tx.cfg.mode}.",
                            code="end_game_not_time_limit", params={"mode": tx.cfg.mode})
    tx.set("game", "over", True)


# -- play time (docs/table-log.md, Time limit) -----------------------------------------------------------------
# The state's ``game`` section of a time-limited game holds ``played_s`` (seconds of play recorded so far),
# ``limit_s`` (the limit set by ``x_time_limit``, for a game without an agreed length) and ``lifted`` (True once
# an end at the limit was undone: from then on the banker ends the game by hand). Absent keys: 0, none, False.

def time_limit(state: State, config: GameConfig) -> int | None:
    """The seconds of play after which a time-limited game ends, or None (no limit, or the limit was lifted)."""
    if config.mode != "time_limit" or state.game.get("lifted"):
        return None
    limit = state.game.get("limit_s", config.time_limit_s)
    return None if limit is None else int(limit)


def time_is_up(state: State, config: GameConfig) -> bool:
    """Whether a running time-limited game has played its time (the terminal then records ``x_time_up``)."""
    limit = time_limit(state, config)
    return limit is not None and not state.game.get("over") and int(state.game.get("played_s", 0)) >= limit


def _time_limited(tx: Tx, name: str) -> None:
    if tx.cfg.mode != "time_limit":
        raise RuleViolation(f"Only a time-limited game counts play time ({name}); this one is {tx.cfg.mode}.",
                            code="play_time_not_time_limit", params={"mode": tx.cfg.mode})


@_handles(PlayTime)
def _play_time(tx: Tx, op: PlayTime) -> None:
    """Seconds of play went by (counted by the terminal on its monotonic clock)."""
    _time_limited(tx, op.op)
    if op.seconds < 1:
        raise RuleViolation(f"Play time goes by in whole seconds, at least 1, not {op.seconds}.",
                            code="bad_play_time", params={"seconds": op.seconds})
    tx.set("game", "played_s", int(tx.s.game.get("played_s", 0)) + op.seconds)


@_handles(TimeLimit)
def _time_limit(tx: Tx, op: TimeLimit) -> None:
    """Set the limit of a time-limited game that has none: ``seconds`` more of play from now."""
    _time_limited(tx, op.op)
    if op.seconds < 0:
        raise RuleViolation(f"The time left cannot be negative ({op.seconds} s).", code="bad_play_time",
                            params={"seconds": op.seconds})
    if tx.cfg.time_limit_s is not None or "limit_s" in tx.s.game:
        raise RuleViolation("This game already has its time limit; it is set once.", code="time_limit_set")
    tx.set("game", "limit_s", int(tx.s.game.get("played_s", 0)) + op.seconds)


@_handles(TimeUp)
def _time_up(tx: Tx, op: TimeUp) -> None:
    """The agreed time is up: the game ends."""
    _time_limited(tx, op.op)
    if not time_is_up(tx.s, tx.cfg):
        raise RuleViolation("The agreed time is not up yet: the banker ends the game by hand (End the game).",
                            code="time_not_up")
    tx.set("game", "over", True)


def undo_effects(state: State, config: GameConfig, target_op: Mapping[str, Any], target: Effects) -> Effects:
    """The effects of undoing a journal entry (its operation ``target_op``, its effects ``target``): their
    inverse; undoing the end of a time-limited game (``end_game`` or ``x_time_up``) once its time has been
    played also lifts the limit, so the game goes on until the banker ends it by hand."""
    effects = invert(target)
    if target_op.get("op") in (EndGame.op, TimeUp.op) and config.mode == "time_limit":
        limit = time_limit(state, config)
        if limit is not None and int(state.game.get("played_s", 0)) >= limit:
            effects.changes.append(Change("game", "lifted", None, True))
    return effects


def apply(state: State, config: GameConfig, op: Operation | Mapping[str, Any]) -> tuple[State, Effects]:
    """Compute one operation (not ``undo``: the ledger handles it) on a copy of ``state``.

    ``op``: a record of :mod:`terminal.bank.operations`, or a table-log line (a journal entry read back, say),
    parsed first. Returns ``(new_state, effects)``. Raises :class:`MalformedOperation` for a badly shaped
    operation and a :class:`~terminal.errors.GameError` for a refusal; ``state`` is never modified.
    """
    op = parse_operation(op)
    if isinstance(op, Undo):
        raise MalformedOperation("undo is handled by the ledger, not the engine.", code="undo_not_here")
    if state.game.get("over") and not isinstance(op, TimeLimit):
        raise GameOver("The game is over: only undo is possible now.")
    if time_is_up(state, config) and not isinstance(op, (PlayTime, TimeUp, EndGame)):
        raise GameOver("The agreed time is up: the game ends now; undo its end to play on.", code="time_up")
    board = board_of(config.edition)
    handler = board.handler(type(op), config) or _HANDLERS[type(op)]  # raises for an operation the board does not take
    tx = Tx(state, config, board)
    handler(tx, op)
    board.after(tx)  # the end of the game, as the board says
    return tx.s, tx.effects


def replay_effects(state: State, effects: Effects, inverse: bool = False) -> State:
    """Apply recorded effects to a copy of ``state`` (their inverse with ``inverse=True``)."""
    new = state.copy()
    for payer, payee, amount in effects.postings:
        if inverse:  # the money goes back
            payer, payee = payee, payer
        new.cash[payer] -= amount
        new.cash[payee] += amount
    changes = effects.changes
    for section, key, before, after in (reversed(changes) if inverse else changes):
        value = before if inverse else after
        if section == "debts":  # the one key "list": every outstanding debt, in their stored form
            new.debts = tuple(Debt.from_json(d) for d in value or ())
            continue
        table = getattr(new, section)
        if section in ("owner", "level", "mortgaged"):
            key = int(key)
        if value is None or (section == "level" and value == 0) or (section == "mortgaged" and not value):
            table.pop(key, None)
        else:
            table[key] = copy_value(value)
    return new


def invert(effects: Effects) -> Effects:
    """The compensating effects that undo ``effects`` exactly (an undo entry's effects)."""
    return Effects(postings=[Posting(payee, payer, amount) for payer, payee, amount in reversed(effects.postings)],
                   changes=[Change(section, key, after, before)
                            for section, key, before, after in reversed(effects.changes)])


def setup_effects(state: State, config: GameConfig, dealt: Mapping[str, Iterable[int]] | None,
                  order: Sequence[str] | None = None) -> tuple[State, Effects]:
    """The setup entry: the Bank pays every player the starting cash; in the quick and time-limited games
    each player pays for the deeds dealt to them (RULES.md, End of the game).

    The players pay for their deeds in seat order (``state.players``), whatever the order of ``dealt``'s keys: a
    game's header stores the deal as a JSON object, whose keys are sorted, so the order it was given in is not
    kept. ``order``: the players' order of payment as a file recorded it (the audit of an older file,
    whose players paid in the order the deal was given: see :func:`terminal.bank.audit.deal_order`);
    a name of ``dealt`` it leaves out pays after them, in seat order."""
    tx = Tx(state, config, board_of(config.edition))
    for player in state.players:
        tx.move(BANK, player, config.edition.starting_cash)
    deal = dict(dealt or {})
    first = [p for p in (order or ()) if p in deal]
    seats = [p for p in state.players if p in deal and p not in first]
    for player in [*first, *seats, *(p for p in deal if p not in first and p not in seats)]:
        squares = deal[player]
        tx.player(player)
        for square in squares:
            deed = tx.deed(square)
            if tx.s.owner.get(square):
                raise RuleViolation(f"{deed.name} is dealt twice.", code="dealt_twice",
                                    params={"square": square, "deed": deed.name})
            tx.move(player, BANK, deed.price)
            tx.set("owner", square, player)
    return tx.s, tx.effects
