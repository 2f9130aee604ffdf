"""The card registry: which physical RFID card or sticker is which role, and the guided enrolment.

A role is a player's bank card (:class:`PlayerCard`, players 1-8), the sticker on a title deed
(:class:`DeedCard`, by square) or the banker card (:class:`BankerCard`). Each role has a readable label
(``"player 3"``, ``"deed 39"``, ``"banker"``) that :func:`parse_role` reads back.

A :class:`CardRegistry` maps UIDs to roles and lives in a card-set file, separate from games, since one set
of cards serves many games. The file is plain UTF-8 text, one card a line, ``#`` starting a comment::

    04A1B2C3             = player 1
    04A1B2C3D4E5F6       = deed 39   # Rue de la Paix

It is rewritten atomically after every change (temporary file in the same folder, fsync, rename, fsync of
the folder), so a power cut leaves either the old or the new file, never half of one. A malformed file is
refused with the line and the reason, and never replaced by an empty set (field-notes 19).

:class:`Enrolment` is the guided sequence the terminal drives ("Tap the card for player 1", "Tap the
sticker on Rue de la Paix", ...): pure logic over a registry, each step skippable.

UIDs are the canonical text of ``hal.uid``: upper-case hex of the card's real 4, 5, 7 or 10 bytes in the order
the card sends them (field-notes 5). ``cards`` does not import ``hal``; :func:`normalize_uid` below accepts the
same forms. Each reader backend turns what its reader writes (reversed bytes, a 10-digit decimal number) into
this one form (``hal.uid.UidForm``), so the same card is the same role on every reader, and a card set keeps
only canonical UIDs. Card sets written before readers declared their form hold the same canonical text (every
earlier backend wrote it), in any accepted spelling (lower case, ``04:a1:...``): they load and match unchanged,
and are rewritten canonical at the next change.

One ambiguity is refused at enrolment: a card whose UID read backwards is another enrolled card's UID
(:class:`~cards.errors.AmbiguousCard`), since a reader declared with the wrong byte order would take one card
for the other. A card set that already holds such a pair still loads (nothing enrolled before is lost).
"""
from __future__ import annotations

import contextlib
import errno
import functools
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from cards.editions import CARD_RULES_VERSIONS, Edition, load_edition
from cards.errors import (
    AlreadyEnrolled,
    AmbiguousCard,
    CardSetError,
    CardSetFileError,
    EnrolmentStateError,
    InvalidRoleError,
    InvalidUidError,
    NotEnrolled,
    RoleHasCard,
)
from cards.inputs import read_input, shown_path

__all__ = [
    "UID_LENGTHS", "PLAYER_NUMBERS", "CARD_SET_FILE", "normalize_uid", "deed_squares", "PlayerCard",
    "DeedCard", "BankerCard", "PropertyCard", "EventCard", "PROPERTY_NUMBERS", "EVENT_NUMBERS",
    "Role", "parse_role", "describe", "role_params", "default_card_set_path",
    "reversed_uid", "CardRegistry", "EnrolmentStep", "EnrolmentResult", "EnrolmentSummary", "Enrolment",
]

#: Byte lengths a UID may have: 4/7/10 (ISO 14443A single/double/triple size) and 5 (EM4100 tags read
#: by an RDM6300). The same as ``hal.uid.UID_LENGTHS`` (a test checks they agree).
UID_LENGTHS = (4, 5, 7, 10)
#: Player numbers a bank card can have (a game has 2 to 8 players).
PLAYER_NUMBERS = range(1, 9)
#: The Ultimate Banking board's property numbers (22 properties in board order) and Event card numbers: those of
#: the edition's Event cards of every rules version (``cards/data/ultimate.toml``: 1-24; a game's deck holds 22).
PROPERTY_NUMBERS = range(1, 23)
EVENT_NUMBERS = range(1, max(card.number for card in load_edition("ultimate").events) + 1)
#: The card-set file's name in the data directory.
CARD_SET_FILE = "cards.txt"
#: The largest card set read (bytes): one line a card, a few kilobytes.
MAX_CARD_SET_BYTES = 4 * 1024 * 1024

_SEPARATORS = re.compile(r"[\s:\-.]")
_HEX = re.compile(r"[0-9A-F]+")


def normalize_uid(text: str) -> str:
    """The canonical form of a UID: upper-case hex, no separators (``"04:a1:b2:c3"`` -> ``"04A1B2C3"``).

    Accepts upper or lower case, an optional ``0x`` and ``:``, ``-``, ``.`` or blanks between digits, like
    ``hal.uid.normalize_uid``. A 7-byte UID and a 4-byte UID sharing their first bytes are different cards.

    Raises :class:`~cards.errors.InvalidUidError` (a ``ValueError``): not text, not hex, an odd number of
    digits, or not 4, 5, 7 or 10 bytes.
    """
    if not isinstance(text, str):
        raise InvalidUidError(f"A card UID is text such as '04A1B2C3', not {type(text).__name__}.",
                              params={"uid": repr(text)})
    cleaned = _SEPARATORS.sub("", text).upper()
    if cleaned.startswith("0X"):
        cleaned = cleaned[2:]
    if not cleaned or not _HEX.fullmatch(cleaned):
        raise InvalidUidError(f"{text!r} is not a card UID: use hex digits such as '04A1B2C3'.",
                              params={"uid": text})
    if len(cleaned) % 2 or len(cleaned) // 2 not in UID_LENGTHS:
        raise InvalidUidError(f"{text!r} is {len(cleaned) / 2:g} bytes long; a card UID has 4, 5, 7 or 10 bytes.",
                              params={"uid": text})
    return cleaned


