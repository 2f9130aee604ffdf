"""The composition root of the terminal on a device: ``banquier run``.

It reads the configuration (:mod:`host_ui.shell.config`), opens the display (an SDL window, kmsdrm on a
console, or the framebuffer of an SPI panel with evdev touch), picks the ``hal`` backends by name, resumes the
current game of the data directory, and runs the state machine until SIGTERM (systemd) or Ctrl-C. On the way
out it stops the beeper, releases only its own pins, backs the game up and closes it cleanly.

A missing part never stops the terminal (issue 15). The card reader, the beeper, the buttons and the touch
panel are each a :class:`Part`: when one cannot start (SPI disabled, no chip answering, no access to the GPIO,
no sound, a vendor library missing) its one-line fix is drawn over the message band of every frame and logged
once, and it is tried again every :data:`RETRY_S` seconds until it works; the rest of the terminal runs
meanwhile (a game can be looked at, the buttons and the touch screen still work). A touch panel stuck reporting
one corner (:class:`StuckTouch`) is shown and logged the same way, its presses there dropped, while the buttons
and the cards keep working. Only what makes the terminal useless stops it, with one line on stderr (the
journal):

    exit 0   stopped cleanly (SIGTERM, Ctrl-C or ``--seconds``)
    exit 2   the configuration is refused (raised from :func:`host_ui.shell.config.load_config`, before this)
    exit 3   no usable screen after waiting :data:`DISPLAY_WAIT_S` seconds for one (the terminal refuses to
             take payments blind), or the data directory, the device key or the card set cannot be used

The systemd unit restarts the terminal 30 s after any failure, forever (deploy/banquier.service), so a
screen that appears late, or a fixed data directory, is picked up without a reboot.

Backups: after every ``storage.backup_every`` operations and at shutdown, through the SQLite backup API
(:mod:`host_ui.shell.backup`), keeping ``storage.backups_kept`` per game.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypeVar

import hal
from cards.editions import load_edition
from cards.registry import CardRegistry, Enrolment
from hal.interfaces import Beeper, ButtonEvent, Buttons, CardReader, HalEvent, ReaderBack, ReaderLost
from host_ui.phone.switch import PhoneSwitch
from host_ui.shell.backup import BackupKeeper
from host_ui.shell.clock import wall_clock
from host_ui.shell.config import Config
from host_ui.shell.device_key import load_or_create_key
from host_ui.shell.games import resumed_notice
from host_ui.shell.startup import Recovery, new_game, playing, restore_at_startup, resume_at_startup
from terminal.bank.durable import make_directories
from terminal.bank.game import Game
from terminal.errors import GameError
from terminal.table.machine import Terminal
from terminal.table.settings import Damage

if TYPE_CHECKING:  # for annotations only: pygame and the screen modules are loaded once a display opens
    import pygame

    from host_ui.screen.app import TerminalApp
    from host_ui.screen.display import FramebufferOutput, WindowOutput
    from host_ui.screen.evdev_touch import EvdevTouch
    from host_ui.screen.input_map import TouchWatch

    #: A display output, as :func:`_open_output` opens it.
    ScreenOutput: TypeAlias = WindowOutput | FramebufferOutput

log = logging.getLogger("banquier")

EXIT_OK, EXIT_CONFIG, EXIT_CANNOT_START = 0, 2, 3
#: Seconds between two attempts to start a part that failed (reader, beeper, buttons, touch).
RETRY_S = 5.0
#: Seconds the terminal waits for a screen (a display that appears late at boot) before it exits 3.
DISPLAY_WAIT_S = 60.0
#: Seconds between two attempts to open the screen while waiting.
DISPLAY_RETRY_S = 2.0


def setup_logging(level: str) -> None:
    """Log to stderr, one line per record, flushed at once (journald on the device; field-notes 18)."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


# ------------------------------------------------------------------------------------------------- parts
def _problem_of(exc: BaseException) -> str:
    """One line for a part that failed to start: the backend's own message (it names the fix), or the
    exception's type and text for anything a backend did not wrap."""
    text = " ".join(str(exc).split())
    if isinstance(exc, (hal.HalError, OSError, ImportError)) and text:
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class _Closable(Protocol):
    def close(self) -> None: ...


#: The device a :class:`Part` starts (a ``hal`` reader, beeper or buttons, or the touch panel).
DeviceT = TypeVar("DeviceT", bound=_Closable)


