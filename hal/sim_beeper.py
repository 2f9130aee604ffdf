"""The simulated beeper: records what it played and, when it can, plays it through pygame's mixer.

Registry name ``"sim"``. ``play`` never blocks and starts no thread: each pattern is rendered once into
a square-wave ``pygame.mixer.Sound`` and handed to the mixer, which plays it on its own audio thread. A
burst is bounded by the mixer channel: one sound plays, at most one waits (``Channel.queue``), newer
requests replace the waiting one.

Audio is used when ``audio`` is True, or when ``audio="auto"`` (the default) and the mixer can be
initialised (an audio device exists); otherwise the beeper is silent and only records. The record,
``played``, is a list of ``(clock seconds, pattern)`` for each ``play`` that returned True.

On Linux, ``audio="auto"`` first looks for somewhere a sound could go (:func:`no_sound_output`): a PCM device
in ``/dev/snd`` or a PulseAudio or PipeWire server. Without one it does not start the mixer at all: SDL would
try its PulseAudio, PipeWire and ALSA backends in turn, and libasound prints 8 lines of "ALSA lib ...
cannot find card '0'" on standard error before SDL gives up (every start of a PC or container without a sound
card). ``$SDL_AUDIODRIVER`` set by the user, or ``audio=True``, always tries.
"""

from __future__ import annotations

import array
import logging
import math
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from hal.beeper_base import BeeperSettings, check_volume
from hal.errors import BackendUnavailableError, HalConfigError
from hal.interfaces import Beeper, Clock
from hal.patterns import steps_of

if TYPE_CHECKING:
    import pygame.mixer

__all__ = ["SimBeeper", "no_sound_output", "render_pattern"]

log = logging.getLogger(__name__)


def render_pattern(pattern: str, *, rate_hz: int = 22050, channels: int = 1,
                   amplitude: int = 12000) -> bytes:
    """Return signed 16-bit native-endian PCM of a pattern as square waves (rests are silence).

    Args:
        pattern: a name from ``hal.interfaces.BEEP_PATTERNS``.
        rate_hz: samples per second, 8000..192000.
        channels: 1 (mono) or 2 (stereo: the same samples on both).
        amplitude: peak sample value 0..32767.
    """
    samples = array.array("h")
    for frequency_hz, duration_s in steps_of(pattern):
        count = round(duration_s * rate_hz)
        if not frequency_hz:
            samples.extend([0] * count * channels)
            continue
        period = rate_hz / frequency_hz
        for i in range(count):
            value = amplitude if math.fmod(i, period) < period / 2 else -amplitude
            samples.extend([value] * channels)
    return samples.tobytes()


def no_sound_output(env: Mapping[str, str] = os.environ, *, root: str | os.PathLike[str] = "/",
                    platform: str = sys.platform) -> str | None:
    """Why no sound can be played here, in words, or None when it may be (see the module docstring).

    Only Linux is looked at (elsewhere: None). None also when ``$SDL_AUDIODRIVER`` names a driver (the user
    chose), a PCM device exists in ``ROOT/dev/snd``, or a PulseAudio or PipeWire server is there
    (``$PULSE_SERVER``, ``$PIPEWIRE_REMOTE``, or its socket in ``$XDG_RUNTIME_DIR``, ``/run/user/UID`` or
    ``/run/pulse``). ``root``: prefix of those paths (tests use a temporary tree)."""
    if platform != "linux" or env.get("SDL_AUDIODRIVER", "").strip():
        return None
    base = Path(root)
    try:
        if any(base.joinpath("dev/snd").glob("pcmC*")):
            return None
    except OSError:
        pass
    if env.get("PULSE_SERVER", "").strip() or env.get("PIPEWIRE_REMOTE", "").strip():
        return None
    runtimes = [folder for folder in (env.get("XDG_RUNTIME_DIR", ""), f"/run/user/{os.getuid()}") if folder]
    sockets = [f"{folder}/{name}" for folder in runtimes for name in ("pulse/native", "pipewire-0")]
    sockets += ["/run/pulse/native", "/var/run/pulse/native"]  # PulseAudio's system-wide server
    if any((base / socket.lstrip("/")).exists() for socket in sockets):
        return None
    return "no sound card (no PCM device in /dev/snd) and no PulseAudio or PipeWire server"


class _Mixer(Protocol):
    """What the beeper keeps using of the ``pygame.mixer`` module once it has started it."""

    def Sound(self, buffer: bytes) -> pygame.mixer.Sound: ...

    def quit(self) -> None: ...


