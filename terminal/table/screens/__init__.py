"""The screens of the tap machine, one class per screen (its record, the inputs it takes, its handlers, its view:
:class:`~terminal.table.screens.base.Screen`), and :data:`SCREENS`, the table of them all, checked at import
(:func:`check`) and by the machine at every change of screen (:func:`may_go`).

Adding a screen: a module here with its class, listed in :data:`SCREENS`; its layout in the host's table
(``host_ui.screen.layouts.LAYOUTS``), and its texts in the catalogs (CONTRIBUTING.md, "Adding a screen").
"""
from __future__ import annotations

from collections.abc import Mapping

from terminal.table.i18n import LANGUAGES, has_text
from terminal.table.screens.auction import AuctionScreen
from terminal.table.screens.banker import Banker
from terminal.table.screens.bankruptcy import BankruptcyScreen
from terminal.table.screens.base import ALWAYS, INPUTS, Screen
from terminal.table.screens.choose import Choice
from terminal.table.screens.confirm import Confirm
from terminal.table.screens.damaged import Damaged
from terminal.table.screens.deeds import DeedScreen, Offer, OwnDeed
from terminal.table.screens.enrol import Enrol
from terminal.table.screens.event import EventScreen
from terminal.table.screens.game_over import GameOver
from terminal.table.screens.history import History
from terminal.table.screens.idle import Idle
from terminal.table.screens.keypad import Keypad
from terminal.table.screens.location import LocationScreen
from terminal.table.screens.new_game import NewGame
from terminal.table.screens.phone import PhoneScreen
from terminal.table.screens.pin import Pin
from terminal.table.screens.player import PlayerScreen
from terminal.table.screens.trade import TradeScreen

__all__ = ["SCREENS", "check", "may_go"]

#: Every screen, by name.
SCREENS: Mapping[str, type[Screen]] = {cls.name: cls for cls in (
    Idle, GameOver, DeedScreen, Offer, OwnDeed, PlayerScreen, Keypad, Pin, Confirm, Choice, AuctionScreen,
    TradeScreen, BankruptcyScreen, Banker, History, NewGame, Enrol, PhoneScreen, Damaged, EventScreen,
    LocationScreen)}

#: Each handler of :class:`Screen` and the inputs it handles.
_HANDLERS = {"on_card": frozenset({"player", "deed"}), "on_option": frozenset({"option"}),
             "on_ok": frozenset({"ok"}), "on_digit": frozenset({"digit"})}


def check(screens: Mapping[str, type[Screen]] = SCREENS) -> None:
    """The screens are whole: each named as its key, known inputs, declared targets, a view, a text for its
    ``needs`` in every language, and a handler for each input it takes and none for the others. Raises
    AssertionError naming the fault."""
    if not set(screens) >= ALWAYS:
        raise AssertionError(f"no screen for {sorted(ALWAYS - set(screens))}, which every screen may go to")
    for name, cls in screens.items():
        if cls.name != name:
            raise AssertionError(f"screen {cls.__name__} is listed as {name!r}, named {cls.name!r}")
        if not cls.takes <= INPUTS:
            raise AssertionError(f"screen {name}: unknown inputs {sorted(cls.takes - INPUTS)}")
        if not cls.goes_to <= set(screens):
            raise AssertionError(f"screen {name}: goes to undeclared {sorted(cls.goes_to - set(screens))}")
        if cls.view is Screen.view:
            raise AssertionError(f"screen {name}: no view")
        for handler, kinds in _HANDLERS.items():
            defined = getattr(cls, handler) is not getattr(Screen, handler)
            taken = bool(cls.takes & kinds)
            if defined != taken:
                raise AssertionError(f"screen {name}: takes {sorted(cls.takes & kinds) or 'none'} of "
                                     f"{sorted(kinds)}, {handler} {'defined' if defined else 'missing'}")
        for language in LANGUAGES:  # loads every catalog: a missing one is an error at start-up
            if not has_text(cls.needs, language):
                raise AssertionError(f"screen {name}: no {language} text for {cls.needs!r}")


def may_go(source: str, target: str) -> bool:
    """Whether the screens declare the transition (staying on a screen is always allowed)."""
    return source == target or target in ALWAYS or target in SCREENS[source].goes_to


check()
