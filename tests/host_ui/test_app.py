"""The loop: redraw only on change, touches reach the terminal once, the simulator's cards go through the
hal reader, and a headless demo plays a table log to the end and leaves the game file."""
from __future__ import annotations

import pytest

from tests.conftest import OWN_LOGS

KEY = bytes(range(32))


@pytest.fixture
def app(pg, tmp_path):
    from hal.sim_beeper import SimBeeper
    from hal.sim_reader import SimReader
    from host_ui.demo import FakeClock, make_registry, player_uid
    from host_ui.screen.app import TerminalApp
    from host_ui.screen.display import WindowOutput
    from host_ui.screen.input_map import InputMapper
    from host_ui.screen.render import Renderer
    from terminal.bank.game import Game
    from terminal.table.machine import Terminal
    game = Game.create(tmp_path / "g.db", "fr", ["Anne", "Bob"], key=KEY,
                       player_cards={"Anne": player_uid(1), "Bob": player_uid(2)})
    clock = FakeClock()
    reader = SimReader(clock=clock)
    terminal = Terminal(game, make_registry(2), SimBeeper(audio=False, clock=clock), clock)
    output = WindowOutput((800, 480), 0)
    times = iter(x * 0.5 for x in range(1, 100_000))  # half a second per loop turn: no burst filtering
    application = TerminalApp(terminal, output, Renderer((800, 480)), InputMapper((800, 480)), reader=reader,
                              monotonic=lambda: next(times), wall_clock=lambda: "12:00")
    application.clock = clock
    yield application
    game.close()


def _click_at(pg, app, action, finger=True, synthetic_copy=True):
    """Press where the button for ``action`` is drawn, as a finger (with SDL's mouse copy) or a mouse."""
    rect = next(r for r, a in app.frame.hits if a == action)
    x, y = rect.center
    w, h = app.output.window_size
    if finger:
        pg.event.post(pg.event.Event(pg.FINGERDOWN, x=x / w, y=y / h, touch_id=1, finger_id=0, dx=0, dy=0,
                                     pressure=1))
        if synthetic_copy:
            pg.event.post(pg.event.Event(pg.MOUSEBUTTONDOWN, pos=(x, y), button=1, touch=True))
        pg.event.post(pg.event.Event(pg.FINGERUP, x=x / w, y=y / h, touch_id=1, finger_id=0, dx=0, dy=0,
                                     pressure=0))
        if synthetic_copy:
            pg.event.post(pg.event.Event(pg.MOUSEBUTTONUP, pos=(x, y), button=1, touch=True))
    else:
        pg.event.post(pg.event.Event(pg.MOUSEBUTTONDOWN, pos=(x, y), button=1, touch=False))
        pg.event.post(pg.event.Event(pg.MOUSEBUTTONUP, pos=(x, y), button=1, touch=False))
    app.step()


def test_redraws_only_when_something_changed(pg, app):
    pg.event.clear()
    app.step()
    assert app.frames == 1
    for _ in range(20):
        app.step()
    assert app.frames == 1, "an idle terminal must not redraw"
    app.terminal.press("f3")  # History
    app.step()
    assert app.frames == 2 and app.frame is not None


def test_a_touch_types_one_digit_and_a_click_works_too(pg, app):
    from host_ui.demo import player_uid
    pg.event.clear()
    app.step()
    app.clock.advance(2)
    app.reader.tap(player_uid(1))
    app.clock.advance(0.1)
    app.step()
    assert app.terminal.view.screen == "player"
    _click_at(pg, app, ("choose", "pay_bank"), finger=False)
    assert app.terminal.view.screen == "keypad"
    _click_at(pg, app, ("digit", "5"))
    app.step()
    assert app.terminal.view.keypad == "5", "finger + SDL's mouse copy must type one digit"
    pg.event.post(pg.event.Event(pg.KEYDOWN, key=pg.K_0, mod=0, unicode="0", scancode=0))
    app.step()
    assert app.terminal.view.keypad == "50"
    pg.event.post(pg.event.Event(pg.KEYDOWN, key=pg.K_RETURN, mod=0, unicode="\r", scancode=0))
    app.step()
    assert app.terminal.view.screen == "confirm"
    pg.event.post(pg.event.Event(pg.KEYDOWN, key=pg.K_ESCAPE, mod=0, unicode="", scancode=0))
    app.step()
    assert app.terminal.view.screen == "idle"


