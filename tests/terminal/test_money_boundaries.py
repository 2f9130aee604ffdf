"""The Bank's rules at their boundaries: the one case on each side of a comparison, where a wrong ``<`` or ``<=``,
a wrong constant or a dropped branch changes the money (tests/README.md, "Mutation testing": each test here kills
mutants that the rest of the fast suite let live).

The table logs beside these cover what reads best as a game: tests/table_logs/us-end-quick-4p.jsonl (a quick game
ends at the second bankruptcy), us-taxes-percent-hotel.jsonl and us-bankruptcy-hotel-raisable.jsonl (a hotel is 5
house prices, and fetches half of them), us-housing-shortage-four.jsonl (exactly 4 houses in the Bank),
ultimate-neighbours-no-wrap.jsonl (the board's ends; the last Event card), ultimate-charge-bankrupt-owns-more.jsonl
and ultimate-sell-before-bankruptcy.jsonl (what an Ultimate debtor could raise, under each value of the flag).
"""
from __future__ import annotations

import functools

import pytest

from cards.editions import load_edition
from terminal.bank import rules, ultimate
from terminal.bank.board import CLASSIC
from terminal.bank.operations import parse_operation
from terminal.bank.state import BANK, HOTEL, State
from terminal.bank.tx import Tx
from terminal.bank.types import Debt, GameConfig, Rent
from terminal.errors import InsufficientCash, InvalidAmount, RuleViolation
from tests.terminal.oracles import journal_of
from tests.terminal.refusals import refused

US = load_edition("us")
CLASSIC_CONFIG = GameConfig(US, "classic", dict(US.rules))
PLAYERS = ("Ann", "Bob", "Cid", "Dan")


def _state(**cash: int) -> State:
    """A state of :data:`PLAYERS`, each with 1500 unless ``cash`` says otherwise; the Bank's cash balances it."""
    state = State.new(US, PLAYERS)
    state.cash.update(dict.fromkeys(PLAYERS, 1500), **cash)
    state.cash[BANK] = -sum(state.cash[p] for p in PLAYERS)
    return state


def _brown_group_with_hotels(state: State) -> None:
    """Ann holds Mediterranean (1) and Baltic (3), each with a hotel."""
    for square in (1, 3):
        state.owner[square] = "Ann"
        state.level[square] = HOTEL


# -- the Bank's supply of buildings (RULES.md, Buildings: "the Bank holds 32 houses and 12 hotels. With none left,
# nobody can build until some come back") --------------------------------------------------------------------
def test_the_banks_last_hotel_can_be_bought_and_then_none():
    state = _state()
    for square in (1, 3):
        state.owner[square] = "Ann"
        state.level[square] = 4
    state.bank["hotels"] = 1
    assert rules.check_build(state, CLASSIC_CONFIG, US.squares[1]) == (50, HOTEL)
    state.bank["hotels"] = 0
    with pytest.raises(RuleViolation) as info:
        rules.check_build(state, CLASSIC_CONFIG, US.squares[1])
    assert (info.value.code, info.value.params) == ("no_hotels_left", {"square": 1, "deed": "Mediterranean Avenue"})


def test_the_banks_last_house_can_be_bought_and_then_none():
    state = _state()
    for square in (1, 3):
        state.owner[square] = "Ann"
    state.bank["houses"] = 1
    assert rules.check_build(state, CLASSIC_CONFIG, US.squares[1]) == (50, 1)
    state.bank["houses"] = 0
    with pytest.raises(RuleViolation) as info:
        rules.check_build(state, CLASSIC_CONFIG, US.squares[1])
    assert (info.value.code, info.value.params) == ("no_houses_left", {"square": 1, "deed": "Mediterranean Avenue"})


def test_the_last_hotel_through_the_game(make_game):
    """The same played out: 11 hotels on brown, light blue, pink and orange, then the 12th, the Bank's last, on
    Kentucky Avenue (21); the next hotel is refused."""
    game = make_game("us", ("Ann", "Bob"))
    game.bank_pays("Ann", 10_000)
    groups = [(1, 3), (6, 8, 9), (11, 13, 14), (16, 18, 19), (21, 23, 24)]
    for group in groups:
        for square in group:
            game.buy("Ann", square)
        for _ in range(4):
            for square in group:
                game.build("Ann", square)
        for square in group if group != (21, 23, 24) else (21,):
            game.build("Ann", square)
    state = game.state()
    assert state["bank"]["hotels"] == 0
    assert sum(1 for level in state["buildings"].values() if level == HOTEL) == 12
    # the houses of the hotels went back: 32 - 12 on the red streets + 4 from Kentucky's hotel
    assert state["bank"]["houses"] == 32 - 12 + 4
    refused(game, lambda: game.build("Ann", 23), RuleViolation, code="no_hotels_left",
            params={"square": 23, "deed": "Indiana Avenue"})


