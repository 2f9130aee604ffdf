"""Backends by name: ``load_reader("mfrc522", bus=0)``, with an environment override.

The name comes from, in order: the environment (``BANQUIER_READER``, ``BANQUIER_BEEPER``,
``BANQUIER_BUTTONS``), the ``name`` argument (the configuration file), then the default: the simulator
on a PC; on a Raspberry Pi the MFRC522 reader, the GPIO beeper and no buttons. A backend that fails
to load raises its error (what to install, which command enables SPI, which group to join); there is
never a silent fallback to another backend (an unnoticed simulator would take no taps at the table).

Backends are imported only when loaded, so ``import hal`` needs no Raspberry Pi library. A card reader
backend declares itself in its own module (``BACKEND``, a :class:`hal.backends.ReaderBackend`); the modules
are listed once, in :data:`READER_MODULES`, and :func:`reader_backends` reads their declarations (a backend
module imports its vendor library only when a reader is made). Extra backends can be registered with
``register("reader", "name", "package.module:Class")`` (no options in the configuration then) or
``declare(ReaderBackend(...))``.
"""

from __future__ import annotations

import importlib
import inspect
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import cast

from hal import lifecycle
from hal.backends import ReaderBackend
from hal.errors import HalConfigError, UnknownBackendError
from hal.interfaces import Beeper, Buttons, CardReader, Device

__all__ = ["KINDS", "ENV_VARS", "READER_MODULES", "register", "declare", "reader_backends", "backends",
           "resolve_name", "is_raspberry_pi",
           "load_reader", "load_beeper", "load_buttons"]

KINDS = ("reader", "beeper", "buttons")

#: Environment variable that overrides each kind's backend name.
ENV_VARS = {"reader": "BANQUIER_READER", "beeper": "BANQUIER_BEEPER", "buttons": "BANQUIER_BUTTONS"}

#: A backend: its class, or any callable that makes the device from the configuration's options.
Factory = Callable[..., Device]

_BASES = {"reader": CardReader, "beeper": Beeper, "buttons": Buttons}

#: The modules that declare a card reader backend (each has ``BACKEND``), in the order they are shown.
READER_MODULES = ("hal.sim_reader", "hal.mfrc522_reader", "hal.serial_reader", "hal.evdev_reader",
                  "hal.pn532_reader", "hal.pcsc_reader")

_declared: dict[str, ReaderBackend] = {}

_registry: dict[str, dict[str, str | Factory]] = {
    "reader": {},
    "beeper": {
        "sim": "hal.sim_beeper:SimBeeper",
        "gpio": "hal.gpio_beeper:GpioBeeper",
        "none": "hal.beeper_base:NullBeeper",
    },
    "buttons": {
        "sim": "hal.buttons:SimButtons",
        "gpio": "hal.gpio_buttons:GpioButtons",
        "none": "hal.buttons:NullButtons",
    },
}

_DEVICE_DEFAULTS = {"reader": "mfrc522", "beeper": "gpio", "buttons": "none"}


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise UnknownBackendError(f"no device kind {kind!r}; use one of {', '.join(KINDS)}")
    if kind == "reader" and not _declared:
        for module in READER_MODULES:
            declare(importlib.import_module(module).BACKEND)


def declare(backend: ReaderBackend) -> None:
    """Add a reader backend from its declaration (its name, class, options...; see ``hal.backends``).

    Raises:
        HalConfigError: not a ``ReaderBackend``, or an empty name.
    """
    if not isinstance(backend, ReaderBackend):
        raise HalConfigError(f"{backend!r} is not a hal.backends.ReaderBackend")
    if not backend.name.strip():
        raise HalConfigError(f"backend name {backend.name!r}: use a short word")
    _declared[backend.name] = backend
    _registry["reader"][backend.name] = backend.target


def reader_backends() -> dict[str, ReaderBackend]:
    """The declared reader backends by name, in the order of :data:`READER_MODULES` (then those declared
    later). A backend only ``register``-ed has a declaration with no options."""
    _check_kind("reader")
    out = dict(_declared)
    for name, target in _registry["reader"].items():
        if name not in out:
            out[name] = ReaderBackend(name=name, target=target if isinstance(target, str) else "",
                                      summary="a reader registered by name")
    return out


