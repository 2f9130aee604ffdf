"""The tap state machine, declared: every screen (state), the inputs it takes, what it needs when it gets
another input, its timeout, and the screens it may go to. Checked at import (:func:`check`) and by the machine
at every change of screen (:meth:`terminal.table.machine.Terminal._go` refuses an undeclared transition).

Inputs: ``player`` (a player's card), ``deed`` (a deed's sticker), ``option`` (a choice on screen or a function
key), ``ok`` (the OK button), ``digit`` (a keypad key). Two inputs are taken on every screen and are not listed:
cancel (back to idle, nothing recorded) and the banker card (the banker menu); the enrolment wizard also
takes any card at all (to give it a role). An input a screen does not take gets one message, the same for
every kind of wrong card: "this screen needs ..." with the state's ``needs`` (or, on a confirmation, the
names of the players whose card confirms).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from terminal.table.dialogs import DIALOGS
from terminal.table.i18n import LANGUAGES, has_text

INPUTS = frozenset({"player", "deed", "option", "ok", "digit"})
#: Screens every screen may go to: idle after a commit, a cancel or a timeout; the end of the game; the
#: banker menu (the banker card is taken everywhere); the damaged game's screen (the checks running beside
#: play may stop payments at any moment).
ALWAYS = frozenset({"idle", "game_over", "banker", "damaged"})


@dataclass(frozen=True)
class State:
    """A screen: ``takes`` the inputs it handles; ``needs`` the catalog code naming what it waits for;
    ``goes_to`` the screens it may open (besides :data:`ALWAYS`); ``long`` whether it uses the long timeout
    (lists, wizards, menus, the bankruptcy flow; a keypad or a confirmation inside a trade or an auction, and
    the confirmations of :data:`LONG_CONFIRMS`, take the long timeout too: see
    :meth:`terminal.table.machine.Terminal.timeout_s`)."""

    name: str
    takes: frozenset[str]
    needs: str
    goes_to: frozenset[str]
    long: bool = False


def _state(name: str, takes: str, needs: str, goes_to: str, long: bool = False) -> State:
    return State(name, frozenset(takes.split()), needs, frozenset(goes_to.split()), long)


_DEED_NEXT = "deed offer own_deed keypad confirm auction choose"

STATES: Mapping[str, State] = {s.name: s for s in (
    _state("idle", "player deed option", "part_card_player_or_deed", "player pin history " + _DEED_NEXT),
    _state("game_over", "option", "part_card_banker", "pin history"),
    _state("deed", "player deed option", "part_card_player", _DEED_NEXT),
    _state("offer", "player deed option", "part_card_player", _DEED_NEXT),
    _state("own_deed", "player deed option", "part_card_player", _DEED_NEXT),
    _state("player", "player deed option", "part_card_choice", "player " + _DEED_NEXT + " bankruptcy"),
    _state("keypad", "digit ok player", "part_keypad", "keypad confirm choose auction trade " + _DEED_NEXT),
    _state("pin", "digit ok", "part_keypad", "confirm choose history"),
    _state("confirm", "player ok option", "part_card_ok", "confirm trade auction"),
    _state("choose", "player deed option", "part_card_choice", "choose trade player " + _DEED_NEXT, long=True),
    _state("auction", "player ok option", "part_card_bidder", "keypad confirm", long=True),
    _state("trade", "deed option", "part_card_trade_deed", "trade keypad confirm", long=True),
    _state("bankruptcy", "player option ok", "part_card_choice", "bankruptcy confirm", long=True),
    _state("banker", "player deed option", "part_card_choice",
           "player history new_game enrol pin " + _DEED_NEXT, long=True),
    _state("history", "option", "part_card_choice", "pin confirm", long=True),
    _state("new_game", "player option", "part_card_player", "new_game", long=True),
    _state("enrol", "option", "part_card_enrol", "enrol", long=True),
    # a damaged game: the banker restores its newest good backup or starts a new game (identified first)
    _state("damaged", "option", "part_damaged", "pin new_game"),
)}


#: Confirmations with a long text to read, which take the long timeout wherever they are opened: a
#: bankruptcy's (what each creditor receives, the debts it ends) and an undo's (what is undone).
LONG_CONFIRMS = frozenset({"declare_bankruptcy", "undo"})


def check(states: Mapping[str, State] = STATES) -> None:
    """The table is whole: a state per screen record and a screen record per state, known inputs, declared
    targets, and a text for every ``needs``. Raises AssertionError naming the fault."""
    screens = {d.screen for d in DIALOGS}
    if screens != set(states):
        raise AssertionError(f"screens without a state: {sorted(screens - set(states))}; "
                             f"states without a screen: {sorted(set(states) - screens)}")
    for state in states.values():
        if not state.takes <= INPUTS:
            raise AssertionError(f"state {state.name}: unknown inputs {sorted(state.takes - INPUTS)}")
        if not state.goes_to <= set(states):
            raise AssertionError(f"state {state.name}: goes to undeclared {sorted(state.goes_to - set(states))}")
        for language in LANGUAGES:  # loads every catalog: a missing one is an error at start-up
            if not has_text(state.needs, language):
                raise AssertionError(f"state {state.name}: no {language} text for {state.needs!r}")


def may_go(source: str, target: str) -> bool:
    """Whether the table declares the transition (staying on a screen is always allowed)."""
    return source == target or target in ALWAYS or target in STATES[source].goes_to


check()
