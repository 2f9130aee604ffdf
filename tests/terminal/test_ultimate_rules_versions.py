"""Games of the electronic board written before its rules followed the printed Event cards still open, audit
clean and replay the same, by the rules they were played with (the header's ``rules_version``; none: 1).

The three files in ``tests/fixtures/ultimate-*-v1.db`` were written by the Banquier of the commit before the
change, replaying (key: ``tests.conftest.KEY``) ``tests/fixtures/ultimate-readings-v1.jsonl`` (an Event of M0, a
side and a colour set raised through no property of the drawer, the drawer's own market slump, cards 19-22 as
movement cards, the classic pay-each and Free Parking operations) and the then versions of
``tests/table_logs/ultimate-events.jsonl`` and ``ultimate-bankruptcy-end.jsonl`` (a bankruptcy with properties
unsold). Their headers name no ``rules_version``. Every entry is recomputed by the audit, so each must keep the
reading it was played with.
"""
from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from terminal.bank.game import Game
from terminal.bank.operations import parse_operation
from terminal.bank.tablelog import TableLogError, export_lines, header_rules_version, read_table_log, replay
from terminal.bank.types import LEGACY_RULES_VERSION, RULES_VERSION
from terminal.errors import GameError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

#: What each old game holds, worked out by hand from its log under the old reading.
OLD_GAMES = {
    # Ann buys 1 (60), Bob 10 (140); Cid pays 50 x 0 properties: M0; Cid raises side 1 (Ann's 1: level 2) and the
    # pink set (Bob's 10: level 2) though he owns nothing; Ann's slump is hers alone: Bob pays 1 at level 2, 130
    # (level 3); Ann pays each player 10, Bob collects 5 from each, Cid's Free Parking takes the empty pot (0);
    # Ann's slump: 10 at level 1, 110 (level 3), one slump payment left.
    # Ann 1500 - 60 + 130 - 20 - 5 - 110 = 1435; Bob 1500 - 140 - 130 + 10 + 10 + 110 = 1360; Cid 1500 + 10 - 5.
    "ultimate-readings-v1.db": {"cash": {"Ann": 1435, "Bob": 1360, "Cid": 1505}, "levels": {"1": 3, "10": 3},
                                "slump": {"Ann": 1, "Bob": 0, "Cid": 0}, "bankrupt": [], "game_over": False},
    # The events log's final check as it was (Cid raised side 1 and the brown set holding only square 10).
    "ultimate-events-v1.db": {"cash": {"Ann": 1680, "Bob": 400, "Cid": 1560},
                              "levels": {"1": 2, "3": 4, "5": 3, "10": 1, "33": 1, "35": 1},
                              "worth": {"Ann": 2240, "Bob": 810, "Cid": 1700}, "game_over": False},
    # Bob bankrupt owing Ann 90 with Rue Lecourbe (60) unsold: it went back to the Bank unpaid.
    "ultimate-bankruptcy-v1.db": {"cash": {"Ann": 2260, "Bob": 0, "Cid": 1200}, "bankrupt": ["Bob"],
                                  "owner": {"3": "bank", "35": "Ann"}, "worth": {"Ann": 3010, "Bob": 0, "Cid": 1380},
                                  "standings": ["Ann", "Cid", "Bob"], "game_over": True},
}


def _holds(state: dict, expected: dict) -> None:
    for field, value in expected.items():
        if isinstance(value, dict):
            assert {k: state[field][k] for k in value} == value, field
        else:
            assert state[field] == value, field


@pytest.mark.parametrize("name", sorted(OLD_GAMES))
def test_an_old_game_opens_audits_clean_and_keeps_its_reading(tmp_path, key, name):
    fixture = FIXTURES / name
    before = hashlib.sha256(fixture.read_bytes()).hexdigest()
    path = tmp_path / name
    shutil.copyfile(fixture, path)
    with Game.open(path, key=key, check="full") as game:
        assert "rules_version" not in game.meta
        assert game.config.rules_version == LEGACY_RULES_VERSION
        assert game.audit().ok
        _holds(game.state(), OLD_GAMES[name])
        lines = list(export_lines(game))
    assert lines[0]["rules_version"] == LEGACY_RULES_VERSION
    # started when another's property could be chosen after a Location by default, version 1's default: its
    # export names no flag (the flags' defaults follow the rules version it names)
    assert "rules" not in lines[0]
    # Its export replays, by the old rules its header names, to the same state (the final check agrees).
    log = tmp_path / "export.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = replay(log, tmp_path / "again.db", key=key)
    assert result.checks == 1 and result.refused == 0
    with Game.open(tmp_path / "again.db", key=key, check="full") as again:
        assert again.meta["rules_version"] == LEGACY_RULES_VERSION
        _holds(again.state(), OLD_GAMES[name])
    assert hashlib.sha256(fixture.read_bytes()).hexdigest() == before


