"""Every refusal of the Ultimate Banking board by its code and params (what the screen translates), each from a
rule of docs/RULES.md, The Ultimate Banking board (the table logs mark these lines only ``"refused": true``).

The game: Ann holds squares 1, 3 and 35 (Rue de la Paix, raised to level 5), Bob holds square 5. Names are the
``ultimate`` edition's (the French board's streets, by default).
"""
from __future__ import annotations

import pytest

from terminal.bank.operations import parse_operation
from terminal.errors import PlayerInDebt, RuleViolation
from tests.terminal.refusals import refused


def _apply(game, line):
    """``game.apply`` of the table-log line ``line`` (a dict)."""
    return game.apply(parse_operation(line))

NAMES = {1: "Boulevard de Belleville", 3: "Rue Lecourbe", 6: "Rue de Courcelles", 35: "Rue de la Paix"}


@pytest.fixture
def game(make_game):
    game = make_game("ultimate", ("Ann", "Bob"))
    for square in (1, 3, 35):
        game.buy("Ann", square)
    game.buy("Bob", 5)
    for _ in range(4):
        game.raise_level("Ann", 35)
    return game


def _deed(square):
    return {"square": square, "deed": NAMES[square]}


#: The printed deck's numbers (rules version 2), as a refusal lists them.
DECK = "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 23, 24"

CASES = [
    # levels stay within 1-5; the owner's landing at 5 and an Event to level 5 at 5 are refused
    ("raise at 5", lambda g: g.raise_level("Ann", 35), "level_at_max", _deed(35)),
    ("max level at 5", lambda g: _apply(g, {"op": "event_max_level", "player": "Ann", "square": 35}), "level_at_max",
     _deed(35)),
    ("reset at 1", lambda g: _apply(g, {"op": "event_reset_level", "player": "Ann", "square": 3}), "level_at_min",
     _deed(3)),
    ("reset unowned", lambda g: _apply(g, {"op": "event_reset_level", "player": "Ann", "square": 6}), "level_unowned",
     _deed(6)),
    # a property is bought from the Bank only
    ("buy owned", lambda g: g.buy("Bob", 1), "property_owned", {**_deed(1), "owner": "Ann"}),
    ("location buy owned", lambda g: g.location("Bob", 1, buy=True), "property_owned", {**_deed(1), "owner": "Ann"}),
    # sold back to the Bank only to cover a charge
    ("sell without debt", lambda g: g.sell_property("Ann", 1), "sell_not_in_debt", {"player": "Ann", **_deed(1)}),
    # a swap is with an opponent's property
    ("swap unowned", lambda g: _apply(g, {"op": "event_swap", "player": "Ann", "square": 1, "other": 6}),
     "swap_unowned", _deed(6)),
    ("swap own", lambda g: _apply(g, {"op": "event_swap", "player": "Ann", "square": 1, "other": 3}), "swap_own",
     {**_deed(3), "player": "Ann"}),
    # an Event that would change no level is refused; sides 1-4; the 8 colour groups; a slump of 1-10 payments
    ("side without property", lambda g: _apply(g, {"op": "event_side_down", "player": "Ann", "side": 2}),
     "event_side_not_yours", {"player": "Ann", "side": 2}),
    ("side 5", lambda g: _apply(g, {"op": "event_side_up", "player": "Ann", "side": 5}), "bad_side", {"side": 5}),
    ("unknown group", lambda g: _apply(g, {"op": "event_group_up", "player": "Ann", "group": "purple"}),
     "unknown_group", {"group": "purple"}),
    ("slump of 11", lambda g: _apply(g, {"op": "event_market_slump", "player": "Ann", "payments": 11}), "bad_slump",
     {"payments": 11}),
    ("slump of 0", lambda g: _apply(g, {"op": "event_market_slump", "player": "Ann", "payments": 0}), "bad_slump",
     {"payments": 0}),
    ("both collect with oneself",
     lambda g: _apply(g, {"op": "event_both_collect", "player": "Ann", "opponent": "Ann", "amount": 200}),
     "event_opponent_self", {"player": "Ann"}),
    # the Event cards by number: 1-22, each of one effect, with the targets its effect needs
    ("card of another effect", lambda g: _apply(g, {"op": "event_movement", "player": "Ann", "card": 1}),
     "event_card_mismatch", {"card": 1, "op": "event_movement"}),
    ("card 25", lambda g: g.event("Ann", 25), "unknown_event_card", {"card": 25, "cards": DECK}),
    ("card True", lambda g: g.event("Ann", True), "unknown_event_card", {"card": True, "cards": DECK}),
    ("card '1'", lambda g: g.event("Ann", "1"), "unknown_event_card", {"card": "1", "cards": DECK}),
    ("card without targets", lambda g: g.event("Ann", 1), "event_targets",
     {"card": 1, "needs": ["own_property", "opponent_property"]}),
    ("unknown effect", lambda g: g.event_targets("Ann", "teleport"), "unknown_event_action", {"action": "teleport"}),
    # no dice, no rent cards, no mortgages on this board
    ("rent with dice", lambda g: g.pay_rent("Bob", 1, dice=7), "rent_no_dice", _deed(1)),
    ("rent with a card", lambda g: g.pay_rent("Bob", 1, card="nearest_railroad"), "rent_no_card",
     {**_deed(1), "card": "nearest_railroad"}),
    ("mortgage", lambda g: g.mortgage("Ann", 1), "not_on_this_board", {"op": "mortgage"}),
]


