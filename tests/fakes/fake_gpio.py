"""A fake ``RPi.GPIO`` that behaves like RPi.GPIO 0.7 and records what happened to every pin.

Enforced like the real library (same exception types and messages):
* the numbering mode can be set once; a second, different mode raises ValueError (field-notes 8);
* ``setup``/``output``/``input`` before ``setmode`` raise RuntimeError;
* ``output`` on a channel not set up as an output, ``input`` on one not set up, raise RuntimeError;
* power/ground pins and unknown channels raise ValueError;
* one ``PWM`` object per channel, only on outputs; duty cycle 0..100 and frequency > 0 checked;
* ``cleanup(channels)`` releases those channels only; ``cleanup()`` releases all and forgets the mode;
* with ``no_access = True`` (the user cannot open /dev/gpiomem), ``setup`` and ``input`` raise the real
  library's ``RuntimeError: No access to /dev/mem.  Try running as root!``.

Recorded for assertions (pins are always *header* pins, whatever the numbering mode):
* ``history``: ``(seq, pin, what, value)`` tuples (what: setup, output, pwm_start, pwm_duty,
  pwm_frequency, pwm_stop, cleanup);
* ``level(pin)``, ``states(pin)`` (levels over time), ``is_setup(pin)``, ``pwm_running(pin)``;
* ``calls``: every API call name with its arguments;
* ``violations``: things the real library allows but that are bugs in our setting: a bare
  ``cleanup()`` while another owner's pins are set up, cleaning up a pin whose PWM still runs.

Like software PWM, a stopped ``PWM`` may leave its pin *high* (the fake always does if the duty cycle
was above zero), so code must drive the pin low itself after ``stop()``.
"""

from __future__ import annotations

import itertools
import threading
import types
import warnings
from collections.abc import Callable

BOARD, BCM = 10, 11
OUT, IN = 0, 1
LOW, HIGH = 0, 1
PUD_OFF, PUD_DOWN, PUD_UP = 20, 21, 22
RISING, FALLING, BOTH = 31, 32, 33
HARD_PWM, SERIAL, I2C, SPI, UNKNOWN = 43, 40, 42, 41, -1

BOARD_TO_BCM = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10,
    21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19,
    36: 16, 37: 26, 38: 20, 40: 21,
}
BCM_TO_BOARD = {bcm: board for board, bcm in BOARD_TO_BCM.items()}

_NO_ACCESS_MSG = "No access to /dev/mem.  Try running as root!"
_MODE_MSG = "Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or GPIO.setmode(GPIO.BCM)"