class Part(Generic[DeviceT]):
    """One peripheral that may be missing: started by ``start()``, tried again every ``retry_s`` seconds
    while it fails, its current problem (one line with the fix) in :attr:`problem`.

    ``label``: how the screen and the journal name it ("card reader"). ``clock``: monotonic seconds.
    """

    def __init__(self, label: str, start: Callable[[], DeviceT], *, clock: Callable[[], float] = time.monotonic,
                 retry_s: float = RETRY_S):
        self.label, self._start, self._clock, self.retry_s = label, start, clock, retry_s
        self.device: DeviceT | None = None
        self.problem: str | None = None
        self.attempts = 0
        self._next_try = float("-inf")
        self.retry()

    def retry(self, force: bool = False) -> bool:
        """Try to start the part if it is not running and a try is due; True if it runs now."""
        if self.device is not None:
            return True
        now = self._clock()
        if not force and now < self._next_try:
            return False
        self._next_try = now + self.retry_s
        self.attempts += 1
        try:
            self.device = self._start()
        except Exception as exc:  # every failure of a part is shown and retried, never fatal
            problem = _problem_of(exc)
            if problem != self.problem:
                log.warning("%s not working: %s (trying again every %g s)", self.label, problem, self.retry_s)
            self.problem = problem
            return False
        if self.problem is not None:
            log.warning("%s is working again", self.label)
        self.problem = None
        return True

    def running(self) -> DeviceT | None:
        """The device if it runs, after a try to start it if it does not and a try is due (:meth:`retry`)."""
        self.retry()
        return self.device

    def failed(self, exc: BaseException) -> None:
        """The running part failed (its poll raised): closed, shown, and tried again later."""
        self.close()
        self.problem = _problem_of(exc)
        self._next_try = self._clock() + self.retry_s
        log.warning("%s failed: %s (trying again every %g s)", self.label, self.problem, self.retry_s)

    def close(self) -> None:
        device, self.device = self.device, None
        if device is not None:
            try:
                device.close()
            except Exception:
                log.exception("closing the %s failed", self.label)


class PartReader:
    """The card reader as the screen loop sees it, whether or not the hardware has started.

    While the reader cannot start it reports ``ReaderLost`` once (the terminal shows it is not reading cards)
    and tries again; once it starts it reports ``ReaderBack`` and passes the reader's own events on."""

    def __init__(self, part: Part[CardReader]):
        self.part = part
        self._announced = False

    @property
    def problem(self) -> str | None:
        if self.part.problem is not None:
            return self.part.problem
        device = self.part.device
        if device is not None and not getattr(device, "healthy", True):
            return getattr(device, "lost_reason", None) or "the card reader stopped answering"
        return None

    def poll(self) -> list[HalEvent]:
        device = self.part.running()
        if device is None:
            if not self._announced:
                self._announced = True
                return [ReaderLost(self.part.problem or "the card reader cannot start")]
            return []
        events: list[HalEvent] = []
        if self._announced:
            self._announced = False
            events.append(ReaderBack())
        try:
            return events + list(device.poll())
        except Exception as exc:  # a backend error it did not turn into ReaderLost itself
            self.part.failed(exc)
            self._announced = True
            return [ReaderLost(self.part.problem or "the card reader failed")]

    def next_poll_in(self) -> float:
        device = self.part.device
        if device is None:
            return 0.5
        return float(getattr(device, "next_poll_in", lambda: 0.05)())

    def close(self) -> None:
        self.part.close()


class PartBeeper:
    """The beeper as the terminal sees it: silent (``play`` returns False) while it cannot start; the mute
    setting is kept and applied when it starts."""

    def __init__(self, part: Part[Beeper]):
        self.part = part
        self._muted = False

    @property
    def problem(self) -> str | None:
        return self.part.problem

    def retry(self) -> Beeper | None:
        """Start the beeper if a try is due; the device, or None while it cannot start."""
        if self.part.device is None and self.part.retry():
            self.muted = self._muted  # the setter passes the kept setting on to the device just started
        return self.part.device

    def play(self, pattern: str) -> bool:
        device = self.retry()
        return bool(device.play(pattern)) if device is not None else False

    @property
    def muted(self) -> bool:
        return self._muted

    @muted.setter
    def muted(self, value: bool) -> None:
        self._muted = bool(value)
        if self.part.device is not None:
            self.part.device.muted = self._muted

    def stop(self) -> None:
        if self.part.device is not None:
            self.part.device.stop()

    def close(self) -> None:
        self.part.close()


