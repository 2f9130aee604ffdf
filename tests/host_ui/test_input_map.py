"""Input mapping: rotation, normalisation, touch/mouse de-duplication, burst filtering, keys."""
from __future__ import annotations

import pytest

from host_ui.screen.input_map import (
    Action,
    Calibration,
    InputMapError,
    InputMapper,
    Key,
    Pointer,
    Tap,
    panel_size,
    rotate_normalised,
)


def down(u, v, t, source="finger", synthetic=False):
    return Pointer("down", u, v, t, source, synthetic)


def up(u, v, t, source="finger", synthetic=False):
    return Pointer("up", u, v, t, source, synthetic)


def taps(mapper, records):
    out = []
    for record in records:
        out.extend(mapper.feed(record))
    return out


@pytest.mark.parametrize("rotation, panel_point, logical_point", [
    (0, (0.1, 0.2), (0.1, 0.2)),
    (90, (1.0, 0.0), (0.0, 0.0)),      # the picture's top-left corner sits at the panel's top-right
    (90, (0.75, 0.1), (0.1, 0.25)),
    (180, (0.1, 0.2), (0.9, 0.8)),
    (270, (0.0, 1.0), (0.0, 0.0)),     # ... and at the panel's bottom-left
    (270, (0.25, 0.9), (0.1, 0.25)),
])
def test_rotation_of_normalised_points(rotation, panel_point, logical_point):
    x, y = rotate_normalised(*panel_point, rotation)
    assert (x, y) == pytest.approx(logical_point)


def test_rotations_round_trip_and_bad_values():
    for rotation in (0, 90, 180, 270):
        point = (0.3, 0.7)
        for _ in range(4 if rotation else 1):
            point = rotate_normalised(*point, rotation)
        assert point == pytest.approx((0.3, 0.7))
    with pytest.raises(InputMapError):
        rotate_normalised(0, 0, 45)
    with pytest.raises(ValueError):
        InputMapper((800, 480), rotation=30)
    assert panel_size((800, 480), 90) == (480, 800)
    assert panel_size((800, 480), 180) == (800, 480)


def test_touch_lands_where_the_rotated_picture_drew_the_button(pg):
    """Draw a dot at a logical pixel, turn the picture for the panel, touch the dot on the panel: the
    mapper must give back the dot's logical pixel, for every rotation."""
    from host_ui.screen.render import to_panel
    size = (480, 320)
    for rotation in (0, 90, 180, 270):
        logical = pg.Surface(size)
        logical.fill((0, 0, 0))
        logical.fill((255, 0, 0), (100, 40, 10, 10))
        panel = to_panel(logical, rotation)
        bbox = pg.mask.from_threshold(panel, (255, 0, 0), (1, 1, 1, 255)).get_bounding_rects()[0]
        pw, ph = panel.get_size()
        mapper = InputMapper(size, rotation)
        x, y = mapper.to_logical((bbox.centerx + 0.5) / pw, (bbox.centery + 0.5) / ph)
        assert 100 <= x < 110 and 40 <= y < 50, (rotation, x, y)


def test_calibration_normalises_raw_axes_and_clamps():
    cal = Calibration(200, 3900, 300, 3800)
    assert cal.normalise(200, 300) == (0.0, 0.0)
    assert cal.normalise(3900, 3800) == (1.0, 1.0)
    assert cal.normalise(2050, 2050) == pytest.approx((0.5, 0.5))
    assert cal.normalise(0, 5000) == (0.0, 1.0)  # the bezel edge counts as the edge
    inverted = Calibration(3900, 200, 300, 3800)
    assert inverted.normalise(3900, 300) == (0.0, 0.0)
    swapped = Calibration(0, 100, 0, 200, swap_xy=True)
    assert swapped.normalise(50, 25) == pytest.approx((0.25, 0.25))  # ranges are of the panel axes
    with pytest.raises(ValueError):
        Calibration(5, 5, 0, 1)


def test_one_touch_with_a_synthetic_mouse_event_is_one_tap():
    mapper = InputMapper((800, 480))
    result = taps(mapper, [down(0.5, 0.5, 1.0), down(0.5, 0.5, 1.001, "mouse", synthetic=True),
                           up(0.5, 0.5, 1.08), up(0.5, 0.5, 1.081, "mouse", synthetic=True)])
    assert result == [Tap(400, 240)]


def test_unmarked_mouse_copy_of_a_touch_is_dropped_either_order():
    mapper = InputMapper((800, 480))
    assert taps(mapper, [down(0.5, 0.5, 1.0), down(0.5, 0.5, 1.01, "mouse"), up(0.5, 0.5, 1.1),
                         up(0.5, 0.5, 1.1, "mouse")]) == [Tap(400, 240)]
    mapper = InputMapper((800, 480))
    assert taps(mapper, [down(0.5, 0.5, 5.0, "mouse"), down(0.5, 0.5, 5.01), up(0.5, 0.5, 5.1, "mouse"),
                         up(0.5, 0.5, 5.1)]) == [Tap(400, 240)]


def test_a_mouse_alone_clicks_normally():
    mapper = InputMapper((800, 480))
    result = taps(mapper, [down(0.1, 0.1, 1.0, "mouse"), up(0.1, 0.1, 1.1, "mouse"),
                           down(0.9, 0.9, 1.5, "mouse"), up(0.9, 0.9, 1.6, "mouse")])
    assert result == [Tap(80, 48), Tap(720, 432)]


