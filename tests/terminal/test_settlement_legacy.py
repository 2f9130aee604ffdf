"""Games started before the settlement order was fixed (issue 17) still open, audit and play.

``tests/fixtures/legacy-settlement-v1.db`` was written by the Banquier of the commit before the fix, replaying
``tests/table_logs/us-debts-settle-oldest-first.jsonl`` without its checks (key: ``tests.conftest.KEY``). Its
journal holds the old order's outcome (Cid owes Ann 1, where the fixed order gives Cid owing Dan 1), and its
header names no ``settlement``. Every entry is recomputed by the audit, so such a game must keep the order it
was started with.
"""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from terminal.bank.game import Game
from terminal.bank.types import LEGACY_SETTLEMENT

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "legacy-settlement-v1.db"


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "legacy.db"
    shutil.copyfile(FIXTURE, target)
    return target


def test_an_old_game_audits_clean_and_keeps_its_order(tmp_path, key):
    before = hashlib.sha256(FIXTURE.read_bytes()).hexdigest()
    path = _copy(tmp_path)
    with Game.open(path, key=key, check="full") as game:
        assert "settlement" not in game.meta
        assert game.config.settlement == LEGACY_SETTLEMENT
        assert game.state()["debt"] == {"Cid": [{"to": "Ann", "amount": 1}]}
        assert game.audit().ok
        # Play goes on with the order the journal was computed with: Cid's next money pays Ann, her only debt.
        game.pass_go("Cid")
        assert game.state()["debt"] == {}
    with Game.open(path, key=key, check="full") as game:  # and the new entry audits too
        assert game.audit().ok
    assert hashlib.sha256(FIXTURE.read_bytes()).hexdigest() == before


def test_a_new_game_records_the_fixed_order(make_game):
    game = make_game("us", ("Ann", "Bob"))
    assert game.meta["settlement"] == "oldest_first"
    assert game.config.settlement == "oldest_first"


def test_an_old_game_is_judged_sound_beside_play_too(tmp_path, key):
    """The background audit replayed with the default settlement (and no agreed length): an old game resumed by
    the terminal was judged damaged and its payments stopped (found with issue 21's judgment of every resume)."""
    path = _copy(tmp_path)
    with Game.open(path, key=key) as game:
        assert game.ledger.guard.wait_verdict(60) is not None
        assert game.judged is True, game.payments_stopped()
        game.pass_go("Cid")
