"""The Ukrainian screen shows the edition's Ukrainian names and card texts (issue 13, point 4): every text
drawn on every scene, the deed cards, the deed and deck lists, the confirmations, the history and the
standings included, names the deeds in Ukrainian and never in the edition's French."""
from __future__ import annotations

import pytest

from cards.editions import load_edition

FR = load_edition("fr")
# The French names a Ukrainian screen must not show (the names equal in both languages are left out).
FRENCH_ONLY = {s.name for s in FR.squares if s.name_in("uk") != s.name}


@pytest.fixture(scope="module")
def frames(pg, tmp_path_factory):
    from host_ui.scenes import build_scenes
    from host_ui.screen.render import Renderer
    renderer = Renderer((800, 480))
    out = {}
    for scene in build_scenes(tmp_path_factory.mktemp("scenes-uk"), "uk"):
        renderer.game = scene.game
        out[scene.name] = renderer.render(scene.view, "12:34")
    return out


def _texts(frame) -> list[str]:
    return [t.text for t in frame.texts]


def test_no_french_deed_name_on_any_ukrainian_scene(frames):
    problems = [f"{name}: {text!r}" for name, frame in frames.items() for text in _texts(frame)
                if any(french.upper() in text.upper() for french in FRENCH_ONLY)]
    assert not problems, "\n".join(problems[:20])


def test_the_rent_the_deed_card_and_the_deck_in_ukrainian(frames):
    rent = " | ".join(_texts(frames["confirm_rent"]))
    assert "Оренда" in rent and "Авеню Республіки" in rent  # the purpose and the deed card, in Ukrainian
    assert "АВЕНЮ РЕСПУБЛІКИ" in _texts(frames["deed_owned"]) or "АВЕНЮ РЕСПУБЛІКИ" in rent
    chance = " | ".join(_texts(frames["choose_chance"]))
    assert "Вирушайте на вулицю Миру" in chance and "«СТАРТ»" in chance
    deeds = _texts(frames["choose_deed"])
    assert "Бульвар Бельвіль" in deeds and "Вулиця Лекурб" in deeds


def test_the_history_names_the_deeds_in_ukrainian(frames):
    history = " | ".join(_texts(frames["history"]))
    assert "Оренда: Авеню Республіки" in history, history[:400]
