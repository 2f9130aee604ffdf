"""The new-game wizard names its players: a card keeps the name it had in the game on the table, a seat is
renamed on the on-screen keyboard (capitals first and after a space or a hyphen; a name already at the table,
the Bank's, or a name too long is refused), and each mode is explained in one line."""
from __future__ import annotations

from hal.sim_beeper import SimBeeper
from host_ui.demo import BANKER_UID, FakeClock, make_registry, player_uid
from terminal.bank.game import Game
from terminal.table.machine import Terminal
from terminal.table.settings import TerminalSettings


def _terminal(tmp_path, key, game=None, language="fr"):
    """A terminal on ``game`` whose wizard creates ``new.db``; ``made`` notes the names and cards it was given."""
    clock = FakeClock()
    made = {}

    def factory(edition, names, mode, rules, cards, minutes=None):
        made.update(names=list(names), cards=dict(cards))
        return Game.create(tmp_path / "new.db", edition, names, mode, rules or None, key=key, player_cards=cards)

    terminal = Terminal(game, make_registry(8), SimBeeper(audio=False, clock=clock), clock,
                        TerminalSettings(language=language), game_factory=factory)
    return terminal, clock, made


def _wizard(tmp_path, key, game=None, language="fr"):
    terminal, clock, made = _terminal(tmp_path, key, game, language)
    terminal.present(BANKER_UID)
    terminal.choose("new_game")
    assert terminal.view.screen == "new_game"
    return terminal, clock, made


def _tap(terminal, clock, seat):
    clock.advance(2)
    terminal.present(player_uid(seat))


def _type(terminal, text):
    for char in text:
        terminal.choose("key:space" if char == " " else f"key:{char.lower()}")


def test_a_card_keeps_the_name_it_had_in_the_game_on_the_table(tmp_path, key):
    cards = {"Anne": player_uid(1), "Bruno": player_uid(2), "Chloé": player_uid(3)}
    game = Game.create(tmp_path / "old.db", "fr", list(cards), key=key, player_cards=cards)
    terminal, clock, _ = _wizard(tmp_path, key, game)
    for seat in (2, 1, 5):
        _tap(terminal, clock, seat)
    assert [name for name, _ in terminal.view.extra["seats"]] == ["Bruno", "Anne", "Voiture"]


def test_a_seat_is_named_on_the_keyboard_and_the_game_starts_with_the_names(tmp_path, key):
    terminal, clock, made = _wizard(tmp_path, key)
    for seat in (1, 2, 3):
        _tap(terminal, clock, seat)
    terminal.choose("rename:0")
    view = terminal.view
    assert view.title.code == "name_entry_title" and view.extra["editing"] == 0
    assert {"key:a", "key:é", "key:-", "key:space", "key:back", "key:ok", "key:cancel"} <= {o.id for o in view.options}
    _type(terminal, "anne-marie")
    assert terminal.view.extra["typed"] == "Anne-Marie"
    terminal.choose("key:back")
    terminal.choose("key:e")
    terminal.choose("key:ok")
    assert terminal.view.extra.get("editing") is None
    terminal.choose("rename:1")
    _type(terminal, "zoé le gall")
    terminal.choose("key:ok")
    terminal.choose("rename:2")  # Back: the token's name stays
    _type(terminal, "xx")
    terminal.choose("key:cancel")
    assert [name for name, _ in terminal.view.extra["seats"]] == ["Anne-Marie", "Zoé Le Gall", "Chapeau"]
    terminal.choose("start")
    assert made["names"] == ["Anne-Marie", "Zoé Le Gall", "Chapeau"]
    assert made["cards"] == {"Anne-Marie": player_uid(1), "Zoé Le Gall": player_uid(2), "Chapeau": player_uid(3)}
    assert terminal.game.players == ("Anne-Marie", "Zoé Le Gall", "Chapeau")
    terminal.game.close()


