"""What the table does on the classic board (40 squares, houses and hotels, mortgages, Chance and Community
Chest): :class:`ClassicBoard`, the :class:`~terminal.table.screens.base.Board` of its editions (``fr``, ``us``...).
The electronic board's answers are in :mod:`terminal.table.ultimate`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cards.editions import RULE_FLAGS, Edition
from cards.registry import DeedCard, Role
from terminal.bank.door import Preview
from terminal.bank.money import ten_percent
from terminal.bank.operations import (
    Build,
    JailFine,
    Mortgage,
    Operation,
    PassGo,
    PayRent,
    PayTax,
    Repairs,
    SellBuilding,
    Trade,
    Unmortgage,
    UseJailCard,
)
from terminal.bank.state import HOTEL, MODES
from terminal.errors import GameError
from terminal.table.i18n import N_, OPTIONS
from terminal.table.screens.base import ChoiceNext, KeypadNext, PlayerTap, Table
from terminal.table.screens.decks import has_card, pick_deck_card
from terminal.table.screens.deeds import BuildPrice, OwnDeed, rent, rent_shown, rent_why
from terminal.table.screens.player import amount_option
from terminal.table.screens.trade import Partner
from terminal.table.view import DeedView, Msg, Option, Pending


def tax_squares(edition: Edition) -> tuple[int, int]:
    """The squares of the income tax and of the luxury tax: the edition's tax squares, in board order (4 and 38
    on every classic edition)."""
    taxes = [s.index for s in edition.squares if s.kind == "tax"]
    return taxes[0], taxes[-1]


def _refusal(t: Table, op: Operation) -> Msg | None:
    """Why the rules refuse ``op`` now (the Bank's refusal of its preview, as its message), or None."""
    try:
        t.preview(op)
    except GameError as exc:
        return Msg(exc.code, dict(exc.params or {}), str(exc), exact=True)
    return None


def _tax_purpose(edition: Edition, square: int) -> Msg:
    tax = edition.squares[square].name
    return Msg("purpose_pay_tax", {"tax": tax}, tax)


class ClassicBoard:
    """The classic board's answers (see :class:`~terminal.table.screens.base.Board`)."""

    name = "classic"
    has_buildings = True

    def sticker(self, edition: Edition, role: Role) -> int | Msg:
        """A deed's sticker names its square; a property's sticker (the electronic board's) is no deed here."""
        if isinstance(role, DeedCard) and edition.squares[role.square].is_deed:
            return role.square
        if isinstance(role, DeedCard):
            return Msg("unknown_card", {}, "Unknown card: enrol it from the banker's menu.")
        return Msg("not_a_property_here", {}, "This deed is not a property of this board.")

    def event_card(self, t: Table, tapped: Any) -> None:
        t.refuse(Msg("ev_not_this_board", {}, "No Event cards on this board."))

    def idle_notices(self, t: Table) -> tuple[Msg, ...]:
        """Nothing besides the cash, the stock and the pot on the classic board."""
        return ()

    def deed_view(self, t: Table, square: int, payer: str | None = None) -> DeedView:
        """The deed as printed, its buildings, its mortgage, and the rent ``payer`` (or another player) would pay
        now (None for a utility, whose rent depends on the dice)."""
        state = t.bank.current
        deed = t.bank.edition.squares[square]
        owner = state.owner.get(square)
        shown = None
        if owner and deed.kind != "utility" and not state.mortgaged.get(square):
            # a player still in the game: a bankrupt seat pays no rent (the Bank refuses it)
            other = payer if payer and payer != owner else next((p for p in state.active_players() if p != owner),
                                                                None)
            try:
                shown = t.bank.rent(other, square).amount if other else None
            except GameError:
                shown = None
        # the edition's name as it is (a Localized text): the screen shows it in its own language
        return DeedView(square=square, name=deed.name, kind=deed.kind, group=deed.group or "", price=deed.price,
                        mortgage_value=deed.mortgage, house_cost=deed.house_cost, rents=deed.rents, owner=owner,
                        level=state.level.get(square, 0), mortgaged=bool(state.mortgaged.get(square)), rent=shown)

    def owned_deed_title(self, t: Table, square: int, owner: str, dice: int | None,
                         card: str | None) -> tuple[Msg, list[Option]]:
        """The rent shown with its reason (none on a mortgaged deed); a railroad's or a utility's rent card."""
        sell = Option("sell_deed", Msg("opt_sell_deed", {}, "Sell to a player"))
        if t.bank.current.mortgaged.get(square):
            return Msg("deed_tap_player", {}, "Tap the player's card"), [sell]
        kind = t.bank.edition.squares[square].kind
        shown = rent_shown(t, square, owner, dice, card)
        why = rent_why(shown)
        if shown is None:
            title = Msg("deed_tap_player", {}, "Tap the player's card")
        elif why is None:
            title = Msg("deed_rent_tap_payer", {"rent": t.fmt(shown.amount)},
                        f"Rent {shown.amount}: payer, tap your card")
        else:
            title = Msg("deed_rent_why_tap_payer", {"rent": t.fmt(shown.amount), "why": why},
                        f"Rent {shown.amount} ({why.english}): payer, tap your card")
        options = [sell]
        if kind == "railroad" and has_card(t.bank.edition, "nearest_railroad"):
            options.append(Option("rent_railroad_card", Msg("opt_rent_railroad_card", {}, "Card: nearest railroad"),
                                  selected=card == "nearest_railroad"))
        if kind == "utility" and has_card(t.bank.edition, "nearest_utility"):
            options.append(Option("rent_utility_card", Msg("opt_rent_utility_card", {}, "Card: nearest utility"),
                                  selected=card == "nearest_utility"))
        return title, options

    def owner_tapped(self, t: Table, square: int, tapped: PlayerTap) -> None:
        """The owner's screen of their deed."""
        t.accept()
        t.go(OwnDeed(square=square, player=tapped.player))

    def payer_tapped(self, t: Table, square: int, tapped: PlayerTap, dice: int | None, card: str | None) -> None:
        rent(t, tapped.player, square, dice=dice, card=card, uid=tapped.uid)

    def own_deed_options(self, t: Table, square: int, player: str) -> list[Option]:
        """Build, sell a building or the whole group's, build at an auction price (a street); mortgage, lift the
        mortgage. Each button that commits names what it does and its amount ("Build a hotel −200 €", "Sell the
        hotel (→ 4 houses) +100 €"); what the rules refuse now is greyed out (the Bank's preview says so: no
        building to sell, a deed not mortgaged, uneven building). In debt: nothing that spends."""
        in_debt = t.in_debt(player)
        level = t.bank.current.level.get(square, 0)

        def committing(option_id: str, label: Msg, op: Operation, spends: bool = False) -> Option:
            if spends and in_debt:
                return Option(option_id, label, enabled=False)
            why = _refusal(t, op)
            if why is not None:
                return Option(option_id, label, enabled=False, why=why)
            return amount_option(t, option_id, label, op, player)
        options = []
        if t.bank.edition.squares[square].kind == "street":
            hotel_next, hotel = level == t.bank.config.houses_before_hotel, level == HOTEL
            options += [
                committing("build", Msg("opt_build_hotel" if hotel_next else "opt_build_house", {},
                                        "Build a hotel" if hotel_next else "Build a house"),
                           Build(player, square), spends=True),
                committing("sell_building", Msg("opt_sell_hotel" if hotel else "opt_sell_house", {},
                                                "Sell the hotel (→ 4 houses)" if hotel else "Sell a house"),
                           SellBuilding(player, square)),
                Option("sell_whole", Msg("opt_sell_whole", {}, "Sell the whole group"),
                       enabled=(whole := _refusal(t, SellBuilding(player, square, whole=True))) is None, why=whole),
                Option("build_price", Msg("opt_build_price", {}, "Build at an auction price"), enabled=not in_debt)]
        options += [committing("mortgage", Msg("opt_mortgage", {}, "Mortgage"), Mortgage(player, square)),
                    committing("unmortgage", Msg("opt_unmortgage", {}, "Lift the mortgage"),
                               Unmortgage(player, square), spends=True)]
        deed = t.bank.edition.squares[square]
        if options[-1].enabled:  # the interest said on the button that commits: "(200 € + 10 % 20 €) −220 €"
            interest = ten_percent(deed.mortgage, t.bank.config.rounding)
            why = Msg("opt_unmortgage_interest", {"value": t.fmt(deed.mortgage), "interest": t.fmt(interest)},
                      "Lift the mortgage (value + 10 %)")
            options[-1] = amount_option(t, "unmortgage", why, Unmortgage(player, square), player)
        return options

    def own_deed_chosen(self, t: Table, square: int, player: str, option_id: str) -> None:
        """A button that names its amount commits (as the GO salary's does; undo is one menu away); selling the
        whole group's buildings is confirmed."""
        name = t.deed_name(square)
        ops: dict[str, tuple[Operation, str, str]] = {
            "build": (Build(player, square), N_("purpose_build"), f"Building on {name}"),
            "sell_building": (SellBuilding(player, square), N_("purpose_sell_building"),
                              f"Selling a building on {name}"),
            "sell_whole": (SellBuilding(player, square, whole=True), N_("purpose_sell_building"),
                           f"Selling the buildings of {name}'s group"),
            "mortgage": (Mortgage(player, square), N_("purpose_mortgage"), f"Mortgaging {name}"),
            "unmortgage": (Unmortgage(player, square), N_("purpose_unmortgage"), f"Lifting the mortgage on {name}"),
        }
        if option_id == "build_price":
            return t.ask_number(Msg("keypad_price", {}, "Auction price"), BuildPrice(player, square), player=player,
                                purpose=Msg("purpose_build", {"deed": name}, f"Building on {name}"), square=square)
        op, code, english = ops[option_id]
        if option_id == "sell_whole":
            return t.ask_confirm(op, Msg(code, {"deed": name}, english), confirm_by=(player,))
        t.commit_or_confirm(op, Msg(code, {"deed": name}, english), (player,))

    def player_options(self, t: Table, player: str) -> list[Option]:
        """The most used first (they fill the first page; F1 stays the GO salary); in debt, the ways to raise money
        and bankruptcy first, and no payment by choice."""
        in_debt = t.in_debt(player)
        state = t.bank.current
        income, luxury = tax_squares(t.bank.edition)

        def opt(option_id: str, english: str, enabled: bool = True) -> Option:
            return Option(option_id, Msg(OPTIONS[option_id], {}, english), enabled=enabled)

        def amount_opt(option_id: str, english: str, op: Operation) -> Option:
            return amount_option(t, option_id, Msg(OPTIONS[option_id], {}, english), op, player)
        income_tax = (opt("income_tax", "Income tax") if t.bank.config.rules.get("income_tax_percent")
                      else amount_opt("income_tax", "Income tax", PayTax(player, income)))
        options = [amount_opt("pass_go", "GO salary", PassGo(player)),
                   opt("transfer", "Pay an amount", enabled=not in_debt),
                   opt("chance", "Chance card"), opt("community_chest", "Community Chest card"), income_tax,
                   amount_opt("luxury_tax", "Luxury tax", PayTax(player, luxury)),
                   amount_opt("jail_fine", "Jail fine", JailFine(player)),
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

    def player_chosen(self, t: Table, player: str, option_id: str) -> bool:
        """This board's own options: a Chance or Community Chest card, the taxes, a Get Out of Jail Free card, a
        trade, repairs."""
        edition = t.bank.edition
        income, luxury = tax_squares(edition)
        if option_id in ("chance", "community_chest"):
            pick_deck_card(t, player, option_id)
        elif option_id == "income_tax":
            self._income_tax(t, player, income)
        elif option_id == "luxury_tax":  # the button names the amount: it commits
            t.commit_or_confirm(PayTax(player, luxury), _tax_purpose(edition, luxury), (player,))
        elif option_id == "use_jail_card":
            # Which deck's card, asked only when the player holds both (they know which one they hand back).
            held = t.bank.current.jail_cards_of(player)
            if len(held) == 1:
                JailDeck(player).chosen(t, held[0])
            else:
                t.ask_choice(Msg("purpose_use_jail_card", {}, "Leaving jail with the card"),
                             [Option(d, Msg(OPTIONS[d], {}, d)) for d in held], JailDeck(player))
        elif option_id == "trade":
            t.ask_choice(Msg("choose_partner", {}, "With whom? Tap their card"), [], Partner(player))
        elif option_id == "repairs":
            t.ask_number(Msg("keypad_per_house", {}, "Price per house"), RepairsPerHouse(player), player=player,
                         purpose=Msg("purpose_repairs", {}, "Repairs"))
        else:
            return False
        return True

    @staticmethod
    def _income_tax(t: Table, player: str, square: int) -> None:
        """The income tax: the button names it and commits; with the 10 % rule, the two ways to pay, each naming
        its amount (RULES.md, Taxes)."""
        op = PayTax(player, square)
        purpose = _tax_purpose(t.bank.edition, square)
        if not t.bank.config.rules.get("income_tax_percent"):
            return t.commit_or_confirm(op, purpose, (player,))
        options = []
        for choice in ("flat", "percent"):
            try:
                amount = t.preview(PayTax(player, square, choice)).paid(player, "bank")
            except GameError:
                amount = 0
            options.append(Option(choice, Msg(OPTIONS[choice], {"amount": t.fmt(amount)}, choice)))
        t.ask_choice(purpose, options, TaxChoice(player, square))

    def reasons(self, t: Table, preview: Preview) -> tuple[Msg, ...]:
        """Why a computed amount is what it is: the rent's reason (the rules'), the 10 % interest of a mortgage, a
        price set by a building auction (housing shortage), the 10 % income tax, the interest on mortgaged deeds
        traded."""
        op = preview.operation
        edition = t.bank.edition
        square = getattr(op, "square", None)
        deed = edition.squares[square] if isinstance(square, int) and 0 <= square < len(edition.squares) else None
        rounding = t.bank.config.rounding
        if isinstance(op, Unmortgage) and deed is not None:
            return (Msg("why_unmortgage", {"value": t.fmt(deed.mortgage),
                                           "interest": t.fmt(ten_percent(deed.mortgage, rounding))},
                        "mortgage value + 10 % interest"),)
        if isinstance(op, PayRent):
            why = rent_why(preview.rent)
            return (why,) if why is not None else ()
        if isinstance(op, Build) and op.price is not None:
            return (Msg("why_shortage_price", {"price": t.fmt(op.price)},
                        "price set at a building auction (housing shortage)"),)
        if isinstance(op, Repairs):  # "6 houses × 25 € + 1 hotel × 100 €"
            houses, hotels = 0, 0
            for sq in t.bank.current.deeds_of(op.player):
                level = t.bank.current.level.get(sq, 0)
                houses, hotels = (houses, hotels + 1) if level == HOTEL else (houses + level, hotels)
            return (Msg("why_repairs", {"houses": houses, "per_house": t.fmt(op.per_house), "hotels": hotels,
                                        "per_hotel": t.fmt(op.per_hotel)},
                        f"{houses} house(s) × {op.per_house} + {hotels} hotel(s) × {op.per_hotel}"),)
        if isinstance(op, PayTax) and op.choice == "percent":
            return (Msg("why_percent_tax", {"player": op.player}, "10 % of worth"),)
        if isinstance(op, Trade):
            lines = []
            lifted = set(op.lift_now or ())
            for side, taker in ((op.a_gives, op.b), (op.b_gives, op.a)):
                for s in side.squares or ():
                    if t.bank.current.mortgaged.get(s):
                        d = edition.squares[s]
                        interest = ten_percent(d.mortgage, rounding)
                        if s in lifted:
                            lines.append(Msg("why_trade_lifted", {"player": taker, "deed": d.name,
                                                                  "amount": t.fmt(interest + d.mortgage)}, d.name))
                        else:
                            lines.append(Msg("why_trade_interest", {"player": taker, "deed": d.name,
                                                                    "amount": t.fmt(interest)}, d.name))
            return tuple(lines)
        return ()

    def confirm_shows_deed(self, pending: Pending) -> bool:
        return True

    def game_mode(self, mode: str) -> str:
        """``mode`` (``classic`` when it was another board's own)."""
        return mode if mode in MODES else MODES[0]

    def flag_option(self, flag: str, value: object) -> Option:
        assert flag in RULE_FLAGS, f"{flag} is not a rule flag of the classic board"
        return Option(f"flag:{flag}", Msg("opt_flag", {"flag": flag, "value": value}, f"{flag}: {value}"))


# -- what a list or a keypad opened by this board's options does next ---------------------------------------------
@dataclass(frozen=True)
class TaxChoice(ChoiceNext):
    """The income tax on ``square``: flat or 10 % of worth (each choice names its amount: it commits)."""

    player: str
    square: int

    def chosen(self, t: Table, option_id: str) -> None:
        t.commit_or_confirm(PayTax(self.player, self.square, option_id), _tax_purpose(t.bank.edition, self.square),
                            (self.player,))


@dataclass(frozen=True)
class JailDeck(ChoiceNext):
    """Which deck's Get Out of Jail Free card ``player`` uses."""

    player: str

    def chosen(self, t: Table, option_id: str) -> None:
        purpose = Msg("purpose_use_jail_card", {}, "Leaving jail with the card")
        t.ask_confirm(UseJailCard(self.player, option_id), purpose, confirm_by=(self.player,))


@dataclass(frozen=True)
class RepairsPerHouse(KeypadNext):
    """The repairs' price per house, typed; the price per hotel is asked next."""

    player: str

    def entered(self, t: Table, keypad: Any, value: int) -> None:
        t.ask_number(Msg("keypad_per_hotel", {}, "Price per hotel"), RepairsPerHotel(self.player, value),
                     player=self.player, purpose=keypad.purpose)


@dataclass(frozen=True)
class RepairsPerHotel(KeypadNext):
    """The repairs' price per hotel, typed after ``per_house``: the repairs are shown to confirm."""

    player: str
    per_house: int

    def entered(self, t: Table, keypad: Any, value: int) -> None:
        t.ask_confirm(Repairs(self.player, self.per_house, value), Msg("purpose_repairs", {}, "Repairs"),
                      confirm_by=(self.player,))