def test_an_old_game_plays_on_by_its_rules_and_audits(tmp_path, key):
    path = tmp_path / "old.db"
    shutil.copyfile(FIXTURES / "ultimate-readings-v1.db", path)
    with Game.open(path, key=key) as game:
        assert game.await_judgment(60)
        assert game.judged is True, game.payments_stopped()
        # The old reading holds for what is played next: Cid, with no property, pays M0 and lowers a set he owns
        # nothing in (Bob's 10: level 2); the slump stays Ann's (Bob's rent on Ann's 1 at level 3 is 220, not
        # level 1's 70).
        game.apply(parse_operation({"op": "event_pay_per_property", "player": "Cid", "amount": 50, "card": 14}))
        game.apply(parse_operation({"op": "event_group_down", "player": "Cid", "group": "pink", "card": 13}))
        game.apply(parse_operation({"op": "pay_rent", "player": "Bob", "square": 1}))
        assert game.state()["cash"]["Bob"] == 1360 - 220
    with Game.open(path, key=key, check="full") as game:
        assert game.audit().ok
        assert game.state()["levels"]["1"] == 4


def test_a_new_game_records_the_current_rules(make_game):
    game = make_game("ultimate", ("Ann", "Bob"))
    assert game.meta["rules_version"] == RULES_VERSION == game.config.rules_version
    classic = make_game("us", ("Ann", "Bob"))
    assert classic.meta["rules_version"] == RULES_VERSION


def test_a_table_log_names_only_a_known_rules_version(tmp_path):
    log = tmp_path / "log.jsonl"
    for bad in (0, 99, "1", True):
        log.write_text(json.dumps({"format": "table-log", "version": 1, "edition": "ultimate",
                                   "players": ["Ann", "Bob"], "rules_version": bad}) + "\n", encoding="utf-8")
        with pytest.raises(TableLogError, match="rules_version"):
            read_table_log(log)


def test_an_old_game_keeps_its_deck(tmp_path, key):
    """Cards 19 and 20 are movement cards there, 21 and 22 in its deck, 23 and 24 not."""
    path = tmp_path / "old.db"
    shutil.copyfile(FIXTURES / "ultimate-events-v1.db", path)
    with Game.open(path, key=key) as game:
        game.apply(parse_operation({"op": "event_movement", "player": "Ann", "card": 20}))
        game.apply(parse_operation({"op": "event_movement", "player": "Ann", "card": 22}))
        for op in ({"op": "event_move_to_property", "player": "Ann", "square": 6, "buy": True, "card": 19},
                   {"op": "event_movement", "player": "Ann", "card": 23}):
            with pytest.raises(GameError) as refused:
                game.apply(parse_operation(op))
            assert refused.value.code == "event_card_mismatch"
        with pytest.raises(GameError):
            game.event("Ann", 24, square=6)
    with Game.open(path, key=key, check="full") as game:
        assert game.audit().ok


def _header_log(tmp_path: Path, **header: object) -> Path:
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps({"format": "table-log", "version": 1, "players": ["Ann", "Bob"], **header}) + "\n",
                   encoding="utf-8")
    return log


def test_an_old_table_log_naming_no_rules_version_replays_by_version_1(tmp_path, key):
    """Every log of the electronic board written before version 2 names none: it keeps its meaning (M0 for 50 per
    property with none, the slump the drawer's own, a set raised though the drawer owns nothing in it)."""
    log = FIXTURES / "ultimate-readings-v1.jsonl"
    assert "rules_version" not in read_table_log(log).header
    result = replay(log, tmp_path / "v1.db", key=key)
    assert result.refused == 0
    with Game.open(tmp_path / "v1.db", key=key, check="full") as game:
        assert game.config.rules_version == game.meta["rules_version"] == LEGACY_RULES_VERSION
        assert game.config.rules["location_landing"] == "land"
        _holds(game.state(), OLD_GAMES["ultimate-readings-v1.db"])


@pytest.mark.parametrize(("header", "version", "landing"), [
    ({"edition": "ultimate"}, 1, "land"),
    ({"edition": "ultimate", "rules_version": 1}, 1, "land"),
    ({"edition": "ultimate", "rules_version": 1, "rules": {"location_landing": "buy_or_raise"}}, 1, "buy_or_raise"),
    ({"edition": "ultimate", "rules_version": 2}, 2, "buy_or_raise"),
    ({"edition": "ultimate", "rules_version": 2, "rules": {"location_landing": "land"}}, 2, "land"),
])
def test_the_flags_defaults_follow_the_logs_rules_version(tmp_path, key, header, version, landing):
    log = _header_log(tmp_path, **header)
    assert header_rules_version(read_table_log(log).header) == version
    replay(log, tmp_path / "g.db", key=key)
    with Game.open(tmp_path / "g.db", key=key) as game:
        assert game.config.rules_version == version
        assert game.config.rules["location_landing"] == landing
        exported = next(export_lines(game))
    # an export always names its rules version, and only the flags that differ from that version's defaults
    assert exported["rules_version"] == version
    assert exported.get("rules", {}) == ({} if landing == ("land" if version == 1 else "buy_or_raise")
                                         else {"location_landing": landing})


@pytest.mark.parametrize("edition", ["us", "fr"])
def test_a_classic_log_keeps_its_meaning_without_a_rules_version(tmp_path, key, edition):
    """The rules version changes nothing on a classic board: a classic game records the current one, as before."""
    log = _header_log(tmp_path, edition=edition)
    replay(log, tmp_path / "g.db", key=key)
    with Game.open(tmp_path / "g.db", key=key) as game:
        assert game.meta["rules_version"] == RULES_VERSION
        assert next(export_lines(game))["rules_version"] == RULES_VERSION
