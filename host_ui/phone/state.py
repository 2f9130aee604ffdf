"""The game's public state as the phone page shows it: read as the read-only commands read a game, nothing written.

Which game: the one the terminal resumes at start-up (:func:`host_ui.shell.manage.current_game`: the one named in
``DATA_DIR/current``, else the newest game not over), read-only. Each read opens it as ``banquier games list``
does (:func:`host_ui.shell.games.open_game` with ``read_only=True``, ``check="none"``: a private copy in a
private folder under ``$TMPDIR``, never a write to the game, its ``-wal``, its ``-shm`` or the data folder), takes
what the page shows and closes it.

:func:`read_public` gives a :class:`Public` (the facts, language-free); :func:`localized` turns it into the
JSON document of ``state.json`` in one of the three languages, every word from the terminal's catalogs
(:mod:`terminal.table.i18n`, the history's words of :mod:`host_ui.screen.history_text`).

What is public: the names, cash, debts, worth, title deeds, buildings, mortgages, the Free Parking pot, the
journal's words, the chart's points, the play time, the standings. Never the device key, the PIN, the
configuration, a file's path (the game is named by its file's stem only, as ``banquier games list`` shows it).
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cards.editions import LANGUAGES, Edition
from cards.editions import localized as localized_text
from host_ui.screen.history_text import history_label, merged_movements, movement_text
from terminal.bank.ledger.files import companions, stat_key
from terminal.bank.money import format_amount
from terminal.table.i18n import N_, translate

#: How many of the last operations the page lists.
LAST_OPERATIONS = 12

#: The colour groups' colours, as the terminal's screen draws them (``host_ui.screen.theme.GROUP_COLOURS``, which
#: loads pygame: this process does not; a test keeps the two equal).
GROUP_COLOURS: Mapping[str, tuple[int, int, int]] = {
    "brown": (134, 76, 56), "light_blue": (160, 214, 240), "pink": (214, 58, 150), "orange": (246, 146, 30),
    "red": (226, 30, 40), "yellow": (252, 230, 30), "green": (30, 166, 90), "dark_blue": (20, 80, 164),
    "railroad": (40, 40, 40), "utility": (120, 130, 140),
}
#: The seats' colours, as the screen's (``theme.PLAYER_COLOURS``).
PLAYER_COLOURS: tuple[tuple[int, int, int], ...] = (
    (230, 80, 70), (70, 150, 240), (250, 200, 50), (80, 200, 120), (200, 110, 230), (250, 140, 40), (60, 210, 210),
    (235, 235, 235))

#: The page's own words: the key the page uses -> the catalog's message id.
WORDS: Mapping[str, str] = {
    "title": N_("phone_page_title"),
    "players": N_("phone_players"),
    "cash": N_("phone_cash"),
    "worth": N_("phone_worth"),
    "debts": N_("phone_debts"),
    "deeds": N_("phone_deeds"),
    "no_deeds": N_("phone_no_deeds"),
    "mortgaged": N_("phone_mortgaged"),
    "hotel": N_("phone_hotel"),
    "houses": N_("phone_houses"),
    "level": N_("phone_level"),
    "pot": N_("phone_pot"),
    "last": N_("phone_last_operations"),
    "no_operations": N_("phone_no_operations"),
    "chart": N_("phone_chart"),
    "time_left": N_("phone_time_left"),
    "no_limit": N_("phone_no_limit"),
    "standings": N_("phone_standings"),
    "over": N_("phone_game_over"),
    "no_game": N_("phone_no_game"),
    "me": N_("phone_me"),
    "nobody": N_("phone_nobody"),
    "language": N_("phone_language"),
    "live": N_("phone_live"),
    "offline": N_("phone_offline"),
    "replaced": N_("phone_link_replaced"),
    "replaced_short": N_("phone_link_replaced_short"),
    "switched_off": N_("phone_page_switched_off"),
    "switched_off_short": N_("phone_page_switched_off_short"),
    "bankrupt": N_("phone_bankrupt"),
    "jail_cards": N_("phone_jail_cards"),
}


@dataclass
class Public:
    """What the page shows of a game, language-free. ``game``: None when there is no game to show (then every
    other field is empty); else the game's name (its file's stem), and what :func:`read_public` read."""

    game: str | None = None
    edition: Edition | None = None
    mode: str = ""
    seq: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    jackpot: bool = False
    entries: list[dict[str, Any]] = field(default_factory=list)
    balances: list[dict[str, int]] = field(default_factory=list)
    chart: dict[str, Any] = field(default_factory=dict)
    display: str = "plain"


def current_game(data: Path, key_path: Path | None) -> Path | None:
    """The game the terminal resumes at start-up (:func:`host_ui.shell.manage.current_game`, which reads only),
    or None."""
    from host_ui.shell.manage import current_game as current  # late: the games' listing
    return current(data, key_path)


def read_public(path: Path | None, key_path: Path | None, display: str = "plain") -> Public:
    """Read the game at ``path`` (None: no game) read-only and return what the page shows. Raises LedgerError
    (or AuditFailed) when the game cannot be read; the caller shows no game and tries again on the next change."""
    if path is None:
        return Public()
    from host_ui.shell.games import open_game  # late: the Bank, for the page's process only
    folder = Path(tempfile.mkdtemp(prefix="banquier-phone-"))
    try:
        copy = byte_copy(path, folder)
        game = open_game(copy, check="none", read_only=True, key_path=key_path)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    try:
        pages = game.history_pages()
        count = len(pages)
        start = max(0, count - LAST_OPERATIONS)
        entries = list(pages[start:count])
        balances = [pages.balances(i) for i in range(start, start + len(entries))]
        series = game.worth_series()
        positions = list(getattr(series, "positions", None) or range(len(series)))
        last = game.ledger.last_entry()
        return Public(game=path.stem, edition=game.edition, mode=game.mode, seq=last[0] if last else 0,
                      state=game.state(), players=list(game.players), jackpot=game.config.jackpot,
                      entries=entries, balances=balances, display=display,
                      chart={"points": [dict(p) for p in series], "positions": positions,
                             "length": getattr(series, "length", None) or len(series)})
    finally:
        game.close()
        shutil.rmtree(folder, ignore_errors=True)


def byte_copy(path: Path, folder: Path, attempts: int = 5) -> Path:
    """Copy the game file ``path`` and its ``-wal`` byte for byte into ``folder`` (same name) and return the copy;
    its ``-shm`` is neither copied nor opened. A game the terminal has open is copied this way too, where even a
    read-only SQLite connection would write its read marks into the game's ``-shm``: SQLite rebuilds the copy's
    index from the copied WAL (each frame is checksummed, so a frame being appended is left out, as after a
    power cut). The WAL is copied after the file, and again when either changed meanwhile (a checkpoint, a WAL
    started over), up to ``attempts`` times. Raises OSError."""
    wal, _ = companions(path)
    target = folder / path.name
    target_wal = folder / wal.name
    stat = stat_key  # (inode, size, mtime) or None: what the ledger's own private copies compare
    for _ in range(attempts):
        before = stat(path), stat(wal)
        shutil.copyfile(path, target)
        target_wal.unlink(missing_ok=True)
        try:
            if before[1] is not None:
                shutil.copyfile(wal, target_wal)
        except FileNotFoundError:
            continue
        if (stat(path), stat(wal)) == before:
            return target
    return target


def _hex(colour: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def localized(public: Public, language: str) -> dict[str, Any]:
    """The ``state.json`` document of ``public`` in ``language`` (one of :data:`LANGUAGES`): ``language``,
    ``words`` {key: text}, ``game`` (None: no game), and for a game ``edition``, ``mode``, ``seq`` (its last
    entry: the page's version), ``players`` [{``name``, ``seat``, ``colour``, ``cash``, ``cash_text``,
    ``worth``, ``worth_text``, ``debts`` [{``to``, ``amount``, ``text``}], ``bankrupt``, ``jail_cards``,
    ``deeds`` [{``square``, ``name``, ``group``, ``colour``, ``houses`` 0-4, ``hotel``, ``level`` (the electronic
    board's 1-5, else None), ``mortgaged``}]}], ``pot`` (None where Free Parking pays nothing), ``last``
    [{``seq``, ``text``, ``moves`` [text], ``undone``, ``balances`` text}], newest first, ``chart`` {``points``,
    ``positions``, ``length``, ``labels`` [the axis' three amounts]}, ``time`` (None, or ``played_s``,
    ``limit_s``, ``left_s``, ``lifted``), ``standings`` [names], ``over``."""
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    words = {key: translate(WORDS[key], {}, language) for key in WORDS}
    doc: dict[str, Any] = {"language": language, "words": words, "game": public.game}
    edition = public.edition
    if public.game is None or edition is None:
        return doc
    s = public.state

    def money(amount: int) -> str:
        return format_amount(amount, edition, language, public.display)

    seats = {name: i + 1 for i, name in enumerate(public.players)}
    ultimate = edition.is_ultimate
    levels = s.get("levels" if ultimate else "buildings", {})
    mortgaged = set(s.get("mortgaged", []))
    hotel_level = 5
    players = []
    for name in public.players:
        deeds = []
        for square in edition.deeds():
            if s["owner"].get(str(square.index)) != name:
                continue
            level = int(levels.get(str(square.index), 0))
            deeds.append({
                "square": square.index, "name": square.name_in(language), "group": square.group,
                "colour": _hex(GROUP_COLOURS.get(square.group or "", (120, 130, 140))),
                "houses": 0 if ultimate or level >= hotel_level else level,
                "hotel": not ultimate and level >= hotel_level,
                "level": level if ultimate else None,
                "mortgaged": square.index in mortgaged})
        debts = [{"to": d["to"], "amount": d["amount"],
                  "text": f"→ {_account(d['to'], language)} {money(d['amount'])}"} for d in s["debt"].get(name, [])]
        players.append({
            "name": name, "seat": seats[name], "colour": _hex(PLAYER_COLOURS[(seats[name] - 1) % len(PLAYER_COLOURS)]),
            "cash": s["cash"][name], "cash_text": money(s["cash"][name]),
            "worth": s["worth"][name], "worth_text": money(s["worth"][name]),
            "debts": debts, "bankrupt": name in s.get("bankrupt", []),
            "jail_cards": int(s.get("jail_cards", {}).get(name, 0)), "deeds": deeds})
    last = []
    for entry, balances in zip(reversed(public.entries), reversed(public.balances), strict=False):
        moves = merged_movements(entry.get("postings") or ())
        involved = [n for n in public.players if any(n in (p, q) for p, q, _ in moves) and n in balances]
        after = ", ".join(f"{n} {money(balances[n])}" for n in involved)
        last.append({"seq": entry.get("seq"), "text": history_label(entry, language, edition),
                     "moves": [movement_text(m, language, edition, public.display) for m in moves],
                     "undone": bool(entry.get("undone")),
                     "balances": translate("ui_balance_after", {"balances": after}, language) if after else ""})
    points = public.chart.get("points", [])
    values = [v for p in points for v in p.values()]
    top, bottom = (max(values), min(0, min(values))) if values else (0, 0)
    chart = dict(public.chart, labels=[money(bottom), money(bottom + (top - bottom) // 2), money(top)],
                 top=top, bottom=bottom)
    time = s.get("x_time")
    doc.update({
        "edition": edition_name(edition, language),
        "mode": public.mode, "seq": public.seq, "ultimate": ultimate, "players": players,
        "pot": {"amount": s["bank"]["pot"], "text": money(s["bank"]["pot"])} if public.jackpot else None,
        "last": last, "chart": chart, "time": dict(time) if time else None,
        "standings": list(s.get("standings", [])), "over": bool(s.get("game_over"))})
    return doc


def edition_name(edition: Edition, language: str) -> str:
    """The edition's name in ``language``: ``Monopoly`` and its label (``[edition] label``, which the editions give
    in every language: "Monopoly France (euros)", "Monopoly Франція (євро)"); its title (the edition's own
    language) when it has no label."""
    label = str(localized_text(edition.label, language)) if edition.label else ""
    if not label or label == edition.name:
        return str(localized_text(edition.title, language))
    return label if label.lower().startswith("monopoly") else f"Monopoly {label}"


def _account(name: str, language: str) -> str:
    from host_ui.screen.history_text import account_name
    return account_name(name, language)


def game_signature(data: Path) -> tuple[Any, ...]:
    """What changes when the page must read again: the ``current`` marker's text, the games folder's listing
    time, and the stat of every game file and its ``-wal`` (size, time of change, inode). Reads file metadata
    only (os.stat / scandir: a few microseconds a file); never raises."""
    out: list[Any] = []
    try:
        out.append((data / "current").read_bytes()[:512])
    except OSError:
        out.append(None)
    folder = data / "games"
    try:
        with os.scandir(folder) as it:
            names = sorted(e.name for e in it if e.name.endswith((".db", ".db-wal")))
    except OSError:
        return tuple(out)
    for name in names:
        try:
            st = os.stat(folder / name)
        except OSError:
            continue
        out.append((name, st.st_size, st.st_mtime_ns, st.st_ino))
    return tuple(out)
