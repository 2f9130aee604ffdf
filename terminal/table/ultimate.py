"""What the table does on the electronic board (the "Ultimate Banking" edition, ``Edition.board == "ultimate"``):
:class:`UltimateBoard`, its :class:`~terminal.table.screens.base.Board`. Its own screens are the Event cards'
(:mod:`terminal.table.screens.event`) and the Location squares' (:mod:`terminal.table.screens.location`).

On this board:

- A deed, then a player's card: the buyer's card buys it at the price shown (or Decline: auction), the payer's
  card pays the rent of its level (then its level rises), the owner's card raises its level. The deed screen
  shows the level and the five rents.
- A property's sticker (``cards.registry.PropertyCard``, ``property N``) names its property. The classic board's
  deed stickers serve too: a street's sticker stands for the property of the same rank on this board (its 22
  properties are the classic board's 22 streets, colour for colour and in order: :func:`property_of_sticker`); a
  railroad's or a utility's sticker is no property here.
- An Event card, a Location square: their own screens. Jail: the player's card, then the jail fee (one touch:
  the button names it). Bankruptcy ends the game (``declare_bankruptcy``, as on the classic board); the end
  screen ranks everyone by worth.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping

from cards.editions import Edition, load_edition
from cards.registry import DeedCard, PropertyCard, Role, deed_squares
from terminal.bank.door import Preview
from terminal.bank.operations import JailFine, Operation, PassGo, PayRent, RaiseLevel, SellProperty
from terminal.bank.ultimate import ULTIMATE, level, slump_of
from terminal.errors import GameError
from terminal.table.i18n import N_
from terminal.table.screens.base import EventTap, PlayerTap, Table
from terminal.table.screens.deeds import rent, rent_shown, rent_why
from terminal.table.screens.event import EventScreen, event_tapped
from terminal.table.screens.location import LocationScreen
from terminal.table.screens.player import amount_option
from terminal.table.view import DeedView, Msg, Option, Pending
from terminal.table.words import account_msg

#: This board's rule flags in the new-game wizard, and their values (docs/RULES.md).
FLAG_NAMES: Mapping[str, str] = {
    "group_rent": N_("flag_group_rent"), "neighbours": N_("flag_neighbours"),
    "location_landing": N_("flag_location_landing"), "jail_fee": N_("flag_jail_fee"),
    "charge_beyond_cash": N_("flag_charge_beyond_cash")}
FLAG_VALUES: Mapping[str, str] = {
    "single": N_("flag_value_single"), "double": N_("flag_value_double"), "wrap": N_("flag_value_wrap"),
    "no_wrap": N_("flag_value_no_wrap"), "land": N_("flag_value_land"), "buy_or_raise": N_("flag_value_buy_or_raise"),
    "sell_to_bank": N_("flag_value_sell_to_bank"), "bankrupt": N_("flag_value_bankrupt")}
#: The label of each of the player's options on this board, by option id.
OPTION_LABELS: Mapping[str, str] = {
    "pass_go": N_("opt_pass_go"), "event": N_("opt_event"), "location": N_("opt_location"),
    "jail_fine": N_("opt_jail_fine"), "transfer": N_("opt_transfer"), "my_deeds": N_("opt_my_properties"),
    "any_deed": N_("opt_any_deed"), "pay_bank": N_("opt_pay_bank"), "bank_pays": N_("opt_bank_pays"),
    "free_parking": N_("opt_free_parking"), "pay_each_player": N_("opt_pay_each_player"),
    "collect_from_each_player": N_("opt_collect_from_each_player"), "bankruptcy": N_("opt_bankruptcy")}

def property_square(edition: Edition, number: int) -> int | None:
    """The square of property ``number`` (1-22, in board order) of the electronic board (None when no such)."""
    properties = [s.index for s in edition.squares if s.kind == "street"]
    return properties[number - 1] if 1 <= number <= len(properties) else None


@functools.cache
def _classic_streets() -> tuple[int, ...]:
    """The classic board's 22 street squares, in board order (their deed stickers)."""
    classic = load_edition("us")
    return tuple(s for s in sorted(deed_squares()) if classic.squares[s].kind == "street")


def property_of_sticker(edition: Edition, square: int) -> int | None:
    """The square of this board's property a deed sticker (enrolled on the classic board's ``square``) stands
    for: the street of the same rank (None for a railroad, a utility, or a square that is no street)."""
    streets = _classic_streets()
    if square not in streets:
        return None
    rank = streets.index(square)
    properties = [s.index for s in edition.squares if s.kind == "street"]
    return properties[rank] if rank < len(properties) else None


def sticker_of_property(edition: Edition, square: int) -> int | None:
    """The classic square whose deed sticker stands for this board's property on ``square`` (the inverse of
    :func:`property_of_sticker`)."""
    properties = [s.index for s in edition.squares if s.kind == "street"]
    if square not in properties:
        return None
    streets = _classic_streets()
    rank = properties.index(square)
    return streets[rank] if rank < len(streets) else None


