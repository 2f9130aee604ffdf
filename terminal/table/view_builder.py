"""How the state machine describes itself to the screen: the :class:`~terminal.table.view.View` of each screen.
A mixin of :class:`terminal.table.machine.Terminal` (it reads ``screen``, ``ctx``, ``game``, ``settings``, as
declared by :class:`terminal.table.shared.TerminalParts`).
"""
from __future__ import annotations

from typing import Any, TypedDict

from cards.editions import RULE_FLAGS, load_edition
from terminal.errors import GameError
from terminal.table.shared import TerminalParts
from terminal.table.view import DeedView, Msg, Option, Pending, PlayerLine, View


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


class ViewBuilder(TerminalParts):
    """Builds the view model; :attr:`view` is rebuilt only after a change (``version`` counts changes)."""

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
            debts = tuple((d["creditor"] if d["creditor"] not in ("pot",) else "bank", d["amount"])
                          for d in state.debts_of(name))
            lines.append(PlayerLine(name, seat, state.cash[name], self.game.worth(name), debts,
                                    name in state.bankrupt_list))
        return tuple(lines)

    def _deed_view(self, square: int, payer: str | None = None) -> DeedView:
        state = self._game.current
        deed = self._game.edition.squares[square]
        owner = state.owner.get(square)
        rent = None
        if owner and deed.kind != "utility" and not state.mortgaged.get(square):
            other = payer if payer and payer != owner else next((p for p in state.players if p != owner), None)
            try:
                rent = self._game.rent(other, square)[0] if other else None
            except GameError:
                rent = None
        return DeedView(square=square, name=deed.name, kind=deed.kind, group=deed.group or "", price=deed.price,
                        mortgage_value=deed.mortgage, house_cost=deed.house_cost, rents=deed.rents, owner=owner,
                        level=state.level.get(square, 0), mortgaged=bool(state.mortgaged.get(square)), rent=rent)

    def _build_view(self) -> View:
        base: _Common = {"players": self._players(), "message": self.message, "message_kind": self.message_kind,
                         "reader_ok": self.reader_ok, "language": self.settings.language}
        if self.game is not None:
            state = self.game.current
            base.update({"bank_houses": state.bank["houses"], "bank_hotels": state.bank["hotels"],
                         "pot": state.cash["pot"] if self.game.config.jackpot else None,
                         "edition": self.game.edition.name, "game_over": self.game.is_over()})
        screen = self.screen
        ctx = self.ctx
        if screen == "idle":
            title = Msg("idle", {}, "Tap a card") if self.game else Msg("no_game", {}, "No game")
            options = [Option("any_deed", Msg("opt_any_deed", {}, "Pick a title deed"), enabled=self.game is not None),
                       Option("banker", Msg("banker_title", {}, "Banker")),
                       Option("history", Msg("opt_history", {}, "History"), enabled=self.game is not None)]
            return View("idle", title, options=tuple(options), **base)
        if screen == "game_over":
            return View("game_over", Msg("game_over_title", {}, "Game over"),
                        options=(Option("banker", Msg("banker_title", {}, "Banker")),
                                 Option("history", Msg("opt_history", {}, "History"))),
                        extra={"standings": self._game.standings()}, **base)
        if screen == "deed":
            return View("deed", Msg("deed_tap_player", {}, "Tap the player's card"),
                        deed=self._deed_view(ctx["square"]), **base)
        if screen == "offer":
            price = self._game.edition.squares[ctx["square"]].price
            return View("offer", Msg("deed_unowned_now", {"deed": self._deed_name(ctx["square"])}, "Buy or auction"),
                        player=ctx["player"], deed=self._deed_view(ctx["square"], ctx["player"]),
                        options=(Option("buy", Msg("opt_buy", {"price": self._fmt(price)}, "Buy"),
                                        enabled=not self._in_debt(ctx["player"])),
                                 Option("decline", Msg("opt_decline", {}, "Decline: auction"))), **base)
        if screen == "own_deed":
            deed = self._game.edition.squares[ctx["square"]]
            options = []
            if deed.kind == "street":
                options += [Option("build", Msg("opt_build", {}, "Build"), enabled=not self._in_debt(ctx["player"])),
                            Option("sell_building", Msg("opt_sell_building", {}, "Sell a building")),
                            Option("sell_whole", Msg("opt_sell_whole", {}, "Sell the whole group")),
                            Option("build_price", Msg("opt_build_price", {}, "Build at an auction price"),
                                   enabled=not self._in_debt(ctx["player"]))]
            options += [Option("mortgage", Msg("opt_mortgage", {}, "Mortgage")),
                        Option("unmortgage", Msg("opt_unmortgage", {}, "Lift the mortgage"),
                               enabled=not self._in_debt(ctx["player"]))]
            return View("own_deed", Msg("deed_context", {"deed": deed.name}, deed.name), player=ctx["player"],
                        deed=self._deed_view(ctx["square"]), options=tuple(options), **base)
        if screen == "player":
            return View("player", Msg("player_context", {"player": ctx["player"]}, f"{ctx['player']}: what now?"),
                        player=ctx["player"], options=tuple(self._player_options(ctx["player"])), **base)
        if screen == "keypad":
            player, purpose, square = ctx.get("player"), ctx.get("purpose"), ctx.get("square")
            extra: dict[str, Any] = {"kind": ctx.get("kind"), "player": player, "purpose": purpose}
            if square is not None:
                extra["deed"] = self._deed_name(square)
            back = ctx.get("back")
            auction = back[1].get("auction") if back is not None else None
            if ctx.get("kind") == "bid" and auction is not None:
                best = auction.best
                extra["best"] = (best.player, best.amount) if best else None
            title = ctx["label"]
            if purpose is not None:
                title = Msg("keypad_title", {"player": player, "purpose": purpose},
                            f"{player} · {purpose}") if player else purpose
            return View("keypad", title, player=player, keypad=ctx.get("buffer", ""), keypad_label=ctx["label"],
                        extra=extra, **base)
        if screen == "pin":
            return View("pin", Msg("keypad_pin", {}, "Banker PIN"), keypad="•" * len(ctx.get("buffer", "")),
                        keypad_label=Msg("keypad_pin", {}, "Banker PIN"), **base)
        if screen == "confirm":
            pending: Pending = ctx["pending"]
            options = []
            op = pending.op
            if op.get("op") == "pay_rent":
                kind = self._game.edition.squares[op["square"]].kind
                if kind == "railroad":
                    options.append(Option("rent_railroad_card",
                                          Msg("opt_rent_railroad_card", {}, "Card: nearest railroad"),
                                          selected=op.get("card") == "nearest_railroad"))
                if kind == "utility":
                    options.append(Option("rent_utility_card",
                                          Msg("opt_rent_utility_card", {}, "Card: nearest utility"),
                                          selected=op.get("card") == "nearest_utility"))
            shown = self._deed_view(op["square"]) if "square" in op and op.get("op") != "pay_tax" else None
            return View("confirm", Msg("confirm_title", {}, "Confirm?"), pending=pending, player=(pending.confirm_by or
                        (None,))[0], deed=shown, options=tuple(options), **base)
        if screen == "choose":
            return View("choose", ctx["title"], options=tuple(ctx["options"]), **base)
        if screen == "auction":
            auction = ctx["auction"]
            return View("auction", Msg("auction_title", {"deed": self._deed_name(ctx["square"])}, "Auction"),
                        deed=self._deed_view(ctx["square"]),
                        options=(Option("close", Msg("opt_close_auction", {}, "Close the auction")),),
                        extra={"bids": [(b.player, b.amount) for b in auction.bids],
                               "best": (auction.best.player, auction.best.amount) if auction.best else None}, **base)
        if screen == "trade":
            return View("trade", Msg("trade_title", {"a": ctx["a"], "b": ctx["b"]}, "Trade"),
                        options=tuple(self._trade_options()),
                        extra={"a": ctx["a"], "b": ctx["b"], "gives": ctx["gives"], "lift_now": ctx["lift_now"]},
                        **base)
        if screen == "bankruptcy":
            options = [Option(f"lift:{s}", Msg("opt_lift_now", {"deed": self._deed_name(s)}, "Lift now"),
                              selected=s in ctx["lift_now"]) for s in ctx["lift_options"]]
            options.append(Option("done", Msg("opt_done", {}, "Done")))
            return View("bankruptcy", Msg("bankruptcy_title", {"player": ctx["player"]}, "Bankruptcy"),
                        player=ctx["player"], options=tuple(options), **base)
        if screen == "banker":
            return View("banker", Msg("banker_title", {}, "Banker"), options=tuple(self._banker_options()), **base)
        if screen == "history":
            return View("history", Msg("history_title", {}, "History"),
                        options=(Option("undo", Msg("opt_undo", {}, "Undo the last operation"),
                                        enabled=self.game is not None and self.game.last_undoable() is not None),
                                 Option("back", Msg("opt_done", {}, "Done"))),
                        extra={"history": self.game.history() if self.game else []}, **base)
        if screen == "new_game":
            return View("new_game", Msg("new_game_tap_players", {"count": len(ctx["seats"])}, "New game"),
                        options=tuple(self._new_game_options()), extra={"seats": list(ctx["seats"])}, **base)
        if screen == "enrol":
            enrolment = ctx["enrolment"]
            prompt = enrolment.prompt
            title = Msg(getattr(prompt, "code", "enrol_title"), getattr(prompt, "params", {}),
                        getattr(prompt, "text", str(prompt)))
            return View("enrol", title, options=(Option("skip", Msg("opt_skip", {}, "Skip")),
                                                 Option("done", Msg("opt_done", {}, "Done"))), **base)
        raise AssertionError(f"no view for screen {screen!r}")

    def _player_options(self, player: str) -> list[Option]:
        in_debt = self._in_debt(player)
        state = self._game.current

        def opt(option_id: str, english: str, enabled: bool = True, **params: object) -> Option:
            return Option(option_id, Msg(f"opt_{option_id}", params, english), enabled=enabled)
        # the most used first (they fill the first page); F1 stays the GO salary
        options = [opt("pass_go", "GO salary"), opt("transfer", "Pay an amount", enabled=not in_debt),
                   opt("chance", "Chance card"), opt("community_chest", "Community Chest card"),
                   opt("income_tax", "Income tax"), opt("luxury_tax", "Luxury tax"), opt("jail_fine", "Jail fine"),
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
            return Option(option_id, Msg(f"opt_{option_id}", params, english), enabled=enabled)
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

    def _new_game_options(self) -> list[Option]:
        ctx = self.ctx
        edition = load_edition(ctx["edition"])
        options = [Option("edition", Msg("opt_edition", {"value": ctx["edition"]}, f"Edition: {ctx['edition']}")),
                   Option("mode", Msg("opt_mode", {"value": ctx["mode"]}, f"Mode: {ctx['mode']}"))]
        if ctx["mode"] == "time_limit":
            options.append(Option("minutes", Msg("opt_minutes", {"minutes": ctx["minutes"]},
                                                 f"Length: {ctx['minutes']} min")))
        for flag in RULE_FLAGS:
            value = ctx["rules"].get(flag, edition.rules[flag])
            options.append(Option(f"flag:{flag}", Msg("opt_flag", {"flag": flag, "value": value}, f"{flag}: {value}")))
        for index, (name, _) in enumerate(ctx["seats"]):
            options.append(Option(f"rename:{index}", Msg("name", {}, name)))
        options.append(Option("start", Msg("opt_start", {}, "Start"), enabled=len(ctx["seats"]) >= 2))
        return options



    def _trade_options(self) -> list[Option]:
        a, b, gives = self.ctx["a"], self.ctx["b"], self.ctx["gives"]
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
                                          selected=square in self.ctx["lift_now"]))
        options.append(Option("done", Msg("opt_done", {}, "Done")))
        return options
