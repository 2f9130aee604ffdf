"""Display outputs (a file standing in for /dev/fbN), the blind-driver refusal, and evdev touch against
recorded input events."""
from __future__ import annotations

import struct

import pytest

from host_ui.screen.display import DisplayError, FramebufferOutput, frame_bytes, refuse_blind
from host_ui.screen.evdev_touch import (
    ABS_MT_POSITION_X,
    ABS_MT_POSITION_Y,
    ABS_MT_SLOT,
    ABS_MT_TRACKING_ID,
    ABS_X,
    ABS_Y,
    BTN_TOUCH,
    EV_ABS,
    EV_KEY,
    EV_SYN,
    SYN_REPORT,
    TouchParser,
)
from host_ui.screen.input_map import Calibration, InputMapper, Tap


def _logical(pg, size):
    surface = pg.Surface(size)
    surface.fill((0, 0, 0))
    surface.fill((255, 0, 0), (0, 0, 4, 4))        # red top-left
    surface.fill((0, 255, 0), (size[0] - 4, 0, 4, 4))  # green top-right
    return surface


def test_rgb565_frames_land_in_the_file(pg, tmp_path):
    fb = tmp_path / "fb1"
    output = FramebufferOutput(fb, (480, 320), 0, bpp=16)
    output.show(_logical(pg, (480, 320)))
    data = fb.read_bytes()
    assert len(data) == 480 * 320 * 2
    first, = struct.unpack_from("<H", data, 0)
    last_top, = struct.unpack_from("<H", data, (480 - 1) * 2)
    assert first == 0xF800 and last_top == 0x07E0
    output.show(_logical(pg, (480, 320)))
    assert len(fb.read_bytes()) == 480 * 320 * 2  # each frame overwrites the last
    output.close()


def test_32_bit_frames_with_rotation_and_stride(pg, tmp_path):
    fb = tmp_path / "fb0"
    stride = 320 * 4 + 64  # a padded line, as some drivers have
    output = FramebufferOutput(fb, (480, 320), 90, bpp=32, stride=stride)
    assert output.panel == (320, 480)
    output.show(_logical(pg, (480, 320)))
    data = fb.read_bytes()
    assert len(data) == stride * 480
    # turned 90 degrees clockwise: the logical top-left (red) is at the panel's top-right
    b, g, r, _ = data[(320 - 1) * 4:(320 - 1) * 4 + 4]
    assert (r, g, b) == (255, 0, 0)
    # ... and the logical top-right (green) at the panel's bottom-right
    offset = (480 - 1) * stride + (320 - 1) * 4
    b, g, r, _ = data[offset:offset + 4]
    assert (r, g, b) == (0, 255, 0)


def test_framebuffer_errors(pg, tmp_path):
    with pytest.raises(DisplayError):
        FramebufferOutput(tmp_path / "fb", (480, 320), bpp=24)
    with pytest.raises(OSError, match="framebuffer"):
        FramebufferOutput(tmp_path / "missing-dir" / "fb", (480, 320))
    with pytest.raises(DisplayError):
        frame_bytes(pg.Surface((4, 4)), 16, stride=2)


def test_a_device_refuses_the_blind_drivers_and_names_kmsdrm(pg):
    for driver in ("dummy", "offscreen"):
        with pytest.raises(DisplayError, match="kmsdrm"):
            refuse_blind(driver, on_device=True)
        refuse_blind(driver, on_device=False)  # --headless and the simulator may
    refuse_blind("kmsdrm", on_device=True)
    from host_ui.screen.display import check_driver
    with pytest.raises(OSError, match="kmsdrm"):
        check_driver(on_device=True)  # the tests run on SDL's dummy driver
    assert check_driver(on_device=False) == "dummy"


# -- evdev: recorded events of an ADS7846 resistive panel and of a capacitive multi-touch panel ------------
RESISTIVE_TAP = [
    (EV_KEY, BTN_TOUCH, 1, 10.000), (EV_ABS, ABS_X, 2050, 10.000), (EV_ABS, ABS_Y, 1000, 10.000),
    (EV_SYN, SYN_REPORT, 0, 10.000),
    (EV_ABS, ABS_X, 2060, 10.010), (EV_SYN, SYN_REPORT, 0, 10.010),
    (EV_KEY, BTN_TOUCH, 0, 10.080), (EV_SYN, SYN_REPORT, 0, 10.080),
]


def test_resistive_tap_from_recorded_events():
    parser = TouchParser(Calibration(200, 3900, 300, 3800))
    records = parser.feed_all(RESISTIVE_TAP)
    assert [r.kind for r in records] == ["down", "move", "up"]
    assert records[0].u == pytest.approx(0.5) and records[0].v == pytest.approx(0.2)
    assert records[0].t == 10.0


def test_capacitive_slot_zero_only():
    events = [
        (EV_ABS, ABS_MT_SLOT, 0, 1.0), (EV_ABS, ABS_MT_TRACKING_ID, 7, 1.0), (EV_ABS, ABS_MT_POSITION_X, 400, 1.0),
        (EV_ABS, ABS_MT_POSITION_Y, 240, 1.0), (EV_SYN, SYN_REPORT, 0, 1.0),
        (EV_ABS, ABS_MT_SLOT, 1, 1.02), (EV_ABS, ABS_MT_TRACKING_ID, 8, 1.02), (EV_ABS, ABS_MT_POSITION_X, 10, 1.02),
        (EV_SYN, SYN_REPORT, 0, 1.02),
        (EV_ABS, ABS_MT_SLOT, 0, 1.1), (EV_ABS, ABS_MT_TRACKING_ID, -1, 1.1), (EV_SYN, SYN_REPORT, 0, 1.1),
    ]
    records = TouchParser(Calibration(0, 800, 0, 480)).feed_all(events)
    assert [(r.kind, round(r.u, 2), round(r.v, 2)) for r in records] == [("down", 0.5, 0.5), ("up", 0.5, 0.5)]


def test_recorded_resistive_burst_through_the_mapper_is_one_tap():
    """A finger sliding over a resistive panel: the controller reports touch/release every 15 ms."""
    events = []
    t = 20.0
    for i in range(15):
        events += [(EV_KEY, BTN_TOUCH, 1, t), (EV_ABS, ABS_X, 1000 + 20 * i, t), (EV_ABS, ABS_Y, 2000, t),
                   (EV_SYN, SYN_REPORT, 0, t), (EV_KEY, BTN_TOUCH, 0, t + 0.007), (EV_SYN, SYN_REPORT, 0, t + 0.007)]
        t += 0.015
    records = TouchParser(Calibration(0, 4095, 0, 4095)).feed_all(events)
    mapper = InputMapper((480, 320), rotation=90)
    taps = [a for r in records for a in mapper.feed(r)]
    assert len(taps) == 1 and isinstance(taps[0], Tap)


def test_python_evdev_event_objects_are_understood():
    import evdev  # installed by the test extra: never skipped
    events = [evdev.InputEvent(10, 0, t, c, v) for t, c, v, _ in RESISTIVE_TAP]
    records = TouchParser(Calibration(200, 3900, 300, 3800)).feed_all(events)
    assert [r.kind for r in records] == ["down", "move", "up"]
