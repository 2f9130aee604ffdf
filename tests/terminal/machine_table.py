"""The wiring every state-machine test table shares: a terminal on a game, the simulated reader and beeper and
a fake clock, and the beeps played since the last look."""
from __future__ import annotations

from typing import Any

from cards.registry import BankerCard, CardRegistry, DeedCard, PlayerCard
from hal.sim_beeper import SimBeeper
from hal.sim_reader import SimReader
from terminal.table.machine import Terminal
from terminal.table.settings import TerminalSettings
from tests.terminal.ui_driver import BANKER_UID, FakeClock, TableDriver, deed_uid, player_uid


def classic_registry(game: Any) -> CardRegistry:
    """The banker's card, four player cards and one card per deed of the game's edition (none without a game)."""
    deeds = {deed_uid(s.index): DeedCard(s.index) for s in game.edition.deeds()} if game is not None else {}
    return CardRegistry(None, {BANKER_UID: BankerCard(), **{player_uid(n): PlayerCard(n) for n in range(1, 5)},
                               **deeds})


class WiredTable:
    """A terminal on ``game`` (None: no game open) with the simulated reader and beeper and a fake clock."""

    def __init__(self, game: Any, registry: CardRegistry, players: tuple[str, ...] | list[str], *,
                 clock: FakeClock | None = None, factory: Any = None, damage: Any = None, restore: Any = None,
                 find_backup: Any = None, **settings: Any) -> None:
        self.clock = clock or FakeClock()
        self.game = game
        self.beeper = SimBeeper(audio=False, clock=self.clock)
        self.reader = SimReader(clock=self.clock)
        self.terminal = Terminal(game, registry, self.beeper, self.clock, TerminalSettings(**settings),
                                 game_factory=factory, damage=damage, restore=restore, find_backup=find_backup)
        self.driver = TableDriver(self.terminal, self.reader, self.clock, list(players))
        self._seen = 0

    def beeps(self) -> list[str]:
        """Patterns played since the last call."""
        new = [p for _, p in self.beeper.played[self._seen:]]
        self._seen = len(self.beeper.played)
        return new

    @property
    def view(self):
        return self.terminal.view

    def entries(self) -> int:
        return self.game.ledger.last_entry()[0]
