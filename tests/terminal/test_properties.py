"""Property-based tests of the Bank (issues 2 and 3, "Property-based tests").

A Hypothesis state machine plays random games through ``terminal.Game.apply``: sequences of legal and illegal
table-log operations of every kind (``strategies.py``), on the ``fr`` and ``us`` editions, in the four modes,
with the rule flags varied. The generator is biased so that groups get completed and built on, charges create
debts and players go bankrupt (the coverage test checks that they do).

After every step (invariants written here, independently of the projection code):

- every journal entry is balanced (its postings sum to 0), read with our own SQL from a separate connection;
- ``SELECT account, SUM(amount) FROM postings GROUP BY account`` equals ``raw_state.cash`` and sums to 0 (the
  Bank's account is minus the money issued); the stored projection equals the in-memory state;
- no cash is negative; a player with a debt has no cash left (it all went to the creditors); a bankrupt player
  has cash 0, no deeds, no Jail card, no debt, and nobody owes them anything;
- houses + hotels in the Bank and on the board are 32 / 12; buildings stand only on fully held, unmortgaged
  groups, evenly; each deck's Jail card has at most one holder, a player still in the game;
- worth and standings as RULES.md defines them; game over exactly when the mode says so;
- a refused operation (any GameError) changes nothing: state(), raw_state and the journal length are identical;
  previewing an operation changes nothing;
- undo restores exactly the state before the operation it undoes (full state() and raw_state.to_json()), and
  applying the operation again gives exactly the state it gave the first time;
- model checks written from RULES.md for every operation (where debts cascade from creditor to creditor, only
  what does not depend on the cascade): accepted exactly when RULES.md allows it (refusals of the right kind:
  unknown or bankrupt player, game over, malformed line, voluntary payment while in debt), with the amounts
  RULES.md gives (rent, taxes, charges and the debts they leave, income paying debts oldest first, mortgages
  and interest, building and selling, bankruptcy to a player or to the Bank, trades);
- a trade gives the same result whichever player is named ``a``;
- deed auctions through the bidding API refuse exactly the bids RULES.md refuses and record nothing until the
  result; closing and reopening the file (check auto/full/none) resumes the same state.

A second machine starts with every colour group bought, so that the Bank runs out of houses and hotels.

Which runs: the coverage test plays a fixed series of seeded examples (the same on every run, whatever the
file's text; in the quick run too); the two ``slow`` tests play new random examples on every run (more of
them: 100 random games, 30 shortage games), so the full suite keeps looking for new failures.
Failing games are reported unshrunk with every operation they accepted (set BANQUIER_PROPERTY_SHRINK=1 to
shrink); the bugs found are pinned by the regression tests at the end of the file.

At the end of each example: ``game.audit().ok``, a fresh ``Game.open(path, check="full")`` gives the same
state, and re-applying the accepted operations to a brand-new game gives the same state.
"""
from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import shutil
import sqlite3
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from terminal.bank import engine
from terminal.bank.game import Game
from terminal.bank.operations import parse_operation
from terminal.bank.state import BANK, DECKS, HOTEL, POT
from terminal.errors import (
    GameError,
    GameOver,
    InsufficientCash,
    MalformedOperation,
    NothingToUndo,
    PlayerBankrupt,
    PlayerInDebt,
    UnknownName,
)

from .strategies import MALFORMED, STREET_GROUPS, draw_operation, game_setups, openings

KEY = bytes(range(32))
MALFORMED_LINES = {json.dumps(op, sort_keys=True) for op in MALFORMED}
TOTAL_HOUSES, TOTAL_HOTELS = 32, 12
PLAYER_FIELDS = ("player", "winner", "from", "to", "a", "b")
VOLUNTARY = {"buy": "player", "auction": "winner", "build": "player", "unmortgage": "player", "transfer": "from"}

#: What the random games did, over every example run in this process (see test_generator_reaches_...).
COVERAGE: Counter = Counter()


def _tmp_root() -> str | None:
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() else None


def _ten_percent(amount: int, rounding: str) -> int:
    return (amount + 9) // 10 if rounding == "up" else amount // 10


def _rank(level: int, hbh: int) -> int:
    return hbh + 1 if level == HOTEL else level


def _with_history(method):
    """Add the operations the game accepted so far to a failure, so that it can be replayed."""
    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except AssertionError as exc:
            if getattr(self, "setup", None) is not None:
                exc.add_note(f"game: {self.setup}\noperations accepted so far (undos included):\n"
                             + "\n".join(json.dumps(op) for op in self.accepted))
            raise
    return wrapper


class Refuse(Exception):
    """Raised by the model: RULES.md refuses this operation (with one of ``errors`` when given)."""

    def __init__(self, reason: str, errors: tuple = (GameError,)):
        super().__init__(reason)
        self.errors = errors


class Expect:
    """The model's verdict on an operation RULES.md allows: ``check(before, after)`` once it is applied;
    ``must_accept``: refusing it is a bug (False where a refusal may still come from elsewhere)."""

    def __init__(self, check=None, must_accept: bool = True):
        self.check = check
        self.must_accept = must_accept


