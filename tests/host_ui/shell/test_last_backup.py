"""The last backup, at a clean stop (host_ui/shell/backup.py, ``BackupKeeper.maybe(force=True)``): it waits for
the judgment of the checks beside play (a resumed game is copied only once judged sound), within a bound that
fits the time systemd gives a stopping terminal, and says in one line why it was not made."""
from __future__ import annotations

import logging
import re
import threading
import time

from host_ui.shell import backup as backup_module
from host_ui.shell.backup import BackupKeeper, list_backups
from terminal.bank import opening
from terminal.bank.audit import BackgroundAudit
from terminal.bank.game import Game
from tests.conftest import ROOT
from tests.host_ui.shell.damage import edit_keeping_triggers, play


def _slow_judgment(monkeypatch, answers_once_waited_for: bool) -> None:
    """Resumed games are judged by checks that start only once someone waits for their verdict (or never): a
    judgment still running when the table stops, whatever the machine's speed."""

    class SlowJudgment(BackgroundAudit):
        def __init__(self, *args, **kwargs):
            self.asked = threading.Event()
            super().__init__(*args, **kwargs)

        def _run(self, key, start_after_s):
            while not self.asked.is_set():
                if self._stop_event.wait(0.02):  # the game was closed first
                    self._quick_done.set()
                    self._full_done.set()
                    return
            super()._run(key, 0)

        def wait_verdict(self, timeout_s):
            if answers_once_waited_for:
                self.asked.set()
            return super().wait_verdict(timeout_s)
    monkeypatch.setattr(opening, "BackgroundAudit", SlowJudgment)


def _resumed(tmp_path, key) -> Game:
    path = tmp_path / "games" / "sunday.db"
    path.parent.mkdir()
    with Game.create(path, "fr", ["Ann", "Bob"], key=key) as game:
        game.buy("Ann", 39)
    game = Game.open(path, key=key)  # the checks run beside play, as at the device's start-up
    assert game.judged is None, "the judgment has not answered yet"
    return game


def test_a_clean_stop_waits_for_the_judgment_then_backs_the_game_up(tmp_path, key, monkeypatch):
    _slow_judgment(monkeypatch, answers_once_waited_for=True)
    keeper = BackupKeeper(tmp_path / "backups", every=1, keep=3)
    with _resumed(tmp_path, key) as game:
        assert keeper.maybe(game) is None, "beside the loop, a game not yet judged is not copied"
        written = keeper.maybe(game, force=True)
        assert game.judged is True
        assert written is not None and list_backups(game.path, tmp_path / "backups") == [written]
        with Game.open(written, key=key, read_only=True) as copy:
            assert copy.state() == game.state() and copy.cash("Ann") == 1100


def test_a_judgment_that_does_not_answer_in_time_skips_the_backup_and_says_why(tmp_path, key, monkeypatch, caplog):
    _slow_judgment(monkeypatch, answers_once_waited_for=False)
    monkeypatch.setattr(backup_module, "STOP_WAIT_S", 0.3)
    keeper = BackupKeeper(tmp_path / "backups", every=1, keep=3)
    with _resumed(tmp_path, key) as game, caplog.at_level(logging.INFO, logger="banquier"):
        started = time.monotonic()
        assert keeper.maybe(game, force=True) is None
        assert time.monotonic() - started < 2, "the stop waits no longer than its bound"
        assert game.judged is None
    assert not list_backups(tmp_path / "games" / "sunday.db", tmp_path / "backups")
    [said] = [r.getMessage() for r in caplog.records if r.name == "banquier"]
    assert said == "no backup of sunday.db at stop: the checks beside play had not answered within 0.3 s"


def test_a_game_judged_damaged_is_not_backed_up_at_stop_and_the_log_says_so(tmp_path, key, caplog):
    with Game.create(tmp_path / "g.db", "fr", ["Ann", "Bob"], key=key) as game:
        play(game, 6)
    edit_keeping_triggers(tmp_path / "g.db", "UPDATE postings SET amount = amount * 3 WHERE seq = 2")  # behind
    # the checkpoint: what start-up's quick checks cannot see, the full audit beside play finds
    keeper = BackupKeeper(tmp_path / "backups", every=1, keep=3)
    with Game.open(tmp_path / "g.db", key=key) as game, caplog.at_level(logging.INFO, logger="banquier"):
        assert keeper.maybe(game, force=True) is None
        assert game.judged is False
    assert not list_backups(tmp_path / "g.db", tmp_path / "backups")
    [said] = [r.getMessage() for r in caplog.records if r.name == "banquier"]
    assert said.startswith("no backup of g.db at stop: the checks beside play found it damaged (the audit of g.db ")


def test_the_stop_s_bound_is_well_under_the_time_systemd_gives_a_stopping_terminal():
    unit = (ROOT / "deploy" / "banquier.service").read_text()
    [timeout] = re.findall(r"^TimeoutStopSec=(\d+)\s*$", unit, re.MULTILINE)
    assert int(timeout) / 3 >= backup_module.STOP_WAIT_S
