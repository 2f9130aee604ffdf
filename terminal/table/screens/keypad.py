"""The keypad: a number typed for the flow that opened it (:class:`~terminal.table.screens.base.KeypadNext`: an
amount, a price, the dice, a bid). Opened by ``Table.ask_number``; a keypad opened from a trade or an auction
keeps that screen in ``back`` and returns to it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from terminal.table.i18n import N_
from terminal.table.screens.base import DEED_NEXT, Common, KeypadNext, Screen, Table, Tapped, inputs
from terminal.table.view import Msg, View

DIGITS = "0123456789"
#: The longest number the keypad takes (an amount has at most 9 digits).
MAX_DIGITS = 9


def type_key(t: Table, keypad: Keypad | Any, char: str) -> None:
    """A key on a keypad (``keypad`` has a ``buffer``: the keypad or the PIN screen): a digit, ``C`` (clear),
    ``<`` (erase one) or ``OK`` (enter)."""
    buffer = keypad.buffer
    if char == "C":
        buffer = ""
    elif char == "<":
        buffer = buffer[:-1]
    elif char == "OK":
        keypad.on_ok(t)
        return None
    elif char in DIGITS and len(char) == 1:
        if len(buffer) >= MAX_DIGITS:
            return t.refuse(Msg("amount_too_long", {}, "Amount too large."))
        buffer = (buffer + char).lstrip("0") or ("0" if char == "0" else "")
    else:
        return t.refuse_needs()
    keypad.buffer = buffer
    t.changed()


@dataclass
class Keypad(Screen):
    """The keypad: ``then`` says what the number is for; ``back`` is the trade or auction to return to;
    ``player``, ``purpose`` and ``square`` say what the number is for (shown above the keypad)."""

    name: ClassVar[str] = "keypad"
    takes: ClassVar[frozenset[str]] = inputs("digit ok player")
    needs: ClassVar[str] = N_("part_keypad")
    goes_to: ClassVar[frozenset[str]] = inputs("keypad confirm choose auction trade " + DEED_NEXT)

    label: Msg
    then: KeypadNext
    kind: str = "amount"
    back: Screen | None = None
    player: str | None = None
    purpose: Msg | None = None
    square: int | None = None
    buffer: str = ""

    def on_digit(self, t: Table, char: str) -> None:
        type_key(t, self, char)

    def on_ok(self, t: Table) -> None:
        if not self.buffer:
            return t.refuse(Msg("empty_amount", {}, "Type an amount."))
        self.then.entered(t, self, int(self.buffer))

    def on_card(self, t: Table, tapped: Tapped) -> None:
        if not self.then.card(t, self, tapped):
            t.refuse_needs()

    def need(self, t: Table) -> Msg:
        return self.then.need() or super().need(t)

    def waits_long(self) -> bool:
        """The long timeout inside a trade or an auction."""
        return self.back is not None

    def kept(self) -> Screen | None:
        return self.back.kept() if self.back is not None else None

    def view(self, t: Table, base: Common) -> View:
        player, purpose, square = self.player, self.purpose, self.square
        extra: dict[str, Any] = {"kind": self.kind, "player": player, "purpose": purpose}
        if square is not None:
            extra["deed"] = t.deed_name(square)
        extra.update(self.then.extra(self))
        own = self.then.view(t, self, extra, base)
        if own is not None:
            return own
        title = self.label
        if purpose is not None:
            title = Msg("keypad_title", {"player": player, "purpose": purpose},
                        f"{player} · {purpose}") if player else purpose
        return View("keypad", title, player=player, keypad=self.buffer, keypad_label=self.label, extra=extra,
                    deed=t.board.deed_view(t, square) if square is not None else None, **base)