def test_resistive_burst_from_a_sliding_finger_types_one_digit():
    """A sliding finger on a resistive panel: down/up pairs every 15 ms for 300 ms -> one tap."""
    mapper = InputMapper((480, 320))
    records = []
    t = 10.0
    for i in range(20):
        records += [down(0.2 + i * 0.01, 0.5, t), up(0.2 + i * 0.01, 0.5, t + 0.008)]
        t += 0.015
    assert len(taps(mapper, records)) == 1
    assert mapper.dropped == 19


def test_two_deliberate_taps_both_count():
    mapper = InputMapper((480, 320))
    result = taps(mapper, [down(0.2, 0.5, 1.0), up(0.2, 0.5, 1.09), down(0.2, 0.5, 1.35), up(0.2, 0.5, 1.45)])
    assert len(result) == 2


def test_second_finger_and_moves_do_nothing_and_a_lost_release_does_not_lock():
    mapper = InputMapper((480, 320))
    assert len(taps(mapper, [down(0.2, 0.2, 1.0), Pointer("move", 0.3, 0.3, 1.05), down(0.8, 0.8, 1.3)])) == 1
    assert len(taps(mapper, [down(0.5, 0.5, 4.0)])) == 1  # the release of 1.0 was lost: 3 s later it works


def test_keys():
    mapper = InputMapper((480, 320))
    assert mapper.feed(Key("7")) == [Action("digit", "7")]
    assert mapper.feed(Key("enter")) == [Action("confirm")]
    assert mapper.feed(Key("escape")) == [Action("cancel")]
    assert mapper.feed(Key("backspace")) == [Action("digit", "<")]
    assert mapper.feed(Key("delete")) == [Action("digit", "C")]
    assert mapper.feed(Key("f3")) == [Action("press", "f3")]
    assert mapper.feed(Key("7", repeat=True)) == []
    assert mapper.feed(Key("x")) == []


def test_pygame_adapter_marks_touch_mouse_events_and_normalises_to_the_screen_rect(pg):
    from host_ui.screen.pg_events import to_records
    event = pg.event.Event(pg.MOUSEBUTTONDOWN, pos=(500, 100), button=1, touch=True)
    (record,) = to_records(event, (1200, 600), (0, 0, 800, 480), 3.0)
    assert record.synthetic and record.source == "mouse"
    assert (record.u, record.v) == pytest.approx((500 / 800, 100 / 480))
    assert to_records(pg.event.Event(pg.MOUSEBUTTONDOWN, pos=(900, 100), button=1, touch=False),
                      (1200, 600), (0, 0, 800, 480), 3.0) == []  # outside the screen (the simulator's tray)
    finger = pg.event.Event(pg.FINGERDOWN, x=0.5, y=0.5, touch_id=1, finger_id=0, dx=0, dy=0, pressure=1)
    (record,) = to_records(finger, (800, 480), (0, 0, 800, 480), 3.0)
    assert record.source == "finger" and (record.u, record.v) == pytest.approx((0.5, 0.5))
    (key,) = to_records(pg.event.Event(pg.KEYDOWN, key=pg.K_KP_5, mod=0, unicode="5", scancode=0), (1, 1),
                        (0, 0, 1, 1), 0)
    assert key.name == "5"


# -- issue 22, point 11: a touch panel stuck at one corner -------------------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from host_ui.screen.input_map import Pointer as _Pointer  # noqa: E402
from host_ui.screen.input_map import TouchWatch  # noqa: E402


def _press(watch, u, v, t):
    taken = watch.see(_Pointer("down", u, v, t), t)
    watch.see(_Pointer("up", u, v, t + 0.05), t + 0.05)
    return taken


def test_six_presses_at_the_same_corner_make_the_panel_stuck_and_are_dropped():
    watch = TouchWatch()
    taken = [_press(watch, 1.0, 1.0, t) for t in range(10)]
    assert taken == [True] * 5 + [False] * 5 and "bottom-right corner" in watch.problem
    assert _press(watch, 0.5, 0.5, 20)  # a press elsewhere: the panel answers again
    assert watch.problem is None and _press(watch, 1.0, 1.0, 21)


def test_a_press_held_at_a_corner_makes_it_stuck_a_moving_finger_does_not():
    watch = TouchWatch()
    watch.see(_Pointer("down", 0.0, 0.002, 0.0), 0.0)
    watch.tick(9.0)
    assert watch.problem is None
    watch.tick(10.5)
    assert "top-left corner" in watch.problem
    other = TouchWatch()
    other.see(_Pointer("down", 0.01, 0.01, 0.0), 0.0)
    other.see(_Pointer("move", 0.2, 0.3, 1.0), 1.0)  # a finger that started in the corner and slid away
    other.tick(30.0)
    assert other.problem is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=60))
def test_fingers_anywhere_else_never_make_it_stuck(points):
    """Presses that are not all on one corner pixel (real fingers, corner buttons tapped by people) never do."""
    watch = TouchWatch()
    for i, (u, v) in enumerate(points):
        if watch._at_corner(u, v):  # a corner press by a person lands on another pixel each time
            u, v = (u + 0.02 * (i % 2)), v
        watch.see(_Pointer("down", u, v, float(i)), float(i))
        watch.see(_Pointer("up", u, v, i + 0.1), i + 0.1)
        watch.tick(i + 0.2)
    assert watch.problem is None
