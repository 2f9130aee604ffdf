"""The longer flows of the state machine: auctions, trades, bankruptcy, the banker's menu and the new-game and
enrolment wizards. A mixin of :class:`terminal.table.machine.Terminal`, which provides the inputs, the helpers
(``_go``, ``_ask_confirm``, ``_ask_number``, ``_refuse``...) and ``game``, ``ctx``, ``settings``: what it uses
of them is declared, with types, by :class:`terminal.table.shared.TerminalParts`.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cards.editions import RULE_FLAGS, Edition, available_editions, load_edition
from cards.registry import Role
from terminal.bank.state import MODES
from terminal.errors import GameError
from terminal.table.shared import Gives, TerminalParts
from terminal.table.view import Msg, Option

#: The classic tokens, the default names of the players who tap their cards in the new-game wizard.
TOKENS = {"fr": ("Voiture", "Chien", "Chapeau", "Bateau", "Fer", "Dé", "Brouette", "Botte"),
          "en": ("Car", "Dog", "Hat", "Ship", "Iron", "Thimble", "Wheelbarrow", "Boot"),
          "uk": ("Авто", "Пес", "Капелюх", "Корабель", "Праска", "Наперсток", "Тачка", "Чобіт")}
#: Lengths offered for a time-limited game, in minutes of play (the game factory passes them to
#: ``Game.create(length_minutes=...)``; the game ends on play time, never on the wall clock).
GAME_LENGTHS = (60, 90, 120, 180, 30, 45)


class TableFlows(TerminalParts):
    """Auctions, trades, bankruptcy, banker functions and wizards (see the module docstring)."""

    # ------------------------------------------------------------------------------------------------------
    # Auctions
    # ------------------------------------------------------------------------------------------------------
    def _start_auction(self, square: int) -> None:
        try:
            auction = self._game.start_auction(square)
        except GameError as exc:
            return self._refuse_error(exc)
        self._go("auction", auction=auction, square=square)

    def _card_auction(self, kind: str, who: Any, uid: str) -> None:
        if kind != "player":
            return self._wrong_card_code("part_card_bidder")
        self._accept()
        auction = self.ctx["auction"]
        back = (self.screen, self.ctx)

        def bid(amount: int) -> None:
            self.screen, self.ctx = back
            try:
                auction.bid(who, amount)
            except GameError as exc:
                return self._refuse_error(exc, money=("amount", "best", "cash"))
            self._say(Msg("bid_recorded", {"player": who, "amount": self._fmt(amount)}, f"{who} bids {amount}"))
        name = self._deed_name(self.ctx["square"])
        self._ask_number(Msg("keypad_bid", {"player": who}, f"{who}'s bid"), bid, kind="bid", player=who,
                         purpose=Msg("auction_title", {"deed": name}, f"Auction: {name}"), square=self.ctx["square"])

    def _confirm_auction(self) -> None:
        auction = self.ctx["auction"]
        if auction.best is None:
            name = self._deed_name(self.ctx["square"])
            self._go_idle()
            return self._say(Msg("no_bid", {"deed": name}, f"No bid: {name} stays with the Bank."))
        best = auction.best
        self._ask_confirm({"op": "auction", "square": self.ctx["square"], "winner": best.player, "price": best.amount},
                          Msg("purpose_auction", {"deed": self._deed_name(self.ctx["square"])}, "Auction"),
                          confirm_by=(best.player,))

    def _choose_auction(self, option_id: str) -> None:
        if option_id == "close":
            self._confirm_auction()

    # ------------------------------------------------------------------------------------------------------
    # Trades
    # ------------------------------------------------------------------------------------------------------
    def _start_trade(self, a: str, kind: str, b: Any) -> None:
        if kind != "player":
            return self._wrong_card_code("part_card_other_player")
        if b == a:
            return self._refuse(Msg("pay_self", {"player": a}, f"{a} cannot trade with themselves."))
        self._accept()
        self._go("trade", a=a, b=b, gives={a: {"cash": 0, "squares": [], "jail_cards": 0},
                                            b: {"cash": 0, "squares": [], "jail_cards": 0}}, lift_now=[])

    def _choose_trade(self, option_id: str) -> None:
        gives = self.ctx["gives"]
        kind, _, rest = option_id.partition(":")
        if kind == "deed":
            giver, square_id = rest.split(":")
            squares = gives[giver]["squares"]
            square = int(square_id)
            squares.remove(square) if square in squares else squares.append(square)
            if square not in squares and square in self.ctx["lift_now"]:
                self.ctx["lift_now"].remove(square)
            self._changed()
        elif kind == "jail":
            held = len(self._game.current.jail_cards_of(rest))
            gives[rest]["jail_cards"] = (gives[rest]["jail_cards"] + 1) % (held + 1)
            self._changed()
        elif kind == "lift":
            lifted = int(rest)
            lift = self.ctx["lift_now"]
            lift.remove(lifted) if lifted in lift else lift.append(lifted)
            self._changed()
        elif kind == "cash":
            back = (self.screen, self.ctx)

            def set_cash(amount: int) -> None:
                self.screen, self.ctx = back
                gives[rest]["cash"] = amount
                self._changed()
            a, b = self.ctx["a"], self.ctx["b"]
            self._ask_number(Msg("keypad_amount", {}, "Amount"), set_cash, player=rest,
                             purpose=Msg("trade_title", {"a": a, "b": b}, f"Trade {a} ↔ {b}"))
        elif option_id == "done":
            self._confirm_trade()

    def _confirm_trade(self) -> None:
        a, b, gives = self.ctx["a"], self.ctx["b"], self.ctx["gives"]
        op: dict[str, Any] = {"op": "trade", "a": a, "b": b, "a_gives": _side(gives[a]), "b_gives": _side(gives[b])}
        if self.ctx["lift_now"]:
            op["lift_now"] = sorted(self.ctx["lift_now"])
        self._ask_confirm(op, Msg("purpose_trade", {}, "Trade"), confirm_by=(a, b), card_only=True)

    def _card_trade(self, kind: str, who: Any, uid: str) -> None:
        if kind == "deed":
            owner = self._game.current.owner.get(who)
            if owner in (self.ctx["a"], self.ctx["b"]):
                return self._choose_trade(f"deed:{owner}:{who}")
        self._wrong_card_code("part_card_trade_deed")

    # ------------------------------------------------------------------------------------------------------
    # Bankruptcy
    # ------------------------------------------------------------------------------------------------------
    def _bankruptcy(self, player: str) -> None:
        state = self._game.current
        debts = state.debts_of(player)
        lift_options: list[int] = []
        if debts and debts[0]["creditor"] not in ("bank", "pot"):
            lift_options = [s for s in state.deeds_of(player) if state.mortgaged.get(s)]
        op = {"op": "declare_bankruptcy", "player": player}
        purpose = Msg("purpose_declare_bankruptcy", {"player": player}, f"{player}'s bankruptcy")
        if not lift_options:
            return self._ask_confirm(op, purpose, confirm_by=(player,))
        self._go("bankruptcy", player=player, lift_options=lift_options, lift_now=[])

    def _choose_bankruptcy(self, option_id: str) -> None:
        if option_id == "done":
            return self._confirm_bankruptcy()
        square = int(option_id.split(":")[1])
        lift = self.ctx["lift_now"]
        lift.remove(square) if square in lift else lift.append(square)
        self._changed()

    def _confirm_bankruptcy(self) -> None:
        player = self.ctx["player"]
        op: dict[str, Any] = {"op": "declare_bankruptcy", "player": player}
        if self.ctx["lift_now"]:
            op["lift_now"] = sorted(self.ctx["lift_now"])
        self._ask_confirm(op, Msg("purpose_declare_bankruptcy", {"player": player}, f"{player}'s bankruptcy"),
                          confirm_by=(player,))

    # ------------------------------------------------------------------------------------------------------
    # Banker
    # ------------------------------------------------------------------------------------------------------
    def _banker_card(self, touch: bool = False) -> None:
        """The banker card was tapped (``touch=False``), or a banker function was touched on screen."""
        if not touch:
            self._accept()
            return self._banker_ok()
        if not self.settings.banker_protection:
            return self._banker_ok()
        if self.settings.banker_pin:
            return self._go("pin", buffer="")
        self._say(Msg("needs_banker", {}, "Tap the banker card or type the PIN"), "error")

    def _banker_ok(self) -> None:
        """The banker is identified: run what was waiting for them, or open the banker menu."""
        self.banker_unlocked = True
        then, self._after_banker = self._after_banker, None
        self._go("banker")
        if then is not None:
            then()

    def _confirm_pin(self) -> None:
        if self.ctx.get("buffer", "") == self.settings.banker_pin:
            self._accept()
            return self._banker_ok()
        self.ctx["buffer"] = ""
        self._refuse(Msg("wrong_pin", {}, "Wrong PIN."))

    def _choose_banker(self, option_id: str) -> None:
        if option_id == "undo":
            target = self.game.last_undoable() if self.game else None
            if target is None:
                return self._refuse(Msg("nothing_to_undo", {}, "There is nothing to undo."))
            self._ask_confirm({"op": "undo"}, describe_undo(target, self._game.edition))
        elif option_id in ("adjust_give", "adjust_take"):
            english = "Adjustment: the Bank gives" if option_id == "adjust_give" else "Adjustment: the Bank takes"
            self._pick_player(lambda player: self._ask_number(
                Msg("keypad_amount", {}, "Amount"), lambda amount: self._ask_confirm(
                    {"op": "transfer", "from": "bank", "to": player, "amount": amount} if option_id == "adjust_give"
                    else {"op": "transfer", "from": player, "to": "bank", "amount": amount},
                    Msg("purpose_transfer", {}, "Payment")),
                player=player, purpose=Msg(f"opt_{option_id}", {}, english)))
        elif option_id == "end_game":
            self._ask_confirm({"op": "end_game"}, Msg("purpose_end_game", {}, "End of the game"))
        elif option_id == "history":
            self._go("history")
        elif option_id == "new_game":
            self._start_new_game()
        elif option_id == "enrol":
            if self.enrolment_factory is None:
                return self._refuse(Msg("not_allowed_now", {"what": "enrol"}, "Not possible here: enrol."))
            self._go("enrol", enrolment=self.enrolment_factory())
        elif option_id == "language":
            languages = ("fr", "en", "uk")
            self.settings.language = languages[(languages.index(self.settings.language) + 1) % len(languages)]
            self._changed()
        elif option_id == "mute":
            if self.beeper is not None and hasattr(self.beeper, "muted"):
                self.beeper.muted = not self.beeper.muted
            self._changed()

    def _pick_player(self, then: Callable[[str], None]) -> None:
        players = self._game.current.active_players()
        self._choose(Msg("choose_partner", {}, "Which player?"), [Option(p, Msg("name", {}, p)) for p in players],
                     then, on_card=lambda kind, who, uid: then(who) if kind == "player"
                     else self._wrong_card_code("part_card_player"))

    def _card_banker(self, kind: str, who: Any, uid: str) -> None:
        self._card_idle(kind, who, uid)

    def _choose_game_over(self, option_id: str) -> None:
        self._choose_idle(option_id)

    def _choose_history(self, option_id: str) -> None:
        if option_id == "undo":  # the banker's undo, from the history: the banker card or PIN first
            self._after_banker = lambda: self._choose_banker("undo")
            return self._banker_card(touch=True)
        self._go_idle()

    # ------------------------------------------------------------------------------------------------------
    # New game and enrolment wizards
    # ------------------------------------------------------------------------------------------------------
    def _start_new_game(self) -> None:
        if self.game_factory is None:
            return self._refuse(Msg("not_allowed_now", {"what": "new game"}, "Not possible here: new game."))
        default = self.game.edition.name if self.game else ("fr" if self.settings.language == "fr" else "us")
        self._go("new_game", edition=default, mode="classic", rules={}, seats=[], editions=available_editions(),
                 minutes=GAME_LENGTHS[0])

    def _new_game_card(self, uid: str) -> None:
        seats = self.ctx["seats"]
        if any(card == uid for _, card in seats):
            return self._refuse(Msg("already_seated", {}, "This card is already in the game."))
        if len(seats) >= 8:
            return self._refuse(Msg("too_many_players", {}, "8 players at most."))
        used = {name for name, _ in seats}
        name = next(t for t in TOKENS.get(self.settings.language, TOKENS["fr"]) if t not in used)
        seats.append((name, uid))
        self._accept()

    def _card_new_game(self, kind: str, who: Any, uid: str) -> None:
        if kind == "player":
            return self._new_game_card(uid)
        self._wrong_card_code("part_card_player")

    def _choose_new_game(self, option_id: str) -> None:
        if option_id == "edition":
            editions = self.ctx["editions"]
            self.ctx["edition"] = editions[(editions.index(self.ctx["edition"]) + 1) % len(editions)]
        elif option_id == "mode":
            self.ctx["mode"] = MODES[(MODES.index(self.ctx["mode"]) + 1) % len(MODES)]
        elif option_id == "minutes":
            self.ctx["minutes"] = GAME_LENGTHS[(GAME_LENGTHS.index(self.ctx["minutes"]) + 1) % len(GAME_LENGTHS)]
        elif option_id.startswith("flag:"):
            flag = option_id[5:]
            values = RULE_FLAGS[flag]
            current = self.ctx["rules"].get(flag, load_edition(self.ctx["edition"]).rules[flag])
            self.ctx["rules"][flag] = values[(values.index(current) + 1) % len(values)]
        elif option_id.startswith("rename:"):
            index = int(option_id[7:])
            seats = self.ctx["seats"]
            used = {n for n, _ in seats}
            name, uid = seats[index]
            choices = [t for t in TOKENS.get(self.settings.language, TOKENS["fr"]) if t not in used] + [name]
            seats[index] = (choices[0], uid)
        elif option_id == "start":
            seats = self.ctx["seats"]
            if len(seats) < 2:
                return self._refuse(Msg("need_two_players", {}, "At least 2 players are needed."))
            factory = self.game_factory
            if factory is None:  # the wizard opens only with a factory (_start_new_game)
                return self._refuse(Msg("not_allowed_now", {"what": "new game"}, "Not possible here: new game."))
            try:
                minutes = self.ctx["minutes"] if self.ctx["mode"] == "time_limit" else None
                game = factory(self.ctx["edition"], [n for n, _ in seats], self.ctx["mode"], dict(self.ctx["rules"]),
                               dict(seats), minutes=minutes)
            except GameError as exc:
                return self._refuse_error(exc)
            if self.game is not None:
                self.game.close()
            self.game = game
            self._last_go.clear()
            self._beep("success")
            self._go("idle")
            return self._say(Msg("game_created", {}, "Game started: good luck!"), "success")
        self._changed()

    def _card_enrol(self, uid: str, role: Role | None) -> None:
        enrolment = self.ctx["enrolment"]
        try:
            result = enrolment.present(uid)
        except (GameError, ValueError, LookupError, OSError) as exc:
            return self._refuse(Msg(getattr(exc, "code", "enrol_refused"), getattr(exc, "params", {}), str(exc)))
        message = Msg(result.code, result.params, result.text)
        if not result.accepted:
            return self._refuse(message)
        self._accept()
        self._say(message, "success")
        if enrolment.done:
            self._go_idle()
            self._say(message, "success")

    def _choose_enrol(self, option_id: str) -> None:
        enrolment = self.ctx["enrolment"]
        if option_id == "skip":
            enrolment.skip()
        elif option_id == "back":
            enrolment.back()
        elif option_id == "done":
            return self._go_idle()
        if enrolment.done:
            return self._go_idle()
        self._changed()


def _side(side: Gives) -> dict[str, Any]:
    return {k: v for k, v in side.items() if v}


def describe_undo(op: Mapping[str, Any], edition: Edition) -> Msg:
    """What an undo will undo, for the confirmation screen: the recorded operation's purpose (translated,
    with the deed's name) and who it concerns, e.g. "Annuler : Achat de Rue de la Paix (Anne)"."""
    name = op.get("op", "?")
    params = {k: v for k, v in op.items() if k != "op" and isinstance(k, str)}
    square = op.get("square")
    if isinstance(square, int) and 0 <= square < len(edition.squares):
        params["deed"] = params["tax"] = edition.squares[square].name
    who = op.get("player") or op.get("winner") or op.get("from") or \
        (f"{op.get('a')} ↔ {op.get('b')}" if name == "trade" else "")
    english = name.replace("_", " ") + (f" of {params['deed']}" if "deed" in params else "")
    what = Msg(f"purpose_{name}", params, english)
    if not who:
        return Msg("purpose_undo_plain", {"what": what}, f"Undo: {english}")
    return Msg("purpose_undo", {"what": what, "who": who}, f"Undo: {english} ({who})")
