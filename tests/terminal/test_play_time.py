"""Time-limited games on play time (docs/table-log.md, Time limit): the agreed length and the time played are
in the journal, play time is counted on an injected monotonic clock, the wall clock never ends a game, a
restart carries the time played, and undoing the end goes on with the limit lifted."""
from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.registry import BankerCard, CardRegistry, DeedCard, PlayerCard
from hal.sim_beeper import SimBeeper
from hal.sim_reader import SimReader
from terminal.bank.game import Game
from terminal.bank.operations import PlayTime, TimeUp, Undo, parse_operation
from terminal.bank.play_clock import PLAY_TIME_RECORD_S
from terminal.errors import GameOver, NothingToUndo, RuleViolation
from terminal.table.i18n import text
from terminal.table.machine import Terminal
from terminal.table.settings import TerminalSettings
from terminal.table.words import duration_msg
from tests.terminal.oracles import journal_of
from tests.terminal.ui_driver import BANKER_UID, FakeClock, TableDriver, deed_uid, player_uid
from tests.unclean import abandon

DEALT = {"Ann": [11, 13], "Bob": [14, 16]}


class Wall:
    """A wall clock that jumps when told (a Pi without a real-time clock)."""

    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def clock_ops(game: Game) -> list[str]:
    return [h["op"]["op"] for h in journal_of(game, with_clock=True)]


@pytest.fixture
def timed(make_game):
    """``timed(minutes=60, **kwargs)`` -> (game, play clock): a time-limited game whose play clock is a fake."""
    def make(minutes: int | None = 60, **kwargs):
        game = make_game("fr", ("Ann", "Bob"), mode="time_limit", dealt=DEALT, length_minutes=minutes, **kwargs)
        clock = FakeClock(500.0)
        game.play_clock.start(clock)
        return game, clock
    return make


# -- the Game API ----------------------------------------------------------------------------------------------
def test_the_length_is_in_the_header_and_play_time_in_the_journal(timed):
    game, clock = timed(60)
    assert game.meta["length_minutes"] == 60 and game.meta["end_time"] is None
    assert game.time_state() == {"played_s": 0, "limit_s": 3600, "left_s": 3600, "lifted": False}
    clock.advance(59)
    assert game.play_clock.tick() is None and clock_ops(game) == ["setup"], "less than a minute: not written yet"
    assert game.play_clock.time_left() == 3600 - 59
    clock.advance(1)
    assert game.play_clock.tick() is None
    assert clock_ops(game) == ["setup", "x_play_time"] and game.played() == PLAY_TIME_RECORD_S
    assert game.ledger.entry(2).op == {"op": "x_play_time", "seconds": 60}
    assert journal_of(game) == journal_of(game, with_clock=True)[:1], "the history screen shows no clock entries"
    assert game.audit().ok


def test_a_jumping_monotonic_clock_ends_the_game_at_its_length_exactly(timed):
    game, clock = timed(60)
    clock.advance(45 * 60)  # the loop stalled, or the clock jumped: all of it is play
    assert game.play_clock.tick() is None and game.played() == 2700
    clock.advance(14 * 60 + 59)
    assert game.play_clock.tick() is None and not game.is_over() and game.played() == 3599
    clock.advance(1)
    receipt = game.play_clock.tick()
    assert receipt is not None and receipt.operation == TimeUp()
    assert game.is_over() and game.played() == 3600
    with pytest.raises(GameOver):
        game.pass_go("Ann")
    clock.advance(3600)
    assert game.play_clock.tick() is None and game.played() == 3600, "no play time while the game stands over"


def test_a_monotonic_clock_that_goes_back_counts_nothing(timed):
    game, clock = timed(60)
    clock.advance(120)
    game.play_clock.tick()
    clock.now -= 1000
    assert game.play_clock.tick() is None and game.played() == 120
    clock.advance(60)
    game.play_clock.tick()
    assert game.played() == 180


