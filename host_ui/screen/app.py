"""The screen's loop: inputs in, the terminal's view out, redrawn only when something changed.

:class:`TerminalApp` polls the card reader (at its own bounded rate), feeds pygame / evdev input through
the :class:`~host_ui.screen.input_map.InputMapper`, ticks the terminal (timeouts), and draws a frame only when
``terminal.version`` or the clock's minute changed, at most ``fps`` times a second (docs/field-notes.md, 16). Between
frames it sleeps in SDL (:func:`host_ui.screen.event_wait.wait_events`: woken by an input, not every
millisecond as in ``pygame.event.wait``) until the next tick is due, so an idle terminal uses almost no CPU.

The card reader is polled either by the loop (it then wakes up for each poll) or, with ``reader_thread``, by
a :class:`hal.poller.ReaderThread` that posts a :data:`WAKE` event when a card came: the loop then sleeps
until an input, a card or the next tick, however fast the reader polls.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

import pygame

from hal.interfaces import HalEvent
from host_ui.screen.event_wait import notify, wait_events
from host_ui.screen.input_map import Action, InputMapper, Pointer, Tap, TouchWatch
from host_ui.screen.pg_events import to_records
from host_ui.screen.render import Frame, Renderer, default_clock
from host_ui.screen.widgets import ButtonAction
from terminal.table.machine import Terminal

if TYPE_CHECKING:  # for annotations: the touch panel's module (evdev) and the reader's thread load late
    from hal.poller import ReaderThread
    from host_ui.screen.evdev_touch import EvdevTouch

#: The event the reader's thread posts when it has queued events (nothing else but waking the loop).
WAKE = pygame.event.custom_type()


#: How long the loop sleeps after a beep was asked for, so that the beeper's worker starts the tone first (s).
BEEP_YIELD_S = 0.001

class Output(Protocol):
    """Where frames go (a :class:`~host_ui.screen.display.WindowOutput` or
    :class:`~host_ui.screen.display.FramebufferOutput`): ``window_size`` and ``screen_rect`` (where the panel's
    picture sits in the window) serve the input mapping."""

    window_size: tuple[int, int]
    screen_rect: tuple[int, int, int, int]

    def show(self, logical: pygame.Surface, update: bool = True) -> None: ...


class PolledReader(Protocol):
    """What the loop uses of the card reader: a ``hal`` :class:`~hal.interfaces.CardReader`, or what stands for
    one that may not have started (:class:`host_ui.device.PartReader`)."""

    def poll(self) -> list[HalEvent]: ...


class TerminalApp:
    """Wires a :class:`terminal.table.machine.Terminal` to a display.

    - ``output``: a :class:`host_ui.screen.display.WindowOutput` or :class:`~host_ui.screen.display.FramebufferOutput`.
    - ``reader``: a ``hal`` card reader (``poll()`` -> events) or None; ``touch``: an
      :class:`host_ui.screen.evdev_touch.EvdevTouch` or None.
    - ``monotonic``: the loop's clock (seconds); ``fps``: frame cap; ``tick_s``: how often the terminal's
      timeouts are checked.
    - ``on_frame``: called after each frame with the window surface (the simulator draws its tray there).
    - ``reader_thread``: poll the reader from its own thread (:class:`hal.poller.ReaderThread`, started at the
      first turn, stopped when :meth:`run` ends or by :meth:`stop_reader`); the loop then does not wake up for
      the reader's polls. ``poll_s``: the longest sleep between two turns, for inputs polled between turns
      (the device's buttons), or None.
    """

    def __init__(self, terminal: Terminal, output: Output, renderer: Renderer, mapper: InputMapper, *,
                 reader: PolledReader | None = None, touch: EvdevTouch | None = None,
                 monotonic: Callable[[], float] = time.monotonic, fps: int = 30, tick_s: float = 0.5,
                 wall_clock: Callable[[], str] | None = default_clock,
                 on_frame: Callable[[], None] | None = None, reader_thread: bool = False,
                 poll_s: float | None = None) -> None:
        self.terminal, self.output, self.renderer, self.mapper = terminal, output, renderer, mapper
        self.reader, self.touch = reader, touch
        self.monotonic, self.fps, self.tick_s = monotonic, fps, tick_s
        self.wall_clock = wall_clock
        self.on_frame = on_frame
        self.frame: Frame | None = None
        self.frames = 0
        self.first_frame_at: float | None = None
        self._drawn: tuple[int, str] | None = None
        self._dirty = True
        self._last_frame = -1e9
        self._next_tick = 0.0
        self.running = True
        self.extra_events: Callable[[pygame.event.Event], bool] | None = None
        self.poll_s = poll_s
        #: Called after each sleep, before the inputs and the reader are looked at (the simulator moves its
        #: table clock to real time there, so that a poll due after the sleep is seen as due).
        self.after_wait: Callable[[], None] | None = None
        self.poller: ReaderThread | None = None
        #: Watches the touch panel for a controller stuck at one corner (its presses there are dropped).
        self.touch_watch = TouchWatch()
        if reader_thread and reader is not None:
            from hal.poller import ReaderThread  # late load: only the device polls from a thread
            self.poller = ReaderThread(reader, self._wake)

    # -- the reader's thread -------------------------------------------------------------------------
    @staticmethod
    def _wake() -> None:
        """Called from the reader's thread: wake the loop (SDL's queue is thread-safe)."""
        try:
            pygame.event.post(pygame.event.Event(WAKE))
        except pygame.error:  # the display was closed meanwhile: the loop is ending
            pass
        notify()  # for the drivers where the loop looks at SDL's queue every 10 ms

    def stop_reader(self) -> None:
        """Stop the reader's thread (if any) and wait for it; the reader can be closed after this."""
        if self.poller is not None:
            self.poller.stop()

    # -- inputs --------------------------------------------------------------------------------------
    def dispatch(self, action: ButtonAction) -> None:
        """Do a button's action (see :mod:`host_ui.screen.screens`). Every touch and key carries the screen
        version of the frame on display, so one aimed at a screen no longer current is dropped."""
        kind = action[0]
        term = self.terminal
        version = term.shown_version
        if kind == "choose":
            term.choose(str(action[1]), version=version)
        elif kind == "digit":
            term.digit(str(action[1]), version=version)
        elif kind == "confirm":
            term.confirm(version=version)
        elif kind == "cancel":
            term.cancel(version=version)
        elif kind == "press":
            term.press(str(action[1]), version=version)
        elif self.renderer.ui_event(action):
            self._dirty = True

    def handle_mapped(self, items: Iterable[Tap | Action]) -> None:
        for item in items:
            if isinstance(item, Tap):
                action = self.frame.action_at(item.x, item.y) if self.frame else None
                if action is not None:
                    self.dispatch(action)
            elif isinstance(item, Action):
                if item.kind == "digit" and self.terminal.view.screen not in ("keypad", "pin"):
                    continue  # digits mean nothing elsewhere: no refusal beep for a stray key
                if item.kind in ("scroll", "page"):
                    self.dispatch((item.kind, int(item.arg) * (3 if item.kind == "scroll" else 1)))
                else:
                    self.dispatch((item.kind, item.arg) if item.arg else (item.kind,))

    def handle_pygame(self, event: pygame.event.Event, now: float) -> None:
        if event.type == WAKE:  # the reader's events are taken in poll_devices
            return
        if event.type == pygame.QUIT:
            self.running = False
            return
        to_window = getattr(self.output, "to_window", None)  # a window shown shrunk maps pointers back
        if to_window is not None and hasattr(event, "pos"):
            event = pygame.event.Event(event.type, {**event.dict, "pos": to_window(event.pos)})
        if self.extra_events is not None and self.extra_events(event):
            return
        if event.type == pygame.KEYDOWN and self._typed(event):
            return
        if event.type == pygame.MOUSEWHEEL:
            self.dispatch(("scroll", -event.y * 3))
            return
        records = to_records(event, self.output.window_size, self.output.screen_rect, now)
        for record in records:
            if isinstance(record, Pointer) and not self.touch_watch.see(record, now):
                continue  # a stuck panel's phantom press
            self.handle_mapped(self.mapper.feed(record))

    def _typed(self, event: pygame.event.Event) -> bool:
        """A key typed while the screen shows an on-screen keyboard (its ``key:...`` options, as the new-game
        wizard's naming of a seat): a letter types it, Backspace erases, Enter is OK, Esc goes back."""
        ids = {o.id for o in self.terminal.view.options}
        if "key:ok" not in ids:
            return False
        named = {pygame.K_BACKSPACE: "key:back", pygame.K_RETURN: "key:ok", pygame.K_KP_ENTER: "key:ok",
                 pygame.K_ESCAPE: "key:cancel", pygame.K_SPACE: "key:space"}.get(event.key)
        char = str(getattr(event, "unicode", "") or "").lower()
        key = named or (f"key:{char}" if char else None)
        if key in ids:
            self.dispatch(("choose", key))
            return True
        return False

    def poll_devices(self, now: float) -> None:
        if self.poller is not None:
            for event in self.poller.drain():
                self.terminal.handle(event)
        elif self.reader is not None:
            for event in self.reader.poll():
                self.terminal.handle(event)
        if self.touch is not None:
            for record in self.touch.poll():
                if self.touch_watch.see(record, now):
                    self.handle_mapped(self.mapper.feed(record))
        self.touch_watch.tick(now)
        if now >= self._next_tick:
            self._next_tick = now + self.tick_s
            self.terminal.tick()

    # -- drawing -------------------------------------------------------------------------------------
    def draw_if_needed(self, now: float, force: bool = False) -> bool:
        clock_text = self.wall_clock() if self.wall_clock else ""
        key = (self.terminal.version, clock_text)
        if not force and not self._dirty and key == self._drawn:
            return False
        if not force and now - self._last_frame < 1.0 / self.fps:
            return False
        view = self.terminal.view
        self.frame = self.renderer.render(view, clock_text)
        self.terminal.shown(view.screen_version)
        self.output.show(self.frame.surface, update=self.on_frame is None)
        if self.on_frame is not None:
            self.on_frame()
        self._drawn, self._dirty, self._last_frame = key, False, now
        self.frames += 1
        if self.first_frame_at is None:
            self.first_frame_at = now
        return True

    def step(self, timeout_s: float = 0.0) -> None:
        """One turn of the loop: wait up to ``timeout_s`` for input, handle it, poll, maybe draw."""
        if self.poller is not None and not self.poller.running:
            self.poller.start()
        events = wait_events(timeout_s) if timeout_s > 0 else pygame.event.get()
        if self.after_wait is not None:
            self.after_wait()
        now = self.monotonic()
        for event in events:
            self.handle_pygame(event, now)
        beeps = self.terminal.beeps
        self.poll_devices(now)
        if self.terminal.beeps != beeps:
            # A beep was asked for: the beeper's worker is waiting for the interpreter; a millisecond's sleep
            # hands it over now (else it waits up to the interpreter's switch interval, 5 ms, behind the frame).
            time.sleep(BEEP_YIELD_S)
        self.draw_if_needed(now)
        self.terminal.settle_writes()  # a payment beeped this turn: its mirror line now, the tone has started

    def wait_time(self) -> float:
        """How long the loop may sleep: until the next reader poll, tick or frame slot."""
        now = self.monotonic()
        waits = [self._next_tick - now]
        if self.reader is not None and self.poller is None:
            waits.append(getattr(self.reader, "next_poll_in", lambda: 0.05)())
        if self.poll_s is not None:
            waits.append(self.poll_s)
        if self.touch is not None:
            waits.append(1.0 / self.fps)
        if self._dirty or (self.terminal.version, self.wall_clock() if self.wall_clock else "") != self._drawn:
            waits.append(1.0 / self.fps - (now - self._last_frame))
        return max(0.001, min(min(waits), 0.5))

    def run(self, until: Callable[[], bool] = lambda: False) -> None:
        """Loop until the window is closed or ``until()`` is true (then the reader's thread is stopped)."""
        try:
            while self.running and not until():
                self.step(self.wait_time())
        finally:
            self.stop_reader()
