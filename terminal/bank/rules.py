"""Pure rule computations of the classic board: rent, taxes, what may be built, sold or mortgaged, what a player
could still raise.

Nothing here changes a state: each function answers from the state it is given; the engine
(terminal/bank/engine.py) records what follows. Sources: RULES.md sections "Title deeds", "Money in and out",
"Buildings", "Mortgages", "Debts and bankruptcy".
"""
from __future__ import annotations

from dataclasses import dataclass

from cards.editions import INCOME_TAX_SQUARE, LUXURY_TAX_SQUARE, Edition, Square, join_localized
from terminal.bank.money import half, ten_percent
from terminal.bank.state import HOTEL, State
from terminal.bank.types import GameConfig, Rent
from terminal.errors import RuleViolation

RENT_CARDS = ("nearest_railroad", "nearest_utility")


def square_name(edition: Edition, square: object) -> str:
    """The name of ``square`` in ``edition`` for a message (``deed`` param), or ``repr(square)`` when there is
    no such square."""
    return (edition.squares[square].name if isinstance(square, int) and 0 <= square < len(edition.squares)
            else repr(square))


def _names(names: list[str]) -> str:
    """A list of deed names as one message param (``missing_names``, ``built_names``...); the joined names stay
    translatable (:func:`cards.editions.join_localized`)."""
    return join_localized(", ", names)


def holds_whole_group(state: State, config: GameConfig, owner: str, deed: Square) -> bool:
    return all(state.owner.get(s) == owner for s in config.edition.group_of(deed.index))


def rent_of(state: State, config: GameConfig, owner: str, deed: Square, dice: int | None = None,
            card: str | None = None) -> Rent:
    """The rent of ``deed``, held by ``owner`` and not mortgaged, on the classic board, and why
    (:class:`~terminal.bank.types.Rent`, its ``reason`` one of :data:`~terminal.bank.types.RENT_REASONS`). Who may
    be charged it is :meth:`terminal.bank.board.Board.rent_due`'s question.

    - Street: printed rent for its houses or hotel; a bare street of a colour group one owner holds entirely
      pays double, except that (flag ``double_rent_with_mortgaged_street`` off) the double is lost while any
      street of the group is mortgaged.
    - Railroad: 25/50/100/200 for 1-4 railroads held (mortgaged ones count); card ``nearest_railroad``: x2.
    - Utility: 4 x dice with one utility held, 10 x with both; card ``nearest_utility``: 10 x dice whatever
      the owner holds. ``dice`` (2-12) is required for utilities and refused elsewhere.
    Raises RuleViolation for a card on the wrong kind of deed, dice missing or out of range.
    """
    if card is not None and card not in RENT_CARDS:
        raise RuleViolation(f"Unknown rent card {card!r}: 'nearest_railroad' or 'nearest_utility'.",
                            code="unknown_rent_card",
                            params={"card": card, "square": deed.index, "deed": deed.name})
    expected_card_kind = {"nearest_railroad": "railroad", "nearest_utility": "utility"}.get(card or "")
    if card is not None and expected_card_kind and deed.kind != expected_card_kind:
        raise RuleViolation(f"The {card.replace('_', ' ')} card sends the player to a {expected_card_kind}, "
                            f"not to {deed.name}.", code="rent_card_wrong_deed",
                            params={"card": card, "square": deed.index, "deed": deed.name,
                                    "card_code": {"nearest_railroad": "part_nearest_railroad",
                                                  "nearest_utility": "part_nearest_utility"}[card]})
    if deed.kind == "utility":
        if dice is None:
            raise RuleViolation(f"Rent on {deed.name} depends on the dice: give the dice total (2 to 12).",
                                code="rent_needs_dice", params={"square": deed.index, "deed": deed.name})
        if not isinstance(dice, int) or isinstance(dice, bool) or not 2 <= dice <= 12:
            raise RuleViolation(f"A dice total is 2 to 12, not {dice!r}.", code="dice_out_of_range",
                                params={"dice": dice, "square": deed.index, "deed": deed.name})
        if card == "nearest_utility":
            multiplier = deed.rents[-1]
        else:
            held = sum(1 for s in config.edition.group_of(deed.index) if state.owner.get(s) == owner)
            multiplier = deed.rents[held - 1]
        # Dice multipliers are not amounts: a scaled edition (francs x 100) scales the dice rent.
        return Rent(multiplier * dice * config.edition.scale, owner, "dice", {"times": multiplier, "dice": dice})
    if dice is not None:
        raise RuleViolation(f"Rent on {deed.name} does not depend on the dice; leave the dice out.",
                            code="rent_no_dice", params={"square": deed.index, "deed": deed.name})
    if deed.kind == "railroad":
        held = sum(1 for s in config.edition.group_of(deed.index) if state.owner.get(s) == owner)
        rent = deed.rents[held - 1]
        if card == "nearest_railroad":
            return Rent(rent * 2, owner, "railroad_card", {"n": held})
        return Rent(rent, owner, "railroads", {"n": held})
    level = state.level.get(deed.index, 0)
    if level == HOTEL:
        return Rent(deed.rents[5], owner, "hotel")
    if level:
        return Rent(deed.rents[level], owner, "houses", {"n": level})
    group = config.edition.group_of(deed.index)
    if holds_whole_group(state, config, owner, deed):
        any_mortgaged = any(state.mortgaged.get(s) for s in group)
        if not any_mortgaged or config.rules.get("double_rent_with_mortgaged_street"):
            return Rent(deed.rents[0] * 2, owner, "group")
    return Rent(deed.rents[0], owner, "bare")


