"""Editions: the board, prices, rents, decks and settings of one Monopoly set, loaded from a TOML file.

An edition file lives in ``cards/data/NAME.toml`` (or anywhere, with :func:`load_edition_file`). A file either
describes a whole board (``fr.toml``, ``us.toml``) or derives from another edition with ``base``, an optional
``scale`` (every amount multiplied: francs x 100, roubles x 1 000) and overrides (``[rules]``,
``[square_amounts]``). Every file is checked on load; a malformed or inconsistent one raises
:class:`EditionError` naming the file, the entry and the reason.

Amounts are ``int`` in whole units of the edition's currency. Rule source: RULES.md, "Setup", "Title deeds",
"Scales and editions"; the deck contents follow ``docs/decks.md``.

Texts by language (``docs/editions.md``): a square's ``name``, a colour group's name (``[groups]``) and a card's
``text`` are either one string (the text in the edition's own ``language``) or a table of texts by language
(``name = { fr = "Rue de la Paix", en = "Rue de la Paix", uk = "Вулиця Миру" }``). A name is loaded as a
:class:`Localized`: a ``str`` holding the text in the edition's own language (what the Bank's messages, the
journal and the table logs use, as before), which also carries every translation. A text missing in a language
falls back to the edition's own language; :func:`missing_texts` lists every such gap, for a test and for
``banquier doctor``.
"""
from __future__ import annotations

import itertools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from cards.errors import EditionError, EditionFileError, UnknownEditionError

DATA_DIR = Path(__file__).with_name("data")

COLOR_GROUPS = ("brown", "light_blue", "pink", "orange", "red", "yellow", "green", "dark_blue")
#: The classic board's tax squares (every classic edition has them there: checked as it is loaded).
INCOME_TAX_SQUARE, LUXURY_TAX_SQUARE = 4, 38
SQUARE_KINDS = ("go", "street", "railroad", "utility", "tax", "chance", "community_chest", "jail",
                "free_parking", "go_to_jail")
DECKS = ("chance", "community_chest")
DECK_ACTIONS = {
    # action: (required int fields, optional fields)
    "advance": ({"square"}, set()),
    "advance_to_go": (set(), set()),
    "nearest_railroad": (set(), set()),
    "nearest_utility": (set(), set()),
    "collect": ({"amount"}, set()),
    "pay": ({"amount"}, set()),
    "pay_each_player": ({"amount"}, set()),
    "collect_from_each_player": ({"amount"}, set()),
    "repairs": ({"per_house", "per_hotel"}, set()),
    "jail_card": (set(), set()),
    "go_to_jail": (set(), set()),
    "move": (set(), {"steps", "square", "backwards"}),
    "pay_or_draw": ({"amount"}, {"deck"}),
}
#: Rule flags and their allowed values (RULES.md). The edition file gives the defaults.
RULE_FLAGS: Mapping[str, tuple[bool | str, ...]] = MappingProxyType({
    "double_rent_with_mortgaged_street": (True, False),
    "interest_rounding": ("up", "down"),
    "income_tax_percent": (True, False),
    "free_parking_jackpot": (True, False),
})
_MONEY_SETTINGS = ("starting_cash", "go_salary", "jail_fine")
#: The languages the terminal's screen speaks; every shipped edition carries its texts in all of them.
LANGUAGES = ("fr", "en", "uk")
#: The groups that have a name: the colour groups, the railroads and the utilities.
NAMED_GROUPS = (*COLOR_GROUPS, "railroad", "utility")
_LANGUAGE_CODE = re.compile(r"[a-z]{2,3}")


class Localized(str):
    """A text of an edition in several languages. The ``str`` itself is the text in the edition's own
    ``language``; ``texts`` maps each language code the file gives to its text.

    :meth:`in_language` gives the text in another language, or the edition's own text when that language has
    none (:func:`missing_texts` reports those gaps). Equal to, and hashed as, its own-language text.
    """

    texts: Mapping[str, str]
    language: str

    def __new__(cls, texts: Mapping[str, str], language: str) -> Localized:
        own = texts.get(language) or next(iter(texts.values()), "")
        obj = super().__new__(cls, own)
        obj.texts = MappingProxyType(dict(texts))
        obj.language = language
        return obj

    def in_language(self, language: str) -> str:
        """The text in ``language``; the edition's own text when the file has none in that language."""
        return self.texts.get(language) or str(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Localized, (dict(self.texts), self.language))


def localized(value: Any, language: str) -> Any:
    """``value`` with every :class:`Localized` in it (itself, or the items of a list or tuple) shown in
    ``language``; any other value is returned as it is. Lets a message's params carry an edition's names
    and a screen show them in its own language."""
    if isinstance(value, Localized):
        return value.in_language(language)
    if isinstance(value, list):
        return [localized(v, language) for v in value]
    if isinstance(value, tuple):
        return tuple(localized(v, language) for v in value)
    return value


def join_localized(separator: str, values: list[str]) -> str:
    """``separator.join(values)``, as a :class:`Localized` when the values are: the joined names stay
    translatable (``"Rue Lecourbe, Boulevard de Belleville"`` in French, their Ukrainian names in Ukrainian)."""
    joined = separator.join(values)
    names = [v for v in values if isinstance(v, Localized)]
    if not names or len(names) != len(values):
        return joined
    languages = sorted({lang for name in names for lang in name.texts})
    own = names[0].language
    return Localized({lang: separator.join(name.in_language(lang) for name in names) for lang in languages}
                     | {own: joined}, own)