def _raise_level(t: Table, square: int, player: str, uid: str | None = None, confirm: bool = False) -> None:
    """The owner's card on their own property: its level rises by one (one touch: the deed screen said so;
    ``confirm``: reached from a list, so confirmed)."""
    name = t.deed_name(square)
    op = RaiseLevel(player, square)
    purpose = Msg("purpose_raise_level", {"deed": name}, f"Raising the level of {name}")
    if confirm:
        return t.ask_confirm(op, purpose, confirm_by=(player,))
    t.commit_or_confirm(op, purpose, (player,), uid=uid)


class UltimateBoard:
    """The electronic board's answers (see :class:`~terminal.table.screens.base.Board` and the module docstring)."""

    name = "ultimate"
    has_buildings = False

    def sticker(self, edition: Edition, role: Role) -> int | Msg:
        """A property's sticker, or a classic street's standing for the property of the same rank."""
        square = None
        if isinstance(role, DeedCard):
            square = property_of_sticker(edition, role.square)
        elif isinstance(role, PropertyCard):
            square = property_square(edition, role.number)
        if square is None:
            return Msg("not_a_property_here", {}, "This deed is not a property of this board.")
        return square

    def event_card(self, t: Table, tapped: EventTap) -> None:
        event_tapped(t, tapped)

    def deed_view(self, t: Table, square: int, payer: str | None = None) -> DeedView:
        """A property as drawn: its level (1-5; 0 while the Bank holds it), its five rents, the rent due now."""
        state = t.bank.current
        deed = t.bank.edition.squares[square]
        owner = state.owner.get(square)
        shown = None
        other = payer if payer and payer != owner else next((p for p in state.active_players() if p != owner), None)
        if owner and other:
            try:
                shown = t.bank.rent(other, square).amount
            except GameError:
                shown = None
        return DeedView(square=square, name=deed.name, kind=deed.kind, group=deed.group or "", price=deed.price,
                        mortgage_value=0, house_cost=0, rents=deed.rents, owner=owner, level=level(state, square),
                        mortgaged=False, rent=shown)

    def owned_deed_title(self, t: Table, square: int, owner: str, dice: int | None,
                         card: str | None) -> tuple[Msg, list[Option]]:
        """The payer's card pays the rent of its level, the owner's card raises the level."""
        shown = rent_shown(t, square, owner, None, None)
        why = rent_why(shown)
        if shown is None or why is None:
            return Msg("deed_tap_player", {}, "Tap the player's card"), []
        return Msg("deed_own_raise", {"rent": t.fmt(shown.amount), "why": why},
                   f"Rent {shown.amount} ({why.english}): the payer taps their card; the owner raises the level"), []

    def owner_tapped(self, t: Table, square: int, tapped: PlayerTap) -> None:
        """The owner's card raises the level (the deed screen said so)."""
        _raise_level(t, square, tapped.player, uid=tapped.uid)

    def payer_tapped(self, t: Table, square: int, tapped: PlayerTap, dice: int | None, card: str | None) -> None:
        """The rent shown commits; a payer whose rent is not the one shown (their market slump) confirms it, the
        amount on screen."""
        if self._rent_differs(t, tapped.player, square):
            return rent(t, tapped.player, square, now=False)
        rent(t, tapped.player, square, dice=dice, card=card, uid=tapped.uid)

    @staticmethod
    def _rent_differs(t: Table, payer: str, square: int) -> bool:
        owner = t.bank.current.owner.get(square)
        if owner is None or owner == payer:
            return False
        try:
            shown = rent_shown(t, square, owner, None, None)
            return shown is None or t.bank.rent(payer, square).amount != shown.amount
        except GameError:
            return False

    def own_deed_options(self, t: Table, square: int, player: str) -> list[Option]:
        """Raise its level (landed on it), or sell it back to the Bank at its price (to pay a debt)."""
        price = t.fmt(t.bank.edition.squares[square].price)
        return [Option("raise_level", Msg("opt_raise_level", {}, "Landed here: raise the level")),
                Option("sell_property", Msg("opt_sell_property", {"price": price}, f"Sell to the Bank {price}"))]

    def own_deed_chosen(self, t: Table, square: int, player: str, option_id: str) -> None:
        name = t.deed_name(square)
        if option_id == "raise_level":
            return _raise_level(t, square, player, confirm=True)
        if option_id == "sell_property":
            return t.ask_confirm(SellProperty(player, square),
                                 Msg("purpose_sell_property", {"deed": name}, f"Selling {name} to the Bank"),
                                 confirm_by=(player,))
        t.refuse_needs()

    def player_options(self, t: Table, player: str) -> list[Option]:
        """GO salary, an Event card, a Location, the jail fee (each naming its amount where it has one), a payment,
        the properties, the banker's adjustments, bankruptcy (in debt only). No Free Parking jackpot and no payment
        to or from each player: no card or square of this board asks for them (a game of rules version 1 keeps
        them)."""
        in_debt = t.in_debt(player)
        fee = t.bank.edition.location_fee

        def opt(option_id: str, english: str, enabled: bool = True) -> Option:
            return Option(option_id, Msg(OPTION_LABELS[option_id], {}, english), enabled=enabled)

        def amount_opt(option_id: str, english: str, op: Operation) -> Option:
            return amount_option(t, option_id, Msg(OPTION_LABELS[option_id], {}, english), op, player)
        location = Option("location", Msg("opt_amount", {"what": Msg(OPTION_LABELS["location"], {}, "Location"),
                                                         "amount": "−" + t.fmt(fee)}, "Location"))
        options = [amount_opt("pass_go", "GO salary", PassGo(player)),
                   opt("event", "Event card"), location,
                   amount_opt("jail_fine", "Jail fine", JailFine(player)),
                   opt("transfer", "Pay an amount", enabled=not in_debt),
                   opt("my_deeds", "My properties"),
                   opt("any_deed", "Pick a title deed"), opt("pay_bank", "Pay the Bank"),
                   opt("bank_pays", "Receive from the Bank")]
        if t.bank.config.rules_version < 2:  # a game of the first rules: the classic card operations too
            options += [opt("free_parking", "Free Parking"), opt("pay_each_player", "Pay each player"),
                        opt("collect_from_each_player", "Collect from each player")]
        options.append(opt("bankruptcy", "Declare bankruptcy", enabled=in_debt))
        if in_debt:  # the ways to raise money and bankruptcy first
            options.sort(key=lambda o: o.id not in ("my_deeds", "bankruptcy"))
        return options

    def player_chosen(self, t: Table, player: str, option_id: str) -> bool:
        """An Event card, a Location square: their screens."""
        if option_id == "event":
            t.go(EventScreen(player=player))
            return True
        if option_id == "location":
            t.go(LocationScreen(player=player))
            return True
        return False

    def reasons(self, t: Table, preview: Preview) -> tuple[Msg, ...]:
        """The rent's level (the rules' reason), the levels that change, the properties that change hands."""
        op = preview.operation
        lines: list[Msg] = []
        why = rent_why(preview.rent) if isinstance(op, PayRent) else None
        if why is not None:
            lines.append(why)
        edition = t.bank.edition
        for section, key, before, after in preview.effects.changes:
            # a level that moves (a purchase sets level 1, a return to the Bank takes it: their own lines say so)
            if section == "level" and isinstance(key, int) and isinstance(before, int) and isinstance(after, int) \
                    and before != after:
                lines.append(Msg("lv_change", {"deed": edition.squares[key].name, "before": before, "after": after},
                                 f"{edition.squares[key].name}: level {before} → {after}"))
            elif section == "owner" and isinstance(key, int) and op.op != "buy" and before is not None:
                deed = edition.squares[key].name
                if after is None:
                    lines.append(Msg("lv_back_to_bank", {"deed": deed}, f"{deed} goes back to the Bank"))
                else:
                    lines.append(Msg("lv_owner", {"deed": deed, "owner": account_msg(str(after))}, deed))
        return tuple(lines)

    def confirm_shows_deed(self, pending: Pending) -> bool:
        """An Event's levels or owners are said by its lines: no card when no money moves."""
        return bool(pending.postings)

    def idle_notices(self, t: Table) -> tuple[Msg, ...]:
        """A market slump running (RULES.md, The Ultimate Banking board, Event cards): the next rent payments at
        the table, by anyone, at level 1; in a game of rules version 1, each player's own."""
        state = t.bank.current
        players = state.active_players()
        if t.bank.config.rules_version >= 2:
            left = max((slump_of(state, p) for p in players), default=0)
            if not left:
                return ()
            return (Msg("slump_running", {"n": left}, f"Market slump: next {left} rents at level 1"),)
        return tuple(Msg("slump_running_of", {"player": p, "n": n}, f"Market slump: {p}'s next {n} rents at level 1")
                     for p in players if (n := slump_of(state, p)))

    def game_mode(self, mode: str) -> str:
        """This board's own mode, whatever was chosen."""
        return ULTIMATE

    def flag_option(self, flag: str, value: object) -> Option:
        """A rule flag: its name and value in the reader's language."""
        if isinstance(value, int):  # the jail fee
            return Option(f"flag:{flag}", Msg("opt_flag_amount", {"flag_code": FLAG_NAMES[flag], "value": value},
                                              f"{flag}: {value}"))
        return Option(f"flag:{flag}", Msg("opt_flag_named", {"flag_code": FLAG_NAMES[flag],
                                                             "value_code": FLAG_VALUES[str(value)]},
                                          f"{flag}: {value}"))