# -- what a player could still raise (RULES.md, Debts and bankruptcy: "half the cost of their buildings plus the
# mortgage value of their unmortgaged deeds"; Buildings: "a hotel: half of its price plus half of the 4 houses
# given for it") --------------------------------------------------------------------------------------------
def test_raisable_counts_a_hotel_as_half_of_five_house_prices():
    state = _state()
    _brown_group_with_hotels(state)
    # each hotel: half of 5 x 50 = 125; each mortgage 30
    assert rules.raisable(state, CLASSIC_CONFIG, "Ann") == 2 * 125 + 2 * 30
    quick = GameConfig(US, "quick", dict(US.rules))
    # quick game: the hotel comes after the third house: half of 4 x 50 = 100 (RULES.md, End of the game)
    assert quick.houses_before_hotel == 3
    assert rules.raisable(state, quick, "Ann") == 2 * 100 + 2 * 30


def test_the_percent_income_tax_counts_a_hotel_as_five_house_prices():
    config = GameConfig(US, "classic", {**US.rules, "income_tax_percent": True})
    state = _state(Ann=1000)
    _brown_group_with_hotels(state)
    # 1000 + deeds 60 + 60 + hotels 2 x 250 = 1620: 10 % = 162
    assert rules.tax_due(state, config, "Ann", 4, "percent") == 162


# -- a sold hotel and the Bank's houses (RULES.md, Buildings: "When the Bank has fewer than 4 houses left ... the
# hotels of the whole colour group are sold together") -----------------------------------------------------------
@pytest.mark.parametrize(("houses_in_bank", "whole"), [(4, False), (5, False), (3, True), (0, True)])
def test_a_hotel_breaks_down_unless_the_bank_has_fewer_than_four_houses(houses_in_bank, whole):
    state = _state()
    _brown_group_with_hotels(state)
    state.bank["houses"] = houses_in_bank
    plan = rules.plan_sale(state, CLASSIC_CONFIG, US.squares[1], whole=False)
    if whole:
        assert (plan.levels, plan.houses_back, plan.hotels_back, plan.refund) == ({1: 0, 3: 0}, 0, 2, 250)
    else:
        assert (plan.levels, plan.houses_back, plan.hotels_back, plan.refund) == ({1: 4}, -4, 1, 25)


# -- the electronic board (docs/RULES.md, The Ultimate Banking board) -----------------------------------------
ULTIMATE = load_edition("ultimate")


def test_neighbours_at_the_ends_of_the_board():
    """Flag ``neighbours``: ``wrap`` (default) makes properties 1 (square 1) and 22 (square 35) neighbours;
    ``no_wrap`` gives them one neighbour each."""
    assert ultimate.neighbours(ULTIMATE, 1) == (35, 3)
    assert ultimate.neighbours(ULTIMATE, 35) == (33, 1)
    assert ultimate.neighbours(ULTIMATE, 1, wrap=False) == (3,)
    assert ultimate.neighbours(ULTIMATE, 35, wrap=False) == (33,)
    assert ultimate.neighbours(ULTIMATE, 3, wrap=False) == (1, 5)
    assert ultimate.neighbours(ULTIMATE, 33, wrap=False) == (31, 35)


@pytest.mark.parametrize(("flag", "expected"), [("sell_to_bank", 60 + 350), ("bankrupt", 0)])
def test_what_an_ultimate_debtor_could_raise(flag, expected):
    """Flag ``charge_beyond_cash``: under ``sell_to_bank`` the properties sold back at their printed price; under
    ``bankrupt`` nothing (nothing is sold back)."""
    config = GameConfig(ULTIMATE, "ultimate", {**ULTIMATE.rules, "charge_beyond_cash": flag})
    state = State.new(ULTIMATE, ("Ann", "Bob"))
    state.owner.update({1: "Bob", 33: "Bob"})
    state.level.update({1: 1, 33: 1})
    assert ultimate.raisable(state, config, "Bob") == expected


def test_the_last_event_card_is_played_by_its_number(make_game):
    """The printed deck (rules version 2) has 22 Event cards, numbered 1-20, 23 and 24 (21 and 22 were in the
    version-1 deck only; a number is never given to another card): 24 is the last, 0, 21 and 25 are none."""
    game = make_game("ultimate", ("Ann", "Bob"))
    deck = game.edition.deck(game.config.rules_version)
    assert len(deck) == 22 and max(c.number for c in deck) == 24
    entries = len(journal_of(game))
    game.event("Ann", 24, square=1, buy=False)  # move to any property: to a square of the Bank's, without buying
    assert len(journal_of(game)) == entries + 1
    for number in (0, 21, 25):
        refused(game, lambda number=number: game.event("Ann", number), RuleViolation, code="unknown_event_card",
                params={"card": number, "cards": ", ".join(str(c.number) for c in deck)})


