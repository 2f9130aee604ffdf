"""What each screen of the state machine holds: one typed record per screen (the machine's ``dialog``), and
the typed records that say what a keypad or a list does next (no closures: the machine dispatches on them).

Each screen record names its screen (``screen``, a key of :data:`terminal.table.states.STATES`). A keypad
or a list opened from a trade or an auction keeps that screen's record in ``back`` and returns to it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, TypedDict

from cards.registry import Enrolment
from terminal.bank.auction import DeedAuction
from terminal.table.dialogs_ultimate import EventScreen as EventScreen  # the electronic board's screens
from terminal.table.dialogs_ultimate import EventTap as EventTap
from terminal.table.dialogs_ultimate import LocationScreen as LocationScreen
from terminal.table.view import Msg, Option, Pending


class Gives(TypedDict):
    """What one side of a trade gives: cash, deeds (squares) and Get Out of Jail Free cards."""

    cash: int
    squares: list[int]
    jail_cards: int


# -- what a card tap is ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PlayerTap:
    """A player's card, of a player in the game and not bankrupt."""

    player: str
    uid: str


@dataclass(frozen=True)
class DeedTap:
    """A title deed's sticker."""

    square: int
    uid: str


Tapped = PlayerTap | DeedTap


# -- what a keypad does with its number ----------------------------------------------------------------------
@dataclass(frozen=True)
class AmountOp:
    """An amount for ``op`` (pay_bank, bank_pays, pay_each_player, collect_from_each_player) by ``player``."""

    op: str
    player: str


@dataclass(frozen=True)
class TransferAmount:
    """The amount ``player`` pays someone; the payee is asked next."""

    player: str


@dataclass(frozen=True)
class RepairsPerHouse:
    player: str


@dataclass(frozen=True)
class RepairsPerHotel:
    player: str
    per_house: int


@dataclass(frozen=True)
class BuildPrice:
    """The price of a house bought at a building auction (housing shortage)."""

    player: str
    square: int


@dataclass(frozen=True)
class Dice:
    """The dice total for the rent on a utility."""

    player: str
    square: int
    card: str | None = None


@dataclass(frozen=True)
class DeedDice:
    """The dice total for the rent on a utility looked at (its deed card tapped): the payer's card follows."""

    square: int


@dataclass(frozen=True)
class Bid:
    """A bid in the auction the keypad was opened from."""

    player: str


@dataclass(frozen=True)
class TradeCash:
    """The cash ``giver`` gives in the trade the keypad was opened from."""

    giver: str


@dataclass(frozen=True)
class Adjust:
    """The banker's adjustment: the Bank gives (``give``) or takes an amount."""

    player: str
    give: bool


KeypadNext = (AmountOp | TransferAmount | RepairsPerHouse | RepairsPerHotel | BuildPrice | Dice | DeedDice | Bid
              | TradeCash | Adjust)


# -- what a list does with the choice (or the card tapped on it) ---------------------------------------------
@dataclass(frozen=True)
class TaxChoice:
    """Income tax: flat or 10 % of worth."""

    player: str


@dataclass(frozen=True)
class JailDeck:
    """Which deck's Get Out of Jail Free card ``player`` uses."""

    player: str


@dataclass(frozen=True)
class Payee:
    """Whom ``player`` pays ``amount``: the Bank (an option) or a player (their card)."""

    player: str
    amount: int


@dataclass(frozen=True)
class DeedPick:
    """A title deed, from the list or by its card: looked at (``player`` None) or in ``player``'s context."""

    player: str | None


@dataclass(frozen=True)
class DeckPick:
    """A Chance or Community Chest card drawn by ``player``."""

    player: str
    deck: str


@dataclass(frozen=True)
class Advance:
    """An "advance to" card: did ``player`` pass GO on the way to ``square``?"""

    player: str
    square: int


@dataclass(frozen=True)
class Nearest:
    """A "nearest railroad / utility" card: which one ``player`` lands on."""

    player: str
    action: str


@dataclass(frozen=True)
class PayOrDraw:
    """Pay a fine or draw a card of ``deck``."""

    player: str
    amount: int
    deck: str


@dataclass(frozen=True)
class Partner:
    """Whom ``player`` trades with (their card)."""

    player: str


@dataclass(frozen=True)
class AdjustPlayer:
    """Which player the banker's adjustment is for (a name on the list or their card)."""

    give: bool


ChoiceNext = TaxChoice | JailDeck | Payee | DeedPick | DeckPick | Advance | Nearest | PayOrDraw | Partner | AdjustPlayer


# -- the screens -------------------------------------------------------------------------------------------
@dataclass
class Idle:
    screen: ClassVar[str] = "idle"


@dataclass
class GameOver:
    screen: ClassVar[str] = "game_over"


