"""The PC simulator: the terminal's screen, a card reader and a tray of virtual cards in one window.

Click a card in the tray to tap it on the reader, or drag it onto the reader to leave it resting there
(click the resting card to take it away). Cards go through ``hal``'s :class:`~hal.sim_reader.SimReader`, so
the reader's own edge detection and debouncing run as on a device. Keys: digits, Backspace, Delete, Enter
(OK), Esc (cancel), F1-F4 (the first options), Page Up/Down (lists).

A demo mode plays a table log through the state machine with a person's inputs
(:class:`host_ui.demo.TableDriver`) at a chosen speed; with ``headless`` it runs on SDL's dummy driver,
finishes by itself and leaves the game file.

Entry points: :func:`run_sim` and :func:`main` (``argv`` as for ``banquier sim``).
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict

from cards.editions import Edition, load_edition, localized
from cards.registry import Enrolment
from hal import registry as hal_registry
from hal.interfaces import CardReader, HalEvent
from hal.sim_beeper import SimBeeper
from hal.sim_reader import SimReader
from host_ui.demo import (
    BANKER_UID,
    FakeClock,
    GaveUp,
    TableDriver,
    deed_uid,
    event_uid,
    make_registry,
    player_uid,
    property_uid,
    with_ultimate_cards,
)
from host_ui.phone.child import PageChild
from host_ui.phone.switch import PhoneSwitch
from host_ui.screen.input_map import InputMapper, panel_size
from host_ui.shell.backup import BackupKeeper
from host_ui.shell.clock import wall_clock
from host_ui.shell.config import Config, load_config
from host_ui.shell.device_key import load_key, load_or_create_key
from host_ui.shell.games import resumed_notice
from host_ui.shell.manage import current_game, games_dir, protected_outputs, seconds_argument
from host_ui.shell.startup import Recovery, StartUp, playing, restore_at_startup, resume_at_startup
from host_ui.shell.startup import new_game as create_game
from terminal.bank.durable import make_directories
from terminal.bank.game import Game
from terminal.bank.players import check_players
from terminal.bank.types import RULES_VERSION
from terminal.errors import GameError
from terminal.table.i18n import translate
from terminal.table.machine import Terminal
from terminal.table.settings import Damage, TerminalSettings
from terminal.table.view import Msg

if TYPE_CHECKING:
    import pygame

    from host_ui.screen.app import TerminalApp
    from host_ui.screen.theme import Colour
    from host_ui.shell.outputs import Protected
    from terminal.bank.tablelog import TableLog

DEFAULT_PLAYERS = ("Anne", "Bohdan", "Chloé", "Dmytro")
SIZES = ((480, 320), (800, 480), (1024, 600), (1280, 720))
TRAY_W = 430
READER_H = 120


class DemoStopped(Exception):
    """The window was closed during a demo."""


#: A virtual card of the tray: rectangle, UID, label (None: the banker card, named in the screen's language),
#: colour and kind (``player``, ``banker``, ``deed``).
TrayCard: TypeAlias = "tuple[pygame.Rect, str, str | None, Colour, str]"


class Drag(TypedDict):
    """A card being dragged from the tray: its UID, where the drag started, where it is now, its tray slot."""

    uid: str
    start: tuple[int, int]
    pos: tuple[int, int]
    rect: pygame.Rect


def _data_dir(data_dir: str | os.PathLike[str] | None) -> Path:
    if data_dir is not None:
        return Path(data_dir)
    return Path(load_config().storage.data_dir)


LEGACY_PATTERNS = ("sim-game.db", "sim-game-*.db", "demo-*.db")


def adopt_legacy_games(folder: Path) -> list[Path]:
    """Move the games older simulators left at the top of the data folder (``sim-game*.db``, ``demo-*.db``)
    into ``games/``, where every command sees them (a name already taken there is left where it is). The
    files keep their times, so the newest game not over is still the one resumed when no game is marked."""
    target = games_dir(folder)
    moved: list[Path] = []
    for pattern in LEGACY_PATTERNS:
        for path in sorted(folder.glob(pattern)):
            new = target / path.name
            if not path.is_file() or new.exists():
                continue
            make_directories(target)
            for suffix in ("-wal", "-shm"):  # an unclean stop leaves the journal's last pages beside it
                side = path.with_name(path.name + suffix)
                if side.exists():
                    side.rename(new.with_name(new.name + suffix))
            path.rename(new)
            moved.append(new)
    return moved


def check_new_game(edition: str, players: Sequence[str]) -> None:
    """Refuse a new game's edition or names before anything is created or set aside (the same checks as
    :meth:`terminal.Game.create`, with a hint for names run together). Raises ValueError/LookupError."""
    try:
        load_edition(edition)
    except LookupError as exc:
        raise LookupError(f"--edition {edition!r}: {exc}") from exc
    if len(players) == 1 and " " in players[0]:
        raise ValueError(f"--players {players[0]!r} is one name: separate the players' names with commas "
                         f"(--players \"{','.join(players[0].split())}\"). Nothing was changed.")
    try:
        check_players(tuple(players))
    except GameError as exc:
        raise ValueError(f"--players: {exc} Nothing was changed.") from exc


def run_sim(demo_log: str | os.PathLike[str] | None = None, *, headless: bool = False, speed: float = 4.0,
            size: tuple[int, int] = (800, 480), rotation: int = 0, language: str | None = None,
            data_dir: str | os.PathLike[str] | None = None, edition: str = "fr",
            players: Sequence[str] = DEFAULT_PLAYERS, new_game: bool = False, max_seconds: float | None = None,
            screenshot: str | os.PathLike[str] | None = None, key: bytes | None = None, audio: bool | str = "auto",
            stay: bool = False, settings: TerminalSettings | None = None,
            desktop: tuple[int, int] | None = None,
            on_start: Callable[[TerminalApp], None] | None = None, force: bool = False,
            protected: Protected | None = None,
            on_terminal: Callable[[Terminal], None] | None = None, phone: bool | None = None,
            phone_command: Sequence[str] | None = None) -> int:
    """Run the simulator; returns an exit code (0 done, 1 the demo failed or a check of its log disagreed,
    2 bad arguments or log, 3 no screen or a file problem).

    Games live where the device keeps them: ``data_dir/games/``, the current one named in ``data_dir/current``
    (:mod:`host_ui.shell.manage`); a game started from the banker menu becomes the current one. The simulator is
    as careful with them as the device (issue 21, point 3): the current game is resumed through the device's
    start-up (:func:`host_ui.shell.startup.resume_at_startup`: judged beside play, payments stopped and the files
    put back as found if it is damaged, with its newest good backup offered), every game keeps its mirror of
    acknowledged entries and is backed up as the configuration says (``[storage]``; the backups folder follows
    ``data_dir`` unless ``backup_dir`` is set).

    - ``demo_log``: a table log (``.jsonl``) to play; the game is created from its header
      (``games/demo-<log name>-<time>.db``); every ``expect`` line is checked on the way and every operation
      must be recorded (or refused, when the log says so), as ``banquier replay`` does: the first
      disagreement is printed and the code is 1. ``speed``: table seconds per real second (4 = four times
      faster; large values play at once). After the log a window shows the last screen (the standings) until
      it is closed when ``stay`` is true (``banquier sim`` does so unless ``--close``), for ``max_seconds`` when
      given, else for 3 s; headless, the simulator stops there.
    - Without a log: resumes the current game (with a notice on screen), or creates one with ``edition`` and
      ``players`` when there is none or ``new_game`` is set (checked before anything changes).
    - ``headless``: SDL's dummy video driver, no sound; without a log, stops after ``max_seconds`` (default 1).
    - ``size``: the terminal's screen (480x320, 800x480, 1024x600, 1280x720); ``rotation``: 0/90/180/270, how the
      device's panel is mounted. The window shows what a person in front of that device sees: at 90 and 270 the
      portrait layout (the size turned: 320x480...), upright in a portrait window; at 180 the landscape one.
      The window is shrunk to fit the desktop it opens on (``desktop``: its size, default from SDL).
    - ``language``: ``fr``, ``en`` or ``uk`` (default: the configuration's); ``screenshot``: save the last window
      picture there (PNG), through the output guard of every command (:mod:`host_ui.shell.outputs`): a new file,
      an existing one only with ``force``, never a game, the card set, the key, the configuration or ``protected``
      (default: :func:`host_ui.shell.manage.protected_outputs` of the configuration).
    - ``settings``: the state machine's settings (default: the configuration's ``[game]``: timeouts, banker
      protection and PIN); ``key``: the device key's bytes (default: read from the configured key file, made
      for a new game).
    - ``on_start``: called with the loop (:class:`host_ui.screen.app.TerminalApp`) once its first frame is drawn
      (tests post their inputs there); ``on_terminal``: called with the tap machine as soon as it is made (tests
      look at it after the run).
    - ``phone``: offer the phone page on this PC (default: unless ``headless``): ``banquier phone serve --host
      127.0.0.1`` on the configuration's ``[phone] port`` as a child process (:class:`host_ui.phone.child.PageChild`,
      publishing its links where ``banquier phone status`` and ``banquier doctor`` look; started again when it
      dies), switched on and off in the banker menu (Phones) as on the device, stopped and
      reaped when the simulator ends; the simulator plays on if it cannot start or stops. ``phone_command``: the
      child's command line instead (tests).
    """
    config = None
    if settings is None or data_dir is None:
        config = load_config()
        settings = settings or config.terminal_settings()
    if language is not None:
        settings = replace(settings, language=language)
    key_path = config.storage.key_file if config is not None else None
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
        audio = False
        if demo_log is None and max_seconds is None:
            max_seconds = 1.0
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    log: TableLog | None = None
    if demo_log is not None:
        from terminal.bank.tablelog import read_table_log  # late load: only a demo reads a table log
        log = read_table_log(Path(demo_log))
    if demo_log is None and new_game:
        check_new_game(edition, players)
    # pygame and the screen modules (which import it) are loaded late, here: after the SDL settings above, so
    # that `banquier --help` and `banquier sim --help` do not load them, and inside the time to the first frame
    from host_ui.screen.pygame_loader import load_pygame
    load_pygame()  # without setuptools' pkg_resources (see there)
    import pygame

    from host_ui.screen.app import TerminalApp
    from host_ui.screen.display import WindowOutput, fit_scale
    from host_ui.screen.render import Renderer

    started = time.monotonic()
    if not headless:
        pygame.display.init()
        driver = pygame.display.get_driver()
        if driver in ("dummy", "offscreen"):
            pygame.display.quit()
            print(f"banquier sim: there is no screen here (SDL picked its '{driver}' driver): run it from a desktop, "
                  f"set DISPLAY (e.g. under Xvfb), or add --headless for a test run.", file=sys.stderr)
            return 3
    folder = _data_dir(data_dir if data_dir is not None else config.storage.data_dir if config else None)
    make_directories(folder)
    backups = config.storage.backup_dir if config is not None and config.storage.backup_dir is not None \
        else folder / "backups"
    adopt_legacy_games(folder)
    current = None if demo_log is not None or new_game else current_game(folder, key_path)
    if key is None:  # the key file is read to resume a game, and made only for a new one
        key = load_key(key_path) if current is not None else load_or_create_key(key_path, data=folder)
    notice: Msg | None = None
    game: Game | None = None
    damage: Damage | None = None
    found: StartUp | None = None
    recovery = Recovery(folder, key, backups, wall_clock)
    if log is not None:
        from terminal.bank.tablelog import header_rules_version  # late load: only a demo reads a table log
        header = log.header
        names = list(header["players"])
        game = create_game(folder, key, header["edition"], names, header.get("mode"), backups=backups,
                        stem=f"demo-{Path(log.path).stem}", current=False, rules=header.get("rules") or None,
                        dealt=header.get("dealt") or None, end_time=header.get("end_time"),
                        length_minutes=header.get("length_minutes"),
                        rules_version=header_rules_version(header),
                        player_cards={n: player_uid(i) for i, n in enumerate(names, start=1)})
        path = game.path
    elif current is not None:
        # the device's start-up: judged beside play; a damaged game is named on the screen and kept, with its newest
        # good backup offered; the wizard starts another
        found = resume_at_startup(folder, key, key_file=key_path, backups=backups, clock=wall_clock)
        path, game = found.path or current, found.game
        if game is not None:
            game.play_clock.start(time.monotonic)
            notice = resumed_notice(game)
        elif found.problem is not None:
            damage = Damage(found.problem, found.backup.name if found.backup is not None else None)
            print(f"banquier sim: {damage.problem}", file=sys.stderr)
    if game is None and damage is None:
        names = list(players)
        game = create_game(folder, key, edition, names, backups=backups, stem="sim",
                        player_cards={n: player_uid(i) for i, n in enumerate(names, start=1)})
        path = game.path  # the current game only now that it is played before set aside (it stays in games/)

    clock = FakeClock(time.monotonic())

    def factory(edition_name: str | Edition, names: Iterable[str], mode: str, rules: Mapping[str, Any] | None,
                cards: Mapping[str, str] | None, minutes: int | None = None) -> Game:
        # the wizard's game is the one resumed after a restart or a crash
        created = create_game(folder, key, edition_name, names, mode, backups=backups, stem="sim",
                           rules=rules or None, player_cards=cards, clock=wall_clock, length_minutes=minutes)
        created.play_clock.start(time.monotonic)
        return created

    def find_backup(damaged: Game) -> tuple[str, Callable[[], Game]] | None:
        offer = recovery.for_terminal(damaged)
        return None if offer is None else (offer[0], playing(offer[1]))

    restore = None
    if found is not None and found.game is None and found.backup is not None:
        start_up = found
        restore = playing(lambda: restore_at_startup(start_up, folder, key, backups=backups, clock=wall_clock))

    registry = make_registry(8)

    def enrolment() -> Enrolment:
        return Enrolment(registry, players=8)

    pygame.display.init()
    pygame.font.init()
    beeper = SimBeeper(audio=audio, clock=clock)
    reader = SimReader(clock=clock)
    real = _real_reader(config)
    with_ultimate_cards(registry)  # the electronic board's property and Event stickers are in the tray too
    page: PageChild | None = None
    if phone if phone is not None else not headless:
        phone_settings = config.phone if config is not None else load_config().phone
        page = PageChild(folder, phone_settings.port, phone_settings.language or settings.language,
                         command=phone_command)  # started in the loop's try: always stopped after
    switch = PhoneSwitch(folder, page.runtime if page is not None else folder / "no-phone-page",
                         on_idle=config.phone.qr_on_idle if config is not None else False)
    terminal = Terminal(game, registry, beeper, clock, settings, game_factory=factory, enrolment_factory=enrolment,
                        notice=notice, damage=damage, restore=restore, find_backup=find_backup, phone=switch)
    if on_terminal is not None:
        on_terminal(terminal)
    keeper = BackupKeeper(backups, config.storage.backup_every if config is not None else 20,
                          config.storage.backups_kept if config is not None else 5)
    if rotation in (90, 270) and size[0] > size[1]:  # a panel mounted upright: the portrait layout, as seen
        size = (size[1], size[0])
    rotation = 0  # the picture as the person sees it (the device turns it for its panel; the sim has no panel)
    panel = panel_size(size, rotation)
    window_size = (panel[0] + TRAY_W, max(panel[1] + READER_H, 600))
    if desktop is None and not headless:
        sizes = pygame.display.get_desktop_sizes()
        desktop = sizes[0] if sizes else None
    output = WindowOutput(size, rotation, window_size=window_size, screen_rect=(0, 0, *panel),
                          title="Banquier — simulateur", scale=fit_scale(window_size, desktop))
    renderer = Renderer(size, rotation, game=game, display=settings.display)
    mapper = InputMapper(size, rotation)
    tray = Tray(output.window, pygame.Rect(0, 0, *panel), terminal, reader, present=output.present)
    both = reader if real is None else TrayAndReader(reader, real)
    app = TerminalApp(terminal, output, renderer, mapper, reader=both, monotonic=time.monotonic,
                      on_frame=tray.draw)
    app.extra_events = lambda event: tray.handle(event, app)
    last_real = time.monotonic()

    def follow_real_time() -> None:
        nonlocal last_real
        now = time.monotonic()
        clock.advance(now - last_real)
        last_real = now
        if renderer.game is not terminal.game:
            renderer.game = terminal.game

    def run_until(deadline: float | None) -> None:
        """The screen's loop on real time until the window is closed or ``deadline`` (None: no deadline)."""
        # the table clock follows real time also between the sleep and the poll: a poll due after the
        # sleep is seen as due (one wake-up per reader poll, not two or three)
        app.after_wait = follow_real_time
        seen = -1
        while app.running and (deadline is None or time.monotonic() < deadline):
            follow_real_time()
            app.step(app.wait_time())
            if page is not None:
                page.check(switch.is_on())  # a page that died is said and started again; the game goes on
            if terminal.version != seen and log is None:  # backups as on the device (beside the loop)
                seen = terminal.version
                keeper.maybe(terminal.game)

    code = 0
    stop_on_sigterm = page is not None and threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGTERM, _sigterm_exits) if stop_on_sigterm else None
    try:
        if page is not None:
            page.start()
        if on_start is not None:
            app.draw_if_needed(time.monotonic(), force=True)
            on_start(app)
        if log is not None:
            code = _play_demo(app, terminal, reader, clock, log, speed, tray,
                              watch=None if page is None else lambda: page.check(switch.is_on()))
            last_real = time.monotonic()
            if not headless and app.running:
                # the last screen (the standings of a finished game) stays until the window is closed
                # (``stay``), for ``max_seconds``, or else 3 s
                linger = max_seconds if max_seconds is not None else None if stay else 3.0
                app.reader = both
                run_until(None if linger is None else time.monotonic() + linger)
        else:
            deadline = None if max_seconds is None else time.monotonic() + max_seconds
            app.draw_if_needed(time.monotonic(), force=True)
            run_until(deadline)
        if screenshot:
            app.draw_if_needed(time.monotonic(), force=True)
            from host_ui.shell.outputs import write_binary_output  # late: only a screenshot writes a file
            write_binary_output(screenshot, lambda f: pygame.image.save(output.display, f, "screenshot.png"),
                                force=force, protected=protected or protected_outputs(config), what="screenshot")
    except DemoStopped:
        code = 0
    finally:
        print(f"banquier sim: game file {terminal.game.path if terminal.game else path}; "
              f"{app.frames} frames in {time.monotonic() - started:.1f} s", flush=True)
        if terminal.game is not None:
            if log is None:
                keeper.maybe(terminal.game, force=True)  # the last backup, as the device makes it when it stops
            terminal.game.close()
        beeper.close() if hasattr(beeper, "close") else None
        if page is not None:
            page.stop()
        if stop_on_sigterm:
            signal.signal(signal.SIGTERM, before)
        reader.close()
        if real is not None:
            real.close()
        pygame.display.quit()
    return code


