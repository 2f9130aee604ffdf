"""Hypothesis strategies for random table-log operations, legal and illegal (used by test_properties.py).

Operations are drawn against the current state of a game, so that a good share of them are legal and the
games get somewhere (deeds bought to complete colour groups, houses and hotels built evenly, charges big
enough to create debts, bankruptcies of players who cannot pay), while the rest are refusals of every kind:
unknown and bankrupt players, squares that are not deeds or not on the board, zero, negative and absurd
amounts, rules broken (uneven building, mortgaged groups, voluntary payments while in debt...), and a few
malformed lines.

Everything is drawn through ``data.draw`` so that Hypothesis can shrink a failing sequence.
"""
from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from terminal.bank.state import DECKS, HOTEL, MODES, State

EDITIONS = ("fr", "us")
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
UNKNOWN_NAMES = ("Zed", "ann", "bank", "pot")
BAD_SQUARES = (-1, 40, 41, 99, -40)
FLAG_VALUES = {
    "free_parking_jackpot": (True, False),
    "interest_rounding": ("up", "down"),
    "double_rent_with_mortgaged_street": (True, False),
    "income_tax_percent": (True, False),
}

#: Operation kinds and their weights in an ordinary step.
WEIGHTS = {
    "buy": 14, "auction": 3, "pay_rent": 10, "pay_tax": 3, "bank_pays": 3, "pay_bank": 6,
    "pay_each_player": 3, "collect_from_each_player": 3, "repairs": 3, "jail_fine": 2, "gain_jail_card": 2,
    "use_jail_card": 2, "free_parking": 2, "build": 14, "sell_building": 4, "mortgage": 5, "unmortgage": 3,
    "transfer": 3, "trade": 8, "declare_bankruptcy": 3, "end_game": 1, "undo": 4, "malformed": 2,
}
#: Weights while some player is in debt: raise money, trade with the creditor, or go bankrupt.
DEBT_WEIGHTS = {**WEIGHTS, "declare_bankruptcy": 30, "mortgage": 10, "sell_building": 10, "trade": 10}


def _weighted(weights: dict[str, int]) -> st.SearchStrategy[str]:
    return st.sampled_from([k for k, w in weights.items() for _ in range(w)])


#: Weights when a player could build: build, and sell sometimes.
BUILD_WEIGHTS = {**WEIGHTS, "build": 30, "sell_building": 6, "repairs": 4}

KIND_NORMAL = _weighted(WEIGHTS)
KIND_DEBT = _weighted(DEBT_WEIGHTS)
KIND_BUILD = _weighted(BUILD_WEIGHTS)


STREET_GROUPS = ("brown", "light_blue", "pink", "orange", "red", "yellow", "green", "dark_blue")


@st.composite
def game_setups(draw, players=(2, 2, 3, 3, 3, 4, 5)) -> dict:
    """Arguments of ``Game.create``: edition, 2-5 players, a mode, varied rule flags, a seed for the deal."""
    edition = draw(st.sampled_from(EDITIONS))
    count = draw(st.sampled_from(players))
    mode = draw(st.sampled_from(MODES))
    rules = draw(st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in FLAG_VALUES.items()}))
    seed = draw(st.integers(0, 2**16))
    return {"edition": edition, "players": NAMES[:count], "mode": mode, "rules": rules, "seed": seed}


@st.composite
def openings(draw) -> list[tuple[int, str]]:
    """Colour groups bought outright at the start of a game, as ``(player number, group)``: games where
    building starts early."""
    groups = STREET_GROUPS + ("railroad",)
    return draw(st.lists(st.tuples(st.integers(0, 4), st.sampled_from(groups)), max_size=5))


# -- small pieces ---------------------------------------------------------------------------------------------

def _pick(data, options, label: str):
    return data.draw(st.sampled_from(list(options)), label=label)


def _chance(data, percent: int, label: str = "chance") -> bool:
    """True about ``percent`` % of the time. Hypothesis favours (and shrinks towards) small numbers, so the
    True side should be the ordinary case; use :func:`_rare` for an unusual one."""
    return data.draw(st.integers(0, 99), label=label) < percent


