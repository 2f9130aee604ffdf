"""Making a game file and opening one: what :meth:`terminal.Game.create` and :meth:`terminal.Game.open` do before
there is a game to play.

- :func:`create`: a new game's checks (players, mode, rule flags, deal, length), its header and setup entry, its
  file (:meth:`terminal.bank.ledger.journal.Ledger.create`), its play lock and its mirror.
- :func:`open_for_play`: the one sequence that resumes a game for play. The play lock is taken before anything is
  read; every check reads a read-only view (nothing of the game's files is written or created, so a refused file
  is left byte for byte as it was): the header, the key, the projection against the last entry, the keyed chain
  since the checkpoint, and a full audit when these do not hold or when asked; the mirror's entries beyond the
  file's end are verified against the keyed chain; the files as found are set aside (a game judged beside play);
  only then is the connection that plays opened, the file marked in use, the mirror's entries written back, and
  the checks that run beside play started (:mod:`terminal.bank.audit`).
- :func:`open_to_read`: the same checks, on a private snapshot, for a reader (audit, export, list).

Everything here goes through the ledger's public methods (:mod:`terminal.bank.ledger`).
"""
from __future__ import annotations

import contextlib
import json
import os
import random
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from cards.editions import Edition, load_edition
from terminal.bank import engine
from terminal.bank.audit import DAMAGE, BackgroundAudit, QuickCheckFirst, audit_ledger, quick_check
from terminal.bank.boards import ALL_MODES, board_of
from terminal.bank.ledger.files import AsFound, check_file, companions, damaged
from terminal.bank.ledger.journal import Ledger
from terminal.bank.ledger.keys import key_id
from terminal.bank.ledger.locks import lock_for_play
from terminal.bank.ledger.records import transfers
from terminal.bank.players import MAX_NAME_LENGTH, MAX_PLAYERS, MIN_PLAYERS, check_players
from terminal.bank.state import State
from terminal.bank.types import (
    LEGACY_RULES_VERSION,
    LEGACY_SETTLEMENT,
    RULES_VERSION,
    RULES_VERSIONS,
    SETTLEMENTS,
    Effects,
    GameConfig,
    WallClock,
    system_clock,
)
from terminal.errors import AuditFailed, GameError, LedgerError, RuleViolation, UnknownName, one_line

__all__ = ["Opened", "create", "open_for_play", "open_to_read", "check_file", "parse_time", "MAX_LENGTH_MINUTES",
           "DEALT_PER_PLAYER"]

#: The longest agreed length of a time-limited game, in minutes (a day).
MAX_LENGTH_MINUTES = 24 * 60
#: Deeds dealt to each player at the start of a quick or time-limited game (RULES.md, End of the game).
DEALT_PER_PLAYER = 2


@dataclass
class Opened:
    """A game file made or opened, ready to be played (or read): its ``ledger``, its ``config`` and header
    (``meta``), its current ``state``, and how many entries were ``restored`` from its mirror."""

    ledger: Ledger
    config: GameConfig
    meta: dict[str, Any]
    state: State
    restored: int = 0