def test_tray_click_taps_the_card_through_the_hal_reader(pg, app):
    from host_ui.demo import BANKER_UID
    from host_ui.sim import Tray
    pg.event.clear()
    window = pg.display.set_mode((1230, 600))
    app.output.window = window
    tray = Tray(window, pg.Rect(0, 0, 800, 480), app.terminal, app.reader)
    tray._layout()
    app.extra_events = lambda event: tray.handle(event, app)
    banker = next(rect for rect, uid, *_ in tray.cards if uid == BANKER_UID)
    app.clock.advance(2)
    pg.event.post(pg.event.Event(pg.MOUSEBUTTONDOWN, pos=banker.center, button=1, touch=False))
    pg.event.post(pg.event.Event(pg.MOUSEBUTTONUP, pos=banker.center, button=1, touch=False))
    app.step()
    app.clock.advance(0.1)
    app.step()
    assert app.terminal.view.screen == "banker"


def test_headless_demo_plays_a_log_to_the_end_and_leaves_the_game(pg, tmp_path):
    from host_ui.sim import run_sim
    from terminal.bank.game import Game
    from terminal.bank.tablelog import replay
    log = OWN_LOGS / "us-end-classic.jsonl"
    code = run_sim(log, headless=True, speed=1e6, data_dir=tmp_path / "data", key=KEY)
    assert code == 0
    (path,) = (tmp_path / "data" / "games").glob("demo-us-end-classic-*.db")
    replay(log, tmp_path / "direct.db", key=KEY)
    with Game.open(path, key=KEY) as played, Game.open(tmp_path / "direct.db", key=KEY) as direct:
        assert played.state() == direct.state()
        assert played.is_over()


def test_sim_main_creates_then_resumes_a_game(pg, tmp_path):
    from host_ui.sim import main
    assert main(["--headless", "--seconds", "0.2", "--data-dir", str(tmp_path), "--size", "480x320",
                 "--rotation", "90", "--language", "uk", "--screenshot", str(tmp_path / "shot.png")]) == 0
    (game,) = (tmp_path / "games").glob("sim-*.db")
    assert (tmp_path / "current").read_text().strip() == game.name and (tmp_path / "shot.png").stat().st_size > 1000
    assert main(["--headless", "--seconds", "0.1", "--data-dir", str(tmp_path)]) == 0
    assert main(["--size", "big"]) == 2


def test_two_quick_enters_never_commit_a_confirmation_not_drawn(pg, app):
    """Both presses reach the loop before it redraws: the second was aimed at the keypad, and is dropped."""
    from host_ui.demo import player_uid
    pg.event.clear()
    app.step()
    app.clock.advance(2)
    app.reader.tap(player_uid(1))
    app.clock.advance(0.1)
    app.step()
    _click_at(pg, app, ("choose", "pay_bank"), finger=False)
    for key, char in ((pg.K_5, "5"), (pg.K_0, "0")):
        pg.event.post(pg.event.Event(pg.KEYDOWN, key=key, mod=0, unicode=char, scancode=0))
    app.step()
    assert app.terminal.view.keypad == "50"
    for _ in range(2):
        pg.event.post(pg.event.Event(pg.KEYDOWN, key=pg.K_RETURN, mod=0, unicode="\r", scancode=0))
    app.step()
    assert app.terminal.view.screen == "confirm" and app.terminal.game.cash("Anne") == 1500
    pg.event.post(pg.event.Event(pg.KEYDOWN, key=pg.K_RETURN, mod=0, unicode="\r", scancode=0))
    app.step()
    assert app.terminal.game.cash("Anne") == 1450


# -- sleeping and the reader's thread ---------------------------------------------------------------


def _threaded(app, **options):
    from host_ui.screen.app import TerminalApp
    return TerminalApp(app.terminal, app.output, app.renderer, app.mapper, reader=app.reader,
                       wall_clock=lambda: "12:00", reader_thread=True, **options)


def test_the_readers_thread_wakes_the_loop_when_a_card_comes(pg, app):
    from host_ui.demo import player_uid
    threaded = _threaded(app)
    pg.event.clear()
    threaded.step()  # starts the thread; the first frame
    assert threaded.poller is not None and threaded.poller.running
    app.clock.advance(2)
    app.reader.tap(player_uid(1))
    for _ in range(100):  # each turn sleeps until the thread's wake-up (or 0.1 s)
        threaded.step(0.1)
        if app.terminal.view.screen == "player":
            break
    assert app.terminal.view.screen == "player"
    threaded.stop_reader()
    assert not threaded.poller.running


