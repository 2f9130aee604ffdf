"""A buzzer on a GPIO pin, through RPi.GPIO's API (or rpi-lgpio's, on a Raspberry Pi 5).

Registry name ``"gpio"``. Two kinds of buzzer (field-notes 12):

* ``kind="active"``: has its own oscillator and sounds while its pin is high; only on/off, so volume is
  on/off and the pattern's rhythm is what tells them apart.
* ``kind="passive"``: only clicks unless driven with a square wave: a software PWM at each tone's
  frequency (or at ``frequency_hz`` for every tone, e.g. the buzzer's resonance) with a duty cycle of
  ``50 % x volume``.

The pin is driven by the one worker thread of ``ThreadedBeeper``; after every pattern, even one cut
short by ``stop()``, an exception or ``close()``, PWM is stopped and the pin driven to its silent level
(low, or high with ``active_low=True``). ``close()`` releases only this pin (``GPIO.cleanup(pin)``).
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Callable

from hal import rpi_gpio
from hal.beeper_base import ThreadedBeeper
from hal.errors import HalConfigError, HalError
from hal.interfaces import Clock
from hal.presence import check_range

__all__ = ["GpioBeeper"]

log = logging.getLogger(__name__)
_numbers = itertools.count(1)


class GpioBeeper(ThreadedBeeper):
    """A buzzer on one header pin.

    Args:
        pin: physical header pin (BOARD numbering, as the mfrc522 package uses); default 12 (GPIO18).
        kind: "passive" (default; PWM tones) or "active" (on/off).
        frequency_hz: passive only: play every tone at this frequency, 100..10000 Hz; None (default)
            plays each pattern's own tones.
        active_low: True for buzzer modules that sound when the pin is low (then silent = high).
        volume: 0.0..1.0 (passive: PWM duty 0..50 %; active: 0 = silent, otherwise on).
        clock, wait: see ``ThreadedBeeper``.

    Raises:
        HalConfigError: bad pin, kind, frequency or volume, or the pin already used by another part.
        BackendUnavailableError: RPi.GPIO / rpi-lgpio missing or unusable here (message names the fix).
        HalDeviceError: the GPIO library refused the pin (no access to /dev/gpiomem, pin busy...).
    """

    backend = "gpio"

    def __init__(self, *, pin: int = 12, kind: str = "passive", frequency_hz: float | None = None,
                 active_low: bool = False, volume: float = 1.0, clock: Clock | None = None,
                 wait: Callable[[float], bool] | None = None) -> None:
        super().__init__(volume=volume, clock=clock, wait=wait)
        self._pin = rpi_gpio.check_pin("beeper pin", pin)
        if kind not in ("active", "passive"):
            raise HalConfigError(f"beeper kind={kind!r}: use 'active' (on/off) or 'passive' (PWM)")
        self._kind = kind
        self._fixed_hz = None if frequency_hz is None else check_range(
            "frequency_hz", frequency_hz, 100, 10000, unit="Hz")
        self._on_level = 0 if active_low else 1
        self._gpio = rpi_gpio.import_gpio()
        self._owner = f"beeper #{next(_numbers)}"
        rpi_gpio.claim(self._owner, [self._pin], label="beeper")
        self._hw_lock = threading.Lock()
        self._pwm: rpi_gpio.Pwm | None = None
        self._pwm_running = False
        try:
            self._channel = rpi_gpio.numbering(self._gpio)(self._pin)
            self._gpio.setup(self._channel, self._gpio.OUT, initial=1 - self._on_level)
            if kind == "passive":
                self._pwm = self._gpio.PWM(self._channel, self._fixed_hz or 2000)
        except HalError:
            rpi_gpio.release(self._owner)
            raise
        except Exception as exc:  # RPi.GPIO's RuntimeError ("No access to /dev/mem"), lgpio.error...
            rpi_gpio.release(self._owner)
            raise rpi_gpio.device_error(exc, f"the beeper on header pin {self._pin}") from exc
        except BaseException:
            rpi_gpio.release(self._owner)
            raise

    @property
    def pin(self) -> int:
        """The header pin (BOARD numbering)."""
        return self._pin

    @property
    def kind(self) -> str:
        return self._kind

    @property
    def supports_volume(self) -> bool:
        return self._kind == "passive"

    # -- ThreadedBeeper hooks ----------------------------------------------------------------------
    def _sound(self, frequency_hz: int, volume: float) -> None:
        with self._hw_lock:
            if self._kind == "active":
                self._gpio.output(self._channel, self._on_level)
                return
            pwm = self._pwm
            if pwm is None:  # released by close(): nothing sounds any more
                return
            duty = 50.0 * volume
            pwm.ChangeFrequency(self._fixed_hz or frequency_hz)
            if self._pwm_running:
                pwm.ChangeDutyCycle(duty)
            else:
                pwm.start(duty)
                self._pwm_running = True

    def _silence(self) -> None:
        with self._hw_lock:
            if self._pwm is not None and self._pwm_running:
                self._pwm_running = False
                self._pwm.stop()
            # Software PWM may stop with the pin high: always drive the silent level afterwards.
            self._gpio.output(self._channel, 1 - self._on_level)

    def _release(self) -> None:
        with self._hw_lock:
            if self._pwm is not None:
                if self._pwm_running:
                    self._pwm.stop()
                    self._pwm_running = False
                self._pwm = None
            try:
                self._gpio.output(self._channel, 1 - self._on_level)
            finally:
                self._gpio.cleanup(self._channel)
                rpi_gpio.release(self._owner)
