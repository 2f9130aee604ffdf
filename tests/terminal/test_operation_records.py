"""The typed records of the Bank: operations parsed once from table-log lines and written back exactly as the
journal stores them; postings, changes and debts in their stored JSON form."""
from __future__ import annotations

import dataclasses
import json
import re

import pytest

from terminal.bank import engine, ultimate
from terminal.bank.ledger.records import canonical
from terminal.bank.operations import (
    CLASSIC_OPERATIONS,
    OPERATIONS,
    ULTIMATE_OPERATIONS,
    Buy,
    SellBuilding,
    Trade,
    TradeSide,
    Transfer,
    Undo,
    parse_operation,
)
from terminal.bank.state import State
from terminal.bank.types import Change, Debt, Effects, Posting
from terminal.errors import MalformedOperation
from tests.conftest import OWN_LOGS, RECORDED, ROOT
from tests.terminal.oracles import journal_of


def _operation_lines():
    for path in sorted([*OWN_LOGS.glob("*.jsonl"), *RECORDED.glob("*.jsonl")]):
        for text in path.read_text(encoding="utf-8").splitlines():
            text = text.strip()
            if text.startswith("{") and '"op"' in text:
                line = json.loads(text)
                if "op" in line:
                    yield line


def test_every_operation_of_the_spec_has_a_record():
    spec = (ROOT / "docs" / "table-log.md").read_text(encoding="utf-8")
    table = spec[spec.index("## Operations"):spec.index("## Checks")]
    names = set()
    for row in table.splitlines():
        if row.startswith("| `"):
            names.update(re.findall(r"`([a-z_]+)`", row.split("|")[1]))
    assert names == set(OPERATIONS)
    assert all(OPERATIONS[name].op == name for name in names)
    # The engine computes every operation of the classic board but undo (the ledger's); the electronic board's
    # own operations are computed in its file.
    assert set(engine._HANDLERS) == CLASSIC_OPERATIONS - {Undo}
    assert set(ultimate._HANDLERS) >= ULTIMATE_OPERATIONS
    assert set(engine._HANDLERS) | set(ultimate._HANDLERS) == set(OPERATIONS.values()) - {Undo}


def test_every_logged_operation_is_written_back_as_it_was_read():
    lines = list(_operation_lines())
    assert len(lines) > 1000
    kinds = set()
    for line in lines:
        record = parse_operation(line)
        kinds.add(type(record))
        stored = {k: v for k, v in line.items() if k != "refused"}
        assert record.to_json() == stored
        assert canonical(record.to_json()) == canonical(stored)
        assert parse_operation(record) is record
        assert parse_operation(record.to_json()) == record
    assert len(kinds) >= 20


def test_fields_left_out_stay_out_and_fields_given_stay_in():
    assert parse_operation({"op": "sell_building", "player": "Ann", "square": 39}).to_json() == \
        {"op": "sell_building", "player": "Ann", "square": 39}
    assert parse_operation({"op": "sell_building", "player": "Ann", "square": 39, "whole": False}).to_json() == \
        {"op": "sell_building", "player": "Ann", "square": 39, "whole": False}
    trade = parse_operation({"op": "trade", "a": "Ann", "b": "Bob", "a_gives": {"cash": 0},
                             "b_gives": {"squares": [1, 3]}, "lift_now": []})
    assert trade == Trade("Ann", "Bob", TradeSide(cash=0), TradeSide(squares=(1, 3)), lift_now=())
    assert trade.to_json()["a_gives"] == {"cash": 0} and trade.to_json()["lift_now"] == []


def test_transfer_keeps_from_and_to():
    record = parse_operation({"op": "transfer", "from": "Ann", "to": "bank", "amount": 20, "refused": True})
    assert record == Transfer(payer="Ann", payee="bank", amount=20)
    assert record.to_json() == {"op": "transfer", "from": "Ann", "to": "bank", "amount": 20}


def test_records_are_immutable():
    record = Buy("Ann", 39)
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.square = 1  # type: ignore[misc]
    assert hash(SellBuilding("Ann", 39)) == hash(SellBuilding("Ann", 39))