def _rare(data, percent: int, label: str = "rare") -> bool:
    """True about ``percent`` % of the time, on the side Hypothesis does not favour."""
    return data.draw(st.integers(0, 99), label=label) >= 100 - percent


def draw_player(data, s: State, label: str = "player", prefer: list[str] | None = None) -> str:
    """Mostly a player still in the game (from ``prefer`` when given); sometimes a bankrupt or unknown one."""
    roll = data.draw(st.integers(0, 99), label=f"{label} kind")
    if roll >= 95 and s.bankrupt_list:
        return _pick(data, s.bankrupt_list, label)
    if roll >= 92:
        return _pick(data, UNKNOWN_NAMES, label)
    if prefer and roll < 65:
        return _pick(data, prefer, label)
    active = s.active_players() or list(s.players)
    return _pick(data, active, label)


def draw_amount(data, edition, label: str = "amount", big: bool = False) -> int:
    """An amount: usually plausible (small, or big enough to create debts), sometimes 0, negative,
    the edition's maximum, just above it, or absurd."""
    roll = data.draw(st.integers(0, 99), label=f"{label} kind")
    top = edition.max_amount
    if roll >= 97:
        return 0
    if roll >= 95:
        return data.draw(st.integers(-10**6, -1), label=label)
    if roll >= 93:
        return _pick(data, (top, top + 1, 10**12), label)
    if big or roll >= 75:
        return data.draw(st.integers(500, 20_000), label=label)
    return data.draw(st.integers(1, 400), label=label)


def draw_any_square(data, label: str = "square") -> int:
    if _rare(data, 15, f"{label} off the board"):
        return _pick(data, BAD_SQUARES, label)
    return data.draw(st.integers(0, 39), label=label)


def _deeds(edition) -> list[int]:
    return [d.index for d in edition.deeds()]


def _streets(edition) -> list[int]:
    return [d.index for d in edition.deeds() if d.kind == "street"]


def _full_groups_of(s: State, edition, player: str) -> list[int]:
    """Streets of the colour groups the player holds entirely."""
    return [sq for sq in _streets(edition) if all(s.owner.get(x) == player for x in edition.group_of(sq))]


def _rank(level: int, hbh: int) -> int:
    return hbh + 1 if level == HOTEL else level


def draw_square_from(data, candidates: list[int], percent: int, label: str = "square") -> int:
    """One of ``candidates`` ``percent`` % of the time (when there are any), else any square or a bad one."""
    if candidates and _chance(data, percent, f"{label} from candidates"):
        return _pick(data, sorted(candidates), label)
    return draw_any_square(data, label)


# -- operations -----------------------------------------------------------------------------------------------

