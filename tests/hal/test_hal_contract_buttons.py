"""The buttons contract, run against the simulated and the GPIO buttons (on the fake RPi.GPIO)."""

from __future__ import annotations

import pytest

from hal.buttons import NullButtons, SimButtons
from hal.errors import HalConfigError, UnknownButtonError
from hal.gpio_buttons import GpioButtons
from hal.interfaces import ButtonPressed, ButtonReleased

PINS = {"confirm": 16, "cancel": 18, "f1": 29}


class SimHarness:
    def __init__(self, request, clock, pull="up"):
        self.buttons = SimButtons(tuple(PINS), clock=clock)

    def set(self, name, pressed):
        (self.buttons.press if pressed else self.buttons.release)(name)


class GpioHarness:
    def __init__(self, request, clock, pull="up"):
        self.gpio = request.getfixturevalue("fake_gpio")
        self.buttons = GpioButtons(pins=PINS, pull=pull, clock=clock)
        self.pressed_level = 0 if pull == "up" else 1

    def set(self, name, pressed):
        level = self.pressed_level if pressed else 1 - self.pressed_level
        self.gpio.set_input(PINS[name], level)


@pytest.fixture(params=["sim", "gpio-up", "gpio-down"])
def hw(request, fake_clock):
    kind, _, pull = request.param.partition("-")
    harness = (SimHarness if kind == "sim" else GpioHarness)(request, fake_clock, pull or "up")
    harness.clock = fake_clock
    yield harness
    harness.buttons.close()


def poll(hw, polls, step=0.01):
    events = []
    for _ in range(polls):
        events += hw.buttons.poll()
        hw.clock.advance(step)
    return events


def test_released_buttons_are_quiet(hw):
    assert poll(hw, 20) == []
    assert not hw.buttons.is_pressed("confirm")


def test_a_press_held_past_the_debounce_is_one_press(hw):
    hw.set("confirm", True)
    assert poll(hw, 20) == [ButtonPressed("confirm")]
    assert hw.buttons.is_pressed("confirm")
    hw.set("confirm", False)
    assert poll(hw, 20) == [ButtonReleased("confirm")]


def test_bounce_shorter_than_the_debounce_is_ignored(hw):
    events = []
    for pressed in (True, False, True, False, True, False):
        hw.set("cancel", pressed)
        events += poll(hw, 1)
    assert events + poll(hw, 10) == []


def test_bouncy_press_is_one_press(hw):
    events = []
    for pressed in (True, False, True, False, True):
        hw.set("f1", pressed)
        events += poll(hw, 1)
    events += poll(hw, 10)
    assert events == [ButtonPressed("f1")]


def test_events_carry_the_clock(hw):
    hw.set("confirm", True)
    (event,) = poll(hw, 10)
    assert 1000.0 + hw.buttons.debounce_s - 1e-9 <= event.at <= 1000.0 + hw.buttons.debounce_s + 0.011


def test_unknown_button(hw):
    with pytest.raises(UnknownButtonError, match="confirm, cancel, f1") as info:
        hw.buttons.is_pressed("jump")
    assert isinstance(info.value, LookupError)


def test_close_is_idempotent_and_quiet(hw):
    hw.buttons.close()
    hw.buttons.close()
    hw.set("confirm", True)
    assert hw.buttons.closed and poll(hw, 10) == []


# -- backend specifics ------------------------------------------------------------------------------


def test_sim_click_is_a_clean_press_and_release(sim_buttons):
    sim_buttons.click("confirm")
    sim_buttons.click("cancel")
    assert sim_buttons.poll() == [ButtonPressed("confirm"), ButtonReleased("confirm"),
                                  ButtonPressed("cancel"), ButtonReleased("cancel")]
    assert sim_buttons.poll() == []


def test_gpio_buttons_set_up_pull_ups_and_release_only_their_pins(fake_gpio, fake_clock):
    fake_gpio.claim_foreign(40)
    buttons = GpioButtons(pins=PINS, clock=fake_clock)
    assert {c[1]: c[3] for c in fake_gpio.calls if c[0] == "setup"} == {16: 22, 18: 22, 29: 22}
    buttons.close()
    cleanups = [c for c in fake_gpio.calls if c[0] == "cleanup"]
    assert cleanups == [("cleanup", [16, 18, 29])]
    assert fake_gpio.is_setup(40) and fake_gpio.violations == []


def test_gpio_default_pins(fake_gpio, fake_clock):
    buttons = GpioButtons(clock=fake_clock)
    assert buttons.names == ("confirm", "cancel") and buttons.pins == {"confirm": 16, "cancel": 18}
    buttons.close()


@pytest.mark.parametrize("options", [
    {"pins": {"confirm": 2}}, {"pins": {"confirm": 16, "cancel": 16}}, {"pins": {"": 16}},
    {"pull": "sideways"}, {"debounce_s": 2},
])
def test_gpio_bad_options(fake_gpio, fake_clock, options):
    with pytest.raises(HalConfigError):
        GpioButtons(clock=fake_clock, **options)
    assert not any(fake_gpio.is_setup(p) for p in (16, 18))


def test_null_buttons():
    buttons = NullButtons()
    assert buttons.names == () and buttons.poll() == []
    buttons.close()