# -- the transaction's primitives (terminal/bank/tx.py) ----------------------------------------------------------
def test_a_charge_of_one_is_charged(make_game):
    """RULES.md, Debts and bankruptcy: a charge is never refused for lack of cash; the smallest amount, 1, too."""
    game = make_game("us", ("Ann", "Bob"))
    game.pay_bank("Ann", 1)
    assert game.state()["cash"]["Ann"] == 1499
    game.pay_bank("Ann", 1499)
    game.pay_bank("Ann", 1)
    assert game.state()["cash"]["Ann"] == 0
    assert game.state()["debt"] == {"Ann": [{"to": "bank", "amount": 1}]}


def test_a_repair_bill_at_zero_per_building_is_allowed(make_game):
    """A repairs card may print 0 for one kind of building (RULES.md, Money in and out: "pay per house and per
    hotel owned"); an amount of 0 is refused elsewhere."""
    game = make_game("us", ("Ann", "Bob"))
    for square in (1, 3):
        game.buy("Ann", square)
    game.build("Ann", 1)
    game.repairs("Ann", 0, 100)
    game.repairs("Ann", 25, 0)
    assert game.state()["cash"]["Ann"] == 1500 - 120 - 50 - 25
    refused(game, lambda: game.pay_bank("Ann", 0), InvalidAmount, code="amount_not_positive",
            params={"amount": 0, "what": "amount"})


def test_set_drops_a_level_zero_and_an_unmortgaged_deed():
    """The state keeps no key for a street with no building nor for a deed not mortgaged (Tx.set): a level 0 or
    ``False`` removes the key; another section keeps a 0."""
    state = _state()
    state.owner[1] = "Ann"
    state.level[1] = 2
    state.mortgaged[3] = True
    tx = Tx(state, CLASSIC_CONFIG, CLASSIC)
    tx.set("level", 1, 0)
    tx.set("mortgaged", 3, False)
    assert 1 not in tx.s.level and 3 not in tx.s.mortgaged
    tx.set("cash", "Ann", 0)
    assert tx.s.cash["Ann"] == 0
    tx.set("mortgaged", 5, True)
    tx.set("level", 6, 1)
    assert tx.s.mortgaged[5] is True and tx.s.level[6] == 1
    assert [(c.section, c.key, c.before, c.after) for c in tx.effects.changes] == [
        ("level", 1, 2, 0), ("mortgaged", 3, True, False), ("cash", "Ann", 1500, 0), ("mortgaged", 5, None, True),
        ("level", 6, None, 1)]


def test_an_older_debt_with_exactly_one_left_is_paid_first():
    """RULES.md, Debts and bankruptcy: "debts are paid oldest first". Bob owes Cid 1 (his older debt) and Dan 5;
    Ann pays Bob 5 in the middle of the settlement: Cid gets his 1 first, Dan the 4 left, and Bob still owes
    Dan 1."""
    state = _state(Ann=5, Bob=0, Cid=0, Dan=0)
    state.debts = (Debt("Bob", "Cid", 1), Debt("Ann", "Bob", 5), Debt("Bob", "Dan", 5))
    tx = Tx(state, CLASSIC_CONFIG, CLASSIC)
    tx.settle()
    assert {p: tx.s.cash[p] for p in PLAYERS} == {"Ann": 0, "Bob": 0, "Cid": 1, "Dan": 4}
    assert tx.s.debts == (Debt("Bob", "Dan", 1),)
    assert [(p.payer, p.payee, p.amount) for p in tx.effects.postings] == [
        ("Ann", "Bob", 5), ("Bob", "Cid", 1), ("Bob", "Dan", 4)]


def test_a_debt_of_exactly_one_is_paid():
    state = _state(Bob=3)
    state.debts = (Debt("Bob", "Cid", 1), Debt("Bob", "Dan", 1))
    tx = Tx(state, CLASSIC_CONFIG, CLASSIC)
    tx.settle()
    assert (tx.s.cash["Bob"], tx.s.cash["Cid"], tx.s.cash["Dan"], tx.s.debts) == (1, 1501, 1501, ())


