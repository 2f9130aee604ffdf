"""The taps of the electronic board (issue 16, point 3): a deed then a card buys, pays the rent of its level or
raises the level; Event cards (their sticker, or picked on screen) ask for exactly what their effect needs and
commit one operation, a refusal changes nothing; a Location square's fee and landing; the jail fee; bankruptcy
ends the game on the standings. Driven through the simulated reader and buttons, as a person would."""
from __future__ import annotations

import pytest

from host_ui.demo import event_uid
from terminal.table.i18n import text
from terminal.table.ultimate import property_of_sticker, sticker_of_property
from tests.terminal.machine_table import WiredTable
from tests.terminal.ui_driver import BANKER_UID, deed_uid, player_uid

ANN, BOB, CID = player_uid(1), player_uid(2), player_uid(3)
PLAYERS = ("Ann", "Bob", "Cid")


def sticker(square: int) -> str:
    """The UID of the sticker that stands for the electronic board's property on ``square``."""
    from cards.editions import load_edition
    classic = sticker_of_property(load_edition("ultimate"), square)
    assert classic is not None
    return deed_uid(classic)


class Table(WiredTable):
    """A terminal on the electronic board with three players, every deed sticker and every Event card."""

    def __init__(self, make_game, players=PLAYERS, **settings):
        from host_ui.demo import make_registry, with_ultimate_cards
        super().__init__(make_game("ultimate", players), with_ultimate_cards(make_registry(8)), players, **settings)

    def tap(self, uid: str) -> None:
        self.driver.tap(uid)

    def choose(self, option: str) -> None:
        self.driver.choose(option)

    def ok(self) -> None:
        self.driver.button("confirm")


@pytest.fixture
def table(make_game):
    return Table(make_game)


def test_the_wizard_offers_this_board_with_its_mode_and_flags(make_game, tmp_path):
    from terminal.bank.game import Game
    table = Table(make_game)
    t = table.terminal
    made = []

    def factory(edition, names, mode, rules, cards, minutes=None):
        made.append((edition, mode, rules))
        return Game.create(tmp_path / "new.db", edition, names, mode, rules or None, key=bytes(range(32)),
                           player_cards=cards)
    t.game_factory = factory
    table.tap(BANKER_UID)
    table.choose("new_game")
    assert t.dialog.edition == "ultimate" and t.dialog.mode == "ultimate"  # the board in play
    flags = [o.id for o in t.view.options if o.id.startswith("flag:")]
    assert flags == ["flag:group_rent", "flag:neighbours", "flag:location_landing", "flag:jail_fee",
                     "flag:charge_beyond_cash"]
    table.choose("flag:jail_fee")
    assert t.dialog.rules == {"jail_fee": 100}
    table.choose("mode")  # one mode on this board
    assert t.dialog.mode == "ultimate"
    for _ in range(10):  # another board: its own mode and flags, this board's flags dropped
        table.choose("edition")
        if t.dialog.edition == "fr":
            break
    assert t.dialog.mode == "classic" and t.dialog.rules == {}
    assert "flag:free_parking_jackpot" in [o.id for o in t.view.options]
    for _ in range(10):
        table.choose("edition")
        if t.dialog.edition == "ultimate":
            break
    assert t.dialog.mode == "ultimate"
    for seat in range(1, 9):  # eight players: more than the electronic unit's four
        table.tap(player_uid(seat))
    table.choose("start")
    assert made == [("ultimate", "ultimate", {})] and t.game.edition.is_ultimate and len(t.game.players) == 8
    assert t.view.screen == "idle" and len(t.view.players) == 8


def test_a_street_sticker_stands_for_the_property_of_the_same_rank():
    from cards.editions import load_edition
    edition = load_edition("ultimate")
    properties = [s.index for s in edition.squares if s.kind == "street"]
    assert property_of_sticker(edition, 1) == 1 and property_of_sticker(edition, 39) == 35
    assert property_of_sticker(edition, 5) is None and property_of_sticker(edition, 12) is None  # railroad, utility
    assert [property_of_sticker(edition, sticker_of_property(edition, s)) for s in properties] == properties


