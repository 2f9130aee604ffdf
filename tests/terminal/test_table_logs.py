"""Every table log replays: the recorded games from real play and the project's own scenario logs."""
from __future__ import annotations

import json

import pytest

from terminal.bank.game import Game
from terminal.bank.tablelog import ReplayMismatch, TableLogError, export_table_log, read_table_log, replay
from tests.conftest import OWN_LOGS, RECORDED

RECORDED_LOGS = sorted(p for p in RECORDED.glob("*.jsonl") if not p.name.startswith("long-"))
LONG_LOG = RECORDED / "long-us-greedy-4p-200.jsonl"
OWN = sorted(OWN_LOGS.glob("*.jsonl"))


def test_the_recorded_and_own_logs_are_there():
    assert len(RECORDED_LOGS) == 10
    assert LONG_LOG.is_file()
    assert len(OWN) >= 12


@pytest.mark.parametrize("log", RECORDED_LOGS + OWN, ids=lambda p: p.name)
def test_log_replays_without_mismatch(log, direct_replay):
    result = direct_replay(log).result  # replay() raised nothing: no mismatch
    parsed = read_table_log(log)
    assert result.operations == parsed.operations
    assert result.checks == sum(1 for line in parsed.lines if "expect" in line.data)
    assert result.checks > 0


@pytest.mark.slow
def test_long_recorded_game_replays_and_audits(tmp_path, key, direct_replay):
    replayed = direct_replay(LONG_LOG)
    assert replayed.result.operations > 9000 and replayed.result.checks > 900
    with Game.open(replayed.copy_to(tmp_path), key=key, check="full") as game:
        assert game.audit().ok


@pytest.mark.parametrize("log", RECORDED_LOGS[:3] + OWN, ids=lambda p: p.name)
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_export_then_replay_gives_the_same_state(log, tmp_path, key, direct_replay):
    with Game.open(direct_replay(log).copy_to(tmp_path), key=key) as game:
        export_table_log(game, tmp_path / "export.jsonl")
        original = game.state()
    replay(tmp_path / "export.jsonl", tmp_path / "b.db", key=key)
    with Game.open(tmp_path / "b.db", key=key) as again:
        assert again.state() == original


def _write(tmp_path, lines):
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(json.dumps(line) if not isinstance(line, str) else line for line in lines) + "\n")
    return path


HEADER = {"format": "table-log", "version": 1, "edition": "fr", "players": ["Ann", "Bob"], "mode": "classic"}


def test_a_failing_check_names_line_field_expected_and_actual(tmp_path, key):
    path = _write(tmp_path, [HEADER, {"op": "pass_go", "player": "Ann"}, {"expect": {"cash": {"Ann": 1600}}}])
    with pytest.raises(ReplayMismatch) as info:
        replay(path, tmp_path / "g.db", key=key)
    assert info.value.params == {"line": 3, "field": "cash.Ann", "expected": 1600, "actual": 1700}
    assert "line 3" in str(info.value) and "1700" in str(info.value)


def test_an_accepted_refusal_is_a_mismatch(tmp_path, key):
    path = _write(tmp_path, [HEADER, {"op": "pass_go", "player": "Ann", "refused": True}])
    with pytest.raises(ReplayMismatch) as info:
        replay(path, tmp_path / "g.db", key=key)
    assert info.value.params["line"] == 2 and info.value.params["field"] == "refused"


def test_a_refused_operation_not_marked_is_a_mismatch(tmp_path, key):
    path = _write(tmp_path, [HEADER, {"op": "buy", "player": "Zoe", "square": 1}])
    with pytest.raises(ReplayMismatch, match="line 2: buy was refused"):
        replay(path, tmp_path / "g.db", key=key)


@pytest.mark.parametrize("bad, reason", [
    ({"op": "fly", "player": "Ann"}, "Unknown operation"),
    ({"op": "pass_go", "player": "Ann", "extra": 1}, "unknown field"),
    ({"op": "buy", "player": "Ann", "square": "39"}, "must be int"),
    ({"op": "buy", "player": "Ann"}, "missing field"),
    ({"op": "buy", "player": "Ann", "square": True}, "must be int"),
    ({"expect": {"money": {}}}, "unknown check"),
    ("{not json", "not valid JSON"),
    ([1, 2], "not a JSON object"),
])
def test_a_malformed_line_stops_the_replay_naming_the_line(tmp_path, key, bad, reason):
    path = _write(tmp_path, [HEADER, {"op": "pass_go", "player": "Ann"}, bad])
    with pytest.raises(TableLogError, match=reason) as info:
        replay(path, tmp_path / "g.db", key=key)
    assert info.value.params["line"] == 3
    assert not (tmp_path / "g.db").exists(), "a malformed log is refused before any game file is written"


