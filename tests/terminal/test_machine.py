"""The state machine's flows, bad inputs and feedback, driven through the simulated reader and buttons with
a fake clock; the beeper's record is checked after each action."""
from __future__ import annotations

from datetime import UTC

import pytest

from cards.registry import PlayerCard
from hal.interfaces import ButtonPressed, ReaderBack, ReaderLost
from terminal.bank.operations import Undo
from tests.terminal.machine_table import WiredTable, classic_registry
from tests.terminal.ui_driver import BANKER_UID, UNKNOWN_UID, deed_uid, player_uid, type_amount

ANN, BOB, CID = player_uid(1), player_uid(2), player_uid(3)


class Table(WiredTable):
    """A terminal with three players, the simulated reader and beeper, and a fake clock."""

    def __init__(self, make_game, edition="fr", players=("Ann", "Bob", "Cid"), **settings):
        game = make_game(edition, players)
        super().__init__(game, classic_registry(game), players, **settings)


@pytest.fixture
def table(make_game):
    return Table(make_game)


def test_idle_shows_every_balance(table):
    assert table.view.screen == "idle"
    assert [(p.name, p.cash) for p in table.view.players] == [("Ann", 1500), ("Bob", 1500), ("Cid", 1500)]


def test_buy_flow_beeps_once_per_tap_and_success_after_commit(table):
    d = table.driver
    d.tap(deed_uid(39))
    assert table.view.screen == "deed" and table.view.deed.name == "Rue de la Paix"
    assert table.view.title.code == "deed_tap_buyer" and table.view.title.params["price"] == "400\u00a0€"
    assert table.beeps() == ["accepted"]
    assert table.entries() == 1, "nothing is committed by looking at a deed"
    d.tap(ANN)  # the buyer's card, under the price shown: it commits
    assert table.beeps() == ["success"]
    assert table.game.cash("Ann") == 1100 and table.view.screen == "idle"
    assert table.view.players[0].cash == 1100


def test_resting_card_and_quick_retap_never_charge_twice(table):
    d = table.driver
    table.game.buy("Ann", 39)
    table.game.pay_bank("Bob", 1480)  # 20 left: the rent of 50 makes a debt, so it is confirmed
    d.tap(deed_uid(39))
    d.tap(BOB)
    assert table.view.screen == "confirm"
    # Bob's card rests on the reader for 40 polls: one presentation, one confirmation.
    table.reader.present(BOB)
    for _ in range(40):
        table.clock.advance(0.05)
        for event in table.reader.poll():
            table.terminal.handle(event)
    table.reader.remove(BOB)
    table.clock.advance(0.5)
    # ... and tapped again at once after the commit: ignored.
    table.reader.tap(BOB)
    table.clock.advance(0.06)
    for event in table.reader.poll():
        table.terminal.handle(event)
    assert table.game.cash("Bob") == 0 and table.game.current.debts_of("Bob")[0].amount == 30
    assert table.entries() == 4
    assert table.beeps().count("success") == 1


def test_a_too_quick_confirming_tap_is_ignored(table):
    table.game.buy("Ann", 39)
    table.game.pay_bank("Bob", 1480)
    table.terminal.present(deed_uid(39))
    table.clock.advance(1)
    table.terminal.present(BOB)  # a debt: the confirmation is shown now
    table.clock.advance(0.1)
    table.terminal.present(BOB)  # the same hand twice in 0.1 s
    assert table.view.screen == "confirm" and table.game.cash("Bob") == 20
    table.clock.advance(1)
    table.terminal.present(BOB)
    assert table.game.cash("Bob") == 0


def test_cancel_drops_the_pending_payment(table):
    d = table.driver
    d.tap(ANN)
    d.choose("pay_bank")
    d.type_number(50)
    assert table.view.screen == "confirm"
    d.button("cancel")
    assert table.view.screen == "idle" and table.game.cash("Ann") == 1500 and table.entries() == 1
    assert table.view.message.code == "cancelled"