class PartButtons:
    """The buttons: no events while they cannot start."""

    def __init__(self, part: Part[Buttons]):
        self.part = part

    @property
    def problem(self) -> str | None:
        return self.part.problem

    def poll(self) -> list[ButtonEvent]:
        device = self.part.running()
        if device is None:
            return []
        try:
            return list(device.poll())
        except Exception as exc:  # e.g. the GPIO refused a read: shown and retried, never a crash
            self.part.failed(exc)
            return []

    def close(self) -> None:
        self.part.close()


class ShownPart(Protocol):
    """A part as :func:`run_device` shows and closes it (:class:`PartReader`, :class:`PartBeeper`, ...)."""

    @property
    def problem(self) -> str | None: ...

    def close(self) -> None: ...


class NoticeOutput:
    """Wraps the screen's output: every frame gets the parts' problems drawn over its message band (the
    band never holds a button, so touches are unchanged), one line each with its fix."""

    def __init__(self, output: ScreenOutput, notices: Callable[[], list[str]]):
        self.output, self.notices = output, notices
        self.shown: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.output, name)

    def show(self, logical: pygame.Surface, update: bool = True) -> None:
        notices = self.notices()
        self.shown = notices
        if notices:
            logical = logical.copy()
            draw_notices(logical, notices)
        self.output.show(logical, update)

    def close(self) -> None:
        self.output.close()


def draw_notices(surface: pygame.Surface, notices: list[str]) -> None:
    """Draw ``notices`` (one line each) in the message band of ``surface`` (a logical frame)."""
    # Loaded late: pygame and the screen modules only once a display is opened (see _wait_for_screen).
    import pygame

    from host_ui.screen import theme
    from host_ui.screen.render import message_height
    from host_ui.screen.widgets import Canvas

    w, h = surface.get_size()
    canvas = Canvas(surface, min(w, h) / 320)
    band_h = max(message_height((w, h)), canvas.px(22) * min(len(notices), 4))
    band = pygame.Rect(0, h - band_h, w, band_h)
    pygame.draw.rect(surface, theme.ERROR, band)
    text = "\n".join(notices)
    canvas.paragraph(band.inflate(-canvas.px(12), -canvas.px(2)), text, 12, theme.text_on(theme.ERROR),
                     role="notice", min_size=8, max_lines=max(4, len(notices) * 2))


class Backends(Protocol):
    """Where :func:`start_parts` loads the backends by name: the ``hal`` package, or a test's stand-in."""

    def load_reader(self, name: str | None = None, *, env: Mapping[str, str] | None = None,
                    **config: object) -> CardReader: ...

    def load_beeper(self, name: str | None = None, *, env: Mapping[str, str] | None = None,
                    **config: object) -> Beeper: ...

    def load_buttons(self, name: str | None = None, *, env: Mapping[str, str] | None = None,
                     **config: object) -> Buttons: ...


def start_parts(config: Config, *, clock: Callable[[], float] = time.monotonic, retry_s: float = RETRY_S,
                hal_module: Backends | None = None) -> tuple[PartReader, PartBeeper, PartButtons]:
    """The reader, beeper and buttons of ``config``, each started now if it can be (see :class:`Part`)."""
    backends: Backends = hal_module or hal
    # env={}: the configuration has already applied the BANQUIER_READER/... overrides.
    reader = PartReader(Part("card reader", lambda: backends.load_reader(config.reader.backend, env={},
                                                                         **config.reader.hal_options()),
                             clock=clock, retry_s=retry_s))
    beeper = PartBeeper(Part("beeper", lambda: backends.load_beeper(config.beeper.backend, env={},
                                                                    **config.beeper.hal_options()),
                             clock=clock, retry_s=retry_s))
    buttons = PartButtons(Part("buttons", lambda: backends.load_buttons(config.buttons.backend, env={},
                                                                        **config.buttons.hal_options()),
                               clock=clock, retry_s=retry_s))
    return reader, beeper, buttons