def test_the_wall_clock_jumping_back_and_forward_changes_nothing(timed):
    wall = Wall(datetime(2026, 12, 24, 20, 0, tzinfo=UTC))
    game, clock = timed(30, clock=wall)
    for jump in (timedelta(days=-20000), timedelta(days=365 * 30), timedelta(hours=-5), timedelta(minutes=29)):
        wall.now += jump
        clock.advance(5 * 60)
        assert game.play_clock.tick() is None and not game.is_over()
    assert game.played() == 20 * 60
    wall.now = datetime(2100, 1, 1, tzinfo=UTC)  # long past any end
    clock.advance(9 * 60 + 59)
    assert game.play_clock.tick() is None and not game.is_over()
    clock.advance(1)
    assert game.play_clock.tick() is not None and game.is_over()
    assert "x_time_limit" not in clock_ops(game), "a game with a length never reads the wall clock"


def test_a_restart_in_the_middle_carries_the_time_played(timed, key):
    game, clock = timed(60)
    path = game.path
    clock.advance(25 * 60 + 30)
    game.play_clock.tick()
    game.close()  # a clean stop writes the last 30 s too
    with Game.open(path, key=key) as again:
        assert again.played() == 25 * 60 + 30 and again.play_clock.time_left() == 34 * 60 + 30
        later = FakeClock(9_999_999.0)  # another boot: another monotonic origin; the time off is no play
        again.play_clock.start(later)
        later.advance(34 * 60 + 29)
        assert again.play_clock.tick() is None and not again.is_over()
        later.advance(1)
        assert again.play_clock.tick() is not None and again.is_over()
        assert again.played() == 3600 and again.audit().ok


def test_an_unclean_stop_loses_at_most_the_last_minute(timed, key):
    game, clock = timed(60)
    for _ in range(150):  # ticks every second, as the terminal's loop does
        clock.advance(1)
        game.play_clock.tick()
    assert game.played() == 120 and game.play_clock.time_left() == 3600 - 150
    abandon(game)  # power cut: no close()
    with Game.open(game.path, key=key) as again:
        assert again.played() == 120


def test_undoing_the_end_lifts_the_limit_and_earlier_operations_undo_as_usual(timed):
    game, clock = timed(10)
    game.pass_go("Ann")
    clock.advance(9 * 60)
    game.play_clock.tick()
    game.transfer("Ann", "Bob", 300)  # a mistaken payment just before the end
    clock.advance(60)
    assert game.play_clock.tick() is not None and game.is_over()
    assert game.last_undoable() == {"op": "x_time_up"}
    lift = game.preview(Undo())
    assert ("game", "lifted", None, True) in lift.effects.changes
    game.undo()
    assert not game.is_over() and game.time_state() == {"played_s": 600, "limit_s": None, "left_s": None,
                                                        "lifted": True}
    clock.advance(3600)
    assert game.play_clock.tick() is None and not game.is_over(), "the limit is lifted: it does not end again"
    assert game.played() == 4200
    cash = game.cash("Ann")
    assert game.last_undoable() == {"op": "transfer", "from": "Ann", "to": "Bob", "amount": 300}
    game.undo()
    assert game.cash("Ann") == cash + 300 and game.played() == 4200, "undo never gives time back"
    game.undo()  # the GO salary
    with pytest.raises(NothingToUndo):
        game.undo()  # setup and the clock's entries are never undone
    game.end_game()  # the banker ends it by hand
    assert game.is_over()
    game.undo()
    assert not game.is_over() and game.time_state()["lifted"]
    assert game.audit().ok


def test_undoing_an_end_by_hand_before_the_time_keeps_the_limit(timed):
    game, clock = timed(10)
    clock.advance(120)
    game.play_clock.tick()
    game.end_game()
    clock.advance(1000)  # the game stands over: no play
    game.play_clock.tick()
    game.undo()
    assert game.time_state() == {"played_s": 120, "limit_s": 600, "left_s": 480, "lifted": False}
    clock.advance(479)
    assert game.play_clock.tick() is None
    clock.advance(1)
    assert game.play_clock.tick() is not None and game.is_over()


