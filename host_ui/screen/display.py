"""Where frames go: an SDL window, or a Linux framebuffer (``/dev/fbN``) for SPI panels.

docs/field-notes.md, 14: on Raspberry Pi OS Lite SDL2 may silently pick the ``dummy`` or ``offscreen`` video driver
and run with a blank screen. :func:`check_driver` refuses that on a device: the terminal must not take
payments blind.

:class:`FramebufferOutput` renders offscreen (SDL's dummy driver is fine there: nothing is shown through
SDL) and writes each frame to the framebuffer device in its pixel format: RGB565 (16 bits, most SPI panels
driven by fbtft / fb_ili9486) or 32 bits (XRGB8888, little-endian BGRA in memory).
"""
from __future__ import annotations

import os
from pathlib import Path

import pygame

from hal.advice import kms_missing_fix, permission_fix
from host_ui.screen.input_map import panel_size
from host_ui.screen.render import to_panel

BLIND_DRIVERS = ("dummy", "offscreen")


class DisplayError(OSError):
    """No usable display: the message says what to do."""


def refuse_blind(driver: str, *, on_device: bool) -> None:
    """Raise :class:`DisplayError` if ``driver`` shows nothing and we run on a device (not ``--headless``,
    not the simulator)."""
    if on_device and driver in BLIND_DRIVERS:
        raise DisplayError(
            f"SDL chose the '{driver}' video driver, which shows nothing: the terminal refuses to take payments "
            f"blind. On a Raspberry Pi console set SDL_VIDEODRIVER=kmsdrm (the user needs the 'video' and "
            f"'render' groups; enable the KMS overlay dtoverlay=vc4-kms-v3d), or, for an SPI panel, set "
            f"output = \"framebuffer\" and fb_device = \"/dev/fb1\" in [display]. Use --headless only for tests.")


def sdl_failure(exc: Exception, dri: str | os.PathLike[str] = "/dev/dri") -> DisplayError:
    """A :class:`DisplayError` with the fix for SDL failing to open the screen (``pygame.error``, e.g.
    "kmsdrm not available"): what ``/dev/dri`` shows says which fix applies."""
    reason = " ".join(str(exc).split()) or type(exc).__name__
    cards = sorted(Path(dri).glob("card*"))
    if not cards:
        fix = kms_missing_fix()  # a reboot when config.txt already has the overlay
    elif not any(os.access(card, os.R_OK | os.W_OK) for card in cards):
        fix = (f"this user may not use {cards[0]}: add it to the 'video' and 'render' groups (the service user "
               f"banquier has them: run deploy/install.sh again), then restart")
    else:
        fix = ("another program holds the screen (a desktop?): boot to the console (sudo raspi-config nonint "
               "do_boot_behaviour B1), then sudo reboot")
    return DisplayError(f"SDL cannot open the screen ({reason}); {fix}")


def check_driver(*, on_device: bool) -> str:
    """The SDL video driver in use (after ``pygame.display.init()``); refuses a blind one on a device.

    Raises :class:`DisplayError` when SDL cannot open the screen (its ``pygame.error`` wrapped, with the fix)."""
    if not pygame.display.get_init():
        try:
            pygame.display.init()
        except pygame.error as exc:
            raise sdl_failure(exc) from exc
    driver = pygame.display.get_driver()
    refuse_blind(driver, on_device=on_device)
    return driver


def fit_scale(window_size: tuple[int, int], desktop: tuple[int, int] | None,
              margin: tuple[int, int] = (40, 100)) -> float:
    """The factor (at most 1) by which a window of ``window_size`` is shrunk to fit on a ``desktop`` of that size,
    less ``margin`` pixels (window frame, task bar); 1.0 when it fits or the desktop is unknown."""
    if desktop is None or desktop[0] <= 0 or desktop[1] <= 0:
        return 1.0
    room_w, room_h = max(1, desktop[0] - margin[0]), max(1, desktop[1] - margin[1])
    return min(1.0, room_w / window_size[0], room_h / window_size[1])


class WindowOutput:
    """An SDL window (kmsdrm on a console, x11/wayland on a desktop) showing the panel's picture.

    ``size``: logical (width, height); ``rotation``: degrees clockwise; ``fullscreen``: no window frame.
    The window is the panel: its size is the rotated size. ``window_size`` and ``screen_rect`` serve the
    input mapping. ``scale`` below 1 (see :func:`fit_scale`): everything is drawn on ``window`` at
    ``window_size`` and shown shrunk in a smaller window (``display``); :meth:`to_window` maps a pointer
    position of the shown window back to ``window``'s pixels."""

    def __init__(self, size: tuple[int, int], rotation: int = 0, *, fullscreen: bool = False,
                 title: str = "Banquier", window_size: tuple[int, int] | None = None,
                 screen_rect: tuple[int, int, int, int] | None = None, scale: float = 1.0) -> None:
        self.size, self.rotation = (size[0], size[1]), rotation
        self.panel = panel_size(self.size, rotation)
        window_size = window_size or self.panel
        self.window_size = (window_size[0], window_size[1])
        self.scale = min(1.0, max(0.1, float(scale)))
        flags = pygame.FULLSCREEN if fullscreen else 0
        try:
            if self.scale < 1.0:
                shown = (max(1, round(self.window_size[0] * self.scale)),
                         max(1, round(self.window_size[1] * self.scale)))
                self.display = pygame.display.set_mode(shown, flags)
                self.window = pygame.Surface(self.window_size).convert()
            else:
                self.display = self.window = pygame.display.set_mode(self.window_size, flags)
        except pygame.error as exc:
            raise sdl_failure(exc) from exc
        pygame.display.set_caption(title)
        x, y, w, h = screen_rect or (0, 0, *self.panel)
        self.screen_rect = (x, y, w, h)

    def to_window(self, pos: tuple[float, float]) -> tuple[int, int]:
        """A pointer position in the shown window -> the pixel of ``window`` under it."""
        if self.scale >= 1.0:
            return int(pos[0]), int(pos[1])
        return (min(self.window_size[0] - 1, int(pos[0] / self.scale)),
                min(self.window_size[1] - 1, int(pos[1] / self.scale)))

    def present(self) -> None:
        """Show ``window`` (shrunk when ``scale`` < 1) on the screen."""
        if self.display is not self.window:
            pygame.transform.smoothscale(self.window, self.display.get_size(), self.display)
        pygame.display.flip()

    def show(self, logical: pygame.Surface, update: bool = True) -> None:
        self.window.blit(to_panel(logical, self.rotation), self.screen_rect[:2])
        if update:
            self.present()

    def close(self) -> None:
        pass


