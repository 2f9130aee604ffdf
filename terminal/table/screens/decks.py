"""The Chance and Community Chest cards (the classic board): the player's card, the deck, then the card drawn,
picked on a list whose tiles show each card's amount. A card with a fixed amount commits on that touch; the
others ask what they need (did the token pass GO, which railroad, pay or draw, from which square a relative
move was drawn) or are confirmed.

A card that moves the token ends on its landing square handled as if the player had landed there
(:func:`land`): its deed (to buy, or its rent, with the card's multiplier where the card says so), its tax, the
deck of a Chance or Community Chest square; the GO salary first when the move passed GO. The terminal does not
know where the tokens are: a relative move ("Reculez de trois cases") asks from which square of its deck it was
drawn (the French Chance squares 7, 22 and 36 land on the income tax, Place Pigalle and a Community Chest
square)."""
from __future__ import annotations

from dataclasses import dataclass

from cards.editions import DeckCard, Edition
from terminal.bank.operations import (
    BankPays,
    CollectFromEachPlayer,
    FreeParking,
    GainJailCard,
    PassGo,
    PayBank,
    PayEachPlayer,
    PayTax,
    Repairs,
)
from terminal.table.i18n import OPTIONS
from terminal.table.screens.base import AfterCommit, ChoiceNext, Table
from terminal.table.screens.deeds import Dice, deed_with_player, rent
from terminal.table.view import Msg, Option

#: Chance and Community Chest cards with a fixed amount: their tile shows it and the touch on it commits.
FIXED_CARDS = ("collect", "pay", "pay_each_player", "collect_from_each_player", "advance_to_go")


def has_card(edition: Edition, action: str) -> bool:
    """Whether a deck of ``edition`` has a card of ``action`` (the French decks have no "nearest railroad" or
    "nearest utility" card: their rent screens do not offer that card's rule)."""
    return any(c.action == action for deck in edition.decks.values() for c in deck)


def pick_deck_card(t: Table, player: str, deck: str) -> None:
    """The list of ``deck``'s cards, each with the amount it moves."""
    cards = t.bank.edition.decks[deck]
    language = t.settings.language
    options = []
    for c in cards:
        text = c.text_in(language)
        amount = deck_amount(t, c)
        label = (Msg("deck_card_amount", {"text": text, "amount": amount}, f"{amount} · {text}") if amount
                 else Msg("deck_card", {"text": text}, text))
        options.append(Option(str(c.number), label))
    t.ask_choice(Msg(OPTIONS[deck], {}, deck), options, DeckPick(player, deck))


def deck_amount(t: Table, card: DeckCard) -> str:
    """A fixed amount a card moves, signed for the player who drew it ("+100 €", "−15 €"), or ""."""
    amount = card.params.get("amount")
    if card.action == "advance_to_go":
        amount = t.bank.edition.go_salary
    if not isinstance(amount, int) or card.action not in FIXED_CARDS:
        return ""
    sign = "+" if card.action in ("collect", "collect_from_each_player", "advance_to_go") else "−"
    each = card.action in ("pay_each_player", "collect_from_each_player")
    return f"{sign}{t.fmt(amount)}" + (" ×" if each else "")


