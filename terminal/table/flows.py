"""The longer flows of the state machine: auctions, trades, bankruptcy, the banker's menu and the new-game and
enrolment wizards. A mixin of :class:`terminal.table.machine.Terminal`, which provides the inputs, the helpers
(``_go``, ``_ask_confirm``, ``_ask_number``, ``_refuse``...) and ``game``, ``dialog``, ``settings``: what it uses
of them is declared, with types, by :class:`terminal.table.shared.TerminalParts`.
"""
from __future__ import annotations

import hmac
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cards.editions import Edition, available_editions, load_edition
from cards.registry import Role
from terminal.bank.door import Receipt
from terminal.bank.game import MAX_NAME_LENGTH, Game
from terminal.bank.money import ten_percent
from terminal.bank.state import BANK, MODES, POT
from terminal.bank.types import Effects
from terminal.errors import GameError
from terminal.table.dialogs import (
    Adjust,
    AdjustPlayer,
    AuctionScreen,
    Banker,
    BankruptcyScreen,
    Bid,
    DeedTap,
    Enrol,
    Gives,
    History,
    Idle,
    Keypad,
    NewGame,
    Pin,
    PlayerTap,
    Tapped,
    TradeCash,
    TradeScreen,
)
from terminal.table.i18n import N_, OTHER_PURPOSE, PURPOSES
from terminal.table.shared import TerminalParts, account_msg, joined
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

    if TYPE_CHECKING:  # the electronic board: terminal.table.flows_ultimate.UltimateFlows
        def _ub_reasons(self, op: Mapping[str, Any], effects: Effects) -> tuple[Msg, ...]: ...
        @staticmethod
        def _board_mode(edition: str, mode: str) -> str: ...

    # ------------------------------------------------------------------------------------------------------
    # Auctions
    # ------------------------------------------------------------------------------------------------------
    def _start_auction(self, square: int) -> None:
        try:
            auction = self._game.start_auction(square)
        except GameError as exc:
            return self._refuse_error(exc)
        self._go(AuctionScreen(auction=auction, square=square))

    def _card_auction(self, tapped: Tapped) -> None:
        if not isinstance(tapped, PlayerTap):
            return self._refuse_needs()
        self._accept()
        screen = self._at(AuctionScreen)
        name = self._deed_name(screen.square)
        who = tapped.player
        self._ask_number(Msg("keypad_bid", {"player": who}, f"{who}'s bid"), Bid(who), kind="bid", player=who,
                         purpose=Msg("auction_title", {"deed": name}, f"Auction: {name}"), square=screen.square,
                         back=screen)

    def _bid(self, keypad: Keypad, bid: Bid, amount: int) -> None:
        screen = keypad.back
        if not isinstance(screen, AuctionScreen):
            raise AssertionError("a bid's keypad comes from an auction")
        self._back_to(screen)
        try:
            screen.auction.bid(bid.player, amount)
        except GameError as exc:
            return self._refuse_error(exc, money=("amount", "best", "cash"))
        self._say(Msg("bid_recorded", {"player": bid.player, "amount": self._fmt(amount)},
                      f"{bid.player} bids {amount}"))

    def _confirm_auction(self) -> None:
        screen = self._at(AuctionScreen)
        name = self._deed_name(screen.square)
        best = screen.auction.best
        if best is None:
            self._go_idle()
            return self._say(Msg("no_bid", {"deed": name}, f"No bid: {name} stays with the Bank."))
        self._ask_confirm({"op": "auction", "square": screen.square, "winner": best.player, "price": best.amount},
                          Msg("purpose_auction", {"deed": name}, "Auction"), confirm_by=(best.player,), back=screen)

    def _choose_auction(self, option_id: str) -> None:
        if option_id == "close":
            self._confirm_auction()

    # ------------------------------------------------------------------------------------------------------
    # Trades
    # ------------------------------------------------------------------------------------------------------
    def _start_trade(self, a: str, b: str) -> None:
        if b == a:
            return self._refuse(Msg("pay_self", {"player": a}, f"{a} cannot trade with themselves."))
        self._accept()
        self._go(TradeScreen(a=a, b=b, gives={a: {"cash": 0, "squares": [], "jail_cards": 0},
                                             b: {"cash": 0, "squares": [], "jail_cards": 0}}))

    def _choose_trade(self, option_id: str) -> None:
        trade = self._at(TradeScreen)
        gives = trade.gives
        kind, _, rest = option_id.partition(":")
        if kind == "deed":
            giver, square_id = rest.split(":")
            squares = gives[giver]["squares"]
            square = int(square_id)
            squares.remove(square) if square in squares else squares.append(square)
            if square not in squares and square in trade.lift_now:
                trade.lift_now.remove(square)
            self._changed()
        elif kind == "jail":
            held = len(self._game.current.jail_cards_of(rest))
            gives[rest]["jail_cards"] = (gives[rest]["jail_cards"] + 1) % (held + 1)
            self._changed()
        elif kind == "lift":
            lifted = int(rest)
            lift = trade.lift_now
            lift.remove(lifted) if lifted in lift else lift.append(lifted)
            self._changed()
        elif kind == "cash":
            self._ask_number(Msg("keypad_amount", {}, "Amount"), TradeCash(rest), player=rest,
                             purpose=Msg("trade_title", {"a": trade.a, "b": trade.b}, f"Trade {trade.a} ↔ {trade.b}"),
                             back=trade)
        elif option_id == "done":
            self._confirm_trade()

    def _trade_cash(self, keypad: Keypad, cash: TradeCash, amount: int) -> None:
        trade = keypad.back
        if not isinstance(trade, TradeScreen):
            raise AssertionError("a trade's keypad comes from a trade")
        trade.gives[cash.giver]["cash"] = amount
        self._back_to(trade)

    def _confirm_trade(self) -> None:
        trade = self._at(TradeScreen)
        a, b, gives = trade.a, trade.b, trade.gives
        op: dict[str, Any] = {"op": "trade", "a": a, "b": b, "a_gives": _side(gives[a]), "b_gives": _side(gives[b])}
        if trade.lift_now:
            op["lift_now"] = sorted(trade.lift_now)
        self._ask_confirm(op, Msg("purpose_trade", {}, "Trade"), confirm_by=(a, b), card_only=True, back=trade)

    def _card_trade(self, tapped: Tapped) -> None:
        trade = self._at(TradeScreen)
        if isinstance(tapped, DeedTap):
            owner = self._game.current.owner.get(tapped.square)
            if owner in (trade.a, trade.b):
                return self._choose_trade(f"deed:{owner}:{tapped.square}")
        self._refuse_needs()

    # ------------------------------------------------------------------------------------------------------
    # Bankruptcy
    # ------------------------------------------------------------------------------------------------------
    def _bankruptcy(self, player: str) -> None:
        """Bankruptcy: to a player receiving mortgaged deeds, that creditor first taps their card and decides
        which mortgages to lift at once; then the confirmation lists what each creditor receives. A bankruptcy
        the rules refuse (no debt, or less owed than could still be raised) is refused at once, before anyone
        chooses anything: the Bank's dry run of it says why."""
        op = {"op": "declare_bankruptcy", "player": player}
        try:
            effects = self._game.preview(op).effects
        except GameError as exc:
            return self._refuse_error(exc, money=("owed", "raisable"))
        state = self._game.current
        debts = state.debts_of(player)
        lift_options: list[int] = []
        creditor = debts[0].creditor if debts else "bank"
        if creditor not in ("bank", "pot"):
            lift_options = [s for s in state.deeds_of(player) if state.mortgaged.get(s)]
        purpose = Msg("purpose_declare_bankruptcy", {"player": player}, f"{player}'s bankruptcy")
        if not lift_options:
            return self._ask_confirm(op, purpose, confirm_by=(player,), effects=effects)
        self._go(BankruptcyScreen(player=player, creditor=creditor, lift_options=lift_options))

    def _choose_bankruptcy(self, option_id: str) -> None:
        screen = self._at(BankruptcyScreen)
        if not screen.decided:  # the options are disabled until the creditor's card: kept for the F keys
            return self._refuse_needs()
        if option_id == "done":
            return self._confirm_bankruptcy()
        square = int(option_id.split(":")[1])
        lift = screen.lift_now
        lift.remove(square) if square in lift else lift.append(square)
        self._changed()

    def _card_bankruptcy(self, tapped: Tapped) -> None:
        """The creditor's card: the choice of lifting mortgages at once is theirs."""
        screen = self._at(BankruptcyScreen)
        if not isinstance(tapped, PlayerTap) or tapped.player != screen.creditor or screen.decided:
            return self._refuse_needs()
        screen.decided = True
        self._accept()

    def _confirm_bankruptcy(self) -> None:
        screen = self._at(BankruptcyScreen)
        if not screen.decided:
            return self._refuse_needs()
        player = screen.player
        op: dict[str, Any] = {"op": "declare_bankruptcy", "player": player}
        if screen.lift_now:
            op["lift_now"] = sorted(screen.lift_now)
        try:
            effects = self._game.preview(op).effects
        except GameError as exc:
            return self._refuse_error(exc, money=("owed", "raisable"))
        self._ask_confirm(op, Msg("purpose_declare_bankruptcy", {"player": player}, f"{player}'s bankruptcy"),
                          confirm_by=(player,), effects=effects)

    def _details(self, op: Mapping[str, Any], effects: Effects) -> tuple[Msg, ...]:
        """What a confirmation lists besides the money: for a bankruptcy, per creditor, the deeds (mortgaged
        ones with the 10 % due, or lifted at once), the Jail cards, the buildings sold back to the Bank, and
        the debts it ends."""
        name = op.get("op")
        if name != "declare_bankruptcy":
            return self._reasons(op, effects)
        debtor = str(op["player"])
        edition = self._game.edition
        state = self._game.current
        rounding = self._game.config.rounding
        lifted = set(op.get("lift_now") or ())
        received: dict[str, list[Msg]] = {}
        sold: list[Msg] = []
        ended: list[Msg] = []
        for change in effects.changes:
            section, key, before, after = change
            if section == "owner" and before == debtor:
                taker = after if after is not None else "bank"
                deed = edition.squares[key]
                item = Msg("name", {"name": deed.name}, deed.name)
                if state.mortgaged.get(key) and taker != "bank":
                    interest = ten_percent(deed.mortgage, rounding)
                    code = N_("bk_deed_lifted") if key in lifted else N_("bk_deed_mortgaged")
                    amount = interest + deed.mortgage if key in lifted else interest
                    item = Msg(code, {"deed": deed.name, "amount": self._fmt(amount)}, deed.name)
                received.setdefault(taker, []).append(item)
            elif section == "jail_card" and before == debtor:
                taker = after if after is not None else "bank"
                received.setdefault(taker, []).append(Msg("bk_jail_card", {}, "a Get Out of Jail Free card"))
            elif section == "level" and isinstance(before, int) and isinstance(after, int) and before > after:
                deed = edition.squares[key]
                if before > edition.houses_before_hotel:
                    sold.append(Msg("bk_hotel_on", {"deed": deed.name}, deed.name))
                else:
                    sold.append(Msg("bk_houses_on", {"n": before - after, "deed": deed.name}, deed.name))
            elif section == "debts" and not ended:
                for debt in before:
                    if debt["debtor"] == debtor:
                        ended.append(Msg("bk_debt_ends", {"creditor": account_msg(str(debt["creditor"])),
                                                          "amount": self._fmt(int(debt["amount"]))},
                                         f"Debt ended: {debt['amount']} to {debt['creditor']}"))
        lines: list[Msg] = []
        for taker, items in received.items():
            lines.append(Msg("bk_receives", {"creditor": account_msg(taker), "items": joined(items)},
                             f"{taker} receives"))
        if sold:
            lines.append(Msg("bk_sold_back", {"items": joined(sold)}, "Sold back to the Bank"))
        return tuple(lines + ended)

    def _reasons(self, op: Mapping[str, Any], effects: Effects) -> tuple[Msg, ...]:
        """Why a computed amount is what it is: the rent's reason, the 10 % interest of a mortgage, a price
        set by a building auction (housing shortage), the 10 % income tax."""
        if self._game.edition.is_ultimate:  # levels: terminal.table.flows_ultimate
            return self._ub_reasons(op, effects)
        name = op.get("op")
        edition = self._game.edition
        square = op.get("square")
        deed = edition.squares[square] if isinstance(square, int) and 0 <= square < len(edition.squares) else None
        rounding = self._game.config.rounding
        if name == "unmortgage" and deed is not None:
            return (Msg("why_unmortgage", {"value": self._fmt(deed.mortgage),
                                           "interest": self._fmt(ten_percent(deed.mortgage, rounding))},
                        "mortgage value + 10 % interest"),)
        if name == "pay_rent" and deed is not None:
            owner = self._game.current.owner.get(deed.index)
            why = self._rent_reason(deed.index, owner, op.get("dice"), op.get("card")) if owner else None
            return (why,) if why is not None else ()
        if name == "build" and op.get("price") is not None:
            return (Msg("why_shortage_price", {"price": self._fmt(int(op["price"]))},
                        "price set at a building auction (housing shortage)"),)
        if name == "pay_tax" and op.get("choice") == "percent":
            return (Msg("why_percent_tax", {"player": str(op.get("player"))}, "10 % of worth"),)
        if name == "trade":
            lines = []
            lifted = set(op.get("lift_now") or ())
            for side, taker in (("a_gives", op.get("b")), ("b_gives", op.get("a"))):
                for s in (op.get(side) or {}).get("squares", ()):
                    if self._game.current.mortgaged.get(s):
                        d = edition.squares[s]
                        interest = ten_percent(d.mortgage, rounding)
                        if s in lifted:
                            lines.append(Msg("why_trade_lifted", {"player": str(taker), "deed": d.name,
                                                                  "amount": self._fmt(interest + d.mortgage)}, d.name))
                        else:
                            lines.append(Msg("why_trade_interest", {"player": str(taker), "deed": d.name,
                                                                    "amount": self._fmt(interest)}, d.name))
            return tuple(lines)
        return ()

    # ------------------------------------------------------------------------------------------------------
    # What happened (the "done" message)
    # ------------------------------------------------------------------------------------------------------
    def _what_happened(self, receipt: Receipt) -> Msg | None:
        """What a committed operation moved, in words: the deed bought, the building built, the card kept,
        the deeds traded, what an undo undid (the money moved is listed after it)."""
        op = receipt.op
        name = op.get("op")
        edition = self._game.edition
        square = op.get("square")
        deed = edition.squares[square].name if isinstance(square, int) and 0 <= square < len(edition.squares) else ""
        player = str(op.get("player", ""))
        paid = sum(a for p, _, a in receipt.postings if p == player)
        got = sum(a for _, q, a in receipt.postings if q == player)
        if name == "undo":
            undone = op.get("undoes")
            if not isinstance(undone, Mapping):
                return None
            return Msg("did_undo", {"what": describe_undo(undone, edition, plain=True)}, "Undone")
        if name == "buy":
            return Msg("did_buy", {"player": player, "deed": deed, "amount": self._fmt(paid)}, f"{player} buys {deed}")
        if name == "auction":
            winner = str(op.get("winner"))
            return Msg("did_auction", {"player": winner, "deed": deed, "amount": self._fmt(int(op.get("price", 0)))},
                       f"{winner} wins {deed} at auction")
        if name == "pay_rent":
            # the owner from the deed, not from the money moved: a payer with no cash moves none
            owner = self._game.current.owner.get(int(square or 0)) or next(
                (q for p, q, _ in receipt.postings if p == player), "")
            return Msg("did_rent", {"player": player, "deed": deed, "owner": owner, "amount": self._fmt(paid)},
                       f"{player} pays the rent on {deed}")
        if name == "build":
            level = self._game.current.level.get(int(square or 0), 0)
            hotel = level > self._game.config.houses_before_hotel
            if hotel:
                return Msg("did_build_hotel", {"deed": deed, "amount": self._fmt(paid)}, f"Built on {deed}")
            return Msg("did_build_house", {"deed": deed, "amount": self._fmt(paid), "n": level}, f"Built on {deed}")
        if name == "sell_building":
            return Msg("did_sell_building", {"deed": deed, "amount": self._fmt(got)}, f"Sold on {deed}")
        if name == "mortgage":
            return Msg("did_mortgage", {"deed": deed, "amount": self._fmt(got)}, f"{deed} mortgaged")
        if name == "unmortgage":
            return Msg("did_unmortgage", {"deed": deed, "amount": self._fmt(paid)}, f"Mortgage on {deed} lifted")
        if name == "trade":
            a, b = str(op.get("a")), str(op.get("b"))
            return Msg("did_trade", {"a": a, "b": b, "a_gives": self._gives_msg(op.get("a_gives")),
                                     "b_gives": self._gives_msg(op.get("b_gives"))}, f"Trade {a} ↔ {b}")
        if name == "gain_jail_card":
            return Msg("did_gain_jail_card", {"player": player}, f"{player} keeps a Get Out of Jail Free card")
        if name == "use_jail_card":
            return Msg("did_use_jail_card", {"player": player}, f"{player} leaves jail with the card")
        if name == "declare_bankruptcy":
            return Msg("did_bankruptcy", {"player": player}, f"{player} is bankrupt")
        if name in ("pass_go", "bank_pays", "free_parking", "collect_from_each_player") and got:
            return Msg("did_receive", {"player": player, "amount": self._fmt(got)}, f"{player} receives {got}")
        if name in ("pay_tax", "pay_bank", "jail_fine", "repairs", "pay_each_player") and player:
            return Msg("did_pay", {"player": player, "amount": self._fmt(paid)}, f"{player} pays {paid}")
        if name == "transfer":
            return Msg("did_transfer", {"payer": account_msg(str(op.get("from"))),
                                        "payee": account_msg(str(op.get("to"))),
                                        "amount": self._fmt(int(op.get("amount", 0)))}, "Payment")
        return None

    def _gives_msg(self, side: object) -> Msg:
        """One side of a trade in words: its deeds, cash and Jail cards (or nothing)."""
        if not isinstance(side, Mapping):
            return Msg("gives_nothing", {}, "nothing")
        names = [self._deed_name(int(s)) for s in side.get("squares", ())]
        items = [Msg("name", {"name": name}, name) for name in names]
        if side.get("cash"):
            cash = self._fmt(int(side["cash"]))
            items.append(Msg("name", {"name": cash}, cash))
        if side.get("jail_cards"):
            items.append(Msg("gives_jail_cards", {"n": int(side["jail_cards"])}, "Jail card(s)"))
        return joined(items) if items else Msg("gives_nothing", {}, "nothing")

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
            self._go(Pin())
            seconds = self._pin_wait()
            if seconds:  # still waiting after wrong PINs: said at once
                self._say(self._pin_wait_msg(seconds), "error")
            return None
        self._say(Msg("needs_banker", {}, "Tap the banker card (no banker PIN is set on this terminal)"), "error")

    def _banker_ok(self) -> None:
        """The banker is identified: run what was waiting for them, or open the banker menu."""
        self.banker_unlocked = True
        then, self._after_banker = self._after_banker, None
        self._go(Banker())
        if then == "undo":
            self._ask_undo()
        elif then == "new_game":
            self._start_new_game()
        elif then == "restore":
            self._restore_backup()

    # -- the banker PIN: after wrong tries, the wait before the next one is shown and every try refused ------
    def _pin_wait(self) -> int:
        """Whole seconds before the PIN check looks at a try again (0: a try may be made now). Asked of the
        PIN check when it slows down wrong tries (``wait_s()``, :class:`terminal.table.shared.BankerPin`)."""
        pin = self.settings.banker_pin
        return 0 if pin is None or isinstance(pin, str) else math.ceil(pin.wait_s())

    def _pin_matches(self, typed: str) -> bool:
        """Whether ``typed`` is the banker PIN: asked of the host's check, or compared in constant time with the
        digits given in the settings."""
        pin = self.settings.banker_pin
        if pin is None:
            return False
        if isinstance(pin, str):
            return hmac.compare_digest(typed.encode(), pin.encode())
        return pin.matches(typed)

    @staticmethod
    def _pin_wait_msg(seconds: int, wrong: bool = False) -> Msg:
        if wrong:
            return Msg("wrong_pin_wait", {"seconds": seconds},
                       f"Wrong PIN. Too many tries: wait {seconds} s before trying again.")
        return Msg("pin_wait", {"seconds": seconds}, f"Too many wrong PINs: wait {seconds} s before trying again.")

    def _pin_tick(self) -> None:
        """On the PIN screen, the wait shown counts down; "you may try again" once it is over."""
        shown = self.message
        if shown is None or shown.code not in ("pin_wait", "wrong_pin_wait"):
            return None
        seconds = self._pin_wait()
        if seconds == shown.params.get("seconds"):
            return None
        if seconds:
            return self._say(self._pin_wait_msg(seconds, wrong=shown.code == "wrong_pin_wait"), "error")
        self._say(Msg("pin_try_now", {}, "You may try the PIN again."))

    def _digit_pin(self, char: str) -> None:
        """A key on the PIN screen: refused with the wait while the PIN check waits after wrong tries."""
        seconds = self._pin_wait()
        if seconds and char != "OK":
            return self._refuse(self._pin_wait_msg(seconds))
        self._digit_keypad(char)

    def _confirm_pin(self) -> None:
        pin = self._at(Pin)
        waiting = self._pin_wait()
        # compared even during the wait: the check refuses it and logs the try, as it logs every wrong one
        if self._pin_matches(pin.buffer) and not waiting:
            self._accept()
            return self._banker_ok()
        pin.buffer = ""
        if waiting:
            return self._refuse(self._pin_wait_msg(waiting))
        seconds = self._pin_wait()
        self._refuse(self._pin_wait_msg(seconds, wrong=True) if seconds else Msg("wrong_pin", {}, "Wrong PIN."))

    # -- a damaged game: its newest good backup or a new game, by the banker ----------------------------------
    def _choose_damaged(self, option_id: str) -> None:
        if option_id not in ("restore", "new_game"):
            return self._refuse_needs()
        self._after_banker = option_id
        if not self.settings.banker_protection:
            return self._banker_ok()
        self._banker_card(touch=True)

    def _take_game(self, game: Game) -> None:
        """``game`` becomes the game in play: the one before is closed, a damaged file's state is forgotten."""
        if self.game is not None:
            self.game.close()
        self.game, self.damage, self.restore = game, None, None
        self._last_go.clear()

    def _restore_backup(self) -> None:
        """The newest good backup of the damaged game, restored into a new game file by the host (the damaged
        file is kept), becomes the game in play."""
        restore, damage = self.restore, self.damage
        if restore is None or damage is None or damage.backup is None:
            return self._refuse(Msg("not_allowed_now", {"what": "restore"}, "Not possible here: restore."))
        try:
            game = restore()
        except GameError as exc:
            return self._refuse_error(exc)
        self._take_game(game)
        self._beep("success")
        self._go_idle()
        self._say(Msg("backup_restored", {"backup": damage.backup},
                      f"Backup {damage.backup} restored: the game goes on. The old file is kept."), "success")

    def _choose_banker(self, option_id: str) -> None:
        if option_id == "undo":
            self._ask_undo()
        elif option_id in ("adjust_give", "adjust_take"):
            players = self._game.current.active_players()
            self._choose(Msg("choose_partner", {}, "Which player?"),
                         [Option(p, Msg("name", {"name": p}, p)) for p in players],
                         AdjustPlayer(give=option_id == "adjust_give"))
        elif option_id == "end_game":
            self._ask_confirm({"op": "end_game"}, Msg("purpose_end_game", {}, "End of the game"))
        elif option_id == "history":
            self._go(History())
        elif option_id == "new_game":
            self._start_new_game()
        elif option_id == "enrol":
            if self.enrolment_factory is None:
                return self._refuse(Msg("not_allowed_now", {"what": "enrol"}, "Not possible here: enrol."))
            self._go(Enrol(self.enrolment_factory()))
        elif option_id == "language":
            languages = ("fr", "en", "uk")
            self.settings.language = languages[(languages.index(self.settings.language) + 1) % len(languages)]
            self._changed()
        elif option_id == "mute":
            if self.beeper is not None and hasattr(self.beeper, "muted"):
                self.beeper.muted = not self.beeper.muted
            self._changed()

    def _ask_undo(self) -> None:
        target = self.game.last_undoable() if self.game else None
        if target is None:
            return self._refuse(Msg("nothing_to_undo", {}, "There is nothing to undo."))
        self._ask_confirm({"op": "undo"}, describe_undo(target, self._game.edition))

    def _adjust_amount(self, player: str, give: bool) -> None:
        english = "Adjustment: the Bank gives" if give else "Adjustment: the Bank takes"
        code = N_("opt_adjust_give") if give else N_("opt_adjust_take")
        self._ask_number(Msg("keypad_amount", {}, "Amount"), Adjust(player, give), player=player,
                         purpose=Msg(code, {}, english))

    def _choose_game_over(self, option_id: str) -> None:
        self._choose_idle(option_id)

    def _choose_history(self, option_id: str) -> None:
        if option_id == "undo":  # the banker's undo, from the history: the banker card or PIN first
            self._after_banker = "undo"
            return self._banker_card(touch=True)
        self._go_idle()

    # ------------------------------------------------------------------------------------------------------
    # New game and enrolment wizards
    # ------------------------------------------------------------------------------------------------------
    def _start_new_game(self) -> None:
        if self.game_factory is None:
            return self._refuse(Msg("not_allowed_now", {"what": "new game"}, "Not possible here: new game."))
        default = self.game.edition.name if self.game else ("fr" if self.settings.language == "fr" else "us")
        self._go(NewGame(edition=default, editions=available_editions(), minutes=GAME_LENGTHS[0],
                         mode=self._board_mode(default, "classic")))

    def _new_game_card(self, uid: str) -> None:
        seats = self._at(NewGame).seats
        if any(card == uid for _, card in seats):
            return self._refuse(Msg("already_seated", {}, "This card is already in the game."))
        if len(seats) >= 8:
            return self._refuse(Msg("too_many_players", {}, "8 players at most."))
        used = {name for name, _ in seats}
        # the name this card had in the game on the table, else a token's
        known = {card: name for name, card in ((self.game.meta.get("player_cards") or {}) if self.game else {}).items()}
        name = known.get(uid) if known.get(uid) not in (None, *used) else None
        name = name or next(t for t in TOKENS.get(self.settings.language, TOKENS["fr"]) if t not in used)
        seats.append((name, uid))
        self._accept()

    def _card_new_game(self, tapped: Tapped) -> None:
        if isinstance(tapped, PlayerTap):
            return self._new_game_card(tapped.uid)
        self._refuse_needs()

    def _choose_new_game(self, option_id: str) -> None:
        wizard = self._at(NewGame)
        if wizard.editing is not None:
            return self._name_key(wizard, option_id)
        if option_id == "edition":
            editions = wizard.editions
            wizard.edition = editions[(editions.index(wizard.edition) + 1) % len(editions)]
            flags = load_edition(wizard.edition).rule_flags
            wizard.rules = {k: v for k, v in wizard.rules.items() if k in flags}  # another board's flags go
            wizard.mode = self._board_mode(wizard.edition, wizard.mode)
        elif option_id == "mode" and wizard.mode in MODES:  # the electronic board has its one mode
            wizard.mode = MODES[(MODES.index(wizard.mode) + 1) % len(MODES)]
        elif option_id == "minutes":
            wizard.minutes = GAME_LENGTHS[(GAME_LENGTHS.index(wizard.minutes) + 1) % len(GAME_LENGTHS)]
        elif option_id.startswith("flag:"):
            flag = option_id[5:]
            values = load_edition(wizard.edition).rule_flags[flag]
            current = wizard.rules.get(flag, load_edition(wizard.edition).rules[flag])
            wizard.rules[flag] = values[(values.index(current) + 1) % len(values)]
        elif option_id.startswith("rename:"):  # the seat's name, typed on the on-screen keyboard
            wizard.editing, wizard.typed = int(option_id[7:]), ""
        elif option_id == "start":
            seats = wizard.seats
            if len(seats) < 2:
                return self._refuse(Msg("need_two_players", {}, "At least 2 players are needed."))
            factory = self.game_factory
            if factory is None:  # the wizard opens only with a factory (_start_new_game)
                return self._refuse(Msg("not_allowed_now", {"what": "new game"}, "Not possible here: new game."))
            try:
                minutes = wizard.minutes if wizard.mode == "time_limit" else None
                game = factory(wizard.edition, [n for n, _ in seats], wizard.mode, dict(wizard.rules),
                               dict(seats), minutes=minutes)
            except GameError as exc:
                return self._refuse_error(exc)
            self._take_game(game)
            self._beep("success")
            self._go(Idle())
            return self._say(Msg("game_created", {}, "Game started: good luck!"), "success")
        self._changed()

    def _name_key(self, wizard: NewGame, option_id: str) -> None:
        """A key of the on-screen keyboard naming seat ``wizard.editing``: a letter (a capital first and after a
        space or a hyphen), ``space``, ``back``, ``ok`` (an empty name keeps the old one) or ``cancel``."""
        key = option_id.removeprefix("key:")
        index = wizard.editing
        assert index is not None, "a key of the keyboard comes only while a name is typed"
        if key == "cancel":
            wizard.editing, wizard.typed = None, ""
        elif key == "back":
            wizard.typed = wizard.typed[:-1]
        elif key == "ok":
            name = " ".join(wizard.typed.split())
            if name:
                if name.casefold() in (BANK, POT):
                    return self._refuse(Msg("name_reserved", {"name": name}, f"{name!r} is the Bank's: choose another "
                                                                             f"name."))
                if any(n.casefold() == name.casefold() for i, (n, _) in enumerate(wizard.seats) if i != index):
                    return self._refuse(Msg("name_taken", {"name": name}, f"{name} is already at the table: choose "
                                                                          f"another name."))
                wizard.seats[index] = (name, wizard.seats[index][1])
            wizard.editing, wizard.typed = None, ""
            return self._accept()
        else:
            if len(wizard.typed) >= MAX_NAME_LENGTH:
                return self._refuse(Msg("name_too_long", {"max": MAX_NAME_LENGTH},
                                        f"A name has {MAX_NAME_LENGTH} letters at most."))
            char = " " if key == "space" else key
            if char == " " and (not wizard.typed or wizard.typed.endswith(" ")):
                return self._changed()
            capital = not wizard.typed or wizard.typed[-1] in " -"
            wizard.typed += char.upper() if capital else char
        self._changed()

    def _card_enrol(self, uid: str, role: Role | None) -> None:
        enrolment = self._at(Enrol).enrolment
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
        enrolment = self._at(Enrol).enrolment
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