#: The boards an edition may describe: the classic 40-square board, or the electronic Ultimate Banking board
#: (36 squares, rent levels, Event and Location squares: :func:`_build_ultimate`).
BOARDS = ("classic", "ultimate")
ULTIMATE_SQUARE_KINDS = ("go", "street", "event", "location", "jail", "free_parking", "go_to_jail")
#: The Ultimate board's squares: 36, corners at 0, 9, 18 and 27 (docs/RULES.md, The Ultimate Banking board).
ULTIMATE_SQUARES = 36
ULTIMATE_CORNERS = {0: "go", 9: "jail", 18: "free_parking", 27: "go_to_jail"}
#: Rent levels of an Ultimate property: 1 (on purchase) to 5.
ULTIMATE_LEVELS = 5
#: The Ultimate board's Event card actions: (required int fields, optional fields). Each is one Bank operation.
EVENT_ACTIONS: Mapping[str, tuple[frozenset[str], frozenset[str]]] = MappingProxyType({
    "swap": (frozenset(), frozenset()),
    "reset_level": (frozenset(), frozenset()),
    "max_level": (frozenset(), frozenset()),
    "neighbours": (frozenset(), frozenset()),
    "side_up": (frozenset(), frozenset()),
    "side_down": (frozenset(), frozenset()),
    "group_up": (frozenset(), frozenset()),
    "group_down": (frozenset(), frozenset()),
    "pay_per_property": (frozenset({"amount"}), frozenset()),
    "market_slump": (frozenset({"payments"}), frozenset()),
    "both_collect": (frozenset({"amount"}), frozenset()),
    "movement": (frozenset(), frozenset()),
    "move_to_property": (frozenset(), frozenset()),
})
#: The versions of the boards' rules an edition's Event cards may be limited to (``rules_versions`` of a card;
#: :data:`terminal.bank.types.RULES_VERSIONS`).
CARD_RULES_VERSIONS = (1, 2)

#: The flags whose default differs under an older version of the board's rules (RULES.md, The Ultimate Banking
#: board, Rules versions), by version: a game of that version that does not set the flag is played by this value.
#: Version 1 took another's property after a Location or a "move to any property" card (``"land"``).
RULES_VERSION_DEFAULTS: Mapping[int, Mapping[str, Any]] = {1: {"location_landing": "land"}}
#: The Ultimate board's rule flags: each value the sources leave open, with its allowed values (the edition
#: file gives the defaults; docs/RULES.md, The Ultimate Banking board, Rule flags).
ULTIMATE_RULE_FLAGS: Mapping[str, tuple[bool | str | int, ...]] = MappingProxyType({
    "group_rent": ("single", "double"),
    "neighbours": ("wrap", "no_wrap"),
    "location_landing": ("buy_or_raise", "land"),
    "jail_fee": (50, 100),
    "charge_beyond_cash": ("sell_to_bank", "bankrupt"),
})


@dataclass(frozen=True)
class Square:
    """One of the 40 squares. ``index`` 0-39 in the direction of play.

    For deeds (street, railroad, utility): ``group`` (a colour group, ``railroad`` or ``utility``), ``price``,
    ``mortgage`` (half the price) and ``rents``: a street's rent bare and with 1-4 houses and a hotel (6
    values), a railroad's rent for 1-4 railroads held (4 values), a utility's dice multipliers for 1-2
    utilities held (2 values). ``house_cost`` is the price of one house and of a hotel on a street.
    ``amount`` is the GO salary (square 0) or the tax (tax squares). Utility dice multipliers are not
    amounts: a scaled edition multiplies the dice rent by :attr:`Edition.scale` instead. ``name`` is the name
    in the edition's own language (a :class:`Localized` when loaded from a file: :meth:`name_in`).
    """

    index: int
    kind: str
    name: str
    group: str | None = None
    price: int = 0
    mortgage: int = 0
    rents: tuple[int, ...] = ()
    house_cost: int = 0
    amount: int = 0

    @property
    def is_deed(self) -> bool:
        """True for the 28 title deeds: streets, railroads and utilities."""
        return self.kind in ("street", "railroad", "utility")

    def name_in(self, language: str) -> str:
        """The square's name in ``language`` (the edition's own name when it has none in that language)."""
        return str(localized(self.name, language))


@dataclass(frozen=True)
class DeckCard:
    """The money side of one Chance or Community Chest card.

    ``action`` is one of :data:`DECK_ACTIONS`; ``params`` holds its int/str/bool fields (amounts already
    scaled to the edition); ``text`` maps a language code (``fr``, ``en``, ``uk``) to Banquier's own wording;
    ``language`` is the edition's own language, the one :meth:`text_in` falls back to.
    """

    deck: str
    number: int
    action: str
    params: Mapping[str, Any]
    text: Mapping[str, str]
    language: str = ""

    def text_in(self, language: str) -> str:
        """The card's text in ``language``; else in the edition's own language, else English, else the first
        text the file gives (:func:`missing_texts` reports the gap)."""
        for lang in (language, self.language, "en"):
            if self.text.get(lang):
                return self.text[lang]
        return next(iter(self.text.values()), "")


@dataclass(frozen=True)
class EventCard:
    """One Event card of the Ultimate board: ``number`` (1-based, in the edition file's order), ``action`` (one of
    :data:`EVENT_ACTIONS`), its int ``params`` (``amount``, ``payments``) and ``text`` by language."""

    number: int
    action: str
    params: Mapping[str, int]
    text: Mapping[str, str]
    language: str = ""
    #: The versions of the rules whose deck holds the card (``rules_versions`` in the file; empty: every one).
    versions: tuple[int, ...] = ()
    #: The card's action under rules version 1, when it differs (``v1_action``: "movement" for a card whose
    #: effect the terminal carries out since).
    v1_action: str | None = None

    def in_deck(self, rules_version: int) -> bool:
        """Whether the deck of a game played by ``rules_version`` holds this card."""
        return not self.versions or rules_version in self.versions

    def as_in(self, rules_version: int) -> EventCard:
        """The card as a game of ``rules_version`` reads it (its action then)."""
        if rules_version == 1 and self.v1_action is not None:
            return replace(self, action=self.v1_action)
        return self

    def text_in(self, language: str) -> str:
        """The card's text in ``language``; else in the edition's own language (the file gives every language
        the edition lists)."""
        return self.text.get(language) or self.text.get(self.language) or next(iter(self.text.values()), "")


