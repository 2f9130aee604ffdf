"""Say what happened and why (issue 12, point 5): every "done" message names what moved, undo's says what
was undone; computed amounts carry their reason; undo and cancel are different words in every language."""
from __future__ import annotations

import pytest

from terminal.table.i18n import LANGUAGES, translate
from terminal.table.i18n import text as _text
from tests.terminal.test_machine import ANN, BOB, Table
from tests.terminal.ui_driver import BANKER_UID, deed_uid

NBSP = "\u00a0"


def text(msg, language="fr"):
    return _text(msg, language).replace(NBSP, " ")


@pytest.fixture
def table(make_game):
    return Table(make_game)


def test_done_messages_name_what_moved(table):
    d, g = table.driver, table.game
    d.tap(deed_uid(39))
    d.tap(ANN)
    assert text(table.view.message) == "C'est fait : Ann achète Rue de la Paix (400 €). Ann → Banque 400 €"
    g.buy("Ann", 37)
    d.tap(deed_uid(39))
    d.tap(ANN)
    d.choose("build")  # the button names the amount: it commits
    built = "C'est fait : maison construite sur Rue de la Paix (1 maintenant, 200 €)"
    assert text(table.view.message).startswith(built)
    d.tap(ANN)
    d.choose("chance")
    d.choose("10")  # Get Out of Jail Free: no money, the card is named
    assert text(table.view.message).startswith("C'est fait : Ann garde une carte « libéré de prison »")
    g.buy("Ann", 1)
    d.tap(ANN)
    d.choose("trade")
    d.tap(BOB)
    d.choose("deed:Ann:1")
    d.choose("cash:Bob")
    d.type_number(300)
    d.choose("done")
    d.tap(ANN)
    d.tap(BOB)
    assert text(table.view.message, "en").startswith(
        "Done: trade Ann ↔ Bob: Ann gives Boulevard de Belleville; Bob gives 300 €.")


def test_undo_says_what_was_undone(table):
    d = table.driver
    table.game.buy("Ann", 39)
    d.tap(BANKER_UID)
    d.choose("undo")
    d.button("confirm")
    assert text(table.view.message).startswith("C'est fait : défait : Achat de Rue de la Paix (Ann). Banque → Ann")
    assert text(table.view.message, "uk").startswith("Готово: відкочено: ")


def test_lifting_a_mortgage_names_the_interest_on_its_button(table):
    d = table.driver
    table.game.buy("Ann", 39)
    table.game.mortgage("Ann", 39)
    d.tap(deed_uid(39))
    d.tap(ANN)
    label = next(o.label for o in table.view.options if o.id == "unmortgage")
    assert text(label) == "Lever l'hypothèque (200 € + 10 % d'intérêts 20 €) −220 €"
    d.choose("unmortgage")  # the button names the amount and why: it commits
    assert table.game.cash("Ann") == 1500 - 400 + 200 - 220 and not table.game.current.mortgaged.get(39)


def test_a_trade_of_a_mortgaged_deed_says_the_interest_due(table):
    d = table.driver
    table.game.buy("Ann", 39)
    table.game.mortgage("Ann", 39)
    d.tap(ANN)
    d.choose("trade")
    d.tap(BOB)
    d.choose("deed:Ann:39")
    d.choose("done")
    assert [text(m, "en") for m in table.view.pending.details] == [
        "Bob receives Rue de la Paix mortgaged: 10 % interest due (20 €)"]


def test_a_rent_confirmed_for_a_debt_keeps_its_reason(table):
    table.game.buy("Ann", 37), table.game.buy("Ann", 39)
    table.game.pay_bank("Bob", 1450)
    table.driver.tap(deed_uid(39))
    table.driver.tap(BOB)
    assert [text(m) for m in table.view.pending.details] == ["groupe complet : loyer double"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_undo_and_cancel_are_different_words(language):
    cancel = translate("ui_cancel", {}, language)
    for code in ("opt_undo", "ui_undo_banker", "purpose_undo_plain", "nothing_to_undo", "ui_undone"):
        undo = translate(code, {"what": "X"}, language)
        assert cancel.lower() not in undo.lower(), (code, undo)
        assert translate("cancelled", {}, language).split()[0].rstrip(".:").lower() not in undo.lower(), (code, undo)