def _sigterm_exits(signum: int, frame: object) -> None:
    """SIGTERM while the phone page's child runs: the simulator ends as when its window is closed (its ``finally``
    stops the child: nothing is left running)."""
    raise SystemExit(0)


class TrayAndReader:
    """The tray's virtual reader and a real reader that works on a PC (a USB reader typing card numbers), polled
    together: a real card tapped on the real reader reaches the simulated terminal as a tap on the tray would."""

    def __init__(self, tray: SimReader, real: CardReader) -> None:
        self.tray, self.real = tray, real

    def poll(self) -> list[HalEvent]:
        return self.tray.poll() + self.real.poll()

    def next_poll_in(self) -> float:
        return min(self.tray.next_poll_in(), self.real.next_poll_in())


def _real_reader(config: Config | None) -> CardReader | None:
    """The configured reader when it works on a PC (its declaration's ``pc``: ``backend = "keyboard"``), opened
    for the simulator; None for the simulator's own reader or a reader of the Pi's header. A reader that cannot
    open raises its one-line error (no silent fallback: the cards tapped on it would go nowhere)."""
    if config is None or config.reader.backend == "sim" or not config.reader.declaration.pc:
        return None
    return hal_registry.load_reader(config.reader.backend, env={}, **config.reader.hal_options())


