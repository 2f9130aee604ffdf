"""The journal read a page at a time (terminal.bank.history): the history screen's pages, the chart's points
and the export's stream give what the whole-journal reads give (Game.history, Game.worth_history)."""
from __future__ import annotations

import json
import random
import sqlite3

import pytest

from host_ui.screen.screens import balances_after
from terminal.bank.game import Game
from terminal.bank.history import (
    HistoryPages,
    chart_level,
    clock_seqs,
    iter_history,
    iter_operations,
    keep_summary,
    summary_problems,
    worth_series,
)
from terminal.bank.ledger.schema import CLOCK_INDEX
from terminal.bank.operations import CLOCK_OPERATIONS, PlayTime
from terminal.errors import GameError
from tests.conftest import RECORDED
from tests.terminal.oracles import journal_of, worth_history

PLAYERS = ("Ann", "Bob", "Cleo")


def played(game: Game, steps: int, seed: int = 1) -> Game:
    """Varied play: salaries, rents, transfers, houses, mortgages, undos and the play clock's entries."""
    rng = random.Random(seed)
    a, b, c = PLAYERS
    for _ in range(steps):
        try:
            choice = rng.randrange(9)
            if choice == 0:
                game.pass_go(rng.choice(PLAYERS))
            elif choice == 1:
                game.pay_rent(b, rng.choice((1, 3)))
            elif choice == 2:
                game.transfer(rng.choice(PLAYERS), rng.choice((a, c)), rng.randrange(1, 80))
            elif choice == 3:
                game.build(a, rng.choice((1, 3)))
            elif choice == 4:
                game.mortgage(b, rng.choice((14, 16)))
            elif choice == 5:
                game.unmortgage(b, rng.choice((14, 16)))
            elif choice == 6:
                game.undo()
            elif choice == 7:
                game.apply(PlayTime(60))
            else:
                game.pay_bank(rng.choice(PLAYERS), rng.randrange(1, 300))
        except GameError:
            pass
    return game


def salaries(game: Game, count: int) -> Game:
    """``count`` salaries, the players in turn: a long journal of one kind of entry."""
    for i in range(count):
        game.pass_go(PLAYERS[i % 3])
    return game


@pytest.fixture
def long_game(make_game):
    game = make_game("fr", PLAYERS, mode="time_limit", dealt={"Ann": [1, 3], "Bob": [14, 16], "Cleo": [11, 13]})
    return played(game, 400)


def test_the_clock_index_names_the_clock_operations():
    assert all(f"'{op}'" in CLOCK_INDEX for op in CLOCK_OPERATIONS)


def test_pages_are_the_history_and_balances_are_those_of_the_postings(long_game):
    history = journal_of(long_game)
    assert any(h["undone"] for h in history) and len(history) < len(journal_of(long_game, with_clock=True))
    pages = long_game.history_pages()
    assert len(pages) == len(history)
    assert pages[0:len(pages)] == history
    for top in range(0, len(history), 7):  # page by page, as the screen reads them
        assert pages[top:top + 7] == history[top:top + 7]
    assert pages[-1] == history[-1] and pages[5] == history[5]
    with pytest.raises(IndexError):
        pages[len(history)]
    balances = balances_after(history, PLAYERS)
    order = list(range(len(history)))
    random.Random(2).shuffle(order)
    for index in order[:150] + [0, len(history) - 1]:
        assert pages.balances(index) == balances[index], index


def test_pages_show_the_journal_as_it_was_when_made(long_game):
    pages = long_game.history_pages()
    before = pages[0:len(pages)]
    long_game.undo()
    long_game.pass_go("Ann")
    assert len(pages) == len(before) and pages[0:len(pages)] == before
    assert len(long_game.history_pages()) == len(before) + 2


def test_pages_read_the_same_without_the_clock_index(long_game, tmp_path, key):
    history = journal_of(long_game)
    long_game.close()
    with sqlite3.connect(long_game.path) as conn:
        conn.execute("DROP INDEX journal_clock")  # a file written before the index
    with Game.open(long_game.path, key=key, read_only=True) as game:
        pages = HistoryPages(game.ledger, game.players, game.raw_state.cash)
        assert pages[0:len(pages)] == history
    with Game.open(long_game.path, key=key) as game:
        assert game.history_pages()[0:len(history)] == history
    with Game.open(long_game.path, key=key, read_only=True) as game:  # made at the clean close
        assert game.ledger.db.execute("SELECT 1 FROM sqlite_master WHERE name = 'journal_clock'").fetchone()
        assert game.history_pages()[0:len(history)] == history


def test_the_stream_is_the_history(long_game):
    assert list(iter_history(long_game.ledger, chunk=13)) == journal_of(long_game)
    assert list(iter_history(long_game.ledger, with_clock=True, chunk=50)) == journal_of(long_game, with_clock=True)
    assert [(s, k, op) for s, k, op in iter_operations(long_game.ledger, chunk=9)] == [
        (e.seq, e.kind, e.op) for e in long_game.ledger.entries()]


