"""A missing part never stops the terminal (issue 15, point 1).

- Each vendor library's own failure (RPi.GPIO's ``RuntimeError: No access to /dev/mem``, pygame's
  ``kmsdrm not available``, rpi-lgpio's ``lgpio.error``...) comes out of the backend as the backend's own
  error, with the fix, and the pins it took are released.
- ``banquier run`` with a working screen and a missing reader/beeper/buttons keeps running, draws each problem
  with its fix over the message band, and starts the part as soon as it works.
- With no screen: one line on stderr (the journal), a wait for a screen that appears late, exit 3 otherwise.
"""
from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

import hal
from hal import rpi_gpio
from hal.errors import HalDeviceError
from host_ui import device
from host_ui.shell.config import load_config
from tests.conftest import ROOT
from tests.fakes.clock import FakeClock


# ------------------------------------------------------------------------------ vendor errors wrapped
def test_beeper_without_gpio_access_raises_its_own_error_with_the_fix(fake_gpio):
    from hal.gpio_beeper import GpioBeeper
    fake_gpio.no_access = True
    with pytest.raises(HalDeviceError) as caught:
        GpioBeeper(pin=12)
    message = str(caught.value)
    assert "header pin 12" in message and "No access to /dev/mem" in message
    assert "usermod -aG gpio" in message
    assert isinstance(caught.value.__cause__, RuntimeError)
    assert rpi_gpio.claimed() == {}  # the pin is free for the next try


def test_buttons_without_gpio_access_raise_their_own_error(fake_gpio):
    from hal.gpio_buttons import GpioButtons
    fake_gpio.no_access = True
    with pytest.raises(HalDeviceError, match="usermod -aG gpio"):
        GpioButtons(pins={"confirm": 16})
    assert rpi_gpio.claimed() == {}


def test_buttons_losing_gpio_access_while_running_raise_their_own_error(fake_gpio, fake_clock):
    from hal.gpio_buttons import GpioButtons
    buttons = GpioButtons(pins={"confirm": 16}, clock=fake_clock)
    try:
        fake_gpio.no_access = True
        with pytest.raises(HalDeviceError, match="reading the buttons"):
            buttons.poll()
    finally:
        fake_gpio.no_access = False
        buttons.close()


def test_reader_without_gpio_access_raises_its_own_error(fake_mfrc522, fake_clock):
    """The mfrc522 package sets the reset pin up in its constructor: RPi.GPIO's RuntimeError came out raw."""
    from hal.mfrc522_reader import Mfrc522Reader
    fake_mfrc522.gpio.no_access = True
    with pytest.raises(HalDeviceError) as caught:
        Mfrc522Reader(clock=fake_clock, wait=fake_mfrc522.advance)
    assert "reset pin 22" in str(caught.value) and "usermod -aG gpio" in str(caught.value)
    assert rpi_gpio.claimed() == {}


def test_a_gpio_library_failing_on_import_with_its_own_error_type(monkeypatch):
    class LgpioError(Exception):
        """lgpio.error: no /dev/gpiochip could be opened."""

    def broken(name):
        raise LgpioError("can not open gpiochip")

    monkeypatch.setattr(rpi_gpio.importlib, "import_module", broken)
    with pytest.raises(HalDeviceError, match=r"gpiochip.*usermod -aG gpio"):
        rpi_gpio.import_gpio()


def test_the_device_error_of_each_kind_of_gpio_failure():
    busy = rpi_gpio.device_error(OSError(16, "GPIO busy"), "the beeper on header pin 12")
    assert isinstance(busy, HalDeviceError) and "another program" in str(busy)
    other = rpi_gpio.device_error(ValueError("odd"), "the beeper")
    assert "banquier doctor" in str(other) and "ValueError: odd" in str(other)
    mine = HalDeviceError("already ours")
    assert rpi_gpio.device_error(mine, "x") is mine


