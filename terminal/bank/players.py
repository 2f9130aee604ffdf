"""Who may play a game: 2 to 8 players (the edition says), their names (1-20 printable characters, none the
Bank's or the Free Parking pot's, no two alike without capitals)."""
from __future__ import annotations

from cards.editions import Edition
from terminal.bank.state import BANK, POT
from terminal.errors import RuleViolation

MIN_PLAYERS, MAX_PLAYERS = 2, 8
MAX_NAME_LENGTH = 20

#: Names no player may take (compared without capitals): the Bank's and the Free Parking pot's accounts, and the
#: names the screens give them in each language (the catalogs' ``ui_bank_name`` and ``ui_pot_name``; a test keeps
#: this list and the catalogs together), so that no message about a player reads like one about the Bank.
RESERVED_NAMES = frozenset({BANK, POT, "the bank", "banque", "la banque", "банк", "free parking", "parc gratuit",
                            "стоянка"})


def check_players(players: tuple[str, ...], edition: Edition | None = None) -> None:
    """Refuse (RuleViolation: ``player_count``, ``player_name``, ``player_name_reserved``, ``player_duplicate``)
    players a game cannot have: their number (the edition's range; 2-8 without one) or a name."""
    least, most = (edition.min_players, edition.max_players) if edition is not None else (MIN_PLAYERS, MAX_PLAYERS)
    if not least <= len(players) <= most:
        raise RuleViolation(f"A game has {least} to {most} players, not {len(players)}.",
                            code="player_count", params={"count": len(players)})
    for name in players:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_LENGTH or name != name.strip() \
                or not name.isprintable():
            raise RuleViolation(f"Player names are 1 to {MAX_NAME_LENGTH} printable characters without leading or "
                                f"trailing spaces: {name!r}.", code="player_name", params={"name": name})
        if name.casefold() in RESERVED_NAMES:
            raise RuleViolation(f"{name!r} is reserved for the Bank; choose another name.",
                                code="player_name_reserved", params={"name": name})
    if len({name.casefold() for name in players}) != len(players):
        raise RuleViolation("Two players have the same name (capitals do not count).", code="player_duplicate")
