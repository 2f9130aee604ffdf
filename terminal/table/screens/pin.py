"""The banker PIN: typed on the keypad (or the banker card tapped instead); after wrong tries the wait before the
next one is shown and every try refused (the host's check slows them down: :class:`terminal.table.settings.
BankerPin`)."""
from __future__ import annotations

import hmac
import math
from dataclasses import dataclass
from typing import ClassVar

from terminal.table.i18n import N_
from terminal.table.screens.base import Common, Screen, Table, inputs
from terminal.table.screens.keypad import type_key
from terminal.table.settings import TerminalSettings
from terminal.table.view import Msg, View


def pin_wait(settings: TerminalSettings) -> int:
    """Whole seconds before the PIN check looks at a try again (0: a try may be made now). Asked of the PIN
    check when it slows down wrong tries (``wait_s()``); a PIN given as digits never waits."""
    pin = settings.banker_pin
    return 0 if pin is None or isinstance(pin, str) else math.ceil(pin.wait_s())


def pin_matches(settings: TerminalSettings, typed: str) -> bool:
    """Whether ``typed`` is the banker PIN: asked of the host's check, or compared in constant time with the
    digits given in the settings."""
    pin = settings.banker_pin
    if pin is None:
        return False
    if isinstance(pin, str):
        return hmac.compare_digest(typed.encode(), pin.encode())
    return pin.matches(typed)


def pin_wait_msg(seconds: int, wrong: bool = False) -> Msg:
    """"Too many wrong PINs: wait N s" (``wrong``: said after a wrong try)."""
    if wrong:
        return Msg("wrong_pin_wait", {"seconds": seconds},
                   f"Wrong PIN. Too many tries: wait {seconds} s before trying again.")
    return Msg("pin_wait", {"seconds": seconds}, f"Too many wrong PINs: wait {seconds} s before trying again.")


@dataclass
class Pin(Screen):
    """The banker PIN being typed (``buffer``; shown as dots)."""

    name: ClassVar[str] = "pin"
    takes: ClassVar[frozenset[str]] = inputs("digit ok")
    needs: ClassVar[str] = N_("part_keypad")
    goes_to: ClassVar[frozenset[str]] = inputs("confirm choose history")

    buffer: str = ""

    def on_digit(self, t: Table, char: str) -> None:
        """A key: refused with the wait while the PIN check waits after wrong tries."""
        seconds = pin_wait(t.settings)
        if seconds and char != "OK":
            return t.refuse(pin_wait_msg(seconds))
        if t.message is not None and t.message.code in ("wrong_pin", "pin_try_now"):
            t.message = None  # "Wrong PIN." goes once the PIN is typed again
            t.changed()
        type_key(t, self, char)

    def on_ok(self, t: Table) -> None:
        waiting = pin_wait(t.settings)
        # compared even during the wait: the check refuses it and logs the try, as it logs every wrong one
        if pin_matches(t.settings, self.buffer) and not waiting:
            t.accept()
            return t.banker_ok()
        self.buffer = ""
        if waiting:
            return t.refuse(pin_wait_msg(waiting))
        seconds = pin_wait(t.settings)
        t.refuse(pin_wait_msg(seconds, wrong=True) if seconds else Msg("wrong_pin", {}, "Wrong PIN."))

    def tick(self, t: Table) -> None:
        """The wait shown counts down; "you may try again" once it is over."""
        shown = t.message
        if shown is None or shown.code not in ("pin_wait", "wrong_pin_wait"):
            return None
        seconds = pin_wait(t.settings)
        if seconds == shown.params.get("seconds"):
            return None
        if seconds:
            return t.say(pin_wait_msg(seconds, wrong=shown.code == "wrong_pin_wait"), "error")
        t.say(Msg("pin_try_now", {}, "You may try the PIN again."))

    def view(self, t: Table, base: Common) -> View:
        return View("pin", Msg("keypad_pin", {}, "Banker PIN"), keypad="•" * len(self.buffer),
                    keypad_label=Msg("keypad_pin", {}, "Banker PIN"), extra={"wait_s": pin_wait(t.settings)}, **base)