def draw_operation(data, game, s: State) -> dict[str, Any]:
    """One operation (a table-log line as a dict) drawn against ``game``'s current state ``s``."""
    edition = game.edition
    hbh = game.config.houses_before_hotel
    active = s.active_players()
    debtors = [p for p in active if s.debts_of(p)]
    builders = [p for p in active if _full_groups_of(s, edition, p)]
    if s.game.get("over") and _chance(data, 40, "undo after the end"):
        return {"op": "undo"}
    kind = data.draw(KIND_DEBT if debtors else KIND_BUILD if builders else KIND_NORMAL, label="op kind")
    # A Jail card is rarely held when use_jail_card comes up (and so it was rarely used): a holder uses it soon.
    holders = [p for p in active if s.jail_cards_of(p)]
    if holders and kind != "use_jail_card" and _rare(data, 8, "use the Jail card now"):
        kind = "use_jail_card"
    # Likewise a mortgaged deed is rarely lifted while its owner has the cash: sometimes they do.
    if kind in ("buy", "build") and not debtors and _rare(data, 6, "lift a mortgage now") and any(
            s.mortgaged.get(d) for p in active for d in s.deeds_of(p)):
        kind = "unmortgage"

    if kind == "buy":
        cheapest = min((edition.squares[d].price for d in _deeds(edition) if d not in s.owner), default=0)
        player = draw_player(data, s, prefer=[p for p in active if not s.debts_of(p) and s.cash[p] >= cheapest])
        unowned = [d for d in _deeds(edition) if d not in s.owner]
        completing = [d for d in unowned if any(s.owner.get(x) == player for x in edition.group_of(d))]
        if completing and _chance(data, 60, "complete a group"):
            square = _pick(data, completing, "square")
        else:
            square = draw_square_from(data, unowned, 80)
        return {"op": "buy", "player": player, "square": square}

    if kind == "auction":
        unowned = [d for d in _deeds(edition) if d not in s.owner]
        winner = draw_player(data, s, "winner")
        square = draw_square_from(data, unowned, 85)
        return {"op": "auction", "square": square, "winner": winner, "price": draw_amount(data, edition, "price")}

    if kind == "pay_rent":
        player = draw_player(data, s)
        others = [d for d, o in s.owner.items() if o != player]
        unmortgaged = [d for d in others if not s.mortgaged.get(d)]
        square = draw_square_from(data, unmortgaged or others, 85)
        op = {"op": "pay_rent", "player": player, "square": square}
        kind_of = edition.squares[square].kind if 0 <= square < 40 else None
        if kind_of == "utility" or _rare(data, 5, "dice anyway"):
            roll = data.draw(st.integers(0, 99), label="dice kind")
            if roll < 85:
                op["dice"] = data.draw(st.integers(2, 12), label="dice")
            elif roll < 95:
                op["dice"] = _pick(data, (0, 1, 13, -3), "dice")
        if _rare(data, 25, "rent card"):
            if kind_of == "railroad" and _chance(data, 80, "right card"):
                op["card"] = "nearest_railroad"
            elif kind_of == "utility" and _chance(data, 80, "right card"):
                op["card"] = "nearest_utility"
            else:
                op["card"] = _pick(data, ("nearest_railroad", "nearest_utility", "nearest_hotel"), "card")
        return op

    if kind == "pay_tax":
        op = {"op": "pay_tax", "player": draw_player(data, s),
              "square": _pick(data, (4, 4, 38, 38, 4, 38, 0, 5, 20, -1, 40), "square")}
        if _rare(data, 30, "tax choice"):
            op["choice"] = _pick(data, ("flat", "percent", "percent", "half"), "choice")
        return op

    if kind in ("bank_pays", "pay_bank", "pay_each_player", "collect_from_each_player"):
        big = kind != "bank_pays" and _chance(data, 50, "big charge")
        return {"op": kind, "player": draw_player(data, s), "amount": draw_amount(data, edition, big=big)}

    if kind == "repairs":
        builders = [p for p in active if any(s.level.get(d) for d in s.deeds_of(p))]
        player = draw_player(data, s, prefer=builders)
        return {"op": "repairs", "player": player,
                "per_house": _pick(data, (25, 40, 0, 100, 1000, -5), "per_house"),
                "per_hotel": _pick(data, (100, 115, 0, 400, 5000, -1), "per_hotel")}

    if kind in ("jail_fine", "free_parking"):
        return {"op": kind, "player": draw_player(data, s)}

    if kind == "gain_jail_card":
        return {"op": kind, "player": draw_player(data, s),
                "deck": _pick(data, DECKS + DECKS + ("luck",), "deck")}

    if kind == "use_jail_card":
        op = {"op": kind, "player": draw_player(data, s, prefer=holders)}
        if _chance(data, 50, "name the deck"):
            op["deck"] = _pick(data, DECKS + DECKS + ("luck",), "deck")
        return op

    if kind == "build":
        player = draw_player(data, s, prefer=builders)
        streets = _full_groups_of(s, edition, player) if player in s.players else []
        # Prefer the lowest street of a group (building evenly); sometimes any street of the groups.
        lowest = [sq for sq in streets
                  if _rank(s.level.get(sq, 0), hbh) == min(_rank(s.level.get(x, 0), hbh)
                                                           for x in edition.group_of(sq))]
        if lowest and _chance(data, 80, "build evenly"):
            square = _pick(data, lowest, "square")
        else:
            square = draw_square_from(data, streets or s.deeds_of(player) if player in s.players else [], 70)
        op = {"op": "build", "player": player, "square": square}
        if _rare(data, 8, "auction price"):
            op["price"] = _pick(data, (50, 100, 150, 200, 250, 400, 10, 0), "price")
        return op

    if kind == "sell_building":
        sellers = [p for p in active if any(s.level.get(d) for d in s.deeds_of(p))]
        prefer = [p for p in debtors if p in sellers] or sellers
        player = draw_player(data, s, prefer=prefer)
        built = [d for d in s.deeds_of(player) if s.level.get(d)] if player in s.players else []
        highest = [sq for sq in built
                   if _rank(s.level.get(sq, 0), hbh) == max(_rank(s.level.get(x, 0), hbh)
                                                            for x in edition.group_of(sq))]
        if highest and _chance(data, 80, "sell evenly"):
            square = _pick(data, highest, "square")
        else:
            square = draw_square_from(data, built, 60)
        op = {"op": "sell_building", "player": player, "square": square}
        if _rare(data, 30, "whole"):
            op["whole"] = data.draw(st.booleans(), label="whole")
        return op

    if kind in ("mortgage", "unmortgage"):
        # Mortgage: mostly a debtor raising money; unmortgage: mostly a player with a mortgaged deed and no debt.
        lifters = [p for p in active if not s.debts_of(p) and any(s.mortgaged.get(d) for d in s.deeds_of(p))]
        player = draw_player(data, s, prefer=debtors if kind == "mortgage" else lifters)
        held = s.deeds_of(player) if player in s.players else []
        wanted = [d for d in held if bool(s.mortgaged.get(d)) == (kind == "unmortgage")]
        return {"op": kind, "player": player, "square": draw_square_from(data, wanted or held, 85)}

    if kind == "transfer":
        payer = "bank" if _rare(data, 10, "from bank") else draw_player(data, s, "from")
        payee = "bank" if _rare(data, 15, "to bank") else draw_player(data, s, "to")
        return {"op": "transfer", "from": payer, "to": payee, "amount": draw_amount(data, edition)}

    if kind == "trade":
        return draw_trade(data, s, edition, debtors)

    if kind == "declare_bankruptcy":
        player = draw_player(data, s, prefer=debtors)
        op = {"op": kind, "player": player}
        mortgaged = [d for d in s.deeds_of(player) if s.mortgaged.get(d)] if player in s.players else []
        if _rare(data, 30, "lift_now"):
            if mortgaged and _chance(data, 80, "lift own mortgaged"):
                op["lift_now"] = data.draw(st.lists(st.sampled_from(mortgaged), unique=True), label="lift_now")
            else:
                op["lift_now"] = [draw_any_square(data, "lift_now")]
        return op

    if kind == "end_game":
        return {"op": "end_game"}

    if kind == "undo":
        return {"op": "undo"}

    return draw_malformed(data, s)


