"""The rules engine: applies one operation to a :class:`State` and says exactly what it changed.

:func:`apply` takes a state and an operation (a dict shaped like a table-log line, see
``docs/table-log.md``) and returns :class:`Effects`: the postings (money moved between accounts; they sum to
zero by construction) and the changes (section, key, value before, value after) of everything else. The state
passed in is never touched: a refused operation raises a :class:`~terminal.errors.GameError` and changes
nothing. :func:`replay_effects` and :func:`invert` apply and undo recorded effects.

Money rules follow RULES.md; where it is silent, the reading chosen is written beside the code.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from terminal.bank import rules
from terminal.bank.bankruptcy import declare_bankruptcy
from terminal.bank.money import ten_percent
from terminal.bank.state import BANK, DECKS, HOTEL, POT, State
from terminal.bank.tx import Tx, _account_name, _copy
from terminal.bank.types import Effects, GameConfig
from terminal.errors import (
    GameOver,
    InsufficientCash,
    MalformedOperation,
    NothingToUndo,
    RuleViolation,
    UnknownName,
)

__all__ = ["Effects", "GameConfig", "Tx", "apply", "check_shape", "invert", "replay_effects", "setup_effects"]


def _pass_go(tx: Tx, op: dict) -> None:
    """GO salary (RULES.md, Money in and out)."""
    player = tx.player(op["player"])
    tx.move(BANK, player, tx.ed.go_salary)
    tx.settle()


def _buy(tx: Tx, op: dict) -> None:
    """Buy an unowned deed at its printed price (voluntary)."""
    player = tx.player(op["player"])
    deed = tx.deed(op["square"])
    holder = tx.s.owner.get(deed.index)
    if holder:
        raise RuleViolation(f"{deed.name} already belongs to {holder}; it can only change hands by a trade.",
                            code="deed_owned", params={"square": deed.index, "deed": deed.name, "owner": holder})
    tx.pay_voluntary(player, BANK, deed.price, f"buying {deed.name}")
    tx.set("owner", deed.index, player)


def _auction(tx: Tx, op: dict) -> None:
    """The Bank sells an unowned deed to the highest bidder (RULES.md, Title deeds: any starting price, a
    winning bid is at least 1, paid to the Bank; voluntary)."""
    winner = tx.player(op["winner"], "winner")
    deed = tx.deed(op["square"])
    price = tx.amount(op["price"], "winning bid")
    holder = tx.s.owner.get(deed.index)
    if holder:
        raise RuleViolation(f"{deed.name} belongs to {holder}: only the Bank's deeds are auctioned.",
                            code="deed_owned", params={"square": deed.index, "deed": deed.name, "owner": holder})
    tx.pay_voluntary(winner, BANK, price, f"the auction of {deed.name}")
    tx.set("owner", deed.index, winner)


def _pay_rent(tx: Tx, op: dict) -> None:
    """Pay the owner's rent (RULES.md, Title deeds), with the two card variants."""
    payer = tx.player(op["player"])
    deed = tx.deed(op["square"])
    amount, owner = rules.rent_due(tx.s, tx.cfg, payer, deed, op.get("dice"), op.get("card"))
    tx.charge(payer, owner, amount)


def _pay_tax(tx: Tx, op: dict) -> None:
    """Income tax (square 4) or luxury tax (square 38); the 10 % choice when ``income_tax_percent`` is on."""
    player = tx.player(op["player"])
    amount = rules.tax_due(tx.s, tx.cfg, player, op["square"], op.get("choice"))
    tx.charge(player, tx.bank_creditor(), amount)


def _bank_pays(tx: Tx, op: dict) -> None:
    player = tx.player(op["player"])
    tx.move(BANK, player, tx.amount(op["amount"]))
    tx.settle()


def _pay_bank(tx: Tx, op: dict) -> None:
    player = tx.player(op["player"])
    tx.charge(player, tx.bank_creditor(), tx.amount(op["amount"]))


def _pay_each_player(tx: Tx, op: dict) -> None:
    """Pay every other player still in the game, one by one in play order (RULES.md, Debts)."""
    player = tx.player(op["player"])
    amount = tx.amount(op["amount"])
    for other in tx.s.active_players():
        if other != player:
            tx.charge(player, other, amount)


