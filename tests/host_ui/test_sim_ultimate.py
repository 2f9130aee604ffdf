"""A whole game on the electronic board ("Ultimate Banking", issue 16) in the simulator, headless, driven only by
taps: the virtual cards of the tray clicked (player cards, deed stickers, Event cards, the banker card) and the
buttons of the screen clicked where they are drawn. From the banker's new-game wizard (the edition chosen,
five players seated by their cards) to the standings at the first bankruptcy; every step checks what the
Bank recorded."""
from __future__ import annotations

import pytest

from host_ui.demo import BANKER_UID, event_uid, player_uid
from terminal.table.settings import TerminalSettings

KEY = bytes(range(32))


class Hands:
    """A person at the simulator: clicks a tray card (a tap on the reader) or a button of the screen, then lets
    the loop run (the table's clock moves two seconds a click, the pace of a person)."""

    def __init__(self, pg, app):
        self.pg, self.app = pg, app
        self.tray = app.on_frame.__self__
        self.clock = app.terminal.clock
        # the touch filter's intervals are a person's pace in real time: the clicks below come faster
        app.mapper.min_interval_s = app.mapper.min_gap_s = app.mapper.dedup_s = 0.0

    @property
    def view(self):
        return self.app.terminal.view

    @property
    def game(self):
        return self.app.terminal.game

    def _click(self, rect) -> None:
        pg = self.pg
        scale = getattr(self.app.output, "scale", 1.0)
        pos = (round(rect.centerx * scale), round(rect.centery * scale))
        pg.event.post(pg.event.Event(pg.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))
        pg.event.post(pg.event.Event(pg.MOUSEBUTTONUP, pos=pos, button=1, touch=False))
        self._settle()

    def _settle(self) -> None:
        self.app.step()
        for _ in range(3):  # the reader sees the card, then its removal after the debounce
            self.clock.advance(0.7)
            self.app.step()
        self.app.draw_if_needed(self.app.monotonic(), force=True)

    def tap(self, uid: str) -> None:
        self.tray._layout()
        rect = next(r for r, card_uid, *_ in self.tray.cards if card_uid == uid)
        self._click(rect)

    def deed(self, square: int) -> None:
        """Tap the sticker the tray shows for the property on ``square`` (its name on the card)."""
        name = self.game.edition.squares[square].name
        self.tray._layout()
        rect = next(r for r, _, label, _, kind in self.tray.cards if kind == "deed" and label == name)
        self._click(rect)

    def press(self, action) -> None:
        """Click the button of ``action`` (turning the pages of a list until it is drawn)."""
        for _ in range(6):
            rects = [r for r, a in self.app.frame.hits if a == action]
            if rects:
                return self._click(rects[0])
            forward = [r for r, a in self.app.frame.hits if a == ("page", 1)]
            assert forward, f"no button {action} on {self.view.screen}: {[a for _, a in self.app.frame.hits]}"
            self._click(forward[0])
        raise AssertionError(f"no button {action} on any page of {self.view.screen}")

    def choose(self, option: str) -> None:
        self.press(("choose", option))

    def ok(self) -> None:
        assert self.view.screen == "confirm", (self.view.screen, self.view.message)
        self.press(("confirm",))


def _game_from_the_wizard(hands: Hands, players: int) -> None:
    hands.tap(BANKER_UID)
    assert hands.view.screen == "banker"
    hands.choose("new_game")
    assert hands.view.screen == "new_game"
    for _ in range(12):
        if hands.app.terminal.dialog.edition == "ultimate":
            break
        hands.choose("edition")
    assert hands.app.terminal.dialog.edition == "ultimate" and hands.app.terminal.dialog.mode == "ultimate"
    for seat in range(1, players + 1):
        hands.tap(player_uid(seat))
    hands.choose("start")
    assert hands.view.screen == "idle" and hands.game.edition.is_ultimate, hands.view.message


