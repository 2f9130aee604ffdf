"""The Bank's door (docs/bank-door.md): a preview commits without being computed again while the journal has not
moved, and is computed again when it has; the receipt carries the record and the debts the commit created; a
rent carries the reason the rules gave."""
from __future__ import annotations

import pytest

from terminal.bank import engine
from terminal.bank.door import Preview
from terminal.bank.operations import Buy, PassGo, PayRent, PlayTime, TimeUp, Transfer, Undo
from terminal.bank.types import Debt, Rent
from terminal.errors import InsufficientCash, NothingToUndo
from tests.terminal.oracles import journal_of


@pytest.fixture
def count_engine(monkeypatch):
    """How many times the rules engine computed an operation (``engine.apply``)."""
    calls: list[object] = []
    real = engine.apply

    def counted(state, config, op):
        calls.append(op)
        return real(state, config, op)
    monkeypatch.setattr(engine, "apply", counted)
    return calls


def test_a_preview_commits_without_being_computed_again(make_game, count_engine):
    game = make_game("us", ("Ann", "Bob"))
    preview = game.preview(Buy("Ann", 39))
    assert isinstance(preview, Preview) and len(count_engine) == 1
    assert preview.postings == (("Ann", "bank", 400),) and preview.paid("Ann", "bank") == 400
    assert game.cash("Ann") == 1500  # nothing is committed by a preview
    receipt = game.commit(preview)
    assert len(count_engine) == 1, "the commit computed the operation again"
    assert receipt.operation == Buy("Ann", 39) and receipt.postings == preview.postings
    assert game.cash("Ann") == 1100 and game.current is preview.after
    assert journal_of(game)[-1]["op"] == {"op": "buy", "player": "Ann", "square": 39}


def test_apply_computes_once(make_game, count_engine):
    game = make_game("us", ("Ann", "Bob"))
    game.apply(PassGo("Ann"))
    game.pass_go("Bob")
    assert len(count_engine) == 2


def test_a_preview_is_computed_again_when_the_journal_moved(make_game, count_engine):
    game = make_game("us", ("Ann", "Bob"))
    preview = game.preview(Buy("Ann", 37))  # 350 of Ann's 1 500
    game.transfer("Ann", "Bob", 1200)  # the journal moves: Ann has 300
    with pytest.raises(InsufficientCash):
        game.commit(preview)
    ok = game.preview(Buy("Ann", 1))  # 60
    game.pass_go("Ann")  # the journal moves: 200 more for Ann
    computed = len(count_engine)
    receipt = game.commit(ok)
    assert len(count_engine) == computed + 1, "the operation was not computed again on the game as it now is"
    assert receipt.operation == Buy("Ann", 1) and game.cash("Ann") == 300 + 200 - 60


def test_a_stale_preview_refused_when_committed_writes_nothing(make_game):
    game = make_game("us", ("Ann", "Bob"))
    preview = game.preview(Transfer("Ann", "Bob", 1500))
    game.pass_go("Bob")
    game.transfer("Ann", "Bob", 1)  # Ann can no longer pay 1 500
    entries = game.ledger.last_entry()
    with pytest.raises(InsufficientCash):
        game.commit(preview)
    assert game.ledger.last_entry() == entries and game.cash("Ann") == 1499


def test_an_undo_previewed_then_committed(make_game, count_engine):
    game = make_game("us", ("Ann", "Bob"))
    game.buy("Ann", 39)
    preview = game.preview(Undo())
    assert preview.undone == Buy("Ann", 39) and preview.postings == (("bank", "Ann", 400),)
    receipt = game.commit(preview)
    assert receipt.operation == Undo() and receipt.undone == Buy("Ann", 39)
    assert game.cash("Ann") == 1500 and len(count_engine) == 1  # the buy; the undo replays recorded effects
    with pytest.raises(NothingToUndo):
        game.preview(Undo())


def test_a_stale_undo_undoes_what_is_last_when_committed(make_game):
    game = make_game("us", ("Ann", "Bob"))
    game.buy("Ann", 39)
    preview = game.preview(Undo())  # would undo the buy
    game.pass_go("Bob")
    receipt = game.commit(preview)
    assert receipt.undone == PassGo("Bob") and game.cash("Bob") == 1500 and game.cash("Ann") == 1100


def test_the_receipt_names_the_debts_the_commit_created(make_game):
    game = make_game("us", ("Ann", "Bob"))
    game.buy("Ann", 37)
    game.buy("Ann", 39)
    game.build("Ann", 37)
    game.build("Ann", 39)
    game.transfer("Bob", "Ann", 1450)  # Bob keeps 50
    preview = game.preview(PayRent("Bob", 39))
    assert preview.rent == Rent(200, "Ann", "houses", {"n": 1})
    assert preview.debts_created == (Debt("Bob", "Ann", 150),)
    receipt = game.commit(preview)
    assert receipt.debts_created == (Debt("Bob", "Ann", 150),) and receipt.rent == preview.rent
    assert receipt.paid("Bob", "Ann") == 50
    paid_off = game.bank_pays("Bob", 100)  # pays 100 of the debt: creates none
    assert paid_off.debts_created == () and game.current.debts == (Debt("Bob", "Ann", 50),)
    again = game.pay_rent("Bob", 39)  # the debt grows by the whole rent
    assert again.debts_created == (Debt("Bob", "Ann", 200),)


def test_a_rent_gives_the_reason_of_the_rules(make_game):
    game = make_game("us", ("Ann", "Bob"))
    game.buy("Ann", 5)
    game.buy("Ann", 15)
    assert game.rent("Bob", 5) == Rent(50, "Ann", "railroads", {"n": 2})
    assert game.rent("Bob", 5, card="nearest_railroad") == Rent(100, "Ann", "railroad_card", {"n": 2})
    game.buy("Ann", 1)
    assert game.rent("Bob", 1) == Rent(2, "Ann", "bare")
    game.buy("Ann", 3)
    assert game.rent("Bob", 3) == Rent(8, "Ann", "group")
    assert game.pay_rent("Bob", 3).rent == Rent(8, "Ann", "group")
    assert game.pass_go("Bob").rent is None


def test_the_end_a_play_time_causes_is_committed_after_it(make_game):
    game = make_game("us", ("Ann", "Bob"), mode="time_limit", length_minutes=1)
    receipt = game.commit(game.preview(PlayTime(60)))
    assert receipt.operation == PlayTime(60) and game.is_over()
    assert game.ledger.entry(receipt.seq + 1).op == TimeUp().to_json()