def test_a_quick_games_hotel_sold_with_its_group_fetches_half_of_four_house_prices():
    """RULES.md, End of the game, quick game: "a hotel sells back for half its price plus half of 3 houses"
    (the hotel comes after the third house): half of 4 house prices, not of 5."""
    quick = GameConfig(US, "quick", dict(US.rules))
    state = _state()
    _brown_group_with_hotels(state)
    plan = rules.plan_sale(state, quick, US.squares[1], whole=True)
    assert (plan.levels, plan.houses_back, plan.hotels_back, plan.refund) == ({1: 0, 3: 0}, 0, 2, 2 * 100)
    state.bank["houses"] = 2  # fewer than the 3 houses a quick game's hotel breaks into: the group goes too
    assert rules.plan_sale(state, quick, US.squares[1], whole=False).refund == 2 * 100
    state.bank["houses"] = 3
    assert rules.plan_sale(state, quick, US.squares[1], whole=False) == rules.SalePlan({1: 3}, -3, 1, 25)


@pytest.mark.parametrize(("square", "name"), [(0, "GO"), (40, "40"), (-1, "-1")])
def test_a_square_that_is_no_tax_is_named_or_given_as_it_was(make_game, square, name):
    """A tax is paid on square 4 or 38 only (RULES.md, Money in and out); the refusal names a square of the board
    by its name, and gives any other number as it was typed (no square -1 counted from the end)."""
    game = make_game("us", ("Ann", "Bob"))
    refused(game, lambda: game.pay_tax("Ann", square), RuleViolation, code="not_a_tax",
            params={"square": square, "deed": name})


def test_the_uneven_build_message_says_how_many_houses_the_others_have(make_game):
    """The journal's English line of a build_uneven refusal (the screen shows the catalog's, from lowest_code)."""
    game = make_game("us", ("Ann", "Bob"))
    for square in (6, 8, 9):
        game.buy("Ann", square)
    for square in (6, 8, 9, 6):
        game.build("Ann", square)
    refused(game, lambda: game.build("Ann", 6), RuleViolation,
            "^Can't build on Oriental Avenue: build evenly, Vermont Avenue, Connecticut Avenue have only "
            "1 house\\(s\\) yet.$", code="build_uneven",
            params={"square": 6, "deed": "Oriental Avenue", "behind": ["Vermont Avenue", "Connecticut Avenue"],
                    "behind_names": "Vermont Avenue, Connecticut Avenue", "lowest": 1, "lowest_code": "part_level_1"})


def test_lifting_a_received_mortgage_at_once_needs_the_cash(make_game):
    """RULES.md, Mortgages: the receiver of a mortgaged deed pays the 10 % at once (a charge) and may lift it at
    once by paying the mortgage value (voluntary: refused without the cash, and the whole trade with it)."""
    game = make_game("us", ("Ann", "Bob"))
    game.buy("Bob", 39)
    game.mortgage("Bob", 39)
    game.pay_bank("Ann", 1450)
    # Ann: 50 - 10 for the deed - 20 interest = 20, short of the 200 of Boardwalk's mortgage
    refused(game, lambda: game.trade("Bob", "Ann", {"squares": [39]}, {"cash": 10}, lift_now=[39]),
            InsufficientCash, code="insufficient_cash",
            params={"player": "Ann", "amount": 200, "cash": 20, "what": "lifting the mortgage on Boardwalk at once"})


@pytest.mark.parametrize(("flag", "listed"), [("wrap", [1, 3, 35]), ("no_wrap", [3, 35])])
def test_where_a_neighbours_card_applies_follows_the_flag(flag, listed):
    """An Event that would change no level is refused, so the table lists only where it applies (docs/RULES.md,
    The Ultimate Banking board): property 1 at level 5 with its next neighbour at 1 changes something only if the
    last property (35, level 3) is its neighbour, i.e. under ``wrap``."""
    config = GameConfig(ULTIMATE, "ultimate", {**ULTIMATE.rules, "neighbours": flag})
    state = State.new(ULTIMATE, ("Ann", "Bob"))
    state.owner.update({1: "Ann", 3: "Ann", 35: "Ann"})
    state.level.update({1: 5, 3: 1, 35: 3})
    assert ultimate.event_targets(state, config, "Ann", "neighbours") == {"own_property": listed}


def test_a_whole_groups_double_rent_says_why(make_game):
    """Flag ``group_rent = "double"``: a whole colour group held doubles the rent; the reason shown is the group's."""
    game = make_game("ultimate", ("Ann", "Bob"), rules={"group_rent": "double"})
    game.buy("Ann", 1)
    assert game.rent("Bob", 1) == Rent(70, "Ann", "level", {"level": 1})
    game.buy("Ann", 3)
    assert game.rent("Bob", 1) == Rent(140, "Ann", "level_group", {"level": 1})