def _play_demo(app: TerminalApp, terminal: Terminal, reader: SimReader, clock: FakeClock, log: TableLog,
               speed: float, tray: Tray, watch: Callable[[], object] | None = None) -> int:
    """Play ``log`` through the terminal with a person's inputs, drawing as it goes. Every ``expect`` line is
    checked against the game and every operation must be recorded once (refused ones not at all), as
    ``banquier replay`` checks a log; the first disagreement is printed and stops the demo (returns 1).
    ``watch()`` is called at every turn of its loop (the phone page's child watched: started again if it died)."""
    import pygame  # loaded late: see run_sim

    from terminal.bank.tablelog import ReplayMismatch  # late load: only a demo checks a table log
    from terminal.bank.tablelog import _compare as compare_check

    names = list(log.header["players"])
    speed = max(0.01, float(speed))

    def pause(table_seconds: float) -> None:
        end = time.monotonic() + table_seconds / speed
        while True:
            remaining = end - time.monotonic()
            app.step(min(max(remaining, 0.0), 0.05) if remaining > 0 else 0.0)
            if watch is not None:
                watch()
            if not app.running:
                raise DemoStopped()
            if remaining <= 0:
                break
        app.draw_if_needed(time.monotonic())

    app.reader = None  # the driver polls the reader itself, in step with the table's clock
    play_clock = FakeClock(0.0)  # play time goes by as the log's x_play_time lines say, not with the inputs
    if terminal.game is not None:
        terminal.game.play_clock.start(play_clock)
    driver = TableDriver(terminal, reader, clock, names, pause=pause, play_clock=play_clock)
    total = sum(1 for line in log.lines if "op" in line.data)
    tray.demo = (speed, 0, total)
    game = terminal.game
    assert game is not None, "a demo plays into the game made from its log's header"
    done = checks = 0
    mismatch: str | None = None
    for line in log.lines:
        data = line.data
        if "expect" in data:
            state = game.state()
            try:
                for field, expected in data["expect"].items():
                    compare_check(line.number, field, expected, state[field])
            except ReplayMismatch as exc:
                mismatch = str(exc)
                break
            checks += 1
            continue
        before = _entries(game)
        try:
            driver.play(data)
        except GaveUp:
            driver.give_up()
        done += 1
        tray.demo = (speed, done, total)
        if terminal.view.screen not in ("idle", "game_over"):
            driver.give_up()
            mismatch = f"line {line.number}: {data['op']}: the screen stayed on {terminal.view.screen}"
            break
        recorded = _entries(game) - before
        if data.get("refused") and recorded:
            mismatch = f"line {line.number}: {data['op']} was accepted but the log says it must be refused"
            break
        # play time going by is recorded, and the entry that reaches the limit is followed by the end's
        wanted = (1, 2) if data["op"] == "x_play_time" else (1,)
        if not data.get("refused") and recorded not in wanted:
            mismatch = f"line {line.number}: {data['op']} was not recorded (the terminal refused it or gave up)"
            break
    pause(2.0)
    tray.demo = None
    pygame.event.pump()
    if mismatch is not None:
        print(f"MISMATCH {log.path}: {mismatch}", file=sys.stderr, flush=True)
        return 1
    print(f"banquier sim: {Path(log.path).name}: {done} operation{'s' * (done != 1)} played by taps and "
          f"{checks} check{'s' * (checks != 1)} of the log: all agree.", flush=True)
    return 0