def tax_due(state: State, config: GameConfig, player: str, square: int, choice: str | None) -> int:
    """The tax for the income tax square or the luxury tax square (:data:`cards.editions.INCOME_TAX_SQUARE`, 4, and
    :data:`cards.editions.LUXURY_TAX_SQUARE`, 38): the edition's :attr:`~cards.editions.Edition.income_tax` and
    :attr:`~cards.editions.Edition.luxury_tax`.

    With ``income_tax_percent`` on, the income tax takes ``choice``: ``flat`` (the printed amount) or ``percent``:
    10 % of the player's total worth = cash + printed price of every deed held, mortgaged or not + the cost
    of their buildings (RULES.md, Money in and out), rounded per ``interest_rounding``. Our reading: a
    hotel's cost includes the houses given for it, as in the worth of RULES.md, End of the game.
    """
    edition = config.edition
    if square not in (INCOME_TAX_SQUARE, LUXURY_TAX_SQUARE):
        name = square_name(edition, square)
        raise RuleViolation(f"{name} is not a tax square (income tax is square {INCOME_TAX_SQUARE}, luxury tax "
                            f"{LUXURY_TAX_SQUARE}).", code="not_a_tax", params={"square": square, "deed": name})
    if choice is not None:
        if square != INCOME_TAX_SQUARE or not config.rules.get("income_tax_percent"):
            raise RuleViolation("Only the income tax, with the 10 % rule on, offers a choice.",
                                code="tax_no_choice",
                                params={"square": square, "deed": edition.squares[square].name})
        if choice not in ("flat", "percent"):
            raise RuleViolation(f"The income tax choice is 'flat' or 'percent', not {choice!r}.",
                                code="tax_bad_choice",
                                params={"choice": choice, "square": square, "deed": edition.squares[square].name})
    if choice == "percent":
        total = state.cash[player]
        for s in state.deeds_of(player):
            deed = edition.squares[s]
            level = state.level.get(s, 0)
            total += deed.price + deed.house_cost * (config.houses_before_hotel + 1 if level == HOTEL else level)
        return ten_percent(total, config.rounding)
    return edition.income_tax if square == INCOME_TAX_SQUARE else edition.luxury_tax


def group_levels(state: State, config: GameConfig, deed: Square) -> dict[int, int]:
    return {s: state.level.get(s, 0) for s in config.edition.group_of(deed.index)}


def check_build(state: State, config: GameConfig, deed: Square) -> tuple[int, int]:
    """Whether the next building may go on ``deed`` (held by its owner): returns ``(cost, new_level)``.

    Rules (RULES.md, Buildings): a street; the whole colour group held, none of it mortgaged; build evenly
    (this street has no more buildings than any other of the group); 4 houses (3 in the quick game) then a
    hotel; one hotel per street; the Bank's supply of 32 houses and 12 hotels. Raises RuleViolation.
    """
    owner = state.owner.get(deed.index)
    name = deed.name
    if deed.kind != "street":
        raise RuleViolation(f"Nothing can be built on {name}: only streets take houses.",
                            code="build_not_street", params={"square": deed.index, "deed": name})
    group = config.edition.group_of(deed.index)
    missing = [config.edition.squares[s].name for s in group if state.owner.get(s) != owner]
    if missing:
        raise RuleViolation(f"Can't build on {name}: {owner} must hold the whole colour group "
                            f"({', '.join(missing)} missing).", code="build_group_incomplete",
                            params={"square": deed.index, "deed": name, "owner": owner, "missing": missing,
                                    "missing_names": _names(missing)})
    mortgaged = [config.edition.squares[s].name for s in group if state.mortgaged.get(s)]
    if mortgaged:
        raise RuleViolation(f"Can't build on {name}: {', '.join(mortgaged)} is mortgaged; lift the mortgage "
                            f"first.", code="build_group_mortgaged",
                            params={"square": deed.index, "deed": name, "mortgaged": mortgaged,
                                    "mortgaged_names": _names(mortgaged)})
    levels = group_levels(state, config, deed)
    level = levels[deed.index]
    if level == HOTEL:
        raise RuleViolation(f"{name} already has a hotel: one hotel per street.", code="build_max",
                            params={"square": deed.index, "deed": name})
    lowest = min(levels.values())
    if level > lowest:
        behind = [config.edition.squares[s].name for s, lv in levels.items() if lv == lowest]
        raise RuleViolation(
            f"Can't build on {name}: build evenly, {', '.join(behind)} "
            f"{'has' if len(behind) == 1 else 'have'} {_describe(lowest)} yet.",
            code="build_uneven",
            params={"square": deed.index, "deed": name, "behind": behind, "behind_names": _names(behind),
                    "lowest": lowest,
                    "lowest_code": ("part_level_0", "part_level_1", "part_level_2", "part_level_3", "part_level_4",
                                    "part_level_5")[lowest]})
    hbh = config.houses_before_hotel
    if level < hbh:
        if state.bank["houses"] < 1:
            raise RuleViolation("The Bank has no house left: wait until some are sold back.",
                                code="no_houses_left", params={"square": deed.index, "deed": name})
        return deed.house_cost, level + 1
    if state.bank["hotels"] < 1:
        raise RuleViolation("The Bank has no hotel left: wait until one is sold back.", code="no_hotels_left",
                            params={"square": deed.index, "deed": name})
    return deed.house_cost, HOTEL