def _trade_side(data, s: State, edition, giver: str, taker: str, label: str, cash_hint: int | None) -> dict:
    side: dict[str, Any] = {}
    held = s.deeds_of(giver) if giver in s.players else []
    unbuilt = [d for d in held if not any(s.level.get(x) for x in edition.group_of(d))]
    useful = [d for d in unbuilt if taker in s.players
              and any(s.owner.get(x) == taker for x in edition.group_of(d))]
    roll = data.draw(st.integers(0, 99), label=f"{label} squares kind")
    if roll < 35 and useful:
        side["squares"] = data.draw(st.lists(st.sampled_from(useful), min_size=1, max_size=2, unique=True),
                                    label=f"{label} squares")
    elif roll < 65 and unbuilt:
        side["squares"] = data.draw(st.lists(st.sampled_from(unbuilt), min_size=1, max_size=3, unique=True),
                                    label=f"{label} squares")
    elif roll >= 93:
        side["squares"] = [draw_any_square(data, f"{label} square")]
        if _rare(data, 30, "duplicate square"):
            side["squares"] *= 2
    elif roll >= 90 and held:
        side["squares"] = [_pick(data, held, f"{label} square")]  # maybe in a built group
    roll = data.draw(st.integers(0, 99), label=f"{label} cash kind")
    if cash_hint and roll < 60:
        side["cash"] = cash_hint
    elif roll < 40:
        cash = s.cash.get(giver, 0)
        side["cash"] = data.draw(st.integers(1, max(1, cash)), label=f"{label} cash")
    elif roll >= 95:
        side["cash"] = draw_amount(data, edition, f"{label} cash")
    elif roll >= 92:
        side["cash"] = 0
    roll = data.draw(st.integers(0, 99), label=f"{label} jail kind")
    cards = len(s.jail_cards_of(giver)) if giver in s.players else 0
    if roll < 40 and cards:
        side["jail_cards"] = data.draw(st.integers(1, cards), label=f"{label} jail cards")
    elif roll >= 95:
        side["jail_cards"] = _pick(data, (1, 2, -1, 0), f"{label} jail cards")
    return side