def test_time_up_without_its_end_recorded_is_ended_at_the_next_tick(timed, key):
    game, _ = timed(1)
    # the play time that reaches the limit is written, then a power cut before its end (x_time_up) is
    played = game.preview(PlayTime(60))
    game.ledger.append("op", played.operation.to_json(), None, played.effects.postings, played.effects.changes,
                       played.after.to_json())
    abandon(game)
    with Game.open(game.path, key=key) as again:
        assert not again.is_over()
        with pytest.raises(GameOver) as info:
            again.pass_go("Ann")
        assert info.value.code == "time_up"
        again.play_clock.start(FakeClock())
        receipt = again.play_clock.tick()
        assert receipt is not None and receipt.operation == TimeUp() and again.is_over()


def test_read_only_games_record_no_time(timed, key):
    game, clock = timed(60)
    game.close()
    with Game.open(game.path, key=key, read_only=True) as look:
        look.play_clock.start(clock)
        clock.advance(7200)
        assert look.play_clock.tick() is None and look.played() == 0


def test_refusals(make_game, timed):
    with pytest.raises(RuleViolation, match="not both"):
        make_game("fr", ("Ann", "Bob"), mode="time_limit", length_minutes=60, end_time="2030-01-01T20:00:00")
    with pytest.raises(RuleViolation, match="time-limited"):
        make_game("fr", ("Ann", "Bob"), length_minutes=60)
    for bad in (0, -5, 24 * 60 + 1, True):
        with pytest.raises(RuleViolation) as info:
            make_game("fr", ("Ann", "Bob"), mode="time_limit", length_minutes=bad)
        assert info.value.code == "bad_length"
    classic = make_game("fr", ("Ann", "Bob"))
    with pytest.raises(RuleViolation) as info:
        classic.apply(PlayTime(60))
    assert info.value.code == "play_time_not_time_limit"
    assert classic.play_clock.tick(1e9) is None and "x_time" not in classic.state()
    game, _ = timed(60)
    for op, code in (({"op": "x_play_time", "seconds": 0}, "bad_play_time"),
                     ({"op": "x_time_limit", "seconds": 60}, "time_limit_set"),
                     ({"op": "x_time_up"}, "time_not_up")):
        with pytest.raises(RuleViolation) as info:
            game.apply(parse_operation(op))
        assert info.value.code == code


# -- games with an end_time (older logs and game files) ---------------------------------------------------------
def test_an_end_time_game_is_converted_once_at_its_first_open(make_game, key):
    end = datetime.now(UTC) + timedelta(hours=3)
    old = make_game("fr", ("Ann", "Bob"), mode="time_limit", dealt=DEALT, end_time=end.isoformat())
    assert old.time_limit() is None, "opened without a wall clock (as by an older version): no limit yet"
    path = old.path
    old.close()
    wall = Wall(end - timedelta(minutes=20))
    with Game.open(path, key=key, clock=wall) as game:
        assert game.ledger.entry(2).op == {"op": "x_time_limit", "seconds": 1200}
        assert game.time_state() == {"played_s": 0, "limit_s": 1200, "left_s": 1200, "lifted": False}
        play = FakeClock()
        game.play_clock.start(play)
        play.advance(600)
        game.play_clock.tick()
    wall.now = end + timedelta(days=1)  # the wall clock jumps past the end time: read only once, it ends nothing
    with Game.open(path, key=key, clock=wall) as game:
        assert clock_ops(game).count("x_time_limit") == 1
        assert game.play_clock.time_left() == 600
        play = FakeClock()
        game.play_clock.start(play)
        play.advance(599)
        assert game.play_clock.tick() is None and not game.is_over()
        play.advance(1)
        assert game.play_clock.tick() is not None and game.is_over()
        assert game.audit().ok