def test_buy_then_rent_at_its_level_then_the_owner_raises_it(table):
    t = table
    t.tap(sticker(35))
    assert t.view.screen == "deed" and t.view.deed.rents == (300, 400, 560, 810, 1600)
    assert t.view.title.code == "deed_tap_buyer"
    t.tap(ANN)  # the buyer's card under the price: it commits
    assert t.game.cash("Ann") == 1100 and t.game.level(35) == 1 and t.view.screen == "idle"
    t.tap(sticker(35))
    assert t.view.deed.level == 1 and t.view.title.code == "deed_own_raise"
    assert t.view.title.params["rent"] == t.terminal.fmt(300)
    t.tap(BOB)  # the payer's card: the rent of level 1, then the level rises
    assert t.game.cash("Bob") == 1200 and t.game.cash("Ann") == 1400 and t.game.level(35) == 2
    t.tap(sticker(35))
    t.tap(ANN)  # the owner's card: the level rises, nothing paid
    assert t.game.level(35) == 3 and t.game.cash("Ann") == 1400 and t.beeps()[-1] == "success"


def test_a_property_sticker_names_its_property(table):
    from host_ui.demo import property_uid
    table.tap(property_uid(22))
    assert table.view.screen == "deed" and table.view.deed.square == 35
    table.tap(BOB)
    assert table.game.current.owner[35] == "Bob"


def test_a_market_slump_is_level_1_for_the_next_two_rents_whoever_pays(table):
    t = table
    t.game.buy("Ann", 35), t.game.pay_rent("Cid", 35), t.game.pay_rent("Cid", 35)  # level 3: 560
    t.tap(CID)
    t.tap(event_uid(15))  # market slump: the next 2 rents at the table, by anyone, at level 1
    t.ok()
    t.tap(sticker(35))
    assert t.view.title.params["rent"] == t.terminal.fmt(300)  # level 1's, whoever pays
    t.tap(CID)  # the amount shown: one touch
    assert t.view.screen != "confirm" and t.game.cash("Cid") == 1500 - 300 - 400 - 300
    assert t.game.cash("Ann") == 1100 + 300 + 400 + 300
    t.tap(sticker(35))
    t.tap(BOB)  # the second rent, by another player than the drawer: level 1 too
    assert t.game.cash("Bob") == 1500 - 300 and t.game.level(35) == 5
    t.tap(sticker(35))
    assert t.view.title.params["rent"] == t.terminal.fmt(1600)  # the slump is over: level 5


def test_the_idle_screen_shows_a_market_slump_running(table, make_game):
    t = table
    t.game.buy("Ann", 35)
    t.tap(CID)
    t.tap(event_uid(15))  # market slump: the next 2 rents at the table, by anyone
    t.ok()
    assert t.view.screen == "idle"
    notices = t.view.extra["notices"]
    assert [m.code for m in notices] == ["slump_running"] and notices[0].params["n"] == 2
    assert text(notices[0], "en") == "Market slump: next 2 rents at level 1"
    assert "{" not in text(notices[0], "fr") + text(notices[0], "uk") and "2" in text(notices[0], "uk")
    t.tap(sticker(35))
    t.tap(BOB)  # a rent at level 1
    assert t.view.screen == "idle"
    assert text(t.view.extra["notices"][0], "en") == "Market slump: next 1 rent at level 1"
    t.tap(sticker(35))
    t.tap(BOB)
    assert t.view.screen == "idle" and t.view.extra["notices"] == ()
    # rules version 1: the drawer's own slump, named
    from terminal.bank.types import LEGACY_RULES_VERSION
    v1 = Table(make_game)
    v1.game.close()
    v1.terminal.game = v1.game = make_game("ultimate", PLAYERS, rules_version=LEGACY_RULES_VERSION)
    v1.tap(CID)
    v1.tap(event_uid(15))
    v1.ok()
    assert [text(m, "en") for m in v1.view.extra["notices"]] == ["Market slump: Cid's next 2 rents at level 1"]