@pytest.mark.slow  # a whole game through the window's loop: several seconds
def test_a_whole_game_on_the_electronic_board_from_the_wizard_to_the_standings(pg, tmp_path):
    from host_ui.sim import run_sim
    seen = {}

    def script(app):
        hands = Hands(pg, app)
        seen["hands"] = hands
        _game_from_the_wizard(hands, 5)
        game = hands.game
        a, b, c, d, e = game.players
        assert len(game.players) == 5 and all(game.cash(p) == 1500 for p in game.players)
        # Anne buys the dearest property: its sticker, then her card under the price
        hands.deed(35)
        assert hands.view.screen == "deed" and len(hands.view.deed.rents) == 5  # its five rent levels
        hands.tap(player_uid(1))
        assert game.current.owner[35] == a and game.cash(a) == 1100 and game.level(35) == 1
        # Chloé lands on it: the rent of level 1, then the level rises
        hands.deed(35)
        hands.tap(player_uid(3))
        assert game.cash(c) == 1200 and game.cash(a) == 1400 and game.level(35) == 2
        # Anne lands on her own: her card raises the level
        hands.deed(35)
        hands.tap(player_uid(1))
        assert game.level(35) == 3 and game.cash(a) == 1400
        # Anne draws "one of your properties to level 5": the Event card's sticker, then her property
        hands.tap(player_uid(1))
        hands.tap(event_uid(6))
        assert hands.view.screen == "event" and hands.view.title.code == "ev_ask_own_property"
        hands.deed(35)
        hands.ok()
        assert game.level(35) == 5
        # Bohdan buys a property and draws "pay M50 per property", picked on screen
        hands.deed(33)
        hands.tap(player_uid(2))
        hands.tap(player_uid(2))
        hands.choose("event")
        hands.choose("card:14")
        hands.ok()
        assert game.cash(b) == 1500 - 350 - 50
        # Dmytro on a Location: the fee, then a property of the Bank's, bought
        hands.tap(player_uid(4))
        hands.choose("location")
        hands.deed(1)
        hands.choose("buy")
        hands.ok()
        assert game.current.owner[1] == d and game.cash(d) == 1500 - 100 - 60
        # Eva: GO salary, the jail fee, then "you and an opponent collect M200" with Chloé (her card)
        hands.tap(player_uid(5))
        hands.choose("pass_go")
        hands.tap(player_uid(5))
        hands.choose("jail_fine")
        assert game.cash(e) == 1500 + 200 - 50
        hands.tap(event_uid(16))
        assert hands.view.title.code == "ev_tap_player"
        hands.tap(player_uid(5))
        hands.tap(player_uid(3))
        hands.ok()
        assert game.cash(e) == 1850 and game.cash(c) == 1400
        # a whole colour group up: Dmytro's brown
        hands.tap(player_uid(4))
        hands.tap(event_uid(11))
        hands.choose("group:brown")
        hands.ok()
        assert game.level(1) == 2
        # Bohdan lands on Anne's level 5: more than he has, what stays owed is confirmed
        hands.deed(35)
        hands.tap(player_uid(2))
        assert hands.view.screen == "confirm" and hands.view.pending.warning is not None
        hands.ok()
        assert game.cash(b) == 0 and game.current.debts_of(b)
        # he sells his property back to the Bank, still owes, and goes bankrupt: the end, ranked by worth
        hands.tap(player_uid(2))
        hands.choose("my_deeds")
        hands.choose("33")
        hands.choose("sell_property")
        hands.ok()
        assert 33 not in game.current.owner and game.current.debts_of(b)
        hands.tap(player_uid(2))
        hands.choose("bankruptcy")
        hands.ok()
        assert game.is_over() and hands.view.screen == "game_over"

    shot = tmp_path / "standings.png"
    code = run_sim(headless=True, data_dir=tmp_path / "data", key=KEY, max_seconds=0.2, screenshot=shot,
                   settings=TerminalSettings(language="en"), on_start=script)
    assert code == 0
    hands = seen["hands"]
    game_view = hands.view
    assert game_view.screen == "game_over"
    standings = list(game_view.extra["standings"])
    worth = {line.name: line.worth for line in game_view.players}
    assert standings[0] == "Anne" and standings[-1] == "Bohdan"
    alive = [name for name in standings if name != "Bohdan"]
    assert [worth[n] for n in alive] == sorted((worth[n] for n in alive), reverse=True)
    drawn = {t.text for t in hands.app.frame.texts_with("player_name")}
    assert set(standings) <= drawn
    assert shot.stat().st_size > 1000