@functools.cache
def deed_squares() -> frozenset[int]:
    """The squares (1-39) of the 28 title deeds: streets, railroads and utilities. Every shipped edition of the
    classic board has them on the same squares (a test checks it); they are read from the ``us`` edition. The
    Ultimate Banking board's properties are :class:`PropertyCard` roles instead."""
    return frozenset(s.index for s in load_edition("us").deeds())


# --- Roles -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerCard:
    """A player's bank card. ``number`` 1-8 is the player's seat, not a name (names belong to a game).

    Raises :class:`~cards.errors.InvalidRoleError` (a ``ValueError``) for another number."""

    number: int

    def __post_init__(self) -> None:
        if not isinstance(self.number, int) or isinstance(self.number, bool) or self.number not in PLAYER_NUMBERS:
            raise InvalidRoleError(f"There is no player {self.number!r}: players are numbered 1 to 8.",
                                   code="invalid_player_number", params={"number": self.number})

    @property
    def label(self) -> str:
        """``"player N"``."""
        return f"player {self.number}"

    @property
    def sort_key(self) -> tuple[int, int]:
        """Banker first, then players by number, then deeds in board order."""
        return (1, self.number)

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class DeedCard:
    """The sticker on a title deed. ``square`` is the deed's square on the board (1-39, one of
    :func:`deed_squares`: a street, a railroad or a utility).

    Raises :class:`~cards.errors.InvalidRoleError` (a ``ValueError``) for a square that is not a deed."""

    square: int

    def __post_init__(self) -> None:
        if not isinstance(self.square, int) or isinstance(self.square, bool) or self.square not in deed_squares():
            raise InvalidRoleError(
                f"Square {self.square!r} is not a title deed: stickers go on streets, railroads and utilities "
                f"(squares {', '.join(map(str, sorted(deed_squares())))}); on the Ultimate Banking board a "
                f"property's sticker is 'property N' (1 to {PROPERTY_NUMBERS[-1]}).",
                code="not_a_deed", params={"square": self.square})

    @property
    def label(self) -> str:
        """``"deed N"``."""
        return f"deed {self.square}"

    @property
    def sort_key(self) -> tuple[int, int]:
        """Banker first, then players by number, then deeds in board order."""
        return (2, self.square)

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class BankerCard:
    """The banker card: it opens the banker functions (new game, undo, enrolment, settings)."""

    @property
    def label(self) -> str:
        """``"banker"``."""
        return "banker"

    @property
    def sort_key(self) -> tuple[int, int]:
        """Banker first, then players by number, then deeds in board order."""
        return (0, 0)

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class PropertyCard:
    """The sticker on a property card of the Ultimate Banking board. ``number`` 1-22 is the property's number
    in board order (its square: ``terminal.bank.ultimate.properties(edition)[number - 1]``).

    Raises :class:`~cards.errors.InvalidRoleError` (a ``ValueError``) for another number."""

    number: int

    def __post_init__(self) -> None:
        if (not isinstance(self.number, int) or isinstance(self.number, bool)
                or self.number not in PROPERTY_NUMBERS):
            raise InvalidRoleError(f"There is no property {self.number!r}: the Ultimate Banking board's properties "
                                   f"are numbered 1 to 22.", code="invalid_property_number",
                                   params={"number": self.number})

    @property
    def label(self) -> str:
        """``"property N"``."""
        return f"property {self.number}"

    @property
    def sort_key(self) -> tuple[int, int]:
        return (3, self.number)

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class EventCard:
    """The sticker on an Event card of the Ultimate Banking board. ``number`` (:data:`EVENT_NUMBERS`: 1-24) is the
    card's number in the edition's Event cards of every rules version (``Edition.events[number - 1]``; a game's
    deck holds 22 of them, see ``Edition.deck``).

    Raises :class:`~cards.errors.InvalidRoleError` (a ``ValueError``) for another number."""

    number: int

    def __post_init__(self) -> None:
        if not isinstance(self.number, int) or isinstance(self.number, bool) or self.number not in EVENT_NUMBERS:
            raise InvalidRoleError(f"There is no Event card {self.number!r}: Event cards are numbered 1 to "
                                   f"{EVENT_NUMBERS[-1]}.", code="invalid_event_number",
                                   params={"number": self.number, "last": EVENT_NUMBERS[-1]})

    @property
    def label(self) -> str:
        """``"event N"``."""
        return f"event {self.number}"

    @property
    def sort_key(self) -> tuple[int, int]:
        return (4, self.number)

    def __str__(self) -> str:
        return self.label