def test_the_chart_has_every_point_of_a_short_game(long_game):
    full = worth_history(long_game)
    series = long_game.worth_series()
    assert len(full) < 400 and list(series) == full
    assert series.positions == tuple(range(len(full))) and series.length == len(full)


@pytest.mark.parametrize("limit", [1, 2, 7, 50, 129])
def test_the_chart_of_a_long_game_is_exact_at_its_points_and_ends_on_the_final_worth(long_game, limit):
    full = worth_history(long_game)
    series = worth_series(long_game.ledger, long_game.edition, long_game.players,
                          long_game.config.houses_before_hotel, limit)
    assert 1 <= len(series) <= limit and series.length == len(full)
    assert list(series.positions) == sorted(set(series.positions))
    assert all(full[pos] == point for pos, point in zip(series.positions, series, strict=True))
    assert series.positions[-1] == len(full) - 1
    assert series[-1] == {p: long_game.worth(p) for p in long_game.players}


@pytest.mark.slow  # the long recorded game: debts and bankruptcies over ~10 000 entries
def test_the_chart_of_the_long_recorded_game_is_exact(direct_replay, tmp_path, key):
    path = direct_replay(RECORDED / "long-us-greedy-4p-200.jsonl").copy_to(tmp_path)
    with Game.open(path, key=key, read_only=True) as game:
        full = worth_history(game)
        series = game.worth_series()
        assert len(series) <= 400 < len(full) == series.length
        assert all(full[pos] == point for pos, point in zip(series.positions, series, strict=True))
        assert series[-1] == full[-1]
        pages = game.history_pages()
        history = journal_of(game)
        assert pages[len(pages) - 20:len(pages)] == history[-20:]
        balances = balances_after(history, game.players)
        assert [pages.balances(i) for i in range(0, len(history), 97)] == balances[::97]


@pytest.mark.parametrize("name", sorted(p.name for p in RECORDED.glob("game-*.jsonl")))
def test_the_chart_of_each_recorded_game_is_exact(direct_replay, tmp_path, key, name):
    path = direct_replay(RECORDED / name).copy_to(tmp_path)
    with Game.open(path, key=key, read_only=True) as game:
        full = worth_history(game)
        assert list(game.worth_series()) == full
        series = worth_series(game.ledger, game.edition, game.players, game.config.houses_before_hotel, 10)
        assert all(full[pos] == point for pos, point in zip(series.positions, series, strict=True))
        assert series[-1] == full[-1]


def test_an_entry_that_is_not_json_is_left_out_of_the_clock_index(long_game):
    """A damaged entry's text (edited in SQL here) is written, not refused by the index, and the audit names it."""
    ledger = long_game.ledger
    last = ledger.last_entry()[0]
    clock = clock_seqs(ledger, last)
    assert clock and 3 not in clock
    ledger.db.execute("DROP TRIGGER journal_append_only_update")
    ledger.db.execute("UPDATE journal SET op = CAST(x'7bff22fe' AS TEXT) WHERE seq = 3")
    assert clock_seqs(ledger, last) == clock
    report = long_game.audit()
    assert not report.ok and "damaged" in report.summary()


def series_of(game: Game, limit: int):
    return worth_series(game.ledger, game.edition, game.players, game.config.houses_before_hotel, limit)


def exact_at_points(series, full) -> bool:
    return (series.length == len(full) and series.positions[-1] == len(full) - 1
            and all(full[pos] == point for pos, point in zip(series.positions, series, strict=True)))


def test_the_summary_kept_at_close_gives_the_same_chart(long_game, key):
    full = worth_history(long_game)
    without = series_of(long_game, 16)
    assert keep_summary(long_game.ledger, 16) > 0 and keep_summary(long_game.ledger, 16) == 0
    kept = long_game.ledger.db.execute("SELECT COUNT(*), MIN(level), MAX(level) FROM chart_summary").fetchone()
    assert kept[0] == long_game.ledger.last_entry()[0] // (1 << kept[1]) and kept[1] == kept[2]
    with_summary = series_of(long_game, 16)
    assert with_summary == without and exact_at_points(with_summary, full)
    assert summary_problems(long_game.ledger) == [] and long_game.audit().ok


def test_a_game_that_grows_past_its_summary_is_charted_exactly(long_game):
    ledger = long_game.ledger
    keep_summary(ledger, 16)
    level = ledger.db.execute("SELECT MAX(level) FROM chart_summary").fetchone()[0]
    played(long_game, 500, seed=3)  # a longer game: stretches twice or four times as long
    assert chart_level(ledger.last_entry()[0], 16) > level
    full = worth_history(long_game)
    series = series_of(long_game, 16)
    assert exact_at_points(series, full)
    keep_summary(ledger, 16)  # the finer rows merged into the new level, the old level dropped
    levels = {row[0] for row in ledger.db.execute("SELECT level FROM chart_summary")}
    assert levels == {chart_level(ledger.last_entry()[0], 16)}
    assert series_of(long_game, 16) == series
    assert summary_problems(ledger) == []