def test_a_looked_at_deed_times_out_and_never_becomes_a_purchase(table):
    d = table.driver
    d.tap(deed_uid(39))
    table.clock.advance(11)
    table.terminal.tick()
    assert table.view.screen == "idle" and table.view.message.code == "timed_out"
    d.tap(ANN)
    assert table.view.screen == "player", "the old deed is forgotten: Ann's card opens her own context"
    assert table.entries() == 1


@pytest.mark.parametrize("uid, code", [(UNKNOWN_UID, "unknown_card"), (player_uid(4), "card_not_in_game")])
def test_unknown_cards_get_their_own_message(table, uid, code):
    table.driver.tap(uid)
    assert table.view.message.code == code and table.view.message_kind == "error"
    assert table.beeps() == ["refused"]
    assert table.entries() == 1


def test_wrong_kind_of_card_for_the_step(table):
    from terminal.table.i18n import text
    d = table.driver
    d.tap(ANN)
    d.choose("pay_bank")
    d.type_number(50)
    d.tap(deed_uid(1))
    assert table.view.screen == "confirm" and table.view.message.code == "screen_needs"
    assert table.beeps()[-1] == "refused"
    deed_message = text(table.view.message, "fr")
    assert deed_message == "Cet écran attend la carte de Ann ou OK."
    d.tap(BOB)  # not the payer: the same message, whatever the wrong card
    assert text(table.view.message, "fr") == deed_message and table.game.cash("Bob") == 1500


def test_a_bankrupt_players_card_is_refused(table):
    table.game.pay_bank("Cid", 5000)
    table.game.declare_bankruptcy("Cid")
    table.beeps()
    table.driver.tap(CID)
    assert table.view.message.code == "bankrupt_card" and table.beeps() == ["refused"]


def test_paying_yourself_is_refused(table):
    d = table.driver
    d.tap(ANN)
    d.choose("transfer")
    d.type_number(50)
    d.tap(ANN)
    assert table.view.message.code == "pay_self" and table.game.cash("Ann") == 1500


@pytest.mark.parametrize("value, code", [(0, "amount_not_positive"), (10**8, "amount_absurd")])
def test_zero_and_absurd_amounts_are_refused_with_their_message(table, value, code):
    d = table.driver
    d.tap(ANN)
    d.choose("pay_bank")
    d.type_number(value)
    assert table.view.message.code == code
    assert table.view.screen == "keypad" and table.entries() == 1
    assert table.beeps()[-1] == "refused"


def test_keypad_limits_digits_and_clears(table):
    d = table.driver
    d.tap(ANN)
    d.choose("pay_bank")
    for _ in range(12):
        table.terminal.digit("9")
    assert table.view.keypad == "9" * 9 and table.view.message.code == "amount_too_long"
    table.terminal.digit("<")
    assert table.view.keypad == "9" * 8
    table.terminal.digit("C")
    assert table.view.keypad == ""
    table.terminal.digit("OK")
    assert table.view.message.code == "empty_amount"


def test_a_refusal_of_the_rules_shows_the_rule_and_changes_nothing(table):
    d = table.driver
    table.game.buy("Ann", 1)
    table.game.buy("Ann", 3)
    table.game.build("Ann", 3)
    before = table.game.state()
    d.tap(deed_uid(3))
    d.tap(ANN)
    assert not next(o for o in table.view.options if o.id == "build").enabled, "greyed out: the rules refuse it"
    table.terminal.choose("build")  # chosen anyway (a function key): the rule's message
    assert table.view.message.code == "build_uneven"
    assert "Boulevard de Belleville" in table.view.message.english
    assert table.beeps()[-1] == "refused" and table.game.state() == before