@dataclass(frozen=True)
class Edition:
    """A whole Monopoly set: board, settings, rule-flag defaults and decks. Immutable once loaded."""

    name: str
    title: str
    language: str
    currency_symbol: str
    currency_position: str
    starting_cash: int
    go_salary: int
    jail_fine: int
    houses: int
    hotels: int
    houses_before_hotel: int
    rules: Mapping[str, Any]
    squares: tuple[Square, ...]
    decks: Mapping[str, tuple[DeckCard, ...]]
    source: str = ""
    scale: int = 1
    groups: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    #: The names of the colour groups, the railroads and the utilities (``[groups]``), by group.
    group_names: Mapping[str, Localized] = field(default_factory=dict)
    #: ``classic`` (40 squares) or ``ultimate`` (the electronic board: see :func:`_build_ultimate`).
    board: str = "classic"
    #: The Ultimate board only: its Event cards, the fee of a Location square, the players a game takes.
    events: tuple[EventCard, ...] = ()
    location_fee: int = 0
    min_players: int = 2
    max_players: int = 8
    #: The edition's short name for a person (``[edition] label``: one text or a table by language), shown where
    #: editions are chosen (the new-game wizard); its ``name`` when the file gives none.
    label: str = ""

    @property
    def is_ultimate(self) -> bool:
        """True for an edition of the electronic Ultimate Banking board."""
        return self.board == "ultimate"

    def rules_of(self, rules_version: int) -> Mapping[str, Any]:
        """The edition's default flags for a game played by ``rules_version`` (1 or 2): :attr:`rules` with the
        older version's own defaults (:data:`RULES_VERSION_DEFAULTS`) for the flags this edition takes."""
        older = {k: v for k, v in RULES_VERSION_DEFAULTS.get(rules_version, {}).items() if k in self.rules}
        return {**self.rules, **older}

    @property
    def rule_flags(self) -> Mapping[str, tuple[bool | str | int, ...]]:
        """The rule flags a game of this edition takes and their allowed values."""
        return ULTIMATE_RULE_FLAGS if self.is_ultimate else RULE_FLAGS

    def square(self, index: int) -> Square:
        """The square at ``index`` (0-39; 0-35 on the Ultimate board). Raises ``LookupError`` (EditionError)
        for another number."""
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.squares):
            raise UnknownEditionError(f"There is no square {index!r} on the board: squares are numbered 0 to "
                                      f"{len(self.squares) - 1}.",
                                      code="no_such_square", params={"square": index})
        return self.squares[index]

    def square_name(self, index: int, language: str) -> str:
        """The name of square ``index`` in ``language`` (the edition's own name when it has none in it)."""
        return self.square(index).name_in(language)

    def group_name(self, group: str, language: str) -> str:
        """The name of ``group`` (a colour group, ``railroad`` or ``utility``) in ``language``; ``""`` when the
        edition names no such group."""
        name = self.group_names.get(group)
        return name.in_language(language) if name is not None else ""

    def deck(self, rules_version: int) -> tuple[EventCard, ...]:
        """The Event cards of a game played by ``rules_version``, each as that version reads it, with their
        numbers (a card some version leaves out keeps its number; none takes it)."""
        return tuple(card.as_in(rules_version) for card in self.events if card.in_deck(rules_version))

    def event_card(self, number: int, rules_version: int) -> EventCard | None:
        """Event card ``number`` as a game of ``rules_version`` reads it, or None when its deck has no such card."""
        return next((c for c in self.deck(rules_version) if c.number == number), None)

    def deeds(self) -> tuple[Square, ...]:
        """The 28 title deeds in board order."""
        return tuple(s for s in self.squares if s.is_deed)

    def group_of(self, index: int) -> tuple[int, ...]:
        """The squares of the colour group (or railroads, or utilities) of deed ``index``, in board order."""
        group = self.square(index).group
        if group is None:  # not a deed: no group, the same KeyError as looking up None
            raise KeyError(group)
        return self.groups[group]

    @property
    def income_tax(self) -> int:
        """The flat income tax (the amount printed on its square, :data:`INCOME_TAX_SQUARE`)."""
        return self.squares[INCOME_TAX_SQUARE].amount

    @property
    def luxury_tax(self) -> int:
        """The luxury tax (the amount printed on its square, :data:`LUXURY_TAX_SQUARE`)."""
        return self.squares[LUXURY_TAX_SQUARE].amount

    @property
    def max_amount(self) -> int:
        """The largest amount one operation may name: 100 times the starting cash. Beyond it an amount is
        taken for a typing mistake (an extra digit) and refused."""
        return self.starting_cash * 100


def available_editions() -> list[str]:
    """Names of the editions shipped in ``cards/data``, sorted."""
    return sorted(p.stem for p in DATA_DIR.glob("*.toml"))


_cache: dict[str, Edition] = {}


def load_edition(name: str) -> Edition:
    """Load a shipped edition by name (``fr``, ``us``, ``us-1935``, ``fr-francs``, ``ru-roubles``).

    Raises :class:`EditionError` (a ``LookupError``) for an unknown name, or (a ``ValueError``) for a
    malformed file. Editions are immutable and cached.
    """
    if not isinstance(name, str) or not (DATA_DIR / f"{name}.toml").is_file() or "/" in name:
        raise UnknownEditionError(
            f"Unknown edition {name!r}: choose one of {', '.join(available_editions())}.",
            code="unknown_edition", params={"edition": name})
    if name not in _cache:
        _cache[name] = load_edition_file(DATA_DIR / f"{name}.toml")
    return _cache[name]


def load_edition_file(path: str | Path) -> Edition:
    """Load and check an edition file. A ``base`` is looked up beside the file, then among shipped editions.

    Raises :class:`EditionError` naming the file, the entry and the reason.
    """
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise EditionFileError(f"{path}: cannot read the edition file ({exc.strerror or exc}).",
                               code="edition_unreadable", params={"file": str(path)}) from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise EditionError(f"{path}: not a valid TOML file ({exc}).", code="edition_malformed",
                           params={"file": str(path)}) from exc
    except (ValueError, RecursionError) as exc:  # a number of thousands of digits, arrays nested too deep
        raise EditionError(f"{path}: not a valid TOML file (a number too long or values nested too deep).",
                           code="edition_malformed", params={"file": str(path)}) from exc
    return _build(path, raw, set())


