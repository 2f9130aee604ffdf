"""Issue 21, point 1: a quick or time-limited game whose seats are not in alphabetical order passes its own audit.

Until issue 21 the setup entry paid for the dealt deeds in the order the deal was given (the seats' for a deal the
terminal drew, the table log's for a given one), while the audit recomputed it from the header, a JSON object
whose keys are sorted: every such game failed its audit ("Entry #1 (setup): recorded effects differ"), and after
a crash the terminal refused it as damaged. Now the players pay in seat order, and the audit of an older file
takes the order its setup entry recorded (:func:`terminal.bank.audit.deal_order`).

The fixtures were written by the Banquier of commit 0cefad7 (before the fix), key ``tests.conftest.KEY``:

- ``setup-order-quick-v1.db``: ``Game.create(..., "fr", ["Voiture", "Chien", "Chapeau"], mode="quick",
  rng=random.Random(21))`` (the wizard's default seats, a deal drawn by the terminal), then ``pass_go("Voiture")``,
  ``pass_go("Chien")``, ``pay_bank("Chapeau", 50)``, closed;
- ``setup-order-time-limit-v1.db``: ``Game.create(..., "us", ["Zoé", "Émile", "Борис", "Ann"],
  mode="time_limit", dealt={"Борис": [1, 3], "Ann": [6, 8], "Zoé": [9, 11], "Émile": [13, 14]},
  length_minutes=60)`` (a deal given in an order neither the seats' nor the alphabet's), then ``pass_go("Zoé")``,
  ``undo()``, ``pass_go("Émile")``, closed.

Both failed ``Game.audit()`` with that code (checked when they were made).
"""
from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from terminal.bank import engine
from terminal.bank.audit import deal_order
from terminal.bank.game import Game
from terminal.bank.ledger.journal import Ledger
from terminal.bank.state import State
from terminal.bank.types import GameConfig
from terminal.errors import AuditFailed

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
OLD_FILES = ("setup-order-quick-v1.db", "setup-order-time-limit-v1.db")


@pytest.mark.parametrize("name", OLD_FILES)
def test_games_written_before_the_fix_pass_their_audit_and_play_on(tmp_path, key, name):
    before = hashlib.sha256((FIXTURES / name).read_bytes()).hexdigest()
    path = tmp_path / name
    shutil.copyfile(FIXTURES / name, path)
    with Game.open(path, key=key, check="full") as game:
        assert game.audit().ok, game.audit().summary()
        seats = game.players
        assert list(seats) != sorted(seats)
        game.pass_go(seats[-1])
    with Game.open(path, key=key, check="full") as game:  # the new entry audits too
        assert game.audit().ok
    assert hashlib.sha256((FIXTURES / name).read_bytes()).hexdigest() == before


@pytest.mark.parametrize("mode", ["quick", "time_limit"])
def test_a_new_game_pays_its_deal_in_seat_order_and_passes_its_audit(make_game, mode):
    seats = ["Voiture", "Chien", "Chapeau", "Ëva", "Øle"]
    game = make_game("fr", seats, mode=mode, rng=random.Random(5))
    first_payments = [p.payer for p in game.ledger.entry(1).postings if p.payee == "bank"]
    assert list(dict.fromkeys(first_payments)) == seats
    assert game.audit().ok


def test_a_deal_given_in_any_order_is_paid_in_seat_order(make_game):
    dealt = {"Chapeau": [1, 3], "Voiture": [6, 8], "Chien": [9, 11]}
    game = make_game("fr", ["Voiture", "Chien", "Chapeau"], mode="quick", dealt=dealt)
    payers = [p.payer for p in game.ledger.entry(1).postings if p.payee == "bank"]
    assert list(dict.fromkeys(payers)) == ["Voiture", "Chien", "Chapeau"]
    assert game.audit().ok


def test_the_recorded_order_is_read_from_the_setups_payments():
    postings = [["bank", "B", 1500], ["bank", "A", 1500], ["A", "bank", 60], ["B", "bank", 60], ["A", "bank", 100]]
    assert deal_order(postings, {"B": [1], "A": [3, 6]}) == ["A", "B"]
    assert deal_order([["x"], 3, [], ["A", "bank", 1]], {"A": [1]}) == ["A"]  # what an edited file holds
    assert deal_order(postings, ["A"]) == []


def _signed_setup(tmp_path: Path, key: bytes, change) -> Path:
    """A quick game whose setup entry pays in a recorded order (Chapeau first) and is then changed by ``change``
    (on its effects) before it is signed with the device key: what only the replay can tell from a good one."""
    from cards.editions import load_edition
    edition = load_edition("fr")
    seats = ("Voiture", "Chien", "Chapeau")
    dealt = {"Voiture": [1, 3], "Chien": [6, 8], "Chapeau": [9, 11]}
    config = GameConfig(edition, "quick", dict(edition.rules))
    state, effects = engine.setup_effects(State.new(edition, seats), config, dealt, order=["Chapeau", "Voiture"])
    postings, changes = change(list(effects.postings), list(effects.changes))
    meta = {"format": "banquier-game", "edition": "fr", "players": list(seats), "mode": "quick",
            "rules": dict(edition.rules), "rules_changed": {}, "dealt": dealt, "end_time": None,
            "player_cards": {}, "created_at": "2024-01-01T00:00:00+00:00", "settlement": config.settlement}
    path = tmp_path / "g.db"
    Ledger.create(path, key, meta, setup=(postings, changes, state.to_json())).close()
    return path


def test_another_order_of_the_same_deal_passes(tmp_path, key):
    path = _signed_setup(tmp_path, key, lambda postings, changes: (postings, changes))
    with Game.open(path, key=key, check="full") as game:
        assert game.audit().ok


def test_a_setup_that_differs_otherwise_still_fails(tmp_path, key):
    def cheaper(postings, changes):
        last = postings[-1]
        postings[-1] = type(last)(last.payer, last.payee, last.amount - 10)  # one deed paid 10 less
        return postings, changes
    path = _signed_setup(tmp_path, key, cheaper)
    with pytest.raises(AuditFailed, match="#1"):
        Game.open(path, key=key, check="full")


@pytest.mark.slow  # over 0.5 s (two subprocesses): in the full run; the quick run has the in-process tests above
def test_the_issues_reproduction_through_the_command(tmp_path):
    """`banquier replay` of the issue's log, then `banquier audit`: passed (it said "Entry #1 (setup): recorded
    effects differ from the rules' result")."""
    log = tmp_path / "q.jsonl"
    log.write_text(json.dumps({"format": "table-log", "version": 1, "edition": "fr",
                               "players": ["Voiture", "Chien", "Chapeau"], "mode": "quick"}) + "\n"
                   + json.dumps({"op": "pass_go", "player": "Voiture"}) + "\n", encoding="utf-8")
    game = tmp_path / "g.db"
    run = [sys.executable, "-m", "host_ui"]
    replayed = subprocess.run([*run, "replay", str(log), "--game", str(game)], capture_output=True, text=True)
    assert replayed.returncode == 0, replayed.stderr
    audited = subprocess.run([*run, "audit", str(game)], capture_output=True, text=True)
    assert audited.returncode == 0 and "Audit passed: 2 entries" in audited.stdout, audited.stdout + audited.stderr
