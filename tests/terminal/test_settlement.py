"""The settlement of debts (issue 17; RULES.md, Debts and bankruptcy): everything a player in debt receives goes
to their creditors, oldest debt first, even when the money reaches them in the middle of a settlement, however
deep the chain of debtors paying debtors.

The outcome is checked against a small model of the rule written here, independently of the engine's code:
the settled state is the one in which each debtor has paid on its debts, oldest first, everything it has had
(its cash plus everything it was paid), up to what it owes; the model solves those equations from "nobody
paid anything" upwards, for all debtors at once. Each payment the engine records is also checked on its own:
it comes from a debtor who holds the cash and goes to that debtor's oldest outstanding debt.

Then: a settlement is one journal entry; undo restores the exact cash and debts; reopening the game file
gives the same state and the full audit passes.
"""
from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.editions import load_edition
from terminal.bank import engine
from terminal.bank.board import CLASSIC
from terminal.bank.game import Game
from terminal.bank.state import BANK, State
from terminal.bank.tx import Tx
from terminal.bank.types import Debt as BankDebt
from terminal.bank.types import GameConfig
from terminal.errors import GameError
from tests.terminal.oracles import journal_of

NAMES = ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay")
QUICK = settings(derandomize=True, database=None, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

Debt = tuple[str, str, int]  # (debtor, creditor, amount), a list of them oldest first


# -- the model of the rule -----------------------------------------------------------------------------------
def rule_settlement(cash: dict[str, int], debts: list[Debt]) -> tuple[dict[str, int], list[Debt]]:
    """The settled ``(cash, debts)`` by RULES.md: each debtor pays on its debts, oldest first, everything it
    has had (cash before + all it was paid in the settlement), up to what it owes; the Bank only receives.
    The equations are solved from nothing paid upwards, all debts at once, until nothing changes: the
    smallest solution, in which no money is paid that was never there."""
    paid = [0] * len(debts)
    while True:
        had = dict(cash)
        for (_, creditor, _), amount in zip(debts, paid, strict=True):
            if creditor in had:
                had[creditor] += amount
        left = dict(had)
        pays = []
        for debtor, _, amount in debts:
            part = min(amount, left[debtor])
            left[debtor] -= part
            pays.append(part)
        if pays == paid:
            return left, [(d, c, a - p) for (d, c, a), p in zip(debts, paid, strict=True) if a > p]
        paid = pays


def payments_go_to_the_oldest_debt(cash: dict[str, int], debts: list[Debt],
                                   postings: list[tuple[str, str, int]]) -> tuple[dict[str, int], list[Debt]]:
    """Replay the recorded payments of a settlement one by one, asserting that each comes from a debtor, pays
    all the cash it has (up to the debt) and goes to that debtor's oldest outstanding debt. Returns the state
    the payments lead to."""
    cash, owed = dict(cash), [list(d) for d in debts]
    for payer, payee, amount in postings:
        oldest = next((d for d in owed if d[0] == payer and d[2] > 0), None)
        assert oldest is not None, f"{payer} paid {amount} to {payee} but owed nothing"
        assert oldest[1] == payee, f"{payer} paid {payee} before the older debt to {oldest[1]}"
        assert amount == min(cash[payer], oldest[2]), f"{payer} paid {amount}, not all they could"
        oldest[2] -= amount
        cash[payer] -= amount
        if payee in cash:
            cash[payee] += amount
    return cash, [(d, c, a) for d, c, a in owed if a > 0]


def former_settlement(cash: dict[str, int], debts: list[Debt]) -> tuple[list[tuple[str, str, int]], list[list]]:
    """The order the terminal used before issue 17: walk the whole list once per pass, each debtor paying from
    whatever it holds when its debt comes up; the list recorded after each pass that paid. Returns
    ``(postings, the debts recorded after each pass)``. Kept to check that where it already paid each debtor's
    oldest debt first, the engine still records exactly the same (so the audit of older game files agrees)."""
    cash, owed = dict(cash), [list(d) for d in debts]
    postings, recorded = [], []
    while True:
        paid = False
        for debt in owed:
            if cash[debt[0]] > 0 and debt[2] > 0:
                amount = min(cash[debt[0]], debt[2])
                cash[debt[0]] -= amount
                if debt[1] in cash:
                    cash[debt[1]] += amount
                debt[2] -= amount
                postings.append((debt[0], debt[1], amount))
                paid = True
        if not paid:
            return postings, recorded
        owed = [d for d in owed if d[2] > 0]
        recorded.append([{"debtor": d, "creditor": c, "amount": a} for d, c, a in owed])


# -- the engine's settlement, in process --------------------------------------------------------------------
US = load_edition("us")
CONFIG = GameConfig(US, "classic", dict(US.rules))


def engine_settlement(players, cash, debts, event):
    """Run ``event`` on a state holding ``cash`` and ``debts`` through :class:`Tx`: ``("settle",)`` settles
    the state as it is, ``("receive", player, amount)`` pays the player from the Bank, ``("charge", debtor,
    creditor, amount)`` is a rules-driven charge. Returns ``(tx, cash and debts the settlement starts from)``."""
    state = State.new(US, tuple(players))
    state.cash.update(cash)
    state.cash[BANK] = -sum(cash.values())
    state.debts = tuple(BankDebt(d, c, a) for d, c, a in debts)
    tx = Tx(state, CONFIG, CLASSIC)
    start_cash, start_debts = dict(cash), list(debts)
    if event[0] == "settle":
        tx.settle()
    elif event[0] == "receive":
        tx.move(BANK, event[1], event[2])
        start_cash[event[1]] += event[2]
        tx.effects.postings.clear()
        tx.settle()
    else:
        start_debts.append(event[1:])
        tx.charge(*event[1:])
    return tx, start_cash, start_debts


def _result(tx, players):
    return ({p: tx.s.cash[p] for p in players},
            [(d.debtor, d.creditor, d.amount) for d in tx.s.debts])


@st.composite
def debt_lists(draw, players):
    """Random debts among the players and to the Bank, oldest first (several to one creditor allowed)."""
    debt = st.tuples(st.sampled_from(players), st.sampled_from(players + (BANK,)), st.integers(1, 60))
    return draw(st.lists(debt.filter(lambda d: d[0] != d[1]), max_size=14))


@st.composite
def chains(draw, players):
    """A chain against the order of the list: the last player of the chain owes the oldest debt, the first
    the newest link, so that money entering at the head goes down the chain through ever older debts; newer
    debts of the same players (to anyone) come after, in random order."""
    depth = draw(st.integers(1, len(players) - 1))
    links = [(players[i], players[i + 1], draw(st.integers(1, 60))) for i in reversed(range(depth))]
    later = draw(debt_lists(players))
    return links + later


@st.composite
def settlements(draw):
    players = NAMES[:draw(st.integers(2, len(NAMES)))]
    debts = draw(st.one_of(debt_lists(players), chains(players)))
    debtors = {d for d, _, _ in debts}
    settled = draw(st.booleans())  # between operations a player in debt holds no cash
    cash = {p: 0 if settled and p in debtors else draw(st.sampled_from((0, 0, 1, 5, 20, 45, 100, 300)))
            for p in players}
    event = draw(st.one_of(
        st.just(("settle",)),
        st.tuples(st.just("receive"), st.sampled_from(players), st.integers(1, 300)),
        st.tuples(st.just("charge"), st.sampled_from(players), st.sampled_from(players + (BANK,)),
                  st.integers(1, 300)).filter(lambda e: e[1] != e[2])))
    return players, cash, debts, event


@QUICK
@given(settlements())
def test_a_settlement_follows_the_rule(case):
    players, cash, debts, event = case
    tx, start_cash, start_debts = engine_settlement(players, cash, debts, event)
    got = _result(tx, players)
    assert got == rule_settlement(start_cash, start_debts)
    assert payments_go_to_the_oldest_debt(start_cash, start_debts, tx.effects.postings) == got
    settled_cash, left = got
    assert all(settled_cash[d] == 0 for d, _, _ in left), "a debtor kept cash while owing"
    assert all(a > 0 for _, _, a in left)
    # The recorded changes of the debts follow each other and end on the list the state holds.
    lists = [(before, after) for section, _, before, after in tx.effects.changes if section == "debts"]
    for (_, after), (before, _) in pairwise(lists):
        assert after == before
    if lists:
        assert lists[-1][1] == [d.to_json() for d in tx.s.debts]


@QUICK
@given(settlements())
def test_where_the_former_order_was_right_the_same_entry_is_recorded(case):
    players, cash, debts, event = case
    tx, start_cash, start_debts = engine_settlement(players, cash, debts, event)
    postings, recorded = former_settlement(start_cash, start_debts)
    try:
        payments_go_to_the_oldest_debt(start_cash, start_debts, postings)
    except AssertionError:
        return  # the former order paid a newer debt first: issue 17, now settled differently
    assert tx.effects.postings == postings
    after = [after for section, _, _, after in tx.effects.changes if section == "debts"]
    if event[0] == "charge":
        after = after[1:]  # the charge itself is recorded first, as a new debt
    assert after == recorded


# -- whole games through the engine ---------------------------------------------------------------------------
PLAYERS4 = ("Ann", "Bob", "Cid", "Dan")


class Refused(Exception):
    pass


class RuleModel:
    """Cash and debts of a game of money operations only, by RULES.md, settling with :func:`rule_settlement`."""

    def __init__(self, edition):
        self.ed = edition
        self.cash = dict.fromkeys(PLAYERS4, edition.starting_cash)
        self.debts: list[Debt] = []

    def settle(self, debts):
        self.cash, self.debts = rule_settlement(self.cash, debts)

    def receive(self, player, amount):
        self.cash[player] += amount
        self.settle(self.debts)

    def charge(self, debtor, creditor, amount):
        self.settle(self.debts + [(debtor, creditor, amount)])

    def apply(self, op):
        kind, player = op["op"], op.get("player")
        if kind == "transfer":
            payer, payee, amount = op["from"], op["to"], op["amount"]
            if payer != BANK and (any(d == payer for d, _, _ in self.debts) or self.cash[payer] < amount):
                raise Refused
            if payer != BANK:
                self.cash[payer] -= amount
            if payee != BANK:
                self.cash[payee] += amount
            self.settle(self.debts)
        elif kind in ("bank_pays", "pass_go"):
            self.receive(player, op.get("amount", self.ed.go_salary))
        elif kind == "pay_bank":
            self.charge(player, BANK, op["amount"])
        elif kind == "jail_fine":
            self.charge(player, BANK, self.ed.jail_fine)
        elif kind == "pay_each_player":
            for other in PLAYERS4:  # play order, one charge after the other
                if other != player:
                    self.charge(player, other, op["amount"])
        elif kind == "collect_from_each_player":
            for other in PLAYERS4:
                if other != player:
                    self.charge(other, player, op["amount"])


@st.composite
def money_games(draw):
    """A game of money operations on the ``us`` or rouble edition: some players first give all their cash away
    (so that charges leave debts between players), then random charges, incomes and transfers, mostly small
    next to the cash in play, so that debts pile up and incomes run down chains of debtors."""
    edition = load_edition(draw(st.sampled_from(("us", "ru-roubles"))))
    unit = edition.starting_cash // 1500
    small = st.sampled_from((1, 2, 5, 10, 25, 50)).map(lambda a: a * unit)
    charge = st.sampled_from((5, 10, 25, 50, 100, 200, 400)).map(lambda a: a * unit)
    player = st.sampled_from(PLAYERS4)
    broke = draw(st.lists(st.sampled_from(PLAYERS4), unique=True, min_size=3, max_size=4))
    opening = [{"op": "transfer", "from": p, "to": BANK, "amount": edition.starting_cash} for p in broke]
    each = st.builds(lambda k, p, a: {"op": k, "player": p, "amount": a},
                     st.sampled_from(("pay_each_player", "collect_from_each_player")), player, charge)
    op = st.one_of(
        each, each, each,
        st.builds(lambda p, q, a: {"op": "transfer", "from": p, "to": q, "amount": a},
                  st.sampled_from(PLAYERS4 + (BANK,)), st.sampled_from(PLAYERS4 + (BANK,)), small
                  ).filter(lambda o: o["from"] != o["to"]),
        st.builds(lambda p, a: {"op": "pay_bank", "player": p, "amount": a}, player, charge),
        st.builds(lambda p: {"op": "jail_fine", "player": p}, player),
        st.builds(lambda p, a: {"op": "bank_pays", "player": p, "amount": a}, player, small),
        st.builds(lambda p: {"op": "pass_go", "player": p}, player))
    return edition, opening + draw(st.lists(op, min_size=10, max_size=40))


@settings(QUICK, max_examples=150)
@given(money_games())
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_random_money_games_settle_by_the_rule(game):
    edition, ops = game
    config = GameConfig(edition, "classic", dict(edition.rules))
    state, _ = engine.setup_effects(State.new(edition, PLAYERS4), config, None)
    model = RuleModel(edition)
    for op in ops:
        try:
            model.apply(op)
            expected_refused = False
        except Refused:
            expected_refused = True
        try:
            state, _ = engine.apply(state, config, op)
            refused = False
        except GameError:
            refused = True
        assert refused == expected_refused, op
        assert {p: state.cash[p] for p in PLAYERS4} == model.cash, op
        assert [(d.debtor, d.creditor, d.amount) for d in state.debts] == model.debts, op


# -- the cases of the table logs, and the model on them ------------------------------------------------------
def test_the_issue_case_by_the_model():
    """Issue 17's case: Cid owes Ann 2, Bob owes Ann, Cid and Dan 5 each, Cid owes Dan 4; Bob receives 200."""
    cash = {"Ann": 4440, "Bob": 200, "Cid": 0, "Dan": 1440}
    debts = [("Cid", "Ann", 2), ("Bob", "Ann", 5), ("Bob", "Cid", 5), ("Bob", "Dan", 5), ("Cid", "Dan", 4)]
    assert rule_settlement(cash, debts) == ({"Ann": 4447, "Bob": 185, "Cid": 0, "Dan": 1448},
                                            [("Cid", "Dan", 1)])


def test_a_circle_of_debts_is_paid_by_the_money_going_round():
    """Ann owes Bob 100, Bob owes Ann 100; Ann receives 30: the 30 go round until both debts are paid."""
    tx, *_ = engine_settlement(("Ann", "Bob"), {"Ann": 0, "Bob": 0}, [("Ann", "Bob", 100), ("Bob", "Ann", 100)],
                               ("receive", "Ann", 30))
    assert _result(tx, ("Ann", "Bob")) == ({"Ann": 30, "Bob": 0}, [])
    assert len(tx.effects.postings) == 8  # 30, 30, 30, 10 each way


# -- one journal entry: undo, redo, reopen ---------------------------------------------------------------------
def _chain_game(path, key) -> Game:
    """The game of tests/table_logs/us-debts-settle-chain.jsonl up to Ann's GO salary."""
    game = Game.create(path, "us", PLAYERS4, key=key)
    game.buy("Bob", 39)
    game.buy("Cid", 37)
    game.buy("Dan", 5)
    for player in ("Ann", "Bob", "Cid"):
        game.transfer(player, "Dan", game.cash(player))
    game.pay_rent("Cid", 5)
    game.pay_rent("Bob", 37)
    game.pay_rent("Ann", 39)
    game.pay_bank("Bob", 20)
    game.pay_bank("Cid", 30)
    return game


def _issue_game(path, key) -> Game:
    """The game of tests/table_logs/us-debts-settle-oldest-first.jsonl up to Bob's GO salary."""
    game = Game.create(path, "us", PLAYERS4, key=key)
    game.transfer("Bob", "Ann", 1500)
    game.transfer("Cid", "Ann", 1500)
    game.buy("Ann", 1)
    game.buy("Dan", 3)
    game.pay_rent("Cid", 1)
    game.pay_each_player("Bob", 5)
    game.pay_rent("Cid", 3)
    return game


CASES = {
    "chain": (_chain_game, "Ann",
              [("bank", "Ann", 200), ("Ann", "Bob", 50), ("Bob", "Cid", 35), ("Bob", "bank", 15),
               ("Cid", "Dan", 25), ("Cid", "bank", 10)],
              {"Bob": [{"to": "bank", "amount": 5}], "Cid": [{"to": "bank", "amount": 20}]}),
    "issue": (_issue_game, "Bob",
              [("bank", "Bob", 200), ("Bob", "Ann", 5), ("Bob", "Cid", 5), ("Bob", "Dan", 5), ("Cid", "Ann", 2),
               ("Cid", "Dan", 3)],
              {"Cid": [{"to": "Dan", "amount": 1}]}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_settlement_is_one_entry_that_undo_restores_exactly(case, tmp_path, key):
    build, player, postings, debts_after = CASES[case]
    game = build(tmp_path / "game.db", key)
    before, before_state = game.raw_state.to_json(), game.state()
    entries = game.ledger.last_entry()[0]

    receipt = game.pass_go(player)
    assert game.ledger.last_entry()[0] == entries + 1
    assert list(receipt.postings) == postings
    assert game.state()["debt"] == debts_after
    after, after_state = game.raw_state.to_json(), game.state()

    game.undo()
    assert game.ledger.last_entry()[0] == entries + 2
    assert game.raw_state.to_json() == before and game.state() == before_state
    game.close()
    with Game.open(tmp_path / "game.db", key=key, check="full") as reopened:
        assert reopened.raw_state.to_json() == before
        reopened.pass_go(player)
        assert reopened.raw_state.to_json() == after and reopened.state() == after_state
    with Game.open(tmp_path / "game.db", key=key, check="full") as again:
        assert again.raw_state.to_json() == after
        assert again.audit().ok, again.audit().summary()
        assert [e["postings"] for e in journal_of(again)][-1] == postings
