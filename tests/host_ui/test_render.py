"""Every screen, in every language, at every size and rotation: real pixels, not just no exception.

A screen is drawn once per (language, size, orientation) -- rotations 0 and 180 share the landscape
picture, 90 and 270 the portrait one -- and each picture is checked:

- every text drawn lies inside the screen and has ink (it is not background only);
- nothing overlaps another text (the MORTGAGED stamp excepted: it is drawn over the card on purpose);
- money is never shortened with an ellipsis, and no text is smaller than 9 pixels;
- every button's target lies inside the screen;
- on idle, every player's balance is drawn, formatted by ``format_amount``, large, and has ink.

Then the picture is turned for each rotation and the players' balances are found at the turned place.
"""
from __future__ import annotations

import pytest

from host_ui.screen.render import SIZES, Renderer, to_panel
from terminal.bank.money import format_amount
from tests.terminal.oracles import journal_of

LANGUAGES = ("fr", "en", "uk")
MONEY_ROLES = {"balance", "amount", "keypad_value", "best_bid", "worth", "property"}
OVERLAP_OK = {"stamp"}


def _has_ink(pg, surface, rect) -> bool:
    sub = surface.subsurface(rect)
    corner = sub.get_at((0, 0))
    same = pg.mask.from_threshold(sub, corner, (12, 12, 12, 255)).count()
    return same < rect.w * rect.h


def _check_frame(pg, frame, size, where):
    screen = pg.Rect(0, 0, *size)
    problems = []
    for text in frame.texts:
        if not screen.contains(text.rect):
            problems.append(f"{where}: {text.role} {text.text!r} at {text.rect} is clipped off the screen")
            continue
        if text.rect.w and text.rect.h and not _has_ink(pg, frame.surface, text.rect):
            problems.append(f"{where}: {text.role} {text.text!r} has no ink")
        if text.size < 9:
            problems.append(f"{where}: {text.role} {text.text!r} is {text.size} px high: unreadable")
        if text.role in MONEY_ROLES and "…" in text.text:
            problems.append(f"{where}: amount {text.text!r} was shortened")
    texts = [t for t in frame.texts if t.role not in OVERLAP_OK and t.rect.w and t.rect.h]
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            overlap = a.rect.clip(b.rect)
            if overlap.w > 2 and overlap.h > 2:
                problems.append(f"{where}: {a.role} {a.text!r} overlaps {b.role} {b.text!r}")
    for rect, action in frame.hits:
        if not screen.contains(rect):
            problems.append(f"{where}: button {action} at {rect} is off the screen")
    return problems


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_every_screen_renders_readably(pg, scenes_by_language, language, size):
    scenes = scenes_by_language[language]
    problems = []
    for orientation, rotations in (("landscape", (0, 180)), ("portrait", (90, 270))):
        logical = size if orientation == "landscape" else (size[1], size[0])
        renderer = Renderer(logical)
        for scene in scenes:
            renderer.game = scene.game
            frame = renderer.render(scene.view, "12:34")
            assert frame.surface.get_size() == logical
            where = f"{scene.name} {language} {logical[0]}x{logical[1]}"
            problems += _check_frame(pg, frame, logical, where)
            if scene.view.screen == "idle" and scene.view.players:
                problems += _check_balances(pg, frame, scene, language, logical, rotations, where)
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} problems)"


def _check_balances(pg, frame, scene, language, logical, rotations, where):
    from cards.editions import load_edition
    edition = load_edition(scene.view.edition)
    problems = []
    balances = frame.texts_with("balance")
    drawn = {t.text for t in balances}
    for line in scene.view.players:
        if line.bankrupt:
            continue
        expected = format_amount(line.cash, edition, language)
        if expected not in drawn:
            problems.append(f"{where}: {line.name}'s balance {expected!r} is not drawn (drawn: {drawn})")
    min_height = 0.07 * min(logical)  # across the table: at least 7 % of the short side
    for text in balances:
        if text.size < min_height:
            problems.append(f"{where}: balance {text.text!r} only {text.size} px high")
    for rotation in rotations:
        panel = to_panel(frame.surface, rotation)
        for text in balances:
            turned = _turn_rect(pg, text.rect, logical, rotation)
            if not _has_ink(pg, panel, turned):
                problems.append(f"{where} rotated {rotation}: balance {text.text!r} not found at {turned}")
    return problems


def _turn_rect(pg, rect, size, rotation):
    w, h = size
    x, y, rw, rh = rect
    if rotation == 0:
        return pg.Rect(rect)
    if rotation == 180:
        return pg.Rect(w - x - rw, h - y - rh, rw, rh)
    if rotation == 90:   # clockwise: (x, y) -> (h - y - rh, x)
        return pg.Rect(h - y - rh, x, rh, rw)
    return pg.Rect(y, w - x - rw, rh, rw)


def test_every_screen_of_the_machine_is_covered(scenes_by_language):
    from terminal.table.screens import SCREENS
    screens = {scene.view.screen for scene in scenes_by_language["fr"]}
    expected = {"idle", "deed", "offer", "own_deed", "player", "keypad", "pin", "confirm", "choose", "auction",
                "trade", "bankruptcy", "banker", "history", "new_game", "enrol", "game_over",
                "event", "location"}  # the electronic board's own screens
    assert expected <= screens, expected - screens
    assert set(SCREENS) <= screens, f"declared screens without a scene: {sorted(set(SCREENS) - screens)}"


def test_texts_are_translated(pg, scenes_by_language):
    renderer = Renderer((800, 480))
    titles = {}
    for language in LANGUAGES:
        idle = next(s for s in scenes_by_language[language] if s.name == "idle")
        titles[language] = renderer.render(idle.view, "").texts_with("title")[0].text
    assert titles == {"fr": "Touchez une carte", "en": "Tap a card", "uk": "Прикладіть картку"}


def test_buttons_lead_to_the_options_of_the_view(pg, scenes_by_language):
    player = next(s for s in scenes_by_language["fr"] if s.name == "player")
    renderer = Renderer((800, 480))
    frame = renderer.render(player.view, "")
    chosen = {action[1] for _, action in frame.hits if action[0] == "choose"}
    enabled = [o.id for o in player.view.options if o.enabled]
    assert chosen and chosen <= set(enabled)
    assert ("page", 1) in [a for _, a in frame.hits]  # the rest is one page further
    renderer.ui_event(("page", 1))
    second = renderer.render(player.view, "")
    chosen |= {action[1] for _, action in second.hits if action[0] == "choose"}
    assert chosen == set(enabled)


def test_font_has_euro_dollar_and_cyrillic(pg):
    from host_ui.screen import theme
    assert theme.check_glyphs() == []
    assert theme.font_dir().joinpath("LICENSE-DejaVu.txt").is_file()


def test_game_over_draws_a_line_per_player(pg, scenes_by_language):
    scene = next(s for s in scenes_by_language["en"] if s.name == "game_over")
    renderer = Renderer((1024, 600), game=scene.game)
    frame = renderer.render(scene.view, "")
    assert len(renderer.worth_history()) == len(journal_of(scene.game))
    from host_ui.screen import theme
    for line in scene.view.players:
        colour = theme.player_colour(line.seat)
        count = pg.mask.from_threshold(frame.surface, colour, (2, 2, 2, 255)).count()
        assert count > 100, f"{line.name}'s line is missing from the chart"
    assert {t.text for t in frame.texts_with("chart_legend")} == {p.name for p in scene.view.players}
