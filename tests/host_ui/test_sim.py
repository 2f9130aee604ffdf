"""The simulator as a stand-in for the device: the configured banker PIN typed on the keyboard or on screen, a
window shrunk to fit the desktop with clicks mapped back, a demo that checks its log (exit 1 on a wrong
``expect`` line, through the ``banquier`` command) and ends on the standings, and one notion of the current
game shared with the device (the wizard's game is the one resumed, with a notice on screen)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli_env import clean_env
from tests.conftest import OWN_LOGS

KEY = bytes(range(32))
BANQUIER = Path(sys.executable).with_name("banquier")


def hash_pin(pin: str) -> str:
    from host_ui.shell.pin import hash_pin as salted
    return salted(pin)


def _config(tmp_path, monkeypatch, text: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("BANQUIER_CONFIG", str(path))


def _install_key() -> None:
    """KEY in the key file the commands read (the tests' own, see tests/conftest.py)."""
    key_file = Path(os.environ["BANQUIER_KEY_FILE"])
    key_file.parent.mkdir(parents=True, exist_ok=True)
    key_file.write_bytes(KEY)
    os.chmod(key_file, 0o600)


def _key(pg, key, app):
    pg.event.post(pg.event.Event(pg.KEYDOWN, key=key, mod=0, unicode="", scancode=0))


def _press_at(pg, app, action):
    """A mouse click where the button for ``action`` is drawn, in the coordinates of the window as shown."""
    rect = next(r for r, a in app.frame.hits if a == action)
    scale = getattr(app.output, "scale", 1.0)
    pos = (round(rect.centerx * scale), round(rect.centery * scale))
    pg.event.post(pg.event.Event(pg.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))
    pg.event.post(pg.event.Event(pg.MOUSEBUTTONUP, pos=pos, button=1, touch=False))


# -- the banker PIN and the window's size ---------------------------------------------------------------------
def test_fit_scale_shrinks_only_what_does_not_fit():
    from host_ui.screen.display import fit_scale
    assert fit_scale((1710, 840), (1600, 900)) == pytest.approx((1600 - 40) / 1710)
    assert fit_scale((1230, 600), (1920, 1080)) == 1.0
    assert fit_scale((1230, 600), None) == 1.0
    assert fit_scale((910, 600), (800, 600)) == pytest.approx(500 / 600)  # the height decides


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_the_configured_pin_is_typed_on_the_keyboard_in_a_shrunk_window(pg, tmp_path, monkeypatch):
    """1280x720 with its tray is 1710 px wide: on a 1600-px desktop the window is shrunk, the banker button is
    clicked where it is shown, and the PIN from the configuration is typed on the keyboard."""
    from host_ui.sim import run_sim
    _config(tmp_path, monkeypatch, f'[game]\nbanker_pin_hash = "{hash_pin("2468")}"\n')
    seen = {}

    def script(app):
        seen["app"] = app
        assert app.output.scale < 1.0
        _press_at(pg, app, ("choose", "banker"))
        app.step()  # the PIN screen is drawn: keys are aimed at what is on screen
        app.draw_if_needed(app.monotonic(), force=True)
        assert app.terminal.view.screen == "pin"
        for key in (pg.K_2, pg.K_4, pg.K_6, pg.K_8, pg.K_RETURN):
            _key(pg, key, app)

    shot = tmp_path / "shot.png"
    code = run_sim(headless=True, size=(1280, 720), data_dir=tmp_path / "data", key=KEY, desktop=(1600, 900),
                   max_seconds=0.5, screenshot=shot, on_start=script)
    assert code == 0
    assert seen["app"].terminal.view.screen == "banker", seen["app"].terminal.view.message
    picture = pg.image.load(str(shot))
    assert picture.get_width() <= 1600 - 40 and picture.get_height() <= 900 - 100


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_a_tray_card_clicked_in_a_shrunk_window_is_tapped(pg, tmp_path, monkeypatch):
    from host_ui.demo import BANKER_UID
    from host_ui.sim import run_sim
    _config(tmp_path, monkeypatch, "")
    seen = {}

    def script(app):
        seen["app"] = app
        tray = app.on_frame.__self__
        tray._layout()
        rect = next(r for r, uid, *_ in tray.cards if uid == BANKER_UID)
        scale = app.output.scale
        assert scale < 1.0
        pos = (round(rect.centerx * scale), round(rect.centery * scale))
        pg.event.post(pg.event.Event(pg.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))
        pg.event.post(pg.event.Event(pg.MOUSEBUTTONUP, pos=pos, button=1, touch=False))

    assert run_sim(headless=True, size=(1024, 600), data_dir=tmp_path / "data", key=KEY, desktop=(1280, 720),
                   max_seconds=0.5, on_start=script) == 0
    assert seen["app"].terminal.view.screen == "banker"


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_the_configured_pin_is_typed_on_the_screen_keypad(pg, tmp_path, monkeypatch):
    from host_ui.sim import run_sim
    _config(tmp_path, monkeypatch, f'[game]\nbanker_pin_hash = "{hash_pin("1357")}"\n')
    seen = {}

    def script(app):
        seen["app"] = app
        _press_at(pg, app, ("choose", "banker"))
        app.step()
        assert app.terminal.view.screen == "pin"
        for digit in "1357":
            app.draw_if_needed(app.monotonic(), force=True)
            _press_at(pg, app, ("digit", digit))
            time.sleep(0.2)  # a person's pace: the input filter takes one press per 0.18 s
            app.step()
        assert app.terminal.view.keypad == "••••"
        app.draw_if_needed(app.monotonic(), force=True)
        time.sleep(0.2)
        _press_at(pg, app, ("confirm",))

    assert run_sim(headless=True, data_dir=tmp_path / "data", key=KEY, max_seconds=0.3, on_start=script) == 0
    assert seen["app"].terminal.view.screen == "banker"


def test_without_a_configured_pin_the_button_asks_for_the_banker_card(pg, tmp_path, monkeypatch):
    from host_ui.sim import run_sim
    _config(tmp_path, monkeypatch, "")
    seen = {}

    def script(app):
        seen["app"] = app
        _press_at(pg, app, ("choose", "banker"))

    assert run_sim(headless=True, data_dir=tmp_path / "data", key=KEY, max_seconds=0.2, on_start=script) == 0
    view = seen["app"].terminal.view
    assert view.screen == "idle" and view.message.code == "needs_banker"


# -- the demo -------------------------------------------------------------------------------------------------
def test_a_headless_demo_ends_on_the_standings(pg, tmp_path):
    from host_ui.sim import run_sim
    seen = {}
    shot = tmp_path / "end.png"
    code = run_sim(OWN_LOGS / "us-end-classic.jsonl", headless=True, speed=1e6, data_dir=tmp_path / "data",
                   key=KEY, screenshot=shot, on_start=lambda app: seen.update(app=app))
    assert code == 0
    app = seen["app"]
    assert app.terminal.view.screen == "game_over"
    assert app.frame is not None and app.frame.texts_with("title")[0].text == app.renderer.render(
        app.terminal.view).texts_with("title")[0].text
    assert shot.stat().st_size > 1000


def _wrong_log(tmp_path) -> Path:
    lines = (OWN_LOGS / "us-end-classic.jsonl").read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith('{"expect"'))
    data = json.loads(lines[number])
    data["expect"]["cash"]["Ann"] += 1
    lines[number] = json.dumps(data)
    path = tmp_path / "wrong.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _banquier(*args, cwd):
    env = clean_env({"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    return subprocess.run([str(BANQUIER), *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=120)


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_banquier_sim_headless_demo_exits_1_on_a_wrong_expect_line(tmp_path):
    wrong = _wrong_log(tmp_path)
    data = tmp_path / "data"
    bad = _banquier("sim", "--headless", "--speed", "1000000", "--demo", str(wrong), "--data-dir", str(data),
                    cwd=tmp_path)
    assert bad.returncode == 1, bad.stderr
    assert "MISMATCH" in bad.stderr and "line 18: cash.Ann: expected 531, actual 530" in bad.stderr
    good = _banquier("sim", "--headless", "--speed", "1000000", "--demo", str(OWN_LOGS / "us-end-classic.jsonl"),
                     "--data-dir", str(data), cwd=tmp_path)
    assert good.returncode == 0, good.stderr
    assert "MISMATCH" not in good.stderr


def test_a_demo_fails_when_an_operation_is_not_recorded(pg, tmp_path):
    from host_ui.sim import run_sim
    log = tmp_path / "unrecorded.jsonl"
    log.write_text('{"format": "table-log", "version": 1, "edition": "us", "players": ["Ann", "Bob"]}\n'
                   '{"op": "buy", "player": "Ann", "square": 1}\n'
                   '{"op": "buy", "player": "Bob", "square": 1}\n', encoding="utf-8")  # the second is refused
    assert run_sim(log, headless=True, speed=1e6, data_dir=tmp_path / "data", key=KEY) == 1
    marked = log.read_text(encoding="utf-8").replace('"square": 1}\n{"op": "buy", "player": "Bob", "square": 1}',
                                                     '"square": 1}\n{"op": "buy", "player": "Bob", "square": 1, '
                                                     '"refused": true}')
    log.write_text(marked, encoding="utf-8")
    assert run_sim(log, headless=True, speed=1e6, data_dir=tmp_path / "data", key=KEY) == 0


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb (apt-get install xvfb)")
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_under_xvfb_the_window_fits_a_1600_px_screen_and_a_demo_stays_on_the_standings(tmp_path):
    from terminal.bank.game import Game
    _install_key()
    display = ":97"
    server = subprocess.Popen(["Xvfb", display, "-screen", "0", "1600x900x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.0)
        env = clean_env({"DISPLAY": display, "SDL_AUDIODRIVER": "dummy"})
        data = tmp_path / "data"
        shot = tmp_path / "xvfb.png"
        done = subprocess.run([str(BANQUIER), "sim", "--size", "1280x720", "--seconds", "0.5", "--data-dir",
                               str(data), "--screenshot", str(shot)], capture_output=True, text=True, env=env,
                              timeout=120)
        assert done.returncode == 0, done.stderr
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        import pygame
        picture = pygame.image.load(str(shot))
        assert picture.get_width() <= 1600 - 40 and picture.get_height() <= 900 - 100, picture.get_size()
        # a windowed demo stays on the standings until the window is closed
        demo = subprocess.Popen([str(BANQUIER), "sim", "--demo", str(OWN_LOGS / "us-end-classic.jsonl"), "--speed",
                                 "1000000", "--data-dir", str(data)], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        try:
            over = False
            for _ in range(150):
                time.sleep(0.2)
                games = list((data / "games").glob("demo-us-end-classic-*.db"))
                if games:
                    try:
                        with Game.open(games[0], key=KEY, read_only=True) as game:
                            over = game.is_over()
                    except Exception:
                        over = False
                if over:
                    break
            assert over, "the demo did not reach the end of the game"
            time.sleep(4.0)  # longer than the 3 s the window used to linger
            assert demo.poll() is None, "the window closed on its own after the demo"
        finally:
            demo.terminate()
            demo.wait(timeout=10)
    finally:
        server.terminate()
        server.wait(timeout=10)


# -- one notion of the current game ------------------------------------------------------------------------------
def _wizard(terminal, seats):
    """The banker starts a new game from the menu: banker card, "Nouvelle partie", the players' cards, start."""
    from host_ui.demo import BANKER_UID, player_uid
    terminal.present(BANKER_UID)
    terminal.choose("new_game")
    for seat in seats:
        terminal.clock.advance(2)
        terminal.present(player_uid(seat))
    terminal.choose("start")
    assert terminal.view.message.code == "game_created"


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_the_wizard_game_is_the_one_resumed_after_a_restart_and_listed(pg, tmp_path, monkeypatch):
    from host_ui.sim import run_sim
    _install_key()
    data = tmp_path / "data"
    seen = {}
    assert run_sim(headless=True, data_dir=data, key=KEY, max_seconds=0.1,
                   on_start=lambda app: seen.update(first=app.terminal.game.players)) == 0
    assert seen["first"] == ("Anne", "Bohdan", "Chloé", "Dmytro")
    assert run_sim(headless=True, data_dir=data, key=KEY, max_seconds=0.1,
                   on_start=lambda app: (_wizard(app.terminal, (5, 6, 7)),
                                         seen.update(wizard=(app.terminal.game.players, app.terminal.game.path)))) == 0
    players, path = seen["wizard"]
    assert path.parent == data / "games" and (data / "current").read_text().strip() == path.name
    # restart: the wizard's game, not the first one, with "game resumed" on the first screen
    assert run_sim(headless=True, data_dir=data, key=KEY, max_seconds=0.1,
                   on_start=lambda app: seen.update(resumed=(app.terminal.game.players, app.terminal.view))) == 0
    assert seen["resumed"][0] == players
    view = seen["resumed"][1]
    assert view.screen == "idle" and view.message.code == "game_resumed"
    # every game of the data folder is listed, the current one marked
    env = clean_env({"BANQUIER_DATA_DIR": str(data)})
    listed = subprocess.run([str(BANQUIER), "games", "list"], capture_output=True, text=True, env=env, timeout=60)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert len(lines) == 2, listed.stdout
    assert [line for line in lines if line.startswith("*")] == [next(x for x in lines if path.stem in x)]
    assert any("Anne" in line for line in lines)


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_after_a_crash_the_wizard_game_is_resumed_with_a_notice(pg, tmp_path):
    """``kill -9`` of the simulator while a step was on screen: the next start resumes the same game and says the
    step was not recorded."""
    data = tmp_path / "data"
    env = clean_env({"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    running = subprocess.Popen([str(BANQUIER), "sim", "--headless", "--seconds", "60", "--data-dir", str(data)],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for _ in range(200):
            if (data / "current").exists():
                break
            time.sleep(0.05)
        time.sleep(1.0)
    finally:
        running.kill()
        running.wait(timeout=10)
    from host_ui.sim import run_sim
    seen = {}
    assert run_sim(headless=True, data_dir=data, key=None, max_seconds=0.1,
                   on_start=lambda app: seen.update(view=app.terminal.view, path=app.terminal.game.path)) == 0
    assert seen["path"].name == (data / "current").read_text().strip()
    assert seen["view"].message.code == "game_resumed_unclean"


def test_sim_new_refuses_names_run_together_before_changing_anything(pg, tmp_path, capsys):
    from host_ui.sim import main
    data = tmp_path / "data"
    assert main(["--headless", "--seconds", "0.1", "--data-dir", str(data)]) == 0
    current = (data / "current").read_text()
    games = sorted((data / "games").iterdir())
    capsys.readouterr()
    for argv, words in ((["--players", "Anne Bruno"], "separate the players' names with commas"),
                        (["--players", "Anne,anne"], "same name"), (["--edition", "xx"], "--edition 'xx'"),
                        (["--players", "Anne,Bank"], "reserved")):
        assert main(["--headless", "--seconds", "0.1", "--data-dir", str(data), "--new", *argv]) == 2, argv
        err = capsys.readouterr().err
        assert words in err, err
        assert (data / "current").read_text() == current and sorted((data / "games").iterdir()) == games
    assert main(["--headless", "--seconds", "0.1", "--data-dir", str(data), "--new", "--players", "Anne,Bruno"]) == 0
    assert (data / "current").read_text() != current and len(list((data / "games").glob("*.db"))) == 2


def test_older_simulator_games_are_moved_into_games(pg, tmp_path):
    from host_ui.sim import run_sim
    from terminal.bank.game import Game
    _install_key()
    data = tmp_path / "data"
    data.mkdir()
    Game.create(data / "sim-game.db", "fr", ["Ann", "Bob"], key=KEY).close()
    time.sleep(0.05)
    with Game.create(data / "sim-game-20261130-200000-1.db", "fr", ["Zoé", "Yann"], key=KEY) as newer:
        newer.pass_go("Zoé")
    seen = {}
    assert run_sim(headless=True, data_dir=data, key=KEY, max_seconds=0.1,
                   on_start=lambda app: seen.update(players=app.terminal.game.players)) == 0
    assert seen["players"] == ("Zoé", "Yann"), "the newest game not over is resumed"
    assert sorted(p.name for p in (data / "games").glob("*.db")) == ["sim-game-20261130-200000-1.db", "sim-game.db"]
    assert not list(data.glob("*.db"))


def test_the_device_says_the_game_was_resumed(tmp_path, monkeypatch):
    from host_ui.device import run_device
    from host_ui.screen.app import TerminalApp
    from host_ui.shell.config import load_config
    from host_ui.shell.manage import set_current
    from terminal.bank.game import Game
    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    key_file = tmp_path / "device.key"
    key_file.write_bytes(KEY)
    os.chmod(key_file, 0o600)
    Game.create(data / "games" / "sunday.db", "fr", ["Ann", "Bob"], key=KEY).close()
    set_current(data, data / "games" / "sunday.db")
    config_path = tmp_path / "config.toml"
    config_path.write_text('[hardware.reader]\nbackend = "sim"\n[hardware.beeper]\nbackend = "sim"\n'
                           f'[hardware.buttons]\nbackend = "sim"\n[storage]\ndata_dir = "{data}"\n'
                           f'key_file = "{key_file}"\n')
    seen = []
    original = TerminalApp.run

    def run(self, until=lambda: False):
        seen.append(self.terminal.view.message)
        return original(self, until)

    monkeypatch.setattr(TerminalApp, "run", run)
    monkeypatch.delenv("BANQUIER_DATA_DIR")  # the configuration's folders, not the tests' overrides
    monkeypatch.delenv("BANQUIER_KEY_FILE")
    assert run_device(load_config(config_path), headless=True, max_seconds=0.2) == 0
    assert seen and seen[0].code == "game_resumed"


def test_a_seat_is_named_on_the_pc_keyboard_in_the_simulator(pg, tmp_path):
    """The wizard's on-screen keyboard takes the keys of the PC's keyboard too (letters, Backspace, Enter)."""
    from host_ui.demo import BANKER_UID, player_uid
    from host_ui.sim import run_sim
    seen = {}

    def script(app):
        terminal = app.terminal
        terminal.present(BANKER_UID)
        terminal.choose("new_game")
        for seat in (5, 6):
            terminal.clock.advance(2)
            terminal.present(player_uid(seat))
        terminal.choose("rename:0")
        app.step()
        app.draw_if_needed(app.monotonic(), force=True)
        for key, char in ((pg.K_z, "z"), (pg.K_o, "o"), (pg.K_x, "x"), (pg.K_BACKSPACE, ""), (0, "é"),
                          (pg.K_RETURN, "\r")):
            pg.event.post(pg.event.Event(pg.KEYDOWN, key=key, mod=0, unicode=char, scancode=0))
            app.step()
            app.draw_if_needed(app.monotonic(), force=True)
        seen["seats"] = [name for name, _ in terminal.view.extra["seats"]]
        seen["editing"] = terminal.view.extra.get("editing")

    assert run_sim(headless=True, data_dir=tmp_path / "data", key=KEY, max_seconds=0.1, language="fr",
                   on_start=script) == 0
    assert seen == {"seats": ["Zoé", "Chien"], "editing": None}


@pytest.mark.parametrize("rotation, shown", [(90, (320, 480)), (270, (320, 480)), (180, (480, 320))])
def test_a_rotated_device_is_simulated_as_it_is_seen(pg, tmp_path, rotation, shown):
    # a 480x320 panel mounted upright shows the portrait layout, upright: the simulator's window shows that
    from host_ui.sim import run_sim
    seen = {}
    shot = tmp_path / f"rot{rotation}.png"
    code = run_sim(None, headless=True, data_dir=tmp_path / "data", key=KEY, size=(480, 320), rotation=rotation,
                   max_seconds=0.2, screenshot=shot, on_start=lambda app: seen.update(app=app))
    assert code == 0
    app = seen["app"]
    assert app.renderer.size == shown and app.renderer.rotation == 0
    assert shot.stat().st_size > 1000
    assert app.frame is not None and app.frame.surface.get_size() == shown


def test_a_demo_takes_a_refused_line_as_the_log_says_and_goes_on(pg, tmp_path):
    # A classic game counts no play time: the Bank refuses x_time_limit; marked refused, the demo checks that it
    # was not recorded and plays on (as banquier replay does); unmarked, it is a mismatch (exit 1), not a crash.
    from host_ui.sim import run_sim
    from terminal.bank.tablelog import read_table_log, replay
    log = tmp_path / "refused.jsonl"
    log.write_text('{"format": "table-log", "version": 1, "edition": "us", "players": ["Ann", "Bob"], '
                   '"mode": "classic"}\n'
                   '{"op": "x_time_limit", "seconds": 60, "refused": true}\n'
                   '{"op": "buy", "player": "Ann", "square": 1}\n'
                   '{"expect": {"cash": {"Ann": 1440}}}\n', encoding="utf-8")
    assert replay(read_table_log(log), tmp_path / "replayed.db", key=KEY).refused == 1
    assert run_sim(log, headless=True, speed=1e6, data_dir=tmp_path / "data", key=KEY) == 0
    log.write_text(log.read_text(encoding="utf-8").replace(', "refused": true', ""), encoding="utf-8")
    assert run_sim(log, headless=True, speed=1e6, data_dir=tmp_path / "data2", key=KEY) == 1