def _fb_sysfs(path: Path) -> tuple[tuple[int, int] | None, int | None, int | None]:
    """``(virtual size, bits per pixel, stride)`` from ``/sys/class/graphics/fbN`` when it exists."""
    base = Path("/sys/class/graphics") / path.name
    try:
        w, h = (int(v) for v in (base / "virtual_size").read_text().strip().split(","))
        bpp = int((base / "bits_per_pixel").read_text().strip())
        stride = int((base / "stride").read_text().strip()) if (base / "stride").exists() else None
        return (w, h), bpp, stride
    except (OSError, ValueError):
        return None, None, None


def frame_bytes(panel: pygame.Surface, bpp: int, stride: int | None = None) -> bytes:
    """The framebuffer bytes of ``panel`` (already rotated): ``bpp`` 16 (RGB565 little-endian) or 32
    (BGRA, the X byte 0xFF). ``stride``: bytes per framebuffer line (>= width x bpp / 8; rows are padded)."""
    w, h = panel.get_size()
    if bpp == 32:
        # pygame >= 2.1.3 calls it tobytes; Debian Bookworm's 2.1.2 (the one with kmsdrm) only has tostring.
        to_bytes = getattr(pygame.image, "tobytes", None) or pygame.image.tostring
        data = to_bytes(panel, "BGRA")
        row = w * 4
    elif bpp == 16:
        target = pygame.Surface((w, h), 0, 16, (0xF800, 0x07E0, 0x001F, 0))
        target.blit(panel, (0, 0))
        pitch = target.get_pitch()
        raw = target.get_buffer().raw
        row = w * 2
        data = raw if pitch == row else b"".join(raw[y * pitch:y * pitch + row] for y in range(h))
    else:
        raise DisplayError(f"framebuffer depth {bpp} bits is not supported: use a 16-bit (RGB565) or 32-bit mode "
                           f"(fbset -depth 16).")
    stride = stride or row
    if stride < row:
        raise DisplayError(f"framebuffer stride {stride} is shorter than a line of {row} bytes")
    if stride == row:
        return data
    pad = b"\0" * (stride - row)
    return b"".join(data[y * row:(y + 1) * row] + pad for y in range(h))


class FramebufferOutput:
    """Writes frames to a framebuffer device (or any file standing in for one).

    - ``path``: ``/dev/fb1`` (SPI panel) or a file.
    - ``size``: logical (width, height); ``rotation`` degrees clockwise; the panel's size is checked against
      ``/sys/class/graphics/fbN/virtual_size`` when that exists.
    - ``bpp``: 16 or 32; default: from sysfs, else 16.
    - ``stride``: bytes per line; default from sysfs, else width x bpp / 8.

    Raises :class:`DisplayError` (an ``OSError``) when the device cannot be opened (with the group to join)
    or its mode does not match.
    """

    def __init__(self, path: str | os.PathLike[str], size: tuple[int, int], rotation: int = 0, *,
                 bpp: int | None = None, stride: int | None = None) -> None:
        self.path = Path(path)
        self.size, self.rotation = (size[0], size[1]), rotation
        self.panel = panel_size(self.size, rotation)
        sys_size, sys_bpp, sys_stride = _fb_sysfs(self.path) if str(self.path).startswith("/dev/") else (None,) * 3
        if sys_size is not None and tuple(sys_size) != tuple(self.panel):
            raise DisplayError(f"{self.path} is {sys_size[0]}x{sys_size[1]} but the screen is configured as "
                               f"{self.panel[0]}x{self.panel[1]} after rotation {rotation}: fix the size or rotation.")
        self.bpp = bpp or sys_bpp or 16
        self.stride = stride or sys_stride
        if self.bpp not in (16, 32):
            raise DisplayError(f"{self.path} uses {self.bpp} bits per pixel: set it to 16 or 32 (fbset -depth 16).")
        try:
            # open for the output's life, closed by close()
            self._file = open(self.path, "r+b" if self.path.exists() else "w+b", buffering=0)  # noqa: SIM115
        except PermissionError as exc:
            raise DisplayError(f"Cannot open {self.path}: permission denied: "
                               f"{permission_fix(str(self.path), 'video', exc)}.") from exc
        except OSError as exc:
            raise DisplayError(f"Cannot open framebuffer {self.path}: {exc.strerror}. Is the panel's driver "
                               f"loaded (ls /dev/fb*)?") from exc
        self.window_size = self.panel
        self.screen_rect = (0, 0, *self.panel)
        self.frames = 0

    def show(self, logical: pygame.Surface, update: bool = True) -> None:
        data = frame_bytes(to_panel(logical, self.rotation), self.bpp, self.stride)
        self._file.seek(0)
        self._file.write(data)
        self.frames += 1

    def close(self) -> None:
        self._file.close()