def deck_card(t: Table, player: str, card: DeckCard) -> None:
    """The card ``player`` drew: what it does."""
    p = card.params
    said = card.text_in(t.settings.language)
    text = Msg("deck_card", {"text": said}, said)
    action = card.action
    # a card with a fixed amount: its tile showed the amount, the touch on it commits
    if action == "collect":
        return t.commit_or_confirm(BankPays(player, p["amount"]), text, (player,))
    if action == "pay":
        return t.commit_or_confirm(PayBank(player, p["amount"]), text, (player,))
    if action == "pay_each_player":
        return t.commit_or_confirm(PayEachPlayer(player, p["amount"]), text, (player,))
    if action == "collect_from_each_player":
        return t.commit_or_confirm(CollectFromEachPlayer(player, p["amount"]), text, (player,))
    if action == "repairs":
        return t.ask_confirm(Repairs(player, p["per_house"], p["per_hotel"]), text, (player,))
    if action == "jail_card":
        return t.commit_or_confirm(GainJailCard(player, card.deck), text, (player,))
    if action == "advance_to_go":
        return t.commit_or_confirm(PassGo(player), text, (player,))
    if action == "advance":
        passes = passes_go(t, card.deck, p["square"])
        if passes is not None:  # the same from every square of this deck: no question to ask
            return advance(t, player, p["square"], passes)
        return t.ask_choice(text, [Option("passed", Msg("opt_passed_go", {}, "Passed GO: salary")),
                               Option("not_passed", Msg("opt_not_passed_go", {}, "Did not pass GO"))],
                        Advance(player, p["square"]))
    if action in ("nearest_railroad", "nearest_utility"):
        kind = action.split("_")[1]
        squares = [s.index for s in t.bank.edition.deeds() if s.kind == kind]
        options = [Option(str(s), Msg("deed_context", {"deed": t.deed_name(s)}, t.deed_name(s))) for s in squares]
        return t.ask_choice(text, options, Nearest(player, action))
    if action == "move":
        return move(t, player, card)
    if action == "pay_or_draw":
        return t.ask_choice(text, [Option("pay", Msg("opt_pay_fine", {"amount": t.fmt(p["amount"])}, "Pay")),
                               Option("draw", Msg("opt_draw_chance", {}, "Draw a Chance card"))],
                        PayOrDraw(player, p["amount"], p.get("deck", "chance")))
    t.go_idle()
    t.say(Msg("nothing_to_pay", {}, "Nothing to pay for this card."))


def passes_go(t: Table, deck: str, target: int) -> bool | None:
    """Whether a card of ``deck`` moving the token forward to square ``target`` passes GO: True or False when the
    answer is the same from every square of the board where that deck is drawn, None when it depends on which
    one (then the player says). The terminal does not track tokens; the board does: moving forward from square
    ``origin`` to ``target`` passes GO exactly when ``target < origin`` (RULES.md, cards that advance: "salary if
    you pass GO"; e.g. the French Chance card "Rendez-vous rue de la Paix", square 39, never passes GO from the
    Chance squares 7, 22 and 36, so it asks nothing)."""
    origins = [s.index for s in t.bank.edition.squares if s.kind == deck]
    answers = {target < origin for origin in origins}
    return answers.pop() if len(answers) == 1 else None


def advance(t: Table, player: str, square: int, passed_go: bool) -> None:
    """An "advance to" card: the GO salary when the token passed it, then the landing square (:func:`land`)."""
    if passed_go:
        return t.ask_confirm(PassGo(player), Msg("purpose_pass_go", {}, "GO salary"), (player,),
                             then=Land(player, square))
    land(t, player, square)


def move(t: Table, player: str, card: DeckCard) -> None:
    """A card that moves the token: to a square (``square``; ``backwards``: no salary on the way), or by
    ``steps`` squares (negative: backwards), which asks from which square of the card's deck it was drawn. A
    forward move that passes GO pays the salary first (RULES.md: "200 each time a player passes or lands on GO,
    including when a card moves them there")."""
    p = card.params
    if "steps" not in p:
        square = int(p["square"])
        if p.get("backwards"):
            return land(t, player, square)
        passes = passes_go(t, card.deck, square)
        if passes is not None:
            return advance(t, player, square, passes)
        text = Msg("deck_card", {"text": card.text_in(t.settings.language)}, str(card.text_in("en")))
        return t.ask_choice(text, [Option("passed", Msg("opt_passed_go", {}, "Passed GO: salary")),
                                   Option("not_passed", Msg("opt_not_passed_go", {}, "Did not pass GO"))],
                            Advance(player, square))
    steps = int(p["steps"])
    size = len(t.bank.edition.squares)
    options = []
    for origin in (s.index for s in t.bank.edition.squares if s.kind == card.deck):
        landing = (origin + steps) % size
        name = square_name(t, landing)
        options.append(Option(str(origin), Msg("opt_drawn_on", {"square": origin, "landing": name},
                                               f"From square {origin}: lands on {name}")))
    t.ask_choice(Msg("ask_drawn_on", {"deck_code": OPTIONS[card.deck]},
                     "From which square was this card drawn?"), options, Moved(player, steps))


def square_name(t: Table, square: int) -> str:
    """A square's name as the edition prints it (a deed's, a tax's, Chance...)."""
    return str(t.bank.edition.squares[square].name)