def draw_trade(data, s: State, edition, debtors: list[str]) -> dict:
    """A trade; with debtors around, often the debtor's deeds against cash from the creditor (which goes
    straight back against the debt, RULES.md, Debts)."""
    player_debts = [d for d in s.debts if d.creditor in s.players]
    cash_hint = None
    if player_debts and _chance(data, 50, "trade with the creditor"):
        debt = _pick(data, [(d.creditor, d.debtor, d.amount) for d in player_debts], "debt")
        a, b, owed = debt
        cash_hint = owed if _chance(data, 50, "whole debt") else data.draw(st.integers(1, owed), label="part")
    else:
        a = draw_player(data, s, "a")
        b = draw_player(data, s, "b", prefer=debtors)
        if a == b and _chance(data, 80, "distinct"):
            others = [p for p in s.active_players() if p != a]
            if others:
                b = _pick(data, others, "b")
    a_gives = _trade_side(data, s, edition, a, b, "a_gives", cash_hint)
    b_gives = _trade_side(data, s, edition, b, a, "b_gives", None)
    if a_gives.get("cash", 0) > 0 and _rare(data, 30, "cash both ways"):
        # Cash both ways, b giving more than b holds but not more than b holds plus what a gives.
        held = s.cash.get(b, 0)
        b_gives["cash"] = data.draw(st.integers(held + 1, held + a_gives["cash"]), label="b_gives cash")
    op = {"op": "trade", "a": a, "b": b, "a_gives": a_gives, "b_gives": b_gives}
    received = a_gives.get("squares", []) + b_gives.get("squares", [])
    mortgaged = [sq for sq in received if isinstance(sq, int) and s.mortgaged.get(sq)]
    if _rare(data, 15, "lift_now"):
        if mortgaged and _chance(data, 85, "lift received"):
            op["lift_now"] = data.draw(st.lists(st.sampled_from(sorted(set(mortgaged))), unique=True),
                                       label="lift_now")
        else:
            op["lift_now"] = [draw_any_square(data, "lift_now")]
    return op


def _malformed(player: str, other: str) -> tuple[dict, ...]:
    return (
        {"op": "buy", "player": player},
        {"op": "buy", "player": player, "square": "5"},
        {"op": "buy", "player": player, "square": 5.0},
        {"op": "buy", "player": player, "square": True},
        {"op": "pay_bank", "player": player, "amount": 10, "colour": "red"},
        {"op": "pay_bank", "player": player, "amount": True},
        {"op": "pay_bank", "player": player, "amount": 12.5},
        {"op": "fly_to_moon", "player": player},
        {"op": "trade", "a": player, "b": other, "a_gives": {"cash": "10"}, "b_gives": {}},
        {"op": "trade", "a": player, "b": other, "a_gives": {"houses": 1}, "b_gives": {}},
        {"op": "trade", "a": player, "b": other, "a_gives": {"squares": ["1"]}, "b_gives": {}},
        {"op": "declare_bankruptcy", "player": player, "lift_now": [True]},
        {"op": "undo", "player": player},
        {"op": "sell_building", "player": player, "square": 1, "whole": 1},
        {"op": 7},
        {"player": player},
    )


#: Every malformed line the generator makes (for the players it uses).
MALFORMED = list(_malformed(NAMES[0], NAMES[1]))


def draw_malformed(data, s: State) -> dict:
    """A line of the wrong shape (MalformedOperation): unknown op, unknown field, wrong type, missing field."""
    return _pick(data, _malformed(s.players[0], s.players[1]), "malformed")