# -- a new game --------------------------------------------------------------------------------------------------
def create(path: str | Path, edition: str | Edition, players: Iterable[str], mode: str | None = None,
           rules: Mapping[str, Any] | None = None, dealt: Mapping[str, Iterable[int]] | None = None,
           end_time: str | None = None, *, key: bytes, rng: random.Random | None = None,
           player_cards: Mapping[str, str] | None = None, length_minutes: int | None = None,
           mirror: str | Path | None = None, wall_clock: WallClock = system_clock,
           rules_version: int = RULES_VERSION) -> Opened:
    """Check and write a new game (the arguments are :meth:`terminal.Game.create`'s), its play lock taken.
    ``rules_version``: the version of the board's rules (:data:`~terminal.bank.types.RULES_VERSIONS`; an older one
    only to replay an older game's export). Raises UnknownName (unknown edition), RuleViolation (players, mode,
    flags, deal, ``bad_rules_version``) or LedgerError."""
    if type(rules_version) is not int or rules_version not in RULES_VERSIONS:
        raise RuleViolation(f"Unknown rules version {rules_version!r}: this Banquier plays "
                            f"{', '.join(map(str, RULES_VERSIONS))}.", code="bad_rules_version",
                            params={"version": rules_version})
    if isinstance(edition, str):
        try:
            edition = load_edition(edition)
        except LookupError as exc:
            raise UnknownName(str(exc), code="unknown_edition", params={"edition": edition}) from exc
    if isinstance(players, str):
        raise RuleViolation("players is a list of names, not one string.", code="player_count",
                            params={"count": 1})
    players = tuple(players)
    check_players(players, edition)
    modes = board_of(edition).modes
    if mode is None:
        mode = modes[0]
    if mode not in modes:
        raise RuleViolation(f"Unknown game mode {mode!r}: choose one of {', '.join(modes)}.",
                            code="unknown_mode", params={"mode": mode})
    flags = dict(edition.rules_of(rules_version))
    known = edition.rule_flags
    for name, value in (rules or {}).items():
        if name not in known:
            raise RuleViolation(f"Unknown rule flag {name!r} (known: {', '.join(known)}).",
                                code="unknown_rule_flag", params={"flag": name})
        if value not in known[name] or type(value) is not type(known[name][0]):
            raise RuleViolation(f"Rule flag {name} takes {' or '.join(map(repr, known[name]))}, "
                                f"not {value!r}.", code="bad_rule_flag", params={"flag": name})
        flags[name] = value
    if end_time is not None:
        if mode != "time_limit":
            raise RuleViolation("Only a time-limited game has an end time.", code="end_time_not_time_limit")
        parse_time(end_time)
    if length_minutes is not None:
        _check_length(mode, length_minutes, end_time)
    if player_cards and set(player_cards) != set(players):
        raise RuleViolation("Every player needs a bank card, and only players have one.",
                            code="player_cards_mismatch")
    if player_cards and len(set(player_cards.values())) != len(player_cards):
        raise RuleViolation("Two players cannot share one bank card.", code="player_cards_shared")
    config = GameConfig(edition, mode, flags, time_limit_s=None if length_minutes is None else 60 * length_minutes,
                        rules_version=rules_version)
    deal: dict[str, list[int]] = {}
    if mode in ("quick", "time_limit"):
        if dealt is None:
            deeds = [s.index for s in edition.deeds()]
            (rng or random.SystemRandom()).shuffle(deeds)
            dealt = {p: sorted(deeds[i * DEALT_PER_PLAYER:(i + 1) * DEALT_PER_PLAYER])
                     for i, p in enumerate(players)}
        deal = {p: list(v) for p, v in dealt.items()}
        for p in deal:
            if p not in players:
                raise UnknownName(f"The deal names {p!r}, who is not a player.", code="unknown_player",
                                  params={"player": p})
        short = [p for p in players if len(deal.get(p, [])) != DEALT_PER_PLAYER]
        if short:
            raise RuleViolation(f"The deal gives each player {DEALT_PER_PLAYER} title deeds (RULES.md, End of "
                                f"the game); not so for {', '.join(short)}.", code="deal_count",
                                params={"players": ", ".join(short), "count": DEALT_PER_PLAYER})
    elif dealt:
        raise RuleViolation("Only the quick and time-limited games deal deeds at setup.", code="deal_not_allowed")
    state = State.new(edition, players)
    state, effects = engine.setup_effects(state, config, deal)
    meta = {"format": "banquier-game", "edition": edition.name,
            "players": list(players), "mode": mode, "rules": flags,
            "rules_changed": {k: v for k, v in flags.items() if edition.rules.get(k) != v},
            "dealt": deal, "end_time": end_time, **_length_meta(length_minutes),
            "player_cards": dict(player_cards or {}),
            "created_at": wall_clock().astimezone().isoformat(timespec="seconds"),
            "settlement": config.settlement, "rules_version": config.rules_version}
    ledger = Ledger.create(path, key, meta, setup=(effects.postings, effects.changes, state.to_json()),
                           clock=wall_clock, play=True, mirror_path=None if mirror is None else Path(mirror))
    return Opened(ledger, config, ledger.meta(), state)


