"""Buttons on GPIO header pins, through RPi.GPIO's API (rpi-lgpio on a Raspberry Pi 5).

Registry name ``"gpio"``. Each button connects its pin to ground when pressed (the internal pull-up
keeps it high otherwise); ``pull="down"`` serves buttons wired to 3.3 V instead. Levels are polled
(``GPIO.input``) and debounced by ``DebouncedButtons``; no edge-detection threads are started.
``close()`` releases only these pins (``GPIO.cleanup([pins])``).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from hal import rpi_gpio
from hal.buttons import DebouncedButtons
from hal.errors import HalConfigError, HalError
from hal.interfaces import Clock

__all__ = ["GpioButtons", "DEFAULT_BUTTON_PINS"]

#: Header pins (BOARD numbering) used when no ``pins`` are configured: confirm on 16, cancel on 18.
DEFAULT_BUTTON_PINS: dict[str, int] = {"confirm": 16, "cancel": 18}

_numbers = itertools.count(1)


class GpioButtons(DebouncedButtons):
    """Buttons on header pins.

    Args:
        pins: ``{name: header pin}`` in BOARD numbering, e.g. ``{"confirm": 16, "cancel": 18, "f1": 29}``.
        pull: "up" (default: pressed = low) or "down" (pressed = high).
        clock, debounce_s: as ``DebouncedButtons``.

    Raises:
        HalConfigError: bad names or pins, two buttons on one pin, a pin used by another part.
        BackendUnavailableError: RPi.GPIO / rpi-lgpio missing or unusable (the message names the fix).
        HalDeviceError: the GPIO library refused a pin (no access to /dev/gpiomem, pin busy...).
    """

    backend = "gpio"

    def __init__(self, *, pins: Mapping[str, int] | None = None, pull: str = "up",
                 clock: Clock | None = None, debounce_s: float = 0.03) -> None:
        pins = dict(DEFAULT_BUTTON_PINS if pins is None else pins)
        super().__init__(pins, clock=clock, debounce_s=debounce_s)
        if pull not in ("up", "down"):
            raise HalConfigError(f"pull={pull!r}: use 'up' (button to ground) or 'down' (button to 3.3 V)")
        board = {name: rpi_gpio.check_pin(f"pin of button {name!r}", pin) for name, pin in pins.items()}
        if len(set(board.values())) != len(board):
            raise HalConfigError(f"two buttons share a pin: {board}")
        self._gpio = rpi_gpio.import_gpio()
        self._owner = f"buttons #{next(_numbers)}"
        rpi_gpio.claim(self._owner, board.values(), label="buttons")
        self._pressed_level = 0 if pull == "up" else 1
        self._channels: dict[str, int] = {}
        try:
            to_channel = rpi_gpio.numbering(self._gpio)
            pud = self._gpio.PUD_UP if pull == "up" else self._gpio.PUD_DOWN
            for name, pin in board.items():
                channel = to_channel(pin)
                self._gpio.setup(channel, self._gpio.IN, pull_up_down=pud)
                self._channels[name] = channel
        except BaseException as exc:
            if self._channels:
                self._gpio.cleanup(list(self._channels.values()))
            rpi_gpio.release(self._owner)
            # RPi.GPIO's RuntimeError ("No access to /dev/mem"), lgpio.error...: our own error, with the fix.
            if isinstance(exc, Exception) and not isinstance(exc, HalError):
                raise rpi_gpio.device_error(exc, f"the buttons on header pins {sorted(board.values())}") from exc
            raise
        self.pins = board

    def _read_raw(self) -> dict[str, bool]:
        try:
            return {name: self._gpio.input(channel) == self._pressed_level
                    for name, channel in self._channels.items()}
        except Exception as exc:
            raise rpi_gpio.device_error(exc, "reading the buttons") from exc

    def _close(self) -> None:
        try:
            self._gpio.cleanup(list(self._channels.values()))
        finally:
            rpi_gpio.release(self._owner)
