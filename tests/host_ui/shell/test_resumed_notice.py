"""The notice on the first screen of a resumed game: after an unexpected stop it says what is true whether or
not an operation was in progress (every confirmed operation is recorded; one not yet confirmed is to be done
again), in every language; after a clean stop, that the game goes on where it stopped."""
from __future__ import annotations

import pytest

from host_ui.shell.games import resumed_notice
from terminal.bank.game import Game
from terminal.table.i18n import text
from tests.unclean import abandon


def _unclean(tmp_path, key):
    path = tmp_path / "g.db"
    first = Game.create(path, "fr", ["Anne", "Bruno"], key=key)
    first.pay_bank("Anne", 100)  # confirmed, then the power goes: the file is never closed
    abandon(first)
    return Game.open(path, key=key)


@pytest.mark.parametrize(("language", "expected"), [
    ("fr", ("Partie reprise après un arrêt imprévu : tout ce qui a été confirmé est enregistré ; une opération "
            "pas encore confirmée est à refaire.")),
    ("en", ("Game resumed after an unexpected stop: everything confirmed is recorded; an operation not yet "
            "confirmed is to be done again.")),
    ("uk", ("Гру відновлено після раптової зупинки: усе підтверджене записано; непідтверджену дію треба "
            "повторити.")),
])
def test_after_an_unexpected_stop_the_notice_claims_nothing_it_does_not_know(tmp_path, key, language, expected):
    game = _unclean(tmp_path, key)
    try:
        assert game.ledger.was_unclean and game.cash("Anne") == 1400, "what was confirmed is there"
        notice = resumed_notice(game)
        assert notice.code == "game_resumed_unclean"
        assert text(notice, language) == expected
        assert "en cours" not in text(notice, "fr") and "in progress" not in text(notice, "en")
    finally:
        game.close()


def test_after_a_clean_stop_the_game_goes_on_where_it_stopped(tmp_path, key):
    path = tmp_path / "g.db"
    Game.create(path, "fr", ["Anne", "Bruno"], key=key).close()
    game = Game.open(path, key=key)
    try:
        assert resumed_notice(game).code == "game_resumed"
    finally:
        game.close()