def land(t: Table, player: str, square: int) -> None:
    """``player``'s token lands on ``square`` by a card: handled as if they had landed there. A deed: bought
    (the offer), their own, or its rent; a tax (the 10 % rule's two ways to pay, each naming its amount); a
    Chance or Community Chest square: that deck's
    list; GO: the salary; Free Parking under the jackpot rule: the pot. What costs money is confirmed: no touch
    named its amount. Elsewhere (jail as a visitor, Free
    Parking without the jackpot, Go to Jail: the token goes to jail, which costs nothing) the screen says there
    is nothing to pay on that square, naming it: never "nothing to pay" when something is owed."""
    edition = t.bank.edition
    kind = edition.squares[square].kind
    if edition.squares[square].is_deed:
        return deed_with_player(t, square, player)
    if kind == "tax":
        taxes = [s.index for s in edition.squares if s.kind == "tax"]
        if square == taxes[0] and t.bank.config.rules.get("income_tax_percent"):
            t.board.player_chosen(t, player, "income_tax")  # the two ways to pay, each naming its amount
            return None
        name = square_name(t, square)
        return t.ask_confirm(PayTax(player, square), Msg("purpose_pay_tax", {"tax": name}, name), (player,))
    if kind in ("chance", "community_chest"):
        return pick_deck_card(t, player, kind)
    if kind == "go":
        return t.ask_confirm(PassGo(player), Msg("purpose_pass_go", {}, "GO salary"), (player,))
    if kind == "free_parking" and t.bank.config.jackpot:
        return t.ask_confirm(FreeParking(player), Msg("purpose_free_parking", {}, "Free Parking"), (player,))
    t.go_idle()
    name = square_name(t, square)
    t.say(Msg("landed_nothing_to_pay", {"square": name}, f"{name}: nothing to pay there."))


def nearest(t: Table, player: str, square: int, action: str) -> None:
    """A "nearest railroad / utility" card landing on ``square``: bought as any deed, or its owner paid by the
    card's rule (twice the rent; ten times the dice, typed first)."""
    owner = t.bank.current.owner.get(square)
    if owner is None or owner == player:
        return deed_with_player(t, square, player)
    if action == "nearest_utility":
        name = t.deed_name(square)
        return t.ask_number(Msg("keypad_dice", {}, "Dice total"), Dice(player, square, action), kind="dice",
                            player=player, purpose=Msg("purpose_pay_rent", {"deed": name}, f"Rent on {name}"),
                            square=square)
    rent(t, player, square, card=action, now=False)


@dataclass(frozen=True)
class DeckPick(ChoiceNext):
    """A Chance or Community Chest card drawn by ``player``."""

    player: str
    deck: str

    def chosen(self, t: Table, option_id: str) -> None:
        deck_card(t, self.player, t.bank.edition.decks[self.deck][int(option_id) - 1])


@dataclass(frozen=True)
class Advance(ChoiceNext):
    """An "advance to" card: did ``player`` pass GO on the way to ``square``?"""

    player: str
    square: int

    def chosen(self, t: Table, option_id: str) -> None:
        advance(t, self.player, self.square, option_id == "passed")


@dataclass(frozen=True)
class Land(AfterCommit):
    """After the GO salary of a card's move: ``player``'s landing ``square`` (:func:`land`)."""

    player: str
    square: int

    def after(self, t: Table) -> None:
        land(t, self.player, self.square)


@dataclass(frozen=True)
class Moved(ChoiceNext):
    """A relative move of ``steps`` squares: the square of its deck it was drawn on (the option's id)."""

    player: str
    steps: int

    def chosen(self, t: Table, option_id: str) -> None:
        origin, size = int(option_id), len(t.bank.edition.squares)
        landing = origin + self.steps
        if landing >= size:  # forward past GO: the salary first
            return advance(t, self.player, landing % size, True)
        land(t, self.player, landing % size)


@dataclass(frozen=True)
class Nearest(ChoiceNext):
    """A "nearest railroad / utility" card: which one ``player`` lands on."""

    player: str
    action: str

    def chosen(self, t: Table, option_id: str) -> None:
        nearest(t, self.player, int(option_id), self.action)


@dataclass(frozen=True)
class PayOrDraw(ChoiceNext):
    """Pay a fine or draw a card of ``deck``."""

    player: str
    amount: int
    deck: str

    def chosen(self, t: Table, option_id: str) -> None:
        if option_id == "pay":
            text = Msg("purpose_pay_bank", {}, "Payment to the Bank")
            return t.ask_confirm(PayBank(self.player, self.amount), text, (self.player,))
        pick_deck_card(t, self.player, self.deck)