class BankMachine(RuleBasedStateMachine):
    """Random games through the public API, with the books checked after every step."""

    #: How often (in %) a step is a build-out of several buildings in a row.
    BUILD_OUT_PERCENT = 6
    #: How often (in %) a step sells a building back (any player's, evenly, sometimes the whole group).
    SELL_PERCENT = 0

    def __init__(self):
        super().__init__()
        self.game: Game | None = None
        self.tmp = tempfile.mkdtemp(prefix="banquier-prop-", dir=_tmp_root())
        self.sql: sqlite3.Connection | None = None

    # -- setup -------------------------------------------------------------------------------------------
    @initialize(setup=game_setups(), opening=openings())
    def create(self, setup, opening):
        self.setup = setup
        self.path = Path(self.tmp) / "game.db"
        self.game = Game.create(self.path, setup["edition"], setup["players"], mode=setup["mode"],
                                rules=setup["rules"], rng=random.Random(setup["seed"]), key=KEY)
        self.sql = sqlite3.connect(str(self.path))
        self.ed = self.game.edition
        self.cfg = self.game.config
        self.hbh = self.cfg.houses_before_hotel
        self.accepted: list[dict] = []      # every op apply() accepted, undos included, in order
        self.frames: list[tuple] = []       # (state, raw, requested_end, op) before each undoable op
        self.requested_end = False          # end_game accepted and not undone
        self.journal = self._journal_length()
        self._snapshot()
        COVERAGE["games"] += 1
        event(f"mode {setup['mode']}")
        self.check_books()
        for number, group in opening:
            player = setup["players"][number % len(setup["players"])]
            for square in self.ed.groups[group]:
                if square not in self.s.owner:
                    self._apply({"op": "buy", "player": player, "square": square})
                    self.check_books()

    # -- rules -------------------------------------------------------------------------------------------
    @rule(data=st.data())
    @_with_history
    def operation(self, data):
        if data.draw(st.integers(0, 99), label="reopen the file") >= 97:
            self._reopen(data.draw(st.sampled_from(("auto", "full", "none")), label="check"))
        roll = data.draw(st.integers(0, 99), label="macro")
        if roll >= 100 - self.BUILD_OUT_PERCENT and self._builders():
            return self._build_out(data)
        if roll < self.SELL_PERCENT and any(self.s.level.values()):
            return self._sell_one(data)
        if roll >= 91 and not self.s.game.get("over"):
            return self._run_auction(data)
        op = draw_operation(data, self.game, self.s)
        if op.get("op") == "trade" and isinstance(op.get("a_gives"), dict):
            self._check_trade_symmetry(op)
        accepted = self._apply(op)
        if accepted and op.get("op") != "undo" and data.draw(st.integers(0, 99), label="undo it") >= 75:
            self._undo_and_redo(op)

    @invariant()
    @_with_history
    def books(self):
        if self.game is not None:
            self.check_books()

    def teardown(self):
        try:
            if self.game is not None:
                _with_history(BankMachine.final_checks)(self)
        finally:
            if self.sql is not None:
                self.sql.close()
            if self.game is not None:
                with contextlib.suppress(GameError, sqlite3.Error):
                    self.game.close()
            shutil.rmtree(self.tmp, ignore_errors=True)

    # -- applying ----------------------------------------------------------------------------------------
    def _snapshot(self):
        """Fresh ``(state(), raw_state.to_json())``; also kept in ``self.view``, ``self.raw``, ``self.s``."""
        self.s = self.game.raw_state
        self.view = self.game.state()
        self.raw = self.s.to_json()
        return self.view, self.raw

    def _journal_length(self) -> int:
        return self.sql.execute("SELECT COUNT(*) FROM journal").fetchone()[0]

    def _apply(self, op: dict) -> bool:
        game = self.game
        before_state, before_raw, before = self.view, self.raw, self.s
        try:
            expected = self.model(op, before)
        except Refuse as why:
            expected = why
        if op.get("op") != "undo":
            try:
                game.preview(parse_operation(op))
            except GameError:
                pass
            assert game.raw_state.to_json() == before_raw, f"preview changed the state: {op}"
        try:
            game.apply(parse_operation(op))
        except GameError as exc:
            COVERAGE[f"refused {type(exc).__name__}"] += 1
            COVERAGE[f"code {op.get('op')} {exc.code}"] += 1
            after = self._snapshot()
            assert after[0] == before_state, f"refused {op} ({exc}) changed state()"
            assert after[1] == before_raw, f"refused {op} ({exc}) changed raw_state"
            assert self._journal_length() == self.journal, f"refused {op} ({exc}) wrote to the journal"
            self.check_refusal(op, before, exc, expected)
            return False
        self._snapshot()
        after = self.s
        self.journal += 1
        assert self._journal_length() == self.journal, f"{op} did not write exactly one journal entry"
        self.accepted.append(op)
        kind = op["op"]
        COVERAGE[f"op {kind}"] += 1
        assert not isinstance(expected, Refuse), \
            f"{op} was accepted but RULES.md refuses it: {expected}\nstate before: {before.to_json()}"
        if kind == "undo":
            assert self.frames, "undo accepted with nothing to undo"
            state, raw, requested_end, undone = self.frames.pop()
            self.requested_end = requested_end
            assert self.view == state, f"undo of {undone} did not restore state()"
            assert self.raw == raw, f"undo of {undone} did not restore raw_state"
            if undone["op"] == "declare_bankruptcy":
                COVERAGE["undo of a bankruptcy"] += 1
        else:
            self.frames.append((before_state, before_raw, self.requested_end, op))
            if kind == "end_game":
                self.requested_end = True
            if isinstance(expected, Expect) and expected.check:
                expected.check(before, after)
            self.count(op, before, after)
        return True

    def _undo_and_redo(self, op: dict) -> None:
        """Undo the operation just applied, check the state before it is back, apply it again, check the same
        state as the first time results."""
        after_state, after_raw = self.view, self.raw
        before_state, before_raw = self.frames[-1][:2]
        assert self._apply({"op": "undo"})
        assert (self.view, self.raw) == (before_state, before_raw)
        assert self._apply(op), f"{op} was refused when applied again after its undo"
        assert (self.view, self.raw) == (after_state, after_raw), f"{op} applied again after undo gave another state"
        COVERAGE["undo and redo"] += 1

    def _builders(self) -> list[str]:
        s = self.s
        return [p for p in s.active_players() if not s.debts_of(p) and any(
            all(s.owner.get(x) == p for x in self.ed.group_of(sq)) for sq in s.deeds_of(p)
            if self.ed.squares[sq].kind == "street")]

    def _build_out(self, data) -> None:
        """Several builds in a row (each one an ordinary operation, checked as such), so that the Bank's 32
        houses and 12 hotels run short and the housing-shortage rules come into play."""
        player = data.draw(st.sampled_from(self._builders()), label="builder")
        self._apply({"op": "bank_pays", "player": player, "amount": data.draw(st.integers(500, 6000),
                                                                               label="cash for building")})
        hotels = data.draw(st.booleans(), label="up to hotels")
        for _ in range(data.draw(st.integers(1, 24), label="buildings")):
            s = self.s
            streets = [sq for sq in s.deeds_of(player) if self.ed.squares[sq].kind == "street"
                       and all(s.owner.get(x) == player for x in self.ed.group_of(sq))
                       and s.level.get(sq, 0) not in (HOTEL, None if hotels else self.hbh)]
            if not streets:
                break
            square = min(streets, key=lambda sq: (_rank(s.level.get(sq, 0), self.hbh), sq))
            if not self._apply({"op": "build", "player": player, "square": square}):
                break
            self.check_books()
        COVERAGE["build-out"] += 1
        if self.s.bank["houses"] < self.hbh:
            COVERAGE["the Bank short of houses"] += 1

    def _sell_one(self, data) -> None:
        s = self.s
        built = sorted(sq for sq, lv in s.level.items() if lv and _rank(lv, self.hbh) == max(
            _rank(s.level.get(x, 0), self.hbh) for x in self.ed.group_of(sq)))
        hotels = [sq for sq in built if s.level[sq] == HOTEL]
        if hotels and s.bank["houses"] < self.hbh:
            built = hotels  # a hotel the Bank cannot break into houses: the whole group is sold
        square = data.draw(st.sampled_from(built), label="sell on")
        op = {"op": "sell_building", "player": s.owner[square], "square": square}
        if data.draw(st.integers(0, 99), label="whole") >= 80:
            op["whole"] = True
        self._apply(op)

    def _run_auction(self, data) -> None:
        """A deed auction through the API (Game.start_auction): bids are refused above the bidder's cash, not
        above the best bid, or from a bankrupt, unknown or indebted player; nothing is recorded until the
        result, which is applied as an ordinary ``auction`` operation."""
        s = self.s
        unowned = [d.index for d in self.ed.deeds() if d.index not in s.owner]
        square = data.draw(st.sampled_from(unowned or [1]), label="auctioned square")
        try:
            auction = self.game.start_auction(square)
        except GameError:
            assert square in s.owner, f"start_auction({square}) refused for an unowned deed"
            return
        best = 0
        for _ in range(data.draw(st.integers(0, 5), label="bids")):
            bidder = data.draw(st.sampled_from(list(s.players) + ["Zed"]), label="bidder")
            amount = data.draw(st.integers(-5, 1600), label="bid")
            allowed = (bidder in s.active_players() and not s.debts_of(bidder)
                       and 1 <= amount <= s.cash[bidder] and amount > best)
            try:
                auction.bid(bidder, amount)
            except GameError:
                assert not allowed, f"bid of {amount} by {bidder} refused (best {best}, state {self.raw})"
            else:
                assert allowed, f"bid of {amount} by {bidder} accepted (best {best}, state {self.raw})"
                best = amount
            assert self.game.raw_state.to_json() == self.raw, "a bid changed the state"
        assert self._journal_length() == self.journal, "bids were recorded"
        if auction.best is not None:
            assert self._apply({"op": "auction", "square": square, "winner": auction.best.player,
                                "price": auction.best.amount}), "the best bid could not be paid"
            COVERAGE["auction by bids"] += 1

    def _reopen(self, check: str) -> None:
        """Close the file and resume the game from it (undo survives a restart)."""
        view, raw = self.view, self.raw
        self.game.close()
        self.game = Game.open(self.path, key=KEY, check=check)
        self._snapshot()
        assert (self.view, self.raw) == (view, raw), f"Game.open(check={check!r}) resumed another state"
        COVERAGE["reopened"] += 1

    def _check_trade_symmetry(self, op: dict) -> None:
        """A trade is one exchange: naming its two players the other way round (a <-> b) must not change
        whether it is accepted, nor what it does."""
        swapped = {**op, "a": op["b"], "b": op["a"], "a_gives": op["b_gives"], "b_gives": op["a_gives"]}
        outcomes = []
        for version in (op, swapped):
            try:
                effects = self.game.preview(parse_operation(version)).effects
            except GameError as exc:
                outcomes.append(("refused", type(exc).__name__))
            else:
                state = engine.replay_effects(self.s, effects)
                outcomes.append(("accepted", json.dumps(state.to_json(), sort_keys=True)))
        if outcomes[0][0] != outcomes[1][0] or outcomes[0][0] == "accepted":
            assert outcomes[0] == outcomes[1], (
                f"the same trade gives different results with its players named the other way round:\n"
                f"{op}: {outcomes[0][0]} {outcomes[0][1] if outcomes[0][0] == 'refused' else ''}\n"
                f"{swapped}: {outcomes[1][0]} {outcomes[1][1] if outcomes[1][0] == 'refused' else ''}\n"
                f"state: {self.raw}")

    # -- coverage ----------------------------------------------------------------------------------------
    def count(self, op, before, after) -> None:
        new_debts = len(after.debts) > len(before.debts) or any(
            d.amount > sum(b.amount for b in before.debts if b.debtor == d.debtor)
            for d in after.debts)
        if new_debts:
            COVERAGE["debt created"] += 1
            event("debt created")
        if op["op"] == "declare_bankruptcy":
            to = "player" if before.debts_of(op["player"])[0].creditor in before.players else "bank"
            COVERAGE[f"bankruptcy to {to}"] += 1
            event(f"bankruptcy to {to}")
        if after.game.get("over") and not before.game.get("over"):
            COVERAGE["game over"] += 1
            event("game over")
        if op["op"] == "build" and after.level.get(op["square"]) == HOTEL:
            COVERAGE["hotel built"] += 1
        if op["op"] == "sell_building" and before.level.get(op["square"]) == HOTEL:
            COVERAGE["hotel sold" + (" in a shortage" if before.bank["houses"] < self.hbh else "")] += 1
        if op["op"] == "build":
            event("building")
        if op["op"] == "trade" and any(d.creditor == op["a"] and d.debtor == op["b"]
                                       for d in before.debts):
            COVERAGE["trade with a creditor"] += 1

    # -- the books ---------------------------------------------------------------------------------------
    def check_books(self) -> None:
        sql = self.sql
        s, view = self.s, self.view
        ed, hbh = self.ed, self.hbh

        # Every entry balanced; no postings without an entry.
        unbalanced = sql.execute("SELECT seq, SUM(amount) FROM postings GROUP BY seq "
                                 "HAVING SUM(amount) != 0").fetchall()
        assert not unbalanced, f"unbalanced journal entries: {unbalanced}"
        orphans = sql.execute("SELECT DISTINCT seq FROM postings "
                              "WHERE seq NOT IN (SELECT seq FROM journal)").fetchall()
        assert not orphans, f"postings of no entry: {orphans}"
        assert sql.execute("SELECT COUNT(*) FROM postings WHERE amount = 0").fetchone()[0] == 0

        # The money in every account, summed by SQL, equals the projection and adds up to zero.
        balances = dict(sql.execute("SELECT account, SUM(amount) FROM postings GROUP BY account"))
        assert set(balances) <= set(s.cash), f"postings name unknown accounts: {set(balances) - set(s.cash)}"
        for account, cash in s.cash.items():
            assert balances.get(account, 0) == cash, \
                f"account {account}: postings sum to {balances.get(account, 0)}, raw_state says {cash}"
        assert sum(balances.values()) == 0 and sum(s.cash.values()) == 0
        issued = sum(s.cash[p] for p in s.players) + s.cash[POT]
        assert s.cash[BANK] == -issued
        stored = sql.execute("SELECT seq, state FROM projection").fetchone()
        assert stored[0] == self.journal and json.loads(stored[1]) == json.loads(json.dumps(s.to_json())), \
            "the stored projection differs from the game's state"

        # No negative cash; debts; bankrupt players.
        for account, cash in s.cash.items():
            if account != BANK:
                assert cash >= 0, f"{account} has negative cash {cash}"
        bankrupt = set(s.bankrupt_list)
        assert len(bankrupt) == len(s.bankrupt_list) and bankrupt <= set(s.players)
        for debt in s.debts:
            assert debt.amount > 0, f"empty debt {debt}"
            assert debt.debtor in s.players and debt.debtor not in bankrupt, f"debt of {debt.debtor}"
            assert debt.creditor != debt.debtor
            assert debt.creditor in (BANK, POT) or debt.creditor in s.players
            assert debt.creditor not in bankrupt, f"a debt to a bankrupt player: {debt}"
            assert s.cash[debt.debtor] == 0, \
                f"{debt.debtor} owes {debt.amount} to {debt.creditor} but kept {s.cash[debt.debtor]}"
            # Under the jackpot rule taxes, fines, repairs and card payments are owed to the pot; the 10 %
            # interest on a received mortgaged deed stays owed to the Bank (RULES.md, Free Parking, Mortgages).
            if not self.cfg.jackpot:
                assert debt.creditor != POT, f"a debt to the pot without the jackpot rule: {debt}"
        for player in bankrupt:
            assert s.cash[player] == 0, f"bankrupt {player} has cash {s.cash[player]}"
            assert not s.deeds_of(player), f"bankrupt {player} holds {s.deeds_of(player)}"
            assert not s.jail_cards_of(player), f"bankrupt {player} holds a Jail card"
            assert not s.debts_of(player)
            assert view["worth"][player] == 0 and view["jail_cards"][player] == 0
        if not self.cfg.jackpot:
            assert s.cash[POT] == 0

        # Deeds, mortgages, buildings and the Bank's supply.
        deeds = {d.index for d in ed.deeds()}
        assert set(s.owner) <= deeds and set(s.owner.values()) <= set(s.players)
        assert {sq for sq, m in s.mortgaged.items() if m} <= set(s.owner), "a mortgaged deed held by the Bank"
        houses_out = hotels_out = 0
        for square, level in s.level.items():
            if not level:
                continue
            deed = ed.squares[square]
            assert deed.kind == "street" and square in s.owner, f"building on {square} held by nobody"
            assert 1 <= level <= hbh or level == HOTEL, f"level {level} on {square}"
            group = ed.group_of(square)
            assert all(s.owner.get(x) == s.owner[square] for x in group), f"building on a split group {group}"
            assert not any(s.mortgaged.get(x) for x in group), f"building in a mortgaged group {group}"
            ranks = [_rank(s.level.get(x, 0), hbh) for x in group]
            assert max(ranks) - min(ranks) <= 1, f"uneven group {group}: {ranks}"
            if level == HOTEL:
                hotels_out += 1
            else:
                houses_out += level
        assert s.bank["houses"] >= 0 and s.bank["hotels"] >= 0
        assert s.bank["houses"] + houses_out == TOTAL_HOUSES, f"houses: {s.bank['houses']} + {houses_out}"
        assert s.bank["hotels"] + hotels_out == TOTAL_HOTELS, f"hotels: {s.bank['hotels']} + {hotels_out}"

        # Jail cards: one per deck, held by a player still in the game.
        assert set(s.jail_card) <= set(DECKS)
        for deck, holder in s.jail_card.items():
            assert holder is None or (holder in s.players and holder not in bankrupt), f"{deck}: {holder}"
        assert sum(view["jail_cards"].values()) == sum(1 for h in s.jail_card.values() if h) <= 2

        # The state() view agrees with the raw state; worth and standings per RULES.md.
        assert view["cash"] == {p: s.cash[p] for p in s.players}
        assert view["bank"] == {"houses": s.bank["houses"], "hotels": s.bank["hotels"], "pot": s.cash[POT]}
        for player in s.players:
            if player in bankrupt:
                continue
            worth = s.cash[player] - s.total_debt(player)
            for square in s.deeds_of(player):
                deed = ed.squares[square]
                worth += deed.price // 2 if s.mortgaged.get(square) else deed.price
                worth += deed.house_cost * _rank(s.level.get(square, 0), hbh)
            assert view["worth"][player] == worth, f"worth of {player}: {view['worth'][player]}, expected {worth}"
        order = {p: i for i, p in enumerate(s.players)}
        active = [p for p in s.players if p not in bankrupt]
        ranking = sorted(active, key=lambda p: (-view["worth"][p], -s.cash[p], order[p]))
        assert view["standings"] == ranking + list(reversed(s.bankrupt_list))

        # The game is over exactly when its mode says so.
        over = len(active) <= 1 or self.requested_end
        if self.cfg.mode == "sans_frontieres":
            over = over or len(bankrupt) >= 1
        if self.cfg.mode == "quick":
            over = over or len(bankrupt) >= 2
        assert view["game_over"] == over, f"game_over is {view['game_over']}, mode {self.cfg.mode} says {over}"

    # -- what RULES.md expects ---------------------------------------------------------------------------
    def check_refusal(self, op, before, exc, expected) -> None:
        if op == {"op": "undo"}:
            assert isinstance(exc, NothingToUndo) and not self.frames, f"undo refused: {exc}"
            return
        if isinstance(expected, Refuse):
            assert isinstance(exc, expected.errors), \
                f"{op} refused with {type(exc).__name__} ({exc}), expected {expected.errors} ({expected})"
        assert not (isinstance(expected, Expect) and expected.must_accept), \
            f"{op} was refused ({type(exc).__name__}: {exc}) but RULES.md allows it\nstate: {before.to_json()}"

    def model(self, op: dict, s):
        """What RULES.md says of ``op`` in state ``s``: raises Refuse, or returns a check ``(before, after)``
        for an operation that must be accepted, or None when this model does not decide."""
        kind = op.get("op")
        if json.dumps(op, sort_keys=True) in MALFORMED_LINES:
            raise Refuse("malformed", (MalformedOperation,))
        if kind == "undo":
            if not self.frames:
                raise Refuse("nothing to undo", (NothingToUndo,))
            return None
        if s.game.get("over"):
            raise Refuse("the game is over", (GameOver,))
        for field in PLAYER_FIELDS:
            name = op.get(field)
            if name is None or (kind == "transfer" and name == BANK):
                continue
            if name not in s.players:
                raise Refuse(f"unknown player {name}", (UnknownName,))
            if name in s.bankrupt_list:
                raise Refuse(f"bankrupt player {name}", (PlayerBankrupt,))
        if kind in VOLUNTARY and op[VOLUNTARY[kind]] != BANK and s.debts_of(op[VOLUNTARY[kind]]):
            raise Refuse("a voluntary payment while in debt")
        handler = getattr(self, f"model_{kind}", None)
        result = handler(op, s) if handler else None
        return result if isinstance(result, Expect) or result is None else Expect(result)

    def _amount_ok(self, value, allow_zero=False) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and \
            (0 if allow_zero else 1) <= value <= self.ed.max_amount

    def _deed(self, square):
        if not isinstance(square, int) or not 0 <= square < 40 or not self.ed.squares[square].is_deed:
            raise Refuse(f"{square} is not a deed")
        return self.ed.squares[square]

    def _charge_check(self, player, creditor, amount):
        """A charge of ``amount`` from ``player`` to ``creditor``: all the cash there is (after older debts),
        the rest as a new debt, oldest last (RULES.md, Debts)."""
        def check(before, after):
            if amount == 0:
                assert after.to_json() == before.to_json(), "a charge of 0 changed something"
                return
            if creditor in before.players and before.debts_of(creditor):
                return  # the creditor passes the money on to its own creditors (maybe back to the payer)
            cash = before.cash[player]
            paid = min(cash, amount)
            assert after.cash[player] == cash - paid, f"{player} paid {cash - after.cash[player]}, not {paid}"
            assert after.cash[creditor] - before.cash[creditor] == paid, f"{creditor} got the wrong amount"
            owed = [(d.creditor, d.amount) for d in before.debts_of(player)]
            if amount > paid:
                owed.append((creditor, amount - paid))
            got = [(d.creditor, d.amount) for d in after.debts_of(player)]
            assert got == owed, f"debts of {player}: {got}, expected {owed} (charge of {amount}, cash {cash})"
        return check

    def _income_check(self, player, amount):
        """``player`` receives ``amount``: it pays their debts first, oldest first (RULES.md, Debts)."""
        def check(before, after):
            if any(before.debts_of(d.creditor) for d in before.debts_of(player)):
                return  # a creditor in debt passes the money on, maybe back to this player
            owed = before.total_debt(player)
            repaid = min(owed, before.cash[player] + amount)
            assert after.total_debt(player) == owed - repaid, f"{player}'s debts after receiving {amount}"
            assert after.cash[player] == before.cash[player] + amount - repaid, \
                f"{player} has {after.cash[player]} after receiving {amount}"
        return check

    def _bank_creditor(self):
        return POT if self.cfg.jackpot else BANK

    def model_pass_go(self, op, s):
        return self._income_check(op["player"], self.ed.go_salary)

    def model_bank_pays(self, op, s):
        if not self._amount_ok(op["amount"]):
            raise Refuse("bad amount")
        return self._income_check(op["player"], op["amount"])

    def model_pay_bank(self, op, s):
        if not self._amount_ok(op["amount"]):
            raise Refuse("bad amount")
        return self._charge_check(op["player"], self._bank_creditor(), op["amount"])

    def model_jail_fine(self, op, s):
        return self._charge_check(op["player"], self._bank_creditor(), self.ed.jail_fine)

    def model_pay_each_player(self, op, s):
        """The player pays every other player still in the game, one by one in play order; what they cannot
        pay becomes a debt to each (RULES.md, Debts)."""
        if not self._amount_ok(op["amount"]):
            raise Refuse("bad amount")
        player, amount = op["player"], op["amount"]
        others = [p for p in s.active_players() if p != player]

        def check(before, after):
            if any(before.debts_of(p) for p in others):
                return  # the others pass what they get on to their creditors
            cash = before.cash[player]
            owed = [(d.creditor, d.amount) for d in before.debts_of(player)]
            for other in others:
                paid = min(cash, amount)
                cash -= paid
                assert after.cash[other] == before.cash[other] + paid, f"{other} got the wrong amount"
                if amount > paid:
                    owed.append((other, amount - paid))
            assert after.cash[player] == cash
            assert [(d.creditor, d.amount) for d in after.debts_of(player)] == owed
        return check

    def model_collect_from_each_player(self, op, s):
        """Every other player still in the game pays the player: a charge to each of them."""
        if not self._amount_ok(op["amount"]):
            raise Refuse("bad amount")
        player, amount = op["player"], op["amount"]
        others = [p for p in s.active_players() if p != player]

        def check(before, after):
            if before.debts_of(player):
                return  # what the player collects pays their own creditors
            total = 0
            for other in others:
                paid = min(before.cash[other], amount)
                total += paid
                assert after.cash[other] == before.cash[other] - paid, f"{other} paid the wrong amount"
                owed = [(d.creditor, d.amount) for d in before.debts_of(other)]
                if amount > paid:
                    owed.append((player, amount - paid))
                assert [(d.creditor, d.amount) for d in after.debts_of(other)] == owed, f"debts of {other}"
            assert after.cash[player] == before.cash[player] + total
        return check

    def model_repairs(self, op, s):
        if not (self._amount_ok(op["per_house"], True) and self._amount_ok(op["per_hotel"], True)):
            raise Refuse("bad amount")
        player = op["player"]
        levels = [s.level.get(sq, 0) for sq in s.deeds_of(player)]
        total = sum(op["per_hotel"] if lv == HOTEL else lv * op["per_house"] for lv in levels)
        return self._charge_check(player, self._bank_creditor(), total)

    def model_pay_tax(self, op, s):
        square, choice, player = op["square"], op.get("choice"), op["player"]
        if square not in (4, 38):
            raise Refuse("not a tax square")
        if choice is not None and (square != 4 or not self.cfg.rules.get("income_tax_percent")
                                   or choice not in ("flat", "percent")):
            raise Refuse("no such choice")
        amount = self.ed.squares[square].amount
        if choice == "percent":
            total = s.cash[player] + sum(self.ed.squares[sq].price
                                         + self.ed.squares[sq].house_cost * _rank(s.level.get(sq, 0), self.hbh)
                                         for sq in s.deeds_of(player))
            amount = _ten_percent(total, self.cfg.rounding)
        return self._charge_check(player, self._bank_creditor(), amount)

    def model_free_parking(self, op, s):
        if not self.cfg.jackpot:
            return lambda before, after: (after.to_json() == before.to_json()) or _fail("free parking moved money")
        pot = s.cash[POT]

        def check(before, after):
            if not before.debts_of(op["player"]):  # else what they take pays their debts, maybe to the pot
                assert after.cash[POT] == 0, "the pot was not emptied"
            self._income_check(op["player"], pot)(before, after)
        return check

    def model_gain_jail_card(self, op, s):
        deck = op["deck"]
        if deck not in DECKS or s.jail_card.get(deck):
            raise Refuse("no such card in the deck")

        def check(before, after):
            assert after.jail_card.get(deck) == op["player"]
        return check

    def model_use_jail_card(self, op, s):
        held = s.jail_cards_of(op["player"])
        deck = op.get("deck")
        if (deck is not None and deck not in held) or not held:
            raise Refuse("no such card held")

        def check(before, after):
            assert len(after.jail_cards_of(op["player"])) == len(held) - 1
        return check

    def model_buy(self, op, s):
        deed = self._deed(op["square"])
        player = op["player"]
        if deed.index in s.owner or s.cash[player] < deed.price:
            raise Refuse("owned, or not enough cash")

        def check(before, after):
            assert after.owner.get(deed.index) == player
            assert after.cash[player] == before.cash[player] - deed.price
            assert after.cash[BANK] == before.cash[BANK] + deed.price
        return check

    def model_auction(self, op, s):
        deed = self._deed(op["square"])
        if deed.index in s.owner or not self._amount_ok(op["price"]) or s.cash[op["winner"]] < op["price"]:
            raise Refuse("owned, bad price or not enough cash")

        def check(before, after):
            assert after.owner.get(deed.index) == op["winner"]
            assert after.cash[op["winner"]] == before.cash[op["winner"]] - op["price"]
        return check

    def model_mortgage(self, op, s):
        deed = self._deed(op["square"])
        player = op["player"]
        if s.owner.get(deed.index) != player or s.mortgaged.get(deed.index) \
                or any(s.level.get(x) for x in self.ed.group_of(deed.index)):
            raise Refuse("not held, mortgaged, or built group")

        def check(before, after):
            assert after.mortgaged.get(deed.index)
            assert deed.mortgage == deed.price // 2
            self._income_check(player, deed.mortgage)(before, after)
        return check

    def model_unmortgage(self, op, s):
        deed = self._deed(op["square"])
        player = op["player"]
        cost = deed.mortgage + _ten_percent(deed.mortgage, self.cfg.rounding)
        if s.owner.get(deed.index) != player or not s.mortgaged.get(deed.index) or s.cash[player] < cost:
            raise Refuse("not held, not mortgaged, or not enough cash")

        def check(before, after):
            assert not after.mortgaged.get(deed.index)
            assert after.cash[player] == before.cash[player] - cost, \
                f"lifting {deed.mortgage} cost {before.cash[player] - after.cash[player]}, not {cost}"
        return check

    def model_transfer(self, op, s):
        payer, payee, amount = op["from"], op["to"], op["amount"]
        if payer == payee or not self._amount_ok(amount):
            raise Refuse("to oneself, or bad amount")
        if payer != BANK and s.cash[payer] < amount:
            raise Refuse("not enough cash")

        def check(before, after):
            if payer != BANK and not any(d.creditor == payer for d in before.debts_of(payee)):
                assert after.cash[payer] == before.cash[payer] - amount
            if payee != BANK:
                self._income_check(payee, amount)(before, after)
        return check

    def model_build(self, op, s):
        deed = self._deed(op["square"])
        player, square = op["player"], op["square"]
        group = self.ed.group_of(square)
        if s.owner.get(square) != player or deed.kind != "street":
            raise Refuse("not a street of the player")
        if any(s.owner.get(x) != player for x in group) or any(s.mortgaged.get(x) for x in group):
            raise Refuse("group not complete or mortgaged")
        level = s.level.get(square, 0)
        if level == HOTEL or _rank(level, self.hbh) > min(_rank(s.level.get(x, 0), self.hbh) for x in group):
            raise Refuse("hotel already, or uneven")
        hotel = level == self.hbh
        if (hotel and s.bank["hotels"] < 1) or (not hotel and s.bank["houses"] < 1):
            raise Refuse("the Bank has none left")
        cost = deed.house_cost
        if "price" in op:
            if not self._amount_ok(op["price"]) or op["price"] < deed.house_cost:
                raise Refuse("auction price below the house price")
            cost = op["price"]
        if s.cash[player] < cost:
            raise Refuse("not enough cash")

        def check(before, after):
            assert after.level.get(square) == (HOTEL if hotel else level + 1)
            assert after.cash[player] == before.cash[player] - cost
            if hotel:
                assert after.bank["hotels"] == before.bank["hotels"] - 1
                assert after.bank["houses"] == before.bank["houses"] + self.hbh
            else:
                assert after.bank["houses"] == before.bank["houses"] - 1
        return check

    def model_sell_building(self, op, s):
        deed = self._deed(op["square"])
        player, square = op["player"], op["square"]
        if s.owner.get(square) != player or not s.level.get(square):
            raise Refuse("nothing to sell")
        group = self.ed.group_of(square)
        levels = {x: s.level.get(x, 0) for x in group}
        cost = deed.house_cost
        level = levels[square]
        if op.get("whole") or (level == HOTEL and s.bank["houses"] < self.hbh):
            new = dict.fromkeys(group, 0)
            refund = sum(cost * _rank(lv, self.hbh) // 2 for lv in levels.values())
        else:
            if _rank(level, self.hbh) < max(_rank(lv, self.hbh) for lv in levels.values()):
                raise Refuse("sell evenly")
            new = {**levels, square: self.hbh if level == HOTEL else level - 1}
            refund = cost // 2

        def check(before, after):
            assert {x: after.level.get(x, 0) for x in group} == new, f"levels after selling: {op}"
            self._income_check(player, refund)(before, after)
        return check

    def model_pay_rent(self, op, s):
        deed = self._deed(op["square"])
        payer, square, dice, card = op["player"], op["square"], op.get("dice"), op.get("card")
        owner = s.owner.get(square)
        if owner is None or owner == payer or s.mortgaged.get(square):
            raise Refuse("no rent due")
        if card is not None and (card not in ("nearest_railroad", "nearest_utility")
                                 or deed.kind != card.split("_")[1]):
            raise Refuse("bad card")
        group = self.ed.group_of(square)
        held = sum(1 for x in group if s.owner.get(x) == owner)
        if deed.kind == "utility":
            if dice is None or not 2 <= dice <= 12:
                raise Refuse("dice needed")
            amount = (10 if card or held == 2 else 4) * dice
        elif dice is not None:
            raise Refuse("no dice here")
        elif deed.kind == "railroad":
            amount = 25 * 2 ** (held - 1) * (2 if card else 1)
        else:
            level = s.level.get(square, 0)
            amount = deed.rents[5 if level == HOTEL else level]
            if level == 0 and held == len(group) and (
                    self.cfg.rules.get("double_rent_with_mortgaged_street")
                    or not any(s.mortgaged.get(x) for x in group)):
                amount *= 2
        return self._charge_check(payer, owner, amount)

    def model_declare_bankruptcy(self, op, s):
        player = op["player"]
        debts = s.debts_of(player)
        if not debts:
            raise Refuse("no debt")
        raisable = 0
        for sq in s.deeds_of(player):
            d = self.ed.squares[sq]
            raisable += d.house_cost * _rank(s.level.get(sq, 0), self.hbh) // 2
            raisable += 0 if s.mortgaged.get(sq) else d.mortgage
        if sum(d.amount for d in debts) <= raisable:
            raise Refuse("could still raise the money")
        creditor = debts[0].creditor
        to_player = creditor in s.players
        deeds = s.deeds_of(player)
        mortgaged = [sq for sq in deeds if s.mortgaged.get(sq)]
        lift = op.get("lift_now") or []
        if lift and (not to_player or not set(lift) <= set(mortgaged)):
            raise Refuse("lift_now names a deed not passing to a player mortgaged")
        keep = to_player and self.cfg.mode == "quick"
        levels = {sq: s.level.get(sq, 0) for sq in deeds if s.level.get(sq)}
        refund = 0 if keep or not to_player else sum(
            self.ed.squares[sq].house_cost * _rank(lv, self.hbh) // 2 for sq, lv in levels.items())
        exact = not to_player or not s.debts_of(creditor)
        # The creditor (a player with no debt of their own) gets the cash and the building refund, then pays
        # 10 % on each mortgaged deed (a charge) and lifts those in lift_now (voluntary).
        credit_cash, credit_owed = (s.cash[creditor] + s.cash[player] + refund, 0) if to_player else (0, 0)
        if to_player and exact:
            for sq in mortgaged:
                value = self.ed.squares[sq].mortgage
                interest = _ten_percent(value, self.cfg.rounding)
                paid = min(credit_cash, interest)
                credit_cash -= paid
                credit_owed += interest - paid
                if sq in lift:
                    if credit_owed:
                        raise Refuse("the creditor is in debt: no lifting now", (PlayerInDebt,))
                    if credit_cash < value:
                        raise Refuse("the creditor cannot pay the lifting now", (InsufficientCash,))
                    credit_cash -= value

        def check(before, after):
            assert player in after.bankrupt_list and after.cash[player] == 0
            for sq in deeds:
                if to_player:
                    assert after.owner.get(sq) == creditor
                    assert bool(after.mortgaged.get(sq)) == (sq in mortgaged and sq not in lift)
                else:
                    assert sq not in after.owner and not after.mortgaged.get(sq)
                if not keep:
                    assert not after.level.get(sq)
                else:
                    assert after.level.get(sq, 0) == before.level.get(sq, 0)
            if not keep:
                assert after.bank["houses"] == before.bank["houses"] + sum(
                    lv for lv in levels.values() if lv != HOTEL)
                assert after.bank["hotels"] == before.bank["hotels"] + sum(
                    1 for lv in levels.values() if lv == HOTEL)
            for deck in before.jail_cards_of(player):
                assert after.jail_card.get(deck) == (creditor if to_player else None)
            if not exact:
                return
            if to_player:
                assert after.cash[creditor] == credit_cash, \
                    f"creditor {creditor} has {after.cash[creditor]}, expected {credit_cash} (refund {refund})"
                assert after.total_debt(creditor) == credit_owed
            # Debts others owed the bankrupt pass to the creditor (cancelled where the creditor owes them).
            for other in before.players:
                if other in (player, creditor):
                    continue
                expected = [(creditor if d.creditor == player else d.creditor, d.amount)
                            for d in before.debts_of(other)]
                got = [(d.creditor, d.amount) for d in after.debts_of(other)]
                assert got == expected, f"debts of {other} after {player}'s bankruptcy: {got}, not {expected}"
            if to_player:
                left = [(d.creditor, d.amount) for d in after.debts_of(creditor)
                        if d.creditor not in (BANK, POT)]
                assert not left, f"{creditor}'s debts to {player} were not cancelled: {left}"
        # A creditor with debts of their own may or may not be able to lift now: not decided here.
        return Expect(check, must_accept=exact or not lift)

    def model_trade(self, op, s):
        a, b = op["a"], op["b"]
        if a == b:
            raise Refuse("a trade with oneself")
        sides = [(a, b, op["a_gives"]), (b, a, op["b_gives"])]
        received: dict[int, str] = {}
        for giver, taker, side in sides:
            cash, squares, cards = side.get("cash", 0), side.get("squares", []), side.get("jail_cards", 0)
            if cash and not self._amount_ok(cash):
                raise Refuse("bad cash amount")
            if len(set(squares)) != len(squares) or cards < 0 or cards > len(s.jail_cards_of(giver)):
                raise Refuse("a deed twice, or Jail cards not held")
            for sq in squares:
                self._deed(sq)
                if s.owner.get(sq) != giver or any(s.level.get(x) for x in self.ed.group_of(sq)):
                    raise Refuse("a deed not held, or of a built group")
                if s.mortgaged.get(sq):
                    received[sq] = taker
        if not any(side.get("cash") or side.get("squares") or side.get("jail_cards") for _, _, side in sides):
            raise Refuse("an empty trade")
        lift = op.get("lift_now") or []
        if any(sq not in received for sq in lift):
            raise Refuse("lift_now names a deed not received mortgaged")
        exact = not s.debts_of(a) and not s.debts_of(b)
        must_accept = exact
        cash = {a: s.cash[a], b: s.cash[b]}
        owed = {a: 0, b: 0}
        if exact:
            for giver, taker, side in sides:
                amount = side.get("cash", 0)
                if cash[giver] < amount:
                    raise Refuse("not enough cash for the trade", (InsufficientCash,))
                if s.cash[giver] < amount:
                    must_accept = False  # paid out of cash received in the same trade: not decided here
                cash[giver] -= amount
                cash[taker] += amount
            for sq in sorted(received):
                taker = received[sq]
                value = self.ed.squares[sq].mortgage
                interest = _ten_percent(value, self.cfg.rounding)
                paid = min(cash[taker], interest)
                cash[taker] -= paid
                owed[taker] += interest - paid
                if sq in lift:
                    if owed[taker]:
                        raise Refuse("in debt: no lifting now", (PlayerInDebt,))
                    if cash[taker] < value:
                        raise Refuse("cannot pay the lifting now", (InsufficientCash,))
                    cash[taker] -= value

        def check(before, after):
            for _giver, taker, side in sides:
                for sq in side.get("squares", []):
                    assert after.owner.get(sq) == taker
                    assert bool(after.mortgaged.get(sq)) == (bool(before.mortgaged.get(sq)) and sq not in lift)
            gives = {giver: side.get("jail_cards", 0) for giver, _, side in sides}
            for giver, taker, _ in sides:
                assert len(after.jail_cards_of(giver)) == \
                    len(before.jail_cards_of(giver)) - gives[giver] + gives[taker], "Jail cards in the trade"
            if exact:
                for p in (a, b):
                    assert after.cash[p] == cash[p], f"{p} has {after.cash[p]} after the trade, not {cash[p]}"
                    assert after.total_debt(p) == owed[p], f"{p} owes {after.total_debt(p)}, not {owed[p]}"
        return Expect(check, must_accept)

    def model_end_game(self, op, s):
        if self.cfg.mode != "time_limit":
            raise Refuse("only a time-limited game ends on request")

        def check(before, after):
            assert after.game.get("over")
        return check

    # -- end of an example --------------------------------------------------------------------------------
    def final_checks(self) -> None:
        game = self.game
        report = game.audit()
        assert report.ok, report.summary()
        final_state, final_raw = self._snapshot()
        meta = game.meta
        game.close()
        self.game = None
        reopened = Game.open(self.path, key=KEY, check="full")
        try:
            assert reopened.state() == final_state, "Game.open(check='full') gives another state()"
            assert reopened.raw_state.to_json() == final_raw, "Game.open(check='full') gives another raw_state"
        finally:
            reopened.close()
        # Re-apply the same accepted operations to a brand-new game.
        fresh = Game.create(Path(self.tmp) / "replay.db", meta["edition"], meta["players"], mode=meta["mode"],
                            rules=self.setup["rules"], dealt=meta["dealt"] or None, key=KEY)
        try:
            for op in self.accepted:
                fresh.apply(parse_operation(op))
            assert fresh.state() == final_state, "re-applying the accepted operations gives another state()"
            assert fresh.raw_state.to_json() == final_raw
        finally:
            fresh.close()


class ShortageMachine(BankMachine):
    """The same games, started with every colour group already bought by 2 or 3 players with cash to build:
    the Bank's 32 houses and 12 hotels run out, builds are refused for lack of them, hotels are sold back
    whole when the Bank cannot break them into houses."""

    BUILD_OUT_PERCENT = 35
    SELL_PERCENT = 15

    @initialize(setup=game_setups(players=(2, 3)),
                opening=st.permutations(STREET_GROUPS).flatmap(
                    lambda groups: st.lists(st.integers(0, 2), min_size=len(groups), max_size=len(groups))
                    .map(lambda owners: list(zip(owners, groups, strict=True)))))
    def create(self, setup, opening):
        super().create(setup, opening)
        for player in self.s.players:
            self._apply({"op": "bank_pays", "player": player, "amount": 5000})
        # Hotels on the first group bought, so that they stand when the houses run out.
        player, group = setup["players"][opening[0][0] % len(setup["players"])], self.ed.groups[opening[0][1]]
        for _ in range(self.hbh + 1):
            for square in group:
                self._apply({"op": "build", "player": player, "square": square})
        self.check_books()


def _fail(message: str):
    raise AssertionError(message)


#: Shrinking a failing game takes minutes (every attempt writes and audits a game file), so the suite reports
#: the first failing game as found, with every operation it accepted; set BANQUIER_PROPERTY_SHRINK=1 to shrink.
PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.target) + (
    (Phase.shrink,) if os.environ.get("BANQUIER_PROPERTY_SHRINK") else ())
MACHINE_SETTINGS = {"deadline": None, "database": None, "stateful_step_count": 50, "phases": PHASES,
                    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large,
                                              HealthCheck.filter_too_much]}