def test_a_railroad_sticker_is_no_property_here(table):
    table.tap(deed_uid(5))
    assert table.view.screen == "idle" and table.view.message.code == "not_a_property_here"
    assert table.beeps()[-1] == "refused"


def test_the_player_sees_this_boards_options(table):
    table.tap(ANN)
    ids = [o.id for o in table.view.options]
    assert ids == ["pass_go", "event", "location", "jail_fine", "transfer", "my_deeds", "any_deed", "pay_bank",
                   "bank_pays", "bankruptcy"]
    assert not {"chance", "community_chest", "income_tax", "luxury_tax", "trade", "repairs"} & set(ids)
    labels = {o.id: text(o.label, "en") for o in table.view.options}
    assert "−M50" in labels["jail_fine"].replace("\u00a0", "") and "−M100" in labels["location"].replace("\u00a0", "")


def test_jail_fee_is_one_touch(table):
    table.tap(ANN)
    table.choose("jail_fine")
    assert table.game.cash("Ann") == 1450 and table.view.screen == "idle"


def test_an_event_sticker_asks_for_the_drawer_then_what_it_needs(table):
    t = table
    t.game.buy("Ann", 1), t.game.buy("Bob", 3)
    before = t.entries()
    t.tap(event_uid(1))  # swap one of your properties with an opponent's
    assert t.view.screen == "event" and t.view.title.code == "ev_tap_player"
    t.tap(ANN)
    assert t.view.title.code == "ev_ask_own_property"
    assert [o.id for o in t.view.options] == ["square:1"]
    t.tap(sticker(3))  # not Ann's: refused, nothing changes
    assert t.view.message.code == "ev_not_yours" and t.view.title.code == "ev_ask_own_property"
    t.tap(sticker(1))
    assert t.view.title.code == "ev_ask_opponent_property"
    t.tap(sticker(3))
    assert t.view.screen == "confirm" and t.entries() == before
    t.ok()
    assert t.game.current.owner[1] == "Bob" and t.game.current.owner[3] == "Ann" and t.entries() == before + 1


def test_an_event_picked_on_screen_with_a_group_and_undo(table):
    t = table
    t.game.buy("Ann", 1), t.game.buy("Bob", 3)
    t.tap(ANN)
    t.choose("event")
    assert t.view.screen == "event" and t.view.title.code == "ev_pick_card"
    group_up = next(o.id for o in t.view.options if o.id == "card:11")
    t.choose(group_up)  # every property of one colour group goes up a level
    assert t.view.title.code == "ev_ask_group" and [o.id for o in t.view.options] == ["group:brown"]
    t.choose("group:brown")
    assert t.view.screen == "confirm"
    assert any(d.code == "lv_change" for d in t.view.pending.details)
    t.ok()
    assert t.game.level(1) == 2 and t.game.level(3) == 2
    t.tap(BANKER_UID)
    t.choose("undo")
    t.ok()
    assert t.game.level(1) == 1 and t.game.level(3) == 1


def test_an_opponent_by_their_card(table):
    t = table
    t.tap(ANN)
    t.tap(event_uid(16))  # you and an opponent each collect M200
    assert t.view.title.code == "ev_ask_opponent"
    t.tap(ANN)  # oneself: refused
    assert t.view.message.code == "ev_not_opponent"
    t.tap(CID)
    t.ok()
    assert t.game.cash("Ann") == 1700 and t.game.cash("Cid") == 1700 and t.game.cash("Bob") == 1500


def test_a_card_that_cannot_apply_is_set_aside(table):
    t = table
    before = t.entries()
    t.tap(ANN)
    t.tap(event_uid(1))  # a swap, with no property anywhere
    assert t.view.screen == "idle" and t.view.message.code == "ev_cannot_apply_own_property"
    assert t.entries() == before and t.beeps()[-1] == "refused"
    assert text(t.view.message, "en").startswith("Ann has no property this card can use. Nothing was recorded")
    # the drawer owns a property, no opponent does: the reason names the opponents
    t.game.buy("Ann", 1)
    before = t.entries()
    t.tap(ANN)
    t.tap(event_uid(1))
    assert t.view.message.code == "ev_cannot_apply_opponent_property" and t.entries() == before
    assert "adversaire de Ann" in text(t.view.message, "fr") and "{" not in text(t.view.message, "uk")


