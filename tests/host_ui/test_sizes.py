"""Lists that fit, measured on the pictures: at every laid-out size (landscape and portrait) and in every
language, every touch target is at least 40 px high and every text at least 10 px; the deed card's figures
are never cut; the Chance and Community Chest cards take at most two pages at 800x480, each tile with its
amount; the title deeds take at most three pages at 800x480, each tile with its colour stripe and price; a
bankruptcy confirmation shows every item handed over, whole; the most used player options are on the first
page; PgUp/PgDn page every list.

The scenes are those of :func:`host_ui.scenes.build_scenes` (reached through the real state machine); the
deck lists are reached through the state machine here, for both decks of two editions.
"""
from __future__ import annotations

import pytest

from host_ui.screen.render import SIZES, Renderer
from host_ui.screen.widgets import MIN_TARGET_PX, MIN_TEXT_PX
from terminal.bank.money import format_amount

LANGUAGES = ("fr", "en", "uk")
LOGICAL = [s for size in SIZES for s in (size, (size[1], size[0]))]
LOGICAL_IDS = [f"{w}x{h}" for w, h in LOGICAL]
KEY = bytes(range(32))
#: Texts that must never be shortened with an ellipsis: the deed card's and the deck tiles' figures.
WHOLE = {"deed_row", "deed_name", "amount", "balance", "worth", "property", "history_balance", "label"}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", LOGICAL, ids=LOGICAL_IDS)
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_targets_and_texts_are_big_enough_at_every_size(pg, scenes_by_language, language, size):
    problems = []
    for scene in scenes_by_language[language]:
        frame = Renderer(size, game=scene.game).render(scene.view, "12:34")
        where = f"{scene.name} {language} {size[0]}x{size[1]}"
        for rect, action in frame.hits:
            if rect.h < MIN_TARGET_PX:
                problems.append(f"{where}: button {action} is {rect.h} px high")
        for text in frame.texts:
            if text.px < MIN_TEXT_PX:
                problems.append(f"{where}: {text.role} {text.text!r} in a {text.px}-px font")
            if text.role in WHOLE and "…" in text.text:
                problems.append(f"{where}: {text.role} {text.text!r} was cut")
    assert not problems, "\n".join(problems[:30])


def _deck_view(tmp_path, edition, deck, language="fr"):
    """The list of ``deck``'s cards as the state machine shows it: the player's card, then the deck."""
    from hal.sim_beeper import SimBeeper
    from host_ui.demo import FakeClock, make_registry, player_uid
    from terminal.bank.game import Game
    from terminal.table.machine import Terminal
    from terminal.table.settings import TerminalSettings
    game = Game.create(tmp_path / f"{edition}-{deck}-{language}.db", edition, ["Anne", "Bob", "Chloé"], key=KEY)
    clock = FakeClock()
    terminal = Terminal(game, make_registry(3), SimBeeper(audio=False, clock=clock), clock,
                        TerminalSettings(language=language))
    terminal.present(player_uid(1))
    terminal.choose(deck)
    assert terminal.view.screen == "choose"
    return game, terminal


def _pages(renderer, view):
    """Every page of a paged list: [(frame, ids of the options shown)], by pressing the pager's next button."""
    renderer.ui = {"page": 0, "scroll": None}
    frames = []
    for _ in range(20):
        frame = renderer.render(view, "")
        frames.append((frame, [a[1] for _, a in frame.hits if a[0] == "choose"]))
        if ("page", 1) not in [a for _, a in frame.hits]:
            return frames
        renderer.ui_event(("page", 1))
    raise AssertionError("more than 20 pages")


