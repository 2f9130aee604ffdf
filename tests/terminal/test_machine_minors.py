"""What a family tripped on in a French game, each on the screen it was seen on: the deed's rent with a bankrupt
seat, the second-GO warning after an undone salary, confirmations that say what they do when no money moves,
the French rent screens without the cards its decks lack, the long timeout of menus and money confirmations,
"Wrong PIN." cleared once the PIN is typed again, one Get Out of Jail Free card used without a deck question."""
from __future__ import annotations

import pytest

from terminal.table.i18n import text
from tests.terminal.machine_table import WiredTable, classic_registry
from tests.terminal.test_machine import ANN, Table
from tests.terminal.ui_driver import BANKER_UID, deed_uid, type_amount


@pytest.fixture
def table(make_game):
    return Table(make_game)


def wait(table, seconds):
    table.clock.advance(seconds)
    table.terminal.tick()


def test_the_deed_shows_its_rent_once_a_seat_is_bankrupt(table):
    g = table.game
    g.buy("Bob", 39)
    g.pay_bank("Ann", 1500)
    g.pay_bank("Ann", 10)  # Ann owes the Bank: she may declare bankruptcy
    g.declare_bankruptcy("Ann")
    assert "Ann" in g.current.bankrupt_list
    table.driver.tap(deed_uid(39))
    assert table.view.deed.rent == 50, "the rent another player still in the game would pay"


def test_an_undone_salary_does_not_count_for_the_second_go_warning(table):
    d = table.driver
    d.tap(ANN)
    d.choose("pass_go")
    d.tap(BANKER_UID)
    d.choose("undo")
    d.button("confirm")
    assert table.game.cash("Ann") == 1500
    d.tap(ANN)
    d.choose("pass_go")  # the salary was undone: this is the first one, committed at once, no warning
    assert table.game.cash("Ann") == 1700 and table.view.screen == "idle"


def test_a_confirmation_with_no_money_says_what_it_does(table):
    g = table.game
    g.gain_jail_card("Ann", "chance")
    d = table.driver
    d.tap(ANN)
    d.choose("use_jail_card")  # one card held: no question which deck
    assert table.view.screen == "confirm"
    assert text(table.view.pending.details[0], "fr").startswith("Ann sort de prison ; sa carte « libéré de prison » "
                                                                "(Carte Chance)")
    assert all("{" not in text(table.view.pending.details[0], lang) for lang in ("fr", "en", "uk"))
    d.button("confirm")
    assert g.current.jail_cards_of("Ann") == []


def test_both_jail_cards_held_asks_which_one(table):
    g = table.game
    g.gain_jail_card("Ann", "chance")
    g.gain_jail_card("Ann", "community_chest")
    table.driver.tap(ANN)
    table.driver.choose("use_jail_card")
    assert table.view.screen == "choose" and {o.id for o in table.view.options} == {"chance", "community_chest"}


def test_the_french_rent_screens_offer_no_card_its_decks_lack(make_game):
    for edition, offered in (("fr", set()), ("us", {"rent_railroad_card"})):
        t = Table(make_game, edition=edition)
        t.game.buy("Bob", 5)
        t.driver.tap(deed_uid(5))
        assert {o.id for o in t.view.options} & {"rent_railroad_card"} == offered, edition


def test_the_player_menu_and_money_confirmations_wait_60_s_a_deed_looked_at_10(table):
    table.game.buy("Bob", 39)
    table.game.pay_bank("Ann", 1480)
    d = table.driver
    d.tap(ANN)
    wait(table, 30)
    assert table.view.screen == "player"
    wait(table, 31)
    assert table.view.screen == "idle"
    d.tap(deed_uid(39))
    d.tap(ANN)  # a rent that makes a debt: its confirmation says what is paid and what stays owed
    assert table.view.screen == "confirm"
    wait(table, 30)
    assert table.view.screen == "confirm"
    wait(table, 31)
    assert table.view.screen == "idle"
    d.tap(deed_uid(39))
    wait(table, 11)
    assert table.view.screen == "idle", "a deed tapped and not followed keeps the short timeout"


