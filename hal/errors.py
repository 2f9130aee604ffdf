"""The hardware layer's exceptions: one root, each subclass also a matching builtin.

Every message says what was refused and what to do instead, in one line, so that a hobbyist reading
``journalctl -u banquier`` knows the fix without reading code.

    HalError                      root of everything raised by ``hal``
    ├── UnknownBackendError       LookupError: no backend of that name
    ├── UnknownPatternError       LookupError: no beep pattern of that name
    ├── UnknownButtonError        LookupError: no button of that name
    ├── HalConfigError            ValueError: a configuration value is out of range or inconsistent
    ├── InvalidUidError           ValueError: text that is not a 4, 5, 7 or 10 byte UID in hex
    ├── BackendUnavailableError   ImportError: a vendor library is missing or cannot run on this machine
    └── HalDeviceError            OSError: the device is missing, not enabled, not permitted or silent
"""

from __future__ import annotations

__all__ = [
    "HalError",
    "UnknownBackendError",
    "UnknownPatternError",
    "UnknownButtonError",
    "HalConfigError",
    "InvalidUidError",
    "BackendUnavailableError",
    "HalDeviceError",
]


class HalError(Exception):
    """Root of every exception raised by the ``hal`` package."""


class UnknownBackendError(HalError, LookupError):
    """A backend name that is not registered (message lists the known names)."""

    def __str__(self) -> str:  # LookupError would otherwise repr() a single argument
        return str(self.args[0]) if self.args else ""


class UnknownPatternError(HalError, LookupError):
    """A beep pattern name that does not exist (message lists the known names)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class UnknownButtonError(HalError, LookupError):
    """A button name that is not configured (message lists the configured names)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class HalConfigError(HalError, ValueError):
    """A configuration value out of range, of the wrong type or clashing with another one."""


class InvalidUidError(HalError, ValueError):
    """Text that is not a card UID (hex of 4, 5, 7 or 10 bytes, separators allowed)."""


class BackendUnavailableError(HalError, ImportError):
    """A backend's vendor library is not installed or cannot run on this machine."""


class HalDeviceError(HalError, OSError):
    """A device that is missing, not enabled, not permitted, or does not answer.

    Raised with a single message argument, so ``str(error)`` is exactly that line.
    """