def _run(max_examples: int, seed: int | None = None) -> None:
    """Run the bank machine; with ``seed``, always the same examples (the coverage test)."""
    factory = BankMachine
    if seed is not None:
        # Hypothesis's ``derandomize`` seeds from a hash of the machine's source, so any edit of this file
        # (even a reformatting) changed the examples; ``@seed`` does not depend on the source.
        def factory() -> BankMachine:
            return BankMachine()
        factory = hypothesis_seed(seed)(factory)
    run_state_machine_as_test(factory, settings=settings(max_examples=max_examples, **MACHINE_SETTINGS))


@pytest.mark.slow
def test_random_games_keep_the_books():
    """Random legal and illegal operations on random games: every invariant after every step."""
    _run(max_examples=100)


@pytest.mark.slow
def test_housing_shortage_keeps_the_books():
    """Games where the Bank runs short of houses and hotels: every invariant after every step."""
    run_state_machine_as_test(ShortageMachine, settings=settings(
        max_examples=30, **{**MACHINE_SETTINGS, "stateful_step_count": 30}))


#: The coverage test's fixed series of examples: several short seeded runs (examples within one run are
#: variations of each other, so a few runs vary more than one long run). Its thresholds hold with a wide margin
#: for these seeds and for every other series tried, so a change of the generator needs no new seeds
#: (tests/README.md, "Property tests").
COVERAGE_SEEDS = (20_261_201, 20_261_202, 20_261_203, 20_261_204, 20_261_205)
COVERAGE_EXAMPLES = 10
OPS = ("buy", "auction", "pay_rent", "pay_tax", "bank_pays", "pay_bank", "pay_each_player",
       "collect_from_each_player", "repairs", "jail_fine", "gain_jail_card", "use_jail_card", "free_parking",
       "build", "sell_building", "mortgage", "unmortgage", "transfer", "trade", "declare_bankruptcy", "undo")