def test_comments_and_blank_lines_are_ignored(tmp_path, key):
    path = _write(tmp_path, [HEADER, "", "# a comment", {"op": "pass_go", "player": "Ann"},
                             {"expect": {"cash": {"Ann": 1700}}}])
    assert replay(path, tmp_path / "g.db", key=key).checks == 1


def test_a_bad_header_is_refused(tmp_path, key):
    path = _write(tmp_path, [{"format": "table-log", "version": 2, "edition": "fr", "players": ["A", "B"]}])
    with pytest.raises(TableLogError, match="version"):
        read_table_log(path)
    path = _write(tmp_path, [{**HEADER, "edition": "monaco"}])
    with pytest.raises(TableLogError, match="Unknown edition"):
        replay(path, tmp_path / "g.db", key=key)


# -- a replay commits in batches, ending with a durable commit -------------------------------------------------
def _commits_traced(monkeypatch):
    """The COMMITs every game connection opened from now on executes (SQLite's own statement trace)."""
    from terminal.bank.ledger.journal import Ledger
    commits: list[str] = []
    connect = Ledger._connect

    def traced(path):
        db = connect(path)
        db.conn.set_trace_callback(lambda sql: commits.append(sql) if sql.strip().upper() == "COMMIT" else None)
        return db
    monkeypatch.setattr(Ledger, "_connect", staticmethod(traced))
    return commits


def _pass_go_log(tmp_path, n, tail=()):
    lines = [HEADER] + [{"op": "pass_go", "player": ("Ann", "Bob")[i % 2]} for i in range(n)]
    return _write(tmp_path, lines + list(tail))


def test_a_replay_commits_in_batches_each_operation_its_own_entry(tmp_path, key, monkeypatch):
    from terminal.bank.ledger.batch import BATCH_ENTRIES
    n = 2 * BATCH_ENTRIES + 10
    commits = _commits_traced(monkeypatch)
    path = _pass_go_log(tmp_path, n, [{"expect": {"cash": {"Ann": 1500 + 200 * (n // 2)}}}])
    assert replay(path, tmp_path / "g.db", key=key).operations == n
    # creating the file, marking it open, the batches and closing: a handful of commits, not one per operation
    assert 3 <= len(commits) <= 10, len(commits)
    with Game.open(tmp_path / "g.db", key=key, check="full") as game:
        assert game.ledger.last_entry()[0] == n + 1  # the setup, then one entry per operation
        assert not game.ledger.was_unclean
        assert game.cash("Bob") == 1500 + 200 * (n // 2)


def test_a_live_game_still_commits_every_operation(tmp_path, key, monkeypatch):
    commits = _commits_traced(monkeypatch)
    game = Game.create(tmp_path / "g.db", "fr", ["Ann", "Bob"], key=key)
    before = len(commits)
    for _ in range(5):
        game.pass_go("Ann")
    assert len(commits) - before == 5
    game.close()


def test_a_failing_check_keeps_every_operation_before_it_committed(tmp_path, key):
    from terminal.bank.ledger.batch import BATCH_ENTRIES
    n = BATCH_ENTRIES + 7  # one full batch, then some in the batch the failure ends
    path = _pass_go_log(tmp_path, n, [{"expect": {"cash": {"Ann": 0}}}, {"op": "pass_go", "player": "Ann"}])
    with pytest.raises(ReplayMismatch) as info:
        replay(path, tmp_path / "g.db", key=key)
    assert info.value.params["line"] == n + 2
    with Game.open(tmp_path / "g.db", key=key, check="full") as game:
        assert game.ledger.last_entry()[0] == n + 1  # every operation before the failing line, none after it
        assert not game.ledger.was_unclean


def test_an_accepted_refusal_is_kept_as_one_transaction_per_entry_kept_it(tmp_path, key):
    path = _pass_go_log(tmp_path, 3, [{"op": "pass_go", "player": "Ann", "refused": True},
                                      {"op": "pass_go", "player": "Bob"}])
    with pytest.raises(ReplayMismatch) as info:
        replay(path, tmp_path / "g.db", key=key)
    assert info.value.params["line"] == 5
    with Game.open(tmp_path / "g.db", key=key, check="full") as game:
        assert game.ledger.last_entry()[0] == 5  # the setup, the 3 operations and the one accepted wrongly
        assert game.cash("Ann") == 1500 + 3 * 200


def test_an_operation_refused_by_the_rules_mid_batch_leaves_the_others(tmp_path, key):
    path = _pass_go_log(tmp_path, 4, [{"op": "buy", "player": "Zoe", "square": 1}, {"op": "pass_go", "player": "Ann"}])
    with pytest.raises(ReplayMismatch, match="line 6: buy was refused"):
        replay(path, tmp_path / "g.db", key=key)
    with Game.open(tmp_path / "g.db", key=key, check="full") as game:
        assert game.ledger.last_entry()[0] == 5
