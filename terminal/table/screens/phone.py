"""The banker menu's "Phones": the phone page switched on or off, the QR code of its link (drawn by the host from
``View.extra["link"]``), and a new link (the device's token renewed, after a confirmation: the links shown before
stop working). What the page serves and how is the host's (``host_ui.phone``): this screen only asks the
:class:`~terminal.table.settings.PhonePage` it was given (``Table.phone``).

``View.extra``: ``phone_on`` (bool), ``link`` (the link, or None when the page publishes none: switched off or
its service not running), ``status`` (a :class:`Msg` saying which), ``confirming`` (the renewal asked about).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from terminal.table.i18n import N_
from terminal.table.screens.base import Common, Screen, Table, inputs
from terminal.table.settings import PhonePage
from terminal.table.view import Msg, Option, View


def phone_state(phone: PhonePage) -> tuple[bool, str | None]:
    """Whether the page is switched on, and its link (None when off, or when it publishes none)."""
    on = phone.is_on()
    return on, phone.link() if on else None


def status_msg(on: bool, link: str | None) -> Msg:
    """What the screen says of the page: off, on but not running, or on (scan the code)."""
    if not on:
        return Msg("phone_status_off", {}, "The phones' page is off: switch it on to show its QR code.")
    if link is None:
        return Msg("phone_status_not_running", {},
                   "Switched on, but the page is not running (its service is stopped): no link to show.")
    return Msg("phone_status_scan", {}, "Scan it with a phone on the table's Wi-Fi: everyone's money, live.")


@dataclass
class PhoneScreen(Screen):
    """The phone page's switch, its QR code and its renewal. ``confirming``: the renewal's question is shown (one
    option, "Renew the link"; the screen's cancel button is the way out, as on the other confirmations);
    ``shown``: the state the last view showed (the clock's ticks build the view again when it changes: the page
    publishes its link a moment after it is switched on)."""

    name: ClassVar[str] = "phone"
    takes: ClassVar[frozenset[str]] = inputs("option")
    needs: ClassVar[str] = N_("part_card_choice")
    long: ClassVar[bool] = True

    confirming: bool = False
    shown: tuple[bool, str | None] | None = None

    def on_option(self, t: Table, option_id: str) -> None:
        phone = t.phone
        if phone is None:  # the option that opens this screen is greyed out without one
            return t.refuse(Msg("not_allowed_now", {"what": "phone"}, "Not possible here: phone."))
        if option_id in ("phone_on", "phone_off"):
            try:
                phone.set_on(option_id == "phone_on")
            except OSError as exc:
                return t.refuse(Msg("phone_cannot_write", {"error": exc.strerror or str(exc)},
                                    f"The data folder cannot be written ({exc.strerror or exc}): nothing changed."))
            t.accept()
        elif option_id == "phone_renew":
            self.confirming = True
            t.accept()
        elif option_id == "phone_renew_yes":
            self.confirming = False
            try:
                phone.renew()
            except OSError as exc:
                return t.refuse(Msg("phone_cannot_write", {"error": exc.strerror or str(exc)},
                                    f"The data folder cannot be written ({exc.strerror or exc}): nothing changed."))
            t.beep("success")
            t.say(Msg("phone_renewed", {}, "New link: phones with the old one must scan the new QR code."),
                  "success")
        elif option_id == "back":
            t.banker_ok()  # the banker opened this screen from their menu: back to it

    def tick(self, t: Table) -> None:
        if t.phone is not None and phone_state(t.phone) != self.shown:
            t.changed()

    def view(self, t: Table, base: Common) -> View:
        phone = t.phone
        on, link = phone_state(phone) if phone is not None else (False, None)
        self.shown = (on, link)
        extra = {"phone_on": on, "link": link, "status": status_msg(on, link), "confirming": self.confirming}
        options: tuple[Option, ...]
        if self.confirming:
            # one way out, as on every confirmation: the screen's cancel button (back to idle, nothing renewed)
            options = (Option("phone_renew_yes", Msg("opt_phone_renew_yes", {}, "Renew the link")),)
            return View("phone", Msg("phone_renew_title", {}, "A new link?"),
                        options=options, extra=extra, **base)
        switch = (Option("phone_off", Msg("opt_phone_off", {}, "Switch off")) if on
                  else Option("phone_on", Msg("opt_phone_on", {}, "Switch on")))
        options = (switch, Option("phone_renew", Msg("opt_phone_renew", {}, "New link")),
                   Option("back", Msg("opt_done", {}, "Done")))
        return View("phone", Msg("phone_title", {}, "Phones"), options=options, extra=extra, **base)