def test_a_serial_port_refusing_a_setting_raises_its_own_error(fake_serial, monkeypatch):
    from hal.serial_reader import SerialReader
    fake_serial.add("/dev/ttyUSB0")

    def refuse(**kwargs):
        raise ValueError("Not a valid baudrate: 9600")

    monkeypatch.setattr(fake_serial.module, "Serial", refuse)
    with pytest.raises(HalDeviceError, match=r"cannot open /dev/ttyUSB0.*baudrate"):
        SerialReader(port="/dev/ttyUSB0")


def test_sdl_failing_to_open_kmsdrm_is_a_display_error_with_the_fix(monkeypatch, tmp_path):
    from host_ui.screen import display

    def no_kms():
        raise pygame.error("kmsdrm not available")

    monkeypatch.setattr(pygame.display, "get_init", lambda: False)
    monkeypatch.setattr(pygame.display, "init", no_kms)
    with pytest.raises(display.DisplayError) as caught:
        display.check_driver(on_device=True)
    assert "kmsdrm not available" in str(caught.value)
    assert isinstance(caught.value, OSError)
    # The fix depends on what /dev/dri holds.
    assert "dtoverlay=vc4-kms-v3d" in str(display.sdl_failure(pygame.error("x"), tmp_path))
    (tmp_path / "card0").write_text("")
    assert "another program holds the screen" in str(display.sdl_failure(pygame.error("x"), tmp_path))


# ------------------------------------------------------------------------------------------ parts
def test_a_part_is_tried_again_until_it_starts(caplog):
    clock = FakeClock()
    outcomes = [HalDeviceError("SPI is not enabled: fix it"), HalDeviceError("SPI is not enabled: fix it"), "chip"]

    def start():
        outcome = outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    with caplog.at_level(logging.WARNING, logger="banquier"):
        part = device.Part("card reader", start, clock=clock, retry_s=5)
        assert part.device is None and part.problem == "SPI is not enabled: fix it"
        assert not part.retry() and part.attempts == 1  # not due yet
        clock.advance(5)
        assert not part.retry() and part.attempts == 2
        clock.advance(5)
        assert part.retry() and part.device == "chip" and part.problem is None
    lines = [r.getMessage() for r in caplog.records]
    assert sum("not working" in line for line in lines) == 1  # the same problem is logged once
    assert any("working again" in line for line in lines)


def test_a_part_that_raises_anything_is_shown_not_fatal():
    part = device.Part("beeper", lambda: (_ for _ in ()).throw(RuntimeError("No access to /dev/mem")),
                       clock=FakeClock())
    assert part.problem == "RuntimeError: No access to /dev/mem"


def test_the_reader_part_reports_lost_once_then_back(fake_clock):
    from hal.interfaces import CardPresented, ReaderBack, ReaderLost

    class Chip:
        healthy, lost_reason = True, None

        def poll(self):
            return [CardPresented("04A1B2C3")]

        def close(self):
            pass

    working = []

    def start():
        if not working:
            raise HalDeviceError("SPI is not enabled (/dev/spidev0.0 is missing): enable it")
        return Chip()

    reader = device.PartReader(device.Part("card reader", start, clock=fake_clock, retry_s=5))
    assert reader.poll() == [ReaderLost("SPI is not enabled (/dev/spidev0.0 is missing): enable it")]
    assert reader.poll() == [] and reader.problem.startswith("SPI is not enabled")
    working.append(True)
    fake_clock.advance(5)
    assert reader.poll() == [ReaderBack(), CardPresented("04A1B2C3")]
    assert reader.problem is None


def test_the_beeper_part_is_silent_until_it_starts_and_keeps_the_mute(fake_clock):
    from hal.sim_beeper import SimBeeper
    working = []

    def start():
        if not working:
            raise HalDeviceError("the beeper on header pin 12 failed: add the user to the gpio group")
        return SimBeeper(audio=False, clock=fake_clock)

    beeper = device.PartBeeper(device.Part("beeper", start, clock=fake_clock, retry_s=5))
    assert beeper.play("accepted") is False and beeper.problem
    beeper.muted = True
    working.append(True)
    fake_clock.advance(5)
    assert beeper.play("accepted") is False  # started now, and muted as asked before
    assert beeper.part.device.muted and beeper.problem is None
    beeper.muted = False
    assert beeper.play("accepted") is True
    beeper.close()


