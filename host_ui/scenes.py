"""Every screen of the terminal, reached through the real state machine, for the render tests and the
screenshots (``tools/render_screens.py``).

:func:`build_scenes` plays a short game (French edition, four players, Free Parking jackpot on) through a
:class:`terminal.table.machine.Terminal` and snapshots ``terminal.table.view`` on each screen; a second, time-limited
game is ended for the end-of-game screen and its chart. Views are immutable, so each snapshot stays as it
was taken.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cards.editions import Edition, load_edition
from cards.registry import Enrolment
from hal.sim_beeper import SimBeeper
from host_ui.demo import (
    BANKER_UID,
    FakeClock,
    deed_uid,
    event_uid,
    make_registry,
    player_uid,
    property_uid,
    type_amount,
    with_ultimate_cards,
)
from host_ui.phone import access
from host_ui.phone.switch import PhoneSwitch
from terminal.bank.game import Game
from terminal.table.machine import Terminal
from terminal.table.settings import Damage, TerminalSettings
from terminal.table.view import Msg, View

PLAYERS = ("Anne", "Bohdan", "Chloé", "Dmytro")
#: Eight players with names of up to 12 letters (wide letters, Cyrillic, two words): every seat of the new-game
#: wizard shows its name whole.
EIGHT_PLAYERS = ("Marie-Claire", "Bohdan", "Wheelbarrow", "Наперсток", "Maximilienne", "Олександрина",
                 "Bartholomew", "Mwangi Wambu")
#: Names of the longest length allowed (20 characters), for the layouts that must not shrink the amounts.
LONG_PLAYERS = ("Alexandrine-Victoria", "Bartholomew-Augustus", "Anne")
KEY = bytes(range(32))


@dataclass
class Scene:
    name: str
    view: View
    game: Game | None  # for the chart and history


#: The phone page's token in the scenes (a fixed one: the screenshots do not change from one run to the next).
SCENE_TOKEN = "q8Fz2LkW0pRtYb7NcVd3Hs"


def _phone(tmp: Path, *, on: bool, running: bool, on_idle: bool = False) -> PhoneSwitch:
    """A phone page switched ``on`` or off whose page is ``running`` (its links published) or not, in folders of
    its own under ``tmp``."""
    name = f"phone-{int(on)}{int(running)}{int(on_idle)}"
    data, runtime = tmp / name / "data", tmp / name / "run"
    data.mkdir(parents=True, exist_ok=True)
    (data / access.TOKEN_FILE).write_text(SCENE_TOKEN + "\n", encoding="ascii")
    access.set_on(data, on)
    if running:
        access.publish_links(runtime, [access.page_url("192.168.1.42", access.DEFAULT_PORT, SCENE_TOKEN),
                                       access.page_url("fe80::ba27:ebff:fe12:3456", access.DEFAULT_PORT, SCENE_TOKEN)])
    return PhoneSwitch(data, runtime, on_idle=on_idle)


def _terminal(game: Game | None, language: str, clock: FakeClock, players: int = 4, *, tmp: Path,
              notice: Msg | None = None, ultimate: bool = False, phone: PhoneSwitch | None = None) -> Terminal:
    registry = make_registry(players)
    if ultimate:  # the electronic board's property and Event stickers
        with_ultimate_cards(registry)

    def factory(edition: str | Edition, names: Iterable[str], mode: str, rules: Mapping[str, Any] | None,
                cards: Mapping[str, str] | None, minutes: int | None = None) -> Game:
        return Game.create(tmp / f"new-{clock.now}.db", edition, names, mode, rules or None, key=KEY,
                           player_cards=cards, length_minutes=minutes)

    def enrolment() -> Enrolment:
        return Enrolment(registry, players=4)
    return Terminal(game, registry, SimBeeper(audio=False, clock=clock), clock,
                    TerminalSettings(language=language, banker_pin="1234"), game_factory=factory,
                    enrolment_factory=enrolment, notice=notice, phone=phone)


def _tap(term: Terminal, clock: FakeClock, uid: str) -> None:
    clock.advance(2.0)
    term.present(uid)


def build_scenes(tmp: Path, language: str = "fr") -> list[Scene]:
    """All scenes in ``language``; game files go to ``tmp``. Raises AssertionError if the state machine did
    not reach a screen (the scene list then needs updating along with the machine)."""
    tmp = Path(tmp)
    tmp.mkdir(parents=True, exist_ok=True)
    scenes: list[Scene] = []
    clock = FakeClock()
    game = Game.create(tmp / f"scenes-{language}.db", "fr", PLAYERS, rules={"free_parking_jackpot": True}, key=KEY)
    a, b, c, d = PLAYERS
    for player, square in ((a, 1), (a, 3), (b, 6), (b, 8), (b, 9), (c, 39), (c, 37), (d, 5), (d, 15), (a, 12)):
        game.buy(player, square)
    for _ in range(3):
        game.build(b, 6), game.build(b, 8), game.build(b, 9)
    game.build(b, 9)  # four houses: Chloé cannot pay the rent (its confirmation says what stays owed)
    game.build(c, 37), game.build(c, 39)
    game.mortgage(d, 15)
    game.pay_tax(a, 4)
    game.pass_go(b)
    game.transfer(d, a, 1100)
    try:
        game.pay_rent(d, 9)  # Dmytro cannot pay all of it: a debt to Bohdan
    except Exception:
        pass
    term = _terminal(game, language, clock, tmp=tmp, phone=_phone(tmp, on=False, running=False))

    def snap(name: str, expect: str, on: Terminal | None = None) -> None:
        view = (on or term).view
        assert view.screen == expect, f"scene {name}: screen is {view.screen}, expected {expect} ({view.message})"
        scenes.append(Scene(name, view, (on or term).game))

    def reset(on: Terminal | None = None) -> None:
        on = on or term
        clock.advance(2.0)
        on.cancel()
        on.message = None
        on.changed()

    snap("idle", "idle")
    # a restart after an unexpected stop: the first screen says the game was resumed
    snap("idle_resumed", "idle", on=_terminal(game, language, clock, tmp=tmp, notice=Msg(
        "game_resumed_unclean", {}, "Game resumed after an unexpected stop: everything confirmed is recorded; "
                                    "an operation not yet confirmed is to be done again.")))
    _tap(term, clock, deed_uid(11))
    snap("deed_for_sale", "deed")  # the price, "the buyer taps their card", Decline: auction
    reset()
    _tap(term, clock, player_uid(1))
    term.choose("any_deed")
    term.choose("11")
    snap("offer", "offer")
    reset()
    _tap(term, clock, deed_uid(9))
    snap("deed_owned", "deed")
    _tap(term, clock, player_uid(3))  # more than Chloé's cash: confirmed, with what stays owed
    snap("confirm_rent", "confirm")
    _tap(term, clock, player_uid(1))  # not the payer's card: an error under the same buttons
    snap("confirm_rent_wrong_card", "confirm")
    reset()
    _tap(term, clock, deed_uid(9))
    _tap(term, clock, player_uid(2))
    snap("own_deed", "own_deed")
    term.choose("mortgage")  # greyed out (houses on the group), chosen anyway: the rule's (long) message
    snap("own_deed_refused", "own_deed")
    reset()
    _tap(term, clock, deed_uid(15))
    snap("deed_mortgaged", "deed")
    reset()
    _tap(term, clock, deed_uid(12))  # a utility someone owns: the keypad for the dice at once
    snap("keypad_dice", "keypad")
    reset()
    _tap(term, clock, player_uid(1))
    snap("player", "player")
    term.choose("pay_bank")
    for char in "1500":
        term.digit(char)
    snap("keypad", "keypad")
    for char in "99999999":
        term.digit(char)  # one digit too many: refused, the keypad stays where it was
    snap("keypad_error", "keypad")
    reset()
    _tap(term, clock, player_uid(4))
    snap("player_in_debt", "player")
    reset()
    _tap(term, clock, player_uid(2))
    term.choose("pass_go")  # the button names the amount: it commits
    _tap(term, clock, player_uid(2))
    term.choose("pass_go")
    snap("confirm_second_go", "confirm")
    _tap(term, clock, player_uid(2))  # the first tap only acknowledges the warning: it says so
    snap("confirm_second_go_tapped", "confirm")
    reset()
    _tap(term, clock, player_uid(1))
    term.choose("chance")
    snap("choose_chance", "choose")
    reset()
    _tap(term, clock, player_uid(1))
    term.choose("community_chest")
    snap("choose_community_chest", "choose")
    reset()
    _tap(term, clock, player_uid(2))
    term.choose("chance")
    term.choose("6")  # road repairs: the card's (long) text heads the confirmation of what Bohdan's houses cost
    snap("chance_repairs", "confirm")
    reset()
    _tap(term, clock, player_uid(1))
    term.choose("chance")
    term.choose("3")  # move to a street: the card's text asks whether the player passed GO
    snap("chance_advance", "choose")
    reset()
    _tap(term, clock, player_uid(1))
    term.choose("any_deed")
    snap("choose_deed", "choose")
    reset()
    _tap(term, clock, deed_uid(13))
    term.choose("decline")
    snap("auction", "auction")
    for seat, price in ((1, 120), (3, 150), (1, 180)):
        _tap(term, clock, player_uid(seat))
        type_amount(term, price)
    snap("auction_bids", "auction")
    _tap(term, clock, player_uid(3))
    for char in "100":
        term.digit(char)
    snap("keypad_bid", "keypad")
    term.confirm()  # below the best bid: refused
    snap("auction_bid_too_low", "auction")
    reset()
    _tap(term, clock, player_uid(1))
    term.choose("trade")
    _tap(term, clock, player_uid(3))
    term.choose("deed:Anne:1")
    term.choose("deed:Anne:12")
    term.choose("cash:Chloé")
    type_amount(term, 200)
    snap("trade", "trade")
    term.choose("done")
    snap("confirm_trade", "confirm")
    reset()
    _tap(term, clock, BANKER_UID)
    snap("banker", "banker")
    term.choose("history")
    snap("history", "history")
    reset()
    term.choose("banker")
    snap("pin", "pin")
    for char in "12":
        term.digit(char)
    snap("pin_typed", "pin")
    reset()
    _tap(term, clock, BANKER_UID)
    term.choose("undo")
    snap("confirm_undo", "confirm")
    reset()
    _tap(term, clock, BANKER_UID)
    term.choose("enrol")
    snap("enrol", "enrol")
    reset()
    # The phones' page: off, switched on but not running, running (its QR code), its renewal asked about.
    _tap(term, clock, BANKER_UID)
    term.choose("phone")
    snap("phone_off", "phone")
    for on, running, name in ((True, False, "phone_not_running"), (True, True, "phone_qr")):
        phoned = _terminal(game, language, clock, tmp=tmp, phone=_phone(tmp, on=on, running=running))
        _tap(phoned, clock, BANKER_UID)
        phoned.choose("phone")
        snap(name, "phone", on=phoned)
    phoned.choose("phone_renew")
    snap("phone_renew", "phone", on=phoned)
    reset()
    idle_qr = _terminal(game, language, clock, tmp=tmp, phone=_phone(tmp, on=True, running=True, on_idle=True))
    snap("idle_phone_qr", "idle", on=idle_qr)
    _tap(term, clock, BANKER_UID)
    term.choose("new_game")
    for seat in (1, 2, 3):
        _tap(term, clock, player_uid(seat))
    snap("new_game", "new_game")
    term.choose("rename:2")  # the third seat's name, typed on the on-screen keyboard
    for option in [o.id for o in term.view.options if o.id.startswith("key:") and len(o.id) == 5][3:7]:
        term.choose(option)
    snap("new_game_naming", "new_game")
    reset()
    # each mode's explanation, whole
    _tap(term, clock, BANKER_UID)
    term.choose("new_game")
    for seat in (1, 2):
        _tap(term, clock, player_uid(seat))
    for _ in range(3):
        term.choose("mode")
        snap(f"new_game_mode_{term.screen.mode}", "new_game")  # type: ignore[attr-defined]
    reset()
    # Bankruptcy of the debtor (to another player, with a mortgaged deed: the lift-now screen).
    debtor = d
    if game.raw_state.debts_of(debtor):
        _tap(term, clock, player_uid(4))
        term.choose("bankruptcy")
        if term.view.screen == "bankruptcy":
            _tap(term, clock, player_uid(2))  # the creditor decides on their own tap
            term.choose(f"lift:{15}")
            snap("bankruptcy", "bankruptcy")
            term.choose("done")
        snap("confirm_bankruptcy", "confirm")
        reset()
    # A bankruptcy that hands many things over: four stations (two mortgaged), a utility and a Jail card.
    many = Game.create(tmp / f"bankrupt-{language}.db", "fr", PLAYERS, key=KEY)
    for square in (5, 15, 25, 35, 12):
        many.buy(d, square)
    many.mortgage(d, 5), many.mortgage(d, 25)
    many.gain_jail_card(d, "chance")
    many.buy(a, 37), many.buy(a, 39)
    many.transfer(b, a, 1000)
    for _ in range(3):
        many.build(a, 37), many.build(a, 39)
    many.transfer(d, b, many.cash(d))
    many.pay_rent(d, 39)  # no cash left and more owed than the deeds raise: all of it owed to Anne
    many_term = _terminal(many, language, clock, tmp=tmp)
    _tap(many_term, clock, player_uid(4))
    many_term.choose("bankruptcy")
    if many_term.view.screen == "bankruptcy":
        _tap(many_term, clock, player_uid(1))
        many_term.choose("done")
    snap("confirm_bankruptcy_many", "confirm", on=many_term)
    snap("idle_after", "idle")
    term.reader_ok = False
    term.message = None
    term.changed()
    snap("idle_reader_lost", "idle")
    term.reader_ok = True
    term.changed()

    # The longest names: the amounts keep their size.
    al, ba = LONG_PLAYERS[0], LONG_PLAYERS[1]
    long_game = Game.create(tmp / f"long-{language}.db", "fr", LONG_PLAYERS, key=KEY)
    long_game.buy(al, 39)
    long_game.pay_bank(ba, 1480)  # 20 left: the rent below makes a debt, so it is confirmed
    long_term = _terminal(long_game, language, clock, players=3, tmp=tmp)
    _tap(long_term, clock, deed_uid(37))
    long_term.choose("decline")
    _tap(long_term, clock, player_uid(1))
    type_amount(long_term, 350)
    long_term.confirm()  # the auction's price, confirmed
    snap("confirm_long_buy", "confirm", long_term)
    reset(long_term)
    _tap(long_term, clock, deed_uid(39))
    _tap(long_term, clock, player_uid(2))
    snap("confirm_long_rent", "confirm", long_term)
    reset(long_term)
    _tap(long_term, clock, player_uid(1))
    long_term.choose("pay_each_player")
    type_amount(long_term, 35)
    snap("confirm_long_each", "confirm", long_term)
    reset(long_term)

    # The new-game wizard with every seat taken, each card named as in the game before.
    eight = Game.create(tmp / f"eight-{language}.db", "fr", EIGHT_PLAYERS, key=KEY,
                        player_cards={name: player_uid(seat) for seat, name in enumerate(EIGHT_PLAYERS, start=1)})
    eight_term = _terminal(eight, language, clock, players=8, tmp=tmp)
    _tap(eight_term, clock, BANKER_UID)
    eight_term.choose("new_game")
    for seat in range(1, 9):
        _tap(eight_term, clock, player_uid(seat))
    snap("new_game_8", "new_game", on=eight_term)

    # No game yet.
    empty = _terminal(None, language, clock, tmp=tmp)
    scenes.append(Scene("idle_no_game", empty.view, None))

    # A damaged current game at start-up: what is wrong, its newest good backup or a new game.
    damaged = Terminal(None, make_registry(4), SimBeeper(audio=False, clock=clock), clock,
                       TerminalSettings(language=language, banker_pin="1234"), game_factory=empty.game_factory,
                       damage=Damage("cannot resume 20260301-201500.db: file is not a database. The file is kept as "
                                     "it is; restore its newest good backup 20260301-201500.seq140.db "
                                     "(`banquier games restore 20260301-201500`) or start a new game from the banker "
                                     "menu.", "20260301-201500.seq140.db"),
                       restore=lambda: Game.open(tmp / "never.db", key=KEY))  # shown, not chosen
    assert damaged.view.screen == "damaged"
    scenes.append(Scene("damaged", damaged.view, None))

    # A time-limited game in play, ten minutes before its end: the time left on idle, and the warning.
    timed = Game.create(tmp / f"timed-{language}.db", "fr", PLAYERS, mode="time_limit",
                        dealt={a: [1, 3], b: [6, 8], c: [37, 39], d: [5, 15]}, length_minutes=60, key=KEY)
    timed.gain_jail_card(a, "chance")  # its holder named on idle
    play = FakeClock(0.0)
    timed.play_clock.start(play)
    timed_term = _terminal(timed, language, clock, tmp=tmp)
    timed_term.tick()
    snap("idle_time_left", "idle", on=timed_term)
    play.advance(50 * 60)
    timed_term.tick()
    snap("idle_time_warning", "idle", on=timed_term)

    # A finished time-limited game, for the standings and the chart.
    over = Game.create(tmp / f"over-{language}.db", "fr", PLAYERS, mode="time_limit",
                       dealt={a: [1, 3], b: [6, 8], c: [37, 39], d: [5, 15]}, key=KEY)
    for turn in range(6):
        for i, player in enumerate(PLAYERS):
            over.pass_go(player)
            if (turn + i) % 3 == 0:
                over.pay_tax(player, 4)
        if turn == 1:
            over.buy(b, 9)
            over.build(b, 6), over.build(b, 8), over.build(b, 9)
        if turn == 3:
            over.build(c, 37), over.build(c, 39)
            over.pay_rent(a, 39)
        if turn == 4:
            over.pay_rent(d, 8)
            over.mortgage(a, 3)
    over.end_game()
    final = _terminal(over, language, clock, tmp=tmp)
    scenes.append(Scene("game_over", final.view, over))
    scenes += build_ultimate_scenes(tmp, language, clock)
    return scenes


def build_ultimate_scenes(tmp: Path, language: str, clock: FakeClock) -> list[Scene]:
    """The electronic board's screens (``ub_*``): its deeds with their levels, the player's options, an Event
    card asking for each kind of choice, a Location square, and the end at the first bankruptcy."""

    edition = load_edition("ultimate")
    players = PLAYERS + ("Eva",)
    a, b, c, d, e = players
    game = Game.create(tmp / f"ultimate-{language}.db", "ultimate", players, key=KEY)
    for player, square in ((a, 1), (a, 3), (b, 10), (b, 12), (c, 33), (c, 35), (d, 19), (e, 28)):
        game.buy(player, square)
    game.pay_rent(b, 1), game.pay_rent(c, 1), game.raise_level(c, 35), game.raise_level(c, 35)
    scenes: list[Scene] = []
    term = _terminal(game, language, clock, players=5, tmp=tmp, ultimate=True)

    def snap(name: str, expect: str, on: Terminal | None = None) -> None:
        view = (on or term).view
        assert view.screen == expect, f"scene {name}: screen is {view.screen}, expected {expect} ({view.message})"
        scenes.append(Scene(name, view, (on or term).game))

    def reset() -> None:
        clock.advance(2.0)
        term.cancel()
        term.message = None
        term.changed()

    properties = [s.index for s in edition.squares if s.kind == "street"]

    def sticker(square: int) -> str:
        return property_uid(properties.index(square) + 1)

    snap("ub_idle", "idle")
    _tap(term, clock, BANKER_UID)
    term.choose("new_game")  # the wizard opens on the board in play: its mode and its own rule flags
    for seat in range(1, 6):
        _tap(term, clock, player_uid(seat))
    snap("ub_new_game", "new_game")
    reset()
    _tap(term, clock, sticker(6))
    snap("ub_deed_for_sale", "deed")
    reset()
    _tap(term, clock, sticker(1))
    snap("ub_deed_owned", "deed")  # level 3 after two rents: the five rents, the level marked
    reset()
    game.pay_bank(b, 1000)
    _tap(term, clock, sticker(35))
    _tap(term, clock, player_uid(2))  # the rent of level 3 is more than Bohdan has: confirmed, with the debt
    snap("ub_confirm_rent", "confirm")
    reset()
    game.undo()
    _tap(term, clock, player_uid(1))
    snap("ub_player", "player")
    term.choose("my_deeds")
    term.choose("1")
    snap("ub_own_deed", "own_deed")
    reset()
    _tap(term, clock, player_uid(1))
    term.choose("event")
    snap("ub_event_pick", "event")
    term.choose("card:1")  # swap: one of yours, then an opponent's
    snap("ub_event_own_property", "event")
    _tap(term, clock, sticker(3))
    snap("ub_event_opponent_property", "event")
    _tap(term, clock, sticker(33))
    snap("ub_confirm_event_swap", "confirm")
    reset()
    _tap(term, clock, event_uid(11))  # the sticker first: who drew it?
    snap("ub_event_tap_player", "event")
    _tap(term, clock, player_uid(2))
    snap("ub_event_group", "event")
    reset()
    _tap(term, clock, player_uid(4))
    _tap(term, clock, event_uid(9))
    snap("ub_event_side", "event")
    term.choose("side:3")
    snap("ub_confirm_event_side", "confirm")
    reset()
    _tap(term, clock, player_uid(5))
    _tap(term, clock, event_uid(16))
    snap("ub_event_opponent", "event")
    reset()
    _tap(term, clock, player_uid(3))
    term.choose("location")
    snap("ub_location", "location")
    _tap(term, clock, sticker(24))
    snap("ub_location_buy", "location")
    term.choose("buy")
    snap("ub_confirm_location", "confirm")
    term.confirm()
    _tap(term, clock, player_uid(4))
    _tap(term, clock, event_uid(9))
    term.choose("side:3")
    term.confirm()  # an Event recorded: the history names it, the banker's undo undoes it
    _tap(term, clock, BANKER_UID)
    term.choose("history")
    snap("ub_history", "history")
    reset()
    _tap(term, clock, BANKER_UID)
    term.choose("undo")
    snap("ub_confirm_undo_event", "confirm")
    reset()

    # Eight players, as the electronic board allows here (its own unit stops at four).
    eight = Game.create(tmp / f"ultimate-8-{language}.db", "ultimate", players + ("Fedir", "Gaëlle", "Hanna"), key=KEY)
    scenes.append(Scene("ub_idle_8", _terminal(eight, language, clock, players=8, tmp=tmp, ultimate=True).view, eight))

    # The end: the first bankruptcy ends the game, everyone ranked by worth.
    over = Game.create(tmp / f"ultimate-over-{language}.db", "ultimate", players, key=KEY)
    for player, square in ((a, 1), (a, 3), (b, 10), (c, 33), (c, 35), (d, 19), (e, 28), (b, 12)):
        over.buy(player, square)
    over.event(c, 6, square=35)
    for player in players:
        over.pass_go(player)
    over.pay_bank(d, 1200)
    over.pay_rent(d, 35)
    end = _terminal(over, language, clock, players=5, tmp=tmp, ultimate=True)
    _tap(end, clock, player_uid(4))
    end.choose("my_deeds")
    end.choose("19")
    end.choose("sell_property")
    snap("ub_confirm_sell", "confirm", on=end)
    end.confirm()
    _tap(end, clock, player_uid(4))
    end.choose("bankruptcy")
    snap("ub_confirm_bankruptcy", "confirm", on=end)
    end.confirm()
    snap("ub_game_over", "game_over", on=end)
    return scenes
