"""The beeper contract, run against every beeper backend, then what each one does on its hardware.

The GPIO beeper runs on the fake ``RPi.GPIO``, in both buzzer kinds; its worker's waits are replaced
by a function that records durations (or blocks, to prove the caller never does).
"""

from __future__ import annotations

import os
import threading
import time

import pytest

from hal.beeper_base import NullBeeper
from hal.errors import HalConfigError, UnknownPatternError
from hal.gpio_beeper import GpioBeeper
from hal.interfaces import BEEP_PATTERNS
from hal.patterns import PATTERNS, duration_of
from hal.sim_beeper import SimBeeper, render_pattern


class Gate:
    """A ``wait`` for the worker: records durations; can hold the worker until released."""

    def __init__(self, hold: bool = False):
        self.durations: list[float] = []
        self.open = threading.Event()
        if not hold:
            self.open.set()
        self.entered = threading.Event()

    def __call__(self, seconds: float) -> bool:
        self.durations.append(seconds)
        self.entered.set()
        self.open.wait(10)
        return False


def make(kind, request, fake_clock, gate=None):
    if kind == "sim":
        return SimBeeper(audio=False, clock=fake_clock)
    if kind == "none":
        return NullBeeper()
    request.getfixturevalue("fake_gpio")
    return GpioBeeper(pin=12, kind=kind.split("-")[1], clock=fake_clock, wait=gate or Gate())


KINDS = ["sim", "none", "gpio-passive", "gpio-active"]


@pytest.fixture(params=KINDS)
def beeper(request, fake_clock):
    device = make(request.param, request, fake_clock)
    yield device
    device.close()


# -- the contract ---------------------------------------------------------------------------------


def test_every_pattern_is_accepted(beeper):
    assert tuple(beeper.patterns) == BEEP_PATTERNS
    for pattern in BEEP_PATTERNS:
        assert beeper.play(pattern) in (True, False)
    assert beeper.wait_idle(5)


def test_unknown_pattern_is_a_lookup_error(beeper):
    with pytest.raises(UnknownPatternError, match="accepted, success") as info:
        beeper.play("fanfare")
    assert isinstance(info.value, LookupError)


@pytest.mark.parametrize("value", [-0.1, 1.5, "loud", None, True])
def test_volume_out_of_range_is_refused(beeper, value):
    with pytest.raises(HalConfigError):
        beeper.volume = value
    assert beeper.volume == 1.0


def test_volume_and_mute(beeper):
    beeper.volume = 0.25
    assert beeper.volume == 0.25
    beeper.muted = True
    assert beeper.play("success") is False
    beeper.muted = False
    assert not beeper.muted


def test_burst_does_not_pile_up_threads(beeper):
    before = threading.active_count()
    for _ in range(200):
        beeper.play("accepted")
    assert threading.active_count() <= before + 1
    assert beeper.wait_idle(5)


def test_close_is_idempotent_and_silences(beeper):
    beeper.play("game_over")
    beeper.close()
    beeper.close()
    assert beeper.closed
    assert beeper.play("accepted") is False


# -- never blocking, even while the worker is busy -----------------------------------------------------


@pytest.mark.parametrize("kind", ["passive", "active"])
def test_play_returns_while_a_pattern_is_still_sounding(fake_gpio, fake_clock, kind):
    gate = Gate(hold=True)
    beeper = GpioBeeper(pin=12, kind=kind, wait=gate)
    try:
        assert beeper.play("game_over")
        assert gate.entered.wait(5)  # the worker is inside the pattern, held
        for pattern in ["accepted"] * 50 + ["refused", "success", "success"]:
            assert beeper.play(pattern)  # would hang here if play waited for the worker
        assert beeper.thread_count == 1
        gate.open.set()
        assert beeper.wait_idle(5)
        played = [p for _, p in beeper.played]
        assert played == ["game_over", "refused", "success"]  # merged, oldest waiting ones dropped
    finally:
        gate.open.set()
        beeper.close()


# -- on the pin ------------------------------------------------------------------------------------------


def test_active_buzzer_pin_follows_the_rhythm_and_ends_low(fake_gpio, fake_clock):
    gate = Gate()
    beeper = GpioBeeper(pin=12, kind="active", wait=gate)
    fake_gpio.history.clear()
    beeper.play("alert")
    assert beeper.wait_idle(5)
    assert fake_gpio.states(12) == [1, 0, 1, 0, 1, 0]
    assert gate.durations == [d for _, d in PATTERNS["alert"]]
    assert fake_gpio.level(12) == 0
    assert not beeper.supports_volume
    beeper.close()


