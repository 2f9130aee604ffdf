"""The electronic board's screens name everything in the reader's language: every text of their views (titles,
options, messages, confirmations) is a catalog entry with its French, English and Ukrainian texts, and none is
shown as its code; and every choice they offer can be touched at every size and orientation (on its page)."""
from __future__ import annotations

import pytest

from terminal.table.i18n import has_text, text
from terminal.table.view import Msg


def _msgs(value):
    """Every Msg in a view (nested params included)."""
    if isinstance(value, Msg):
        yield value
        for param in (value.params or {}).values():
            yield from _msgs(param)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _msgs(item)


@pytest.mark.parametrize("language", ("fr", "en", "uk"))
def test_every_text_of_the_boards_screens_is_translated(scenes_by_language, language):
    problems = []
    for scene in scenes_by_language[language]:
        if not scene.name.startswith("ub_"):
            continue
        view = scene.view
        found = [view.title, view.message, *(o.label for o in view.options)]
        if view.pending is not None:
            found += [view.pending.purpose, view.pending.warning, *view.pending.details]
        found += [v for v in (view.extra or {}).values() if isinstance(v, Msg)]
        for msg in _msgs(found):
            if msg.code in ("name", "deck_card"):  # a name or a card's own text, as the edition gives it
                continue
            if not has_text(msg.code, language):
                problems.append(f"{scene.name}: {msg.code} has no {language} text")
            elif text(msg, language) == msg.code:
                problems.append(f"{scene.name}: {msg.code} is shown as its code")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("board", ("ub_", ""))
@pytest.mark.parametrize("language", ("fr", "uk"))
def test_every_choice_of_the_boards_screens_can_be_touched(pg, scenes_by_language, language, board):
    # board "": every scene, the classic ones too (the classic offer upright once had no page buttons, so
    # "Decline: auction" could not be touched at 320x480)
    from host_ui.screen.render import SIZES, Renderer
    problems = []
    for size in [s for landscape in SIZES for s in (landscape, (landscape[1], landscape[0]))]:
        for scene in scenes_by_language[language]:
            if not scene.name.startswith(board):
                continue
            renderer = Renderer(size)
            renderer.game = scene.game
            touched = set()
            for _ in range(10):  # every page of the list
                frame = renderer.render(scene.view, "")
                touched |= {action[1] for _, action in frame.hits if action[0] == "choose"}
                if ("page", 1) not in [action for _, action in frame.hits]:
                    break
                renderer.ui_event(("page", 1))
            wanted = {o.id for o in scene.view.options if o.enabled}
            if wanted - touched:
                problems.append(f"{scene.name} {size[0]}x{size[1]}: {sorted(wanted - touched)} cannot be touched")
    assert not problems, "\n".join(problems)
