"""What a host hands the tap machine (:class:`terminal.table.machine.Terminal`): its settings, what start-up
found wrong with a game, and the protocols of the parts it is given (the card registry, the beeper, the banker
PIN check, the new game's factory, the phone page's switch)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from cards.registry import Role
from terminal.bank.game import Game


@dataclass
class TerminalSettings:
    """Tunable behaviour. Times in seconds of the injected clock.

    - ``timeout_s``: a pending step goes back to idle after this long without input (10).
    - ``long_timeout_s``: the same for auctions, trades and wizards (60).
    - ``go_repeat_window_s``: a second GO salary for the same player within this window needs a second
      confirmation (120).
    - ``confirm_min_delay_s``: a confirming card tap is ignored if it comes sooner than this after the
      confirmation appeared (0.5): a quick double tap never confirms by accident.
    - ``retap_guard_s``: the card that committed an operation is ignored for this long afterwards (1.5).
    - ``banker_protection``: banker functions need the banker card or ``banker_pin`` (True).
    - ``banker_pin``: None (banker card only), a :class:`BankerPin` check (what the host configures), or the PIN
      itself as digits (tests and scenes only; compared in constant time).
    - ``language``: ``fr``, ``en`` or ``uk``.
    - ``display``: how amounts are written, ``plain`` or ``km`` (:func:`terminal.bank.money.format_amount`).
    """

    timeout_s: float = 10.0
    long_timeout_s: float = 60.0
    go_repeat_window_s: float = 120.0
    confirm_min_delay_s: float = 0.5
    retap_guard_s: float = 1.5
    banker_protection: bool = True
    banker_pin: str | BankerPin | None = None
    language: str = "fr"
    display: str = "plain"


@dataclass(frozen=True)
class Damage:
    """A game the terminal cannot play on (what the host found at start-up, or what stopped payments during
    play): ``problem``, one line naming it and the fix; ``backup``, the name of the newest good backup the
    host can restore (``Terminal(restore=...)``), or None."""

    problem: str
    backup: str | None = None


class BankerPin(Protocol):
    """A banker PIN check kept by the host (``host_ui.shell.pin.PinCheck``: a salted hash, slowing down wrong
    tries). ``matches(typed)``: whether the digits typed are the PIN (False, without a look, during a wait);
    ``wait_s()``: seconds (>= 0) before the next try is looked at."""

    def matches(self, typed: str) -> bool: ...

    def wait_s(self) -> float: ...


class CardLookup(Protocol):
    """The card registry as the machine uses it (``cards.registry.CardRegistry``)."""

    def lookup(self, uid: str, /) -> Role | None: ...


class Sounds(Protocol):
    """The beeper as the machine uses it (a ``hal.interfaces.Beeper``); ``muted`` is used when it has one.
    What ``play`` returns (a Beeper says whether it took the pattern) is not used."""

    def play(self, pattern: str, /) -> object: ...


class GameFactory(Protocol):
    """The new-game wizard's factory: ``(edition, players, mode, rules, player_cards, minutes=None) -> Game``;
    ``minutes``: the length of a time-limited game, in minutes of play (``Game.create(length_minutes=...)``)."""

    def __call__(self, edition: str, players: list[str], mode: str, rules: dict[str, Any],
                 player_cards: dict[str, str], /, minutes: int | None = None) -> Game: ...


class PhonePage(Protocol):
    """The phone page's switch and link as the banker menu and the idle screen use them (the host's
    ``host_ui.phone.switch.PhoneSwitch``: files in the data folder and the page's runtime folder; the page itself
    is another process).

    - ``is_on()``: whether the page is switched on; never raises.
    - ``set_on(on)``: switch it on or off (kept across restarts); raises OSError when it cannot be written.
    - ``link()``: the link a phone opens (``http://HOST:PORT/t/TOKEN/``, what the QR code holds), or None when
      the page publishes none (switched off, or its service not running); never raises.
    - ``renew()``: replace the device's token (every link shown before stops working); raises OSError.
    - ``on_idle``: whether the idle screen shows the link's QR code (``[phone] qr_on_idle``)."""

    on_idle: bool

    def is_on(self) -> bool: ...

    def set_on(self, on: bool, /) -> None: ...

    def link(self) -> str | None: ...

    def renew(self) -> None: ...