def test_passive_buzzer_uses_pwm_tones_and_volume(fake_gpio, fake_clock):
    beeper = GpioBeeper(pin=12, kind="passive", wait=Gate())
    beeper.volume = 0.5
    fake_gpio.history.clear()
    beeper.play("success")
    assert beeper.wait_idle(5)
    assert [e for e in fake_gpio.events(12) if e[1].startswith("pwm")] == [
        (12, "pwm_start", (2000.0, 25.0)), (12, "pwm_stop", None),
        (12, "pwm_start", (2700.0, 25.0)),
        (12, "pwm_stop", None),
    ]
    assert fake_gpio.level(12) == 0 and not fake_gpio.pwm_running(12)  # low after PWM left it high
    beeper.close()


def test_passive_buzzer_at_a_fixed_frequency(fake_gpio):
    beeper = GpioBeeper(pin=12, kind="passive", frequency_hz=4000, wait=Gate())
    beeper.play("bankruptcy")
    assert beeper.wait_idle(5)
    starts = [v for _, what, v in fake_gpio.events(12) if what == "pwm_start"]
    assert {f for f, _ in starts} == {4000.0}
    beeper.close()


@pytest.mark.parametrize("kind", ["passive", "active"])
def test_stop_cuts_a_pattern_short_and_leaves_the_pin_low(fake_gpio, kind):
    gate = Gate(hold=True)
    beeper = GpioBeeper(pin=12, kind=kind, wait=gate)
    beeper.play("game_over")
    assert gate.entered.wait(5)
    assert fake_gpio.level(12) == 1 or fake_gpio.pwm_running(12)  # sounding
    beeper.stop()
    gate.open.set()
    assert beeper.wait_idle(5)
    assert len(gate.durations) == 1  # cut after the first step
    assert fake_gpio.level(12) == 0 and not fake_gpio.pwm_running(12)
    beeper.close()


def test_error_inside_a_pattern_still_ends_low(fake_gpio, mocker):
    beeper = GpioBeeper(pin=12, kind="passive", wait=Gate())
    calls = {"n": 0}
    real = beeper._sound

    def flaky(frequency, volume):
        calls["n"] += 1
        real(frequency, volume)
        if calls["n"] == 2:
            raise RuntimeError("simulated GPIO hiccup")

    mocker.patch.object(beeper, "_sound", side_effect=flaky)
    beeper.play("game_over")
    assert beeper.wait_idle(5)
    assert fake_gpio.level(12) == 0 and not fake_gpio.pwm_running(12)
    assert beeper.play("accepted")  # the worker survived
    assert beeper.wait_idle(5)
    beeper.close()


def test_active_low_module_is_silent_high(fake_gpio):
    beeper = GpioBeeper(pin=12, kind="active", active_low=True, wait=Gate())
    assert fake_gpio.level(12) == 1
    beeper.play("accepted")
    assert beeper.wait_idle(5)
    assert fake_gpio.states(12) == [1, 0, 1]
    beeper.close()


def test_close_while_sounding_releases_only_our_pin(fake_gpio):
    fake_gpio.claim_foreign(40)
    gate = Gate(hold=True)
    beeper = GpioBeeper(pin=12, kind="passive", wait=gate)
    beeper.play("game_over")
    assert gate.entered.wait(5)
    closer = threading.Thread(target=beeper.close)
    closer.start()
    time.sleep(0.05)
    gate.open.set()
    closer.join(5)
    assert beeper.closed and beeper.thread_count == 0
    assert [c for c in fake_gpio.calls if c[0] == "cleanup"] == [("cleanup", 12)]
    assert fake_gpio.violations == []  # PWM stopped before cleanup, no bare cleanup()
    assert fake_gpio.is_setup(40) and not fake_gpio.is_setup(12)
    assert fake_gpio.states(12)[-1] == 0


def test_beeper_pin_numbering_follows_bcm_when_set_first(fake_gpio):
    fake_gpio.setmode(11)
    beeper = GpioBeeper(pin=12, kind="active", wait=Gate())
    assert ("setup", 18, 0, 20, 0) in fake_gpio.calls  # header 12 = BCM 18
    beeper.close()


@pytest.mark.parametrize("options", [{"pin": 1}, {"pin": 12, "kind": "piezo"},
                                     {"pin": 12, "frequency_hz": 50}, {"pin": 12, "volume": 2}])