class SimBeeper(BeeperSettings, Beeper):
    """A beeper for the PC (registry name ``"sim"``).

    Args:
        audio: True (require the mixer: raise if it cannot start), False (never make a sound) or
            "auto" (use the mixer if it can start, else stay silent).
        volume: 0.0..1.0.
        clock: monotonic seconds used to timestamp ``played``.

    Raises:
        HalConfigError: bad ``audio`` or ``volume``.
        BackendUnavailableError: ``audio=True`` and pygame's mixer cannot start.
    """

    backend = "sim"

    def __init__(self, *, audio: bool | str = "auto", volume: float = 1.0,
                 clock: Clock | None = None) -> None:
        if audio not in (True, False, "auto"):
            raise HalConfigError(f"audio={audio!r}: use True, False or 'auto'")
        self._volume = check_volume(volume)
        self._muted = False
        self._closed = False
        self._clock: Clock = clock or time.monotonic
        #: ``(clock seconds, pattern)`` of each pattern played, oldest first.
        self.played: list[tuple[float, str]] = []
        self._mixer: _Mixer | None = None
        self._channel: pygame.mixer.Channel | None = None
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self._we_started_mixer = False
        if audio == "auto" and (why := no_sound_output()) is not None:
            log.info("simulated beeper is silent: %s", why)
        elif audio is not False:
            self._start_audio(required=audio is True)

    # -- audio ---------------------------------------------------------------------------------
    @property
    def audio(self) -> bool:
        """True when patterns are heard through pygame's mixer."""
        return self._mixer is not None

    def _start_audio(self, *, required: bool) -> None:
        try:
            os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner in the journal
            # pygame is loaded late, by the one backend that plays sound: ``import hal`` needs no pygame,
            # and a beeper made with audio=False never loads it.
            import pygame.mixer as mixer

            if not mixer.get_init():
                mixer.init(frequency=22050, size=-16, channels=1)
                self._we_started_mixer = True
            rate, size, channels = mixer.get_init()
            if size != -16 or channels not in (1, 2):
                raise RuntimeError(f"mixer format {size} bits x {channels} channels is not supported")
            self._mixer = mixer
            self._format = (rate, channels)
            self._channel = mixer.Channel(mixer.get_num_channels() - 1)
        except Exception as exc:
            self._mixer = None
            if required:
                raise BackendUnavailableError(
                    f"the simulated beeper cannot open an audio device ({exc}); use audio='auto' to "
                    "run silently"
                ) from exc
            log.info("simulated beeper is silent: %s", exc)

    def _sound_of(self, mixer: _Mixer, pattern: str) -> pygame.mixer.Sound:
        sound = self._sounds.get(pattern)
        if sound is None:
            rate, channels = self._format
            sound = mixer.Sound(buffer=render_pattern(pattern, rate_hz=rate, channels=channels))
            self._sounds[pattern] = sound
        return sound

    # -- Beeper ----------------------------------------------------------------------------------
    def play(self, pattern: str) -> bool:
        steps_of(pattern)
        if self._closed or self._muted or self._volume == 0.0:
            return False
        now = self._clock()
        self.played.append((now, pattern))
        if self._mixer is not None and self._channel is not None:
            try:
                sound = self._sound_of(self._mixer, pattern)
                sound.set_volume(self._volume)
                if self._channel.get_busy():
                    self._channel.queue(sound)  # replaces a waiting one: a burst stays bounded
                else:
                    self._channel.play(sound)
            except Exception as exc:
                log.warning("simulated beeper could not play %r: %s", pattern, exc)
        return True

    @property
    def last(self) -> str | None:
        """Name of the last pattern played, or None."""
        return self.played[-1][1] if self.played else None

    def patterns_played(self) -> list[str]:
        """Names of the patterns played, oldest first (convenient in tests)."""
        return [pattern for _, pattern in self.played]

    def stop(self) -> None:
        if self._channel is not None:
            try:
                self._channel.stop()
            except Exception:
                pass

    def wait_idle(self, timeout_s: float | None = None) -> bool:
        if self._channel is None:
            return True
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while self._channel.get_busy():
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.stop()
        self._sounds.clear()
        if self._we_started_mixer and self._mixer is not None:
            try:
                self._mixer.quit()
            except Exception:
                pass
        self._mixer = None
        self._channel = None