REFUSALS = ("UnknownName", "PlayerBankrupt", "PlayerInDebt", "InsufficientCash", "InvalidAmount",
            "RuleViolation", "MalformedOperation", "GameOver")
#: What the coverage test requires over its examples: ``(what COVERAGE counts, at least)``.
COVERAGE_NEEDED = (
    [("games", len(COVERAGE_SEEDS) * COVERAGE_EXAMPLES), ("debt created", 50), ("bankruptcy to player", 10),
     ("bankruptcy to bank", 5), ("undo of a bankruptcy", 5), ("game over", 10), ("op build", 50), ("hotel built", 5),
     ("undo and redo", 50), ("reopened", 5), ("auction by bids", 5), ("trade with a creditor", 1)]
    + [(f"op {kind}", 1) for kind in OPS] + [(f"refused {error}", 1) for error in REFUSALS])


def coverage_shortfalls(seen: dict) -> list[str]:
    """What ``seen`` (a COVERAGE) lacks of COVERAGE_NEEDED, as readable lines (none: all reached)."""
    return [f"{what}: {seen.get(what, 0)} < {least}" for what, least in COVERAGE_NEEDED if seen.get(what, 0) < least]


def _coverage_of(seeds: tuple[int, ...]) -> dict:
    COVERAGE.clear()
    for number in seeds:
        _run(max_examples=COVERAGE_EXAMPLES, seed=number)
    return dict(COVERAGE)


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_generator_reaches_debts_bankruptcies_and_game_ends():
    """The random games are not trivial: over a fixed series of examples, debts, bankruptcies (to a player and
    to the Bank), hotels, game ends and undos of bankruptcies all happen, every operation is accepted and every
    kind of refusal happens. (Every invariant is checked on these examples too.)"""
    seen = _coverage_of(COVERAGE_SEEDS)
    assert not coverage_shortfalls(seen), f"{coverage_shortfalls(seen)}\n{seen}"


