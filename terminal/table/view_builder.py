"""How the state machine describes itself to the screen: the :class:`~terminal.table.view.View` of each screen.
A mixin of :class:`terminal.table.machine.Terminal` (it reads ``dialog``, ``game``, ``settings``, as
declared by :class:`terminal.table.shared.TerminalParts`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypedDict

from cards.editions import RULE_FLAGS, load_edition
from terminal.errors import GameError
from terminal.table.dialogs import (
    AuctionScreen,
    Banker,
    BankruptcyScreen,
    Choice,
    Confirm,
    Damaged,
    DeedDice,
    DeedScreen,
    Enrol,
    EventScreen,
    GameOver,
    History,
    Idle,
    Keypad,
    LocationScreen,
    NewGame,
    Offer,
    OwnDeed,
    Pin,
    PlayerScreen,
    TradeScreen,
)
from terminal.table.i18n import MODE_HINTS, OPTIONS
from terminal.table.shared import TerminalParts, owes_of
from terminal.table.view import DeedView, Msg, Option, PlayerLine, View

#: The letters of the on-screen keyboard that names the players, by language (a row of the screen each).
KEYBOARDS = {"fr": "azertyuiopqsdfghjklmwxcvbnéèç-", "en": "qwertyuiopasdfghjklzxcvbnm-",
             "uk": "йцукенгшщзхїфівапролджєячсмитьбю'-"}


class _Common(TypedDict, total=False):
    """What every screen's :class:`View` shows."""

    players: tuple[PlayerLine, ...]
    message: Msg | None
    message_kind: str
    reader_ok: bool
    language: str
    bank_houses: int
    bank_hotels: int
    pot: int | None
    edition: str
    game_over: bool
    screen_version: int