def test_a_side_and_a_movement_card(table):
    t = table
    t.game.buy("Ann", 19)
    t.tap(ANN)
    t.tap(event_uid(9))  # every property of one side goes up a level
    assert [o.id for o in t.view.options] == ["side:3"]
    t.choose("side:3")
    t.ok()
    assert t.game.level(19) == 2
    before = t.entries()
    t.tap(ANN)
    t.tap(event_uid(18))  # no banking effect: recorded at once
    assert t.view.screen == "idle" and t.entries() == before + 1


def test_location_buys_an_unowned_property_or_pays_the_rent(make_game):
    t = Table(make_game)
    t.game.close()
    t.terminal.game = t.game = make_game("ultimate", PLAYERS, rules={"location_landing": "land"})
    t.tap(ANN)
    t.choose("location")
    assert t.view.screen == "location"
    t.tap(sticker(6))  # the Bank's: buy it or not
    assert t.view.screen == "location" and [o.id for o in t.view.options] == ["buy", "no_buy"]
    t.choose("buy")
    t.ok()
    assert t.game.cash("Ann") == 1500 - 100 - 100 and t.game.current.owner[6] == "Ann" and t.game.level(6) == 1
    t.tap(BOB)
    t.choose("location")
    t.choose("6")
    assert t.view.screen == "confirm"
    t.ok()
    assert t.game.cash("Bob") == 1500 - 100 - 80 and t.game.cash("Ann") == 1300 + 80 and t.game.level(6) == 2


def test_bankruptcy_ends_the_game_on_the_standings(table):
    t = table
    g = t.game
    g.buy("Ann", 35)
    g.event("Ann", 6, square=35)  # level 5: the rent is 1600
    g.pay_bank("Bob", 1400)
    t.tap(sticker(35))
    t.tap(BOB)  # more than Bob has: confirmed, with what stays owed
    assert t.view.screen == "confirm" and t.view.pending.warning is not None
    t.ok()
    assert g.current.debts_of("Bob")
    t.tap(BOB)
    t.choose("bankruptcy")
    t.ok()
    assert g.is_over() and t.view.screen == "game_over"
    assert t.view.extra["standings"][0] == "Ann"


def test_a_refusal_of_the_bank_changes_nothing_and_asks_again(table):
    t = table
    t.game.buy("Ann", 1), t.game.buy("Bob", 3), t.game.pay_rent("Ann", 3)  # Bob's at level 2, Ann's at 1
    before = t.entries()
    t.tap(CID)
    t.tap(event_uid(3))  # any owned property back to level 1
    assert [o.id for o in t.view.options] == ["square:3"]  # where it would apply
    t.tap(sticker(1))  # at level 1 already: the Bank says no
    assert t.view.screen == "event" and t.view.message.code == "level_at_min" and t.beeps()[-1] == "refused"
    assert t.view.title.code == "ev_ask_owned_property" and t.entries() == before
    t.tap(sticker(3))
    t.ok()
    assert t.game.level(3) == 1 and t.entries() == before + 1


def test_an_event_left_alone_times_out_with_nothing_recorded(table):
    t = table
    t.game.buy("Ann", 1)
    before = t.entries()
    t.tap(ANN)
    t.tap(event_uid(6))
    assert t.view.screen == "event" and t.terminal.timeout_s() == t.terminal.settings.long_timeout_s
    t.clock.advance(t.terminal.settings.long_timeout_s + 1)
    t.terminal.tick()
    assert t.view.screen == "idle" and t.entries() == before and t.game.level(1) == 1