@pytest.mark.slow
def test_the_generator_reaches_as_far_with_other_seeds():
    """The thresholds above are not a lucky draw of COVERAGE_SEEDS: another series reaches them too (when a
    change of the generator makes this fail, its reach has become marginal: bias it, rather than pick seeds)."""
    seen = _coverage_of(tuple(range(1, len(COVERAGE_SEEDS) + 1)))
    assert not coverage_shortfalls(seen), f"{coverage_shortfalls(seen)}\n{seen}"


# -- regressions found by the properties above ---------------------------------------------------------------

def _game(tmp_path, name: str, ops: list[dict]) -> Game:
    game = Game.create(tmp_path / f"{name}.db", "fr", ["Ann", "Bob"], key=KEY)
    for op in ops:
        game.apply(parse_operation(op))
    return game


def _outcome(game: Game, op: dict):
    try:
        game.apply(parse_operation(op))
    except GameError as exc:
        return "refused", type(exc).__name__
    return "accepted", game.state(), game.raw_state.to_json()


def test_regression_a_trade_does_not_depend_on_which_player_is_named_a(tmp_path):
    """Found by the trade-symmetry property. A trade is one exchange (spec/table-log.md: "each side gives");
    naming its players the other way round must not change whether it is accepted or what it does.

    Ann buys square 1 and hands all her cash (1440) to Bob. Then Bob gives Ann 100 and Ann gives Bob square 1
    and 50. The engine of 46eadd2 accepted it written with Bob as ``a`` (Ann paid the 50 out of the 100 she
    received in the same trade) and refused it written with Ann as ``a`` (InsufficientCash: "Ann cannot give
    50 in this trade: only 0 in cash"): it moved ``a``'s cash before checking ``b``'s. Fixed in 53c0e12."""
    setup = [{"op": "buy", "player": "Ann", "square": 1},
             {"op": "transfer", "from": "Ann", "to": "Bob", "amount": 1440}]
    bob_first = {"op": "trade", "a": "Bob", "b": "Ann", "a_gives": {"cash": 100},
                 "b_gives": {"squares": [1], "cash": 50}}
    ann_first = {"op": "trade", "a": "Ann", "b": "Bob", "a_gives": {"squares": [1], "cash": 50},
                 "b_gives": {"cash": 100}}
    one, two = _game(tmp_path, "bob-first", setup), _game(tmp_path, "ann-first", setup)
    try:
        assert _outcome(one, bob_first) == _outcome(two, ann_first)
    finally:
        one.close()
        two.close()