def test_the_percent_income_tax_of_a_quick_game_counts_a_hotel_as_four_house_prices():
    """Our reading (rules.tax_due): a hotel's cost includes the houses given for it, 3 in the quick game."""
    config = GameConfig(US, "quick", {**US.rules, "income_tax_percent": True})
    state = _state(Ann=1000)
    _brown_group_with_hotels(state)
    # 1000 + deeds 60 + 60 + hotels 2 x 4 x 50 = 1520: 10 % = 152
    assert rules.tax_due(state, config, "Ann", 4, "percent") == 152


def test_the_income_tax_choice_is_flat_or_percent(make_game):
    game = make_game("us", ("Ann", "Bob"), rules={"income_tax_percent": True})
    refused(game, lambda: game.pay_tax("Ann", 4, choice="half"), RuleViolation, code="tax_bad_choice",
            params={"choice": "half", "square": 4, "deed": "Income Tax"})
    refused(game, lambda: game.pay_tax("Ann", 38, choice="flat"), RuleViolation, code="tax_no_choice",
            params={"square": 38, "deed": "Luxury Tax"})


def _ultimate_state(levels: dict[int, int], owner: dict[int, str]) -> State:
    state = State.new(ULTIMATE, ("Ann", "Bob"))
    state.owner.update(owner)
    state.level.update(levels)
    return state


def test_where_each_event_applies_at_the_level_bounds():
    """An Event that would change no level is refused (docs/RULES.md, The Ultimate Banking board: "+1 at 5 and -1 at
    1 change nothing"), so the table lists an Event's targets by what a step of one level would change: a property
    at 4 can still go up, at 5 not; at 2 it can still go down, at 1 not."""
    config = GameConfig(ULTIMATE, "ultimate", dict(ULTIMATE.rules))
    # Ann: 1 at level 4 (side 1, brown); 35 at level 5 (side 4, dark blue); Bob: 33 at level 2 (side 4, dark blue)
    state = _ultimate_state({1: 4, 35: 5, 33: 2}, {1: "Ann", 35: "Ann", 33: "Bob"})
    targets = functools.partial(ultimate.event_targets, state, config, "Ann")
    assert targets("side_up") == {"side": [1, 4]}
    assert targets("group_up") == {"group": ["brown", "dark_blue"]}
    assert targets("side_down") == {"side": [1, 4]}
    assert targets("max_level") == {"own_property": [1]}
    # 1's neighbours under wrap: 35 (level 5, can go down) and 3 (unowned); 35's: 33 (level 2) and 1 (level 4)
    assert targets("neighbours") == {"own_property": [1, 35]}
    state.level[33] = 1
    state.level[1] = 5
    # now nothing moves up on side 1, and 35's neighbours: 33 at level 1, 1 at 5 can go down
    assert targets("side_up") == {"side": [4]}
    assert targets("max_level") == {"own_property": []}
    assert targets("neighbours") == {"own_property": [1, 35]}
    state.level[1] = 1
    assert targets("neighbours") == {"own_property": [1]}


def test_a_swap_needs_a_property_on_each_side():
    config = GameConfig(ULTIMATE, "ultimate", dict(ULTIMATE.rules))
    alone = _ultimate_state({1: 1}, {1: "Ann"})
    assert ultimate.event_targets(alone, config, "Ann", "swap") == {"own_property": [], "opponent_property": []}
    theirs = _ultimate_state({1: 1}, {1: "Bob"})
    assert ultimate.event_targets(theirs, config, "Ann", "swap") == {"own_property": [], "opponent_property": []}
    both = _ultimate_state({1: 1, 3: 1}, {1: "Ann", 3: "Bob"})
    assert ultimate.event_targets(both, config, "Ann", "swap") == {"own_property": [1], "opponent_property": [3]}


def test_a_bankruptcy_ends_only_the_bankrupts_market_slump(make_game):
    """Rules version 1 (docs/RULES.md, Rules versions: a slump is the drawer's own, and a bankruptcy is accepted
    while properties are held): the bankrupt's slump ends, the others' stay."""
    game = make_game("ultimate", ("Ann", "Bob", "Cid"), rules_version=1)
    game.buy("Bob", 1)
    for player in ("Ann", "Bob"):
        game.apply(parse_operation({"op": "event_market_slump", "player": player, "payments": 2}))
    game.pay_bank("Bob", 2000)
    game.declare_bankruptcy("Bob")
    assert game.state()["slump"] == {"Ann": 2, "Bob": 0, "Cid": 0}


