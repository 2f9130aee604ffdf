"""Smaller points seen on the electronic board's screens: the edition's and the mode's name in Ukrainian, the
"neighbours" setting in words, a 9th unknown card in the wizard, long property names on the simulator's tray,
a movement card's text in the done message."""
from __future__ import annotations

import re

from cards.editions import load_edition
from host_ui.demo import event_uid
from host_ui.sim import deed_label_lines
from terminal.table.i18n import text, translate
from tests.terminal.test_machine_ultimate import ANN, Table
from tests.terminal.ui_driver import BANKER_UID, UNKNOWN_UID, player_uid

LATIN = re.compile(r"[A-Za-z]")


def test_the_edition_and_the_mode_are_named_in_ukrainian():
    edition = load_edition("ultimate")
    from cards.editions import localized
    assert not LATIN.search(str(localized(edition.label, "uk")))
    assert not LATIN.search(translate("mode_ultimate", {}, "uk"))
    assert translate("mode_ultimate", {}, "fr") == "Électronique Ultime"


def test_the_neighbours_setting_says_what_it_means():
    """The setting names what it decides (whether the board's first and last properties are neighbours), in
    words of the language, short enough for the wizard's option at every size (tests/host_ui/test_fit.py)."""
    first_and_last = {"fr": "Première et dernière propriété", "en": "First and last property",
                      "uk": "Перша й остання власність"}
    for language, words in first_and_last.items():
        assert translate("flag_neighbours", {}, language) == words
        wrap, no_wrap = translate("flag_value_wrap", {}, language), translate("flag_value_no_wrap", {}, language)
        assert wrap != no_wrap and wrap in no_wrap  # "neighbours" and "not neighbours"
        assert "wrap" not in (wrap + no_wrap).lower()


def test_a_ninth_unknown_card_in_the_wizard_is_told_eight_players_at_most(make_game):
    table = Table(make_game)
    table.terminal.game_factory = lambda *args, **kwargs: None  # the wizard is offered; no game is started here
    table.tap(BANKER_UID)
    table.choose("new_game")
    table.tap(UNKNOWN_UID)  # with seats left: enrol it
    assert table.view.message.code == "unknown_card"
    for seat in range(1, 9):
        table.tap(player_uid(seat))
    table.tap(UNKNOWN_UID)
    assert table.view.message.code == "too_many_players" and len(table.terminal.dialog.seats) == 8


def test_a_long_property_name_goes_on_two_lines_on_the_tray():
    def width(size: int, words: str) -> int:  # a fixed-width font: 0.6 of its size per character
        return int(len(words) * size * 0.6)
    assert deed_label_lines(width, "Rue Lecourbe", 100, 21) == (10, ["Rue Lecourbe"])
    size, lines = deed_label_lines(width, "Avenue Henri-Martin", 70, 21)
    assert size in (8, 9) and lines == ["Avenue", "Henri-Martin"]
    size, lines = deed_label_lines(width, "Boulevard des Capucines et encore", 60, 21)
    assert len(lines) == 2 and all(width(size, line) <= 60 for line in lines)
    size, lines = deed_label_lines(width, "Supercalifragilistique", 40, 21)
    assert width(size, lines[0]) <= 40


def test_a_movement_card_is_recorded_with_its_text(make_game):
    t = Table(make_game)
    t.tap(ANN)
    t.tap(event_uid(18))  # send another player to Jail: recorded at once
    assert t.view.screen == "idle" and t.view.message.code == "done_what"
    assert t.view.message.params["what"].code == "did_event_card"
    words = text(t.view.message, "fr")  # the card's text in the terminal's language
    assert words.startswith("C'est fait") and "Ann : Envoyez un adversaire en prison" in words and ".." not in words