def test_second_go_salary_within_the_window_asks_again(table):
    d = table.driver
    d.tap(ANN)
    d.choose("pass_go")  # the button names the amount: it commits
    assert table.game.cash("Ann") == 1700
    d.tap(ANN)
    d.choose("pass_go")
    assert table.view.pending.warning.code == "second_go"
    d.button("confirm")
    assert table.game.cash("Ann") == 1700, "the first confirm only acknowledges the warning"
    d.button("confirm")
    assert table.game.cash("Ann") == 1900
    table.clock.advance(200)
    d.tap(ANN)
    d.choose("pass_go")
    assert table.view.screen == "idle" and table.game.cash("Ann") == 2100


def test_rent_on_a_utility_asks_the_dice(make_game):
    table = Table(make_game, edition="us")  # its Chance deck has the "nearest utility" card (the French has not)
    d = table.driver
    table.game.buy("Bob", 12)
    d.tap(deed_uid(12))
    assert table.view.screen == "keypad"
    d.type_number(9)
    assert table.view.screen == "deed" and table.view.title.params["rent"] == table.terminal.fmt(36)
    d.choose("rent_utility_card")
    assert table.view.title.params["rent"] == table.terminal.fmt(90)
    d.tap(ANN)
    assert table.game.cash("Bob") == 1500 - 150 + 90


def test_in_debt_the_context_offers_raising_money_first(table):
    table.game.pay_bank("Ann", 1600)  # 1500 paid, 100 owed to the Bank
    table.driver.tap(ANN)
    options = table.view.options
    assert [o.id for o in options[:3]] == ["trade", "my_deeds", "bankruptcy"]
    assert {o.id: o.enabled for o in options}["transfer"] is False
    assert table.view.players[0].debts == (("bank", 100),)
    table.terminal.choose("transfer")
    assert table.view.message.code == "not_allowed_now" and table.view.screen == "player"


def test_banker_functions_need_the_banker(table):
    d = table.driver
    d.choose("banker")
    assert table.view.screen == "idle" and table.view.message.code == "needs_banker"
    d.tap(BANKER_UID)
    assert table.view.screen == "banker"


def test_banker_pin(make_game):
    table = Table(make_game, banker_pin="2468")
    d = table.driver
    d.choose("banker")
    assert table.view.screen == "pin"
    type_amount(table.terminal, 1111)
    assert table.view.message.code == "wrong_pin" and table.view.screen == "pin"
    type_amount(table.terminal, 2468)
    assert table.view.screen == "banker"


def test_banker_protection_off_for_family_play(make_game):
    table = Table(make_game, banker_protection=False)
    table.driver.choose("banker")
    assert table.view.screen == "banker"


def test_undo_shows_what_it_undoes_before_doing_it(table):
    d = table.driver
    table.game.buy("Ann", 39)
    d.tap(BANKER_UID)
    d.choose("undo")
    assert table.view.screen == "confirm"
    from terminal.table.i18n import text
    assert text(table.view.pending.purpose, "fr") == "Défaire : Achat de Rue de la Paix (Ann)"
    assert text(table.view.pending.purpose, "en") == "Undo: Buying Rue de la Paix (Ann)"
    assert table.view.pending.postings == (("bank", "Ann", 400),)
    d.button("confirm")
    assert table.game.cash("Ann") == 1500


def test_reader_health_is_shown(table):
    table.terminal.handle(ReaderLost("no answer"))
    assert table.view.reader_ok is False
    table.terminal.handle(ReaderBack())
    assert table.view.reader_ok is True


def test_function_keys_pick_the_first_options(table):
    d = table.driver
    d.tap(ANN)
    table.terminal.handle(ButtonPressed("f1"))  # GO salary, named with its amount: it commits
    assert table.view.screen == "idle" and table.game.cash("Ann") == 1700


def test_view_is_rebuilt_only_on_change(table):
    version = table.terminal.version
    view = table.view
    assert table.view is view
    table.terminal.tick()
    assert table.terminal.version == version and table.view is view
    table.driver.tap(ANN)
    assert table.terminal.version > version