# --------------------------------------------------------------------------------------------- the run
def run_device(config: Config, *, headless: bool = False, max_seconds: float | None = None,
               display_wait_s: float = DISPLAY_WAIT_S, retry_s: float = RETRY_S) -> int:
    """Run the terminal with the configured hardware. Returns an exit code (see the module docstring).

    ``headless`` (tests only) allows SDL's dummy driver; ``max_seconds`` stops the loop after that long (and
    bounds the wait for a screen). Raises nothing for a hardware or display problem: a missing part is shown
    on the screen and retried; no screen logs one line and returns 3.
    """
    setup_logging(config.logging.level)
    started = time.monotonic()
    data = Path(config.storage.data_dir)
    stop = threading.Event()
    hal.install_sigterm_handler(stop)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    try:
        make_directories(data)  # its name durable before the games and backups in it
        key = load_or_create_key(config.storage.key_file, data=data)
        registry = CardRegistry.load(data / "cards.txt", edition=load_edition(config.game.edition))
    except (GameError, OSError) as exc:
        log.error("%s", exc)
        return EXIT_CANNOT_START

    wait = display_wait_s if max_seconds is None else min(display_wait_s, max_seconds)
    screen = _wait_for_screen(config, headless, stop, wait)
    if screen is None:
        return EXIT_OK if stop.is_set() else EXIT_CANNOT_START
    output, touch_part = screen

    reader, beeper, buttons = start_parts(config, retry_s=retry_s)
    parts: list[tuple[str, ShownPart]] = [("card reader", reader), ("beeper", beeper), ("buttons", buttons)]
    if touch_part is not None:
        parts.append(("touch panel", touch_part))

    def notices() -> list[str]:
        return [f"{label}: {problem}" for label, part in parts if (problem := part.problem) is not None]

    # Never raises: a damaged, foreign or edited current game is named in the journal and left untouched; the
    # screen says so and offers its newest good backup or a new game.
    found = resume_at_startup(data, key, key_file=config.storage.key_file, backups=config.storage.backups,
                              clock=wall_clock)
    game = found.game
    notice = None
    if game is not None:
        game.play_clock.start(time.monotonic)
        notice = resumed_notice(game)  # the first screen says the game was resumed
    damage = Damage(found.problem, found.backup.name if found.backup else None) \
        if found.problem is not None and game is None else None

    backups = config.storage.backups
    recovery = Recovery(data, key, backups, wall_clock)

    def restore() -> Game:
        return restore_at_startup(found, data, key, backups=backups, clock=wall_clock)

    def find_backup(damaged: Game) -> tuple[str, Callable[[], Game]] | None:
        offer = recovery.for_terminal(damaged)
        return None if offer is None else (offer[0], playing(offer[1]))

    def factory(edition: str, names: list[str], mode: str, rules: dict[str, Any], cards: dict[str, str],
                minutes: int | None = None) -> Game:
        created = new_game(data, key, edition, names, mode, backups=backups, rules=rules or None,
                           player_cards=cards, clock=wall_clock, length_minutes=minutes)
        created.play_clock.start(time.monotonic)
        log.info("new game %s: %s, %s, %s", created.path.name, edition, mode, ", ".join(names))
        return created

    terminal = Terminal(game, registry, beeper, time.monotonic, config.terminal_settings(), game_factory=factory,
                        enrolment_factory=lambda: Enrolment(registry, players=8), notice=notice, damage=damage,
                        restore=playing(restore) if found.backup is not None else None, find_backup=find_backup,
                        phone=PhoneSwitch(data, on_idle=config.phone.qr_on_idle))
    keeper = BackupKeeper(config.storage.backups, config.storage.backup_every, config.storage.backups_kept)
    shown = NoticeOutput(output, notices)
    app = _make_app(config, terminal, shown, reader)
    parts.append(("touch panel", StuckTouch(app.touch_watch)))  # a panel stuck at a corner: said, and logged
    deadline = None if max_seconds is None else started + max_seconds
    seen = -1

    def until() -> bool:
        nonlocal seen
        for event in buttons.poll():
            terminal.handle(event)
        beeper.retry()  # so that its notice goes as soon as it works, not at the next beep
        if touch_part is not None and app.touch is None and touch_part.part.retry():
            app.touch = touch_part.part.device
        if terminal.version != seen:
            seen = terminal.version
            keeper.maybe(terminal.game)
            if app.renderer.game is not terminal.game:  # a new game was started from the banker menu
                app.renderer.game = terminal.game
        if notices() != shown.shown:
            app.draw_if_needed(time.monotonic(), force=True)
        return stop.is_set() or (deadline is not None and time.monotonic() >= deadline)

    log.info("terminal running (reader %s, beeper %s, buttons %s)", config.reader.backend,
             config.beeper.backend, config.buttons.backend)
    try:
        app.run(until=until)
    finally:
        keeper.maybe(terminal.game, force=True)
        if terminal.game is not None:
            terminal.game.close()
        output.close()
        for _, part in parts:
            part.close()
        hal.close_all()
        log.info("stopped cleanly")
    return EXIT_OK


