"""The new-game wizard (the banker's menu, or a damaged game's screen): the players tap their cards to take a seat
(named after the game's tokens, or their name in the game before; renamed on the on-screen keyboard), the
edition, the mode and the length of a time-limited game, the edition's rule flags; Start makes the game through
the host's factory."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from cards.editions import available_editions, load_edition
from cards.registry import PlayerCard, Role
from terminal.bank.players import MAX_NAME_LENGTH
from terminal.bank.state import BANK, MODES, POT
from terminal.errors import GameError
from terminal.table.i18n import MODE_HINTS, N_
from terminal.table.screens.base import Common, PlayerTap, Screen, Table, Tapped, inputs
from terminal.table.view import Msg, Option, View

#: The classic tokens, the default names of the players who tap their cards in the new-game wizard.
TOKENS = {"fr": ("Voiture", "Chien", "Chapeau", "Bateau", "Fer", "Dé", "Brouette", "Botte"),
          "en": ("Car", "Dog", "Hat", "Ship", "Iron", "Thimble", "Wheelbarrow", "Boot"),
          "uk": ("Авто", "Пес", "Капелюх", "Корабель", "Праска", "Наперсток", "Тачка", "Чобіт")}
#: Lengths offered for a time-limited game, in minutes of play (the game factory passes them to
#: ``Game.create(length_minutes=...)``; the game ends on play time, never on the wall clock).
GAME_LENGTHS = (60, 90, 120, 180, 30, 45)
#: The letters of the on-screen keyboard that names the players, by language (a row of the screen each).
KEYBOARDS = {"fr": "azertyuiopqsdfghjklmwxcvbnéèç-", "en": "qwertyuiopasdfghjklzxcvbnm-",
             "uk": "йцукенгшщзхїфівапролджєячсмитьбю'-"}
#: The most players a game seats.
MAX_SEATS = 8


def start_new_game(t: Table) -> None:
    """The wizard, on the edition of the game on the table (or the screen's language's)."""
    if t.game_factory is None:
        return t.refuse(Msg("not_allowed_now", {"what": "new game"}, "Not possible here: new game."))
    default = t.game.edition.name if t.game else ("fr" if t.settings.language == "fr" else "us")
    t.go(NewGame(edition=default, editions=available_editions(), minutes=GAME_LENGTHS[0],
                 mode=t.board_of(load_edition(default)).game_mode("classic")))
    if t.game is not None and not t.game.is_over():  # the game in play is kept: say so, and how to go back to it
        name = t.game.path.stem
        t.say(Msg("new_game_sets_aside", {"game": name},
                  f"The game in play ({name}) is set aside, nothing is lost: back to it with "
                  f"`banquier games resume {name}` (Cancel: it goes on now)."))


@dataclass
class NewGame(Screen):
    """The game being set up: ``seats`` (name, card UID) in the order the cards were tapped; ``editing``: the seat
    whose name is typed on the on-screen keyboard (``typed`` so far)."""

    name: ClassVar[str] = "new_game"
    takes: ClassVar[frozenset[str]] = inputs("player option")
    needs: ClassVar[str] = N_("part_card_player")
    goes_to: ClassVar[frozenset[str]] = inputs("new_game")
    long: ClassVar[bool] = True

    edition: str
    editions: list[str]
    minutes: int
    mode: str = "classic"
    rules: dict[str, Any] = field(default_factory=dict)
    seats: list[tuple[str, str]] = field(default_factory=list)
    editing: int | None = None
    typed: str = ""

    def on_any_card(self, t: Table, uid: str, role: Role | None) -> bool:
        """A player's card takes a seat of the game being set up: the game on the table (over, or about to be
        replaced) has no say, a card of a player who went bankrupt in it is as free as any other. Once every
        seat is taken, an unknown card (a 9th player's, never enrolled: there are 8 bank cards) is told so."""
        if role is None and len(self.seats) >= MAX_SEATS:
            t.refuse(Msg("too_many_players", {}, "8 players at most."))
            return True
        if not isinstance(role, PlayerCard):
            return False
        self._seat(t, uid)
        return True

    def on_card(self, t: Table, tapped: Tapped) -> None:
        if isinstance(tapped, PlayerTap):
            return self._seat(t, tapped.uid)
        t.refuse_needs()

    def _seat(self, t: Table, uid: str) -> None:
        seats = self.seats
        if any(card == uid for _, card in seats):
            return t.refuse(Msg("already_seated", {}, "This card is already in the game."))
        if len(seats) >= MAX_SEATS:
            return t.refuse(Msg("too_many_players", {}, "8 players at most."))
        used = {name for name, _ in seats}
        # the name this card had in the game on the table, else a token's
        known = {card: name for name, card in ((t.game.meta.get("player_cards") or {}) if t.game else {}).items()}
        name = known.get(uid) if known.get(uid) not in (None, *used) else None
        name = name or next(n for n in TOKENS.get(t.settings.language, TOKENS["fr"]) if n not in used)
        seats.append((name, uid))
        t.accept()

    def on_option(self, t: Table, option_id: str) -> None:
        if self.editing is not None:
            return self._name_key(t, option_id)
        if option_id == "edition":
            editions = self.editions
            self.edition = editions[(editions.index(self.edition) + 1) % len(editions)]
            edition = load_edition(self.edition)
            self.rules = {k: v for k, v in self.rules.items() if k in edition.rule_flags}  # another board's flags go
            self.mode = t.board_of(edition).game_mode(self.mode)
        elif option_id == "mode" and self.mode in MODES:  # a board with a mode of its own keeps it
            self.mode = MODES[(MODES.index(self.mode) + 1) % len(MODES)]
        elif option_id == "minutes":
            self.minutes = GAME_LENGTHS[(GAME_LENGTHS.index(self.minutes) + 1) % len(GAME_LENGTHS)]
        elif option_id.startswith("flag:"):
            flag = option_id[5:]
            values = load_edition(self.edition).rule_flags[flag]
            current = self.rules.get(flag, load_edition(self.edition).rules[flag])
            self.rules[flag] = values[(values.index(current) + 1) % len(values)]
        elif option_id.startswith("rename:"):  # the seat's name, typed on the on-screen keyboard
            self.editing, self.typed = int(option_id[7:]), ""
        elif option_id == "start":
            return self._start(t)
        t.changed()

    def _start(self, t: Table) -> None:
        seats = self.seats
        if len(seats) < 2:
            return t.refuse(Msg("need_two_players", {}, "At least 2 players are needed."))
        factory = t.game_factory
        if factory is None:  # the wizard opens only with a factory (start_new_game)
            return t.refuse(Msg("not_allowed_now", {"what": "new game"}, "Not possible here: new game."))
        try:
            minutes = self.minutes if self.mode == "time_limit" else None
            game = factory(self.edition, [n for n, _ in seats], self.mode, dict(self.rules), dict(seats),
                           minutes=minutes)
        except GameError as exc:
            return t.refuse_error(exc)
        t.take_game(game)
        t.beep("success")
        t.go_idle()
        t.say(Msg("game_created", {}, "Game started: good luck!"), "success")

    def _name_key(self, t: Table, option_id: str) -> None:
        """A key of the on-screen keyboard naming seat ``editing``: a letter (a capital first and after a space or
        a hyphen), ``space``, ``back``, ``ok`` (an empty name keeps the old one) or ``cancel``."""
        key = option_id.removeprefix("key:")
        index = self.editing
        assert index is not None, "a key of the keyboard comes only while a name is typed"
        if key == "cancel":
            self.editing, self.typed = None, ""
        elif key == "back":
            self.typed = self.typed[:-1]
        elif key == "ok":
            name = " ".join(self.typed.split())
            if name:
                if name.casefold() in (BANK, POT):
                    return t.refuse(Msg("name_reserved", {"name": name}, f"{name!r} is the Bank's: choose another "
                                                                         f"name."))
                if any(n.casefold() == name.casefold() for i, (n, _) in enumerate(self.seats) if i != index):
                    return t.refuse(Msg("name_taken", {"name": name}, f"{name} is already at the table: choose "
                                                                      f"another name."))
                self.seats[index] = (name, self.seats[index][1])
            self.editing, self.typed = None, ""
            return t.accept()
        else:
            if len(self.typed) >= MAX_NAME_LENGTH:
                return t.refuse(Msg("name_too_long", {"max": MAX_NAME_LENGTH},
                                    f"A name has {MAX_NAME_LENGTH} letters at most."))
            char = " " if key == "space" else key
            if char == " " and (not self.typed or self.typed.endswith(" ")):
                return t.changed()
            capital = not self.typed or self.typed[-1] in " -"
            self.typed += char.upper() if capital else char
        t.changed()

    def view(self, t: Table, base: Common) -> View:
        if self.editing is not None:  # a seat's name on the on-screen keyboard
            keys = [Option(f"key:{k}", Msg("key_char", {"char": k}, k))
                    for k in KEYBOARDS.get(t.settings.language, KEYBOARDS["en"])]
            keys += [Option("key:space", Msg("key_space", {}, "space")), Option("key:back", Msg("key_back", {}, "⌫")),
                     Option("key:cancel", Msg("key_cancel", {}, "Back")), Option("key:ok", Msg("key_ok", {}, "OK"))]
            seat = self.editing + 1
            return View("new_game", Msg("name_entry_title", {"seat": seat}, f"Player {seat}'s name"),
                        options=tuple(keys), extra={"seats": list(self.seats), "editing": self.editing,
                                                    "typed": self.typed}, **base)
        return View("new_game", Msg("new_game_tap_players", {"n": len(self.seats)}, "New game"),
                    options=tuple(self._options(t)),
                    extra={"seats": list(self.seats), "mode_hint": Msg(MODE_HINTS[self.mode], {}, self.mode)}, **base)

    def _options(self, t: Table) -> list[Option]:
        edition = load_edition(self.edition)
        board = t.board_of(edition)
        label = edition.label or self.edition  # a Localized text: the screen shows it in its language
        options = [Option("edition", Msg("opt_edition", {"value": label}, f"Edition: {label}")),
                   Option("mode", Msg("opt_mode", {"value": self.mode}, f"Mode: {self.mode}"))]
        if self.mode == "time_limit":
            options.append(Option("minutes", Msg("opt_minutes", {"n": self.minutes}, f"Length: {self.minutes} min")))
        for flag in edition.rule_flags:  # the flags of the edition's board, named by the board
            options.append(board.flag_option(flag, self.rules.get(flag, edition.rules[flag])))
        for index, (name, _) in enumerate(self.seats):
            options.append(Option(f"rename:{index}", Msg("name", {"name": name}, name)))
        options.append(Option("start", Msg("opt_start", {}, "Start"), enabled=len(self.seats) >= 2))
        return options