def test_wrong_pin_goes_once_the_pin_is_typed_again(make_game):
    t = Table(make_game, banker_pin="2468")
    t.driver.choose("banker")
    type_amount(t.terminal, 1111)
    assert t.view.message.code == "wrong_pin"
    t.terminal.digit("2", version=t.view.screen_version)
    assert t.view.message is None
    for char in "468":
        t.terminal.digit(char, version=t.view.screen_version)
    t.terminal.digit("OK", version=t.view.screen_version)
    assert t.view.screen == "banker"


def test_ending_a_time_limited_game_says_what_the_end_does(make_game):
    game = make_game("fr", ("Ann", "Bob"), mode="time_limit", dealt={"Ann": [1, 3], "Bob": [6, 8]},
                     length_minutes=60)
    t = WiredTable(game, classic_registry(game), ("Ann", "Bob"))
    t.driver.tap(BANKER_UID)
    t.driver.choose("end_game")
    assert t.view.screen == "confirm"
    assert text(t.view.pending.details[0], "en") == "The game ends now: the richest player (cash and deeds) wins."


def test_idle_shows_who_holds_a_get_out_of_jail_free_card(table):
    table.game.gain_jail_card("Bob", "community_chest")
    table.terminal.changed()
    assert [p.jail_cards for p in table.view.players] == [0, 1, 0]


def test_the_payee_list_names_the_amount_typed(table):
    d = table.driver
    d.tap(ANN)
    d.choose("transfer")
    d.type_number(75)
    assert text(table.view.title, "fr").startswith("Ann paie 75\u00a0€ : à qui ?")


def test_repairs_say_how_many_buildings_at_what_price(table):
    g = table.game
    for square in (37, 39):
        g.buy("Ann", square)
    g.bank_pays("Ann", 1000)
    for _ in range(3):
        g.build("Ann", 37), g.build("Ann", 39)
    d = table.driver
    d.tap(ANN)
    d.choose("chance")
    d.choose("7")  # 25 per house, 100 per hotel
    assert table.view.pending.postings == (("Ann", "bank", 150),)
    assert text(table.view.pending.details[0], "fr") == "6 maison(s) × 25\u00a0€ + 0 hôtel(s) × 100\u00a0€"


def test_a_new_game_says_the_game_in_play_is_set_aside_and_how_to_go_back(table, tmp_path, key):
    from terminal.bank.game import Game
    table.terminal.game_factory = lambda edition, names, mode, rules, cards, minutes=None: Game.create(
        tmp_path / "new.db", edition, names, mode, rules or None, key=key, player_cards=cards)
    name = table.game.path.stem
    d = table.driver
    d.tap(BANKER_UID)
    d.choose("new_game")
    assert table.view.screen == "new_game" and table.view.message.code == "new_game_sets_aside"
    assert f"banquier games resume {name}" in text(table.view.message, "fr")
    d.button("cancel")
    assert table.view.screen == "idle" and table.terminal.game is table.game, "cancel: the game goes on"


def test_selling_a_hotel_says_it_went_back_to_4_houses(table):
    g = table.game
    g.bank_pays("Ann", 2000)
    for square in (37, 39):
        g.buy("Ann", square)
    for _ in range(5):
        g.build("Ann", 37), g.build("Ann", 39)
    d = table.driver
    d.tap(deed_uid(39))
    d.tap(ANN)
    d.choose("sell_building")
    assert g.current.level[39] == 4
    assert text(table.view.message, "fr").startswith("C'est fait : hôtel de Rue de la Paix revendu → 4 maisons")


def test_the_end_of_a_time_limited_game_says_what_happened(make_game):
    from tests.terminal.ui_driver import FakeClock
    game = make_game("fr", ("Ann", "Bob"), mode="time_limit", dealt={"Ann": [1, 3], "Bob": [6, 8]},
                     length_minutes=30)
    t = WiredTable(game, classic_registry(game), ("Ann", "Bob"))
    play = FakeClock(0.0)
    game.play_clock.start(play)
    play.advance(30 * 60)
    t.terminal.tick()
    assert t.view.screen == "game_over"
    assert text(t.view.message, "fr") == ("Le temps de jeu est écoulé : la partie est finie, le joueur le plus "
                                          "riche gagne.")