def register(kind: str, name: str, target: str | Factory) -> None:
    """Register a backend: ``target`` is a class/factory or a ``"module:attribute"`` string.

    Raises:
        UnknownBackendError: unknown kind. HalConfigError: empty name.
    """
    _check_kind(kind)
    if not isinstance(name, str) or not name.strip():
        raise HalConfigError(f"backend name {name!r}: use a short word")
    _registry[kind][name] = target


def backends(kind: str) -> tuple[str, ...]:
    """Registered backend names of a kind, sorted."""
    _check_kind(kind)
    return tuple(sorted(_registry[kind]))


def is_raspberry_pi(model_file: str = "/proc/device-tree/model") -> bool:
    """True if the device tree says this machine is a Raspberry Pi."""
    try:
        return "raspberry pi" in Path(model_file).read_bytes().decode("ascii", "replace").lower()
    except OSError:
        return False


def resolve_name(kind: str, name: str | None = None, *, env: Mapping[str, str] | None = None,
                 on_device: bool | None = None) -> str:
    """The backend name to use: environment override, else ``name``, else the machine's default."""
    _check_kind(kind)
    env = os.environ if env is None else env
    override = env.get(ENV_VARS[kind], "").strip()
    if override:
        return override
    if name:
        return name
    device = is_raspberry_pi() if on_device is None else on_device
    return _DEVICE_DEFAULTS[kind] if device else "sim"


def _accepted_options(target: Factory) -> set[str]:
    """Keyword options a backend accepts, following ``**kwargs`` passed on to base classes."""
    functions: list[Callable[..., object]] = [vars(c)["__init__"] for c in inspect.getmro(target)
                                              if "__init__" in vars(c)] if inspect.isclass(target) else [target]
    names: set[str] = set()
    for function in functions:
        try:
            parameters = inspect.signature(function).parameters.values()
        except (TypeError, ValueError):
            continue
        names |= {p.name for p in parameters
                  if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "self"}
        if not any(p.kind is p.VAR_KEYWORD for p in parameters):
            break
    return names


def _load(kind: str, name: str | None, env: Mapping[str, str] | None, config: dict[str, object]) -> Device:
    """The device made by the chosen backend, checked to be an instance of ``_BASES[kind]``."""
    chosen = resolve_name(kind, name, env=env)
    try:
        target = _registry[kind][chosen]
    except KeyError:
        source = f" (from {ENV_VARS[kind]})" if (env if env is not None else os.environ).get(ENV_VARS[kind]) else ""
        raise UnknownBackendError(
            f"no {kind} backend {chosen!r}{source}; use one of: {', '.join(backends(kind))}"
        ) from None
    if isinstance(target, str):
        module_name, _, attribute = target.partition(":")
        factory: Factory = getattr(importlib.import_module(module_name), attribute)
    else:
        factory = target
    unknown = sorted(set(config) - _accepted_options(factory))
    if unknown:
        raise HalConfigError(
            f"{kind} backend {chosen!r} has no option {', '.join(unknown)}; its options are: "
            f"{', '.join(sorted(_accepted_options(factory))) or 'none'}"
        )
    device = factory(**config)
    if not isinstance(device, _BASES[kind]):
        raise HalConfigError(f"{kind} backend {chosen!r} made a {type(device).__name__}, "
                             f"not a {_BASES[kind].__name__}")
    lifecycle.track(device)
    return device


def load_reader(name: str | None = None, *, env: Mapping[str, str] | None = None,
                **config: object) -> CardReader:
    """Create the card reader backend ``name`` (see module docstring for the choice) with ``config``.

    ``config`` goes to the backend's constructor (e.g. ``port=...`` for "serial", ``bus=0`` for
    "mfrc522"). The device is tracked by ``hal.close_all()``.

    Raises:
        UnknownBackendError (LookupError), HalConfigError (ValueError), BackendUnavailableError
        (ImportError), HalDeviceError (OSError): each with a one-line fix.
    """
    return cast(CardReader, _load("reader", name, env, config))  # _load checked it is one


def load_beeper(name: str | None = None, *, env: Mapping[str, str] | None = None, **config: object) -> Beeper:
    """Create the beeper backend ``name`` ("sim", "gpio", "none"); errors as ``load_reader``."""
    return cast(Beeper, _load("beeper", name, env, config))  # _load checked it is one


def load_buttons(name: str | None = None, *, env: Mapping[str, str] | None = None,
                 **config: object) -> Buttons:
    """Create the buttons backend ``name`` ("sim", "gpio", "none"); errors as ``load_reader``."""
    return cast(Buttons, _load("buttons", name, env, config))  # _load checked it is one
