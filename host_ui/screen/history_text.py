"""What the history says of each journal entry, in words: the history screen's lines and the CSV export's
``description`` column (``banquier export --format csv``) are written by these functions, in the language given.

- :func:`describe_entry`: the entry's first line on the history screen ("Anne · Loyer de Rue Lecourbe",
  "Mise en place", "Opération 12 défaite"); :func:`history_label` adds the mark of an entry undone since.
- :func:`movement_text`: one movement of money ("Anne → Bruno 26 €"), the accounts ``bank`` and ``pot`` named
  in the language; :func:`merged_movements` adds up an entry's postings between the same two accounts.

No pygame here: the command line uses this module without loading the screen.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from cards.editions import Edition
from terminal.bank.money import format_amount
from terminal.table.i18n import OTHER_PURPOSE, PURPOSES, translate

#: ``(payer, payee, amount)``: one posting (or the sum of an entry's postings between two accounts).
Movement = tuple[str, str, int]

__all__ = ["Movement", "account_name", "describe_entry", "history_label", "merged_movements", "movement_text"]


def account_name(name: str, language: str) -> str:
    """A player's name as it is; the Bank's and the Free Parking pot's (``bank``, ``pot``) in ``language``."""
    return {"bank": translate("ui_bank_name", {}, language),
            "pot": translate("ui_pot_name", {}, language)}.get(name, name)


def describe_entry(entry: Mapping[str, Any], language: str, edition: Edition | None) -> str:
    """What the history screen says of ``entry`` (``{"seq", "kind", "op", "undoes", ...}`` as
    :meth:`terminal.Game.history` gives it), in ``language``: its purpose with the deed or tax square named
    from ``edition`` (its number when ``edition`` is None), the player in front."""
    op = entry.get("op") or {}
    name = op.get("op") or entry.get("kind") or "?"
    params = dict(op)
    if "square" in op and edition is not None:
        square = edition.squares[op["square"]]
        params["deed"] = params["tax"] = square.name
    if name == "setup" or entry.get("kind") == "setup":
        return translate("ui_setup", {}, language)
    if entry.get("undoes") is not None or name == "undo":
        return translate("ui_undo_of", {"seq": entry.get("undoes", "?")}, language)
    if name == "auction" and edition is not None:
        params["deed"] = edition.squares[op["square"]].name
    text = translate(PURPOSES.get(name, OTHER_PURPOSE), {k: v for k, v in params.items() if isinstance(k, str)},
                     language)
    who = op.get("player") or op.get("winner") or op.get("from")
    if who and who not in text and who != "bank":
        text = f"{who} · {text}"
    if name == "trade":
        text = f"{op.get('a')} ↔ {op.get('b')} · {text}"
    return text


def history_label(entry: Mapping[str, Any], language: str, edition: Edition | None) -> str:
    """:func:`describe_entry`, marked "(undone)" in ``language`` when ``entry["undone"]``."""
    label = describe_entry(entry, language, edition)
    return translate("ui_undone", {"what": label}, language) if entry.get("undone") else label


def merged_movements(postings: Iterable[Movement]) -> list[Movement]:
    """The postings with the amounts between the same payer and payee added up, in the order first seen."""
    merged: dict[tuple[str, str], int] = {}
    for payer, payee, amount in postings:
        merged[(payer, payee)] = merged.get((payer, payee), 0) + amount
    return [(p, q, a) for (p, q), a in merged.items()]


def movement_text(movement: Movement, language: str, edition: Edition, display: str = "plain") -> str:
    """``payer → payee amount`` in ``language``, the amount as the screen shows it (``display``: ``plain`` or
    ``km``, the configuration's ``game.amount_display``)."""
    payer, payee, amount = movement
    return (f"{account_name(payer, language)} → {account_name(payee, language)} "
            f"{format_amount(amount, edition, language, display)}")
