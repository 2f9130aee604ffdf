"""RPi.GPIO for the GPIO backends: importing it with useful errors, one pin numbering, pin ownership.

Pin numbering. The ``mfrc522`` package calls ``GPIO.setmode(GPIO.BOARD)`` unless a mode is already set,
and RPi.GPIO refuses a second, different mode in one process (field-notes 8). So every pin in Banquier's
configuration is a *physical header pin number* (BOARD numbering, 1..40), which is also what the
package uses. ``numbering(GPIO)`` sets BOARD if nobody set a mode yet, and if some other code already
chose BCM it returns a translation so our pins still land on the right header pins.

Raspberry Pi 5. RPi.GPIO cannot drive a Pi 5 ("Cannot determine SOC peripheral base address").
``rpi-lgpio`` installs a module of the same name (``RPi.GPIO``) on top of lgpio with the same API, so
the same code runs; ``import_gpio`` says which package to install when the import fails.

Ownership. ``claim`` records which part of Banquier uses which header pin, so a beeper configured on
the reader's reset pin is refused at start-up with both names, and ``release`` lets each part clean up
only its own pins (``GPIO.cleanup(channels)``, never the bare ``GPIO.cleanup()``, field-notes 13).
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Callable, Iterable
from typing import Protocol, cast

from hal.advice import permission_fix
from hal.errors import BackendUnavailableError, HalConfigError, HalDeviceError, HalError

__all__ = [
    "Gpio",
    "Pwm",
    "BOARD_TO_BCM",
    "SPI0_PINS",
    "import_gpio",
    "device_error",
    "numbering",
    "check_pin",
    "claim",
    "release",
    "claimed",
    "forget_all",
]

#: Physical header pin -> BCM GPIO number, for the 40-pin header of every Pi since the B+.
BOARD_TO_BCM: dict[int, int] = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10,
    21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19,
    36: 16, 37: 26, 38: 20, 40: 21,
}

#: Header pins of SPI bus 0: MOSI 19, MISO 21, SCLK 23, CE0 24, CE1 26.
SPI0_PINS = {"MOSI": 19, "MISO": 21, "SCLK": 23, "CE0": 24, "CE1": 26}



class Pwm(Protocol):
    """A software PWM channel of ``RPi.GPIO`` (``GPIO.PWM(channel, frequency)``), as the beeper drives it."""

    def start(self, duty_cycle: float) -> None: ...

    def ChangeFrequency(self, frequency: float) -> None: ...

    def ChangeDutyCycle(self, duty_cycle: float) -> None: ...

    def stop(self) -> None: ...


class Gpio(Protocol):
    """The part of the ``RPi.GPIO`` module (or rpi-lgpio's) that Banquier uses. It ships no types, and it
    is imported by name at run time (``import_gpio``), so this is what the backends are checked against."""

    BOARD: int
    BCM: int
    OUT: int
    IN: int
    PUD_UP: int
    PUD_DOWN: int

    def getmode(self) -> int | None: ...

    def setmode(self, mode: int) -> None: ...

    def setup(self, channel: int, direction: int, *, initial: int = ..., pull_up_down: int = ...) -> None: ...

    def output(self, channel: int, value: int) -> None: ...

    def input(self, channel: int) -> int: ...

    def cleanup(self, channel: int | list[int] = ...) -> None: ...

    def PWM(self, channel: int, frequency: float) -> Pwm: ...


_PI5_HINT = (
    "on a Raspberry Pi 5 RPi.GPIO cannot work: run pip uninstall RPi.GPIO && pip install rpi-lgpio "
    "(same module name, same API)"
)


def import_gpio() -> Gpio:
    """Import ``RPi.GPIO`` (or rpi-lgpio, which has the same name) and return the module.

    Raises:
        BackendUnavailableError: not installed, not a Raspberry Pi, or a Pi 5 with RPi.GPIO; the
            message says what to install or which backend to use instead.
    """
    try:
        return cast(Gpio, importlib.import_module("RPi.GPIO"))  # untyped vendor module, used as a Gpio
    except ImportError as exc:
        raise BackendUnavailableError(
            "RPi.GPIO is not installed: pip install rpi-lgpio on a Raspberry Pi 5, pip install "
            "RPi.GPIO on earlier models (or pip install 'banquier[pi]')"
        ) from exc
    except RuntimeError as exc:
        text = str(exc)
        if "SOC peripheral base address" in text:
            raise BackendUnavailableError(f"RPi.GPIO failed ({text}): {_PI5_HINT}") from exc
        if "only be run on a Raspberry Pi" in text:
            raise BackendUnavailableError(
                "RPi.GPIO only runs on a Raspberry Pi; on a PC use the simulator: "
                "BANQUIER_READER=sim BANQUIER_BEEPER=sim BANQUIER_BUTTONS=sim"
            ) from exc
        raise BackendUnavailableError(f"RPi.GPIO failed to load ({text}); {_PI5_HINT}") from exc
    except Exception as exc:  # rpi-lgpio: lgpio.error when no /dev/gpiochip can be opened
        raise device_error(exc, "the GPIO library") from exc


#: The device RPi.GPIO opens (it falls back to /dev/mem, then says "No access to /dev/mem", whichever failed).
GPIOMEM = "/dev/gpiomem"


def device_error(exc: BaseException, what: str) -> HalError:
    """The vendor library's own failure while ``what`` (e.g. "the beeper on header pin 12") is set up or
    driven (RPi.GPIO's ``RuntimeError: No access to /dev/mem``, rpi-lgpio's ``lgpio.error: GPIO busy``...)
    as a :class:`HalDeviceError` whose message names the fix. A ``HalError`` is returned as it is."""
    if isinstance(exc, HalError):
        return exc
    text = " ".join(str(exc).split()) or type(exc).__name__
    low = text.lower()
    if "/dev/mem" in low and not os.path.exists(GPIOMEM):
        fix = ("this kernel has no /dev/gpiomem (not Raspberry Pi OS's kernel?), so RPi.GPIO cannot drive the pins: "
               "run sudo deploy/install.sh again (on such a kernel it installs rpi-lgpio, which uses /dev/gpiochip0)")
    elif "/dev/mem" in low or "gpiomem" in low or "gpiochip" in low or isinstance(exc, PermissionError):
        node = "/dev/gpiochip0" if "gpiochip" in low or not os.path.exists(GPIOMEM) else GPIOMEM
        fix = f"no access to the GPIO ({node}): {permission_fix(node, 'gpio', exc)}"
    elif "busy" in low or "already in use" in low:
        fix = "the pin is held by another program or a kernel driver (dtoverlay): free it or choose another pin"
    elif "soc peripheral base" in low:
        fix = _PI5_HINT
    else:
        fix = "run banquier doctor to check the GPIO library and the groups"
    return HalDeviceError(f"{what} failed ({type(exc).__name__}: {text}): {fix}")


def numbering(gpio: Gpio) -> Callable[[int], int]:
    """Make sure a pin numbering mode is set and return ``to_channel(board_pin) -> channel``.

    Sets BOARD when no mode is set (as the ``mfrc522`` package would). If another part of the program
    already chose BCM, the returned function translates header pins to BCM numbers.

    Raises:
        HalConfigError: the mode set by someone else is neither BOARD nor BCM.
    """
    mode = gpio.getmode()
    if mode is None:
        gpio.setmode(gpio.BOARD)
        mode = gpio.BOARD
    if mode == gpio.BOARD:
        return lambda pin: pin
    if mode == gpio.BCM:
        return lambda pin: BOARD_TO_BCM[pin]
    raise HalConfigError(f"GPIO numbering mode {mode!r} is neither BOARD nor BCM")


def check_pin(name: str, pin: object) -> int:
    """Return ``pin`` if it is a GPIO-capable header pin number (BOARD numbering).

    Raises:
        HalConfigError: not an integer, or a power/ground pin or outside 1..40 (message lists valid pins).
    """
    if isinstance(pin, bool) or not isinstance(pin, int) or pin not in BOARD_TO_BCM:
        raise HalConfigError(
            f"{name}={pin!r} is not a GPIO header pin; use a physical pin number (BOARD numbering) "
            f"from {sorted(BOARD_TO_BCM)}"
        )
    return pin


_claims: dict[int, tuple[str, str]] = {}
_claims_lock = threading.Lock()


def claim(owner: str, pins: Iterable[int], *, label: str | None = None) -> None:
    """Record that ``owner`` (a unique token) uses these header pins (all or none).

    ``label`` is how error messages name the owner ("card reader"); the owner token by default.

    Raises:
        HalConfigError: a pin already belongs to another owner (message names both).
    """
    pins = list(pins)
    label = label or owner
    with _claims_lock:
        for pin in pins:
            holder = _claims.get(pin)
            if holder is not None and holder[0] != owner:
                raise HalConfigError(
                    f"header pin {pin} is already used by the {holder[1]}; choose another pin for "
                    f"the {label}"
                )
        for pin in pins:
            _claims[pin] = (owner, label)


def release(owner: str) -> list[int]:
    """Forget ``owner``'s pins and return them."""
    with _claims_lock:
        pins = [pin for pin, holder in _claims.items() if holder[0] == owner]
        for pin in pins:
            del _claims[pin]
        return pins


def claimed() -> dict[int, str]:
    """A copy of the current pin -> owner label table."""
    with _claims_lock:
        return {pin: holder[1] for pin, holder in _claims.items()}


def forget_all() -> None:
    """Forget every claim (for tests, each of which starts with a fresh fake GPIO)."""
    with _claims_lock:
        _claims.clear()