# -- resuming a game ---------------------------------------------------------------------------------------------
def open_for_play(path: str | Path, *, key: bytes, check: str = "auto", background: bool = True,
                  mirror: str | Path | None = None, wall_clock: WallClock = system_clock) -> Opened:
    """Resume the game at ``path`` for play: the sequence of this module's docstring (``check``, ``background``
    and ``mirror`` as :meth:`terminal.Game.open` takes them). Raises LedgerError or AuditFailed; a refused file is
    left byte for byte as it was, and its play lock released."""
    background = background and check == "auto"
    lock = lock_for_play(path)  # a game is played by one Banquier at a time: before anything is read
    shm_found = None
    if background:  # the shared memory as found: the view below may create one (read-only in place)
        with contextlib.suppress(OSError):
            shm_found = companions(Path(path))[1].read_bytes()
    try:
        view = Ledger.open(path, key, read_only=True, copy=False, clock=wall_clock)
    except BaseException:
        os.close(lock)
        raise
    view.play_lock = lock  # released with the view if a check refuses the file
    try:
        config, meta, state = _checked(view, path, key, check, background, reads_only=False)
        seen = view.last_entry()
        missing: list[dict[str, Any]] = []
        if mirror is not None:
            view.mirror = Path(mirror)
            missing, state = _mirrored_entries(view, path, state, seen)
        as_found: AsFound | None = None
        if background:  # what is found is set aside before anything writes: put back if judged damaged
            try:
                as_found = AsFound.take(Path(path), shm_found)
            except OSError as exc:
                raise LedgerError(f"Cannot resume {path}: its files cannot be set aside before it is played "
                                  f"({exc.strerror or exc}). It was left untouched.", code="ledger_unwritable",
                                  params={"path": str(path)}) from exc
    except BaseException:
        view.discard()
        raise
    ledger = view.play(seen=seen, as_found=as_found, mirror_path=None if mirror is None else Path(mirror))
    if missing:
        try:
            ledger.restore_mirrored(missing, state.to_json())
        except (sqlite3.Error, GameError) as exc:
            if ledger.as_found is not None:
                ledger.put_back()
            ledger.discard()
            raise LedgerError(f"{path} lost its last {len(missing)} entries (its WAL was damaged) and they "
                              f"could not be written back from the mirror ({one_line(exc)}). The file was "
                              f"kept; restore a backup.", code="ledger_damaged",
                              params={"path": str(path), "reason": "entries lost"}) from exc
    if background:
        ledger.guard = BackgroundAudit(ledger.path, key)
    elif check == "auto":
        ledger.guard = QuickCheckFirst(ledger.path)  # (check="full" ran SQLite's integrity check already)
    return Opened(ledger, config, meta, state, len(missing))


def open_to_read(path: str | Path, *, key: bytes, check: str = "auto", wall_clock: WallClock = system_clock
                 ) -> Opened:
    """Open the game at ``path`` to look only (audit, export, list): a private snapshot, nothing ever written;
    ``check`` as :meth:`terminal.Game.open` takes it (``auto``: SQLite's check and the chain since the
    checkpoint). Raises LedgerError or AuditFailed."""
    view = Ledger.open(path, key, read_only=True, copy=True, clock=wall_clock)
    try:
        config, meta, state = _checked(view, path, key, check, False, reads_only=True)
    except BaseException:
        view.discard()
        raise
    return Opened(view, config, meta, state)


def _mirrored_entries(view: Ledger, path: str | Path, state: State, last: tuple[int, str] | None
                      ) -> tuple[list[dict[str, Any]], State]:
    """The mirror's entries beyond the file's end, verified against the keyed chain, and the state after
    them. Raises AuditFailed when they do not follow from the file's last entry."""
    end_seq, end_mac = last if last is not None else (0, view.genesis_mac())
    missing = view.mirrored_after(end_seq)
    if not missing:
        return [], state
    prev_seq, prev = end_seq, end_mac
    try:
        for e in missing:
            rows = [tuple(r) for r in e["rows"]]
            mac = view.keys.entry_mac(prev, e["seq"], e["kind"], e["op"], e["undoes"], rows, e["changes"],
                                      e["recorded_at"])
            if e["seq"] != prev_seq + 1 or not isinstance(e["mac"], str) or mac != e["mac"]:
                raise ValueError(f"entry #{e['seq']}")
            state = engine.replay_effects(state, Effects.recorded(transfers(rows), e["changes"]))
            prev_seq, prev = e["seq"], e["mac"]
    except (*DAMAGE, GameError) as exc:
        raise AuditFailed(f"{path} holds {end_seq} entries, but {missing[-1].get('seq')} were acknowledged "
                          f"and the mirror's record of the others does not verify ({one_line(exc)[:100]}). "
                          f"The file was left untouched; restore its newest good backup.",
                          params={"problems": ["entries lost"], "first_bad_seq": end_seq + 1}) from exc
    return missing, state