def test_notices_are_drawn_over_the_message_band():
    pygame.display.init()
    pygame.font.init()
    from host_ui.screen import theme
    from host_ui.screen.render import message_height

    class Screen:
        window_size = (800, 480)

        def __init__(self):
            self.frames = []

        def show(self, surface, update=True):
            self.frames.append(surface.copy())

        def close(self):
            pass

    screen = Screen()
    notices: list[str] = []
    output = device.NoticeOutput(screen, lambda: list(notices))
    assert output.window_size == (800, 480)  # the rest of the output shows through
    frame = pygame.Surface((800, 480))
    frame.fill((1, 2, 3))
    output.show(frame)
    notices.append("card reader: SPI is not enabled: sudo raspi-config nonint do_spi 0, then sudo reboot")
    output.show(frame)
    band_y = 480 - message_height((800, 480)) + 2
    assert screen.frames[0].get_at((4, band_y))[:3] == (1, 2, 3)
    assert screen.frames[1].get_at((4, band_y))[:3] == theme.ERROR[:3]
    assert screen.frames[1].get_at((4, 10))[:3] == (1, 2, 3)  # nothing above the band is covered
    assert frame.get_at((4, band_y))[:3] == (1, 2, 3)  # the renderer's own frame is untouched
    assert output.shown == notices