def _describe(level: int) -> str:
    return "no house" if level == 0 else ("a hotel" if level == HOTEL else f"only {level} house(s)")


@dataclass
class SalePlan:
    levels: dict[int, int]
    houses_back: int
    hotels_back: int
    refund: int


def plan_sale(state: State, config: GameConfig, deed: Square, whole: bool) -> SalePlan:
    """What selling a building on ``deed`` does (RULES.md, Buildings).

    - A house: one step back, evenly (this street must have as many buildings as any other of the group);
      the Bank pays half the house cost.
    - A hotel: becomes 4 houses (3 in the quick game) if the Bank has them, the Bank paying half the hotel
      price; otherwise, or with ``whole``, every building of the colour group is sold, each at half its cost
      (a hotel: half its price plus half the houses given for it), leaving the group bare.
    Raises RuleViolation when there is nothing to sell or the sale would be uneven.
    """
    levels = group_levels(state, config, deed)
    level = levels[deed.index]
    hbh = config.houses_before_hotel
    if level == 0:
        raise RuleViolation(f"There is no building on {deed.name} to sell.", code="sell_nothing",
                            params={"square": deed.index, "deed": deed.name})
    cost = deed.house_cost
    if whole or (level == HOTEL and state.bank["houses"] < hbh):
        houses = sum(lv for lv in levels.values() if lv != HOTEL)
        hotels = sum(1 for lv in levels.values() if lv == HOTEL)
        refund = sum(half(cost * (hbh + 1)) if lv == HOTEL else half(cost * lv) for lv in levels.values())
        return SalePlan(dict.fromkeys(levels, 0), houses, hotels, refund)
    highest = max(levels.values())
    if level < highest:
        ahead = [config.edition.squares[s].name for s, lv in levels.items() if lv == highest]
        raise RuleViolation(f"Sell evenly: sell from {', '.join(ahead)} first.", code="sell_uneven",
                            params={"square": deed.index, "deed": deed.name, "ahead": ahead,
                                    "ahead_names": _names(ahead)})
    if level == HOTEL:
        return SalePlan({deed.index: hbh}, -hbh, 1, half(cost))
    return SalePlan({deed.index: level - 1}, 1, 0, half(cost))


def check_mortgage(state: State, config: GameConfig, deed: Square) -> None:
    """A deed may be mortgaged when it is not already and no street of its colour group has a building
    (docs/RULES.md, Mortgages: the whole group)."""
    if state.mortgaged.get(deed.index):
        raise RuleViolation(f"{deed.name} is already mortgaged.", code="already_mortgaged",
                            params={"square": deed.index, "deed": deed.name})
    built = [config.edition.squares[s].name for s in config.edition.group_of(deed.index) if state.level.get(s)]
    if built:
        raise RuleViolation(f"Can't mortgage {deed.name}: sell the buildings on {', '.join(built)} first.",
                            code="mortgage_group_built",
                            params={"square": deed.index, "deed": deed.name, "built": built,
                                    "built_names": _names(built)})


def check_tradable(state: State, config: GameConfig, deed: Square) -> None:
    """Deeds are traded only from a colour group with no buildings (RULES.md, Title deeds, Trading)."""
    built = [config.edition.squares[s].name for s in config.edition.group_of(deed.index) if state.level.get(s)]
    if built:
        raise RuleViolation(f"Can't trade {deed.name}: its colour group has buildings "
                            f"({', '.join(built)}); sell them to the Bank first.", code="trade_group_built",
                            params={"square": deed.index, "deed": deed.name, "built": built,
                                    "built_names": _names(built)})


def raisable(state: State, config: GameConfig, player: str) -> int:
    """The cash a player could still get from the Bank: half the cost of their buildings plus the mortgage
    value of their unmortgaged deeds (RULES.md, Debts and bankruptcy)."""
    total = 0
    hbh = config.houses_before_hotel
    for s in state.deeds_of(player):
        deed = config.edition.squares[s]
        level = state.level.get(s, 0)
        if level:
            total += half(deed.house_cost * (hbh + 1)) if level == HOTEL else half(deed.house_cost * level)
        if not state.mortgaged.get(s):
            total += deed.mortgage
    return total
