"""A Ukrainian screen names the deeds and reads the cards in Ukrainian (issue 13, point 4): the rent, the Chance
cards, a refusal of the Bank; an English screen gets the English names of a French board's utilities even in
a refusal's exact English."""
from __future__ import annotations

from cards.editions import load_edition
from terminal.table.i18n import text
from terminal.table.view import Msg
from tests.terminal.test_machine import ANN, BOB, Table
from tests.terminal.ui_driver import deed_uid


def test_rent_chance_and_refusal_on_a_ukrainian_screen(make_game):
    table = Table(make_game, language="uk")
    d, game = table.driver, table.game
    game.buy("Ann", 39)
    d.tap(deed_uid(39))
    d.tap(BOB)
    message = text(table.view.message, "uk")
    assert "оренду: Вулиця Миру" in message and "Rue de la Paix" not in message

    d.tap(ANN)
    d.choose("chance")
    labels = [text(o.label, "uk") for o in table.view.options]
    assert labels[0] == "Вирушайте на вулицю Миру."
    assert labels[1].endswith("Перейдіть на поле «СТАРТ»: отримайте зарплату.")
    d.choose("6")  # road repairs: the card's text is the confirmation's purpose
    assert text(table.view.pending.purpose, "uk").startswith("Податок на ремонт доріг: сплатіть 40")
    d.button("cancel")

    d.tap(deed_uid(39))
    d.tap(ANN)
    table.terminal.choose("build")  # greyed out; chosen anyway (a function key): the rule's message
    assert table.view.message_kind == "error"
    refusal = text(table.view.message, "uk")
    assert "Будувати на Вулиця Миру не можна" in refusal and "Бракує: Єлисейські Поля" in refusal
    assert "Avenue des Champs-Élysées missing" in text(table.view.message, "en")  # the exact English, as before
    assert "Il manque : Avenue des Champs-Élysées" in text(table.view.message, "fr")


def test_the_us_edition_on_a_ukrainian_and_a_french_screen(make_game):
    table = Table(make_game, edition="us", language="uk")
    table.game.buy("Ann", 39)
    table.driver.tap(deed_uid(39))
    table.driver.tap(BOB)
    assert "Бордвок" in text(table.view.message, "uk")
    assert "Boardwalk" in text(table.view.message, "fr")
    table.driver.tap(ANN)
    table.driver.choose("chance")
    assert text(table.view.options[1].label, "uk").endswith("Перейдіть на поле «СТАРТ»: отримайте зарплату.")


def test_a_refusals_exact_english_gives_way_when_the_edition_names_the_deed_otherwise_in_english():
    fr = load_edition("fr")
    utility = fr.squares[12].name
    exact = Msg("build_not_street", {"square": 12, "deed": utility},
                f"Nothing can be built on {utility}: only streets take houses.", exact=True)
    english = text(exact, "en")
    assert "Electric Company" in english and "Compagnie" not in english
    assert "Вулиця" not in text(exact, "uk") and "Електрична компанія" in text(exact, "uk")
    street = fr.squares[39].name  # a street's English name is its French one: the exact text is kept
    kept = Msg("build_max", {"square": 39, "deed": street}, "Rue de la Paix already has a hotel: exactly.", exact=True)
    assert text(kept, "en") == "Rue de la Paix already has a hotel: exactly."


def test_a_name_as_a_messages_own_text_is_shown_in_the_screens_language():
    name = load_edition("fr").squares[37].name
    assert text(Msg("name", {"name": name}, name), "uk") == "Єлисейські Поля"
    assert text(Msg("name", {"name": name}, name), "fr") == "Avenue des Champs-Élysées"
