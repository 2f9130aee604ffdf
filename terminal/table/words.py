"""Texts the screens build from parts: a list of texts, an account's name, what an undo undoes. Each is a
:class:`~terminal.table.view.Msg` (a catalog code and its params), never text glued in code
(:mod:`terminal.table.i18n`)."""
from __future__ import annotations

from cards.editions import Edition
from terminal.bank.operations import Auction, Operation, Trade, Transfer
from terminal.table.i18n import N_, OTHER_PURPOSE, PURPOSES, translate
from terminal.table.view import Msg

_ACCOUNTS = {"bank": (N_("ui_bank_name"), "Bank"), "pot": (N_("ui_pot_name"), "Free Parking")}


def joined(items: list[Msg]) -> Msg:
    """A list of texts (at least one), each translated in the reader's language, joined by the catalog's
    ``joined_list`` entry ("a, b, c")."""
    if len(items) == 1:
        return items[0]
    rest = joined(items[1:])
    return Msg("joined_list", {"first": items[0], "rest": rest}, f"{items[0].english}, {rest.english}")


def account_msg(account: str) -> Msg:
    """An account's name: the Bank and the Free Parking pot in the reader's language, a player as named."""
    if account in _ACCOUNTS:
        code, english = _ACCOUNTS[account]
        return Msg(code, {}, english)
    return Msg("name", {"name": account}, account)


def account_label(account: str, language: str) -> str:
    """An account's name as text in ``language`` (the Bank, the pot, or the player's name)."""
    if account not in _ACCOUNTS:
        return account
    code, _ = _ACCOUNTS[account]
    return translate(code, {}, language)


def describe_undo(op: Operation, edition: Edition, plain: bool = False) -> Msg:
    """What an undo will undo, for the confirmation screen: the operation's purpose (translated, with the deed's
    name) and who it concerns, e.g. "Défaire : Achat de Rue de la Paix (Anne)". ``op``: the operation undone (the
    Bank's ``Preview.undone``, ``Receipt.undone``); ``plain``: without the "Undo:" word (for the message saying it
    was undone). The purpose's params are the operation's fields, as the journal writes them."""
    name = op.op
    params = {k: v for k, v in op.to_json().items() if k != "op"}
    square = getattr(op, "square", None)
    if isinstance(square, int) and 0 <= square < len(edition.squares):
        params["deed"] = params["tax"] = edition.squares[square].name
    who = str(getattr(op, "player", "") or "")
    if isinstance(op, Auction):
        who = op.winner
    elif isinstance(op, Transfer):
        who = op.payer
    elif isinstance(op, Trade):
        who = f"{op.a} ↔ {op.b}"
    english = name.replace("_", " ") + (f" of {params['deed']}" if "deed" in params else "")
    what = Msg(PURPOSES.get(name, OTHER_PURPOSE), params, english)
    if plain:
        return Msg("undo_what_who", {"what": what, "who": who}, f"{english} ({who})") if who else what
    if not who:
        return Msg("purpose_undo_plain", {"what": what}, f"Undo: {english}")
    return Msg("purpose_undo", {"what": what, "who": who}, f"Undo: {english} ({who})")


def duration_msg(seconds: int) -> Msg:
    """A play time (whole seconds, 0 or more) in words: "1 h 25 min", "25 min" (the minutes begun count: 24 min
    10 s reads "25 min", so the time shown never runs out before the end), "45 s" in the last minute."""
    if seconds < 60:
        return Msg("dur_s", {"s": seconds}, f"{seconds} s")
    minutes = -(-seconds // 60)
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return Msg("dur_min", {"min": minutes}, f"{minutes} min")
    return Msg("dur_h_min", {"h": hours, "min": f"{minutes:02d}"}, f"{hours} h {minutes:02d} min")