@pytest.mark.parametrize("edition", ["fr", "us"])
@pytest.mark.parametrize("deck", ["chance", "community_chest"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_deck_takes_at_most_two_pages_at_800x480_with_its_amounts(pg, tmp_path, edition, deck, language):
    game, terminal = _deck_view(tmp_path, edition, deck, language)
    view = terminal.view
    cards = game.edition.decks[deck]
    for size in ((800, 480), (1024, 600), (1280, 720), (480, 320)):
        pages = _pages(Renderer(size, game=game), view)
        assert len(pages) <= 2, f"{edition} {deck} {size}: {len(pages)} pages"
        shown = [option for _, ids in pages for option in ids]
        assert sorted(shown, key=int) == [str(card.number) for card in cards], f"{size}: not every card is shown"
        amounts = [t.text for frame, _ in pages for t in frame.texts_with("amount")]
        fixed = [card for card in cards if card.action in ("collect", "pay")]
        for card in fixed:
            money = game.edition.currency_symbol
            assert any(str(card.params["amount"]) in a.replace("\u202f", "").replace(",", "") and money in a
                       for a in amounts), f"{size}: card {card.number}'s amount is not on its tile: {amounts}"
        titles = [t for frame, _ in pages for t in frame.texts_with("option")]
        assert all(len(t.text) <= 40 for t in titles), [t.text for t in titles if len(t.text) > 40]
    game.close()


def test_a_deck_tile_says_what_the_card_moves(pg, tmp_path):
    from host_ui.screen.context import Context
    from host_ui.screen.screens import deck_card_text, deck_card_tile, deck_cards
    game, terminal = _deck_view(tmp_path, "fr", "community_chest")
    ctx = Context(terminal.view, "fr", game.edition, "plain", game)
    cards = deck_cards(ctx)
    assert cards is not None
    tiles = {o.id: deck_card_tile(deck_card_text(o, ctx), cards[o.id], ctx) for o in terminal.view.options}
    assert tiles["2"] == ("Erreur de la banque en votre faveur", "+200\xa0€", 1)
    assert tiles["3"] == ("Note du médecin", "−50\xa0€", -1)
    assert tiles["9"] == ("C'est votre anniversaire", "+10\xa0€/joueur", 1)
    assert tiles["1"] == ("Retournez à la case Départ", "+200\xa0€", 1)
    assert tiles["5"][1:] == ("", 0)  # a Get Out of Jail Free card moves no money
    game.close()


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 720), (480, 320)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_most_used_player_options_are_on_the_first_page(pg, scenes_by_language, size):
    scene = next(s for s in scenes_by_language["fr"] if s.name == "player")
    frame = Renderer(size, game=scene.game).render(scene.view, "")
    first = {a[1] for _, a in frame.hits if a[0] == "choose"}
    wanted = {"pass_go", "transfer", "chance", "community_chest"}
    assert wanted <= first, f"{size}: {sorted(wanted - first)} not on the first page"
    assert scene.view.options[0].id == "pass_go", "F1 is the GO salary"


# -- PgUp / PgDn ------------------------------------------------------------------------------------------
class _Shown:
    """The terminal as the loop sees it: only its view (page keys never reach the state machine)."""

    def __init__(self, view):
        self.view = view
        self.version = 0
        self.beeps = 0

        self.shown_version = None

    def tick(self):
        pass

    def settle_writes(self):
        pass

    def shown(self, version):
        self.shown_version = version


def _app(pg, view, game, size=(800, 480)):
    from host_ui.screen.app import TerminalApp
    from host_ui.screen.display import WindowOutput
    from host_ui.screen.input_map import InputMapper
    pg.display.init()  # the simulator's tests quit the display when they end
    pg.font.init()
    times = iter(x * 0.5 for x in range(1, 100_000))
    return TerminalApp(_Shown(view), WindowOutput(size), Renderer(size, game=game), InputMapper(size),
                       monotonic=lambda: next(times), wall_clock=lambda: "12:00")


def _key(pg, app, key):
    pg.event.post(pg.event.Event(pg.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    app.step()


def _page_label(frame):
    return next((t.text for t in frame.texts if "/" in t.text and t.role == "footer"), None)


@pytest.mark.parametrize("name", ["choose_chance", "player", "banker", "new_game", "trade"])
def test_page_keys_page_every_list(pg, scenes_by_language, name):
    scene = next(s for s in scenes_by_language["fr"] if s.name == name)
    pg.display.init()  # the simulator's tests quit the display when they end
    for size in ((800, 480), (480, 320), (320, 480)):
        pg.event.clear()
        app = _app(pg, scene.view, scene.game, size)
        app.step()
        if _page_label(app.frame) is None:
            continue  # everything on one page at this size
        first = [a for _, a in app.frame.hits if a[0] == "choose"]
        assert _page_label(app.frame).startswith("1/")
        _key(pg, app, pg.K_PAGEDOWN)
        assert _page_label(app.frame).startswith("2/"), f"{name} {size}: PgDn did not turn the page"
        assert [a for _, a in app.frame.hits if a[0] == "choose"] != first
        for _ in range(10):  # past the last page, then back: one PgUp per page
            _key(pg, app, pg.K_PAGEDOWN)
        pages = int(_page_label(app.frame).split("/")[1])
        assert _page_label(app.frame) == f"{pages}/{pages}"
        for _ in range(pages - 1):
            _key(pg, app, pg.K_PAGEUP)
        assert _page_label(app.frame).startswith("1/"), f"{name} {size}: PgUp did not come back"
        assert [a for _, a in app.frame.hits if a[0] == "choose"] == first
        break
    else:
        pytest.fail(f"{name}: never paged, at any size: the test checks nothing")


def test_page_keys_scroll_the_history_by_a_screenful(pg, scenes_by_language):
    scene = next(s for s in scenes_by_language["fr"] if s.name == "history")
    pg.display.init()
    pg.event.clear()
    app = _app(pg, scene.view, scene.game, (480, 320))
    app.step()

    def seqs():
        return [t.text for t in app.frame.texts_with("history_seq")]
    last = seqs()
    _key(pg, app, pg.K_PAGEUP)
    earlier = seqs()
    assert earlier and earlier != last
    assert int(earlier[0][1:]) == int(last[0][1:]) - len(last) or int(earlier[0][1:]) == 1
    _key(pg, app, pg.K_PAGEDOWN)
    assert seqs() == last


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_bankruptcy_confirmation_shows_every_detail_whole(pg, scenes_by_language, language):
    """Four stations (two mortgaged), a utility and a Jail card to Anne: every item is on the screen, whole,
    in a readable font, inside the screen and without overlapping, at every laid-out size."""
    from terminal.table.i18n import text as translate
    scene = next(s for s in scenes_by_language[language] if s.name == "confirm_bankruptcy_many")
    receives = next(d for d in scene.view.pending.details if d.code == "bk_receives")
    items, rest = [], receives.params["items"]
    while rest.code == "joined_list":
        items.append(rest.params["first"])
        rest = rest.params["rest"]
    items.append(rest)
    assert len(items) >= 6 and sum(i.code == "bk_deed_mortgaged" for i in items) == 2
    assert any(i.code == "bk_jail_card" for i in items)
    wanted = [translate(i, language) for i in items] + [translate(d, language) for d in scene.view.pending.details
                                                        if d.code != "bk_receives"]
    problems = []
    for size in LOGICAL:
        frame = Renderer(size, game=scene.game).render(scene.view, "12:34")
        where = f"{language} {size[0]}x{size[1]}"
        details = frame.texts_with("detail")
        shown = " ".join(t.text for t in details)
        problems += [f"{where}: {item!r} is not shown whole" for item in wanted if item not in shown]
        problems += [f"{where}: {t.text!r} was cut" for t in details if "…" in t.text]
        problems += [f"{where}: {t.text!r} in a {t.px}-px font" for t in details if t.px < MIN_TEXT_PX]
        screen = frame.surface.get_rect()
        problems += [f"{where}: {t.text!r} is off the screen" for t in details if not screen.contains(t.rect)]
        problems += [f"{where}: {a.text!r} overlaps {b.text!r}" for i, a in enumerate(details)
                     for b in details[i + 1:] if a.rect.colliderect(b.rect)]
    assert not problems, "\n".join(problems[:30])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("size", "most"), [((800, 480), 3), ((480, 320), 4), ((1280, 720), 3)])
def test_the_deed_list_takes_a_few_pages_of_tiles_with_their_colour(pg, scenes_by_language, language, size, most):
    """Every title deed once, in at most ``most`` pages, each tile a touch target with the deed's name, its price
    and its colour group's stripe at its left edge."""
    from host_ui.screen import theme
    scene = next(s for s in scenes_by_language[language] if s.name == "choose_deed")
    edition = scene.game.edition
    renderer = Renderer(size, game=scene.game)
    pages = _pages(renderer, scene.view)
    assert len(pages) <= most, f"{size}: {len(pages)} pages"
    shown = [option for _, ids in pages for option in ids]
    assert sorted(shown, key=int) == [str(d.index) for d in edition.deeds()]
    for frame, ids in pages:
        tiles = [(rect, action[1]) for rect, action in frame.hits if action[0] == "choose"]
        names = [t.text for t in frame.texts_with("option")]
        for rect, square in tiles:
            deed = edition.squares[int(square)]
            assert rect.h >= MIN_TARGET_PX
            assert deed.name_in(language) in " ".join(names), deed.name
            band = theme.GROUP_COLOURS.get(deed.group or "", theme.GROUP_COLOURS.get(deed.kind))
            assert tuple(frame.surface.get_at((rect.x + 2, rect.centery)))[:3] == tuple(band)[:3], deed.name
        prices = [t.text for t in frame.texts_with("amount")]
        assert len(prices) == len(ids) and all("…" not in p for p in prices)


#: The screens that draw a title deed's card (the classic board's and the electronic board's).
DEED_SCENES = ("deed_for_sale", "deed_owned", "deed_mortgaged", "offer", "own_deed", "own_deed_refused",
               "ub_deed_for_sale", "ub_deed_owned", "ub_own_deed")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", [(480, 320), (320, 480)], ids=["480x320", "320x480"])
def test_the_deed_card_text_is_at_least_12_px_on_the_smallest_screen(pg, scenes_by_language, language, size):
    """Every rent and figure of the card in a font of 12 px or more on the 3.5" panel (it was 10 px there, the
    ink about 9 px high), and the rent now among them when the deed has one."""
    problems = []
    for scene in scenes_by_language[language]:
        if scene.name not in DEED_SCENES:
            continue
        frame = Renderer(size, game=scene.game).render(scene.view, "12:34")
        where = f"{scene.name} {language} {size[0]}x{size[1]}"
        rows = frame.texts_with("deed_row")
        assert rows, f"{where}: no deed card drawn"
        problems += [f"{where}: {t.text!r} in a {t.px}-px font" for t in rows if t.px < 12]
        deed = scene.view.deed
        if deed is not None and deed.rent is not None and deed.owner is not None and deed.kind != "utility":
            rent = format_amount(deed.rent, scene.game.edition, language)
            assert rent in [t.text for t in rows], f"{where}: the rent now ({rent}) is not on the card"
    assert not problems, "\n".join(problems)


#: Eight names of up to 12 letters: wide Latin letters, Cyrillic, a name of two words, a hyphenated one.
EIGHT = ("Marie-Claire", "Mwangi Wambu", "Wheelbarrow", "Наперсток", "Maximilienne", "Олександрина", "Bartholomew",
         "Wojciech Woź")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", LOGICAL, ids=LOGICAL_IDS)
def test_eight_seats_show_their_names_whole_in_the_new_game_wizard(pg, tmp_path, language, size):
    """The wizard with eight seats taken, each card named as in the game before (names of 12 letters): every
    seat's button shows "N. name" whole, as a touch target of at least 40 px, and no text of the screen is
    cut. At 480x320 the names were cut to three letters ("Boh…")."""
    from hal.sim_beeper import SimBeeper
    from host_ui.demo import BANKER_UID, FakeClock, make_registry, player_uid
    from host_ui.screen.fit import frame_problems
    from terminal.bank.game import Game
    from terminal.table.machine import Terminal
    from terminal.table.settings import TerminalSettings
    assert all(len(name) <= 12 for name in EIGHT) and max(len(name) for name in EIGHT) == 12
    game = Game.create(tmp_path / "eight.db", "fr", EIGHT, key=KEY,
                       player_cards={name: player_uid(seat) for seat, name in enumerate(EIGHT, start=1)})
    clock = FakeClock()
    terminal = Terminal(game, make_registry(8), SimBeeper(audio=False, clock=clock), clock,
                        TerminalSettings(language=language), game_factory=lambda *a, **k: game)
    terminal.present(BANKER_UID)
    terminal.choose("new_game")
    for seat in range(1, 9):
        clock.advance(2.0)
        terminal.present(player_uid(seat))
    view = terminal.view
    assert view.screen == "new_game" and [n for n, _ in view.extra["seats"]] == list(EIGHT)
    frame = Renderer(size, game=game).render(view, "12:34")
    where = f"{language} {size[0]}x{size[1]}"
    seats = frame.texts_with("seat")
    shown = {}
    for text in seats:
        shown.setdefault(text.block, []).append(text.text)
    assert {f"{i}. {name}" for i, name in enumerate(EIGHT, start=1)} == set(shown), (where, shown)
    for label, lines in shown.items():
        assert " ".join(lines) == label and not any(t.cut for t in seats if t.block == label), (where, lines)
    targets = [rect for rect, action in frame.hits if action[0] == "choose" and action[1].startswith("rename:")]
    assert len(targets) == 8 and min(r.h for r in targets) >= MIN_TARGET_PX, (where, targets)
    assert frame_problems(frame, where) == []


def test_a_deed_card_too_short_for_its_table_shows_the_rent_now_and_the_figures(pg, scenes_by_language):
    """In an area too short for the six rents and three figures at 12 px, the card keeps 12 px and shows the
    rent now (four houses: 450 €) and the price, mortgage value and house cost; the whole table otherwise."""
    from dataclasses import replace

    from cards.editions import localized
    from host_ui.screen.deed_card import draw_deed
    from host_ui.screen.widgets import Canvas
    from terminal.table.i18n import translate
    scene = next(s for s in scenes_by_language["en"] if s.name == "deed_owned")
    deed = replace(scene.view.deed, name=localized(scene.view.deed.name, "en"))
    assert deed.level == 4 and deed.rent == 450

    def t(code, **params):
        return translate(code, params, "en")

    def fmt(amount):
        return format_amount(amount, scene.game.edition, "en")

    def rows_drawn(height):
        c = Canvas(pg.Surface((480, 320)), 1.0)
        draw_deed(c, pg.Rect(10, 10, 200, height), deed, t, fmt, compact=True)
        rows = [x for x in c.texts if x.role == "deed_row"]
        assert rows and min(x.px for x in rows) >= 12, [(x.text, x.px) for x in rows]
        return [x.text for x in rows]
    figures = [fmt(deed.price), fmt(deed.mortgage_value), fmt(deed.house_cost)]
    short = rows_drawn(130)
    assert short[:2] == ["With 4 houses", fmt(450)] and short[3::2] == figures and len(short) == 8, short
    tall = rows_drawn(300)
    assert tall[1::2] == [fmt(rent) for rent in deed.rents] + figures, tall