@dataclass
class DeedScreen:
    """A deed looked at: the next player card says what it is for. ``card``: a rent card's rule chosen on
    screen (nearest railroad / utility); ``dice``: the dice typed for a utility's rent."""

    screen: ClassVar[str] = "deed"
    square: int
    card: str | None = None
    dice: int | None = None


@dataclass
class Offer:
    screen: ClassVar[str] = "offer"
    square: int
    player: str


@dataclass
class OwnDeed:
    screen: ClassVar[str] = "own_deed"
    square: int
    player: str


@dataclass
class PlayerScreen:
    screen: ClassVar[str] = "player"
    player: str


@dataclass
class RentAsk:
    """What a rent confirmation was asked with, to ask it again with a card's rule."""

    player: str
    square: int
    dice: int | None
    card: str | None


@dataclass
class Confirm:
    """A pending operation. ``double``: a second OK or tap is needed (second GO salary); ``card_only``: every
    party taps their card (``cards``: the players who have); ``rent``: set for a rent; ``back``: the trade
    or auction it closes (a timeout goes back to it instead of dropping it)."""

    screen: ClassVar[str] = "confirm"
    pending: Pending
    shown_at: float
    double: bool = False
    card_only: bool = False
    cards: set[str] = field(default_factory=set)
    rent: RentAsk | None = None
    back: Dialog | None = None


@dataclass
class Keypad:
    """The keypad: ``then`` says what the number is for; ``back`` is the screen to return to (a trade or an
    auction), else the flow goes on from ``then``."""

    screen: ClassVar[str] = "keypad"
    label: Msg
    then: KeypadNext
    kind: str = "amount"
    back: Dialog | None = None
    player: str | None = None
    purpose: Msg | None = None
    square: int | None = None
    buffer: str = ""


@dataclass
class Pin:
    screen: ClassVar[str] = "pin"
    buffer: str = ""


@dataclass
class Choice:
    screen: ClassVar[str] = "choose"
    title: Msg
    options: list[Option]
    then: ChoiceNext


@dataclass
class AuctionScreen:
    screen: ClassVar[str] = "auction"
    auction: DeedAuction
    square: int

    def set_up(self) -> bool:
        """Whether a bid was made (a timeout then asks before dropping the auction)."""
        return bool(self.auction.bids)


@dataclass
class TradeScreen:
    screen: ClassVar[str] = "trade"
    a: str
    b: str
    gives: dict[str, Gives]
    lift_now: list[int] = field(default_factory=list)

    def set_up(self) -> bool:
        """Whether anything was put in the trade yet (a timeout then asks before dropping it)."""
        return any(side["cash"] or side["squares"] or side["jail_cards"] for side in self.gives.values())


@dataclass
class BankruptcyScreen:
    """A bankruptcy to a player who receives mortgaged deeds: the creditor taps their card (``decided``),
    then chooses which mortgages to lift at once."""

    screen: ClassVar[str] = "bankruptcy"
    player: str
    creditor: str
    lift_options: list[int]
    lift_now: list[int] = field(default_factory=list)
    decided: bool = False


@dataclass
class Banker:
    screen: ClassVar[str] = "banker"


@dataclass
class History:
    screen: ClassVar[str] = "history"


@dataclass
class NewGame:
    screen: ClassVar[str] = "new_game"
    edition: str
    editions: list[str]
    minutes: int
    mode: str = "classic"
    rules: dict[str, Any] = field(default_factory=dict)
    seats: list[tuple[str, str]] = field(default_factory=list)
    editing: int | None = None  # the seat whose name is being typed on the on-screen keyboard
    typed: str = ""


@dataclass
class Enrol:
    screen: ClassVar[str] = "enrol"
    enrolment: Enrolment


@dataclass
class Damaged:
    """The game's file is damaged (found at start-up, or by the checks running beside play): nothing more is
    written to it. ``problem``: one line naming it; ``backup``: the newest good backup offered, or None;
    ``at_startup``: the game was not resumed (else it was being played when payments stopped)."""

    screen: ClassVar[str] = "damaged"
    problem: str
    backup: str | None = None
    at_startup: bool = True


Dialog = (Idle | GameOver | DeedScreen | Offer | OwnDeed | PlayerScreen | Confirm | Keypad | Pin | Choice
          | AuctionScreen | TradeScreen | BankruptcyScreen | Banker | History | NewGame | Enrol | Damaged
          | EventScreen | LocationScreen)

#: Every screen record, for the checks of :mod:`terminal.table.states`.
DIALOGS: tuple[type[Dialog], ...] = (Idle, GameOver, DeedScreen, Offer, OwnDeed, PlayerScreen, Confirm, Keypad, Pin,
                                     Choice, AuctionScreen, TradeScreen, BankruptcyScreen, Banker, History, NewGame,
                                     Enrol, Damaged, EventScreen, LocationScreen)