def _entries(game: Game) -> int:
    last = game.ledger.last_entry()
    return last[0] if last else 0


class Tray:
    """The reader and the tray of virtual cards, drawn right of (and under) the terminal's screen."""

    def __init__(self, window: pygame.Surface, screen_rect: pygame.Rect, terminal: Terminal,
                 reader: SimReader, present: Callable[[], None] | None = None) -> None:
        import pygame  # loaded late: see run_sim

        self.window, self.screen_rect, self.terminal, self.reader = window, screen_rect, terminal, reader
        self.present = present or pygame.display.flip
        w, h = window.get_size()
        self.reader_rect = pygame.Rect(8, screen_rect.bottom + 8, screen_rect.w - 16, h - screen_rect.bottom - 16)
        self.tray_rect = pygame.Rect(screen_rect.right + 8, 8, w - screen_rect.right - 16, h - 16)
        self.cards: list[TrayCard] = []
        self.drag: Drag | None = None
        self.demo: tuple[float, int, int] | None = None  # speed, operations done, operations in the log

    def _layout(self) -> None:
        import pygame as pg  # loaded late: see run_sim

        from host_ui.screen import theme  # loaded late (it loads pygame): see run_sim
        from host_ui.screen.layouts import board_for

        game = self.terminal.game
        edition = game.edition if game is not None else load_edition("fr")
        names: dict[str, str] = {}
        if game is not None:
            player_cards: dict[str, str] = game.meta.get("player_cards") or {}
            names = {uid: name for name, uid in player_cards.items()} or {player_uid(i): n for i, n in
                                                                            enumerate(game.players, 1)}
        x0, y = self.tray_rect.x, self.tray_rect.y + 26
        w = self.tray_rect.w
        cards: list[TrayCard] = []
        pw, ph = (w - 3 * 6) // 4, 46
        for i in range(8):
            uid = player_uid(i + 1)
            r, c = divmod(i, 4)
            rect = pg.Rect(x0 + c * (pw + 6), y + r * (ph + 6), pw, ph)
            cards.append((rect, uid, names.get(uid, f"#{i + 1}"), theme.player_colour(i + 1), "player"))
        y += 2 * (ph + 6) + 4
        cards.append((pg.Rect(x0, y, pw * 2 + 6, 36), BANKER_UID, None, theme.ACCENT, "banker"))
        y += 36 + 10
        uids = {"deed": deed_uid, "property": property_uid, "event": event_uid}
        version = game.config.rules_version if game is not None else RULES_VERSION  # the deck of the game's rules
        for block in board_for(edition).tray(edition, version):  # the board's own: deeds, stickers, Event cards
            sw = (w - (block.per_row - 1) * block.gap) // block.per_row
            for i, sticker in enumerate(block.stickers):
                r, c = divmod(i, block.per_row)
                rect = pg.Rect(x0 + c * (sw + block.gap), y + r * (block.height + 4), sw, block.height)
                cards.append((rect, uids[sticker.card](sticker.number), sticker.label, sticker.colour,
                              "event" if sticker.card == "event" else "deed"))
            y += -(-len(block.stickers) // block.per_row) * (block.height + 4) + 6
        self.cards = cards

    def handle(self, event: pygame.event.Event, app: TerminalApp) -> bool:
        """Tray and reader mouse events; True when consumed (not for the terminal's screen)."""
        import pygame as pg  # loaded late: see run_sim

        if event.type == pg.MOUSEBUTTONDOWN and event.button == 1 and not self.screen_rect.collidepoint(event.pos):
            if self.reader_rect.collidepoint(event.pos) and self.reader.field:
                self.reader.remove()
                app._dirty = True
                return True
            for rect, uid, *_ in self.cards:
                if rect.collidepoint(event.pos):
                    self.drag = {"uid": uid, "start": event.pos, "pos": event.pos, "rect": rect}
                    app._dirty = True
                    return True
            return True
        if event.type == pg.MOUSEMOTION and self.drag is not None:
            self.drag["pos"] = event.pos
            app._dirty = True
            return True
        if event.type == pg.MOUSEBUTTONUP and event.button == 1 and self.drag is not None:
            drag, self.drag = self.drag, None
            moved = abs(event.pos[0] - drag["start"][0]) + abs(event.pos[1] - drag["start"][1])
            if moved < 8:
                self.reader.tap(drag["uid"])
            elif self.reader_rect.collidepoint(event.pos) or self.screen_rect.collidepoint(event.pos):
                self.reader.remove()
                self.reader.present(drag["uid"])
            app._dirty = True
            return True
        return False

    def draw(self) -> None:
        import pygame as pg  # loaded late: see run_sim

        from host_ui.screen import theme  # loaded late (it loads pygame): see run_sim

        language = self.terminal.settings.language
        self._layout()
        win = self.window
        win.fill(theme.BG, pg.Rect(self.screen_rect.right, 0, win.get_width() - self.screen_rect.right,
                                   win.get_height()))
        win.fill(theme.BG, pg.Rect(0, self.screen_rect.bottom, self.screen_rect.right,
                                   win.get_height() - self.screen_rect.bottom))
        pg.draw.line(win, theme.LINE, (self.screen_rect.right, 0), (self.screen_rect.right, win.get_height()), 2)
        small = theme.font(13)
        bold = theme.font(14, True)
        win.blit(bold.render(translate("ui_cards", {}, language), True, theme.MUTED),
                 (self.tray_rect.x, self.tray_rect.y + 2))
        # reader
        rr = self.reader_rect
        resting = self.reader.field
        pg.draw.rect(win, theme.PANEL, rr, border_radius=12)
        pg.draw.rect(win, theme.ACCENT if resting else theme.LINE, rr, 2, border_radius=12)
        cx, cy = rr.x + 50, rr.centery
        for radius in (14, 24, 34):
            pg.draw.arc(win, theme.ACCENT if resting else theme.MUTED, (cx - radius, cy - radius, 2 * radius,
                                                                        2 * radius), -0.8, 0.8, 3)
        label = translate("ui_reader", {}, language)
        win.blit(bold.render(label, True, theme.TEXT), (rr.x + 100, rr.y + 14))
        win.blit(small.render(translate("ui_keys", {}, language), True, theme.MUTED), (rr.x + 100, rr.bottom - 26))
        if self.demo is not None:
            speed, done, total = self.demo
            text = translate("ui_demo", {"speed": f"{speed:g}", "done": done, "total": total}, language)
            win.blit(bold.render(text, True, theme.WARN), (rr.x + 100, rr.y + 40))
        for rect, uid, name, colour, kind in self.cards:
            if uid in resting:
                self._card(win, pg.Rect(rr.x + 100, rr.y + 38, rect.w, rect.h), uid, name, colour, kind)
        for rect, uid, name, colour, kind in self.cards:
            faded = uid in resting or (self.drag is not None and self.drag["uid"] == uid)
            self._card(win, rect, uid, name, colour, kind, faded=faded)
        if self.drag is not None:
            for rect, uid, name, colour, kind in self.cards:
                if uid == self.drag["uid"]:
                    ghost = rect.copy()
                    ghost.center = self.drag["pos"]
                    self._card(win, ghost, uid, name, colour, kind)
        self.present()

    def _card(self, win: pygame.Surface, rect: pygame.Rect, uid: str, name: str | None, colour: Colour, kind: str,
              faded: bool = False) -> None:
        import pygame as pg  # loaded late: see run_sim

        from host_ui.screen import theme  # loaded late (it loads pygame): see run_sim

        language = self.terminal.settings.language
        if kind == "event":  # an Event card: its number on the Event colour
            pg.draw.rect(win, colour if not faded else theme.PANEL, rect, border_radius=4)
            f = theme.font(11, True)
            label = name or ""
            win.blit(f.render(label, True, theme.text_on(colour) if not faded else theme.MUTED),
                     f.render(label, True, theme.TEXT).get_rect(center=rect.center))
            return
        if kind == "deed":
            pg.draw.rect(win, theme.CARD if not faded else theme.PANEL, rect, border_radius=4)
            pg.draw.rect(win, colour, (rect.x, rect.y, rect.w, 7), border_top_left_radius=4,
                         border_top_right_radius=4)
            name = str(localized(name or "", language))  # a deed card always has its deed's name
            fg = theme.CARD_TEXT if not faded else theme.MUTED
            size, lines = deed_label_lines(lambda n, t: theme.font(n).size(t)[0], name, rect.w - 6, rect.h - 9)
            f = theme.font(size)
            for i, line in enumerate(lines):
                win.blit(f.render(line, True, fg), (rect.x + 3, rect.y + 8 + i * (f.get_linesize() - 1)))
            return
        fill = colour if not faded else theme.PANEL
        pg.draw.rect(win, fill, rect, border_radius=8)
        fg = theme.text_on(fill)
        label = name if kind == "player" and name is not None else translate("banker_title", {}, language)
        f = theme.font(14, True)
        win.blit(f.render(label, True, fg), (rect.x + 8, rect.y + 6))
        pg.draw.rect(win, theme.WARN, (rect.x + 8, rect.bottom - 16, 16, 10), border_radius=2)


def deed_label_lines(width_of: Callable[[int, str], int], name: str, width: int, height: int) -> tuple[int, list[str]]:
    """A deed's name on a tray card ``width`` x ``height`` pixels: ``(font size, lines)``. One line at 10 or 9
    points when it fits; else two lines (split at the space that balances them best) at 9 or 8; else two lines at
    8, the second cut with "…". ``width_of(size, text)``: the text's width in pixels at that font size."""
    for size in (10, 9):
        if width_of(size, name) <= width:
            return size, [name]
    words = name.split()
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    for size in (9, 8):
        fitting = [pair for pair in splits if max(width_of(size, p) for p in pair) <= width]
        if fitting:
            first, second = min(fitting, key=lambda pair: abs(width_of(size, pair[0]) - width_of(size, pair[1])))
            return size, [first, second]
    first, rest = splits[0] if splits else (name, "")
    while width_of(8, first) > width and len(first) > 3:
        first = first[:-1]
    text = rest
    while text and width_of(8, text + "…") > width:
        text = text[:-1]
    return 8, [first, (text.rstrip() + "…") if text != rest else rest] if rest else [first]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="banquier sim", description="The Banquier simulator: the terminal's "
                                     "screen and virtual cards in a window. Games go to DATA_DIR/games, as on a "
                                     "device; the current one is resumed.")
    parser.add_argument("--demo", metavar="LOG", help="play this table log (.jsonl) through the terminal and check "
                                                      "its expect lines (exit 1 on a mismatch)")
    parser.add_argument("--speed", type=_speed, default=4.0,
                        help="demo speed: table seconds per second, above 0 ('inf': no pauses; default 4)")
    parser.add_argument("--headless", action="store_true", help="no window (SDL dummy driver), for tests")
    parser.add_argument("--size", default="800x480", help="screen size WxH: 480x320, 800x480, 1024x600, 1280x720")
    parser.add_argument("--rotation", type=int, default=0, choices=(0, 90, 180, 270))
    parser.add_argument("--language", choices=("fr", "en", "uk"), help="default: the configuration's")
    parser.add_argument("--data-dir", help="where game files go (default: the configuration's)")
    parser.add_argument("--edition", default="fr", help="edition of a new game (fr, us, ...)")
    parser.add_argument("--players", default=",".join(DEFAULT_PLAYERS), help="names of a new game, comma-separated")
    parser.add_argument("--new", action="store_true", help="start a new game (the current one stays in the list)")
    parser.add_argument("--seconds", type=seconds_argument, help="stop after this many seconds")
    parser.add_argument("--screenshot", help="save the window to this PNG before quitting (a new file)")
    parser.add_argument("--force", action="store_true", help="--screenshot: replace an existing file (never a game, "
                                                             "the card set, the key or the configuration)")
    parser.add_argument("--close", action="store_true", help="close the window when a demo ends (default: it "
                                                             "stays on the standings until closed)")
    parser.add_argument("--phone", action=argparse.BooleanOptionalAction, default=None,
                        help="offer the phone page on this PC (http://127.0.0.1:PORT/..., switched on in the banker "
                             "menu: Phones); default: yes, but not --headless")
    parser.add_argument("--stay", action="store_true", help=argparse.SUPPRESS)  # the default now; kept for scripts
    return parser


