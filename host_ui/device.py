"""The composition root of the terminal on a device: ``banquier run``.

It reads the configuration (:mod:`host_ui.shell.config`), picks the ``hal`` backends by name, opens the display
(an SDL window, kmsdrm on a console, or the framebuffer of an SPI panel with evdev touch), resumes the current
game of the data directory, and runs the state machine until SIGTERM (systemd) or Ctrl-C. On the way out it
stops the beeper, releases only its own pins, backs the game up and closes it cleanly.

Backups: after every ``storage.backup_every`` operations and at shutdown, through the SQLite backup API
(:mod:`host_ui.shell.backup`), keeping ``storage.backups_kept`` per game.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path

log = logging.getLogger("banquier")


def wall_clock() -> datetime:
    """The local time, for the end of a time-limited game (the terminal itself never reads the clock)."""
    return datetime.now().astimezone()


class BackupKeeper:
    """Backs a game up every ``every`` operations (0: only at :meth:`final`), keeping ``keep`` copies."""

    def __init__(self, folder: Path, every: int, keep: int):
        self.folder, self.every, self.keep = folder, every, keep
        self._last: dict[Path, int] = {}

    def maybe(self, game, force: bool = False) -> Path | None:
        from host_ui.shell.backup import backup_due, rotate_backup
        if game is None:
            return None
        last = game.ledger.last_entry()
        seq = last[0] if last else 0
        path = Path(game.path)
        if not force and (self.every <= 0 or not backup_due(seq, self._last.get(path), self.every)):
            return None
        if force and self._last.get(path) == seq:
            return None
        try:
            written = rotate_backup(path, self.folder, self.keep)
        except OSError as exc:  # a backup must never stop the game
            log.error("backup of %s failed: %s", path.name, exc)
            return None
        self._last[path] = seq
        log.info("backed up %s at entry %d -> %s", path.name, seq, written)
        return written


def setup_logging(level: str) -> None:
    """Log to stderr, one line per record, flushed at once (journald on the device; field-notes 18)."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


def run_device(config, *, headless: bool = False, max_seconds: float | None = None) -> int:
    """Run the terminal with the configured hardware. Returns an exit code (0 after a clean stop).

    ``headless`` (tests only) allows SDL's dummy driver; ``max_seconds`` stops the loop after that long.
    Raises nothing for a hardware or display problem: it logs one line saying what to do and returns 3.
    """
    import hal
    from cards.editions import load_edition
    from cards.registry import CardRegistry, Enrolment
    from host_ui.shell.device_key import load_or_create_key
    from host_ui.shell.games import resumed_notice
    from host_ui.shell.manage import current_game, games_dir, set_current
    from terminal.bank.game import Game
    from terminal.errors import GameError
    from terminal.table.machine import Terminal

    setup_logging(config.logging.level)
    data = Path(config.storage.data_dir)
    stop = threading.Event()
    hal.install_sigterm_handler(stop)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    try:
        data.mkdir(parents=True, exist_ok=True)
        key = load_or_create_key(config.storage.key_file)
        registry = CardRegistry.load(data / "cards.txt", edition=load_edition(config.game.edition))
        # env={}: the configuration has already applied the BANQUIER_READER/... overrides.
        reader = hal.load_reader(config.reader.backend, env={}, **config.reader.hal_options())
        beeper = hal.load_beeper(config.beeper.backend, env={}, **config.beeper.hal_options())
        buttons = hal.load_buttons(config.buttons.backend, env={}, **config.buttons.hal_options())
    except (hal.HalError, GameError, OSError) as exc:
        log.error("%s", exc)
        hal.close_all()
        return 3

    game = notice = None
    path = current_game(data, config.storage.key_file)
    if path is not None:
        try:
            game = Game.open(path, key=key, clock=wall_clock)
            log.info("resumed %s", path.name)
            notice = resumed_notice(game)
        except GameError as exc:
            log.error("cannot resume %s: %s (the file is left untouched; start a new game from the banker menu)",
                      path.name, exc)

    def factory(edition, names, mode, rules, cards, minutes=None):
        new = games_dir(data) / f"{datetime.now():%Y%m%d-%H%M%S}.db"
        end = (wall_clock() + timedelta(minutes=minutes)).isoformat(timespec="seconds") if minutes else None
        created = Game.create(new, edition, names, mode, rules or None, end_time=end, key=key, player_cards=cards,
                              clock=wall_clock)
        set_current(data, new)
        log.info("new game %s: %s, %s, %s", new.name, edition, mode, ", ".join(names))
        return created

    terminal = Terminal(game, registry, beeper, time.monotonic, config.terminal_settings(), game_factory=factory,
                        enrolment_factory=lambda: Enrolment(registry, players=8), notice=notice)
    keeper = BackupKeeper(config.storage.backups, config.storage.backup_every, config.storage.backups_kept)
    try:
        app = _open_display(config, terminal, reader, headless)
    except OSError as exc:
        log.error("%s", exc)
        hal.close_all()
        if game is not None:
            game.close()
        return 3
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    seen = -1

    def until() -> bool:
        nonlocal seen
        for event in buttons.poll():
            terminal.handle(event)
        if terminal.version != seen:
            seen = terminal.version
            keeper.maybe(terminal.game)
            if app.renderer.game is not terminal.game:  # a new game was started from the banker menu
                app.renderer.game = terminal.game
        return stop.is_set() or (deadline is not None and time.monotonic() >= deadline)

    log.info("terminal running (reader %s, beeper %s, buttons %s)", config.reader.backend,
             config.beeper.backend, config.buttons.backend)
    try:
        app.run(until=until)
    finally:
        keeper.maybe(terminal.game, force=True)
        if terminal.game is not None:
            terminal.game.close()
        app.output.close()
        hal.close_all()
        log.info("stopped cleanly")
    return 0


def _open_display(config, terminal, reader, headless: bool):
    import pygame

    from host_ui.screen.app import TerminalApp
    from host_ui.screen.display import FramebufferOutput, WindowOutput, check_driver
    from host_ui.screen.input_map import InputMapper
    from host_ui.screen.render import Renderer

    display = config.display
    size, rotation = (display.width, display.height), display.rotation
    touch = None
    if display.output == "framebuffer":
        os.environ["SDL_VIDEODRIVER"] = "dummy"  # frames are written to the framebuffer, not through SDL
        pygame.display.init()
        pygame.font.init()
        output = FramebufferOutput(display.fb_device or "/dev/fb1", size, rotation)
        if display.touch_device:
            from host_ui.screen.evdev_touch import EvdevTouch
            touch = EvdevTouch(str(display.touch_device))
    else:  # "kmsdrm" (full screen on the console) or "window"
        if display.output == "kmsdrm" and not headless:
            os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm")
        pygame.display.init()
        check_driver(on_device=not headless)
        pygame.font.init()
        output = WindowOutput(size, rotation, fullscreen=display.fullscreen or display.output == "kmsdrm")
    return TerminalApp(terminal, output, Renderer(size, rotation, game=terminal.game), InputMapper(size, rotation),
                       reader=reader, touch=touch, fps=display.max_fps)