class FakeGPIO:
    """The state behind one fake ``RPi.GPIO`` module (see ``module()``)."""

    def __init__(self) -> None:
        self.mode: int | None = None
        self.warnings = True
        self.direction: dict[int, int] = {}  # header pin -> IN/OUT, only while set up
        self.levels: dict[int, int] = {}  # header pin -> output level (or input level)
        self.inputs: dict[int, int] = {}  # header pin -> level applied from outside
        self.pulls: dict[int, int] = {}
        self.pwms: dict[int, FakePWM] = {}
        self.history: list[tuple[int, int, str, object]] = []
        self.calls: list[tuple] = []
        self.violations: list[str] = []
        self.foreign: set[int] = set()  # pins set up by "other code" (see claim_foreign)
        self.no_access = False  # True: /dev/gpiomem cannot be opened (RuntimeError, as the real library)
        self._watchers: dict[int, list[Callable[[int, int], None]]] = {}
        self._seq = itertools.count()
        self._lock = threading.RLock()
        self.module = self._make_module()

    # -- the module ------------------------------------------------------------------------------
    def _make_module(self) -> types.ModuleType:
        module = types.ModuleType("RPi.GPIO")
        constants = {"BOARD": BOARD, "BCM": BCM, "OUT": OUT, "IN": IN, "LOW": LOW, "HIGH": HIGH,
                     "PUD_OFF": PUD_OFF, "PUD_DOWN": PUD_DOWN, "PUD_UP": PUD_UP, "RISING": RISING,
                     "FALLING": FALLING, "BOTH": BOTH, "HARD_PWM": HARD_PWM, "SERIAL": SERIAL,
                     "I2C": I2C, "SPI": SPI, "UNKNOWN": UNKNOWN, "VERSION": "0.7.1-fake",
                     "RPI_INFO": {"P1_REVISION": 3, "TYPE": "Pi 4 Model B"}}
        for name, value in constants.items():
            setattr(module, name, value)
        for name in ("setmode", "getmode", "setwarnings", "setup", "output", "input", "cleanup",
                     "gpio_function", "add_event_detect", "remove_event_detect", "event_detected"):
            setattr(module, name, getattr(self, name))
        state = self

        class PWM(FakePWM):
            def __init__(self, channel, frequency):
                super().__init__(state, channel, frequency)

        module.PWM = PWM
        module.FAKE = self
        return module

    def package(self) -> types.ModuleType:
        """A fake ``RPi`` package whose ``GPIO`` attribute is the fake module."""
        package = types.ModuleType("RPi")
        package.__path__ = []
        package.GPIO = self.module
        return package

    # -- helpers ---------------------------------------------------------------------------------
    def _record(self, pin: int, what: str, value: object = None) -> None:
        self.history.append((next(self._seq), pin, what, value))

    def _need_mode(self) -> None:
        if self.mode is None:
            raise RuntimeError(_MODE_MSG)

    def _need_access(self) -> None:
        if self.no_access:
            raise RuntimeError(_NO_ACCESS_MSG)

    def _pin(self, channel) -> int:
        """Header pin of a channel in the current mode (ValueError like the real library)."""
        self._need_mode()
        if isinstance(channel, bool) or not isinstance(channel, int):
            raise ValueError("Channel must be an integer or list/tuple of integers")
        pin = channel if self.mode == BOARD else BCM_TO_BOARD.get(channel)
        if pin not in BOARD_TO_BCM:
            raise ValueError("The channel sent is invalid on a Raspberry Pi")
        return pin

    @staticmethod
    def _channels(channel) -> list:
        return list(channel) if isinstance(channel, (list, tuple)) else [channel]

    def _set_level(self, pin: int, level: int) -> None:
        old = self.levels.get(pin)
        self.levels[pin] = level
        for watcher in self._watchers.get(pin, []):
            watcher(old if old is not None else 0, level)

    # -- RPi.GPIO API ----------------------------------------------------------------------------
    def setmode(self, mode) -> None:
        with self._lock:
            self.calls.append(("setmode", mode))
            if mode not in (BOARD, BCM):
                raise ValueError("An invalid mode was passed to setmode()")
            if self.mode is not None and self.mode != mode:
                raise ValueError("A different mode has already been set!")
            self.mode = mode

    def getmode(self):
        self.calls.append(("getmode",))
        return self.mode

    def setwarnings(self, flag) -> None:
        self.calls.append(("setwarnings", flag))
        self.warnings = bool(flag)

    def setup(self, channel, direction, pull_up_down=PUD_OFF, initial=-1) -> None:
        with self._lock:
            self.calls.append(("setup", channel, direction, pull_up_down, initial))
            self._need_mode()
            self._need_access()
            if direction not in (IN, OUT):
                raise ValueError("An invalid direction was passed to setup()")
            if direction == OUT and pull_up_down != PUD_OFF:
                raise ValueError("pull_up_down parameter is not valid for outputs")
            if pull_up_down not in (PUD_OFF, PUD_UP, PUD_DOWN):
                raise ValueError("Invalid value for pull_up_down - should be either PUD_OFF, PUD_UP or PUD_DOWN")
            if direction == IN and initial != -1:
                raise ValueError("initial parameter is not valid for inputs")
            for ch in self._channels(channel):
                pin = self._pin(ch)
                if pin in self.foreign and pin not in self.direction and self.warnings:
                    warnings.warn("This channel is already in use, continuing anyway.  Use "
                                  "GPIO.setwarnings(False) to disable warnings.", RuntimeWarning, stacklevel=2)
                self.direction[pin] = direction
                self.pulls[pin] = pull_up_down
                self._record(pin, "setup", "out" if direction == OUT else "in")
                if direction == OUT:
                    self._set_level(pin, HIGH if initial == HIGH else LOW)
                    self._record(pin, "output", self.levels[pin])
                else:
                    self.levels[pin] = self._input_level(pin)

    def _input_level(self, pin: int) -> int:
        if pin in self.inputs:
            return self.inputs[pin]
        return HIGH if self.pulls.get(pin) == PUD_UP else LOW

    def output(self, channel, value) -> None:
        with self._lock:
            self.calls.append(("output", channel, value))
            self._need_mode()
            channels = self._channels(channel)
            values = self._channels(value) if isinstance(value, (list, tuple)) else [value] * len(channels)
            if len(values) != len(channels):
                raise RuntimeError("Number of channels != number of values")
            for ch, val in zip(channels, values, strict=True):
                pin = self._pin(ch)
                if self.direction.get(pin) != OUT:
                    raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
                if val not in (0, 1, True, False):
                    raise ValueError("Invalid output state")
                self._set_level(pin, int(val))
                self._record(pin, "output", int(val))

    def input(self, channel) -> int:
        with self._lock:
            self.calls.append(("input", channel))
            self._need_access()
            pin = self._pin(channel)
            if pin not in self.direction:
                raise RuntimeError("You must setup() the GPIO channel first")
            if self.direction[pin] == OUT:
                return self.levels.get(pin, LOW)
            return self._input_level(pin)

    def cleanup(self, channel=None) -> None:
        with self._lock:
            self.calls.append(("cleanup", channel))
            if channel is None:
                owned_elsewhere = self.foreign & set(self.direction)
                if owned_elsewhere:
                    self.violations.append(
                        f"bare GPIO.cleanup() reset other code's pins {sorted(owned_elsewhere)}")
                pins = list(self.direction)
            else:
                pins = [self._pin(ch) for ch in self._channels(channel)]
            found = False
            for pin in pins:
                pwm = self.pwms.get(pin)
                if pwm is not None and pwm.running:
                    self.violations.append(f"pin {pin} cleaned up while its PWM was running")
                if pin in self.direction:
                    found = True
                    del self.direction[pin]
                    self.foreign.discard(pin)
                    self.pwms.pop(pin, None)
                    self._set_level(pin, self._input_level(pin))
                    self._record(pin, "cleanup", None)
            if channel is None:
                self.mode = None
            if not found and self.warnings:
                warnings.warn("No channels have been set up yet - nothing to clean up!  Try "
                              "cleaning up at the end of your program instead!", RuntimeWarning, stacklevel=2)

    def gpio_function(self, channel) -> int:
        pin = self._pin(channel)
        return {OUT: OUT, IN: IN}.get(self.direction.get(pin, IN), IN)

    def add_event_detect(self, channel, edge, callback=None, bouncetime=None) -> None:
        pin = self._pin(channel)
        self.calls.append(("add_event_detect", channel, edge, bouncetime))
        if self.direction.get(pin) != IN:
            raise RuntimeError("You must setup() the GPIO channel as an input first")
        if edge not in (RISING, FALLING, BOTH):
            raise ValueError("The edge must be set to RISING, FALLING or BOTH")

    def remove_event_detect(self, channel) -> None:
        self.calls.append(("remove_event_detect", channel))
        self._pin(channel)

    def event_detected(self, channel) -> bool:
        self._pin(channel)
        return False  # edges are not emulated: hal polls levels

    # -- test controls and queries ---------------------------------------------------------------
    def set_input(self, pin: int, level: int) -> None:
        """Apply a level from outside to a header pin (a button, a wire)."""
        with self._lock:
            self.inputs[pin] = int(level)
            if self.direction.get(pin) == IN:
                self.levels[pin] = int(level)

    def claim_foreign(self, pin: int, direction: int = OUT) -> None:
        """Pretend other code in the process set up ``pin`` (a bare cleanup() would hurt it)."""
        with self._lock:
            self.direction[pin] = direction
            self.levels[pin] = HIGH
            self.foreign.add(pin)

    def watch(self, pin: int, callback: Callable[[int, int], None]) -> None:
        """Call ``callback(old_level, new_level)`` whenever our code drives ``pin``."""
        self._watchers.setdefault(pin, []).append(callback)

    def level(self, pin: int) -> int | None:
        return self.levels.get(pin)

    def is_setup(self, pin: int) -> bool:
        return pin in self.direction

    def pwm_running(self, pin: int) -> bool:
        pwm = self.pwms.get(pin)
        return pwm is not None and pwm.running

    def states(self, pin: int) -> list:
        """Levels driven on ``pin`` over time: 0, 1 or ("pwm", frequency, duty)."""
        result = []
        for _, p, what, value in self.history:
            if p != pin:
                continue
            if what == "output":
                result.append(value)
            elif what in ("pwm_start", "pwm_duty", "pwm_frequency"):
                result.append(("pwm",) + tuple(value))
        return result

    def events(self, pin: int | None = None) -> list[tuple[int, str, object]]:
        """``(pin, what, value)`` history, optionally of one pin."""
        return [(p, what, value) for _, p, what, value in self.history if pin is None or p == pin]

    def cleaned_pins(self) -> list[int]:
        return [p for _, p, what, _ in self.history if what == "cleanup"]


