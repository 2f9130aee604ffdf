"""The screen's texts in French (default), English and Ukrainian, from gettext catalogs.

The catalogs are ``locale/<lang>/LC_MESSAGES/banquier.po`` beside this module, one for each of the screen's
:data:`LANGUAGES` (``cards.editions.LANGUAGES``: ``fr``, ``en``, ``uk``, which the editions' texts follow), shipped
with their compiled ``.mo`` (package data) and loaded through the standard :mod:`gettext` module; a missing
catalog raises :class:`MissingCatalog` at start-up (``banquier doctor`` reports it). README, "Translating
Banquier", gives the translator's workflow (``./dev.sh i18n``).

Message ids are the stable codes the program already carries, not English text: the view model's
``Msg(code, params)`` (:mod:`terminal.table.view`), the ``code`` of every refusal (:class:`terminal.errors.GameError`,
:class:`cards.errors.CardsError`) and the enrolment prompts of :mod:`cards.registry`. English is a catalog like
the others (``en.po``), so every language is checked the same way: every id has a text in each, none fuzzy.
Only the screen turns ids into text; the state machine hands ids and params on.

Texts are :meth:`str.format` templates with named placeholders (``{player}``, ``{amount}``); a translation
uses exactly the placeholders of the English entry. Amounts arrive already formatted by the caller
(:func:`terminal.bank.money.format_amount`, digits grouped by the screen's language).

Plural entries: a text where a count meets a noun is a plural entry whose count is the int param ``n``. In
the ``.po`` its ``msgid`` is the code and its ``msgid_plural`` the code followed by ``_plural``
(:data:`PLURAL_SUFFIX`), with one ``msgstr[i]`` per form of the language's ``Plural-Forms`` header (fr and
en 2, uk 3). French uses the classic gettext rule ``n > 1`` (0 and 1 singular); Babel's newer CLDR rule adds a
form for exact millions, which no count on a Monopoly table reaches. A text with two counts is split into
plural entries nested in another entry (``ui_bank_stock`` takes ``ui_bank_houses`` and ``ui_bank_hotels``).

Params stay language-free. A word that must be translated travels as a message id in a param whose key
ends in ``_code`` (``deck_code="part_deck_chance"``, ``wanted_code="part_hotel"``): :func:`translate` puts
that entry's text in the same language in its place (``{deck_code}`` -> "Chance" in French). Such ``part_*``
entries take no params themselves. A param may also be a nested Msg, translated in the same language.
Translated texts are never glued together in code (no ``+``, ``join`` or f-string): a list of names is
joined by nesting ``joined_list`` entries (``{first}, {rest}``: the separator is the catalog's), a sentence
built from parts is an entry with placeholders.

An edition's names (a square's name, a joined list of names) travel in params, and as a Msg's English text, as
:class:`cards.editions.Localized` strings: :func:`translate` shows them in ``language``
(``docs/editions.md``).
"""
from __future__ import annotations

import functools
import gettext
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cards.editions import LANGUAGES, Localized, localized
from terminal.errors import GameError
from terminal.table.view import Msg

__all__ = ["LANGUAGES", "N_", "OPTIONS", "PURPOSES", "OTHER_PURPOSE", "MODES", "MODE_HINTS", "FLAGS", "ROUNDINGS",
           "MissingCatalog", "DOMAIN", "LOCALE_DIR", "PLURAL_SUFFIX", "COUNT", "catalog", "check_catalogs", "has_text",
           "template", "translate", "listing", "text"]


def N_(code: str) -> str:
    """Mark a message id written where it is not translated yet (a map, a variable): returns it as it is.

    ``pybabel extract`` finds the ids of these calls (:mod:`terminal.table.i18n_extract`)."""
    return code