def test_regression_a_player_in_debt_cannot_pay_cash_out_of_what_a_trade_brings(tmp_path):
    """Found by the trade-symmetry property. RULES.md, Debts: "every amount the debtor raises or receives goes
    to the creditor until the debt is paid", and the cash side of a trade is a voluntary payment, refused for a
    player in debt.

    Ann buys square 1 (1440 left) and is charged 2000 by a card: she pays 1440 and owes the Bank 560. Bob then
    trades 300 cash for square 1 plus 100 cash from Ann. Expected: refused (Ann, in debt, cannot give cash;
    the 300 she would receive all goes to the Bank), nothing changes. The engine of 46eadd2 accepted it: of
    the 300 Ann received, 100 went back to Bob and only 200 to the Bank (Ann still owed 360). Fixed in
    53c0e12."""
    game = _game(tmp_path, "debtor", [{"op": "buy", "player": "Ann", "square": 1},
                                      {"op": "pay_bank", "player": "Ann", "amount": 2000}])
    try:
        assert game.state()["debt"] == {"Ann": [{"to": "bank", "amount": 560}]}
        before = game.state(), game.raw_state.to_json()
        with pytest.raises(GameError):
            game.apply(parse_operation({"op": "trade", "a": "Bob", "b": "Ann", "a_gives": {"cash": 300},
                        "b_gives": {"squares": [1], "cash": 100}}))
        assert (game.state(), game.raw_state.to_json()) == before
    finally:
        game.close()


