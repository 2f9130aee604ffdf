"""Screens that fit every language: every text whole, inside its room and the screen, over no other text and
across no widget's edge (:mod:`host_ui.screen.fit`), on every screen the scenes know, on every page of its
lists, in French, English and Ukrainian, at every laid-out size in landscape and portrait.

The checker is tested first on its own (a text that does not fit is reported, so the matrix can fail), then on
a real screen given a deliberately too-long label; then the screens.
"""
from __future__ import annotations

import pytest

from host_ui.screen.fit import frame_problems
from host_ui.screen.render import SIZES, Renderer

LANGUAGES = ("fr", "en", "uk")
#: Every laid-out size, landscape then portrait (the panel turned 90 degrees).
LOGICAL = [s for size in SIZES for s in (size, (size[1], size[0]))]
#: The smallest screen both ways: where the longest (Ukrainian) labels are tightest.
SMALLEST = [(480, 320), (320, 480)]


def _canvas(pg, size=(480, 320)):
    from host_ui.screen.widgets import Canvas
    return Canvas(pg.Surface(size), min(size) / 320)


class _Drawn:
    """What a canvas drew, shaped like a :class:`host_ui.screen.render.Frame` for the checker."""

    def __init__(self, c):
        self.surface, self.texts, self.widgets, self.hits = c.surface, c.texts, c.widgets, c.hits


# -- the checker on its own ------------------------------------------------------------------------------
def test_texts_that_fit_are_not_reported(pg):
    c = _canvas(pg)
    c.text((10, 10, 300, 30), "Anne", 16, role="player_name")
    c.paragraph((10, 50, 300, 60), "Anne pays 200 € to Bohdan and still owes 40 €", 13, role="warning")
    c.button((10, 120, 200, 50), "Cancel", ("cancel",))
    assert frame_problems(_Drawn(c)) == []


def test_a_label_too_long_for_its_button_is_reported_as_cut(pg):
    c = _canvas(pg)
    c.button((10, 10, 90, 44), "Прикладіть картку гравця, щоб підтвердити продаж усіх будинків", ("confirm",))
    problems = frame_problems(_Drawn(c), "here")
    assert problems and all(p.startswith("here: ") for p in problems)
    assert any("is cut to" in p and "Прикладіть картку гравця, щоб" in p for p in problems), problems
    drawn = [t for t in c.texts if t.cut]
    assert drawn and drawn[-1].text.endswith("…") and drawn[-1].block.startswith("Прикладіть")


def test_a_paragraph_with_more_lines_than_allowed_is_reported_as_cut(pg):
    c = _canvas(pg)
    c.paragraph((10, 10, 120, 30), "one two three four five six seven eight nine ten eleven twelve", 13,
                max_lines=1, role="hint")
    problems = frame_problems(_Drawn(c))
    assert len([p for p in problems if "is cut to" in p]) == 1, problems
    assert "twelve" in problems[0]  # it names the whole text asked for, not only what was shown


def test_a_text_taller_than_its_room_is_reported(pg):
    c = _canvas(pg)
    c.text((10, 10, 300, 8), "Ж", 30, min_size=30, role="amount")  # the font cannot shrink below 30 px
    problems = frame_problems(_Drawn(c))
    assert any("outside its room" in p for p in problems), problems


def test_a_text_off_the_screen_is_reported(pg):
    c = _canvas(pg)
    c.text((400, 10, 300, 30), "Bohdan", 16, align="right", role="balance")  # a room wider than the screen
    problems = frame_problems(_Drawn(c))
    assert any("off the screen" in p for p in problems), problems


def test_overlapping_texts_are_reported_but_not_the_stamp(pg):
    c = _canvas(pg)
    c.text((10, 10, 200, 30), "Chloé", 18, role="payer")
    c.text((20, 15, 200, 30), "Dmytro", 18, role="payee")
    problems = frame_problems(_Drawn(c))
    assert any("'Chloé' overlaps" in p and "'Dmytro'" in p for p in problems), problems
    c = _canvas(pg)
    c.text((10, 10, 200, 30), "Chloé", 18, role="payer")
    c.text((20, 15, 200, 30), "MORTGAGED", 18, role="stamp")
    assert frame_problems(_Drawn(c)) == []