class ViewBuilder(TerminalParts):
    """Builds the view model; :attr:`view` is rebuilt only after a change (``version`` counts changes)."""

    if TYPE_CHECKING:  # the electronic board's views: terminal.table.flows_ultimate.UltimateFlows
        @property
        def _ultimate(self) -> bool: ...
        def _ub_deed_view(self, square: int, payer: str | None = None) -> DeedView: ...
        def _ub_rent_reason(self, square: int, payer: str | None = None) -> Msg | None: ...
        def _ub_player_options(self, player: str) -> list[Option]: ...
        def _ub_own_deed_options(self, square: int) -> list[Option]: ...
        def _ub_flag_option(self, flag: str, value: object) -> Option: ...
        def _ub_deed_screen_view(self, d: DeedScreen, base: Mapping[str, Any]) -> View: ...
        def _event_view(self, d: EventScreen, base: Mapping[str, Any]) -> View: ...
        def _location_view(self, d: LocationScreen, base: Mapping[str, Any]) -> View: ...

    # ------------------------------------------------------------------------------------------------------
    # The view
    # ------------------------------------------------------------------------------------------------------
    @property
    def view(self) -> View:
        """The current :class:`View` (rebuilt only after a change; ``version`` counts changes)."""
        if self._view is None:
            self._view = self._build_view()
        return self._view

    def _players(self) -> tuple[PlayerLine, ...]:
        if self.game is None:
            return ()
        state = self.game.current
        lines = []
        for seat, name in enumerate(state.players, start=1):
            # one line per creditor, the amounts owed to them added up (two rents owed to Ann read "owes 1 700 to
            # Ann", not two cut entries), in the order the debts were made; the pot is shown as the Bank
            owed: dict[str, int] = {}
            for d in state.debts_of(name):
                creditor = "bank" if d.creditor == "pot" else d.creditor
                owed[creditor] = owed.get(creditor, 0) + d.amount
            debts = tuple(owed.items())
            lines.append(PlayerLine(name, seat, state.cash[name], self.game.worth(name), debts,
                                    name in state.bankrupt_list))
        return tuple(lines)

    def _deed_view(self, square: int, payer: str | None = None) -> DeedView:
        if self._ultimate:  # the electronic board: the rent level (1-5) and its five rents
            return self._ub_deed_view(square, payer)
        state = self._game.current
        deed = self._game.edition.squares[square]
        owner = state.owner.get(square)
        rent = None
        if owner and deed.kind != "utility" and not state.mortgaged.get(square):
            other = payer if payer and payer != owner else next((p for p in state.players if p != owner), None)
            try:
                rent = self._game.rent(other, square).amount if other else None
            except GameError:
                rent = None
        # the edition's name as it is (a Localized text): the screen shows it in its own language
        return DeedView(square=square, name=deed.name, kind=deed.kind, group=deed.group or "", price=deed.price,
                        mortgage_value=deed.mortgage, house_cost=deed.house_cost, rents=deed.rents, owner=owner,
                        level=state.level.get(square, 0), mortgaged=bool(state.mortgaged.get(square)), rent=rent)

    def _build_view(self) -> View:
        base: _Common = {"players": self._players(), "message": self.message, "message_kind": self.message_kind,
                         "reader_ok": self.reader_ok, "language": self.settings.language,
                         "screen_version": self.screen_version}
        if self.game is not None:
            state = self.game.current
            base.update({"bank_houses": state.bank["houses"], "bank_hotels": state.bank["hotels"],
                         "pot": state.cash["pot"] if self.game.config.jackpot else None,
                         "edition": self.game.edition.name, "game_over": self.game.is_over()})
        d = self.dialog
        if isinstance(d, Idle):
            title = Msg("idle", {}, "Tap a card") if self.game else Msg("no_game", {}, "No game")
            options = [Option("any_deed", Msg("opt_any_deed", {}, "Pick a title deed"), enabled=self.game is not None),
                       Option("banker", Msg("banker_title", {}, "Banker")),
                       Option("history", Msg("opt_history", {}, "History"), enabled=self.game is not None)]
            return View("idle", title, options=tuple(options), **base)
        if isinstance(d, GameOver):
            return View("game_over", Msg("game_over_title", {}, "Game over"),
                        options=(Option("banker", Msg("banker_title", {}, "Banker")),
                                 Option("history", Msg("opt_history", {}, "History"))),
                        extra={"standings": self._game.standings()}, **base)
        if isinstance(d, DeedScreen):
            return self._deed_screen_view(d, base)
        if isinstance(d, Offer):
            price = self._game.edition.squares[d.square].price
            return View("offer", Msg("deed_unowned_now", {"deed": self._deed_name(d.square)}, "Buy or auction"),
                        player=d.player, deed=self._deed_view(d.square, d.player),
                        options=(Option("buy", Msg("opt_buy", {"price": self._fmt(price)}, "Buy"),
                                        enabled=not self._in_debt(d.player)),
                                 Option("decline", Msg("opt_decline", {}, "Decline: auction"))), **base)
        if isinstance(d, OwnDeed):
            deed = self._game.edition.squares[d.square]
            options = []
            if self._ultimate:  # the electronic board: no buildings, no mortgages
                return View("own_deed", Msg("deed_context", {"deed": deed.name}, deed.name), player=d.player,
                            deed=self._deed_view(d.square), options=tuple(self._ub_own_deed_options(d.square)),
                            **base)
            if deed.kind == "street":
                options += [Option("build", Msg("opt_build", {}, "Build"), enabled=not self._in_debt(d.player)),
                            Option("sell_building", Msg("opt_sell_building", {}, "Sell a building")),
                            Option("sell_whole", Msg("opt_sell_whole", {}, "Sell the whole group")),
                            Option("build_price", Msg("opt_build_price", {}, "Build at an auction price"),
                                   enabled=not self._in_debt(d.player))]
            options += [Option("mortgage", Msg("opt_mortgage", {}, "Mortgage")),
                        Option("unmortgage", Msg("opt_unmortgage", {}, "Lift the mortgage"),
                               enabled=not self._in_debt(d.player))]
            return View("own_deed", Msg("deed_context", {"deed": deed.name}, deed.name), player=d.player,
                        deed=self._deed_view(d.square), options=tuple(options), **base)
        if isinstance(d, PlayerScreen):
            return View("player", Msg("player_context", {"player": d.player}, f"{d.player}: what now?"),
                        player=d.player, options=tuple(self._player_options(d.player)), **base)
        if isinstance(d, Keypad):
            player, purpose, square = d.player, d.purpose, d.square
            extra: dict[str, Any] = {"kind": d.kind, "player": player, "purpose": purpose}
            if square is not None:
                extra["deed"] = self._deed_name(square)
            if d.kind == "bid" and isinstance(d.back, AuctionScreen):
                best = d.back.auction.best
                extra["best"] = (best.player, best.amount) if best else None
            title = d.label
            if isinstance(d.then, DeedDice) and d.buffer:  # the rent, live, before the payer's card commits it
                owner = self._game.current.owner.get(d.then.square)
                rent = self._rent_shown(d.then.square, owner, int(d.buffer), None) if owner else None
                why = self._rent_reason(d.then.square, owner, int(d.buffer), None) if owner else None
                if rent is not None and why is not None:
                    title = Msg("deed_rent_why_tap_payer", {"rent": self._fmt(rent), "why": why},
                                f"Rent {rent}: payer, tap your card")
                    return View("keypad", title, keypad=d.buffer, keypad_label=d.label, extra=extra,
                                deed=self._deed_view(d.then.square), **base)
            if purpose is not None:
                title = Msg("keypad_title", {"player": player, "purpose": purpose},
                            f"{player} · {purpose}") if player else purpose
            return View("keypad", title, player=player, keypad=d.buffer, keypad_label=d.label, extra=extra,
                        deed=self._deed_view(square) if square is not None else None, **base)
        if isinstance(d, Pin):
            return View("pin", Msg("keypad_pin", {}, "Banker PIN"), keypad="•" * len(d.buffer),
                        keypad_label=Msg("keypad_pin", {}, "Banker PIN"), extra={"wait_s": self._pin_wait()}, **base)
        if isinstance(d, Damaged):
            return self._damaged_view(d, base)
        if isinstance(d, EventScreen):  # the electronic board's screens (terminal.table.flows_ultimate)
            return self._event_view(d, base)
        if isinstance(d, LocationScreen):
            return self._location_view(d, base)
        if isinstance(d, Confirm):
            return self._confirm_view(d, base)
        if isinstance(d, Choice):
            return View("choose", d.title, options=tuple(d.options), **base)
        if isinstance(d, AuctionScreen):
            auction = d.auction
            return View("auction", Msg("auction_title", {"deed": self._deed_name(d.square)}, "Auction"),
                        deed=self._deed_view(d.square),
                        options=(Option("close", Msg("opt_close_auction", {}, "Close the auction")),),
                        extra={"bids": [(b.player, b.amount) for b in auction.bids],
                               "best": (auction.best.player, auction.best.amount) if auction.best else None}, **base)
        if isinstance(d, TradeScreen):
            return View("trade", Msg("trade_title", {"a": d.a, "b": d.b}, "Trade"),
                        options=tuple(self._trade_options(d)),
                        extra={"a": d.a, "b": d.b, "gives": d.gives, "lift_now": d.lift_now}, **base)
        if isinstance(d, BankruptcyScreen):
            options = [Option(f"lift:{s}", Msg("opt_lift_now", {"deed": self._deed_name(s)}, "Lift now"),
                              selected=s in d.lift_now, enabled=d.decided) for s in d.lift_options]
            options.append(Option("done", Msg("opt_done", {}, "Done"), enabled=d.decided))
            title = (Msg("bankruptcy_creditor_chooses", {"player": d.player, "creditor": d.creditor},
                         f"{d.player} goes bankrupt: {d.creditor} chooses what to lift now") if d.decided else
                     Msg("bankruptcy_creditor_taps", {"player": d.player, "creditor": d.creditor},
                         f"{d.player} goes bankrupt: {d.creditor}, tap your card"))
            return View("bankruptcy", title, player=d.creditor if d.decided else d.player, options=tuple(options),
                        extra={"debtor": d.player, "creditor": d.creditor, "decided": d.decided}, **base)
        if isinstance(d, Banker):
            return View("banker", Msg("banker_title", {}, "Banker"), options=tuple(self._banker_options()), **base)
        if isinstance(d, History):
            return View("history", Msg("history_title", {}, "History"),
                        options=(Option("undo", Msg("opt_undo", {}, "Undo the last operation"),
                                        enabled=self.game is not None and self.game.last_undoable() is not None),
                                 Option("back", Msg("opt_done", {}, "Done"))),
                        extra={"history": self.game.history_pages() if self.game else []}, **base)
        if isinstance(d, NewGame):
            if d.editing is not None:  # a seat's name on the on-screen keyboard
                keys = [Option(f"key:{k}", Msg("key_char", {"char": k}, k))
                        for k in KEYBOARDS.get(self.settings.language, KEYBOARDS["en"])]
                keys += [Option("key:space", Msg("key_space", {}, "space")),
                         Option("key:back", Msg("key_back", {}, "⌫")),
                         Option("key:cancel", Msg("key_cancel", {}, "Back")), Option("key:ok", Msg("key_ok", {}, "OK"))]
                seat = d.editing + 1
                return View("new_game", Msg("name_entry_title", {"seat": seat}, f"Player {seat}'s name"),
                            options=tuple(keys), extra={"seats": list(d.seats), "editing": d.editing,
                                                        "typed": d.typed}, **base)
            return View("new_game", Msg("new_game_tap_players", {"n": len(d.seats)}, "New game"),
                        options=tuple(self._new_game_options(d)),
                        extra={"seats": list(d.seats), "mode_hint": Msg(MODE_HINTS[d.mode], {}, d.mode)}, **base)
        if isinstance(d, Enrol):
            prompt = d.enrolment.prompt
            title = Msg(getattr(prompt, "code", "enrol_title"), getattr(prompt, "params", {}),
                        getattr(prompt, "text", str(prompt)))
            return View("enrol", title, options=(Option("skip", Msg("opt_skip", {}, "Skip")),
                                                 Option("done", Msg("opt_done", {}, "Done"))), **base)
        raise AssertionError(f"no view for screen {self.screen!r}")

    def _damaged_view(self, d: Damaged, base: _Common) -> View:
        """The damaged game's screen: what is wrong (one line, as the host or the Bank named it), and the
        newest good backup or a new game, for the banker."""
        said = (Msg("damaged_startup", {}, "This game's file is damaged: it was not resumed.") if d.at_startup
                else Msg("damaged_play", {}, "This game's file is damaged: payments are stopped; the banker can "
                                              "restore a backup or start a new game."))
        restore = (Option("restore", Msg("opt_restore_backup", {}, "Restore the backup"),
                          enabled=self.restore is not None) if d.backup is not None
                   else Option("restore", Msg("no_good_backup", {}, "No good backup"), enabled=False))
        options = (restore, Option("new_game", Msg("opt_new_game", {}, "New game"),
                                   enabled=self.game_factory is not None))
        return View("damaged", Msg("damaged_title", {}, "Damaged game file"), options=options,
                    extra={"said": said, "problem": d.problem, "backup": d.backup, "at_startup": d.at_startup},
                    **base)

    def _deed_screen_view(self, d: DeedScreen, base: _Common) -> View:
        """A deed looked at, and what the next card does: unowned, the buyer's card buys it at the price
        shown (or Decline: auction); owned, the payer's card pays the rent shown, with its reason."""
        if self._ultimate:
            return self._ub_deed_screen_view(d, base)
        state = self._game.current
        square = d.square
        deed = self._game.edition.squares[square]
        owner = state.owner.get(square)
        options: list[Option] = []
        if owner is None:
            title = Msg("deed_tap_buyer", {"price": self._fmt(deed.price)}, "Buyer: tap your card")
            options.append(Option("decline", Msg("opt_decline", {}, "Decline: auction")))
        elif state.mortgaged.get(square):
            title = Msg("deed_tap_player", {}, "Tap the player's card")
        else:
            rent = self._rent_shown(square, owner, d.dice, d.card)
            why = self._rent_reason(square, owner, d.dice, d.card)
            if rent is None:
                title = Msg("deed_tap_player", {}, "Tap the player's card")
            elif why is None:
                title = Msg("deed_rent_tap_payer", {"rent": self._fmt(rent)}, f"Rent {rent}: payer, tap your card")
            else:
                title = Msg("deed_rent_why_tap_payer", {"rent": self._fmt(rent), "why": why},
                            f"Rent {rent} ({why.english}): payer, tap your card")
            if deed.kind == "railroad":
                options.append(Option("rent_railroad_card", Msg("opt_rent_railroad_card", {}, "Card: nearest railroad"),
                                      selected=d.card == "nearest_railroad"))
            if deed.kind == "utility":
                options.append(Option("rent_utility_card", Msg("opt_rent_utility_card", {}, "Card: nearest utility"),
                                      selected=d.card == "nearest_utility"))
        return View("deed", title, deed=self._deed_view(square), options=tuple(options), **base)

    def _rent_shown(self, square: int, owner: str, dice: int | None, card: str | None) -> int | None:
        """The rent another player would pay now (None when it cannot be said yet)."""
        payer = next((p for p in self._game.current.active_players() if p != owner), None)
        if payer is None:
            return None
        try:
            return self._game.rent(payer, square, dice, card).amount
        except GameError:
            return None

    def _rent_reason(self, square: int, owner: str, dice: int | None, card: str | None) -> Msg | None:
        """Why the rent is what it is: a whole colour group, the buildings, the railroads or utilities held,
        the dice, a card's rule."""
        if self._ultimate:
            return self._ub_rent_reason(square)
        state = self._game.current
        edition = self._game.edition
        deed = edition.squares[square]
        if deed.kind == "street":
            level = state.level.get(square, 0)
            if level >= 5:
                return Msg("why_hotel", {}, "a hotel")
            if level > 0:
                return Msg("why_houses", {"n": level}, f"{level} house(s)")
            group = [s.index for s in edition.deeds() if s.group == deed.group]
            if all(state.owner.get(s) == owner for s in group):
                return Msg("why_group", {}, "whole colour group: double rent")
            return None
        held = sum(1 for s in edition.deeds() if s.kind == deed.kind and state.owner.get(s.index) == owner)
        if deed.kind == "railroad":
            if card == "nearest_railroad":
                return Msg("why_railroad_card", {"n": held}, f"{held} railroad(s), card: twice the rent")
            return Msg("why_railroads", {"n": held}, f"{held} railroad(s)")
        if deed.kind == "utility" and dice is not None:
            times = 10 if card == "nearest_utility" or held >= 2 else 4
            return Msg("why_dice", {"times": times, "dice": dice}, f"{times} × {dice}")
        return None

    def _confirm_view(self, d: Confirm, base: _Common) -> View:
        pending = d.pending
        options = []
        op = pending.op
        if op.get("op") == "pay_rent":
            kind = self._game.edition.squares[op["square"]].kind
            if kind == "railroad":
                options.append(Option("rent_railroad_card", Msg("opt_rent_railroad_card", {}, "Card: nearest railroad"),
                                      selected=op.get("card") == "nearest_railroad"))
            if kind == "utility":
                options.append(Option("rent_utility_card", Msg("opt_rent_utility_card", {}, "Card: nearest utility"),
                                      selected=op.get("card") == "nearest_utility"))
        shown = self._deed_view(op["square"]) if "square" in op and op.get("op") != "pay_tax" else None
        if self._ultimate and not pending.postings:  # an Event's levels or owners: its lines say it, no card
            shown = None
        return View("confirm", Msg("confirm_title", {}, "Confirm?"), pending=pending,
                    player=(pending.confirm_by or (None,))[0], deed=shown, options=tuple(options), **base)

    def _signed(self, op: dict[str, Any], player: str) -> str:
        """What ``op`` would move for ``player``, signed: "+200 €" received from the Bank, "−100 €" charged
        (what is paid and what would stay owed), or "" (refused)."""
        try:
            effects = self._game.preview(op).effects
        except GameError:
            return ""
        received = sum(a for p, q, a in effects.postings if q == player and p == "bank")
        if received:
            return "+" + self._fmt(received)
        charged = sum(a for p, _, a in effects.postings if p == player) + sum(
            a for d, _, a in owes_of(effects) if d == player)
        return "−" + self._fmt(charged) if charged else ""

    def _player_options(self, player: str) -> list[Option]:
        if self._ultimate:
            return self._ub_player_options(player)
        in_debt = self._in_debt(player)
        state = self._game.current

        def opt(option_id: str, english: str, enabled: bool = True, **params: object) -> Option:
            return Option(option_id, Msg(OPTIONS[option_id], params, english), enabled=enabled)

        def amount_opt(option_id: str, english: str, op: dict[str, Any]) -> Option:
            """An option that commits: its label names the amount."""
            amount = self._signed(op, player)
            if not amount:
                return opt(option_id, english)
            return Option(option_id, Msg("opt_amount", {"what": Msg(OPTIONS[option_id], {}, english),
                                                        "amount": amount}, f"{english} {amount}"))
        income = (opt("income_tax", "Income tax") if self._game.config.rules.get("income_tax_percent")
                  else amount_opt("income_tax", "Income tax", {"op": "pay_tax", "player": player, "square": 4}))
        # the most used first (they fill the first page); F1 stays the GO salary
        options = [amount_opt("pass_go", "GO salary", {"op": "pass_go", "player": player}),
                   opt("transfer", "Pay an amount", enabled=not in_debt),
                   opt("chance", "Chance card"), opt("community_chest", "Community Chest card"), income,
                   amount_opt("luxury_tax", "Luxury tax", {"op": "pay_tax", "player": player, "square": 38}),
                   amount_opt("jail_fine", "Jail fine", {"op": "jail_fine", "player": player}),
                   opt("pay_bank", "Pay the Bank"), opt("bank_pays", "Receive from the Bank"),
                   opt("free_parking", "Free Parking"),
                   opt("use_jail_card", "Use Get Out of Jail Free", enabled=bool(state.jail_cards_of(player))),
                   opt("trade", "Trade"), opt("my_deeds", "My title deeds"), opt("pay_each_player", "Pay each player"),
                   opt("collect_from_each_player", "Collect from each player"), opt("repairs", "Repairs"),
                   opt("any_deed", "Pick a title deed"), opt("bankruptcy", "Declare bankruptcy", enabled=in_debt)]
        if in_debt:  # the ways to raise money and bankruptcy first
            first = {"my_deeds", "trade", "bankruptcy"}
            options.sort(key=lambda o: o.id not in first)
        return options

    def _banker_options(self) -> list[Option]:
        def opt(option_id: str, english: str, enabled: bool = True, **params: object) -> Option:
            return Option(option_id, Msg(OPTIONS[option_id], params, english), enabled=enabled)
        has_game = self.game is not None
        muted = bool(getattr(self.beeper, "muted", False))
        return [opt("undo", "Undo the last operation", enabled=has_game),
                opt("adjust_give", "Adjustment: the Bank gives", enabled=has_game),
                opt("adjust_take", "Adjustment: the Bank takes", enabled=has_game),
                opt("end_game", "End the game", enabled=self.game is not None and self.game.mode == "time_limit"),
                opt("history", "History", enabled=has_game),
                opt("new_game", "New game", enabled=self.game_factory is not None),
                opt("enrol", "Enrol cards", enabled=self.enrolment_factory is not None),
                opt("language", "Language", language=self.settings.language),
                opt("mute", "Sound", state="off" if muted else "on")]

    def _new_game_options(self, d: NewGame) -> list[Option]:
        edition = load_edition(d.edition)
        label = edition.label or d.edition  # a Localized text: the screen shows it in its language
        options = [Option("edition", Msg("opt_edition", {"value": label}, f"Edition: {label}")),
                   Option("mode", Msg("opt_mode", {"value": d.mode}, f"Mode: {d.mode}"))]
        if d.mode == "time_limit":
            options.append(Option("minutes", Msg("opt_minutes", {"n": d.minutes}, f"Length: {d.minutes} min")))
        for flag in edition.rule_flags:  # the flags of the edition's board (the electronic board's: their own label)
            value = d.rules.get(flag, edition.rules[flag])
            options.append(Option(f"flag:{flag}", Msg("opt_flag", {"flag": flag, "value": value}, f"{flag}: {value}"))
                           if flag in RULE_FLAGS else self._ub_flag_option(flag, value))
        for index, (name, _) in enumerate(d.seats):
            options.append(Option(f"rename:{index}", Msg("name", {"name": name}, name)))
        options.append(Option("start", Msg("opt_start", {}, "Start"), enabled=len(d.seats) >= 2))
        return options



    def _trade_options(self, d: TradeScreen) -> list[Option]:
        a, b, gives = d.a, d.b, d.gives
        state = self._game.current
        options = []
        for giver in (a, b):
            for square in state.deeds_of(giver):
                options.append(Option(f"deed:{giver}:{square}", Msg("opt_trade_give_deed", {
                    "player": giver, "deed": self._deed_name(square)}, f"{giver} gives {self._deed_name(square)}"),
                    selected=square in gives[giver]["squares"]))
            options.append(Option(f"cash:{giver}", Msg("opt_trade_cash", {
                "player": giver, "amount": self._fmt(gives[giver]["cash"])}, f"{giver} gives cash")))
            if state.jail_cards_of(giver):
                options.append(Option(f"jail:{giver}", Msg("opt_trade_jail", {
                    "player": giver, "count": gives[giver]["jail_cards"]}, f"{giver} gives a Jail card")))
        for giver in (a, b):
            for square in gives[giver]["squares"]:
                if state.mortgaged.get(square):
                    options.append(Option(f"lift:{square}", Msg("opt_lift_now", {"deed": self._deed_name(square)},
                                                                 f"Lift now: {self._deed_name(square)}"),
                                          selected=square in d.lift_now))
        options.append(Option("done", Msg("opt_done", {}, "Done")))
        return options
