"""The history screen reads the game a page at a time (terminal.bank.history.HistoryPages) and draws the very
texts it drew from the whole history in memory (every entry read at once, balances counted from every posting)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from host_ui.screen.render import SIZES, Renderer
from tests.terminal.oracles import journal_of

ROLES = ("history_seq", "history_what", "history_moves", "history_balance")


def texts(frame) -> list[tuple[str, str]]:
    return [(t.role, t.text) for t in frame.texts if t.role in ROLES]


@pytest.mark.parametrize("language", ["fr", "en", "uk"])
def test_the_paged_history_draws_the_texts_of_the_whole_history(pg, scenes_by_language, language):
    scene = next(s for s in scenes_by_language[language] if s.name == "history")
    game = scene.game
    assert type(scene.view.extra["history"]).__name__ == "HistoryPages"
    whole = replace(scene.view, extra={**scene.view.extra, "history": journal_of(game)})
    for size in SIZES:
        paged_r, whole_r = Renderer(size, game=game), Renderer(size, game=game)
        pages = set()
        for step in range(12):  # the last page, then a page up at a time, to the top and past it
            paged, listed = paged_r.render(scene.view, ""), whole_r.render(whole, "")
            assert texts(paged) and texts(paged) == texts(listed), f"{size}, {step} pages up"
            assert any(role == "history_balance" for role, _ in texts(paged))
            pages.add(tuple(texts(paged)))
            paged_r.ui_event(("page", -1))
            whole_r.ui_event(("page", -1))
        assert len(pages) > 1, f"{size}: the history never scrolled"