def test_with_its_own_thread_the_reader_no_longer_sets_the_loops_sleep(pg, app):
    from host_ui.screen.app import TerminalApp
    now = [100.0]
    in_loop = TerminalApp(app.terminal, app.output, app.renderer, app.mapper, reader=app.reader,
                          monotonic=lambda: now[0], wall_clock=lambda: "12:00")
    threaded = _threaded(app, monotonic=lambda: now[0])
    buttons = _threaded(app, monotonic=lambda: now[0], poll_s=0.05)
    for loop in (in_loop, threaded, buttons):
        loop.poll_devices(now[0])
        loop.draw_if_needed(now[0], force=True)
    assert in_loop.wait_time() <= app.reader.poll_interval_s
    assert threaded.wait_time() == 0.5  # the next tick
    assert buttons.wait_time() == 0.05  # inputs polled between turns
    assert threaded.poller is not None and not threaded.poller.running  # never started: no turn was taken


def test_wait_events_returns_what_is_queued_in_order_and_is_woken_from_a_thread(pg):
    import sys
    import threading

    from host_ui.screen.app import WAKE
    from host_ui.screen.event_wait import native_wait, wait_events
    if sys.platform.startswith("linux"):
        assert native_wait() is not None  # SDL's own wait, in the library pygame loaded
    pg.event.clear()
    posted = [pg.event.Event(pg.KEYDOWN, key=pg.K_1, mod=0, unicode="1", scancode=0),
              pg.event.Event(pg.KEYUP, key=pg.K_1, mod=0, unicode="1", scancode=0),
              pg.event.Event(WAKE)]
    for event in posted:
        pg.event.post(event)
    assert [e.type for e in wait_events(5.0)] == [e.type for e in posted]
    assert wait_events(0.001) == []
    poster = threading.Timer(0.01, lambda: pg.event.post(pg.event.Event(WAKE)))
    poster.start()
    got = []
    for _ in range(50):  # woken by the post (each wait is bounded)
        got += wait_events(0.2)
        if got:
            break
    poster.join()
    assert [e.type for e in got] == [WAKE]


def test_after_wait_runs_between_the_sleep_and_the_poll(pg, app):
    """The simulator moves its table clock there: a reader poll due after the sleep is then seen as due."""
    from host_ui.demo import player_uid
    pg.event.clear()
    app.step()
    app.reader.tap(player_uid(1))
    app.after_wait = lambda: app.clock.advance(2)  # the sleep "took" 2 s of table time
    app.step(0.001)
    assert app.terminal.view.screen == "player"


def test_without_a_real_wait_the_loop_looks_every_10_ms_and_is_notified_at_once(pg, monkeypatch):
    """The dummy driver (as KMS/DRM) has no real wait in SDL: SDL's queue is looked at every 10 ms, not every
    millisecond, and the reader's thread wakes the loop at once."""
    import threading

    from host_ui.screen import event_wait
    from host_ui.screen.app import WAKE
    assert pg.display.get_driver() not in event_wait.WAITING_DRIVERS
    pauses = []
    real_wait = event_wait._notified.wait

    def wait(timeout):
        pauses.append(timeout)
        return real_wait(timeout)
    monkeypatch.setattr(event_wait._notified, "wait", wait)
    pg.event.clear()
    assert event_wait.wait_events(0.05) == []
    assert pauses and max(pauses) <= event_wait.COARSE_LOOK_S
    pauses.clear()

    def post():
        pg.event.post(pg.event.Event(WAKE))
        event_wait.notify()
    poster = threading.Timer(0.01, post)
    poster.start()
    got = event_wait.wait_events(60.0)  # returns with the post, not after a minute
    poster.join()
    assert [e.type for e in got] == [WAKE]


@pytest.mark.parametrize(("buttons", "poll_s"), [("none", None), ("sim", 0.05)])
def test_the_device_polls_its_reader_from_a_thread_and_wakes_for_buttons_only_when_there_are_some(
        pg, app, buttons, poll_s):
    from host_ui.device import NoticeOutput, Part, PartReader, _make_app
    from host_ui.shell.config import parse_config
    config = parse_config(f'[hardware.reader]\nbackend = "sim"\n[hardware.buttons]\nbackend = "{buttons}"\n',
                          env={})
    reader = PartReader(Part("card reader", lambda: app.reader))
    loop = _make_app(config, app.terminal, NoticeOutput(app.output, list), reader)
    assert loop.poller is not None and loop.poller.reader is reader and not loop.poller.running
    assert loop.poll_s == poll_s