def _collect_from_each_player(tx: Tx, op: dict) -> None:
    player = tx.player(op["player"])
    amount = tx.amount(op["amount"])
    for other in tx.s.active_players():
        if other != player:
            tx.charge(other, player, amount)


def _repairs(tx: Tx, op: dict) -> None:
    """Pay the Bank per house and per hotel owned; a hotel counts only as a hotel."""
    player = tx.player(op["player"])
    per_house = tx.amount(op["per_house"], "price per house", allow_zero=True)
    per_hotel = tx.amount(op["per_hotel"], "price per hotel", allow_zero=True)
    houses, hotels = tx.s.buildings_of(player, tx.cfg.houses_before_hotel)
    tx.charge(player, tx.bank_creditor(), houses * per_house + hotels * per_hotel)


def _jail_fine(tx: Tx, op: dict) -> None:
    player = tx.player(op["player"])
    tx.charge(player, tx.bank_creditor(), tx.ed.jail_fine)


def _deck(value: Any) -> str:
    if value not in DECKS:
        raise UnknownName(f"Unknown deck {value!r}: 'chance' or 'community_chest'.", code="unknown_deck",
                          params={"deck": value})
    return value


def _gain_jail_card(tx: Tx, op: dict) -> None:
    """Draw the deck's Get Out of Jail Free card (each deck holds one)."""
    player = tx.player(op["player"])
    deck = _deck(op["deck"])
    holder = tx.s.jail_card.get(deck)
    if holder:
        raise RuleViolation(f"The {deck.replace('_', ' ')} Get Out of Jail Free card is held by {holder}; "
                            f"each deck holds only one.", code="jail_card_taken",
                            params={"deck": deck, "holder": holder,
                                    "deck_code": {"chance": "part_deck_chance",
                                                  "community_chest": "part_deck_community_chest"}[deck]})
    tx.set("jail_card", deck, player)


def _use_jail_card(tx: Tx, op: dict) -> None:
    player = tx.player(op["player"])
    held = tx.s.jail_cards_of(player)
    deck = op.get("deck")
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


def _free_parking(tx: Tx, op: dict) -> None:
    """Nothing happens (official rule); under the jackpot house rule the player takes the whole pot."""
    player = tx.player(op["player"])
    if tx.cfg.jackpot:
        tx.move(POT, player, tx.s.cash[POT])
        tx.settle()


def _build(tx: Tx, op: dict) -> None:
    """The next building on a street (RULES.md, Buildings)."""
    player = tx.player(op["player"])
    deed = tx.own_deed(player, op["square"])
    price = op.get("price")
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


def _sell_building(tx: Tx, op: dict) -> None:
    """Sell one step back to the Bank at half cost, or the whole colour group (RULES.md, Buildings)."""
    player = tx.player(op["player"])
    deed = tx.own_deed(player, op["square"])
    whole = bool(op.get("whole", False))
    plan = rules.plan_sale(tx.s, tx.cfg, deed, whole)
    for square, new_level in plan.levels.items():
        tx.set("level", square, new_level)
    tx.set("bank", "houses", tx.s.bank["houses"] + plan.houses_back)
    tx.set("bank", "hotels", tx.s.bank["hotels"] + plan.hotels_back)
    tx.move(BANK, player, plan.refund)
    tx.settle()


def _mortgage(tx: Tx, op: dict) -> None:
    """Mortgage a deed whose colour group has no buildings; the Bank pays the mortgage value."""
    player = tx.player(op["player"])
    deed = tx.own_deed(player, op["square"])
    rules.check_mortgage(tx.s, tx.cfg, deed)
    tx.set("mortgaged", deed.index, True)
    tx.move(BANK, player, deed.mortgage)
    tx.settle()


def _unmortgage(tx: Tx, op: dict) -> None:
    """Lift a mortgage: mortgage value + 10 % interest, rounded per ``interest_rounding`` (voluntary)."""
    player = tx.player(op["player"])
    deed = tx.own_deed(player, op["square"])
    if not tx.s.mortgaged.get(deed.index):
        raise RuleViolation(f"{deed.name} is not mortgaged.", code="not_mortgaged",
                            params={"square": deed.index, "deed": deed.name})
    cost = deed.mortgage + ten_percent(deed.mortgage, tx.cfg.rounding)
    tx.pay_voluntary(player, BANK, cost, f"lifting the mortgage on {deed.name}")
    tx.set("mortgaged", deed.index, False)