def test_bad_gpio_options(fake_gpio, options):
    with pytest.raises(HalConfigError):
        GpioBeeper(**options)
    assert not fake_gpio.is_setup(12)


# -- the simulator ----------------------------------------------------------------------------------------


def test_sim_records_what_it_played(sim_beeper, fake_clock):
    sim_beeper.play("accepted")
    fake_clock.advance(1.5)
    sim_beeper.play("success")
    assert sim_beeper.played == [(1000.0, "accepted"), (1001.5, "success")]
    assert sim_beeper.patterns_played() == ["accepted", "success"] and sim_beeper.last == "success"
    sim_beeper.muted = True
    sim_beeper.play("refused")
    assert sim_beeper.last == "success"


def test_rendered_pattern_has_the_pattern_length():
    pcm = render_pattern("success", rate_hz=8000)
    assert len(pcm) == pytest.approx(duration_of("success") * 8000 * 2, abs=8)


def test_sim_plays_through_the_mixer_on_a_dummy_audio_device(monkeypatch, fake_clock):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    beeper = SimBeeper(audio=True, clock=fake_clock)
    try:
        assert beeper.audio
        for _ in range(20):
            assert beeper.play("accepted")
        assert beeper.wait_idle(5)
    finally:
        beeper.close()


def test_sim_audio_auto_stays_silent_without_a_device(monkeypatch, fake_clock):
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-driver")
    beeper = SimBeeper(audio="auto", clock=fake_clock)
    assert not beeper.audio and beeper.play("success")
    beeper.close()


# -- where a sound can go: no mixer (and none of libasound's "ALSA lib ..." lines) without a card or server
def test_no_sound_output_without_a_card_or_a_server(tmp_path):
    from hal.sim_beeper import no_sound_output
    assert "no sound card" in no_sound_output({}, root=tmp_path, platform="linux")
    (tmp_path / "dev" / "snd").mkdir(parents=True)
    (tmp_path / "dev" / "snd" / "controlC0").touch()  # a control device alone plays nothing
    assert no_sound_output({"XDG_RUNTIME_DIR": "/run/user/1000"}, root=tmp_path, platform="linux") is not None


@pytest.mark.parametrize("where", ["dev/snd/pcmC0D0p", "run/user/1000/pulse/native", "run/user/1000/pipewire-0",
                                   f"run/user/{os.getuid()}/pulse/native", "run/pulse/native"])
def test_a_card_or_a_sound_server_lets_the_mixer_start(tmp_path, where):
    from hal.sim_beeper import no_sound_output
    (tmp_path / where).parent.mkdir(parents=True)
    (tmp_path / where).touch()
    assert no_sound_output({"XDG_RUNTIME_DIR": "/run/user/1000"}, root=tmp_path, platform="linux") is None


@pytest.mark.parametrize("env", [{"SDL_AUDIODRIVER": "alsa"}, {"PULSE_SERVER": "tcp:10.0.0.2"},
                                 {"PIPEWIRE_REMOTE": "pipewire-1"}])
def test_a_chosen_driver_or_server_is_always_tried(tmp_path, env):
    from hal.sim_beeper import no_sound_output
    assert no_sound_output(env, root=tmp_path, platform="linux") is None
    assert no_sound_output({}, root=tmp_path, platform="darwin") is None  # only Linux is looked at


def test_auto_audio_does_not_start_the_mixer_where_no_sound_can_go(monkeypatch, fake_clock):
    import pygame.mixer

    import hal.sim_beeper as sim_beeper
    monkeypatch.delenv("SDL_AUDIODRIVER", raising=False)
    monkeypatch.setattr(sim_beeper, "no_sound_output", lambda: "no sound card")
    monkeypatch.setattr(pygame.mixer, "init", lambda *a, **k: pytest.fail("the mixer was started"))
    beeper = SimBeeper(audio="auto", clock=fake_clock)
    assert not beeper.audio and beeper.play("success") and beeper.last == "success"
    beeper.close()
    monkeypatch.setattr(sim_beeper, "no_sound_output", lambda: None)  # a card: the mixer is tried
    tried = []
    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)  # as if no other test had started it
    monkeypatch.setattr(pygame.mixer, "init", lambda *a, **k: tried.append(a or k) or 1 / 0)
    SimBeeper(audio="auto", clock=fake_clock).close()
    assert tried