def _checked(ledger: Ledger, path: str | Path, key: bytes, check: str, background: bool = False, *,
             reads_only: bool = True) -> tuple[GameConfig, dict[str, Any], State]:
    """The checks of a file on ``ledger`` (a read-only view): ``(config, meta, state)``, or raises."""
    try:
        return _check_view(ledger, path, key, check, background, reads_only)
    except GameError:
        raise
    except sqlite3.DatabaseError as exc:
        raise damaged(Path(path), exc) from exc
    except DAMAGE as exc:  # a header or state of the wrong shape: edited or damaged
        raise LedgerError(f"{path}: the game's header or state is damaged or was edited "
                          f"({type(exc).__name__}: {one_line(exc)[:200]}). It was left untouched; restore a "
                          f"backup.", code="ledger_damaged",
                          params={"path": str(path), "reason": one_line(exc)[:200]}) from exc


def _check_view(ledger: Ledger, path: str | Path, key: bytes, check: str, background: bool,
                reads_only: bool) -> tuple[GameConfig, dict[str, Any], State]:
    meta = ledger.meta()
    problem = header_problem(meta)
    if problem is not None:
        raise LedgerError(f"{path}: the game's header is damaged or was edited ({problem}). It was left "
                          f"untouched; restore a backup.", code="ledger_damaged",
                          params={"path": str(path), "reason": problem})
    if meta.get("key_id") != key_id(key):
        raise AuditFailed(f"{path} was signed by another device's key: its journal cannot be verified "
                          f"here. Open it on the device that created it, or with that device's key.",
                          code="audit_foreign_key", params={"path": str(path), "problems": ["key"]})
    try:
        edition = load_edition(meta["edition"])
    except LookupError as exc:
        raise LedgerError(f"{path} is a game of edition {meta['edition']!r}, which this Banquier does "
                          f"not have.", code="ledger_unknown_edition") from exc
    if meta.get("settlement", LEGACY_SETTLEMENT) not in SETTLEMENTS:
        raise LedgerError(f"{path} settles debts in an order this Banquier does not know "
                          f"({meta.get('settlement')!r}): it was written by a newer version.",
                          code="ledger_schema", params={"path": str(path), "version": meta.get("settlement")})
    if meta.get("rules_version", LEGACY_RULES_VERSION) not in RULES_VERSIONS:
        raise LedgerError(f"{path} is played by a version of the rules this Banquier does not know "
                          f"({meta.get('rules_version')!r}): it was written by a newer version.",
                          code="ledger_schema", params={"path": str(path), "version": meta.get("rules_version")})
    config = GameConfig(edition, meta["mode"], dict(meta["rules"]),
                        settlement=meta.get("settlement", LEGACY_SETTLEMENT), time_limit_s=length_s(meta),
                        rules_version=meta.get("rules_version", LEGACY_RULES_VERSION))
    raw = ledger.projection_raw()
    last = ledger.last_entry()
    consistent = (raw is not None and last is not None and raw[0] == last[0]
                  and raw[2] == ledger.keys.projection_mac(raw[0], raw[1], last[1])
                  and meta.get("meta_mac") == ledger.keys.meta_mac(meta))  # the header sets the rules
    if check != "none":  # SQLite's check: here for a reader; before the first payment for the terminal
        _check_chain_and_file(ledger, path, quick=reads_only)
    if check == "full" or (check == "auto" and (not consistent or (ledger.was_unclean and not background))):
        report = audit_ledger(ledger, config)
        if not report.ok:
            raise AuditFailed(report.summary(), params={"problems": report.problems,
                                                        "first_bad_seq": report.first_bad_seq})
        consistent = True
    if not consistent and check != "none":
        raise AuditFailed(f"{path}: the current state does not match the journal.",
                          params={"problems": ["projection"], "first_bad_seq": None})
    try:
        state = (State.from_json(json.loads(raw[1])) if raw is not None
                 else State.new(edition, tuple(meta["players"])))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise AuditFailed(f"{path}: the stored state is damaged or was edited ({exc}). The file was left "
                          f"untouched; `banquier audit` tells more.", code="audit_state_damaged",
                          params={"problems": ["projection"], "first_bad_seq": None}) from exc
    return config, meta, state