def test_regression_jail_cards_swapped_in_a_trade_change_hands(tmp_path):
    """Found by the trade-symmetry property. Ann holds the Chance Get Out of Jail Free card, Bob the Community
    Chest one; they trade one card each. Expected: the cards change hands (Ann ends with Community Chest's,
    Bob with Chance's), whichever player is named ``a``. The engine of 46eadd2, with Ann as ``a``, gave Ann's
    Chance card to Bob and then Bob's "first" card, that same Chance card, straight back: nothing changed
    hands, while with Bob as ``a`` the cards were swapped (the cards a side gave were picked after the other
    side's had arrived). Fixed in 53c0e12."""
    setup = [{"op": "gain_jail_card", "player": "Ann", "deck": "chance"},
             {"op": "gain_jail_card", "player": "Bob", "deck": "community_chest"}]
    results = []
    for a, b in (("Ann", "Bob"), ("Bob", "Ann")):
        game = _game(tmp_path, f"{a}-first", setup)
        try:
            game.apply(parse_operation({"op": "trade", "a": a, "b": b, "a_gives": {"jail_cards": 1},
                                        "b_gives": {"jail_cards": 1}}))
            results.append(game.raw_state.jail_card)
        finally:
            game.close()
    assert results[0] == results[1] == {"chance": "Bob", "community_chest": "Ann"}
