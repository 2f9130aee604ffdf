"""Inputs aimed at the screen they were meant for (issue 12, point 2): a key or a touch carries the version of
the screen it was aimed at and is dropped, with the refusal beep, once that screen is gone; card taps apply
to the current screen. And the machine is declared: its screens are whole (checked at import) and it refuses an
undeclared transition."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from hal.interfaces import ButtonPressed
from terminal.table import screens
from terminal.table.screens.base import Screen, inputs
from terminal.table.screens.idle import Idle
from terminal.table.screens.trade import TradeScreen
from tests.terminal.test_machine import ANN, BOB, Table
from tests.terminal.ui_driver import deed_uid, type_amount


@pytest.fixture
def table(make_game):
    return Table(make_game)


def test_two_quick_oks_on_the_keypad_never_commit_an_unseen_confirmation(table):
    t = table.terminal
    table.driver.tap(ANN)
    table.driver.choose("pay_bank")
    keypad = t.view.screen_version
    for char in "50":
        t.digit(char, version=keypad)  # typed quickly: the keypad's version does not change while typing
    assert t.view.keypad == "50"
    table.beeps()
    t.digit("OK", version=keypad)
    assert t.view.screen == "confirm"
    t.digit("OK", version=keypad)  # the second press was aimed at the keypad, not at the confirmation
    assert table.beeps() == ["refused"]
    assert t.view.screen == "confirm" and table.game.cash("Ann") == 1500 and table.entries() == 1
    t.confirm(version=t.view.screen_version)  # once the confirmation is on screen, OK commits
    assert table.game.cash("Ann") == 1450


def test_an_option_aimed_at_a_screen_gone_is_dropped(table):
    t = table.terminal
    table.driver.tap(ANN)
    player = t.view.screen_version
    table.driver.tap(BOB)  # another context opened before the touch was processed
    t.choose("pay_bank", version=player)
    assert t.view.screen == "player" and t.view.player == "Bob" and table.beeps()[-1] == "refused"


def test_hardware_buttons_are_matched_against_the_screen_drawn(table):
    t = table.terminal
    table.driver.tap(ANN)
    table.driver.choose("pay_bank")
    type_amount(t, 50)
    assert t.view.screen == "confirm"
    t.shown(t.view.screen_version - 1)  # the host still shows the keypad
    t.handle(ButtonPressed("confirm"))
    assert table.game.cash("Ann") == 1500 and t.view.screen == "confirm"
    t.shown(t.view.screen_version)
    t.handle(ButtonPressed("confirm"))
    assert table.game.cash("Ann") == 1450


def test_card_taps_apply_to_the_current_screen(table):
    t = table.terminal
    table.game.buy("Ann", 39)
    t.shown(0)  # whatever the host drew, a card is not aimed at a drawn button
    table.driver.tap(deed_uid(39))
    table.driver.tap(BOB)
    assert t.view.screen in ("confirm", "idle")
    if t.view.screen == "confirm":
        table.driver.tap(BOB)
    assert table.game.cash("Bob") < 1500


def test_the_screens_are_whole_and_checked():
    screens.check()

    @dataclass
    class Nowhere(Idle):
        goes_to: ClassVar[frozenset[str]] = inputs("nowhere")

    with pytest.raises(AssertionError, match="nowhere"):
        screens.check({**screens.SCREENS, "idle": Nowhere})

    @dataclass
    class Deaf(Idle):  # takes OK, handles none
        takes: ClassVar[frozenset[str]] = inputs("player deed option ok")

    with pytest.raises(AssertionError, match="on_ok missing"):
        screens.check({**screens.SCREENS, "idle": Deaf})

    @dataclass
    class Mute(Screen):  # no view
        name: ClassVar[str] = "idle"
        needs: ClassVar[str] = "part_card_choice"

    with pytest.raises(AssertionError, match="no view"):
        screens.check({**screens.SCREENS, "idle": Mute})

    @dataclass
    class Wordless(Idle):
        needs: ClassVar[str] = "no_such_text"

    with pytest.raises(AssertionError, match="no_such_text"):
        screens.check({**screens.SCREENS, "idle": Wordless})


def test_an_undeclared_transition_is_refused(table):
    assert isinstance(table.terminal.dialog, Idle)
    with pytest.raises(AssertionError, match="undeclared transition idle -> trade"):
        table.terminal.go(TradeScreen("Ann", "Bob", {}))
    assert isinstance(table.terminal.dialog, Idle)


def test_each_wrong_input_gets_the_screens_one_message(table):
    from terminal.table.i18n import text
    t = table.terminal
    table.driver.tap(ANN)
    table.driver.choose("pay_bank")
    table.driver.tap(BOB)  # a card on the keypad
    first = text(t.view.message, "fr")
    table.driver.tap(deed_uid(1))
    assert text(t.view.message, "fr") == first == "Cet écran attend un nombre tapé sur le clavier, puis OK."


def test_the_deed_screen_names_the_card_it_needs(table):
    from terminal.table.i18n import text
    t = table.terminal
    table.driver.tap(deed_uid(39))
    t.confirm()
    assert text(t.view.message, "fr") == "Cet écran attend la carte de l'acheteur (ou Refuser : enchères)."
    table.game.buy("Ann", 1)
    table.driver.tap(deed_uid(1))
    t.confirm()
    assert text(t.view.message, "fr") == "Cet écran attend la carte du payeur (ou celle du propriétaire)."
