"""Banquier's hardware layer: card readers, beeper and buttons, real and simulated.

``hal`` turns hardware into events (a card was presented, a button was pressed) and commands (beep).
Importing it needs no Raspberry Pi library: vendor modules (RPi.GPIO or rpi-lgpio, spidev, mfrc522,
pyserial, evdev, adafruit_pn532, pyscard, pygame) are imported only by the backend that uses them, when it is loaded.

Typical composition root::

    import hal
    reader = hal.load_reader(config.reader, **config.reader_options)   # BANQUIER_READER overrides
    beeper = hal.load_beeper(config.beeper, **config.beeper_options)   # BANQUIER_BEEPER overrides
    buttons = hal.load_buttons(config.buttons, **config.buttons_options)
    hal.install_sigterm_handler(stop)
    try:
        while not stop.is_set():
            for event in reader.poll() + buttons.poll(): ...
    finally:
        hal.close_all()

Backends: reader "sim" | "mfrc522" | "serial" | "keyboard" | "pn532" | "pcsc" (each declared in its own module,
``hal.backends``); beeper "sim" | "gpio" | "none"; buttons "sim" |
"gpio" | "none". Pins are physical header numbers (BOARD numbering), see ``hal.rpi_gpio``.
"""

from hal.errors import (
    BackendUnavailableError,
    HalConfigError,
    HalDeviceError,
    HalError,
    InvalidUidError,
    UnknownBackendError,
    UnknownButtonError,
    UnknownPatternError,
)
from hal.interfaces import (
    BEEP_PATTERNS,
    BUTTON_NAMES,
    Beeper,
    ButtonEvent,
    ButtonPressed,
    ButtonReleased,
    Buttons,
    CardEvent,
    CardPresented,
    CardReader,
    CardRemoved,
    Clock,
    Device,
    HalEvent,
    ReaderBack,
    ReaderLost,
)
from hal.lifecycle import close_all, install_sigterm_handler, wait_for_card
from hal.registry import ENV_VARS, backends, load_beeper, load_buttons, load_reader, register
from hal.uid import normalize_uid

__all__ = [
    # errors
    "HalError", "UnknownBackendError", "UnknownPatternError", "UnknownButtonError", "HalConfigError",
    "InvalidUidError", "BackendUnavailableError", "HalDeviceError",
    # events and interfaces
    "HalEvent", "CardEvent", "CardPresented", "CardRemoved", "ReaderLost", "ReaderBack",
    "ButtonEvent", "ButtonPressed", "ButtonReleased", "Device", "CardReader", "Beeper", "Buttons",
    "Clock", "BEEP_PATTERNS", "BUTTON_NAMES",
    # loading and lifecycle
    "load_reader", "load_beeper", "load_buttons", "register", "backends", "ENV_VARS",
    "close_all", "install_sigterm_handler", "wait_for_card",
    # UIDs
    "normalize_uid",
]