def describe_undo(op: Mapping[str, Any], edition: Edition, plain: bool = False) -> Msg:
    """What an undo will undo, for the confirmation screen: the recorded operation's purpose (translated,
    with the deed's name) and who it concerns, e.g. "Défaire : Achat de Rue de la Paix (Anne)"; ``plain``:
    without the "Undo:" word (for the message saying it was undone)."""
    name = op.get("op", "?")
    params = {k: v for k, v in op.items() if k != "op" and isinstance(k, str)}
    square = op.get("square")
    if isinstance(square, int) and 0 <= square < len(edition.squares):
        params["deed"] = params["tax"] = edition.squares[square].name
    who = op.get("player") or op.get("winner") or op.get("from") or \
        (f"{op.get('a')} ↔ {op.get('b')}" if name == "trade" else "")
    english = name.replace("_", " ") + (f" of {params['deed']}" if "deed" in params else "")
    what = Msg(PURPOSES.get(name, OTHER_PURPOSE), params, english)
    if plain:
        return Msg("undo_what_who", {"what": what, "who": who}, f"{english} ({who})") if who else what
    if not who:
        return Msg("purpose_undo_plain", {"what": what}, f"Undo: {english}")
    return Msg("purpose_undo", {"what": what, "who": who}, f"Undo: {english} ({who})")