def test_an_end_time_on_a_stale_clock_never_lengthens_the_game(make_game, key):
    start = datetime.now(UTC)
    old = make_game("fr", ("Ann", "Bob"), mode="time_limit", dealt=DEALT,
                    end_time=(start + timedelta(minutes=90)).isoformat())
    old.close()
    with Game.open(old.path, key=key, clock=Wall(datetime(1970, 1, 1, tzinfo=UTC))) as game:
        assert 90 * 60 - 2 <= game.time_limit() <= 90 * 60, "no more than the length agreed at the start"


def test_an_ended_end_time_game_undone_goes_on_without_a_limit(make_game, key):
    end = datetime(2100, 1, 1, 20, 0, tzinfo=UTC)
    old = make_game("fr", ("Ann", "Bob"), mode="time_limit", dealt=DEALT, end_time=end.isoformat())
    old.pass_go("Ann")
    old.end_game()  # ended by an older version when its wall clock said so
    old.close()
    with Game.open(old.path, key=key, clock=Wall(end + timedelta(minutes=5))) as game:
        assert game.is_over() and game.time_limit() == 0
        play = FakeClock()
        game.play_clock.start(play)
        game.undo()
        assert not game.is_over() and game.time_state()["lifted"]
        play.advance(600)
        assert game.play_clock.tick() is None and not game.is_over(), "it does not end again at once"
        game.undo()
        assert game.cash("Ann") == 1500 - 280
        assert game.audit().ok


def test_an_end_time_game_created_with_a_wall_clock_is_converted_at_once(make_game):
    wall = Wall(datetime(2100, 6, 1, 18, 0, tzinfo=UTC))
    game = make_game("fr", ("Ann", "Bob"), mode="time_limit", dealt=DEALT,
                     end_time="2100-06-01T19:30:00+00:00", clock=wall)
    assert game.time_limit() == 90 * 60


# -- through the state machine -------------------------------------------------------------------------------
def _terminal(game: Game, players=("Ann", "Bob")):
    clock = FakeClock()
    registry = CardRegistry(None, {BANKER_UID: BankerCard(), **{player_uid(n): PlayerCard(n) for n in (1, 2)},
                                   **{deed_uid(s.index): DeedCard(s.index) for s in game.edition.deeds()}})
    beeper = SimBeeper(audio=False, clock=clock)
    terminal = Terminal(game, registry, beeper, clock, TerminalSettings())
    play = FakeClock(77.0)
    game.play_clock.start(play)
    driver = TableDriver(terminal, SimReader(clock=clock), clock, list(players), play_clock=play)
    return terminal, driver, beeper, play


def test_the_state_machine_ends_the_game_on_play_time_and_undo_plays_on(timed):
    game, _ = timed(30)
    terminal, driver, beeper, play = _terminal(game)
    driver.play({"op": "pass_go", "player": "Ann"})
    play.advance(29 * 60)
    terminal.tick()
    assert terminal.view.screen == "idle" and not game.is_over()
    driver.play({"op": "transfer", "from": "Ann", "to": "Bob", "amount": 100})
    driver.clock.advance(3600)  # the screen's clock runs on (timeouts): it is not the play clock
    terminal.tick()
    assert not game.is_over()
    play.advance(60)
    terminal.tick()
    assert game.is_over() and terminal.view.screen == "game_over"
    assert [p for _, p in beeper.played][-1] == "game_over"
    driver.play({"op": "undo"})
    assert not game.is_over() and terminal.view.screen == "idle" and game.time_state()["lifted"]
    play.advance(3600)
    terminal.tick()
    assert terminal.view.screen == "idle" and not game.is_over()
    driver.play({"op": "undo"})  # the payment made just before the end
    assert game.cash("Bob") == 1500 - 340
    driver.play({"op": "end_game"})
    assert game.is_over() and terminal.view.screen == "game_over"