@pytest.mark.parametrize(("line", "code", "message"), [
    ([1], "not_an_operation", "Not an operation: [1]."),
    ({"player": "Ann"}, "not_an_operation", "Not an operation: {'player': 'Ann'}."),
    ({"op": "fly"}, "unknown_operation", "Unknown operation 'fly'."),
    ({"op": "buy", "player": "Ann", "square": 39, "colour": "red"}, "unknown_field", "buy: unknown field 'colour'."),
    ({"op": "buy", "player": "Ann", "square": "39"}, "wrong_type", "buy: field 'square' must be int, not '39'."),
    ({"op": "buy", "player": "Ann", "square": True}, "wrong_type", "buy: field 'square' must be int, not True."),
    ({"op": "buy", "square": 39}, "missing_field", "buy: missing field 'player'."),
    # Fields are checked in the line's order, the missing ones after.
    ({"op": "buy", "colour": "red", "square": "x"}, "unknown_field", "buy: unknown field 'colour'."),
    ({"op": "buy", "square": "x"}, "wrong_type", "buy: field 'square' must be int, not 'x'."),
    ({"op": "pass_go", "player": "Ann", "refused": "yes"}, "wrong_type", "pass_go: 'refused' must be true or false."),
    ({"op": "trade", "a": "Ann", "b": "Bob", "a_gives": {"deeds": [1]}, "b_gives": {}}, "wrong_type",
     "trade: a_gives.deeds is not a valid field ([1])."),
    ({"op": "trade", "a": "Ann", "b": "Bob", "a_gives": {}, "b_gives": {"squares": [1, True]}}, "wrong_type",
     "trade: b_gives.squares must be square numbers."),
    ({"op": "declare_bankruptcy", "player": "Ann", "lift_now": ["5"]}, "wrong_type",
     "declare_bankruptcy: lift_now must list square numbers."),
])
def test_malformed_lines_are_refused_with_their_code(line, code, message):
    with pytest.raises(MalformedOperation) as info:
        parse_operation(line)
    assert info.value.code == code
    assert str(info.value) == message


def test_postings_and_changes_are_stored_as_arrays_and_debts_as_objects():
    effects = Effects([Posting("Bob", "Ann", 50)],
                      [Change("owner", 39, None, "Ann"),
                       Change("debts", "list", [], [Debt("Bob", "Ann", 30).to_json()])])
    assert canonical(effects.to_json()) == ('{"changes":[["owner",39,null,"Ann"],["debts","list",[],'
                                            '[{"amount":30,"creditor":"Ann","debtor":"Bob"}]]],'
                                            '"postings":[["Bob","Ann",50]]}')
    assert Effects.from_json(json.loads(canonical(effects.to_json()))) == effects
    assert Posting("Bob", "Ann", 50) == ("Bob", "Ann", 50)


def test_a_debt_is_one_record_stored_as_its_json(make_game):
    debt = Debt("Bob", "Ann", 30)
    assert debt.amount == 30 and debt.to_json() == {"debtor": "Bob", "creditor": "Ann", "amount": 30}
    assert Debt.from_json(debt.to_json()) == debt
    with pytest.raises(TypeError):
        debt["amount"]  # type: ignore[index]  # read by attribute: no mapping beside it
    game = make_game("us", ("Ann", "Bob"))
    game.buy("Ann", 39)
    game.pay_bank("Bob", 1600)
    assert game.current.debts == (Debt("Bob", "bank", 100),)
    state = game.raw_state.to_json()
    assert state["debts"] == {"list": [{"debtor": "Bob", "creditor": "bank", "amount": 100}]}
    assert State.from_json(state).debts == game.current.debts


def test_the_game_takes_a_record_and_refuses_a_line(make_game):
    game = make_game("us", ("Ann", "Bob"))
    receipt = game.apply(Buy("Ann", 39))
    assert receipt.operation.to_json() == {"op": "buy", "player": "Ann", "square": 39}
    assert journal_of(game)[-1]["op"] == receipt.operation.to_json()
    assert game.preview(Undo()).effects.postings == [Posting("bank", "Ann", 400)]
    written = len(journal_of(game))
    for line in ({"op": "undo"}, {"op": "pass_go", "player": "Ann"}):  # a table-log line is parsed first
        with pytest.raises(MalformedOperation) as refused:
            game.apply(line)
        assert refused.value.code == "not_an_operation"
        with pytest.raises(MalformedOperation):
            game.preview(line)
    assert len(journal_of(game)) == written and game.cash("Ann") == 1100
    game.apply(parse_operation({"op": "undo"}))
    assert game.cash("Ann") == 1500


