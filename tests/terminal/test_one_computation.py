"""One computation of the operation per committed tap (issue 23): the table commits the Bank's preview it
decided on, so the tap that commits computes the operation once (a one-touch commit: the preview that decides
whether to ask, committed as it is) or not at all (a confirmation: the preview shown when it opened is the one
committed). Counted at the engine, over every table log of the suite played by a person's inputs."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from terminal.bank import engine
from terminal.bank.door import Preview
from terminal.table.machine import Terminal
from tests.conftest import OWN_LOGS, RECORDED
from tests.terminal.test_machine_replay import drive

#: The logs played in the quick run: between them every kind of committing tap (a deed, a payer's card, a
#: button naming an amount, a deck card's tile, a confirmation by OK and by card, a trade's two cards, an undo,
#: an Event card, a Location).
QUICK = ("fr-cards-money.jsonl", "fr-debts-every-path.jsonl", "fr-trades.jsonl", "us-undo.jsonl",
         "us-rent-utilities.jsonl", "fr-bankruptcy-hotels.jsonl", "ultimate-events.jsonl", "ultimate-location.jsonl")
LOGS = sorted(OWN_LOGS.glob("*.jsonl")) + sorted(RECORDED.glob("*.jsonl"))
#: The inputs a person makes (what the driver calls): each is measured from its start to its end.
INPUTS = ("handle", "present", "press", "choose", "digit", "confirm", "cancel")


class Counter:
    """Counts the engine's computations of an operation (``engine.apply``, ``engine.undo_effects``) and records,
    for every outermost input that committed, what it cost."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.computed = 0
        self.committed: list[Preview] = []
        self.taps: list[tuple[str, int, int, bool]] = []  # (input, computations, entries written, same preview)
        for name in ("apply", "undo_effects"):
            real = getattr(engine, name)
            monkeypatch.setattr(engine, name, self._counting(real))

    def _counting(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.computed += 1
            return real(*args, **kwargs)
        return counted

    def watch(self, terminal: Terminal) -> None:
        """Wrap ``terminal``'s inputs and its game's commit."""
        depth = [0]
        game = terminal.game
        assert game is not None
        real_commit = game.commit

        def commit(preview: Preview) -> Any:
            self.committed.append(preview)
            return real_commit(preview)
        game.commit = commit  # type: ignore[method-assign]
        for name in INPUTS:
            real = getattr(terminal, name)

            def measured(*args: Any, _real: Callable[..., Any] = real, _name: str = name, **kwargs: Any) -> Any:
                depth[0] += 1
                try:
                    if depth[0] > 1:
                        return _real(*args, **kwargs)
                    shown = terminal.view.pending.preview if terminal.view.screen == "confirm" else None
                    before, entries, commits = self.computed, game.ledger.last_entry()[0], len(self.committed)
                    result = _real(*args, **kwargs)
                    written = game.ledger.last_entry()[0] - entries
                    if written:
                        same = shown is not None and any(p is shown for p in self.committed[commits:])
                        self.taps.append((_name, self.computed - before, written, same if shown else False))
                    return result
                finally:
                    depth[0] -= 1
            setattr(terminal, name, measured)


def _cases() -> list[Any]:
    return [pytest.param(p, id=p.name, marks=[] if p.name in QUICK else [pytest.mark.slow]) for p in LOGS]


def _played(log: Any, tmp_path: Any, key: bytes, monkeypatch: pytest.MonkeyPatch) -> Counter:
    counter = Counter(monkeypatch)
    game = drive(log, tmp_path, key, on_terminal=counter.watch)
    game.close()
    return counter


@pytest.mark.parametrize("log", _cases())
def test_each_committed_tap_computes_its_operation_once(log, tmp_path, key, monkeypatch):
    counter = _played(log, tmp_path, key, monkeypatch)
    for name, computed, written, confirmed in counter.taps:
        assert written == 1, (name, written)
        if confirmed:  # a confirmation: the preview it showed is committed, nothing computed again
            assert computed == 0, f"{log.name}: a confirming {name} computed the operation {computed} times"
        else:  # a one-touch commit: the preview that decided is committed
            assert computed == 1, f"{log.name}: a committing {name} computed the operation {computed} times"


def test_the_count_sees_both_kinds_of_commit(tmp_path, key, monkeypatch):
    """The measure is not empty: a game of debts commits both by one touch and by confirmations, by OK and by
    card, and the engine counts each computation."""
    counter = _played(OWN_LOGS / "fr-debts-every-path.jsonl", tmp_path, key, monkeypatch)
    kinds = {(name, confirmed) for name, _, _, confirmed in counter.taps}
    assert {("handle", False), ("handle", True), ("press", True)} <= kinds, kinds
    assert counter.computed > len(counter.taps)  # the screens' own previews (amounts on buttons) are counted too


def test_a_preview_gone_stale_is_computed_again_and_said(make_game):
    """A confirmation on screen while the journal moves (the play clock, another terminal's write): its commit
    computes the operation again on the game as it stands, and the done message says what was committed."""
    from tests.terminal.test_machine import BOB, Table
    from tests.terminal.ui_driver import deed_uid
    table = Table(make_game)
    table.game.buy("Ann", 39)
    table.game.pay_bank("Bob", 1480)  # 20 left: the rent of 50 makes a debt, so it is confirmed
    table.driver.tap(deed_uid(39))
    table.driver.tap(BOB)
    assert table.view.screen == "confirm" and table.view.pending.postings == (("Bob", "Ann", 20),)
    table.game.bank_pays("Bob", 100)  # the journal moves under the confirmation: Bob now has 120
    table.driver.button("confirm")
    assert table.view.screen == "idle" and table.game.cash("Bob") == 70 and table.game.cash("Ann") == 1150
    assert not table.game.current.debts_of("Bob")