def test_the_wizard_starts_a_game_of_that_many_minutes_of_play(make_game, tmp_path, key):
    from tests.terminal.test_machine import Table
    table = Table(make_game)
    play = FakeClock()

    def factory(edition, names, mode, rules, cards, minutes=None):
        game = Game.create(tmp_path / "new.db", edition, names, mode, rules or None, key=key, player_cards=cards,
                           length_minutes=minutes, clock=Wall(datetime(1999, 1, 1, tzinfo=UTC)))
        game.play_clock.start(play)
        return game

    table.terminal.game_factory = factory
    d = table.driver
    d.tap(BANKER_UID)
    d.choose("new_game")
    while table.view.extra is not None and "minutes" not in [o.id for o in table.view.options]:
        d.choose("mode")
    d.choose("minutes")  # 60 -> 90 minutes
    d.tap(player_uid(1))
    d.tap(player_uid(2))
    d.choose("start")
    game = table.terminal.game
    assert game.meta["length_minutes"] == 90 and game.meta["end_time"] is None
    assert game.time_limit() == 90 * 60
    play.advance(90 * 60)
    table.terminal.tick()
    assert game.is_over() and table.view.screen == "game_over"
    game.close()


# -- a property: whatever the clock does, the time recorded follows it -----------------------------------------
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(st.sampled_from(("tick", "jump", "back", "op", "undo", "restart")),
                                st.integers(0, 4000)), max_size=30))
def test_play_time_follows_the_monotonic_clock_whatever_it_does(tmp_path_factory, key, steps):
    path = tmp_path_factory.mktemp("play") / "g.db"
    game = Game.create(path, "fr", ("Ann", "Bob"), mode="time_limit", dealt=DEALT, length_minutes=60, key=key,
                       rng=random.Random(0))
    clock = FakeClock(0.0)
    game.play_clock.start(clock)
    shown = 0  # the play the clock showed while the game ran (since the last restart: what was recorded)
    try:
        for kind, amount in steps:
            recorded = game.played()
            if kind in ("tick", "jump"):
                seconds = amount if kind == "jump" else amount % 5
                clock.advance(seconds)
                shown += 0 if game.is_over() else seconds
                game.play_clock.tick()
            elif kind == "back":
                clock.now -= amount
                game.play_clock.tick()
            elif kind == "op" and not game.is_over():
                game.bank_pays("Ann", 1 + amount)
            elif kind == "undo":
                try:
                    game.undo()
                except NothingToUndo:
                    pass
                assert game.played() == recorded, "an undo never changes the time played"
            elif kind == "restart":
                game.close()
                shown = game.played()
                game = Game.open(path, key=key)
                clock = FakeClock(float(amount))  # another boot, another origin
                game.play_clock.start(clock)
            assert 0 <= shown - game.played() < PLAY_TIME_RECORD_S, "at most the last minute is not written yet"
            limit = game.time_limit()
            assert game.is_over() == (limit is not None and game.played() >= limit), (limit, game.played())
        assert game.audit().ok
    finally:
        game.close()


def test_the_undo_screen_names_the_end_on_time(timed):
    from terminal.bank.operations import TimeUp, Undo
    from terminal.table.i18n import translate
    from terminal.table.words import describe_undo
    game, clock = timed(1)
    clock.advance(60)
    game.play_clock.tick()
    target = game.preview(Undo()).undone
    assert target == TimeUp()
    msg = describe_undo(target, game.edition)
    assert translate(msg.code, msg.params, "fr", msg.english) == "Défaire : Fin de la partie (temps écoulé)"


def test_the_state_machine_carries_the_time_played_across_a_restart(timed, key):
    game, _ = timed(30)
    terminal, driver, _, play = _terminal(game)
    driver.play({"op": "pass_go", "player": "Ann"})
    for _ in range(20):  # 20 minutes of play, one tick a minute
        play.advance(60)
        terminal.tick()
    driver.play({"op": "pass_go", "player": "Bob"})
    play.advance(30)
    terminal.tick()
    game.close()  # the device stops (SIGTERM); it boots again with its wall clock far off
    wall = Wall(datetime(1970, 1, 1, tzinfo=UTC))
    with Game.open(game.path, key=key, clock=wall) as again:
        assert again.played() == 20 * 60 + 30
        terminal, driver, beeper, play = _terminal(again)
        wall.now = datetime(2100, 1, 1, tzinfo=UTC)  # the network sets the clock: nothing happens
        play.advance(9 * 60 + 29)
        terminal.tick()
        assert not again.is_over() and terminal.view.screen == "idle"
        play.advance(1)
        terminal.tick()
        assert again.is_over() and terminal.view.screen == "game_over"
        assert [p for _, p in beeper.played][-1] == "game_over"
        driver.play({"op": "undo"})
        driver.play({"op": "undo"})  # Bob's GO salary, made before the restart
        assert again.cash("Bob") == 1500 - 340 and not again.is_over()