def test_the_nearest_utility_card_on_a_street_is_refused(make_game):
    """RULES.md, Money in and out: the card sends the player to the nearest utility; rent on a street with it is
    refused, and the screen names the card."""
    game = make_game("us", ("Ann", "Bob"))
    game.buy("Ann", 39)
    refused(game, lambda: game.pay_rent("Bob", 39, card="nearest_utility"), RuleViolation,
            code="rent_card_wrong_deed", params={"card": "nearest_utility", "square": 39, "deed": "Boardwalk",
                                                 "card_code": "part_nearest_utility"})


# -- bankruptcy (RULES.md, Debts and bankruptcy) ---------------------------------------------------------------
def test_a_bankrupts_debts_pass_and_the_others_debts_stay():
    """Ann goes bankrupt to Bob, her oldest creditor: her later debt (to Dan) is cancelled, Bob's own debt to her
    is cancelled, Cid's debt to her passes to Bob; debts between others (Cid to Dan), wherever they stand in the
    list, stay as they were."""
    from terminal.bank.bankruptcy import declare_bankruptcy
    state = _state(Ann=0, Bob=0, Cid=0)
    state.debts = (Debt("Ann", "Bob", 300), Debt("Bob", "Ann", 10), Debt("Cid", "Ann", 7), Debt("Cid", "Dan", 5),
                   Debt("Ann", "Dan", 3))
    tx = Tx(state, CLASSIC_CONFIG, CLASSIC)
    declare_bankruptcy(tx, "Ann", [])
    assert tx.s.debts == (Debt("Cid", "Bob", 7), Debt("Cid", "Dan", 5))
    assert tx.s.bankrupt_list == ["Ann"]


def test_lift_now_names_only_a_mortgaged_deed_passing_to_a_player():
    """A creditor may lift at once a mortgaged deed received from a bankrupt (RULES.md, Mortgages): not a deed
    that goes to the Bank, nor one that is not mortgaged."""
    from terminal.bank.bankruptcy import declare_bankruptcy

    def bankrupt(creditor: str, lift_now: list[int]) -> Tx:
        state = _state(Bob=0)
        state.owner.update({5: "Bob", 15: "Bob"})
        state.mortgaged[5] = True
        state.debts = (Debt("Bob", creditor, 5000),)
        tx = Tx(state, CLASSIC_CONFIG, CLASSIC)
        declare_bankruptcy(tx, "Bob", lift_now)
        return tx

    for creditor, square, deed in ((BANK, 5, "Reading Railroad"), ("Ann", 15, "Pennsylvania Railroad")):
        with pytest.raises(RuleViolation) as info:
            bankrupt(creditor, [square])
        assert (info.value.code, info.value.params) == ("lift_now_not_received", {"square": square, "deed": deed})
    tx = bankrupt("Ann", [5])  # Ann pays 10 % (10) and lifts it for its mortgage value (100)
    assert (tx.s.owner[5], tx.s.owner[15], tx.s.mortgaged.get(5), tx.s.cash["Ann"]) == ("Ann", "Ann", None, 1390)


# -- the engine's own computations -----------------------------------------------------------------------------
def test_a_trades_cash_below_zero_is_refused_as_cash_in_a_trade(make_game):
    game = make_game("us", ("Ann", "Bob"))
    game.buy("Bob", 1)
    refused(game, lambda: game.trade("Ann", "Bob", {"cash": -5}, {"squares": [1]}), InvalidAmount,
            code="amount_not_positive", params={"amount": -5, "what": "cash in a trade"})


def test_replaying_effects_backwards_gives_the_state_before():
    """engine.replay_effects(inverse=True): the changes undone last first (a key changed twice in one entry comes
    back to its first value), a level back to 0 and a mortgage lifted leave no key."""
    from terminal.bank import engine
    from terminal.bank.types import Change, Effects, Posting
    before = _state()
    before.owner[1] = "Ann"
    effects = Effects(postings=[Posting("Ann", BANK, 150)],
                      changes=[Change("level", 1, None, 1), Change("level", 1, 1, 2),
                               Change("mortgaged", 3, None, True), Change("owner", 3, None, "Ann")])
    after = engine.replay_effects(before, effects)
    assert (after.level, after.mortgaged, after.owner, after.cash["Ann"]) == ({1: 2}, {3: True}, {1: "Ann", 3: "Ann"},
                                                                              1350)
    back = engine.replay_effects(after, effects, inverse=True)
    assert (back.level, back.mortgaged, back.owner, back.cash) == ({}, {}, {1: "Ann"}, before.cash)
    sold = engine.replay_effects(after, Effects(changes=[Change("level", 1, 2, 0),
                                                         Change("mortgaged", 3, True, False)]))
    assert (sold.level, sold.mortgaged) == ({}, {})
    # a square's number given as text (a JSON object's key) is the square
    as_text = [Change("owner", "5", None, "Bob"), Change("level", "5", None, 2), Change("mortgaged", "6", None, True)]
    read = engine.replay_effects(before, Effects(changes=as_text))
    assert (read.owner, read.level, read.mortgaged) == ({1: "Ann", 5: "Bob"}, {5: 2}, {6: True})