class FakePWM:
    """Software PWM on one output channel, as ``RPi.GPIO.PWM``."""

    def __init__(self, state: FakeGPIO, channel, frequency) -> None:
        with state._lock:
            state.calls.append(("PWM", channel, frequency))
            pin = state._pin(channel)
            if state.direction.get(pin) != OUT:
                raise RuntimeError("You must setup() the GPIO channel as an output first")
            if frequency <= 0.0:
                raise ValueError("frequency must be greater than 0.0")
            if pin in state.pwms:
                raise RuntimeError("A PWM object already exists for this GPIO channel")
            self._state, self.pin, self.frequency = state, pin, float(frequency)
            self.duty = 0.0
            self.running = False
            state.pwms[pin] = self

    def _check_duty(self, duty) -> float:
        if not 0.0 <= duty <= 100.0:
            raise ValueError("dutycycle must have a value from 0.0 to 100.0")
        return float(duty)

    def start(self, dutycycle) -> None:
        with self._state._lock:
            self.duty = self._check_duty(dutycycle)
            self.running = True
            self._state._record(self.pin, "pwm_start", (self.frequency, self.duty))

    def ChangeDutyCycle(self, dutycycle) -> None:
        with self._state._lock:
            self.duty = self._check_duty(dutycycle)
            self._state._record(self.pin, "pwm_duty", (self.frequency, self.duty))

    def ChangeFrequency(self, frequency) -> None:
        with self._state._lock:
            if frequency <= 0.0:
                raise ValueError("frequency must be greater than 0.0")
            self.frequency = float(frequency)
            if self.running:
                self._state._record(self.pin, "pwm_frequency", (self.frequency, self.duty))

    def stop(self) -> None:
        with self._state._lock:
            if not self.running:
                return
            self.running = False
            self._state._record(self.pin, "pwm_stop", None)
            if self.duty > 0 and self.pin in self._state.direction:
                # Software PWM stops wherever its waveform was: assume the worst, high.
                self._state._set_level(self.pin, HIGH)
                self._state._record(self.pin, "output", HIGH)

    def __del__(self):
        try:
            if self.running:
                self.stop()
            if self._state.pwms.get(self.pin) is self:
                del self._state.pwms[self.pin]
        except Exception:
            pass