Role = PlayerCard | DeedCard | BankerCard | PropertyCard | EventCard
_ROLE_TYPES = (PlayerCard, DeedCard, BankerCard, PropertyCard, EventCard)
_LABEL = re.compile(r"(player|deed|property|event)\s+([0-9]{1,3})|(banker)", re.IGNORECASE)


def parse_role(label: str) -> Role:
    """The role named by ``label``: ``"banker"``, ``"player N"`` (1-8), ``"deed N"`` (a deed's square),
    ``"property N"`` (1-22) or ``"event N"`` (1-24), the last two on the Ultimate Banking board.
    Case and surrounding blanks do not matter: ``parse_role(role.label) == role`` for every role.

    Raises :class:`~cards.errors.InvalidRoleError` (a ``ValueError``) for anything else.
    """
    match = _LABEL.fullmatch(label.strip()) if isinstance(label, str) else None
    if match is None:
        raise InvalidRoleError(f"{label!r} is not a role: write 'banker', 'player N' (1 to 8), 'deed N' "
                               f"(the title deed's square, 1 to 39), 'property N' (1 to 22) or 'event N' "
                               f"(1 to {EVENT_NUMBERS[-1]}).", params={"label": str(label)})
    if match.group(3):
        return BankerCard()
    number = int(match.group(2))
    kinds: dict[str, type[PlayerCard | DeedCard | PropertyCard | EventCard]] = {
        "player": PlayerCard, "deed": DeedCard, "property": PropertyCard, "event": EventCard}
    return kinds[match.group(1).lower()](number)


def _check_role(role: Any) -> Role:
    if not isinstance(role, _ROLE_TYPES):
        raise InvalidRoleError(f"{role!r} is not a role: use PlayerCard(n), DeedCard(square), BankerCard() "
                               f"or parse_role('player 1').", params={"label": repr(role)})
    return role


def _deed_name(square: int, edition: Edition | None) -> str | None:
    return edition.square(square).name if edition is not None and not edition.is_ultimate else None


def _property_name(number: int, edition: Edition | None) -> str | None:
    if edition is None or not edition.is_ultimate:
        return None
    return edition.deeds()[number - 1].name


def role_params(role: Role, edition: Edition | None = None) -> dict[str, Any]:
    """Message parameters naming ``role``: always ``role`` (the label) and ``kind`` (``banker``, ``player``,
    ``deed``); ``number`` for a player; ``square`` and ``name`` (the deed's name in ``edition``, else
    ``"deed N"``) for a deed."""
    params: dict[str, Any] = {"role": role.label}
    if isinstance(role, PlayerCard):
        params.update(kind="player", number=role.number)
    elif isinstance(role, DeedCard):
        params.update(kind="deed", square=role.square, name=_deed_name(role.square, edition) or role.label)
    elif isinstance(role, PropertyCard):
        params.update(kind="property", number=role.number, name=_property_name(role.number, edition) or role.label)
    elif isinstance(role, EventCard):
        params.update(kind="event", number=role.number)
    else:
        params.update(kind="banker")
    return params


def describe(role: Role, edition: Edition | None = None) -> str:
    """English words for the card of ``role``: ``"player 2's bank card"``, ``"the banker card"``,
    ``"the sticker on Rue de la Paix"`` (``"the sticker on deed 39"`` without an edition)."""
    if isinstance(role, PlayerCard):
        return f"player {role.number}'s bank card"
    if isinstance(role, DeedCard):
        return f"the sticker on {_deed_name(role.square, edition) or role.label}"
    if isinstance(role, PropertyCard):
        return f"the sticker on {_property_name(role.number, edition) or role.label}"
    if isinstance(role, EventCard):
        return f"the sticker on Event card {role.number}"
    return "the banker card"


def default_card_set_path() -> Path:
    """``$BANQUIER_DATA_DIR/cards.txt``, else ``$XDG_DATA_HOME/banquier/cards.txt``
    (``~/.local/share/banquier/cards.txt``): the same data directory as ``host_ui.cli.data_dir``."""
    if os.environ.get("BANQUIER_DATA_DIR"):
        return Path(os.environ["BANQUIER_DATA_DIR"]) / CARD_SET_FILE
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "banquier" / CARD_SET_FILE


# --- The card-set text format -------------------------------------------------------------------------------

_HEADER = f"""\
# Banquier card set: which RFID card or sticker plays which role. One set of cards serves many games.
# One card a line: UID = role. UID: the card's hex digits (4, 5, 7 or 10 bytes). Role: banker,
# player 1 to player 8, deed N (N = the title deed's square on the board, 1 to 39), or on the Ultimate
# Banking board property N (1 to {PROPERTY_NUMBERS[-1]}) and event N (its Event cards, 1 to {EVENT_NUMBERS[-1]}).
# Text after # is a comment. Banquier rewrites this file after each change: edit it while Banquier is stopped.
"""


