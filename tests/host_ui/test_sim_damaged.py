"""The simulator with a damaged current game: no traceback, the screen names the damage (the file is kept)
and the new-game wizard is offered."""
from __future__ import annotations

import pytest

from tests.host_ui.shell.damage import HIDDEN_DAMAGE, clean_game, hidden_damage
from tests.host_ui.shell.helpers import hashes

KEY = bytes(range(32))


def test_headless_sim_with_a_damaged_game_shows_it(pg, tmp_path, capsys):
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
    settings = sim.TerminalSettings(language="en")
    assert sim.run_sim(headless=True, data_dir=data, key=KEY, max_seconds=0.3, settings=settings,
                       on_terminal=made.append) == 0
    view = made[0].view
    assert view.screen == "damaged" and view.extra["said"].code == "damaged_startup"
    assert "sunday.db" in view.extra["problem"]
    assert {o.id: o.enabled for o in view.options} == {"restore": False, "new_game": True}
    assert "cannot resume sunday.db" in capsys.readouterr().err
    assert path.read_bytes() == damaged


# -- the simulator checks a game as the device does ------------------------------------------------------------------
QUICK_SAMPLE = ("posting_edited", "bit_flip_in_a_page_header")


def _sim_on(data, key, *, seconds=0.6, wait_for_judgment=True):
    """Run the headless simulator on ``data``'s current game; returns its Terminal (the last view is kept)."""
    import host_ui.sim as sim
    made = []

    def started(app):
        game = app.terminal.game
        if wait_for_judgment and game is not None and game.ledger.guard is not None:
            assert game.ledger.guard.wait_verdict(60) is not None  # the next tick shows what the checks found

    settings = sim.TerminalSettings(language="en")
    assert sim.run_sim(headless=True, data_dir=data, key=key, max_seconds=seconds, settings=settings,
                       on_start=started, on_terminal=made.append) == 0
    return made[0]


@pytest.mark.parametrize("name", [pytest.param(n, marks=() if n in QUICK_SAMPLE else pytest.mark.slow)
                                  for n in sorted(HIDDEN_DAMAGE)])
def test_the_simulator_stops_a_clean_game_damaged_behind_its_checkpoint(pg, tmp_path, name):
    """112 of 324 such files were played on in the simulator without a word: it opened games with
    ``Game.open`` and ran no background audit. It now resumes through the device's start-up."""
    from host_ui.shell.manage import set_current
    data = tmp_path / "data"
    path = data / "games" / "sunday.db"
    path.parent.mkdir(parents=True)
    clean_game(path, KEY)
    hidden_damage(path, name)
    set_current(data, path)
    before = hashes(path.parent)
    terminal = _sim_on(data, KEY)
    view = terminal.view
    assert view.screen == "damaged", (name, view.screen)
    assert "sunday.db" in view.extra["problem"]
    assert hashes(path.parent) == before, "put back as found"


def test_a_simulator_game_keeps_a_mirror_and_backups(pg, tmp_path):
    """A simulator game keeps its mirror of acknowledged entries and is backed up, as on the device."""
    data = tmp_path / "data"
    terminal = _sim_on(data, KEY, seconds=0.3)
    path = terminal.game.path
    mirror = data / "backups" / f"{path.stem}.mirror"
    assert mirror.is_file() and len(mirror.read_text().splitlines()) == 1, "the setup entry"
    assert list((data / "backups").glob(f"{path.stem}.seq*.db")), "backed up when it stopped"
    again = _sim_on(data, KEY, seconds=0.3)  # resumed, judged sound, played on
    assert again.game.path == path and again.view.screen == "idle"