def _time_limited(limit_s: int, **game: int) -> tuple[State, GameConfig]:
    state = _state()
    state.game.update(game)
    return state, GameConfig(US, "time_limit", dict(US.rules), time_limit_s=limit_s)


def test_a_time_limit_counts_from_no_play_time_at_all():
    """docs/table-log.md, Time limit: a game with no play time recorded has played 0 s: a limit of 1 s is not up
    before the first second, a limit of 0 s is."""
    from terminal.bank import engine
    assert not engine.time_is_up(*_time_limited(1))
    assert engine.time_is_up(*_time_limited(0))
    assert engine.time_is_up(*_time_limited(1, played_s=1))
    assert not engine.time_is_up(*_time_limited(1, played_s=1, over=True))


def test_undoing_the_end_lifts_the_limit_only_when_the_time_was_played():
    """engine.undo_effects: undoing ``end_game`` or ``x_time_up`` once the time is played lifts the limit (the
    banker then ends the game by hand); undoing an end before the time, or any other operation, does not."""
    from terminal.bank import engine
    from terminal.bank.types import Change, Effects
    ended = Effects(changes=[Change("game", "over", None, True)])
    lifted = Change("game", "lifted", None, True)

    def undo(op: str, limit_s: int, **game: int) -> list:
        state, config = _time_limited(limit_s, **game)
        return engine.undo_effects(state, config, {"op": op}, ended).changes

    assert undo("end_game", 1) == [Change("game", "over", True, None)]  # no play time: 0 s of the 1 s played
    assert undo("end_game", 1, played_s=1)[-1] == lifted
    assert undo("x_time_up", 60, played_s=61)[-1] == lifted
    assert lifted not in undo("pass_go", 60, played_s=61)
    classic = engine.undo_effects(_state(), CLASSIC_CONFIG, {"op": "end_game"}, ended).changes
    assert lifted not in classic


@pytest.mark.parametrize("flag", ["buy_or_raise", "land"])
def test_where_a_move_to_any_property_card_applies_follows_the_landing_flag(flag):
    """docs/RULES.md, The Ultimate Banking board: a "move to any property" card lands like a Location: an unowned
    property, one's own below level 5, and another's only under ``location_landing = "land"``."""
    config = GameConfig(ULTIMATE, "ultimate", {**ULTIMATE.rules, "location_landing": flag})
    squares = [d.index for d in ultimate.properties(ULTIMATE)]
    bobs = squares[5]
    state = _ultimate_state({1: 5, 3: 4, bobs: 2}, {1: "Ann", 3: "Ann", bobs: "Bob"})
    listed = ultimate.event_targets(state, config, "Ann", "move_to_property")["any_property"]
    assert listed == [s for s in squares if s != 1 and (flag == "land" or s != bobs)]


def test_a_rent_in_a_market_slump_says_why():
    """During the payer's market slump the rent is at level 1, and its reason says so (``level_slump``)."""
    config = GameConfig(ULTIMATE, "ultimate", dict(ULTIMATE.rules))
    state = _ultimate_state({1: 4}, {1: "Ann"})
    deed = ULTIMATE.squares[1]
    assert ultimate.rent_at_level(state, config, "Ann", "Bob", deed) == Rent(deed.rents[3], "Ann", "level",
                                                                               {"level": 4})
    state.game["slump"] = {"Bob": 2}
    assert ultimate.rent_at_level(state, config, "Ann", "Bob", deed) == Rent(deed.rents[0], "Ann", "level_slump",
                                                                               {"level": 1})


def test_the_board_plays_an_event_card_of_the_games_rules_version():
    """Card 19 is a movement in the deck of rules version 1 and a "move to any property" from version 2: the board
    reads the number in the game's deck."""
    board = ultimate.BOARD
    assert board.event_operation(ULTIMATE, 19, "Ann", 1).to_json() == {"op": "event_movement", "player": "Ann",
                                                                         "card": 19}
    assert board.event_operation(ULTIMATE, 19, "Ann", 2, square=6).to_json() == {
        "op": "event_move_to_property", "player": "Ann", "square": 6, "card": 19}


