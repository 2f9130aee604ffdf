"""Enrolling cards (the banker's menu): the wizard of :class:`cards.registry.Enrolment` asks for each card in
turn (the banker's, the players', the deeds' stickers); any card tapped is given the role asked for."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cards.registry import Enrolment, Role
from terminal.errors import GameError
from terminal.table.i18n import N_
from terminal.table.screens.base import Common, Screen, Table, inputs
from terminal.table.view import Msg, Option, View


@dataclass
class Enrol(Screen):
    name: ClassVar[str] = "enrol"
    takes: ClassVar[frozenset[str]] = inputs("option")
    needs: ClassVar[str] = N_("part_card_enrol")
    goes_to: ClassVar[frozenset[str]] = inputs("enrol")
    long: ClassVar[bool] = True

    enrolment: Enrolment

    def on_any_card(self, t: Table, uid: str, role: Role | None) -> bool:
        """Every card: given the role the wizard asks for (or refused with the reason)."""
        enrolment = self.enrolment
        try:
            result = enrolment.present(uid)
        except (GameError, ValueError, LookupError, OSError) as exc:
            t.refuse(Msg(getattr(exc, "code", "enrol_refused"), getattr(exc, "params", {}), str(exc)))
            return True
        message = Msg(result.code, result.params, result.text)
        if not result.accepted:
            t.refuse(message)
            return True
        t.accept()
        t.say(message, "success")
        if enrolment.done:
            t.go_idle()
            t.say(message, "success")
        return True

    def on_option(self, t: Table, option_id: str) -> None:
        enrolment = self.enrolment
        if option_id == "skip":
            enrolment.skip()
        elif option_id == "back":
            enrolment.back()
        elif option_id == "done":
            return t.go_idle()
        if enrolment.done:
            return t.go_idle()
        t.changed()

    def view(self, t: Table, base: Common) -> View:
        prompt = self.enrolment.prompt
        title = Msg(getattr(prompt, "code", "enrol_title"), getattr(prompt, "params", {}),
                    getattr(prompt, "text", str(prompt)))
        return View("enrol", title, options=(Option("skip", Msg("opt_skip", {}, "Skip")),
                                             Option("done", Msg("opt_done", {}, "Done"))), **base)
