"""Choosing backends by name, the environment override, errors, and importing hal on a bare PC."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import hal
from hal import registry
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

ROOT = Path(__file__).resolve().parents[2]


def test_hal_imports_without_any_vendor_library():
    """In a fresh interpreter where RPi, spidev, mfrc522, serial, evdev, the PN532 library, pyscard and pygame
    cannot be imported."""
    script = textwrap.dedent("""
        import sys
        BLOCKED = ("RPi", "spidev", "mfrc522", "serial", "pygame", "evdev", "adafruit_pn532", "board", "busio",
                   "digitalio", "smartcard")
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in BLOCKED:
                    raise ImportError(f"{name} blocked by the test")
        sys.meta_path.insert(0, Block())
        import hal, hal.interfaces, hal.mfrc522_reader, hal.serial_reader, hal.gpio_beeper
        import hal.gpio_buttons, hal.sim_beeper, hal.sim_reader, hal.buttons, hal.registry
        import hal.evdev_reader, hal.pn532_reader, hal.pcsc_reader
        assert len(hal.registry.reader_backends()) == 6
        reader = hal.load_reader("sim"); beeper = hal.load_beeper("sim"); buttons = hal.load_buttons("sim")
        assert beeper.play("accepted") and not beeper.audio
        for name, kind in (("mfrc522", "reader"), ("gpio", "beeper"), ("gpio", "buttons")):
            try:
                getattr(hal, "load_" + kind)(name)
            except hal.BackendUnavailableError as e:
                print(kind, "->", e)
        try:
            hal.load_reader("serial", port="/dev/ttyUSB0")
        except hal.BackendUnavailableError as e:
            print("serial ->", e)
        for name, options in (("keyboard", {"device": "RFID"}), ("pn532", {}), ("pcsc", {})):
            try:
                hal.load_reader(name, env={}, **options)
            except hal.BackendUnavailableError as e:
                print(name, "->", e)
        print("vendor modules:", sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED))
    """)
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1] == "vendor modules: []"
    assert "reader -> RPi.GPIO is not installed: pip install rpi-lgpio on a Raspberry Pi 5" in lines[0]
    assert "serial -> pyserial is not installed: pip install pyserial" in lines[3]
    assert "keyboard -> python-evdev is not installed: pip install 'banquier[keyboard]'" in lines[4]
    assert "pn532 -> board is not installed: pip install 'banquier[pn532]' (Adafruit Blinka)" in lines[5]
    assert "pcsc -> pyscard is not installed: pip install 'banquier[pcsc]'" in lines[6]


def test_default_is_the_simulator_on_a_pc_and_hardware_on_a_pi():
    assert registry.resolve_name("reader", env={}, on_device=False) == "sim"
    assert registry.resolve_name("beeper", env={}, on_device=False) == "sim"
    assert registry.resolve_name("reader", env={}, on_device=True) == "mfrc522"
    assert registry.resolve_name("beeper", env={}, on_device=True) == "gpio"
    assert registry.resolve_name("buttons", env={}, on_device=True) == "none"


def test_environment_overrides_the_configuration():
    env = {"BANQUIER_READER": "sim", "BANQUIER_BEEPER": " none ", "BANQUIER_BUTTONS": ""}
    assert registry.resolve_name("reader", "mfrc522", env=env) == "sim"
    assert registry.resolve_name("beeper", "gpio", env=env) == "none"
    assert registry.resolve_name("buttons", "gpio", env=env) == "gpio"
    assert isinstance(hal.load_reader("mfrc522", env=env), hal.CardReader)


def test_unknown_backend_names_the_choices_and_the_variable():
    with pytest.raises(UnknownBackendError, match=r"no reader backend 'nfc9' \(from BANQUIER_READER\); "
                                                  r"use one of: keyboard, mfrc522, pcsc, pn532, serial, sim"):
        hal.load_reader("sim", env={"BANQUIER_READER": "nfc9"})
    with pytest.raises(LookupError):
        hal.load_beeper("trumpet", env={})


def test_no_silent_fallback_when_the_hardware_backend_fails(monkeypatch):
    monkeypatch.setenv("BANQUIER_READER", "mfrc522")
    with pytest.raises(BackendUnavailableError):  # RPi.GPIO cannot run on this PC
        hal.load_reader("sim")


def test_unknown_option_lists_the_options():
    with pytest.raises(HalConfigError, match=r"no option speed; its options are: .*spi_speed_hz"):
        hal.load_reader("mfrc522", env={}, speed=1)


def test_loaded_backends_with_options(fake_serial, fake_clock):
    fake_serial.add("/dev/ttyAMA0")
    reader = hal.load_reader("serial", env={}, port="/dev/ttyAMA0", protocol="lines", clock=fake_clock)
    assert reader.backend == "serial" and reader.port == "/dev/ttyAMA0"
    beeper = hal.load_beeper("none", env={})
    buttons = hal.load_buttons("sim", env={}, names=("confirm",), clock=fake_clock)
    assert buttons.names == ("confirm",) and beeper.play("success") is False
    assert hal.close_all() >= 3
    assert reader.closed and beeper.closed and buttons.closed
    assert hal.close_all() == 0


def test_register_a_backend():
    from hal.sim_reader import SimReader

    class TinyReader(SimReader):
        backend = "tiny"

    hal.register("reader", "tiny", TinyReader)
    try:
        assert "tiny" in hal.backends("reader")
        assert hal.load_reader("tiny", env={}).backend == "tiny"
        hal.register("reader", "broken", lambda: object())
        with pytest.raises(HalConfigError, match="not a CardReader"):
            hal.load_reader("broken", env={})
    finally:
        registry._registry["reader"].pop("tiny", None)
        registry._registry["reader"].pop("broken", None)
    with pytest.raises(UnknownBackendError):
        hal.register("printer", "x", TinyReader)


def test_is_raspberry_pi(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\x00")
    assert registry.is_raspberry_pi(str(model))
    model.write_bytes(b"QEMU Virtual Machine\x00")
    assert not registry.is_raspberry_pi(str(model))
    assert not registry.is_raspberry_pi(str(tmp_path / "absent"))


@pytest.mark.parametrize("error, builtin", [
    (UnknownBackendError, LookupError), (UnknownPatternError, LookupError),
    (UnknownButtonError, LookupError), (HalConfigError, ValueError), (InvalidUidError, ValueError),
    (BackendUnavailableError, ImportError), (HalDeviceError, OSError),
])
def test_every_error_has_one_root_and_a_builtin(error, builtin):
    assert issubclass(error, HalError) and issubclass(error, builtin)
    assert str(error("what was refused; what to do")) == "what was refused; what to do"


def test_the_readmes_configuration_keys_are_the_declared_options():
    """hal/README's list of configuration keys names, for each reader backend, exactly the options it declares
    (so a key the README lists is never refused as unknown, and none declared goes unlisted)."""
    import re
    text = (ROOT / "hal" / "README.md").read_text()
    section = text.split("## Options", 1)[1].split("Keyword arguments of", 1)[0]
    listed: dict[str, set[str]] = {}
    for item in re.split(r"\n\* ", "\n" + section.split("\n* ", 1)[1]):
        name, _, rest = item.partition(":")
        listed[name.strip("`* \n")] = set(re.findall(r"`([a-z_]+)`", rest))
    declared = {name: {o.key for o in backend.options} for name, backend in registry.reader_backends().items()}
    assert listed == declared