# ------------------------------------------------------------------------------------ banquier run
def _config(tmp_path: Path, reader: str = "mfrc522", beeper: str = "gpio", buttons: str = "none",
            output: str = "kmsdrm"):
    path = tmp_path / "config.toml"
    path.write_text(f'[hardware.reader]\nbackend = "{reader}"\n[hardware.beeper]\nbackend = "{beeper}"\n'
                    f'[hardware.buttons]\nbackend = "{buttons}"\n[display]\noutput = "{output}"\n'
                    f'[storage]\ndata_dir = "{tmp_path / "data"}"\nkey_file = "{tmp_path / "device.key"}"\n')
    return load_config(path, {"HOME": str(tmp_path)}, on_device=True)


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_run_keeps_going_without_spi_and_gpio_and_shows_why(tmp_path, fake_gpio, mocker, caplog, monkeypatch):
    """No /dev/spidev0.0 and no access to the GPIO: before, exit 3 (or a RuntimeError traceback)."""
    from tests.fakes.fake_spidev import FakeSpiBus
    from tests.fakes.install import purge_mfrc522, vendor_modules
    mocker.patch.dict(sys.modules, vendor_modules(spi=FakeSpiBus({})))  # SPI not enabled: no device
    purge_mfrc522()
    fake_gpio.no_access = True
    shown: list[list[str]] = []
    real_show = device.NoticeOutput.show

    def spy(self, logical, update=True):
        real_show(self, logical, update)
        shown.append(list(self.shown))

    monkeypatch.setattr(device.NoticeOutput, "show", spy)
    monkeypatch.setattr(device, "setup_logging", lambda level: None)
    with caplog.at_level(logging.INFO, logger="banquier"):
        code = device.run_device(_config(tmp_path), headless=True, max_seconds=1.5)
    assert code == 0
    assert shown, "frames were drawn"
    last = shown[-1]
    assert any(n.startswith("card reader: ") and "raspi-config nonint do_spi 0" in n for n in last), last
    assert any(n.startswith("beeper: ") and "usermod -aG gpio" in n for n in last), last
    text = caplog.text
    assert "terminal running" in text and "stopped cleanly" in text
    assert text.count("card reader not working") == 1  # retried, logged once


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_run_starts_a_part_that_comes_back(tmp_path, monkeypatch, caplog):
    attempts = []
    real = hal.load_beeper

    def flaky(name, **options):
        attempts.append(name)
        if len(attempts) < 3:
            raise HalDeviceError("the beeper on header pin 12 failed: add the user to the gpio group")
        return real("sim", env={}, audio=False)

    monkeypatch.setattr(hal, "load_beeper", flaky)
    monkeypatch.setattr(device, "setup_logging", lambda level: None)
    with caplog.at_level(logging.INFO, logger="banquier"):
        code = device.run_device(_config(tmp_path, reader="sim", beeper="gpio"), headless=True, max_seconds=1.5,
                                 retry_s=0.2)
    assert code == 0 and len(attempts) >= 3
    assert "beeper is working again" in caplog.text


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_run_without_a_screen_logs_one_line_and_exits_3(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setattr(device, "DISPLAY_RETRY_S", 0.1)
    monkeypatch.setattr(device, "setup_logging", lambda level: None)
    tries = []
    real = device._open_output
    monkeypatch.setattr(device, "_open_output", lambda *a: tries.append(1) or real(*a))
    with caplog.at_level(logging.INFO, logger="banquier"):
        code = device.run_device(_config(tmp_path, reader="sim", beeper="sim"), display_wait_s=0.6)
    assert code == 3 and len(tries) >= 3
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "refuses to take payments blind" in errors[0], errors


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_run_waits_for_a_screen_that_appears_late(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(device, "DISPLAY_RETRY_S", 0.1)
    monkeypatch.setattr(device, "setup_logging", lambda level: None)
    from host_ui.screen.display import DisplayError
    real = device._open_output
    tries = []

    def late(*args):
        tries.append(1)
        if len(tries) < 3:
            raise DisplayError("SDL cannot open the screen (kmsdrm not available); no /dev/dri/card*")
        return real(*args)

    monkeypatch.setattr(device, "_open_output", late)
    with caplog.at_level(logging.INFO, logger="banquier"):
        code = device.run_device(_config(tmp_path, reader="sim", beeper="sim"), headless=True, max_seconds=3)
    assert code == 0 and len(tries) == 3
    assert "terminal running" in caplog.text


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_banquier_run_with_kmsdrm_unavailable_is_one_line_not_a_traceback(tmp_path):
    """`pygame.error: kmsdrm not available` used to end the start-up with a traceback and exit 1."""
    config = tmp_path / "config.toml"
    config.write_text('[hardware.reader]\nbackend = "sim"\n[hardware.beeper]\nbackend = "none"\n'
                      f'[display]\noutput = "kmsdrm"\n[storage]\ndata_dir = "{tmp_path / "data"}"\n'
                      f'key_file = "{tmp_path / "device.key"}"\n')
    env = {**os.environ, "SDL_VIDEODRIVER": "kmsdrm", "SDL_AUDIODRIVER": "dummy"}
    result = subprocess.run([sys.executable, "-m", "host_ui", "--config", str(config), "run", "--seconds", "1"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    if Path("/dev/dri").exists():
        pytest.fail("this test needs a machine without /dev/dri (no KMS display), as CI has")
    assert result.returncode == 3, result.stderr
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("ERROR")]
    assert len(lines) == 1 and "kmsdrm not available" in lines[0] and "vc4-kms-v3d" in lines[0], result.stderr


def test_buttons_failing_while_running_are_shown_and_started_again(fake_gpio, fake_clock):
    from hal.gpio_buttons import GpioButtons
    buttons = device.PartButtons(device.Part("buttons", lambda: GpioButtons(pins={"confirm": 16}, clock=fake_clock),
                                             clock=fake_clock, retry_s=5))
    assert buttons.poll() == [] and buttons.problem is None
    fake_gpio.no_access = True
    assert buttons.poll() == []  # no crash of the screen loop
    assert "usermod -aG gpio" in buttons.problem and buttons.part.device is None
    assert rpi_gpio.claimed() == {}  # closed: its pins are released
    fake_gpio.no_access = False
    fake_clock.advance(5)
    assert buttons.poll() == [] and buttons.problem is None and buttons.part.device is not None
    buttons.close()


def test_a_reader_that_does_not_answer_is_shown_and_found_when_it_answers(fake_mfrc522, fake_clock):
    """A loose wire at start-up: no chip answers, the terminal says so and keeps trying; fixed, it reads."""
    from hal.interfaces import ReaderBack, ReaderLost
    from hal.mfrc522_reader import Mfrc522Reader
    fake_mfrc522.disconnected = True
    reader = device.PartReader(device.Part(
        "card reader", lambda: Mfrc522Reader(clock=fake_clock, wait=fake_mfrc522.advance), clock=fake_clock,
        retry_s=5))
    events = reader.poll()
    assert len(events) == 1 and isinstance(events[0], ReaderLost)
    assert "no MFRC522 answers on /dev/spidev0.0" in reader.problem and "check the wiring" in reader.problem
    assert rpi_gpio.claimed() == {}  # its pins were released for the next try
    fake_mfrc522.disconnected = False
    fake_clock.advance(5)
    assert reader.poll()[:1] == [ReaderBack()] and reader.problem is None
    reader.close()


@pytest.mark.slow  # a headless run of the terminal: over 0.5 s
def test_a_touch_panel_stuck_at_a_corner_is_said_and_the_buttons_and_cards_keep_working(tmp_path, monkeypatch,
                                                                                         caplog):
    """Issue 22, point 11: a resistive panel's controller, uncalibrated or damaged, reports one corner over and
    over. It was not noticed: its phantom presses went on pressing whatever is drawn there."""
    from hal.buttons import SimButtons
    from hal.sim_reader import SimReader
    from host_ui.demo import BANKER_UID
    from host_ui.screen.app import TerminalApp

    buttons = SimButtons()
    reader = SimReader()
    monkeypatch.setattr(hal, "load_buttons", lambda name, **options: buttons)
    monkeypatch.setattr(hal, "load_reader", lambda name, **options: reader)
    shown: list[list[str]] = []
    real_show = device.NoticeOutput.show
    monkeypatch.setattr(device.NoticeOutput, "show",
                        lambda self, logical, update=True: (real_show(self, logical, update),
                                                            shown.append(list(self.shown))))
    monkeypatch.setattr(device, "setup_logging", lambda level: None)
    seen: dict[str, object] = {}
    real_step = TerminalApp.step
    turns = {"n": 0}
    screens: list[tuple[int, str]] = []

    def step(self, timeout_s=0.0):
        turns["n"] += 1
        seen["app"] = self
        if turns["n"] % 2 == 0 and turns["n"] < 40:  # the stuck controller: a press at the corner, again and again
            pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, x=1.0, y=1.0, touch_id=1, finger_id=0, dx=0,
                                                 dy=0, pressure=1))
            pygame.event.post(pygame.event.Event(pygame.FINGERUP, x=1.0, y=1.0, touch_id=1, finger_id=0, dx=0,
                                                 dy=0, pressure=0))
        if turns["n"] == 60:
            buttons.click("f3")  # a button: the history
        if turns["n"] == 90:
            self.terminal.cancel()  # back to the idle screen
        if turns["n"] == 100:
            reader.tap(BANKER_UID)  # a card: the banker's menu (its card is in the card set)
        real_step(self, min(timeout_s, 0.02))
        screens.append((turns["n"], self.terminal.view.screen))

    monkeypatch.setattr(TerminalApp, "step", step)
    config = _config(tmp_path, reader="sim", beeper="sim", buttons="sim")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "cards.txt").write_text(f"{BANKER_UID} = banker\n", encoding="utf-8")
    from host_ui.shell.device_key import load_or_create_key
    from host_ui.shell.manage import set_current
    from terminal.bank.game import Game
    game = Game.create(tmp_path / "data" / "games" / "sunday.db", "fr", ["Ann", "Bob"],
                       key=load_or_create_key(config.storage.key_file, data=tmp_path / "data"))
    game.close()
    set_current(tmp_path / "data", game.path)
    with caplog.at_level(logging.INFO, logger="banquier"):
        code = device.run_device(config, headless=True, max_seconds=4)
    assert code == 0
    app = seen["app"]
    assert any(any(n.startswith("touch panel: it reports every touch at its bottom-right corner") for n in frame)
               for frame in shown), shown[-3:]
    assert caplog.text.count("touch panel: it reports every touch") == 1  # one journal line
    assert app.touch_watch.problem is not None
    assert {screen for n, screen in screens if n < 60} == {"idle"}  # the phantom presses pressed nothing
    assert "history" in {screen for n, screen in screens if 60 <= n < 90}, screens  # the button worked
    assert "banker" in {screen for n, screen in screens if n >= 100}, screens  # and the card