def _transfer(tx: Tx, op: dict) -> None:
    """A voluntary payment between two players, or with the Bank (``"bank"``)."""
    payer, payee = op["from"], op["to"]
    if payer != BANK:
        tx.player(payer)
    if payee != BANK:
        tx.player(payee)
    if payer == payee:
        raise RuleViolation(f"{_account_name(payer)} cannot pay themselves.", code="pay_self",
                            params={"player": payer})
    amount = tx.amount(op["amount"])
    tx.pay_voluntary(payer, payee, amount, f"a payment of {amount} to {_account_name(payee)}")


def _trade(tx: Tx, op: dict) -> None:
    """A trade between two players: cash, deeds of unbuilt colour groups and Jail cards each way; a received
    mortgaged deed costs 10 % interest at once, and ``lift_now`` lifts it at once for the mortgage value
    (RULES.md, Title deeds, Trading; Mortgages)."""
    a, b = tx.player(op["a"]), tx.player(op["b"])
    if a == b:
        raise RuleViolation(f"{a} cannot trade with themselves.", code="trade_self", params={"player": a})
    sides = [(a, b, _trade_side(tx, op["a_gives"], "a_gives")), (b, a, _trade_side(tx, op["b_gives"], "b_gives"))]
    if not any(side["cash"] or side["squares"] or side["jail_cards"] for _, _, side in sides):
        raise RuleViolation("This trade exchanges nothing.", code="trade_empty")
    lift_now = list(op.get("lift_now") or [])
    received_mortgaged: dict[int, str] = {}
    for giver, taker, side in sides:
        for square in side["squares"]:
            deed = tx.own_deed(giver, square)
            rules.check_tradable(tx.s, tx.cfg, deed)
            if tx.s.mortgaged.get(square):
                received_mortgaged[square] = taker
        held = tx.s.jail_cards_of(giver)
        if side["jail_cards"] > len(held):
            raise RuleViolation(f"{giver} holds {len(held)} Get Out of Jail Free card(s), not {side['jail_cards']}.",
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
    cards = {giver: tx.s.jail_cards_of(giver)[:side["jail_cards"]] for giver, _, side in sides}
    debts = [dict(d) for d in tx.s.debt_list]
    offsets = {}
    for giver, taker, side in sides:
        offset = 0
        for debt in debts:
            if debt["debtor"] == taker and debt["creditor"] == giver and offset < side["cash"]:
                part = min(debt["amount"], side["cash"] - offset)
                debt["amount"] -= part
                offset += part
        offsets[giver] = offset
        paid = side["cash"] - offset
        if paid:
            tx.require_no_debt(giver, "giving cash in a trade")
            if tx.s.cash[giver] < paid:
                raise InsufficientCash(f"{giver} cannot give {paid} in this trade: only {tx.s.cash[giver]} in cash.",
                                       params={"player": giver, "amount": paid, "cash": tx.s.cash[giver]})
    for giver, taker, side in sides:
        for square in side["squares"]:
            tx.set("owner", square, taker)
        for deck in cards[giver]:
            tx.set("jail_card", deck, taker)
    if any(offsets.values()):
        tx.set_debts(debts)
    for giver, taker, side in sides:
        if offsets[giver]:
            tx.move(giver, taker, offsets[giver])
            tx.move(taker, giver, offsets[giver])
        tx.move(giver, taker, side["cash"] - offsets[giver])
    tx.settle()
    for square in sorted(received_mortgaged):
        tx.receive_mortgaged(received_mortgaged[square], square, square in lift_now)


def _trade_side(tx: Tx, side: dict, name: str) -> dict:
    cash = side.get("cash", 0)
    if cash:
        tx.amount(cash, "cash in a trade")
    squares = side.get("squares", [])
    if len(set(squares)) != len(squares):
        raise RuleViolation(f"{name} names a deed twice.", code="trade_duplicate")
    jail_cards = side.get("jail_cards", 0)
    if jail_cards < 0:
        raise RuleViolation("A trade cannot give a negative number of Jail cards.", code="trade_negative")
    return {"cash": cash, "squares": squares, "jail_cards": jail_cards}


def _declare_bankruptcy(tx: Tx, op: dict) -> None:
    """Bankruptcy to the creditor of the oldest debt (RULES.md, Debts and bankruptcy)."""
    declare_bankruptcy(tx, tx.player(op["player"]), list(op.get("lift_now") or []))


def _end_game(tx: Tx, op: dict) -> None:
    """End a time-limited game now (RULES.md, End of the game, Time limit)."""
    if tx.cfg.mode != "time_limit":
        raise RuleViolation(f"Only a time-limited game ends on request; this one is {tx.cfg.mode}.",
                            code="end_game_not_time_limit", params={"mode": tx.cfg.mode})
    tx.set("game", "over", True)


#: The operation shapes of docs/table-log.md: field -> (type, required).
SHAPES: dict[str, dict[str, tuple[type | tuple, bool]]] = {
    "pass_go": {"player": (str, True)},
    "buy": {"player": (str, True), "square": (int, True)},
    "auction": {"square": (int, True), "winner": (str, True), "price": (int, True)},
    "pay_rent": {"player": (str, True), "square": (int, True), "dice": (int, False), "card": (str, False)},
    "pay_tax": {"player": (str, True), "square": (int, True), "choice": (str, False)},
    "bank_pays": {"player": (str, True), "amount": (int, True)},
    "pay_bank": {"player": (str, True), "amount": (int, True)},
    "pay_each_player": {"player": (str, True), "amount": (int, True)},
    "collect_from_each_player": {"player": (str, True), "amount": (int, True)},
    "repairs": {"player": (str, True), "per_house": (int, True), "per_hotel": (int, True)},
    "jail_fine": {"player": (str, True)},
    "gain_jail_card": {"player": (str, True), "deck": (str, True)},
    "use_jail_card": {"player": (str, True), "deck": (str, False)},
    "free_parking": {"player": (str, True)},
    "build": {"player": (str, True), "square": (int, True), "price": (int, False)},
    "sell_building": {"player": (str, True), "square": (int, True), "whole": (bool, False)},
    "mortgage": {"player": (str, True), "square": (int, True)},
    "unmortgage": {"player": (str, True), "square": (int, True)},
    "transfer": {"from": (str, True), "to": (str, True), "amount": (int, True)},
    "trade": {"a": (str, True), "b": (str, True), "a_gives": (dict, True), "b_gives": (dict, True),
              "lift_now": (list, False)},
    "declare_bankruptcy": {"player": (str, True), "lift_now": (list, False)},
    "undo": {},
    "end_game": {},
}
_TRADE_SIDE = {"cash": int, "squares": list, "jail_cards": int}

HANDLERS: dict[str, Callable[[Tx, dict], None]] = {
    "pass_go": _pass_go, "buy": _buy, "auction": _auction, "pay_rent": _pay_rent, "pay_tax": _pay_tax,
    "bank_pays": _bank_pays, "pay_bank": _pay_bank, "pay_each_player": _pay_each_player,
    "collect_from_each_player": _collect_from_each_player, "repairs": _repairs, "jail_fine": _jail_fine,
    "gain_jail_card": _gain_jail_card, "use_jail_card": _use_jail_card, "free_parking": _free_parking,
    "build": _build, "sell_building": _sell_building, "mortgage": _mortgage, "unmortgage": _unmortgage,
    "transfer": _transfer, "trade": _trade, "declare_bankruptcy": _declare_bankruptcy, "end_game": _end_game,
}


def _is(value: Any, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def check_shape(op: Any) -> dict:
    """Check that ``op`` is an operation of docs/table-log.md's shape (not whether the rules allow it).

    Returns a clean copy without the ``refused`` marker. Raises :class:`MalformedOperation` for an unknown
    ``op``, an unknown field, a wrong JSON type or a missing field.
    """
    if not isinstance(op, dict) or not isinstance(op.get("op"), str):
        raise MalformedOperation(f"Not an operation: {op!r}.", code="not_an_operation")
    name = op["op"]
    if name not in SHAPES:
        raise MalformedOperation(f"Unknown operation {name!r}.", code="unknown_operation", params={"op": name})
    shape = SHAPES[name]
    clean = {"op": name}
    for key, value in op.items():
        if key in ("op", "refused"):
            continue
        if key not in shape:
            raise MalformedOperation(f"{name}: unknown field {key!r}.", code="unknown_field",
                                     params={"op": name, "field": key})
        kind, _ = shape[key]
        if not _is(value, kind):
            raise MalformedOperation(f"{name}: field {key!r} must be {kind.__name__}, not {value!r}.",
                                     code="wrong_type", params={"op": name, "field": key})
        clean[key] = value
    for key, (_, required) in shape.items():
        if required and key not in op:
            raise MalformedOperation(f"{name}: missing field {key!r}.", code="missing_field",
                                     params={"op": name, "field": key})
    if "refused" in op and not isinstance(op["refused"], bool):
        raise MalformedOperation(f"{name}: 'refused' must be true or false.", code="wrong_type")
    for side in ("a_gives", "b_gives"):
        if side in clean:
            for key, value in clean[side].items():
                if key not in _TRADE_SIDE or not _is(value, _TRADE_SIDE[key]):
                    raise MalformedOperation(f"trade: {side}.{key} is not a valid field ({value!r}).",
                                             code="wrong_type", params={"op": name, "field": f"{side}.{key}"})
            if not all(_is(s, int) for s in clean[side].get("squares", [])):
                raise MalformedOperation(f"trade: {side}.squares must be square numbers.", code="wrong_type")
    if "lift_now" in clean and not all(_is(s, int) for s in clean["lift_now"]):
        raise MalformedOperation(f"{name}: lift_now must list square numbers.", code="wrong_type")
    return clean


def apply(state: State, config: GameConfig, op: dict) -> tuple[State, Effects]:
    """Compute one operation (not ``undo``: the ledger handles it) on a copy of ``state``.

    Returns the new state and the effects. Raises :class:`MalformedOperation` for a badly shaped operation
    and a :class:`~terminal.errors.GameError` for a refusal; ``state`` is never modified.
    """
    op = check_shape(op)
    if op["op"] == "undo":
        raise MalformedOperation("undo is handled by the ledger, not the engine.", code="undo_not_here")
    if state.game.get("over"):
        raise GameOver("The game is over: only undo is possible now.")
    tx = Tx(state, config)
    HANDLERS[op["op"]](tx, op)
    rules.update_game_over(tx)
    return tx.s, tx.effects


def replay_effects(state: State, effects: Effects, inverse: bool = False) -> State:
    """Apply recorded effects to a copy of ``state`` (their inverse with ``inverse=True``)."""
    new = state.copy()
    postings = effects.postings
    changes = effects.changes
    for payer, payee, amount in postings:
        new.cash[payer] -= amount
        new.cash[payee] += amount
    for section, key, before, after in (reversed(changes) if inverse else changes):
        value = before if inverse else after
        table = getattr(new, section)
        if section in ("owner", "level", "mortgaged"):
            key = int(key)
        if value is None or (section == "level" and value == 0) or (section == "mortgaged" and not value):
            table.pop(key, None)
        else:
            table[key] = _copy(value)
    return new


def invert(effects: Effects) -> Effects:
    """The compensating effects that undo ``effects`` exactly (an undo entry's effects)."""
    return Effects(postings=[(payee, payer, amount) for payer, payee, amount in reversed(effects.postings)],
                   changes=[(section, key, after, before) for section, key, before, after in reversed(effects.changes)])


def setup_effects(state: State, config: GameConfig, dealt: dict[str, Iterable[int]] | None) -> tuple[State, Effects]:
    """The setup entry: the Bank pays every player the starting cash; in the quick and time-limited games
    each player pays for the deeds dealt to them (RULES.md, End of the game)."""
    tx = Tx(state, config)
    for player in state.players:
        tx.move(BANK, player, config.edition.starting_cash)
    for player, squares in (dealt or {}).items():
        tx.player(player)
        for square in squares:
            deed = tx.deed(square)
            if tx.s.owner.get(square):
                raise RuleViolation(f"{deed.name} is dealt twice.", code="dealt_twice",
                                    params={"square": square, "deed": deed.name})
            tx.move(player, BANK, deed.price)
            tx.set("owner", square, player)
    return tx.s, tx.effects


__all__ = ["GameConfig", "Effects", "Tx", "apply", "check_shape", "replay_effects", "invert", "setup_effects",
           "SHAPES", "NothingToUndo"]