def _speed(text: str) -> float:
    """``--speed``: a number of table seconds per second above 0, or ``inf``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"the speed must be above 0 (or 'inf'), not {text}")
    return value


def main(argv: Sequence[str] | None = None, *, protected: Protected | None = None) -> int:
    """``banquier sim`` (``argv`` without the program name). Returns the exit code. ``protected``: what
    ``--screenshot`` may never replace (default: from the configuration)."""
    args = build_parser().parse_args(argv)
    for option, value in (("--screenshot", args.screenshot), ("--data-dir", args.data_dir), ("--demo", args.demo)):
        if value is not None and not value.strip():  # never "none", nor the current folder
            print(f"banquier sim: {option} is empty: name a file (or leave the option out).", file=sys.stderr)
            return 2
    if args.screenshot:  # refused before anything is played, and checked again when it is written
        from host_ui.shell.outputs import OutputFileError, OutputRefused, check_output
        if protected is None:
            try:
                protected = protected_outputs(load_config())
            except GameError:
                protected = protected_outputs(None)
        try:
            check_output(args.screenshot, force=args.force, protected=protected, what="screenshot")
        except OutputRefused as exc:
            print(f"banquier sim: {exc}", file=sys.stderr)
            return 2
        except OutputFileError as exc:
            print(f"banquier sim: {exc}", file=sys.stderr)
            return 3
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"banquier sim: --size takes WIDTHxHEIGHT, not {args.size!r}", file=sys.stderr)
        return 2
    if (width, height) not in SIZES:
        print(f"banquier sim: --size {args.size} is not a laid-out size: choose one of "
              f"{', '.join(f'{w}x{h}' for w, h in SIZES)}", file=sys.stderr)
        return 2
    names = [p.strip() for p in args.players.split(",")]
    if len(names) > 1 and not all(names):  # "A,,B" or a trailing comma: say so, never drop a player silently
        print(f"banquier sim: --players {args.players!r} has an empty name between commas: give every player a "
              f"name. Nothing was changed.", file=sys.stderr)
        return 2
    try:
        return run_sim(args.demo, headless=args.headless, speed=args.speed, size=(width, height),
                       rotation=args.rotation, language=args.language, data_dir=args.data_dir,
                       edition=args.edition, players=[p for p in names if p],
                       new_game=args.new, max_seconds=args.seconds, screenshot=args.screenshot,
                       stay=not args.close, force=args.force, protected=protected, phone=args.phone)
    except OSError as exc:
        from host_ui.shell.manage import describe_os_error  # late: for the error line only
        print(f"banquier sim: {describe_os_error(exc) if exc.filename is not None else exc}", file=sys.stderr)
        return 3
    except (ValueError, LookupError) as exc:
        print(f"banquier sim: {exc}", file=sys.stderr)
        return 3 if isinstance(exc.__cause__, OSError) else 2  # an unreadable --demo log is a file problem


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