def test_a_name_at_the_table_the_banks_or_too_long_is_refused(tmp_path, key):
    terminal, clock, _ = _wizard(tmp_path, key)
    for seat in (1, 2):
        _tap(terminal, clock, seat)
    terminal.choose("rename:1")
    _type(terminal, "voiture")  # seat 1's name, capitals aside
    terminal.choose("key:ok")
    assert terminal.view.message.code == "name_taken" and terminal.view.extra["editing"] == 1
    for _ in range(7):
        terminal.choose("key:back")
    _type(terminal, "bank")
    terminal.choose("key:ok")
    assert terminal.view.message.code == "name_reserved"
    for _ in range(4):
        terminal.choose("key:back")
    _type(terminal, "a" * 20)
    terminal.choose("key:a")
    assert terminal.view.message.code == "name_too_long" and len(terminal.view.extra["typed"]) == 20
    terminal.choose("key:cancel")
    assert [name for name, _ in terminal.view.extra["seats"]] == ["Voiture", "Chien"]


def test_each_mode_is_explained_in_one_line(tmp_path, key):
    terminal, _, _ = _wizard(tmp_path, key)
    hints = []
    for _ in range(4):
        hints.append(terminal.view.extra["mode_hint"].code)
        terminal.choose("mode")
    assert hints == ["mode_hint_classic", "mode_hint_sans_frontieres", "mode_hint_quick", "mode_hint_time_limit"]
    from terminal.table.i18n import LANGUAGES, template
    assert all(template(h, language, None) for h in hints for language in LANGUAGES)


def _bankrupt_through_the_machine(terminal, clock, seat, player):
    """``player`` (card ``seat``) owes the Bank more than they have and declares bankruptcy on the table."""
    terminal.game.pay_bank(player, 5000)
    _tap(terminal, clock, seat)
    terminal.choose("bankruptcy")
    assert terminal.view.screen == "confirm"
    _tap(terminal, clock, seat)  # the debtor's card confirms
    assert player in terminal.game.current.bankrupt_list


def test_the_cards_of_a_finished_game_bankrupt_ones_included_are_free_for_the_next(tmp_path, key):
    cards = {"Anne": player_uid(1), "Bruno": player_uid(2)}
    game = Game.create(tmp_path / "old.db", "fr", list(cards), key=key, player_cards=cards)
    terminal, clock, made = _terminal(tmp_path, key, game)
    _bankrupt_through_the_machine(terminal, clock, 2, "Bruno")
    assert terminal.game.is_over() and terminal.view.screen == "game_over"
    clock.advance(2)
    terminal.present(BANKER_UID)
    terminal.choose("new_game")
    assert terminal.view.screen == "new_game"
    for seat in (2, 1, 3):  # Bruno's card first: he went bankrupt in the finished game
        _tap(terminal, clock, seat)
        assert terminal.view.message is None or terminal.view.message.code != "bankrupt_card"
    assert terminal.view.extra["seats"] == [("Bruno", player_uid(2)), ("Anne", player_uid(1)),
                                            ("Voiture", player_uid(3))]
    terminal.choose("start")
    assert terminal.view.screen == "idle" and terminal.view.message.code == "game_created"
    assert made["cards"] == {"Bruno": player_uid(2), "Anne": player_uid(1), "Voiture": player_uid(3)}
    assert terminal.game.players == ("Bruno", "Anne", "Voiture") and not terminal.game.current.bankrupt_list
    _tap(terminal, clock, 2)  # Bruno plays in the new game
    assert terminal.view.screen == "player" and terminal.view.player == "Bruno"
    terminal.game.close()


def test_a_game_replaced_mid_play_lends_its_bankrupt_players_cards_too(tmp_path, key):
    cards = {"Anne": player_uid(1), "Bruno": player_uid(2), "Chloé": player_uid(3)}
    game = Game.create(tmp_path / "old.db", "fr", list(cards), key=key, player_cards=cards)
    terminal, clock, made = _wizard(tmp_path, key, game)
    terminal.cancel()
    _bankrupt_through_the_machine(terminal, clock, 2, "Bruno")
    assert not terminal.game.is_over()
    clock.advance(2)
    terminal.present(BANKER_UID)
    terminal.choose("new_game")
    for seat in (1, 2, 3):
        _tap(terminal, clock, seat)
    assert [name for name, _ in terminal.view.extra["seats"]] == ["Anne", "Bruno", "Chloé"]
    terminal.choose("start")
    assert made["names"] == ["Anne", "Bruno", "Chloé"] and terminal.game.players == ("Anne", "Bruno", "Chloé")
    terminal.game.close()