@pytest.mark.parametrize(("call", "code", "params"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_refusal_of_the_board(game, call, code, params):
    refused(game, lambda: call(game), RuleViolation, code=code, params=params)


def test_a_debtor_refusals(game):
    """Bob (1400 in cash, property 5 at 100) pays a card of 1450: he owes 50. No mortgages to lift; no bankruptcy
    while selling property 5 back (100) could pay; no purchase while in debt."""
    game.pay_bank("Bob", 1450)
    refused(game, lambda: game.declare_bankruptcy("Bob", lift_now=[5]), RuleViolation, code="no_mortgages_here",
            params={"square": 5})
    refused(game, lambda: game.declare_bankruptcy("Bob"), RuleViolation, code="bankruptcy_can_sell",
            params={"player": "Bob", "owed": 50, "raisable": 100})
    error = refused(game, lambda: game.buy("Bob", 6), PlayerInDebt, code="player_in_debt",
                    params={"player": "Bob", "what": "buying Rue de Courcelles", "owed": 50,
                            "debts": [{"debtor": "Bob", "creditor": "bank", "amount": 50}], "creditor_list": ["bank"],
                            "remedy_code": "part_debt_remedy_ultimate"})
    assert "selling properties back" in str(error)


def test_a_purchase_without_the_cash(game):
    """Buying is a voluntary payment: refused without the cash (RULES.md, Debts and bankruptcy)."""
    game.pay_bank("Bob", 1350)
    refused(game, lambda: game.buy("Bob", 6), RuleViolation, code="insufficient_cash",
            params={"player": "Bob", "amount": 100, "cash": 50, "what": "buying Rue de Courcelles"})


def test_the_flags_refusals(make_game):
    """``location_landing = "buy_or_raise"``: after a Location only an unowned property or one's own;
    ``charge_beyond_cash = "bankrupt"``: nothing is sold back."""
    game = make_game("ultimate", ("Ann", "Bob"),
                     rules={"location_landing": "buy_or_raise", "charge_beyond_cash": "bankrupt"})
    game.buy("Ann", 1)
    game.buy("Bob", 3)
    game.pay_bank("Bob", 1500)
    refused(game, lambda: game.location("Bob", 1), RuleViolation, code="location_not_yours",
            params={**_deed(1), "owner": "Ann"})
    refused(game, lambda: game.sell_property("Bob", 3), RuleViolation, code="sell_not_allowed", params=_deed(3))


def test_a_classic_game_refuses_this_boards_operations(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    game.buy("Ann", 1)
    refused(game, lambda: game.raise_level("Ann", 1), RuleViolation, code="ultimate_only", params={"op": "raise_level"})