def _parse(text: str, where: str) -> tuple[dict[str, Role], dict[str, int]]:
    """Parse card-set text into ({uid: role}, {uid: line number}), refusing the first bad line with
    :class:`CardSetError` (``where`` names the file in the message)."""
    cards: dict[str, Role] = {}
    uid_line: dict[str, int] = {}
    role_line: dict[Role, tuple[int, str]] = {}

    def fail(line: int, reason: str) -> CardSetError:
        return CardSetError(f"{where}, line {line}: {reason}", params={"file": where, "line": line, "reason": reason})

    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        content = raw.split("#", 1)[0].strip()
        if not content:
            continue
        if content.count("=") != 1:
            raise fail(number, f"expected 'UID = role', found {content!r}.")
        uid_text, label = (part.strip() for part in content.split("="))
        try:
            uid = normalize_uid(uid_text)
            role = parse_role(label)
        except (InvalidUidError, InvalidRoleError) as exc:
            raise fail(number, str(exc)) from exc
        if uid in uid_line:
            raise fail(number, f"card {uid} is already listed on line {uid_line[uid]}; a card has one role.")
        if role in role_line:
            other_line, other_uid = role_line[role]
            raise fail(number, f"{role.label} already has card {other_uid} on line {other_line}; a role has one card.")
        uid_line[uid] = number
        role_line[role] = (number, uid)
        cards[uid] = role
    return cards, uid_line


def _format(cards: Mapping[str, Role], edition: Edition | None) -> str:
    """The card-set text of {uid: role}: header, then banker, bank cards and deed stickers in board order."""
    by_role = sorted(((role, uid) for uid, role in cards.items()), key=lambda item: item[0].sort_key)
    sections = {BankerCard: "# The banker card", PlayerCard: "# Bank cards", DeedCard: "# Title deed stickers",
                PropertyCard: "# Ultimate Banking property stickers", EventCard: "# Ultimate Banking Event cards"}
    lines = [_HEADER.rstrip("\n")]
    for kind, title in sections.items():
        rows = [(role, uid) for role, uid in by_role if type(role) is kind]
        if rows:
            lines += ["", title]
        for role, uid in rows:
            line = f"{uid:<20} = {role.label}"
            name = (_deed_name(role.square, edition) if isinstance(role, DeedCard)
                    else _property_name(role.number, edition) if isinstance(role, PropertyCard) else None)
            if name:
                line = f"{line:<31} # {name}"
            lines.append(line)
    return "\n".join(lines) + "\n"