def test_a_whole_game_to_its_end_through_the_machine(make_game):
    table = Table(make_game, players=("Ann", "Bob"))
    d = table.driver
    for op in ({"op": "buy", "player": "Ann", "square": 39}, {"op": "buy", "player": "Ann", "square": 37},
               {"op": "build", "player": "Ann", "square": 39}, {"op": "pay_bank", "player": "Bob", "amount": 1400},
               {"op": "pay_rent", "player": "Bob", "square": 37}, {"op": "pay_rent", "player": "Bob", "square": 39},
               {"op": "declare_bankruptcy", "player": "Bob"}):
        d.play(op)
    assert table.game.is_over() and table.view.screen == "game_over"
    assert table.beeps()[-1] == "game_over"
    assert table.view.extra["standings"] == ["Ann", "Bob"]


def test_undo_from_the_history_needs_the_banker_then_shows_what_it_undoes(table):
    d = table.driver
    table.game.buy("Ann", 39)
    d.choose("history")
    assert table.view.screen == "history"
    d.choose("undo")
    assert table.view.message.code == "needs_banker" and table.game.cash("Ann") == 1100
    d.tap(BANKER_UID)
    assert table.view.screen == "confirm" and table.view.pending.op == Undo()
    d.button("confirm")
    assert table.game.cash("Ann") == 1500
    assert table.view.message.params["detail"].startswith("Banque")


def test_enrolment_wizard_from_the_banker_menu(make_game):
    from cards.registry import Enrolment
    table = Table(make_game)
    registry = table.terminal.registry
    table.terminal.enrolment_factory = lambda: Enrolment(registry, players=8, missing_only=True)
    d = table.driver
    d.tap(BANKER_UID)
    d.choose("enrol")
    assert table.view.screen == "enrol" and table.view.title.code == "enrol_tap_player"
    d.tap(ANN)  # already player 1's card
    assert table.beeps()[-1] == "refused" and table.view.message.code == "card_already_enrolled"
    d.tap("04AA55AA")  # a new card becomes the next missing player card
    assert table.beeps()[-1] == "accepted"
    assert registry.lookup("04AA55AA") == PlayerCard(5)


def test_new_game_wizard_with_a_time_limit(make_game, tmp_path, key):
    from datetime import datetime, timedelta

    from terminal.bank.game import Game
    table = Table(make_game)
    start = datetime(2026, 12, 24, 20, 0, tzinfo=UTC)
    made = {}

    def factory(edition, names, mode, rules, cards, minutes=None):
        made.update(edition=edition, names=names, mode=mode, minutes=minutes)
        end = (start + timedelta(minutes=minutes)).isoformat() if minutes else None
        return Game.create(tmp_path / "new.db", edition, names, mode, rules or None, end_time=end, key=key,
                           player_cards=cards, clock=lambda: start)

    table.terminal.game_factory = factory
    d = table.driver
    d.tap(BANKER_UID)
    d.choose("new_game")
    while table.view.extra is not None and "minutes" not in [o.id for o in table.view.options]:
        d.choose("mode")
    d.choose("minutes")  # 60 -> 90 minutes
    d.tap(ANN)
    d.tap(BOB)
    d.tap(ANN)
    assert table.view.message.code == "already_seated"
    d.choose("start")
    assert made == {"edition": "fr", "names": ["Voiture", "Chien"], "mode": "time_limit", "minutes": 90}
    game = table.terminal.game
    assert game.meta["end_time"] == "2026-12-24T21:30:00+00:00"
    assert game.meta["player_cards"] == {"Voiture": ANN, "Chien": BOB}
    assert len(game.current.deeds_of("Voiture")) == 2, "two deeds dealt and paid in a time-limited game"
    d.tap(ANN)
    assert table.view.screen == "player" and table.view.player == "Voiture"
    game.close()