def test_an_edited_summary_is_not_used_and_the_audit_names_it(long_game):
    ledger = long_game.ledger
    keep_summary(ledger, 16)
    full = worth_history(long_game)
    row = ledger.db.execute("SELECT level, bucket, data FROM chart_summary ORDER BY bucket LIMIT 1 OFFSET 2").fetchone()
    data = json.loads(row[2])
    data["cash"]["Ann"] = data["cash"].get("Ann", 0) + 1000
    ledger.db.execute("UPDATE chart_summary SET data = ? WHERE level = ? AND bucket = ?",
                      [json.dumps(data), row[0], row[1]])
    series = series_of(long_game, 16)
    assert exact_at_points(series, full)
    problems = summary_problems(ledger)
    assert len(problems) == 1 and f"#{row[1] * (1 << row[0]) + 1}" in problems[0]
    report = long_game.audit()
    assert not report.ok and "chart's summary" in report.summary()


def test_a_long_game_keeps_its_summary_when_closed(make_game, key):
    game = make_game("fr", PLAYERS)
    salaries(game, 450)
    path = game.path
    game.close()
    with Game.open(path, key=key, read_only=True) as again:
        rows = again.ledger.db.execute("SELECT COUNT(*) FROM chart_summary").fetchone()[0]
        assert rows == 451 // 2
        assert list(again.worth_series()) == worth_history(again)[1::2][:rows] + [worth_history(again)[-1]]


def test_a_journal_with_a_missing_entry_is_paged_as_it_is(long_game):
    """A damaged file (an entry deleted in SQL): the pages are the entries that are there."""
    db = long_game.ledger.db
    db.execute("DROP TRIGGER journal_append_only_delete")
    db.execute("DROP TRIGGER postings_append_only_delete")
    db.execute("DELETE FROM postings WHERE seq = 10")
    db.execute("DELETE FROM journal WHERE seq = 10")
    history = journal_of(long_game)
    pages = long_game.history_pages()
    assert len(pages) == len(history) and pages[0:len(pages)] == history
    assert [pages.balances(i) for i in range(0, len(history), 11)] == balances_after(history, PLAYERS)[::11]


def test_pages_of_a_closed_game_are_empty_not_an_error(long_game):
    pages = long_game.history_pages()
    shown = pages[len(pages) - 5:len(pages)]
    long_game.close()
    assert pages[len(pages) - 5:len(pages)] == shown  # read before: kept
    assert pages[0:5] == [] and pages.balances(3) == {}


def journal_reads_of_draw(game: Game, limit: int) -> tuple[list[str], object]:
    """The statements a chart's draw runs, and its series."""
    statements: list[str] = []
    game.ledger.db.conn.set_trace_callback(statements.append)
    try:
        series = series_of(game, limit)
    finally:
        game.ledger.db.conn.set_trace_callback(None)
    return statements, series


def test_the_seal_ties_every_row_with_one_entry_and_gives_the_same_chart(long_game):
    ledger = long_game.ledger
    full = worth_history(long_game)
    keep_summary(ledger, 16)
    level, complete = ledger.db.execute("SELECT level, complete FROM chart_seal").fetchone()
    assert complete == ledger.last_entry()[0] >> level
    statements, series = journal_reads_of_draw(long_game, 16)
    assert exact_at_points(series, full)
    assert not any("JOIN journal" in s for s in statements)  # no row tied one by one
    assert sum("FROM journal WHERE seq = " in s for s in statements) == 1
    played(long_game, 40, seed=5)  # rows past the seal: tied one by one, the chart exact
    statements, series = journal_reads_of_draw(long_game, 16)
    assert exact_at_points(series, worth_history(long_game))


@pytest.mark.parametrize("edit", ["UPDATE chart_seal SET digest = 'x' || substr(digest, 2)",
                                  "UPDATE chart_seal SET complete = complete - 1",
                                  "UPDATE chart_seal SET last_mac = (SELECT mac FROM journal WHERE seq = 1)"])
def test_a_seal_that_does_not_verify_is_not_used(long_game, edit):
    ledger = long_game.ledger
    full = worth_history(long_game)
    keep_summary(ledger, 16)
    row = ledger.db.execute("SELECT level, bucket, data FROM chart_summary ORDER BY bucket LIMIT 1 OFFSET 1").fetchone()
    data = json.loads(row[2])
    data["cash"]["Ann"] = data["cash"].get("Ann", 0) + 1000
    ledger.db.execute("UPDATE chart_summary SET data = ? WHERE level = ? AND bucket = ?",
                      [json.dumps(data), row[0], row[1]])
    ledger.db.execute(edit)
    statements, series = journal_reads_of_draw(long_game, 16)
    assert exact_at_points(series, full)
    assert any("JOIN journal" in s for s in statements)  # the rows tied one by one, the edited one left out


def test_an_old_summary_without_a_seal_is_sealed_at_close(long_game):
    ledger = long_game.ledger
    keep_summary(ledger, 16)
    ledger.db.execute("DROP TABLE chart_seal")
    assert keep_summary(ledger, 16) == 0
    assert ledger.db.execute("SELECT COUNT(*) FROM chart_seal").fetchone()[0] == 1
    assert exact_at_points(series_of(long_game, 16), worth_history(long_game))