def _write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` so that a crash at any moment leaves the old file or the new one.
    Raises ``OSError``; on failure before the rename the old file and the folder are as they were."""
    directory = path.parent
    if not directory.is_dir():  # a new data folder: its owner's and the service group's, whatever the umask
        directory.mkdir(parents=True, exist_ok=True)
        os.chmod(directory, 0o750)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = 0o640  # owner and the service's group only, whatever the umask
    fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            if hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), mode)
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _fsync_directory(directory)


def _fsync_directory(directory: Path) -> None:
    """Make the rename durable. Systems that cannot open or sync a folder (Windows, some FUSE) skip it."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)


def _already_enrolled(uid: str, current: Role, edition: Edition | None) -> AlreadyEnrolled:
    return AlreadyEnrolled(f"This card is already {describe(current, edition)}: use another card, or forget this "
                           f"one first to give it another role.", params={"uid": uid, **role_params(current, edition)})


def reversed_uid(uid: str) -> str:
    """The canonical ``uid`` with its bytes in the other order (``"04A1B2C3"`` -> ``"C3B2A104"``)."""
    return "".join(reversed([uid[i:i + 2] for i in range(0, len(uid), 2)]))


def _ambiguous(uid: str, other: str, role: Role, edition: Edition | None) -> AmbiguousCard:
    return AmbiguousCard(f"Card {uid} read backwards is card {other}, already {describe(role, edition)}: a reader "
                         f"that reverses UIDs could not tell them apart; use another card.",
                         params={"uid": uid, "other_uid": other, **role_params(role, edition)})


def _role_has_card(role: Role, uid: str, edition: Edition | None) -> RoleHasCard:
    if isinstance(role, PlayerCard):
        has = f"Player {role.number} already has a bank card"
    elif isinstance(role, DeedCard):
        has = f"{_deed_name(role.square, edition) or role.label.capitalize()} already has a sticker"
    elif isinstance(role, PropertyCard):
        has = f"{_property_name(role.number, edition) or role.label.capitalize()} already has a sticker"
    elif isinstance(role, EventCard):
        has = f"Event card {role.number} already has a sticker"
    else:
        has = "There already is a banker card"
    return RoleHasCard(f"{has} ({uid}). Skip this step, or re-enrol it as a lost card to replace it (the old card "
                       f"then stops working).", params={**role_params(role, edition), "current_uid": uid})


# --- The registry ---------------------------------------------------------------------------------------------


class CardRegistry:
    """The card set: UID -> role, one card per role and one role per card, saved after every change.

    Build it with :meth:`load`. ``CardRegistry(None)`` is an in-memory set that saves nowhere (tests,
    demos). ``edition`` only supplies deed names for the file's comments and for messages.
    """

    def __init__(self, path: str | Path | None, cards: Mapping[str, Role] | None = None, *,
                 edition: Edition | None = None):
        self.path = Path(path) if path is not None else None
        self.edition = edition
        self._by_uid: dict[str, Role] = {}
        for uid, role in (cards or {}).items():
            self._by_uid[normalize_uid(uid)] = _check_role(role)
        self._by_role = {role: uid for uid, role in self._by_uid.items()}
        if len(self._by_role) != len(self._by_uid):
            raise CardSetError("Two cards were given the same role; a role has one card.",
                               params={"file": str(self.path), "line": 0, "reason": "duplicate role"})

    @classmethod
    def load(cls, path: str | Path, *, edition: Edition | None = None) -> CardRegistry:
        """Read the card-set file at ``path``. A missing file is an empty set (the file is created by the
        first change). Nothing is ever written by loading.

        Raises :class:`~cards.errors.CardSetError` (a ``ValueError``) for a malformed file, naming the line:
        a bad UID or role, a card or a role listed twice, text that is not UTF-8, or an empty (0-byte) file,
        which is what a power cut leaves behind, never what Banquier writes.
        Raises :class:`~cards.errors.CardSetFileError` (an ``OSError``) if the file cannot be read.
        """
        path = Path(path)
        try:
            data = read_input(path, limit=MAX_CARD_SET_BYTES)  # never a FIFO waited on, nor /dev/zero read
        except FileNotFoundError:
            return cls(path, edition=edition)
        except OSError as exc:
            raise CardSetFileError(f"Cannot read the card set {shown_path(path)}: {exc.strerror or exc}.",
                                   code="card_set_unreadable", params={"file": str(path)}) from exc
        if not data:
            raise CardSetError(f"{path}: the card set file is empty (0 bytes), as a power cut leaves it. Restore "
                               f"it from a backup, or delete it to start an empty card set.",
                               params={"file": str(path), "line": 0, "reason": "empty file"})
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[:exc.start].count(b"\n") + 1
            reason = "not UTF-8 text (the file is damaged or not a card set)."
            raise CardSetError(f"{path}, line {line}: {reason}",
                               params={"file": str(path), "line": line, "reason": reason}) from exc
        return cls(path, _parse(text, str(path))[0], edition=edition)

    # Queries

    def lookup(self, uid: str) -> Role | None:
        """The role of the card ``uid``, or ``None`` for an unknown card. Raises ``InvalidUidError``."""
        return self._by_uid.get(normalize_uid(uid))

    def uid_of(self, role: Role) -> str | None:
        """The UID of the card of ``role``, or ``None`` if it has none. Raises ``InvalidRoleError``."""
        return self._by_role.get(_check_role(role))

    def roles(self) -> dict[Role, str]:
        """Every enrolled role and its card's UID: banker, players by number, deeds in board order (a copy)."""
        return {role: self._by_role[role] for role in sorted(self._by_role, key=lambda r: r.sort_key)}

    def __len__(self) -> int:
        return len(self._by_uid)

    def __contains__(self, uid: object) -> bool:
        if not isinstance(uid, str):  # not text: not a UID, so not a card of this set
            return False
        try:
            return normalize_uid(uid) in self._by_uid
        except InvalidUidError:
            return False

    def export_text(self) -> str:
        """The card set as text, exactly as :meth:`save` writes it (readable, re-importable)."""
        return _format(self._by_uid, self.edition)

    # Changes: each validates everything, then saves, then changes memory (memory always matches the file).

    def enrol(self, uid: str, role: Role, replace: bool = False) -> str | None:
        """Give the card ``uid`` the role ``role`` and save. Returns the UID it replaced (``replace``) or ``None``.

        Raises :class:`~cards.errors.AlreadyEnrolled` (a ``ValueError``) if the card already has a role, even
        the same one ("This card is already player 2's bank card: ..."): forget it first to give it another.
        Raises :class:`~cards.errors.RoleHasCard` (a ``ValueError``) if ``role`` already has another card,
        unless ``replace`` is true: re-enrolling a lost card, whose old UID is then forgotten.
        Raises :class:`~cards.errors.AmbiguousCard` (a ``ValueError``) if ``uid`` read backwards is another
        card of the set (one that stays).
        Raises ``InvalidUidError``, ``InvalidRoleError``, or ``CardSetFileError`` (nothing changed).
        """
        uid, role = normalize_uid(uid), _check_role(role)
        self._refuse_enrolled(uid)
        previous = self._by_role.get(role)
        if previous is not None and not replace:
            raise self._role_has_card(role, previous)
        cards = {u: r for u, r in self._by_uid.items() if u != previous}
        self._refuse_ambiguous(uid, cards)
        cards[uid] = role
        self._commit(cards)
        return previous

    def forget(self, uid: str) -> Role:
        """Forget the card ``uid`` (lost, broken, given back) and save. Returns the role it had.

        Raises :class:`~cards.errors.NotEnrolled` (a ``LookupError``) for an unknown card, ``InvalidUidError``,
        or ``CardSetFileError`` (nothing changed).
        """
        uid = normalize_uid(uid)
        if uid not in self._by_uid:
            raise NotEnrolled(f"Card {uid} is not enrolled, so there is nothing to forget.", params={"uid": uid})
        role = self._by_uid[uid]
        self._commit({u: r for u, r in self._by_uid.items() if u != uid})
        return role

    def import_text(self, text: str, replace_all: bool = False) -> int:
        """Add the cards listed in ``text`` (the format of :meth:`export_text`) and save, all or nothing.
        With ``replace_all`` the card set becomes exactly ``text`` (the old cards are forgotten). Returns the
        number of cards added. A card listed with the role it already has is accepted (re-importing an export).

        Raises :class:`~cards.errors.CardSetError` for a malformed line or a card or role listed twice in
        ``text``; without ``replace_all``, :class:`~cards.errors.AlreadyEnrolled` for a card that has another
        role here and :class:`~cards.errors.RoleHasCard` for a role that has another card here (the message
        names the line). Nothing is changed unless every line is accepted.
        """
        if not isinstance(text, str):
            raise CardSetError(f"Imported cards must be text, not {type(text).__name__}.",
                               params={"file": "imported text", "line": 0, "reason": "not text"})
        incoming, lines = _parse(text, "imported text")
        if replace_all:
            self._commit(incoming)
            return len(incoming)
        cards = dict(self._by_uid)
        added = 0
        for uid, role in incoming.items():
            if self._by_uid.get(uid) == role:
                continue
            try:
                self._refuse_enrolled(uid)
                if role in self._by_role:
                    raise self._role_has_card(role, self._by_role[role])
                self._refuse_ambiguous(uid, cards)
            except (AlreadyEnrolled, RoleHasCard, AmbiguousCard) as exc:
                raise type(exc)(f"imported text, line {lines[uid]}: {exc}",
                                params={**exc.params, "line": lines[uid]}) from None
            cards[uid] = role
            added += 1
        if added:
            self._commit(cards)
        return added

    def save(self) -> None:
        """Write the card set to its file atomically (also done by every change). In-memory sets skip it.

        Raises :class:`~cards.errors.CardSetFileError` (an ``OSError``); the file on disk is then unchanged.
        """
        self._commit(dict(self._by_uid))

    # Helpers

    def _commit(self, cards: dict[str, Role]) -> None:
        if self.path is not None:
            try:
                _write_atomically(self.path, _format(cards, self.edition))
            except OSError as exc:
                raise CardSetFileError(
                    f"Cannot save the card set {self.path}: {exc.strerror or exc}. The previous file is kept; "
                    f"check that the folder exists, is writable and is not on a read-only file system.",
                    code="card_set_unwritable", params={"file": str(self.path)}) from exc
        self._by_uid = cards
        self._by_role = {role: uid for uid, role in cards.items()}

    def _refuse_enrolled(self, uid: str) -> None:
        current = self._by_uid.get(uid)
        if current is not None:
            raise _already_enrolled(uid, current, self.edition)

    def _role_has_card(self, role: Role, uid: str) -> RoleHasCard:
        return _role_has_card(role, uid, self.edition)

    def ambiguity(self, uid: str, cards: Mapping[str, Role] | None = None) -> AmbiguousCard | None:
        """The refusal for enrolling ``uid`` when its reversed UID is another card of ``cards`` (default: this
        set), or None. Raises ``InvalidUidError``."""
        uid = normalize_uid(uid)
        other = reversed_uid(uid)
        cards = self._by_uid if cards is None else cards
        if other != uid and other in cards:
            return _ambiguous(uid, other, cards[other], self.edition)
        return None

    def _refuse_ambiguous(self, uid: str, cards: Mapping[str, Role]) -> None:
        problem = self.ambiguity(uid, cards)
        if problem is not None:
            raise problem

    def __repr__(self) -> str:
        return f"CardRegistry({str(self.path) if self.path else None!r}, {len(self)} cards)"


# --- Enrolment ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EnrolmentStep:
    """One step of an enrolment: the ``role`` to enrol, and the prompt as a message ``code`` with ``params``
    (for translation) and English ``text``:

    - ``enrol_tap_banker`` {role, kind}: "Tap the banker card"
    - ``enrol_tap_player`` {role, kind, number}: "Tap the card for player 1"
    - ``enrol_tap_deed`` {role, kind, square, name}: "Tap the sticker on Rue de la Paix"
    """

    role: Role
    code: str
    params: Mapping[str, Any]
    text: str


@dataclass(frozen=True)
class EnrolmentResult:
    """What happened to one presented card. ``accepted`` results moved the enrolment to the next step.

    ``outcome`` and ``code`` (English ``text``):

    - ``enrolled`` / ``enrol_enrolled``: the card is now the step's card. Accepted.
    - ``replaced`` / ``enrol_replaced``: the same, and the role's previous card (``previous_uid``) is
      forgotten. Accepted.
    - ``unchanged`` / ``enrol_unchanged``: the card already was the step's card. Accepted.
    - ``already_enrolled`` / ``card_already_enrolled``: the card has another role, ``current_role``
      ("This card is already player 2's bank card"); ``params`` describe that role. Refused.
    - ``role_has_card`` / ``role_has_card``: the step's role already has another card and the enrolment may
      not replace it. Refused.
    - ``ambiguous`` / ``card_ambiguous``: the card read backwards is another enrolled card (``other_uid``); a
      reader that reverses UIDs could not tell them apart. Refused.

    ``params`` always hold ``uid`` and, except for ``already_enrolled``, :func:`role_params` of ``role``.
    """

    outcome: str
    role: Role
    uid: str
    code: str
    params: Mapping[str, Any]
    text: str
    current_role: Role | None = None
    previous_uid: str | None = None

    @property
    def accepted(self) -> bool:
        """True when the card was taken (or already was the step's card): the success beep."""
        return self.outcome in ("enrolled", "replaced", "unchanged")


@dataclass(frozen=True)
class EnrolmentSummary:
    """Where each step ended, every role in exactly one tuple, in step order. ``code`` is ``enrol_summary``;
    ``params`` hold the five counts; ``text`` is English ("3 enrolled, 1 replaced, 0 unchanged, 2 skipped,
    0 left")."""

    enrolled: tuple[Role, ...]
    replaced: tuple[Role, ...]
    unchanged: tuple[Role, ...]
    skipped: tuple[Role, ...]
    pending: tuple[Role, ...]
    code: str = "enrol_summary"
    params: Mapping[str, int] = field(default_factory=dict)
    text: str = ""


def _step(role: Role, edition: Edition | None) -> EnrolmentStep:
    params = MappingProxyType(role_params(role, edition))
    if isinstance(role, PlayerCard):
        return EnrolmentStep(role, "enrol_tap_player", params, f"Tap the card for player {role.number}")
    if isinstance(role, DeedCard):
        return EnrolmentStep(role, "enrol_tap_deed", params, f"Tap the sticker on {params['name']}")
    if isinstance(role, PropertyCard):
        return EnrolmentStep(role, "enrol_tap_property", params, f"Tap the sticker on {params['name']}")
    if isinstance(role, EventCard):
        return EnrolmentStep(role, "enrol_tap_event", params, f"Tap Event card {role.number}")
    return EnrolmentStep(role, "enrol_tap_banker", params, "Tap the banker card")


class Enrolment:
    """A guided enrolment over ``registry``: one step per role, in order; every step can be skipped.

    The default steps are the banker card, then the bank cards of players 1 to ``players`` (1-8), then, if
    ``deeds``, the sticker of every title deed in board order (deed names from ``edition``, else from
    ``registry.edition``); for an edition of the Ultimate Banking board, its 22 property stickers instead and,
    if ``events``, its Event cards. ``steps`` gives the roles explicitly instead. ``missing_only`` leaves out roles that
    already have a card. ``replace`` lets a step give its role a new card, forgetting the old one (a lost
    card); without it, that is refused. A step enrolled during this enrolment can always be redone after
    :meth:`back`: the card it took is replaced.

    Drive it with :attr:`prompt`, :meth:`present`, :meth:`skip` and :meth:`back` until :attr:`done`. The only
    I/O is the registry's own save. Raises ``InvalidRoleError`` for a bad step list (a role twice).
    """

    def __init__(self, registry: CardRegistry, steps: Iterable[Role] | None = None, *, players: int = 8,
                 deeds: bool = False, edition: Edition | None = None, replace: bool = False, events: bool = False,
                 missing_only: bool = False):
        self.registry = registry
        self.edition = edition if edition is not None else registry.edition
        self.replace = replace
        if steps is None:
            if not isinstance(players, int) or isinstance(players, bool) or not 0 <= players <= max(PLAYER_NUMBERS):
                raise InvalidRoleError(f"An enrolment covers 0 to 8 players, not {players!r}.",
                                       code="invalid_player_count", params={"players": players})
            ultimate = self.edition is not None and self.edition.is_ultimate
            squares = ([s.index for s in self.edition.deeds()] if self.edition is not None
                       else sorted(deed_squares())) if deeds and not ultimate else []
            steps = [BankerCard(), *(PlayerCard(n) for n in range(1, players + 1)), *(DeedCard(s) for s in squares)]
            if ultimate and self.edition is not None:  # its property stickers, then (``events``) its Event cards
                steps += [PropertyCard(n) for n in range(1, len(self.edition.deeds()) + 1)] if deeds else []
                steps += [EventCard(c.number) for c in self.edition.deck(CARD_RULES_VERSIONS[-1])] if events else []
        roles = [_check_role(role) for role in steps]
        if len(set(roles)) != len(roles):
            twice = next(role for role in roles if roles.count(role) > 1)
            raise InvalidRoleError(f"{twice.label} is listed twice in the enrolment steps.", code="enrol_step_twice",
                                   params=role_params(twice, self.edition))
        if missing_only:
            roles = [role for role in roles if registry.uid_of(role) is None]
        self.steps: tuple[EnrolmentStep, ...] = tuple(_step(role, self.edition) for role in roles)
        self.index = 0
        self._status: dict[Role, str] = {}
        self._taken: dict[Role, str] = {}  # cards enrolled by this enrolment, which back() may redo

    @classmethod
    def single(cls, registry: CardRegistry, role: Role, *, replace: bool = True,
               edition: Edition | None = None) -> Enrolment:
        """A one-step enrolment for ``role``, by default replacing its card (re-enrolling a lost card)."""
        return cls(registry, [role], replace=replace, edition=edition)

    @property
    def done(self) -> bool:
        """True once every step was enrolled or skipped."""
        return self.index >= len(self.steps)

    @property
    def prompt(self) -> EnrolmentStep | None:
        """The current step, or ``None`` when :attr:`done`."""
        return None if self.done else self.steps[self.index]

    def present(self, uid: str) -> EnrolmentResult:
        """A card was tapped for the current step. Accepted results move to the next step and were saved;
        refused ones change nothing (see :class:`EnrolmentResult`).

        Raises :class:`~cards.errors.EnrolmentStateError` once :attr:`done`, ``InvalidUidError`` for a bad
        UID, ``CardSetFileError`` if the card set cannot be saved (nothing changed, the step stays).
        """
        step = self._current("present a card")
        role, uid = step.role, normalize_uid(uid)
        params = {"uid": uid, **step.params}
        current = self.registry.lookup(uid)
        if current == role:
            if self._status.get(role, "skipped") == "skipped":
                self._status[role] = "unchanged"
            return self._advance(EnrolmentResult("unchanged", role, uid, "enrol_unchanged", MappingProxyType(params),
                                                 f"This card already is {describe(role, self.edition)}."))
        # The two refusals of CardRegistry.enrol, told here first so that they name this enrolment's edition.
        if current is not None:  # the card has another role
            enrolled = _already_enrolled(uid, current, self.edition)
            return EnrolmentResult("already_enrolled", role, uid, enrolled.code, MappingProxyType(enrolled.params),
                                   str(enrolled), current_role=current)
        previous = self.registry.uid_of(role)
        may_replace = self.replace or (previous is not None and self._taken.get(role) == previous)
        if previous is not None and not may_replace:  # the role has another card
            has_card = _role_has_card(role, previous, self.edition)
            return EnrolmentResult("role_has_card", role, uid, has_card.code, MappingProxyType(has_card.params),
                                   str(has_card), previous_uid=previous)
        ambiguous = self.registry.ambiguity(uid, {u: r for u, r in self.registry._by_uid.items()
                                                  if not (may_replace and u == previous)})
        if ambiguous is not None:  # its reversed UID is another card: refused, as CardRegistry.enrol would
            return EnrolmentResult("ambiguous", role, uid, ambiguous.code, MappingProxyType(ambiguous.params),
                                   str(ambiguous))
        replaced = self.registry.enrol(uid, role, replace=may_replace)
        self._taken[role] = uid
        what = describe(role, self.edition)
        if replaced is None:
            self._status[role] = "enrolled"
            return self._advance(EnrolmentResult("enrolled", role, uid, "enrol_enrolled", MappingProxyType(params),
                                                 f"Enrolled: this card is now {what}."))
        if self._status.get(role) != "enrolled":  # redoing a card taken by this enrolment stays "enrolled"
            self._status[role] = "replaced"
        params["previous_uid"] = replaced
        return self._advance(EnrolmentResult(
            "replaced", role, uid, "enrol_replaced", MappingProxyType(params),
            f"Enrolled: this card is now {what}; the old card {replaced} no longer works.", previous_uid=replaced))

    def skip(self) -> EnrolmentStep | None:
        """Leave the current step as it is and go to the next one, which is returned (``None`` when done).
        Raises :class:`~cards.errors.EnrolmentStateError` once :attr:`done`."""
        step = self._current("skip a step")
        self._status.setdefault(step.role, "skipped")
        self.index += 1
        return self.prompt

    def back(self) -> EnrolmentStep:
        """Return to the previous step (from :attr:`done`: to the last one) to redo it; returns it. Nothing is
        forgotten until another card is presented there. Raises :class:`~cards.errors.EnrolmentStateError` at
        the first step."""
        if self.index == 0:
            raise EnrolmentStateError("Can't go back from the first enrolment step.", code="enrol_at_first_step")
        self.index -= 1
        return self.steps[self.index]

    def summary(self) -> EnrolmentSummary:
        """Where each step stands now (see :class:`EnrolmentSummary`)."""
        groups: dict[str, list[Role]] = {k: [] for k in ("enrolled", "replaced", "unchanged", "skipped", "pending")}
        for step in self.steps:
            groups[self._status.get(step.role, "pending")].append(step.role)
        counts = {k: len(v) for k, v in groups.items()}
        text = (f"{counts['enrolled']} enrolled, {counts['replaced']} replaced, {counts['unchanged']} unchanged, "
                f"{counts['skipped']} skipped, {counts['pending']} left")
        return EnrolmentSummary(enrolled=tuple(groups["enrolled"]), replaced=tuple(groups["replaced"]),
                                unchanged=tuple(groups["unchanged"]), skipped=tuple(groups["skipped"]),
                                pending=tuple(groups["pending"]), params=MappingProxyType(counts), text=text)

    def _current(self, action: str) -> EnrolmentStep:
        if self.done:
            raise EnrolmentStateError(f"Can't {action}: the enrolment is finished.", code="enrol_finished",
                                      params={"action": action})
        return self.steps[self.index]

    def _advance(self, result: EnrolmentResult) -> EnrolmentResult:
        self.index += 1
        return result