def _check_chain_and_file(ledger: Ledger, path: str | Path, *, quick: bool) -> None:
    """The start-up checks whose cost does not follow the game's length: the keyed hash chain from the
    keyed checkpoint to the end (recorded as verified: :meth:`~terminal.bank.ledger.journal.Ledger.verify_chain`)
    and (``quick``) SQLite's ``quick_check``."""
    if quick:
        ok, problem = quick_check(ledger)
        if not ok:
            raise LedgerError(f"{path} is damaged (SQLite's check: {problem}). It was left "
                              f"untouched; restore a backup.", code="ledger_damaged",
                              params={"path": str(path), "reason": problem})
    problems, first_bad = ledger.verify_chain()
    if problems:
        where = f" First entry edited or inconsistent: #{first_bad}." if first_bad else ""
        raise AuditFailed(f"{path}: the journal was changed outside the terminal.{where} {' '.join(problems[:3])} "
                          f"The file was left untouched; `banquier audit` tells more; restore a backup.",
                          params={"problems": problems, "first_bad_seq": first_bad})


# -- the header -------------------------------------------------------------------------------------------------
def header_problem(meta: Mapping[str, Any]) -> str | None:
    """What is of the wrong shape in a stored header (None when each field has its type and range)."""
    players = meta.get("players")
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS \
            or not all(isinstance(p, str) and 0 < len(p) <= MAX_NAME_LENGTH for p in players):
        return f"players must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} names"
    if not isinstance(meta.get("edition"), str):
        return "edition must be a name"
    if meta.get("mode") not in ALL_MODES:  # every board's
        return f"mode must be one of {', '.join(ALL_MODES)}"
    if not isinstance(meta.get("rules"), dict):
        return "rules must be an object"
    dealt = meta.get("dealt") or {}
    if not isinstance(dealt, dict) or not all(
            isinstance(v, list) and all(type(s) is int and 0 <= s < 40 for s in v) for v in dealt.values()):
        return "dealt must give each player a list of squares"
    if meta.get("end_time") is not None and not isinstance(meta.get("end_time"), str):
        return "end_time must be a date and time"
    cards = meta.get("player_cards") or {}
    if not isinstance(cards, dict) or not all(isinstance(v, str) for v in cards.values()):
        return "player_cards must map players to card UIDs"
    if type(meta.get("schema_version")) is not int:
        return "schema_version must be a whole number"
    minutes = meta.get("length_minutes")
    if minutes is not None and (type(minutes) is not int or not 1 <= minutes <= MAX_LENGTH_MINUTES):
        return f"length_minutes must be 1 to {MAX_LENGTH_MINUTES} minutes"
    if meta.get("settlement") is not None and not isinstance(meta.get("settlement"), str):
        return "settlement must be a name"
    if meta.get("rules_version") is not None and type(meta.get("rules_version")) is not int:
        return "rules_version must be a whole number"
    return None


def parse_time(text: str) -> datetime:
    """An ISO 8601 date and time (``end_time``, ``created_at``), made aware (local time when it names no zone).
    Raises RuleViolation (``bad_end_time``)."""
    try:
        value = datetime.fromisoformat(text)
    except (TypeError, ValueError) as exc:
        raise RuleViolation(f"End time {text!r} is not an ISO 8601 date and time.", code="bad_end_time") from exc
    return value if value.tzinfo else value.astimezone()


def _check_length(mode: str, minutes: object, end_time: str | None) -> None:
    if mode != "time_limit":
        raise RuleViolation("Only a time-limited game has a length.", code="end_time_not_time_limit")
    if end_time is not None:
        raise RuleViolation("Give a time-limited game its length or its end time, not both.",
                            code="length_and_end_time")
    if not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= MAX_LENGTH_MINUTES:
        raise RuleViolation(f"A time-limited game lasts 1 to {MAX_LENGTH_MINUTES} minutes of play, not {minutes!r}.",
                            code="bad_length", params={"max": MAX_LENGTH_MINUTES})


def _length_meta(minutes: int | None) -> dict[str, int]:
    """The header's ``length_minutes``, written only when given (older headers stay as they were)."""
    return {} if minutes is None else {"length_minutes": minutes}


def length_s(meta: Mapping[str, Any]) -> int | None:
    """The agreed length of a time-limited game in seconds, from its header's ``length_minutes`` (None: none)."""
    minutes = meta.get("length_minutes")
    return 60 * minutes if isinstance(minutes, int) and not isinstance(minutes, bool) else None