def test_a_failed_write_keeps_the_time_to_count(timed, monkeypatch):
    from terminal.errors import LedgerError
    game, clock = timed(60)
    real = game.ledger.append

    def failing(*args, **kwargs):
        raise LedgerError("disk full", code="ledger_write_failed")

    monkeypatch.setattr(game.ledger, "append", failing)
    clock.advance(90)
    with pytest.raises(LedgerError):
        game.play_clock.tick()
    assert game.played() == 0 and game.play_clock.time_left() == 3600 - 90
    monkeypatch.setattr(game.ledger, "append", real)
    clock.advance(10)
    game.play_clock.tick()
    assert game.played() == 100


def test_the_idle_screen_shows_the_play_time_left_and_warns_before_the_end_in_every_language(timed):
    game, _ = timed(30)
    terminal, _, beeper, play = _terminal(game)
    terminal.tick()
    left = terminal.view.time_left
    assert terminal.view.screen == "idle" and left is not None
    assert text(left, "fr") == "Temps de jeu restant : 30 min, puis fin : le plus riche gagne"
    assert text(left, "en") == "Play time left: 30 min, then the end: the richest wins"
    assert "30 хв" in text(left, "uk")
    version = terminal.version
    play.advance(30)
    terminal.tick()
    assert terminal.version == version, "the figure shown did not change: the screen is not redrawn"
    play.advance(31)  # 28 min 59 s left: the minutes begun count
    terminal.tick()
    assert terminal.version > version and text(terminal.view.time_left, "en").startswith("Play time left: 29 min")
    play.advance(1739 - 600)  # 10 min left: the first warning, with its beep, once
    beeps = len(beeper.played)
    terminal.tick()
    assert [p for _, p in beeper.played[beeps:]] == ["alert"]
    assert terminal.view.message.code == "time_warning" and terminal.view.message_kind == "error"
    assert text(terminal.view.message, "fr") == ("Plus que 10 min de jeu : ensuite la partie s'arrête et le plus "
                                                 "riche gagne.")
    assert "10 хв" in text(terminal.view.message, "uk")
    play.advance(5)
    terminal.tick()
    assert [p for _, p in beeper.played[beeps:]] == ["alert"], "each warning once"
    play.advance(9 * 60 - 5)  # the last minute: the second warning, then the seconds
    terminal.tick()
    assert [p for _, p in beeper.played[beeps:]] == ["alert", "alert"]
    assert text(terminal.view.time_left, "en").startswith("Play time left: 1 min")
    play.advance(15)
    terminal.tick()
    assert text(terminal.view.time_left, "en").startswith("Play time left: 45 s")
    play.advance(45)
    terminal.tick()
    assert game.is_over() and terminal.view.screen == "game_over" and terminal.view.time_left is None


def test_a_game_without_a_time_limit_shows_no_time_left(make_game):
    game = make_game("fr", ("Ann", "Bob"))
    terminal, _, _, _ = _terminal(game)
    terminal.tick()
    assert terminal.view.time_left is None


def test_durations_in_words():
    assert [text(duration_msg(s), "fr") for s in (0, 59, 60, 61, 3599, 3600, 3601, 5400)] == [
        "0 s", "59 s", "1 min", "2 min", "1 h 00", "1 h 00", "1 h 01", "1 h 30"]
    assert text(duration_msg(5400), "en") == "1 h 30 min" and text(duration_msg(5400), "uk") == "1 год 30 хв"