def test_location_under_buy_or_raise_refuses_anothers_property(make_game):
    t = Table(make_game)
    t.game.close()
    t.game = make_game("ultimate", PLAYERS, rules={"location_landing": "buy_or_raise"})
    t.terminal.game = t.game
    t.game.buy("Bob", 6)
    before = t.entries()
    t.tap(ANN)
    t.choose("location")
    t.tap(sticker(6))
    assert t.view.screen == "location" and t.view.message.code == "location_not_yours" and t.entries() == before
    t.tap(sticker(8))
    t.choose("buy")
    t.ok()
    assert t.game.current.owner[8] == "Ann" and t.game.cash("Ann") == 1500 - 100 - 120


def test_a_property_declined_is_auctioned_at_level_1(table):
    t = table
    t.tap(sticker(24))
    t.choose("decline")
    assert t.view.screen == "auction"
    t.tap(BOB)
    t.driver.type_number(150)
    t.driver.button("confirm")  # OK closes the auction
    assert t.view.screen == "confirm"
    t.ok()
    assert t.game.current.owner[24] == "Bob" and t.game.cash("Bob") == 1350 and t.game.level(24) == 1


def test_selling_back_to_the_bank_says_the_property_returns_unowned(table):
    t = table
    t.game.buy("Bob", 19), t.game.buy("Ann", 35), t.game.event("Ann", 6, square=35)
    t.game.pay_rent("Bob", 35)  # level 5: more than Bob has, a debt
    t.tap(BOB)
    t.choose("my_deeds")
    t.choose("19")
    assert t.view.screen == "own_deed"
    t.choose("sell_property")
    assert t.view.screen == "confirm"
    assert [d.code for d in t.view.pending.details] == ["lv_back_to_bank"]
    t.ok()
    assert 19 not in t.game.current.owner and t.game.level(19) == 0


def test_an_event_card_the_edition_lacks_and_one_on_the_classic_board(table, make_game):
    table.tap(event_uid(21))  # "go back three squares": no printed card's, out of this game's deck
    assert table.view.screen == "idle" and table.view.message.code == "ev_unknown_card"
    classic = Table(make_game)
    classic.game.close()
    classic.terminal.game = classic.game = make_game("fr", PLAYERS)
    classic.tap(event_uid(1))
    assert classic.view.screen == "idle" and classic.view.message.code == "ev_not_this_board"


def test_under_the_first_rules_m50_per_property_with_none_is_recorded_as_m0(make_game):
    """Rules version 1 recorded the card as a payment of M0 (RULES.md, Rules versions): the table records it as the
    game's rules say, as a replay of its log does, never sets it aside."""
    from terminal.bank.types import LEGACY_RULES_VERSION
    t = Table(make_game)
    t.game.close()
    t.terminal.game = t.game = make_game("ultimate", PLAYERS, rules_version=LEGACY_RULES_VERSION)
    number = next(c.number for c in t.game.edition.deck(LEGACY_RULES_VERSION) if c.action == "pay_per_property")
    before = t.entries()
    cash = t.game.state()["cash"]["Ann"]
    t.tap(ANN)
    t.tap(event_uid(number))
    assert t.view.screen == "idle" and t.view.message.code != "ev_changes_nothing"
    assert t.entries() == before + 1 and t.game.state()["cash"]["Ann"] == cash


def test_a_card_that_changes_nothing_now_is_set_aside_not_confirmed(table):
    # "Pay M50 for each property you own" with no property: no confirmation of "—", no empty entry to undo
    t = table
    number = next(i for i, c in enumerate(t.game.edition.events, 1) if c.action == "pay_per_property")
    before = t.entries()
    t.tap(ANN)
    t.tap(event_uid(number))
    assert t.view.screen == "idle" and t.view.message.code == "ev_changes_nothing" and t.entries() == before
    assert t.beeps()[-1] == "refused" and "{" not in text(t.view.message, "uk")
    t.game.buy("Ann", 1)  # with a property, the card charges M50 after a confirmation
    t.tap(ANN)
    t.tap(event_uid(number))
    assert t.view.screen == "confirm"
