"""Every table log of the test suite, the recorded games included, played through the state machine by the
inputs a person makes, ends in the same state as a direct replay through the API; every ``expect`` line is
checked on the way, every refusal leaves the journal unchanged, every accepted operation is committed
exactly once and is the operation of the log."""
from __future__ import annotations

import pytest

from cards.registry import BankerCard, CardRegistry, DeedCard, PlayerCard
from hal.sim_beeper import SimBeeper
from hal.sim_reader import SimReader
from terminal.bank.game import Game
from terminal.bank.tablelog import _compare, header_rules_version, read_table_log
from terminal.table.machine import Terminal
from terminal.table.settings import TerminalSettings
from tests.conftest import OWN_LOGS, RECORDED
from tests.terminal.ui_driver import BANKER_UID, FakeClock, GaveUp, TableDriver, deed_uid, player_uid

LOGS = sorted(OWN_LOGS.glob("*.jsonl")) + sorted(RECORDED.glob("*.jsonl"))


def make_registry(players: int) -> CardRegistry:
    cards = {BANKER_UID: BankerCard()}
    cards.update({player_uid(n): PlayerCard(n) for n in range(1, players + 1)})
    cards.update({deed_uid(s): DeedCard(s) for s in (1, 3, 5, 6, 8, 9, 11, 12, 13, 14, 15, 16, 18, 19, 21, 23, 24,
                                                        25, 26, 27, 28, 29, 31, 32, 34, 35, 37, 39)})
    return CardRegistry(None, cards)


def _normal(op: dict) -> dict:
    """Drop what does not change an operation's meaning (empty trade sides, the refused marker)."""
    op = {k: v for k, v in op.items() if k != "refused"}
    for side in ("a_gives", "b_gives"):
        if side in op:
            op[side] = {k: v for k, v in op[side].items() if v}
    if op.get("op") == "pay_tax" and op.get("choice") == "flat":
        op.pop("choice")
    return op


def drive(log_path, tmp_path, key, wall_clock=None, on_terminal=None):
    """Play ``log_path`` through a terminal on a new game in ``tmp_path``, checking each line; returns the game.
    ``wall_clock``: the game's wall clock (the Bank's entries' times); ``on_terminal(terminal)`` is called once the
    terminal is made, before the first input (to watch it)."""
    log = read_table_log(log_path)
    header = log.header
    clock = FakeClock()
    game = Game.create(tmp_path / "machine.db", header["edition"], header["players"],
                       mode=header.get("mode"), rules=header.get("rules") or None,
                       dealt=header.get("dealt") or None, end_time=header.get("end_time"),
                       length_minutes=header.get("length_minutes"), key=key, wall_clock=wall_clock,
                       rules_version=header_rules_version(header))
    play_clock = FakeClock(0.0)  # moved by the log's x_play_time lines only (docs/table-log.md, Time limit)
    game.play_clock.start(play_clock)
    beeper = SimBeeper(audio=False, clock=clock)
    reader = SimReader(clock=clock)
    terminal = Terminal(game, make_registry(len(header["players"])), beeper, clock,
                        TerminalSettings(banker_protection=True))
    driver = TableDriver(terminal, reader, clock, list(header["players"]), play_clock=play_clock)
    if on_terminal is not None:
        on_terminal(terminal)
    for line in log.lines:
        data = line.data
        if "expect" in data:
            state = terminal.game.state()
            for name, expected in data["expect"].items():
                _compare(line.number, name, expected, state[name])
            continue
        entries = terminal.game.ledger.last_entry()[0]
        beeps = len(beeper.played)
        try:
            driver.play(data)
        except GaveUp:
            driver.give_up()
        last = terminal.game.ledger.last_entry()[0]
        if data.get("refused"):
            assert last == entries, f"line {line.number}: a refused operation was committed"
        elif data["op"] == "x_play_time":  # the clock's entry; the one that reaches the limit ends the game
            ended = terminal.game.is_over()
            assert last == entries + 1 + ended, f"line {line.number}: {data} was not committed exactly once"
            assert terminal.game.ledger.entry(entries + 1).op == data, f"line {line.number}"
            if ended:
                assert terminal.game.ledger.entry(last).op == {"op": "x_time_up"}, f"line {line.number}"
            patterns = [p for _, p in beeper.played[beeps:]]
            if "alert" in patterns:  # a warning before the end: only where the time left crossed one
                left = terminal.game.play_clock.time_left()
                assert left is not None and left <= 600 and patterns.count("alert") == 1, (line.number, patterns)
            assert [p for p in patterns if p != "alert"] == (["game_over"] if ended else []), (line.number, patterns)
        else:
            assert last == entries + 1, f"line {line.number}: {data} was not committed exactly once"
            recorded = dict(terminal.game.ledger.entry(last).op) if data["op"] != "undo" else {"op": "undo"}
            if data["op"] == "use_jail_card" and "deck" not in data:
                recorded.pop("deck")  # the screen always names the card; the log may leave it out
            if data["op"].startswith("event_") and "card" not in data:
                recorded.pop("card")  # the Event card is always picked; the log may leave it out
            assert _normal(recorded) == _normal(data), f"line {line.number}"
            patterns = [p for _, p in beeper.played[beeps:]]
            assert patterns[-1] in ("success", "bankruptcy", "game_over"), (line.number, patterns)
            assert sum(p in ("success", "bankruptcy", "game_over") for p in patterns) == 1, (line.number, patterns)
        assert terminal.view.screen in ("idle", "game_over"), (line.number, terminal.view.screen)
    return terminal.game


@pytest.mark.parametrize("log", [pytest.param(p, id=p.name, marks=[pytest.mark.slow] if p.name.startswith("long-")
                                              else []) for p in LOGS])
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_log_through_the_state_machine_matches_direct_replay(log, tmp_path, key, direct_replay):
    game = drive(log, tmp_path, key)
    try:
        assert game.state() == direct_replay(log).state
    finally:
        game.close()