#: The label of each menu option: option id -> message id.
OPTIONS: Mapping[str, str] = {
    "pass_go": N_("opt_pass_go"), "income_tax": N_("opt_income_tax"), "luxury_tax": N_("opt_luxury_tax"),
    "chance": N_("opt_chance"), "community_chest": N_("opt_community_chest"), "jail_fine": N_("opt_jail_fine"),
    "use_jail_card": N_("opt_use_jail_card"), "free_parking": N_("opt_free_parking"),
    "pay_bank": N_("opt_pay_bank"), "bank_pays": N_("opt_bank_pays"), "transfer": N_("opt_transfer"),
    "pay_each_player": N_("opt_pay_each_player"), "collect_from_each_player": N_("opt_collect_from_each_player"),
    "repairs": N_("opt_repairs"), "trade": N_("opt_trade"), "my_deeds": N_("opt_my_deeds"),
    "any_deed": N_("opt_any_deed"), "bankruptcy": N_("opt_bankruptcy"), "flat": N_("opt_flat"),
    "percent": N_("opt_percent"), "undo": N_("opt_undo"), "adjust_give": N_("opt_adjust_give"),
    "adjust_take": N_("opt_adjust_take"), "end_game": N_("opt_end_game"), "history": N_("opt_history"),
    "new_game": N_("opt_new_game"), "enrol": N_("opt_enrol"), "phone": N_("opt_phone"), "language": N_("opt_language"),
    "mute": N_("opt_mute"),
}
#: What an operation is for, on the confirmation screen and in the history: op kind -> message id.
PURPOSES: Mapping[str, str] = {
    "pass_go": N_("purpose_pass_go"), "buy": N_("purpose_buy"), "auction": N_("purpose_auction"),
    "pay_rent": N_("purpose_pay_rent"), "pay_tax": N_("purpose_pay_tax"), "bank_pays": N_("purpose_bank_pays"),
    "pay_bank": N_("purpose_pay_bank"), "pay_each_player": N_("purpose_pay_each_player"),
    "collect_from_each_player": N_("purpose_collect_from_each_player"), "repairs": N_("purpose_repairs"),
    "jail_fine": N_("purpose_jail_fine"), "gain_jail_card": N_("purpose_gain_jail_card"),
    "use_jail_card": N_("purpose_use_jail_card"), "free_parking": N_("purpose_free_parking"),
    "build": N_("purpose_build"), "sell_building": N_("purpose_sell_building"), "mortgage": N_("purpose_mortgage"),
    "unmortgage": N_("purpose_unmortgage"), "transfer": N_("purpose_transfer"), "trade": N_("purpose_trade"),
    "declare_bankruptcy": N_("purpose_declare_bankruptcy"), "undo": N_("purpose_undo"),
    "end_game": N_("purpose_end_game"), "x_play_time": N_("purpose_x_play_time"),
    "x_time_limit": N_("purpose_x_time_limit"), "x_time_up": N_("purpose_x_time_up"),
    # the electronic board's (terminal/table/ultimate.py and its screens)
    "raise_level": N_("purpose_raise_level"), "sell_property": N_("purpose_sell_property"),
    "location": N_("purpose_location"), "event_swap": N_("purpose_event_swap"),
    "event_reset_level": N_("purpose_event_reset_level"), "event_max_level": N_("purpose_event_max_level"),
    "event_neighbours": N_("purpose_event_neighbours"), "event_side_up": N_("purpose_event_side_up"),
    "event_side_down": N_("purpose_event_side_down"), "event_group_up": N_("purpose_event_group_up"),
    "event_group_down": N_("purpose_event_group_down"),
    "event_pay_per_property": N_("purpose_event_pay_per_property"),
    "event_market_slump": N_("purpose_event_market_slump"), "event_both_collect": N_("purpose_event_both_collect"),
    "event_movement": N_("purpose_event_movement"), "event_move_to_property": N_("purpose_event_move_to_property"),
}
#: An operation kind no entry of :data:`PURPOSES` names (a newer journal).
OTHER_PURPOSE = N_("purpose_other")
#: The game modes' names and one-line explanations: mode -> message id.
MODES: Mapping[str, str] = {"classic": N_("mode_classic"), "sans_frontieres": N_("mode_sans_frontieres"),
                            "quick": N_("mode_quick"), "time_limit": N_("mode_time_limit"),
                            "ultimate": N_("mode_ultimate")}
MODE_HINTS: Mapping[str, str] = {"classic": N_("mode_hint_classic"), "sans_frontieres": N_("mode_hint_sans_frontieres"),
                                 "quick": N_("mode_hint_quick"), "time_limit": N_("mode_hint_time_limit"),
                                 "ultimate": N_("mode_hint_ultimate")}
#: The house rules' names, and the values of the rounding rule: key -> message id.
FLAGS: Mapping[str, str] = {
    "double_rent_with_mortgaged_street": N_("flag_double_rent_with_mortgaged_street"),
    "interest_rounding": N_("flag_interest_rounding"), "income_tax_percent": N_("flag_income_tax_percent"),
    "free_parking_jackpot": N_("flag_free_parking_jackpot")}
ROUNDINGS: Mapping[str, str] = {"up": N_("ui_rounding_up"), "down": N_("ui_rounding_down")}


class MissingCatalog(GameError, FileNotFoundError):
    """A language's compiled catalog (``locale/<lang>/LC_MESSAGES/banquier.mo``) is not installed."""

    code = "catalog_missing"


DOMAIN = "banquier"
#: The catalogs: ``<lang>/LC_MESSAGES/banquier.po`` and the compiled ``.mo`` beside it (package data).
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: The id of a plural entry's plural form: the code followed by this (``msgid_plural`` in the ``.po``).
PLURAL_SUFFIX = "_plural"
#: The param that holds a plural entry's count.
COUNT = "n"