# -- refusals checked by their code and params (what the screen translates) ------------------------------------
def test_refusals_of_the_engine_by_their_code(make_game):
    from terminal.bank import engine
    from terminal.errors import MalformedOperation
    game = make_game("us", ("Ann", "Bob"))
    game.buy("Ann", 1)
    refused(game, lambda: game.trade("Ann", "Bob", {"squares": [1, 1]}, {"cash": 5}), RuleViolation,
            code="trade_duplicate", params={})
    refused(game, lambda: game.trade("Ann", "Bob", {"jail_cards": -1}, {"cash": 5}), RuleViolation,
            code="trade_negative", params={})
    refused(game, lambda: game.apply(parse_operation({"op": "x_play_time", "seconds": 5})), RuleViolation,
            code="play_time_not_time_limit", params={"mode": "classic"})
    with pytest.raises(MalformedOperation) as info:
        engine.apply(_state(), CLASSIC_CONFIG, {"op": "undo"})
    assert (info.value.code, info.value.params) == ("undo_not_here", {})


def test_refusals_of_auctions_and_amounts_by_their_code(make_game):
    game = make_game("us", ("Ann", "Bob"))
    refused(game, lambda: game.start_building_auction("castle"), RuleViolation,
            code="auction_bad_building", params={"building": "castle"})
    from terminal.bank.money import check_amount
    with pytest.raises(InvalidAmount) as info:
        check_amount(1.5, US, what="bid")
    assert (info.value.code, info.value.params) == ("amount_not_whole", {"amount": "1.5", "what": "bid"})


def test_a_location_buy_refused_says_what_it_was_for(make_game):
    """A Location's buy is a voluntary payment (docs/RULES.md, The Ultimate Banking board): refused without the
    cash after the fee, or in debt, the refusal saying it was for buying the property."""
    from terminal.errors import PlayerInDebt
    game = make_game("ultimate", ("Ann", "Bob"))
    game.pay_bank("Ann", 1400)  # 100 left: the fee takes it all, nothing is left for the price of 60
    refused(game, lambda: game.location("Ann", 1, buy=True), InsufficientCash, code="insufficient_cash",
            params={"player": "Ann", "amount": 60, "cash": 0, "what": "buying Boulevard de Belleville"})
    game.pay_bank("Ann", 150)  # 50 in debt
    with pytest.raises(PlayerInDebt) as info:
        game.location("Ann", 1, buy=True)
    assert (info.value.code, info.value.params["what"]) == ("player_in_debt", "buying Boulevard de Belleville")


# -- the transaction's helpers ---------------------------------------------------------------------------------
def test_the_bank_and_the_pot_are_named_the_bank():
    from terminal.bank.state import POT
    from terminal.bank.tx import account_name
    assert (account_name(BANK), account_name(POT), account_name("Ann")) == ("the Bank", "the Bank", "Ann")


def test_a_recorded_value_is_copied_with_the_dicts_it_lists():
    """tx.copy_value: what a change records is a copy (a list's dicts too), so that the state it came from can
    change without changing the record."""
    from terminal.bank.tx import copy_value
    debts = [{"debtor": "Ann", "creditor": "bank", "amount": 5}, 7]
    copied = copy_value(debts)
    assert copied == debts and copied is not debts and copied[0] is not debts[0]
    table = {"houses": 32}
    assert copy_value(table) == table and copy_value(table) is not table
    assert copy_value(3) == 3


@pytest.mark.parametrize("square", [True, False, -1, 40, "5", 5.0])
def test_a_square_is_an_int_of_the_board(square):
    """A square is an int from 0 to the board's last (a JSON ``true`` is no square 1)."""
    from terminal.errors import UnknownName
    tx = Tx(_state(), CLASSIC_CONFIG, CLASSIC)
    with pytest.raises(UnknownName) as info:
        tx.deed(square)
    assert (info.value.code, info.value.params) == ("unknown_square", {"square": square})


def test_a_deed_dealt_twice_is_refused():
    """The quick game's deal (RULES.md, End of the game): each deed goes to one player."""
    from terminal.bank import engine
    quick = GameConfig(US, "quick", dict(US.rules))
    with pytest.raises(RuleViolation) as info:
        engine.setup_effects(State.new(US, PLAYERS), quick, {"Ann": [1, 3], "Bob": [5, 3]})
    assert (info.value.code, info.value.params) == ("dealt_twice", {"square": 3, "deed": "Baltic Avenue"})
    state, _ = engine.setup_effects(State.new(US, PLAYERS), quick, {"Ann": [1, 3], "Bob": [5, 6]})
    assert state.owner == {1: "Ann", 3: "Ann", 5: "Bob", 6: "Bob"} and state.cash["Ann"] == 1500 - 60 - 60
