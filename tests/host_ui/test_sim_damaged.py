"""The simulator with a damaged current game: no traceback, the screen names the damage (the file is kept)
and the new-game wizard is offered."""
from __future__ import annotations

KEY = bytes(range(32))


def test_headless_sim_with_a_damaged_game_shows_it(pg, tmp_path, monkeypatch, capsys):
    import host_ui.sim as sim
    from host_ui.shell.manage import set_current
    from terminal.bank.game import Game
    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    path = data / "games" / "sunday.db"
    with Game.create(path, "fr", ["Ann", "Bob"], key=KEY) as game:
        game.buy("Ann", 39)
    set_current(data, path)
    with open(path, "r+b") as f:
        f.write(b"\x00" * 100)
    damaged = path.read_bytes()
    made = []

    class Recorded(sim.Terminal):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(sim, "Terminal", Recorded)
    settings = sim.TerminalSettings(language="en")
    assert sim.run_sim(headless=True, data_dir=data, key=KEY, max_seconds=0.3, settings=settings) == 0
    view = made[0].view
    assert view.screen == "damaged" and view.extra["said"].code == "damaged_startup"
    assert "sunday.db" in view.extra["problem"]
    assert {o.id: o.enabled for o in view.options} == {"restore": False, "new_game": True}
    assert "cannot resume sunday.db" in capsys.readouterr().err
    assert path.read_bytes() == damaged