@functools.cache
def catalog(language: str) -> gettext.GNUTranslations:
    """The compiled catalog of ``language`` (one of :data:`LANGUAGES`), loaded once through :mod:`gettext`.

    Raises :class:`MissingCatalog` when it is not installed: a broken install, reported at start-up."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        found = gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[language], fallback=False)
    except OSError as exc:
        raise MissingCatalog(
            f"The {language!r} text catalog is missing ({path}): reinstall Banquier (or, in a checkout, run "
            f"./dev.sh i18n to compile the catalogs).", params={"language": language, "path": str(path)}) from exc
    if not isinstance(found, gettext.GNUTranslations):
        raise MissingCatalog(f"The {language!r} text catalog ({path}) is not a gettext catalog: reinstall Banquier.",
                             params={"language": language, "path": str(path)})
    return found


def check_catalogs() -> None:
    """Load the catalog of every language: raises :class:`MissingCatalog` naming the first one missing."""
    for language in LANGUAGES:
        catalog(language)


def has_text(code: str, language: str = "en") -> bool:
    """Whether the catalog of ``language`` has an entry for ``code`` (a plural entry counts)."""
    return catalog(language).gettext(code) != code


def template(code: str, language: str, count: int | None) -> str | None:
    """The catalog's text for ``code`` in ``language`` (the plural form for ``count`` when the entry has
    plural forms), or None when the language or the entry is missing."""
    if language not in LANGUAGES:
        return None
    found = catalog(language)
    if count is not None:
        plural = code + PLURAL_SUFFIX
        text = found.ngettext(code, plural, count)
        if text not in (code, plural):
            return text
    text = found.gettext(code)
    return None if text == code else text


def _count(params: Mapping[str, Any]) -> int | None:
    value = params.get(COUNT)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def translate(code: str, params: Mapping[str, Any] | None = None, language: str = "fr", english: str = "",
              prefer_english: bool = False) -> str:
    """The text of message ``code`` in ``language`` with ``params`` filled in.

    With ``prefer_english`` (a refusal's exact message), English shows ``english`` as it is. Otherwise the
    catalog is used, and fall back to ``english`` when it has no entry, then to the English catalog, then
    to the code itself. A plural entry takes the form for its count, the int param ``n``. A param whose key
    ends in ``_code`` holds a message id and is shown as that entry's text in ``language`` (see the module
    docstring). Never raises for a missing parameter: the placeholder stays.
    """
    if language == "en" and english and prefer_english and not _renamed(params or {}, language):
        return english
    params = params or {}
    count = _count(params)
    found = template(code, language, count)
    if found is None:
        if english:
            return str(localized(english, language))
        found = template(code, "en", count) or code
    try:
        return found.format(**_resolve_codes(params, language))
    except (KeyError, IndexError, ValueError):
        return found


def _resolve_codes(params: Mapping[str, Any], language: str) -> Mapping[str, Any]:
    """``params`` with the value of every ``*_code`` key that names a catalog entry replaced by that entry's
    text in ``language`` (English if it has none), every nested Msg by its text, and an edition's names
    (:class:`cards.editions.Localized`, or a list of them) by their names in ``language``. Other values,
    and codes the catalog lacks, are kept."""
    if not any(key.endswith("_code") or hasattr(value, "code") or isinstance(value, Localized | list | tuple)
               for key, value in params.items()):
        return params
    resolved = dict(params)
    for key, value in params.items():
        if isinstance(value, Localized | list | tuple):  # an edition's name(s), in ``language``
            resolved[key] = localized(value, language)
        elif hasattr(value, "code") and hasattr(value, "params"):  # a nested Msg
            resolved[key] = text(value, language)
        elif key.endswith("_code") and isinstance(value, str) and has_text(value):
            resolved[key] = template(value, language, None) or template(value, "en", None) or value
    return resolved


def _renamed(params: Mapping[str, Any], language: str) -> bool:
    """Whether a name in ``params`` reads differently in ``language`` than in the edition's own (a refusal's
    exact English then names the deeds in the edition's language: the catalog's text is used instead)."""
    return any(localized(value, language) != value for value in params.values()
               if isinstance(value, Localized | list | tuple))


def listing(texts: Sequence[str], language: str, code: str = N_("joined_list")) -> str:
    """``texts`` (already in ``language``) as one list: each pair joined by the catalog's entry ``code``,
    which takes ``{first}`` and ``{rest}`` (``joined_list``: "a, b, c"). No text: ""."""
    if not texts:
        return ""
    rest = texts[-1]
    for first in reversed(texts[:-1]):
        rest = translate(code, {"first": first, "rest": rest}, language)
    return rest


def text(msg: Msg | None, language: str = "fr") -> str:
    """Translate a :class:`terminal.table.view.Msg`."""
    if msg is None:
        return ""
    return translate(msg.code, msg.params, language, msg.english, getattr(msg, "exact", False))