def _fail(path: Path, entry: str, reason: str) -> EditionError:
    return EditionError(f"{path.name}: {entry}: {reason}", code="edition_invalid",
                        params={"file": str(path), "entry": entry, "reason": reason})


def _int(path: Path, entry: str, value: Any, minimum: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(path, entry, f"expected a whole number, found {value!r}")
    if value < minimum:
        raise _fail(path, entry, f"must be at least {minimum}, found {value}")
    return value


def _build(path: Path, raw: dict[str, Any], seen: set[str]) -> Edition:
    head = raw.get("edition")
    if not isinstance(head, dict):
        raise _fail(path, "[edition]", "missing table")
    name = head.get("name")
    if not isinstance(name, str) or not name:
        raise _fail(path, "edition.name", "missing or not a string")
    if name in seen:
        raise _fail(path, "edition.base", f"editions derive from each other in a loop ({' -> '.join(seen)})")
    if "base" in head:
        return _derive(path, raw, head, seen | {name})
    if head.get("board", "classic") != "classic":
        if head.get("board") not in BOARDS:
            raise _fail(path, "edition.board", f"{head.get('board')!r} is not one of {', '.join(BOARDS)}")
        return _build_ultimate(path, raw, head)
    allowed = {"edition", "rules", "square", "chance", "community_chest", "groups"}
    for key in raw:
        if key not in allowed:
            raise _fail(path, key, f"unknown table (expected one of {', '.join(sorted(allowed))})")
    for key in ("title", "language", "currency_symbol", "currency_position"):
        if not isinstance(head.get(key), str):
            raise _fail(path, f"edition.{key}", "missing or not a string")
    if head["currency_position"] not in ("before", "after"):
        raise _fail(path, "edition.currency_position", "must be 'before' or 'after'")
    language = head["language"]
    if not _LANGUAGE_CODE.fullmatch(language):
        raise _fail(path, "edition.language", f"expected a language code such as 'fr' or 'en', found {language!r}")
    known = {"name", "title", "label", "language", "currency_symbol", "currency_position", "houses", "hotels",
             "houses_before_hotel", *_MONEY_SETTINGS}
    for key in head:
        if key not in known:
            raise _fail(path, f"edition.{key}", "unknown setting")
    settings = {k: _int(path, f"edition.{k}", head.get(k), 1) for k in _MONEY_SETTINGS}
    houses = _int(path, "edition.houses", head.get("houses"), 1)
    hotels = _int(path, "edition.hotels", head.get("hotels"), 1)
    before_hotel = _int(path, "edition.houses_before_hotel", head.get("houses_before_hotel"), 1)
    if before_hotel > 4:
        raise _fail(path, "edition.houses_before_hotel", "at most 4 houses come before a hotel")
    rules = _rules(path, raw.get("rules", {}), None)
    squares = _squares(path, raw.get("square"), language)
    if squares[0].amount != settings["go_salary"]:
        raise _fail(path, "square 0", f"GO amount {squares[0].amount} differs from edition.go_salary "
                                      f"{settings['go_salary']}")
    decks = {deck: _deck(path, deck, raw.get(deck), squares, language) for deck in DECKS}
    group_names = _group_names(path, raw.get("groups", {}), language)
    groups: dict[str, list[int]] = {}
    for s in squares:
        if s.is_deed and s.group is not None:  # every deed has its group (checked by _squares)
            groups.setdefault(s.group, []).append(s.index)
    return Edition(name=name, title=head["title"], language=head["language"],
                   label=_label(path, head, name, language),
                   currency_symbol=head["currency_symbol"], currency_position=head["currency_position"],
                   houses=houses, hotels=hotels, houses_before_hotel=before_hotel,
                   rules=MappingProxyType(rules), squares=squares, decks=MappingProxyType(decks),
                   source=str(path), groups=MappingProxyType({g: tuple(v) for g, v in groups.items()}),
                   group_names=MappingProxyType(group_names), starting_cash=settings["starting_cash"],
                   go_salary=settings["go_salary"], jail_fine=settings["jail_fine"])


def _label(path: Path, head: Mapping[str, Any], name: str, language: str) -> Localized:
    """``[edition] label``: the edition's short name for a person, one text or a table by language; the
    edition's ``name`` when the file gives none (a derived edition never takes its base's label)."""
    if "label" not in head:
        return Localized({language: name}, language)
    return _texts(path, "edition.label", head["label"], language)


def _texts(path: Path, entry: str, value: Any, language: str) -> Localized:
    """A text in one string (the edition's own language) or a table of texts by language code."""
    if isinstance(value, str) and value.strip():
        return Localized({language: value}, language)
    if not isinstance(value, dict) or not value:
        raise _fail(path, entry, f"expected a text, or a table of texts by language such as "
                                 f"{{ {language} = \"...\" }}, found {_short(value)}")
    for lang, text in value.items():
        if not _LANGUAGE_CODE.fullmatch(lang):
            raise _fail(path, entry, f"{_short(lang)} is not a language code (two or three lower-case letters "
                                     f"such as fr, en, uk)")
        if not isinstance(text, str) or not text.strip():
            raise _fail(path, f"{entry}.{lang}", f"expected a non-empty text, found {_short(text)}")
    return Localized(value, language)


def _short(value: Any) -> str:
    """``repr(value)`` cut to 60 characters, for an error message on one line."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _group_names(path: Path, table: Any, language: str) -> dict[str, Localized]:
    if not isinstance(table, dict):
        raise _fail(path, "[groups]", "must be a table of group names")
    names = {}
    for group, value in table.items():
        if group not in NAMED_GROUPS:
            raise _fail(path, f"groups.{_short(group)}", f"unknown group (known: {', '.join(NAMED_GROUPS)})")
        names[group] = _texts(path, f"groups.{group}", value, language)
    return names


def _rules(path: Path, table: Any, base: Mapping[str, Any] | None) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise _fail(path, "[rules]", "must be a table")
    rules = dict(base) if base is not None else {}
    for key, value in table.items():
        if key not in RULE_FLAGS:
            raise _fail(path, f"rules.{key}", f"unknown rule flag (known: {', '.join(RULE_FLAGS)})")
        if value not in RULE_FLAGS[key] or type(value) is not type(RULE_FLAGS[key][0]):
            raise _fail(path, f"rules.{key}", f"{value!r} is not one of {RULE_FLAGS[key]}")
        rules[key] = value
    missing = [k for k in RULE_FLAGS if k not in rules]
    if missing:
        raise _fail(path, "[rules]", f"missing default for {', '.join(missing)}")
    return rules


def _squares(path: Path, table: Any, language: str) -> tuple[Square, ...]:
    if not isinstance(table, list) or len(table) != 40:
        raise _fail(path, "[[square]]", f"expected 40 squares, found {len(table) if isinstance(table, list) else 0}")
    squares: list[Square] = []
    for position, entry in enumerate(table):
        where = f"square {entry.get('index', position) if isinstance(entry, dict) else position}"
        if not isinstance(entry, dict):
            raise _fail(path, where, "not a table")
        if entry.get("index") != position:
            raise _fail(path, where, f"squares must be listed in order 0-39; expected index {position}")
        kind = entry.get("kind")
        if kind not in SQUARE_KINDS:
            raise _fail(path, where, f"unknown kind {kind!r}")
        if "name" not in entry:
            raise _fail(path, where, "missing name")
        fields = {"index", "kind", "name"}
        square = Square(index=position, kind=kind, name=_texts(path, f"{where}.name", entry["name"], language))
        if kind in ("street", "railroad", "utility"):
            group = entry.get("group")
            expected_groups = COLOR_GROUPS if kind == "street" else (kind,)
            if group not in expected_groups:
                raise _fail(path, where, f"group {group!r} is not one of {', '.join(expected_groups)}")
            price = _int(path, f"{where}.price", entry.get("price"), 1)
            mortgage = _int(path, f"{where}.mortgage", entry.get("mortgage"), 1)
            if mortgage * 2 != price:
                raise _fail(path, f"{where}.mortgage", f"{mortgage} is not half the price {price}")
            key = "dice_multipliers" if kind == "utility" else "rents"
            count = {"street": 6, "railroad": 4, "utility": 2}[kind]
            rents = entry.get(key)
            if not isinstance(rents, list) or len(rents) != count:
                raise _fail(path, f"{where}.{key}", f"expected {count} values")
            rents = tuple(_int(path, f"{where}.{key}", r, 1) for r in rents)
            if any(b <= a for a, b in itertools.pairwise(rents)):
                raise _fail(path, f"{where}.{key}", f"must increase: {list(rents)}")
            house_cost = 0
            fields |= {"group", "price", "mortgage", key}
            if kind == "street":
                house_cost = _int(path, f"{where}.house_cost", entry.get("house_cost"), 1)
                fields.add("house_cost")
            square = replace(square, group=group, price=price, mortgage=mortgage, rents=rents,
                             house_cost=house_cost)
        elif kind in ("go", "tax"):
            square = replace(square, amount=_int(path, f"{where}.amount", entry.get("amount"), 1))
            fields.add("amount")
        extra = set(entry) - fields
        if extra:
            raise _fail(path, where, f"unexpected field(s) {', '.join(sorted(extra))} for a {kind}")
        squares.append(square)
    deeds = [s for s in squares if s.is_deed]
    counts = {k: sum(1 for s in deeds if s.kind == k) for k in ("street", "railroad", "utility")}
    if counts != {"street": 22, "railroad": 4, "utility": 2}:
        raise _fail(path, "[[square]]", f"expected 22 streets, 4 railroads and 2 utilities, found {counts}")
    for group in COLOR_GROUPS:
        members = [s for s in deeds if s.group == group]
        if not 2 <= len(members) <= 3:
            raise _fail(path, f"group {group}", f"has {len(members)} streets (2 or 3 expected)")
        if len({s.house_cost for s in members}) != 1:
            raise _fail(path, f"group {group}", "streets of one colour group must share one house cost")
    if [s.index for s in squares if s.kind == "tax"] != [INCOME_TAX_SQUARE, LUXURY_TAX_SQUARE]:
        raise _fail(path, "[[square]]", f"the tax squares must be {INCOME_TAX_SQUARE} (income tax) and "
                                        f"{LUXURY_TAX_SQUARE} (luxury tax)")
    return tuple(squares)


def _deck(path: Path, deck: str, table: Any, squares: tuple[Square, ...], language: str) -> tuple[DeckCard, ...]:
    if not isinstance(table, list) or len(table) != 16:
        raise _fail(path, f"[[{deck}]]", f"expected 16 cards, found {len(table) if isinstance(table, list) else 0}")
    cards = []
    for number, entry in enumerate(table, start=1):
        where = f"{deck} card {number}"
        if not isinstance(entry, dict):
            raise _fail(path, where, "not a table")
        action = entry.get("action")
        if not isinstance(action, str) or action not in DECK_ACTIONS:  # a table or a list is no action either
            raise _fail(path, where, f"unknown action {action!r} (expected one of {', '.join(DECK_ACTIONS)})")
        required, optional = DECK_ACTIONS[action]
        if "text" not in entry:
            raise _fail(path, f"{where}.text", "missing text")
        text = _texts(path, f"{where}.text", entry["text"], language).texts
        params = {k: v for k, v in entry.items() if k not in ("action", "text", "rules_versions", "v1_action")}
        missing = required - set(params)
        if missing:
            raise _fail(path, where, f"action {action} needs {', '.join(sorted(missing))}")
        unknown = set(params) - required - optional
        if unknown:
            raise _fail(path, where, f"unexpected field(s) {', '.join(sorted(unknown))} for {action}")
        for key in ("amount", "per_house", "per_hotel"):
            if key in params:
                _int(path, f"{where}.{key}", params[key], 1)
        if "square" in params:
            s = _int(path, f"{where}.square", params["square"])
            if s >= len(squares):
                raise _fail(path, f"{where}.square", f"no square {s}")
        if "steps" in params and not isinstance(params["steps"], int):
            raise _fail(path, f"{where}.steps", "expected a whole number")
        if "deck" in params and (not isinstance(params["deck"], str) or params["deck"] not in DECKS):
            raise _fail(path, f"{where}.deck", f"unknown deck {params['deck']!r}")
        cards.append(DeckCard(deck=deck, number=number, action=action, params=MappingProxyType(params),
                              text=text, language=language))
    if sum(1 for c in cards if c.action == "jail_card") != 1:
        raise _fail(path, f"[[{deck}]]", "each deck holds exactly one Get Out of Jail Free card")
    return tuple(cards)


def _in_own(name: str, language: str) -> str:
    """``name`` with ``language`` as its own language, when it has a text in it."""
    if isinstance(name, Localized) and name.texts.get(language):
        return Localized(name.texts, language)
    return name


def _derive(path: Path, raw: dict[str, Any], head: dict[str, Any], seen: set[str]) -> Edition:
    allowed = {"edition", "rules", "square_amounts"}
    for key in raw:
        if key not in allowed:
            raise _fail(path, key, f"unknown table in a derived edition (expected {', '.join(sorted(allowed))})")
    base_name = head["base"]
    if not isinstance(base_name, str) or not base_name or Path(base_name).name != base_name \
            or base_name in (".", ".."):
        raise _fail(path, "edition.base", f"expected the name of an edition beside this file, found {base_name!r}")
    base_path = path.with_name(f"{base_name}.toml")
    if not base_path.is_file():
        base_path = DATA_DIR / f"{base_name}.toml"
    if not base_path.is_file():
        raise _fail(path, "edition.base", f"no edition file {base_name}.toml")
    try:
        base_raw = tomllib.loads(base_path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _fail(path, "edition.base", f"cannot load {base_path}: {str(exc)[:200]}") from exc
    base = _build(base_path, base_raw, seen)
    if base.is_ultimate:
        raise _fail(path, "edition.base", f"{base_name} is an Ultimate board: it cannot be derived from")
    known = {"name", "base", "scale", "title", "label", "language", "currency_symbol", "currency_position"}
    for key in head:
        if key not in known:
            raise _fail(path, f"edition.{key}", "unknown setting for a derived edition")
    scale = _int(path, "edition.scale", head.get("scale", 1), 1)
    squares = tuple(
        replace(s, price=s.price * scale, mortgage=s.mortgage * scale, amount=s.amount * scale,
                house_cost=s.house_cost * scale,
                rents=s.rents if s.kind == "utility" else tuple(r * scale for r in s.rents))
        for s in base.squares)
    amounts = raw.get("square_amounts", {})
    if not isinstance(amounts, dict):
        raise _fail(path, "[square_amounts]", "must be a table")
    for key, value in amounts.items():
        # "²".isdigit() is true and int("²") fails: ASCII digits only
        if not (key.isascii() and key.isdigit() and int(key) < 40 and squares[int(key)].kind in ("go", "tax")):
            raise _fail(path, f"square_amounts.{key}", "only GO (0) and the tax squares (4, 38) have amounts")
        squares = tuple(replace(s, amount=_int(path, f"square_amounts.{key}", value, 1)) if s.index == int(key)
                        else s for s in squares)
    decks = {deck: tuple(replace(c, params=MappingProxyType({
        k: v * scale if k in ("amount", "per_house", "per_hotel") else v for k, v in c.params.items()}))
        for c in cards) for deck, cards in base.decks.items()}
    for key in ("title", "language", "currency_symbol", "currency_position"):
        if key in head and not isinstance(head[key], str):
            raise _fail(path, f"edition.{key}", "not a string")
    if head.get("currency_position", "after") not in ("before", "after"):
        raise _fail(path, "edition.currency_position", "must be 'before' or 'after'")
    language = head.get("language", base.language)
    if not _LANGUAGE_CODE.fullmatch(language):
        raise _fail(path, "edition.language", f"expected a language code such as 'fr' or 'en', found {language!r}")
    group_names = dict(base.group_names)
    if language != base.language:  # the texts' own language follows the edition's
        squares = tuple(replace(s, name=_in_own(s.name, language)) for s in squares)
        decks = {deck: tuple(replace(c, language=language) for c in cards) for deck, cards in decks.items()}
        group_names = {g: Localized(n.texts, language) for g, n in group_names.items()}
    return replace(
        base, name=head["name"], title=head.get("title", base.title), language=language,
        label=_label(path, head, head["name"], language),
        group_names=MappingProxyType(group_names),
        currency_symbol=head.get("currency_symbol", base.currency_symbol),
        currency_position=head.get("currency_position", base.currency_position),
        starting_cash=base.starting_cash * scale, go_salary=squares[0].amount,
        jail_fine=base.jail_fine * scale, rules=MappingProxyType(_rules(path, raw.get("rules", {}), base.rules)),
        squares=squares, decks=MappingProxyType(decks), source=str(path), scale=base.scale * scale)


def missing_texts(edition: Edition, languages: tuple[str, ...] = LANGUAGES) -> list[tuple[str, str, str]]:
    """Every text ``edition`` lacks in one of ``languages``, as ``(edition, language, entry)`` with entry
    ``"square 12"``, ``"group brown"``, ``"chance card 3"`` or ``"community_chest card 7"``. Such a text is
    shown in the edition's own language instead; a shipped edition lacks none (a test checks it) and
    ``banquier doctor`` lists the gaps of the editions it finds."""
    missing = []
    for language in languages:
        for square in edition.squares:
            if not isinstance(square.name, Localized) or not square.name.texts.get(language):
                missing.append((edition.name, language, f"square {square.index}"))
        for group in COLOR_GROUPS if edition.is_ultimate else NAMED_GROUPS:  # the Ultimate board: colours only
            name = edition.group_names.get(group)
            if name is None or not name.texts.get(language):
                missing.append((edition.name, language, f"group {group}"))
        for deck in DECKS:
            for card in edition.decks.get(deck, ()):
                if not card.text.get(language):
                    missing.append((edition.name, language, f"{deck} card {card.number}"))
        for event in edition.events:
            if not event.text.get(language):
                missing.append((edition.name, language, f"event card {event.number}"))
    return missing


def describe_missing(edition: Edition, languages: tuple[str, ...] = LANGUAGES) -> str:
    """One line in English summing up :func:`missing_texts` (``""`` when nothing is missing), e.g.
    ``"uk: 40 squares, 10 groups, 32 cards"``."""
    parts = []
    for language in languages:
        gaps = [entry for _, lang, entry in missing_texts(edition, (language,)) if lang == language]
        if not gaps:
            continue
        kinds = [g.split()[0] if g.split()[0] in ("square", "group") else "card" for g in gaps]
        counts = {kind: kinds.count(kind) for kind in ("square", "group", "card")}
        words = [f"{n} {kind}{'s' if n != 1 else ''}" for kind, n in counts.items() if n]
        first = gaps[0]
        parts.append(f"{language}: {', '.join(words)} (first: {first})")
    return "; ".join(parts)


# -- the Ultimate Banking board ------------------------------------------------------------------------------
def _all_texts(path: Path, entry: str, value: Any, language: str, languages: tuple[str, ...]) -> Localized:
    """A text by language (``{fr = "...", en = "...", uk = "..."}``, the format of :func:`_texts`) with a
    non-empty text in each of ``languages`` (the edition's ``languages``)."""
    text = _texts(path, entry, value, language)
    missing = [lang for lang in languages if not text.texts.get(lang)]
    if missing:
        raise _fail(path, entry, f"missing text in {', '.join(missing)}")
    return text


def _build_ultimate(path: Path, raw: dict[str, Any], head: dict[str, Any]) -> Edition:
    """An edition of the electronic Ultimate Banking board (``board = "ultimate"`` in ``[edition]``).

    The file holds ``[edition]`` (``name``, ``board``, ``title``, ``language``, ``languages`` (the languages
    every text is given in), ``currency_symbol``, ``currency_position``, ``starting_cash``, ``go_salary``,
    ``location_fee``, ``min_players``, ``max_players``), ``[rules]`` (a default for each of
    :data:`ULTIMATE_RULE_FLAGS`), ``[groups]`` (each colour group's name by language), 36 ``[[square]]``
    (``index``, ``kind`` one of :data:`ULTIMATE_SQUARE_KINDS`, ``name`` by language; a street adds ``group``,
    ``price`` and ``rents``: its 5 rent levels, increasing; GO adds ``amount``) and ``[[event]]`` (``action``
    one of :data:`EVENT_ACTIONS`, its int fields, ``text`` by language). Corners at 0, 9, 18 and 27; 22 streets in
    the 8 colour groups (2 or 3 each). A street's ``Square`` has ``rents`` = the 5 levels, no mortgage and no
    house cost; its ``name`` is the text in the edition's ``language``.
    """
    allowed = {"edition", "rules", "groups", "square", "event"}
    for key in raw:
        if key not in allowed:
            raise _fail(path, key, f"unknown table (expected one of {', '.join(sorted(allowed))})")
    known = {"name", "board", "title", "language", "languages", "currency_symbol", "currency_position",
             "starting_cash", "go_salary", "location_fee", "min_players", "max_players", "label"}
    for key in head:
        if key not in known:
            raise _fail(path, f"edition.{key}", "unknown setting for an Ultimate board")
    for key in ("title", "language", "currency_symbol", "currency_position"):
        if not isinstance(head.get(key), str) or not head[key]:
            raise _fail(path, f"edition.{key}", "missing or not a string")
    if head["currency_position"] not in ("before", "after"):
        raise _fail(path, "edition.currency_position", "must be 'before' or 'after'")
    languages = head.get("languages", [head["language"]])
    if (not isinstance(languages, list) or not languages or not all(isinstance(x, str) and x for x in languages)
            or len(set(languages)) != len(languages)):
        raise _fail(path, "edition.languages", "expected a list of distinct language codes")
    if head["language"] not in languages:
        raise _fail(path, "edition.languages", f"must include the edition's language {head['language']!r}")
    langs = tuple(languages)
    money = {k: _int(path, f"edition.{k}", head.get(k), 1) for k in ("starting_cash", "go_salary", "location_fee")}
    least = _int(path, "edition.min_players", head.get("min_players", 2), 2)
    most = _int(path, "edition.max_players", head.get("max_players", 8), least)
    if most > 8:
        raise _fail(path, "edition.max_players", f"at most 8 players (bank cards 1 to 8), found {most}")
    rules = _ultimate_rules(path, raw.get("rules"))
    groups_raw = raw.get("groups")
    if not isinstance(groups_raw, dict):
        raise _fail(path, "[groups]", "missing table of colour group names")
    unknown_groups = sorted(set(groups_raw) - set(COLOR_GROUPS))
    if unknown_groups:
        raise _fail(path, f"groups.{unknown_groups[0]}", f"not a colour group ({', '.join(COLOR_GROUPS)})")
    group_names = {g: _all_texts(path, f"groups.{g}", groups_raw.get(g), head["language"], langs)
                   for g in COLOR_GROUPS}
    squares = _ultimate_squares(path, raw.get("square"), head["language"], langs)
    if squares[0].amount != money["go_salary"]:
        raise _fail(path, "square 0", f"GO amount {squares[0].amount} differs from edition.go_salary "
                                      f"{money['go_salary']}")
    events = _events(path, raw.get("event"), head["language"], langs)
    groups: dict[str, list[int]] = {}
    for s in squares:
        if s.group is not None:
            groups.setdefault(s.group, []).append(s.index)
    return Edition(name=head["name"], title=head["title"], language=head["language"],
                   label=_label(path, head, head["name"], head["language"]),
                   currency_symbol=head["currency_symbol"], currency_position=head["currency_position"],
                   starting_cash=money["starting_cash"], go_salary=money["go_salary"], jail_fine=rules["jail_fee"],
                   houses=0, hotels=0, houses_before_hotel=0, rules=MappingProxyType(rules), squares=squares,
                   decks=MappingProxyType({}), source=str(path),
                   groups=MappingProxyType({g: tuple(v) for g, v in groups.items()}), board="ultimate",
                   events=events, location_fee=money["location_fee"], min_players=least, max_players=most,
                   group_names=MappingProxyType(group_names))


def _ultimate_rules(path: Path, table: Any) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise _fail(path, "[rules]", "missing table of rule flag defaults")
    for key, value in table.items():
        if key not in ULTIMATE_RULE_FLAGS:
            raise _fail(path, f"rules.{key}", f"unknown rule flag (known: {', '.join(ULTIMATE_RULE_FLAGS)})")
        allowed = ULTIMATE_RULE_FLAGS[key]
        if value not in allowed or type(value) is not type(allowed[0]):
            raise _fail(path, f"rules.{key}", f"{value!r} is not one of {allowed}")
    missing = [k for k in ULTIMATE_RULE_FLAGS if k not in table]
    if missing:
        raise _fail(path, "[rules]", f"missing default for {', '.join(missing)}")
    return dict(table)


def _ultimate_squares(path: Path, table: Any, language: str,
                      langs: tuple[str, ...]) -> tuple[Square, ...]:
    count = len(table) if isinstance(table, list) else 0
    if not isinstance(table, list) or count != ULTIMATE_SQUARES:
        raise _fail(path, "[[square]]", f"expected {ULTIMATE_SQUARES} squares, found {count}")
    squares: list[Square] = []
    for position, entry in enumerate(table):
        where = f"square {position}"
        if not isinstance(entry, dict):
            raise _fail(path, where, "not a table")
        if entry.get("index") != position:
            raise _fail(path, where, f"squares must be listed in order 0-{ULTIMATE_SQUARES - 1}; expected index "
                                     f"{position}")
        kind = entry.get("kind")
        if kind not in ULTIMATE_SQUARE_KINDS:
            raise _fail(path, where, f"unknown kind {kind!r} (expected one of {', '.join(ULTIMATE_SQUARE_KINDS)})")
        corner = ULTIMATE_CORNERS.get(position)
        if (corner is not None and kind != corner) or (corner is None and kind in ULTIMATE_CORNERS.values()):
            raise _fail(path, where, f"a {kind} square must be a corner: GO 0, jail 9, free parking 18, go to jail 27")
        text = _all_texts(path, f"{where}.name", entry.get("name"), language, langs)
        fields = {"index", "kind", "name"}
        square = Square(index=position, kind=kind, name=text)
        if kind == "street":
            group = entry.get("group")
            if group not in COLOR_GROUPS:
                raise _fail(path, f"{where}.group", f"{group!r} is not one of {', '.join(COLOR_GROUPS)}")
            price = _int(path, f"{where}.price", entry.get("price"), 1)
            rents = entry.get("rents")
            if not isinstance(rents, list) or len(rents) != ULTIMATE_LEVELS:
                raise _fail(path, f"{where}.rents", f"expected {ULTIMATE_LEVELS} rent levels")
            levels = tuple(_int(path, f"{where}.rents", r, 1) for r in rents)
            if any(b <= a for a, b in itertools.pairwise(levels)):
                raise _fail(path, f"{where}.rents", f"rent levels must increase: {list(levels)}")
            fields |= {"group", "price", "rents"}
            square = replace(square, group=group, price=price, rents=levels)
        elif kind == "go":
            square = replace(square, amount=_int(path, f"{where}.amount", entry.get("amount"), 1))
            fields.add("amount")
        extra = set(entry) - fields
        if extra:
            raise _fail(path, where, f"unexpected field(s) {', '.join(sorted(extra))} for a {kind}")
        squares.append(square)
    streets = [s for s in squares if s.kind == "street"]
    if len(streets) != 22:
        raise _fail(path, "[[square]]", f"expected 22 properties, found {len(streets)}")
    for group in COLOR_GROUPS:
        members = [s for s in streets if s.group == group]
        if not 2 <= len(members) <= 3:
            raise _fail(path, f"group {group}", f"has {len(members)} propert{'y' if len(members) == 1 else 'ies'} "
                                                f"(2 or 3 expected)")
    return tuple(squares)


def _events(path: Path, table: Any, language: str, langs: tuple[str, ...]) -> tuple[EventCard, ...]:
    if not isinstance(table, list) or not table:
        raise _fail(path, "[[event]]", "expected the Event cards")
    cards: list[EventCard] = []
    for number, entry in enumerate(table, start=1):
        where = f"event card {number}"
        if not isinstance(entry, dict):
            raise _fail(path, where, "not a table")
        action = entry.get("action")
        if not isinstance(action, str) or action not in EVENT_ACTIONS:
            raise _fail(path, where, f"unknown action {action!r} (expected one of {', '.join(EVENT_ACTIONS)})")
        required, optional = EVENT_ACTIONS[action]
        params = {k: v for k, v in entry.items() if k not in ("action", "text", "rules_versions", "v1_action")}
        missing = required - set(params)
        if missing:
            raise _fail(path, where, f"action {action} needs {', '.join(sorted(missing))}")
        unknown = set(params) - required - optional
        if unknown:
            raise _fail(path, where, f"unexpected field(s) {', '.join(sorted(unknown))} for {action}")
        checked = {k: _int(path, f"{where}.{k}", v, 1) for k, v in params.items()}
        text = _all_texts(path, f"{where}.text", entry.get("text"), language, langs)
        versions = entry.get("rules_versions", [])
        if not isinstance(versions, list) or not all(type(v) is int and v in CARD_RULES_VERSIONS for v in versions):
            raise _fail(path, f"{where}.rules_versions", f"expected a list of {CARD_RULES_VERSIONS}")
        v1_action = entry.get("v1_action")
        if v1_action is not None and (v1_action not in EVENT_ACTIONS or EVENT_ACTIONS[v1_action][0]):
            raise _fail(path, f"{where}.v1_action", "expected an action of no amount")
        cards.append(EventCard(number=number, action=action, params=MappingProxyType(checked),
                               text=MappingProxyType(dict(text.texts)), language=language,
                               versions=tuple(versions), v1_action=v1_action))
    return tuple(cards)
