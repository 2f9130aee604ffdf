"""The simulator plays a time-limited log on play time: the demo's play clock moves with the log's
``x_play_time`` lines only (not with the inputs), so the game ends where the log says."""
from __future__ import annotations

from tests.conftest import OWN_LOGS

KEY = bytes(range(32))


def test_headless_demo_of_a_time_limited_log_ends_where_the_log_says(pg, tmp_path):
    from host_ui.sim import run_sim
    from terminal.bank.game import Game
    from terminal.bank.tablelog import replay
    log = OWN_LOGS / "fr-time-limit-play-time.jsonl"
    assert run_sim(log, headless=True, speed=1e6, data_dir=tmp_path / "data", key=KEY) == 0
    (path,) = (tmp_path / "data" / "games").glob("demo-fr-time-limit-play-time-*.db")
    replay(log, tmp_path / "direct.db", key=KEY)
    with Game.open(path, key=KEY) as played, Game.open(tmp_path / "direct.db", key=KEY) as direct:
        assert played.state() == direct.state()
        assert played.state()["x_time"] == {"played_s": 7320, "limit_s": None, "left_s": None, "lifted": True}
        assert played.is_over() and played.audit().ok