class StuckTouch:
    """The touch panel seen through its touches (:class:`host_ui.screen.input_map.TouchWatch`): while it reports
    every touch at one corner, its problem is on the screen's message band (as a part's is) and in the journal
    (one line when it starts, one when the panel answers again). The buttons and the cards work meanwhile."""

    def __init__(self, watch: TouchWatch):
        self.watch = watch
        self._said: str | None = None

    @property
    def problem(self) -> str | None:
        problem = self.watch.problem
        if problem != self._said:
            if problem is not None:
                log.warning("touch panel: %s", problem)
            else:
                log.warning("touch panel: it answers again (a touch away from the corner)")
            self._said = problem
        return problem

    def close(self) -> None:
        pass


class PartTouch:
    """The touch panel (``display.touch_device``): shown and retried like the other parts."""

    def __init__(self, part: Part[EvdevTouch]):
        self.part = part

    @property
    def problem(self) -> str | None:
        return self.part.problem

    def close(self) -> None:
        self.part.close()


def _wait_for_screen(config: Config, headless: bool, stop: threading.Event,
                     wait_s: float) -> tuple[ScreenOutput, PartTouch | None] | None:
    """``(output, touch part or None)`` once a screen opens; None when none opened within ``wait_s`` seconds
    (one line logged, whatever the number of tries) or a stop was asked for meanwhile."""
    # Loaded late: pygame and the screen modules only once a display is opened, so that the CLI's other
    # commands never load pygame (and PYGAME_HIDE_SUPPORT_PROMPT, set by run_device, is seen in time).
    from host_ui.screen.pygame_loader import load_pygame
    load_pygame()  # without setuptools' pkg_resources (see there)
    import pygame

    from host_ui.screen.display import DisplayError
    until = time.monotonic() + max(0.0, wait_s)
    reported = False
    while True:
        try:
            return _open_output(config, headless)
        except (DisplayError, pygame.error) as exc:
            if not reported:  # one line in the journal, however many tries
                log.error("no screen: %s (trying again for %g s, then exit 3)", " ".join(str(exc).split()), wait_s)
                reported = True
        try:
            pygame.display.quit()
        except pygame.error:
            pass
        left = until - time.monotonic()
        if left <= 0 or stop.wait(min(DISPLAY_RETRY_S, left)):
            return None


def _open_output(config: Config, headless: bool) -> tuple[ScreenOutput, PartTouch | None]:
    # Loaded late: pygame and the screen modules (see _wait_for_screen).
    import pygame

    from host_ui.screen.display import FramebufferOutput, WindowOutput, check_driver
    from host_ui.screen.evdev_touch import EvdevTouch

    display = config.display
    size, rotation = (display.width, display.height), display.rotation
    touch = None
    output: ScreenOutput
    if display.output == "framebuffer":
        os.environ["SDL_VIDEODRIVER"] = "dummy"  # frames are written to the framebuffer, not through SDL
        check_driver(on_device=False)
        pygame.font.init()
        output = FramebufferOutput(display.fb_device or "/dev/fb1", size, rotation)
        if display.touch_device:
            def start_touch() -> EvdevTouch:
                return EvdevTouch(str(display.touch_device))
            touch = PartTouch(Part("touch panel", start_touch))
    else:  # "kmsdrm" (full screen on the console) or "window"
        if display.output == "kmsdrm" and not headless:
            os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm")
        check_driver(on_device=not headless)
        pygame.font.init()
        output = WindowOutput(size, rotation, fullscreen=display.fullscreen or display.output == "kmsdrm")
    return output, touch


def _make_app(config: Config, terminal: Terminal, output: NoticeOutput, reader: PartReader) -> TerminalApp:
    # Loaded late: the screen modules import pygame (see _wait_for_screen).
    from host_ui.screen.app import TerminalApp
    from host_ui.screen.input_map import InputMapper
    from host_ui.screen.render import Renderer

    display = config.display
    size, rotation = (display.width, display.height), display.rotation
    # The reader polls from its own thread (the loop sleeps until a card, an input or a tick); the buttons are
    # polled between turns (run_device's until), so the loop wakes up for them at 20 Hz when there are some.
    buttons_poll_s = None if config.buttons.backend == "none" else 0.05
    return TerminalApp(terminal, output, Renderer(size, rotation, game=terminal.game), InputMapper(size, rotation),
                       reader=reader, touch=None, fps=display.max_fps, reader_thread=True, poll_s=buttons_poll_s)