@pytest.mark.slow  # a demo through the window's loop
def test_a_demo_of_the_electronic_board_plays_its_log_to_the_standings(pg, tmp_path):
    """The simulator's demo plays a table log of this board by a person's taps (``host_ui.demo.TableDriver``):
    every operation recorded, every expect line checked, the game over on the standings."""
    from host_ui.sim import run_sim
    from tests.conftest import OWN_LOGS
    seen = {}
    code = run_sim(OWN_LOGS / "ultimate-bankruptcy-end.jsonl", headless=True, speed=1e6, data_dir=tmp_path / "data",
                   key=KEY, on_start=lambda app: seen.update(app=app))
    assert code == 0
    view = seen["app"].terminal.view
    assert view.screen == "game_over" and view.extra["standings"]


@pytest.mark.slow  # a demo through the window's loop
def test_a_demo_plays_a_game_of_the_first_rules_as_its_replay_does(pg, tmp_path):
    """The export of a game of rules version 1 (Cid, with no property, paid M0 for M50 per property) plays in the
    demo as ``banquier replay`` replays it: every operation recorded by the table, by the game's rules."""
    import json
    import shutil
    from pathlib import Path

    from host_ui.sim import run_sim
    from terminal.bank.game import Game
    from terminal.bank.tablelog import export_lines
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "ultimate-readings-v1.db"
    shutil.copyfile(fixture, tmp_path / "old.db")
    with Game.open(tmp_path / "old.db", key=KEY) as game:
        lines = list(export_lines(game))
    assert lines[0]["rules_version"] == 1
    log = tmp_path / "old.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    seen = {}
    code = run_sim(log, headless=True, speed=1e6, data_dir=tmp_path / "data", key=KEY,
                   on_start=lambda app: seen.update(app=app))
    assert code == 0
    assert seen["app"].terminal.game.config.rules_version == 1


@pytest.mark.slow  # a demo through the window's loop
def test_the_tray_holds_the_deck_of_the_games_rules_version(pg, tmp_path):
    """A game of rules version 1 has cards E1-E22 in its tray; a new game (version 2) E1-E20, E23 and E24."""
    import json
    import shutil
    from pathlib import Path

    from cards.editions import load_edition
    from host_ui.screen.ultimate import ULTIMATE
    from host_ui.sim import run_sim
    from terminal.bank.game import Game
    from terminal.bank.tablelog import export_lines
    edition = load_edition("ultimate")
    labels = {v: [s.label for s in ULTIMATE.tray(edition, v)[1].stickers] for v in (1, 2)}
    assert labels[1] == [f"E{n}" for n in range(1, 23)]
    assert labels[2] == [f"E{n}" for n in (*range(1, 21), 23, 24)]
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "ultimate-readings-v1.db"
    shutil.copyfile(fixture, tmp_path / "old.db")
    with Game.open(tmp_path / "old.db", key=KEY) as game:
        lines = list(export_lines(game))
    log = tmp_path / "old.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    seen = {}
    assert run_sim(log, headless=True, speed=1e6, data_dir=tmp_path / "data", key=KEY,
                   on_start=lambda app: seen.update(app=app)) == 0
    tray = seen["app"].on_frame.__self__
    tray._layout()
    assert [label for _, _, label, _, kind in tray.cards if kind == "event"] == labels[1]