def test_a_text_across_a_widgets_edge_is_reported(pg):
    c = _canvas(pg)
    c.box((100, 100, 100, 40), (50, 50, 50))
    c.text((150, 105, 200, 30), "Громадська скарбниця", 14, role="hint")  # starts inside, runs out
    problems = frame_problems(_Drawn(c))
    assert any("crosses the edge of box" in p for p in problems), problems
    c = _canvas(pg)
    c.box((100, 100, 100, 40), (50, 50, 50))
    c.text((100, 100, 100, 40), "Шанс", 14, role="hint")  # inside: fine
    c.text((220, 100, 100, 40), "Шанс", 14, role="hint")  # beside: fine
    assert frame_problems(_Drawn(c)) == []


def test_overlapping_buttons_are_reported(pg):
    c = _canvas(pg)
    c.button((10, 10, 100, 50), "OK", ("confirm",))
    c.button((60, 30, 100, 50), "C", ("digit", "C"))
    problems = frame_problems(_Drawn(c))
    assert any("buttons ('confirm',) and ('digit', 'C') overlap" in p for p in problems), problems


# -- a real screen given a too-long label ----------------------------------------------------------------
def test_a_screen_with_a_too_long_label_fails_the_check(pg, scenes_by_language, monkeypatch):
    """The idle screen fits; with its first button's label made far too long, the check names that label."""
    from host_ui.screen import context
    idle = next(s for s in scenes_by_language["uk"] if s.name == "idle")
    renderer = Renderer((480, 320), game=idle.game)
    assert frame_problems(renderer.render(idle.view, "12:34")) == []
    label = idle.view.options[0].label
    long_label = "Дуже довга назва кнопки, якої жоден перекладач не написав би для такої маленької кнопки"
    translate = context.translate

    def longer(code, params, language, *args):
        return long_label if code == label.code else translate(code, params, language, *args)
    monkeypatch.setattr(context, "translate", longer)
    problems = frame_problems(renderer.render(idle.view, "12:34"), "idle uk 480x320")
    assert problems and any("Дуже довга назва кнопки" in p for p in problems), problems


# -- every screen ----------------------------------------------------------------------------------------
def _pages(renderer, scene):
    """Every page of the scene's screen (a paged list turned by its pager's next button)."""
    renderer.game = scene.game
    renderer.ui, renderer._ui_key = {"page": 0, "scroll": None}, None
    frames = []
    for _ in range(12):
        frame = renderer.render(scene.view, "12:34")
        frames.append(frame)
        if ("page", 1) not in [action for _, action in frame.hits]:
            break
        renderer.ui_event(("page", 1))
    return frames


def _screen_problems(scenes, language, size):
    renderer = Renderer(size)
    problems = []
    for scene in scenes:
        for page, frame in enumerate(_pages(renderer, scene), start=1):
            problems += frame_problems(frame, f"{scene.name} p{page} {language} {size[0]}x{size[1]}")
    return problems


@pytest.mark.parametrize("size", SMALLEST, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_ukrainian_screen_fits_the_smallest_screen(pg, scenes_by_language, size):
    """The fast subset: every scene and page in Ukrainian (the longest labels) on the 3.5" panel both ways."""
    problems = _screen_problems(scenes_by_language["uk"], "uk", size)
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} problems)"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", LOGICAL, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.slow  # the whole matrix (3 languages x 8 sizes x every scene and page): in the full run only
def test_every_screen_fits_in_every_language_at_every_size(pg, scenes_by_language, language, size):
    problems = _screen_problems(scenes_by_language[language], language, size)
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} problems)"


@pytest.mark.slow  # writes some 150 pictures
def test_the_screenshot_tool_writes_the_ukrainian_game_and_checks_it(pg, tmp_path, monkeypatch):
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "tools" / "render_screens.py"
    spec = importlib.util.spec_from_file_location("render_screens", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    monkeypatch.setenv("BANQUIER_KEY_FILE", str(tmp_path / "device.key"))
    assert tool.main(["--out", str(tmp_path / "shots"), "--check"]) == 0
    written = {p.name for p in (tmp_path / "shots").iterdir()}
    for name in ("idle", "confirm_rent", "choose_chance", "chance_repairs", "bankruptcy", "game_over"):
        assert f"{name}-uk-800x480.png" in written


def test_an_unfilled_placeholder_is_reported(pg):
    c = _canvas(pg)
    c.text((10, 10, 300, 30), "{text}", 16, role="purpose")  # a catalog entry whose parameter was not given
    c.text((10, 50, 300, 30), "1 500 € {amount}", 16, role="hint")
    problems = frame_problems(_Drawn(c))
    assert [p.split("placeholder ")[1] for p in problems] == ["{text}", "{amount}"], problems