def test_each_records_fields_as_the_log_writes_them():
    """The fields of a record, as parse_operation checks a line: the record's attribute, the line's key (``from``
    and ``to`` for a transfer), the JSON type of the annotation (``int | None`` -> ``int``, a trade side ->
    ``dict``, a tuple of squares -> ``list``) and whether the line must give it (no default)."""
    from terminal.bank.operations import DeclareBankruptcy, Location, PayRent, _Field, _fields_of, _kind
    assert _fields_of(PayRent) == (_Field("player", "player", str, True), _Field("square", "square", int, True),
                                   _Field("dice", "dice", int, False), _Field("card", "card", str, False))
    assert _fields_of(Transfer) == (_Field("payer", "from", str, True), _Field("payee", "to", str, True),
                                    _Field("amount", "amount", int, True))
    assert _fields_of(Trade) == (_Field("a", "a", str, True), _Field("b", "b", str, True),
                                 _Field("a_gives", "a_gives", dict, True), _Field("b_gives", "b_gives", dict, True),
                                 _Field("lift_now", "lift_now", list, False))
    assert _fields_of(Location)[-1] == _Field("buy", "buy", bool, False)
    assert _fields_of(DeclareBankruptcy)[-1] == _Field("lift_now", "lift_now", list, False)
    assert (_kind(int), _kind(str | None), _kind(bool | None), _kind(TradeSide), _kind(tuple[int, ...] | None)) == (
        int, str, bool, dict, list)
    for hint in (float, list[int], dict[str, int] | None):
        with pytest.raises(TypeError):
            _kind(hint)


def _malformed(call, field, op="trade"):
    with pytest.raises(MalformedOperation) as info:
        call()
    assert (info.value.code, info.value.params) == ("wrong_type", {"op": op, "field": field})


def test_a_record_built_by_hand_is_checked_and_shaped_as_a_parsed_line():
    """Operation.__post_init__: a trade side given in its table-log form becomes a TradeSide (checked, the error
    naming the side), a list of squares a tuple, and every field is checked, also after an optional one left
    out."""
    from terminal.bank.operations import DeclareBankruptcy, PayRent
    given = TradeSide(jail_cards=1)
    trade = Trade(a="Ann", b="Bob", a_gives={"cash": 5, "squares": [1, 3]}, b_gives=given, lift_now=[3])
    assert trade.a_gives == TradeSide(cash=5, squares=(1, 3)) and trade.b_gives is given
    assert trade.lift_now == (3,)
    assert trade == parse_operation({"op": "trade", "a": "Ann", "b": "Bob", "a_gives": {"cash": 5, "squares": [1, 3]},
                                     "b_gives": {"jail_cards": 1}, "lift_now": [3]})
    assert DeclareBankruptcy(player="Ann", lift_now=[5, 15]).lift_now == (5, 15)
    assert DeclareBankruptcy(player="Ann", lift_now=(5, 15)).lift_now == (5, 15)
    _malformed(lambda: Trade(a="Ann", b="Bob", a_gives={}, b_gives={"cash": "5"}), "b_gives.cash")
    _malformed(lambda: Trade(a="Ann", b="Bob", a_gives=[5], b_gives={}), "a_gives")
    _malformed(lambda: DeclareBankruptcy(player="Ann", lift_now=[5, "15"]), "lift_now", "declare_bankruptcy")
    _malformed(lambda: PayRent(player="Ann", square=1, dice=None, card=5), "card", "pay_rent")
    with pytest.raises(MalformedOperation) as info:
        PayRent(player=None, square=1)
    assert (info.value.code, info.value.params) == ("missing_field", {"op": "pay_rent", "field": "player"})


def test_a_trade_side_built_by_hand_is_checked():
    assert TradeSide(cash=5, squares=[1, 3]).squares == (1, 3)
    _malformed(lambda: TradeSide(cash="5"), "cash")
    _malformed(lambda: TradeSide(cash=None, squares=["1"]), "squares")
    _malformed(lambda: TradeSide(squares=[1, "3"]), "squares")
    _malformed(lambda: TradeSide(squares=None, jail_cards=True), "jail_cards")
    _malformed(lambda: TradeSide.of({"cash": "5"}), "a_gives.cash")  # the side named by default
    _malformed(lambda: TradeSide.of({"cash": "5"}, "b_gives"), "b_gives.cash")


def test_an_unknown_operation_is_refused_naming_it():
    with pytest.raises(MalformedOperation) as info:
        parse_operation({"op": "pay_everyone"})
    assert (info.value.code, info.value.params) == ("unknown_operation", {"op": "pay_everyone"})
