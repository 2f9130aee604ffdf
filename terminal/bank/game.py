"""``terminal.Game``: the Bank of one game, the public API of the firmware.

A game is one SQLite file (see :mod:`terminal.bank.ledger`). Every operation of ``docs/table-log.md`` has a method
here; each checks the rules (RULES.md), commits one journal entry atomically and returns a :class:`Receipt`,
or raises a :class:`~terminal.errors.GameError` subclass and changes nothing.

Typical use::

    game = Game.create("games/sunday.db", edition="fr", players=["Ann", "Bob"])
    game.pass_go("Ann")               # Ann: 1 700
    game.buy("Ann", 39)               # Ann: 1 300, holds Rue de la Paix
    game.pay_rent("Bob", 39)          # Bob pays Ann 50 (a bare street; 100 with the whole colour group)
    game.undo()                       # the rent is paid back
    game.state()["cash"]              # {"Ann": 1300, "Bob": 1500}
    game.close()

The Ultimate Banking board (edition ``ultimate``, mode ``ultimate``: :mod:`terminal.bank.ultimate`) adds
``raise_level``, ``location``, ``sell_property``, ``event`` (an Event card by number, with its targets) and
``event_targets``; ``level(square)`` is a property's rent level::

    game = Game.create("games/ub.db", edition="ultimate", players=["Ann", "Bob"], key=key)
    game.buy("Ann", 35)               # Rue de la Paix, level 1
    game.pay_rent("Bob", 35)          # 300, then level 2
    game.event("Bob", 15)             # market slump: Bob's next 2 rents at level 1
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from cards.editions import Edition, load_edition
from terminal.bank import engine
from terminal.bank.auction import BuildingAuction, DeedAuction
from terminal.bank.audit import DAMAGE, AuditReport, BackgroundAudit, QuickCheckFirst, audit_ledger, quick_check
from terminal.bank.boards import ALL_MODES, board_of
from terminal.bank.door import Preview, Receipt
from terminal.bank.durable import fsync_directory
from terminal.bank.history import (
    MAINTAIN_BUDGET_S,
    MAINTAIN_STRETCHES,
    HistoryPages,
    WorthSeries,
    keep,
    maintain_summary,
    worth_series,
)
from terminal.bank.ledger import AsFound, Entry, Ledger, companions, damaged, key_id, one_line, transfers
from terminal.bank.operations import (
    CLOCK_OPERATIONS,
    Auction,
    BankPays,
    Build,
    Buy,
    CollectFromEachPlayer,
    DeclareBankruptcy,
    EndGame,
    FreeParking,
    GainJailCard,
    JailFine,
    Location,
    Mortgage,
    Operation,
    PassGo,
    PayBank,
    PayEachPlayer,
    PayRent,
    PayTax,
    PlayTime,
    RaiseLevel,
    Repairs,
    SellBuilding,
    SellProperty,
    TimeLimit,
    TimeUp,
    Trade,
    TradeSide,
    Transfer,
    Undo,
    Unmortgage,
    UseJailCard,
    parse_operation,
)
from terminal.bank.state import BANK, POT, State, standings, worth
from terminal.bank.tx import Tx
from terminal.bank.types import LEGACY_SETTLEMENT, SETTLEMENTS, Effects, GameConfig, Owed, Rent
from terminal.errors import AuditFailed, GameError, LedgerError, NothingToUndo, RuleViolation, UnknownName

_log = logging.getLogger(__name__)

MIN_PLAYERS, MAX_PLAYERS = 2, 8
#: The longest agreed length of a time-limited game, in minutes (a day).
MAX_LENGTH_MINUTES = 24 * 60
#: Play time is written to the journal every this many seconds of play (and when the limit is reached, and
#: at a clean close): an unclean stop loses at most this much of the time played.
PLAY_TIME_RECORD_S = 60
MAX_NAME_LENGTH = 20
DEALT_PER_PLAYER = 2


class Game:
    """One game of Monopoly as the Bank sees it. Create with :meth:`create`, resume with :meth:`open`.

    Not thread-safe: one caller (the terminal's state machine) drives it.
    """

    def __init__(self, ledger: Ledger, config: GameConfig, meta: dict[str, Any], state: State,
                 clock: Callable[[], datetime] | None) -> None:
        self._ledger = ledger
        self.config = config
        #: The board the game is played on, chosen from its edition (:func:`terminal.bank.boards.board_of`).
        self.board = board_of(config.edition)
        self.meta = meta
        self._state = state
        self._clock = clock
        self._play_clock: Callable[[], float] | None = None
        self._play_ref: float | None = None  # the play clock's last reading
        self._play_pending = 0.0  # seconds of play counted but not yet written
        self._time_up: Receipt | None = None  # the end a play-time entry just caused
        self.restored = 0  # entries written back from the mirror when the game was resumed
        self._maintain_failed = False  # the last maintain() failed (logged once)

    # -- creating and opening ------------------------------------------------------------------------------
    @classmethod
    def create(cls, path: str | Path, edition: str | Edition, players: Iterable[str], mode: str | None = None,
               rules: Mapping[str, Any] | None = None, dealt: Mapping[str, Iterable[int]] | None = None,
               end_time: str | None = None, *, key: bytes,
               rng: random.Random | None = None, clock: Callable[[], datetime] | None = None,
               player_cards: Mapping[str, str] | None = None, length_minutes: int | None = None,
               mirror: str | Path | None = None) -> Game:
        """Start a new game in a new file ``path``.

        - ``edition``: a shipped edition name (``fr``, ``us``, ``us-1935``, ``fr-francs``, ``ru-roubles``) or an
          :class:`~cards.editions.Edition`.
        - ``players``: 2 to 8 distinct names (1-20 characters, not ``bank`` or ``pot``), in play order.
        - ``mode``: ``classic`` (the default), ``sans_frontieres``, ``quick`` or ``time_limit`` (RULES.md, End of
          the game); an edition of the Ultimate Banking board plays ``ultimate`` (the default and only mode
          there: terminal/bank/ultimate.py).
        - ``rules``: rule flags that differ from the edition's defaults (``edition.rule_flags``: see
          ``cards.editions.RULE_FLAGS`` and ``ULTIMATE_RULE_FLAGS``).
        - ``dealt``: quick and time-limited games deal 2 deeds per player, paid at setup; given here (a
          replayed log) or drawn with ``rng`` (default: the system's randomness).
        - ``length_minutes``: the agreed length of a time-limited game, in minutes of play (counted on the
          play clock, see :meth:`start_play_clock`; docs/table-log.md, Time limit).
        - ``end_time``: ISO 8601 end of a time-limited game, as older versions wrote it: with a wall clock
          ``clock``, converted at once into that much play time left; the wall clock never ends a game.
        - ``key``: the device key's bytes (32; the host application reads or creates the key file and passes it).
        - ``player_cards``: ``{player: card UID}``, the bank card each player tapped when the game was set up
          (the terminal maps taps to players with it; without it, player card N is the N-th player).
        - ``mirror``: where to keep the append-only record of acknowledged entries (see :meth:`open`).
        Raises UnknownName (unknown edition), RuleViolation (players, mode, flags, deal) or LedgerError.
        """
        if isinstance(edition, str):
            try:
                edition = load_edition(edition)
            except LookupError as exc:
                raise UnknownName(str(exc), code="unknown_edition", params={"edition": edition}) from exc
        if isinstance(players, str):
            raise RuleViolation("players is a list of names, not one string.", code="player_count",
                                params={"count": 1})
        players = tuple(players)
        _check_players(players, edition)
        modes = board_of(edition).modes
        if mode is None:
            mode = modes[0]
        if mode not in modes:
            raise RuleViolation(f"Unknown game mode {mode!r}: choose one of {', '.join(modes)}.",
                                code="unknown_mode", params={"mode": mode})
        flags = dict(edition.rules)
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
            _parse_time(end_time)
        if length_minutes is not None:
            _check_length(mode, length_minutes, end_time)
        if player_cards and set(player_cards) != set(players):
            raise RuleViolation("Every player needs a bank card, and only players have one.",
                                code="player_cards_mismatch")
        if player_cards and len(set(player_cards.values())) != len(player_cards):
            raise RuleViolation("Two players cannot share one bank card.", code="player_cards_shared")
        config = GameConfig(edition, mode, flags,
                            time_limit_s=None if length_minutes is None else 60 * length_minutes)
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
            raise RuleViolation("Only the quick and time-limited games deal deeds at setup.",
                                code="deal_not_allowed")
        state = State.new(edition, players)
        state, effects = engine.setup_effects(state, config, deal)
        meta = {"format": "banquier-game", "edition": edition.name,
                "players": list(players), "mode": mode, "rules": flags,
                "rules_changed": {k: v for k, v in flags.items() if edition.rules.get(k) != v},
                "dealt": deal, "end_time": end_time, **_length_meta(length_minutes),
                "player_cards": dict(player_cards or {}),
                "created_at": datetime.now().astimezone().isoformat(timespec="seconds"),
                "settlement": config.settlement}
        ledger = Ledger.create(path, key, meta, setup=(effects.postings, effects.changes, state.to_json()))
        try:
            ledger.play_lock = Ledger.lock_for_play(path)
        except BaseException:
            ledger._discard()
            raise
        if mirror is not None:  # a new game's mirror starts empty (one left by an older file is set aside)
            mirror = Path(mirror)
            try:
                if mirror.exists():
                    mirror.replace(mirror.with_name(f"{mirror.name}.old-{datetime.now():%Y%m%d-%H%M%S}"))
                    fsync_directory(mirror.parent)  # durable before the new game's first entry: a power cut must
                    # not bring the old mirror back under the name, where it would not follow from the new file
            except OSError as exc:
                ledger._discard()
                raise LedgerError(f"Cannot set aside the old mirror {mirror}: {exc.strerror or exc}.",
                                  code="ledger_unwritable", params={"path": str(mirror)}) from exc
            ledger.mirror = mirror
            ledger.mirror_entries(1)  # the setup entry: the mirror holds every acknowledged entry of the game
        game = cls(ledger, config, ledger.meta(), state, clock)
        game._adopt_end_time()
        return game

    @staticmethod
    def check_file(path: str | Path) -> Path:
        """Refuse, without writing anything, a path that is not a Banquier game file (missing, a folder, another
        program's file, damaged). Returns the path. Raises LedgerError."""
        return Ledger.check_file(path)

    @classmethod
    def open(cls, path: str | Path, *, key: bytes,
             check: str = "auto", clock: Callable[[], datetime] | None = None, read_only: bool = False,
             background: bool | None = None, mirror: str | Path | None = None) -> Game:
        """Resume a game from its file.

        ``check``: ``auto`` (default) judges the game beside play: before it resumes, the checks whose cost does
        not grow with the game's length (the header, the projection against the last entry, the keyed hash chain
        since the keyed checkpoint; a full audit at once only when the projection does not match), then SQLite's
        check and the full audit in a separate process while the game is played (see ``background``); ``full``
        audits in full before it opens; ``none`` checks nothing (for :meth:`audit` to report everything itself).
        The cost of ``auto`` does not grow with the length of the game. ``read_only``: open to look only (audit,
        export): nothing is ever written, and ``auto`` runs SQLite's check and the chain since the checkpoint.
        ``key``: the device key's bytes (the host reads the key file, never creating one to open a game; call
        :meth:`check_file` first to refuse a file that is no game before looking for a key). The file is marked
        in use only once it passed its checks: a refused file is left byte for byte as it was.
        Raises LedgerError (not a game, damaged, unreadable) or AuditFailed (what is wrong, the first entry
        edited). A damaged file is never replaced.

        Unless ``check="none"``, every open also verifies the keyed hash chain from the file's keyed checkpoint
        (the last entry verified) to the end, and SQLite's ``quick_check`` (on opening to read; before the
        first payment of a game opened to play). ``background`` (the default for ``auto``, which the terminal, the
        simulator and every resume use): the quick check and the full audit run in a separate process
        (:class:`~terminal.bank.audit.BackgroundAudit`); play does not wait for them; meanwhile the game's files
        are held as found (no checkpoint; the WAL as found recorded beside the game: :class:`AsFound`), and a
        failure of either check stops payments at once and puts the files back exactly as found (the entries
        written since are in the mirror); an unclean stop then needs no full audit before resuming. An edit or
        damage anywhere in the journal, after a clean close too, is found this way (issue 21, point 3).
        ``background=False``: SQLite's check in this process before the first payment, the full audit before
        resuming after an unclean stop, and no full audit after a clean one (what older versions did).
        ``mirror``: the append-only record of acknowledged entries (:meth:`Ledger._mirror_lines`), kept from
        now on; entries it holds beyond the file's end (a WAL that lost its last frames) are verified against
        the keyed chain and written back before the game resumes (``restored`` counts them), or the game is
        refused when they do not verify.
        """
        if check not in ("auto", "full", "none"):
            raise ValueError(f"check must be 'auto', 'full' or 'none', not {check!r}")
        # Every check reads a private view (nothing of the game's files is written or created): a refused file
        # is left byte for byte as it was. Only a game that passed is opened for writing.
        # A game is played by one Banquier at a time: the play lock is taken before anything is read.
        lock = None if read_only else Ledger.lock_for_play(path)
        background = (background is None or background) and not read_only and check == "auto"
        shm_found = None
        if background:  # the shared memory as found: the view below may create one (read-only in place)
            with contextlib.suppress(OSError):
                shm_found = companions(Path(path))[1].read_bytes()
        try:
            view = Ledger.open(path, key, read_only=True, copy=read_only)
        except BaseException:
            if lock is not None:
                os.close(lock)
            raise
        view.play_lock = lock  # released with the view if a check refuses the file
        try:
            config, meta, state = cls._checked(view, path, key, check, background, reads_only=read_only)
        except BaseException:
            view._discard()
            raise
        if read_only:
            return cls(view, config, meta, state, clock)
        last = view.last_entry()
        verified, stored = view._checkpoint, view.checkpoint_stored
        missing: list[dict[str, Any]] = []
        if mirror is not None:
            view.mirror = Path(mirror)
            try:
                missing, state = cls._mirrored_entries(view, path, config, state, last)
            except BaseException:
                view._discard()
                raise
        as_found: AsFound | None = None
        if background:  # what is found is set aside before anything writes: put back if judged damaged
            try:
                as_found = AsFound.take(Path(path), shm_found)
            except OSError as exc:
                view._discard()
                raise LedgerError(f"Cannot resume {path}: its files cannot be set aside before it is played "
                                  f"({exc.strerror or exc}). It was left untouched.", code="ledger_unwritable",
                                  params={"path": str(path)}) from exc
        view._private = None  # keep the WAL index SQLite built for the checks: the connection below reuses it
        view.play_lock = None  # passed on to the connection that plays
        try:
            ledger = Ledger.open(path, key, checked=True)
        except BaseException:
            view._discard()
            if lock is not None:
                os.close(lock)
            if as_found is not None:
                as_found.drop()
            raise
        if as_found is not None:
            ledger.hold(as_found)  # before the first write (mark_open): no checkpoint until judged
        view._discard()  # once the connection that plays is open: closing the view is then no last close
        ledger.play_lock = lock
        ledger.mirror = Path(mirror) if mirror is not None else None
        try:
            if ledger.last_entry() != last:
                raise LedgerError(f"{path} changed while it was being checked: is another Banquier using it? "
                                  f"Stop it, then resume the game.", code="ledger_busy", params={"path": str(path)})
            ledger.mark_open()
        except BaseException:
            if as_found is not None:  # nothing was written but what is put back
                ledger.put_back()
            ledger._discard()
            raise
        ledger._checkpoint, ledger.checkpoint_stored = verified, stored
        if missing:
            try:
                ledger.restore_mirrored(missing, state.to_json())
            except (sqlite3.Error, GameError) as exc:
                if ledger.as_found is not None:
                    ledger.put_back()
                ledger._discard()
                raise LedgerError(f"{path} lost its last {len(missing)} entries (its WAL was damaged) and they "
                                  f"could not be written back from the mirror ({one_line(exc)}). The file was "
                                  f"kept; restore a backup.", code="ledger_damaged",
                                  params={"path": str(path), "reason": "entries lost"}) from exc
        if background:
            ledger.guard = BackgroundAudit(ledger.path, key)
        elif check == "auto":
            ledger.guard = QuickCheckFirst(ledger.path)  # (check="full" ran SQLite's integrity check already)
        game = cls(ledger, config, meta, state, clock)
        game.restored = len(missing)
        game._adopt_end_time()
        return game

    @staticmethod
    def _mirrored_entries(view: Ledger, path: str | Path, config: GameConfig, state: State,
                          last: tuple[int, str] | None) -> tuple[list[dict[str, Any]], State]:
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
                mac = view.entry_mac(prev, e["seq"], e["kind"], e["op"], e["undoes"], rows, e["changes"],
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

    @classmethod
    def _checked(cls, ledger: Ledger, path: str | Path, key: bytes, check: str,
                 background: bool = False, *, reads_only: bool = True) -> tuple[GameConfig, dict[str, Any], State]:
        """The checks of :meth:`open` on ``ledger`` (a private view): ``(config, meta, state)``, or raises."""
        try:
            return cls._check_view(ledger, path, key, check, background, reads_only)
        except GameError:
            raise
        except sqlite3.DatabaseError as exc:
            raise damaged(Path(path), exc) from exc
        except DAMAGE as exc:  # a header or state of the wrong shape: edited or damaged
            raise LedgerError(f"{path}: the game's header or state is damaged or was edited "
                              f"({type(exc).__name__}: {one_line(exc)[:200]}). It was left untouched; restore a "
                              f"backup.", code="ledger_damaged",
                              params={"path": str(path), "reason": one_line(exc)[:200]}) from exc

    @classmethod
    def _check_view(cls, ledger: Ledger, path: str | Path, key: bytes, check: str,
                    background: bool = False, reads_only: bool = True) -> tuple[GameConfig, dict[str, Any], State]:
        meta = ledger.meta()
        problem = _header_problem(meta)
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
        config = GameConfig(edition, meta["mode"], dict(meta["rules"]),
                            settlement=meta.get("settlement", LEGACY_SETTLEMENT), time_limit_s=_length_s(meta))
        raw = ledger.projection_raw()
        last = ledger.last_entry()
        consistent = (raw is not None and last is not None and raw[0] == last[0]
                      and raw[2] == ledger.projection_mac(raw[0], raw[1], last[1])
                      and meta.get("meta_mac") == ledger._meta_mac(meta))  # the header sets the rules
        if check != "none":  # SQLite's check: here for a reader; before the first payment for the terminal
            cls._check_chain_and_file(ledger, path, quick=reads_only)
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

    @staticmethod
    def _check_chain_and_file(ledger: Ledger, path: str | Path, *, quick: bool) -> None:
        """The start-up checks whose cost does not follow the game's length: the keyed hash chain from the
        keyed checkpoint to the end and (``quick``) SQLite's
        ``quick_check``. Records the verified end in ``ledger._checkpoint``."""
        if quick:
            ok, problem = quick_check(ledger)
            if not ok:
                raise LedgerError(f"{path} is damaged (SQLite's check: {problem}). It was left "
                                  f"untouched; restore a backup.", code="ledger_damaged",
                                  params={"path": str(path), "reason": problem})
        checkpoint = ledger.stored_checkpoint()
        if checkpoint is None:
            raise _refuse_chain(path, ["The record of the last verified entry does not match its keyed hash."],
                                None)
        problems, first_bad, last = ledger.chain_since(*checkpoint)
        if problems:
            raise _refuse_chain(path, problems, first_bad)
        ledger._checkpoint = last
        ledger.checkpoint_stored = checkpoint[0]

    def payments_stopped(self) -> str | None:
        """Why nothing more may be written to this game, as soon as it is known and without waiting: the
        checks run beside play after start-up (SQLite's check, the full audit: see
        :class:`~terminal.bank.audit.BackgroundAudit`) found the file damaged. One line naming the problem,
        or None while nothing was found (the next payment would be refused with the same problem)."""
        guard = self._ledger.guard
        if guard is None:
            return None
        self._ledger.settle()  # judged meanwhile: checkpoints resume, or the files are put back as found
        name = Path(self._ledger.path).name
        kept = (" Its files were put back as they were found when it was resumed; every payment acknowledged since "
                "is kept in its mirror and comes back with its newest good backup.")
        if self._ledger.put_back_problem is not None:
            kept = f" {self._ledger.put_back_problem}."
        if getattr(guard, "quick", None) is False:
            return f"{name} is damaged (SQLite's check: {getattr(guard, 'quick_problem', '')}).{kept}"
        if getattr(guard, "full", None) is False:
            return f"the audit of {name} found {getattr(guard, 'full_summary', '')}".rstrip() + kept
        return None

    @property
    def judged(self) -> bool | None:
        """Whether the game's file was judged sound: True for a game created here, opened after a full audit or
        whose checks beside play passed; False once they found it damaged; None while they run (what is written
        meanwhile can still be put back: no backup is made of it then)."""
        guard = self._ledger.guard
        if self._ledger.read_only or guard is None:
            return True
        self._ledger.settle()
        verdict = guard.verdict()
        if verdict is None and self._ledger.as_found is None and not isinstance(guard, BackgroundAudit):
            return True  # the in-process check before the first payment (background=False): as before
        return verdict

    def batch(self) -> contextlib.AbstractContextManager[None]:
        """A block of operations committed in batches, for a replay (:meth:`Ledger.batch`): each operation is
        still its own journal entry, refused or written whole as :meth:`apply` says, and every question asked
        of the game sees it at once; they are committed durably when the block ends, also by an error (what
        was applied before it is kept). Live play never uses it: each operation is committed durably before it
        is acknowledged."""
        return self._ledger.batch()

    def close(self) -> None:
        """Close the file cleanly (the next :meth:`open` then needs no audit), writing the play time counted
        since the last entry."""
        self._stop_play_clock()
        if self._ledger.guard is not None:
            self._ledger.guard.stop()
        self._keep_for_screens()
        self._ledger.close()

    def _keep_for_screens(self) -> None:
        """Bring the chart's summary and the history's index up to date (:func:`terminal.bank.history.keep`), so
        the screens of a long game read no more of its journal than they show; closing never fails for it."""
        if self._ledger.read_only or not self._ledger.marked or self.payments_stopped() is not None:
            return  # (a game not yet judged gets it in its WAL, which is put back as found if it is judged damaged)
        try:
            keep(self._ledger)
        except (GameError, *DAMAGE):
            pass  # the screens then read the journal itself: the same lines and points, in more time

    def maintain(self, stretches: int = MAINTAIN_STRETCHES, budget_s: float = MAINTAIN_BUDGET_S) -> int:
        """A bounded step of the upkeep done beside play (the terminal calls it on its tick, never on the path of
        a payment): the chart's summary brought up to date by at most ``stretches`` stretches of the journal
        counted (or ``budget_s`` seconds), see :func:`terminal.bank.history.maintain_summary`, so a game stopped
        without a clean close is charted from its summary too, and an old file's summary catches up over the
        following calls. Nothing is written to a game opened read-only, stopped, inside a replay's batch or before
        its start-up check has passed. Never raises: a failure (a full disk) is logged once and the next call
        tries again. Returns how many rows were written."""
        ledger = self._ledger
        guard = ledger.guard
        if ledger.read_only or not ledger.marked or ledger._batch is not None \
                or (guard is not None and getattr(guard, "quick", True) is not True) \
                or self.payments_stopped() is not None:
            return 0
        try:
            if ledger.db.conn.in_transaction:
                return 0
            written = maintain_summary(ledger, stretches=stretches, budget_s=budget_s)
        except (GameError, OSError, *DAMAGE) as exc:
            if not self._maintain_failed:
                _log.warning("the chart's summary of %s was not brought up to date (%s); play goes on, the chart "
                             "reads the journal where the summary lacks", Path(ledger.path).name, one_line(exc))
            self._maintain_failed = True
            return 0
        self._maintain_failed = False
        return written

    def __enter__(self) -> Game:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- properties ----------------------------------------------------------------------------------------
    @property
    def path(self) -> Path:
        return self._ledger.path

    @property
    def edition(self) -> Edition:
        return self.config.edition

    @property
    def players(self) -> tuple[str, ...]:
        return self._state.players

    @property
    def mode(self) -> str:
        return self.config.mode

    @property
    def ledger(self) -> Ledger:
        """The underlying ledger (for audits, exports and tests)."""
        return self._ledger

    @property
    def raw_state(self) -> State:
        """A copy of the current :class:`~terminal.bank.state.State` (safe to change)."""
        return self._state.copy()

    @property
    def current(self) -> State:
        """The current :class:`~terminal.bank.state.State` itself, without a copy: read it, never change it (the
        screen reads it on every redraw; :attr:`raw_state` is the copy to experiment on)."""
        return self._state

    # -- the door: preview, commit (docs/bank-door.md) ----------------------------------------------------
    def preview(self, op: Operation | Mapping[str, Any]) -> Preview:
        """Compute ``op`` (a record of :mod:`terminal.bank.operations`; :class:`~terminal.bank.operations.Undo`
        for an undo) on the game as it stands, without committing it: what it would move and change, the rent
        it would charge, the debts it would create (:class:`~terminal.bank.door.Preview`). :meth:`commit` writes
        it. Raises the errors :meth:`apply` would: MalformedOperation, a GameError subclass for a refusal
        (NothingToUndo, AuditFailed for an undo of an edited entry). ``op`` may still be a table-log line (a
        dict), parsed here: a shim for the callers written before issue 23."""
        operation = parse_operation(op)
        if isinstance(operation, Undo):
            target = self._undo_target()
            effects = engine.undo_effects(self._state, self.config, target.op, _effects(target))
            return Preview(operation, effects, self._state, engine.replay_effects(self._state, effects),
                           undone=parse_operation(target.op), undoes=target.seq)
        after, effects = engine.apply(self._state, self.config, operation)
        return Preview(operation, effects, self._state, after, rent=effects.rent)

    def commit(self, preview: Preview) -> Receipt:
        """Commit a :meth:`preview`: one journal entry, written durably before this returns. When the journal
        has not moved since the preview (no entry written meanwhile: the game's state is the one it was computed
        on) the very computation previewed is written, without computing it again; otherwise the operation is
        computed again on the game as it now stands, and may be refused (a GameError: nothing is written).

        Raises LedgerError if the file cannot be written (nothing is recorded). An ``x_play_time`` that brings
        the time played to the limit also records ``x_time_up``: the game is then over."""
        if preview.basis is not self._state:  # an entry was written since the preview: computed again
            preview = self.preview(preview.operation)
        operation = preview.operation
        if isinstance(operation, Undo):
            was_over = self.is_over()
            self._time_up = None
            seq = self._ledger.append("undo", {"op": Undo.op}, preview.undoes, preview.effects.postings,
                                      preview.effects.changes, preview.after.to_json())
            self._state = preview.after
            if was_over and not self.is_over():  # play resumes now: the time the game stood over is no play
                self._play_ref = self._play_clock() if self._play_clock is not None else None
                self._play_pending = 0.0
            return self._receipt(seq, preview)
        seq = self._ledger.append("op", operation.to_json(), None, preview.effects.postings,
                                  preview.effects.changes, preview.after.to_json())
        self._state = preview.after
        receipt = self._receipt(seq, preview)
        if isinstance(operation, PlayTime) and engine.time_is_up(self._state, self.config):
            self._time_up = self.apply(TimeUp())  # the time played reached the limit: the game ends
        return receipt

    def apply(self, op: Operation | Mapping[str, Any]) -> Receipt:
        """Compute and commit one operation: :meth:`commit` of its :meth:`preview` (one computation). ``op``: a
        record of :mod:`terminal.bank.operations` (or, a shim for the callers written before issue 23, a table-log
        line, parsed here). Raises as :meth:`preview` and :meth:`commit` do."""
        return self.commit(self.preview(op))

    def undo(self) -> Receipt:
        """Undo the last operation not yet undone, by appending a compensating entry (nothing is deleted):
        ``apply(Undo())``. May be repeated; survives a restart; undoing the operation that ended the game reopens
        it (the end of a time-limited game whose time is played: with the limit lifted). An undo is not itself
        undoable; the clock's entries (play time) are never undone. Raises NothingToUndo."""
        return self.apply(Undo())

    def _undo_target(self) -> Entry:
        """The journal entry an undo would undo, checked against its keyed hash. Raises NothingToUndo, or
        AuditFailed for an entry edited outside the terminal (its postings are never paid back)."""
        seq = self._ledger.last_undoable(CLOCK_OPERATIONS)
        if seq is None:
            raise NothingToUndo("There is nothing to undo.")
        target = self._ledger.entry(seq)
        if target is None or not self._ledger.entry_is_genuine(target):
            raise AuditFailed(f"Entry #{seq} was edited outside the terminal: it cannot be undone. Run "
                              f"`banquier audit` on {self.path.name}.", code="audit_edited_entry",
                              params={"problems": [f"entry {seq}"], "first_bad_seq": seq, "seq": seq})
        return target

    def last_undoable(self) -> dict[str, Any] | None:
        """The operation :meth:`undo` would undo (as recorded), or None."""
        seq = self._ledger.last_undoable(CLOCK_OPERATIONS)
        entry = self._ledger.entry(seq) if seq is not None else None
        return entry.op if entry is not None else None

    def _receipt(self, seq: int, preview: Preview) -> Receipt:
        return Receipt(seq=seq, operation=preview.operation, postings=tuple(preview.effects.postings),
                       debts_created=preview.effects.debts_created(), rent=preview.rent, undone=preview.undone,
                       debts=self.debts())

    # -- one method per operation (docs/table-log.md): each applies its record ---------------------------
    def pass_go(self, player: str) -> Receipt:
        """GO salary from the Bank (RULES.md, Money in and out)."""
        return self.apply(PassGo(player))

    def buy(self, player: str, square: int) -> Receipt:
        """Buy an unowned deed at its printed price. Voluntary: refused without the cash or while in debt."""
        return self.apply(Buy(player, square))

    def auction(self, square: int, winner: str, price: int) -> Receipt:
        """Record an auction's result: ``winner`` pays ``price`` (>= 1) to the Bank for an unowned deed. To run
        the bidding, see :meth:`start_auction`."""
        return self.apply(Auction(square, winner, price))

    def pay_rent(self, player: str, square: int, dice: int | None = None, card: str | None = None) -> Receipt:
        """Pay the owner's rent for ``square``; ``dice`` (2-12) for utilities; ``card``: ``nearest_railroad``
        (twice the rent) or ``nearest_utility`` (10 x dice). A charge: never refused for lack of cash."""
        return self.apply(PayRent(player, square, dice, card))

    def pay_tax(self, player: str, square: int, choice: str | None = None) -> Receipt:
        """Income tax or luxury tax (the edition's tax squares); ``choice`` ``flat``/``percent`` under
        ``income_tax_percent``."""
        return self.apply(PayTax(player, square, choice))

    def bank_pays(self, player: str, amount: int) -> Receipt:
        """A card or the Bank pays the player ``amount``."""
        return self.apply(BankPays(player, amount))

    def pay_bank(self, player: str, amount: int) -> Receipt:
        """A card or fee the player pays to the Bank (to the pot under the jackpot rule). A charge."""
        return self.apply(PayBank(player, amount))

    def pay_each_player(self, player: str, amount: int) -> Receipt:
        """The player pays ``amount`` to every other player still in the game, in play order. A charge."""
        return self.apply(PayEachPlayer(player, amount))

    def collect_from_each_player(self, player: str, amount: int) -> Receipt:
        """Every other player still in the game pays the player ``amount``. Charges."""
        return self.apply(CollectFromEachPlayer(player, amount))

    def repairs(self, player: str, per_house: int, per_hotel: int) -> Receipt:
        """Pay the Bank ``per_house`` for each house and ``per_hotel`` for each hotel the player owns."""
        return self.apply(Repairs(player, per_house, per_hotel))

    def jail_fine(self, player: str) -> Receipt:
        """Pay the jail fine (the edition's; 50 in the classic unit). A charge."""
        return self.apply(JailFine(player))

    def gain_jail_card(self, player: str, deck: str) -> Receipt:
        """The player draws the Get Out of Jail Free card of ``deck`` (``chance``/``community_chest``)."""
        return self.apply(GainJailCard(player, deck))

    def use_jail_card(self, player: str, deck: str | None = None) -> Receipt:
        """The player uses a Get Out of Jail Free card; it goes back under its deck."""
        return self.apply(UseJailCard(player, deck))

    def free_parking(self, player: str) -> Receipt:
        """Landing on Free Parking: nothing, or the whole pot under the jackpot rule."""
        return self.apply(FreeParking(player))

    def build(self, player: str, square: int, price: int | None = None) -> Receipt:
        """Build the next house (or the hotel) on a street; ``price`` when won at a housing-shortage auction."""
        return self.apply(Build(player, square, price))

    def sell_building(self, player: str, square: int, whole: bool = False) -> Receipt:
        """Sell one building back to the Bank at half price, or (``whole``) every building of the group."""
        return self.apply(SellBuilding(player, square, True if whole else None))

    def mortgage(self, player: str, square: int) -> Receipt:
        """Mortgage a deed (no buildings in its group); the Bank pays the mortgage value."""
        return self.apply(Mortgage(player, square))

    def unmortgage(self, player: str, square: int) -> Receipt:
        """Lift a mortgage: mortgage value + 10 % (rounded per ``interest_rounding``). Voluntary."""
        return self.apply(Unmortgage(player, square))

    def transfer(self, payer: str, payee: str, amount: int) -> Receipt:
        """A voluntary payment between players, or with the Bank (``"bank"``)."""
        return self.apply(Transfer(payer, payee, amount))

    def trade(self, a: str, b: str, a_gives: TradeSide | Mapping[str, Any], b_gives: TradeSide | Mapping[str, Any],
              lift_now: Iterable[int] = ()) -> Receipt:
        """A trade: each side gives a :class:`~terminal.bank.operations.TradeSide` (or its table-log form
        ``{"cash": n, "squares": [...], "jail_cards": n}``). Received mortgaged deeds cost 10 % at once; those in
        ``lift_now`` are lifted at once for their mortgage value."""
        return self.apply(Trade(a, b, TradeSide.of(a_gives, "a_gives"), TradeSide.of(b_gives, "b_gives"),
                                tuple(lift_now) or None))

    def declare_bankruptcy(self, player: str, lift_now: Iterable[int] = ()) -> Receipt:
        """Bankruptcy to the creditor of the oldest debt (see :mod:`terminal.bank.bankruptcy`)."""
        return self.apply(DeclareBankruptcy(player, tuple(lift_now) or None))

    def end_game(self) -> Receipt:
        """End a time-limited game now."""
        return self.apply(EndGame())

    # -- the electronic board's operations (terminal/bank/ultimate.py) ---------------------------------------
    def level(self, square: int) -> int:
        """The level of ``square``: on the electronic board a property's rent level (1-5), on the classic board a
        street's houses (5: a hotel); 0 while the Bank holds it."""
        return self.board.level(self._state, square)

    def raise_level(self, player: str, square: int) -> Receipt:
        """The owner lands on their own property: +1 rent level (refused at 5)."""
        return self.apply(RaiseLevel(player, square))

    def location(self, player: str, square: int, buy: bool = False) -> Receipt:
        """A Location square: the fee, then the chosen property's landing (``buy``: buy it, unowned)."""
        return self.apply(Location(player, square, True if buy else None))

    def sell_property(self, player: str, square: int) -> Receipt:
        """A player in debt sells a property back to the Bank at its printed price."""
        return self.apply(SellProperty(player, square))

    def event(self, player: str, card: int, **targets: Any) -> Receipt:
        """Play Event card number ``card`` (1-based, the edition's order) for ``player`` with the targets its
        action needs (``terminal.bank.ultimate.EVENT_TARGETS``: ``square``, ``other``, ``side``, ``group``,
        ``opponent``). RuleViolation on a board without Event cards."""
        return self.apply(self.board.event_operation(self.edition, card, player, **targets))

    def event_targets(self, player: str, action: str) -> dict[str, list[Any]]:
        """Where Event ``action`` would apply for ``player`` now: the accepted choices of each target it needs
        (an empty list: the card cannot apply; it is set aside without an operation)."""
        return self.board.event_targets(self._state, self.config, player, action)

    # -- play time (docs/table-log.md, Time limit) ---------------------------------------------------------
    def start_play_clock(self, clock: Callable[[], float]) -> None:
        """Count play time on ``clock`` (monotonic seconds: ``time.monotonic`` on a device) from now on, while
        the terminal runs: :meth:`tick` reads it. The time between two sessions is no play time."""
        self._play_clock = clock
        self._play_ref = clock()
        self._play_pending = 0.0

    def tick(self, now: float | None = None) -> Receipt | None:
        """Count the play time since the last tick (``now``: a reading of the play clock, by default the one of
        :meth:`start_play_clock`) and write it to the journal every :data:`PLAY_TIME_RECORD_S` seconds, or at
        once when it reaches the limit of a time-limited game, which then ends (``x_time_up``). Only that play
        time ends a game: the wall clock never does. Returns the receipt of the end, or None."""
        if self.mode != "time_limit" or self._ledger.read_only:
            return None
        if now is None and self._play_clock is not None:
            now = self._play_clock()
        if self.is_over():  # the time the game stands over is no play
            self._play_ref, self._play_pending = now, 0.0
            return None
        if now is not None:
            if self._play_ref is not None and now > self._play_ref:
                self._play_pending += now - self._play_ref
            self._play_ref = now
        limit = self.time_limit()
        if self._play_pending >= PLAY_TIME_RECORD_S or (
                limit is not None and self._play_pending >= max(limit - self.played(), 1)):
            self._record_play_time()
        if engine.time_is_up(self._state, self.config):  # reached, but its end not written (a stop between)
            self._time_up = self.apply(TimeUp())
        ended, self._time_up = self._time_up, None
        return ended if self.is_over() else None

    def _record_play_time(self) -> None:
        seconds = int(self._play_pending)
        if seconds >= 1:
            self.apply(PlayTime(seconds))  # an end it causes is recorded too (commit)
            self._play_pending -= seconds  # once written: a refused or failed write keeps the time to count

    def _stop_play_clock(self) -> None:
        """Write the play time counted since the last entry (a clean close)."""
        if self._play_clock is None or self._ledger.read_only:
            return
        try:
            self.tick()
            if self.mode == "time_limit" and not self.is_over():
                self._record_play_time()
        except GameError:
            pass  # closing never fails: at most the last minute of play is not counted
        self._play_clock = None

    def played(self) -> int:
        """Seconds of play recorded so far (a time-limited game; 0 for the others)."""
        return int(self._state.game.get("played_s", 0))

    def time_limit(self) -> int | None:
        """The seconds of play after which the game ends, or None (not time-limited, no limit, or lifted)."""
        return engine.time_limit(self._state, self.config)

    def time_left(self) -> int | None:
        """Seconds of play left before the end (recorded and counted time), or None without a limit."""
        limit = self.time_limit()
        if limit is None:
            return None
        return max(0, limit - self.played() - int(self._play_pending))

    def _adopt_end_time(self) -> None:
        """A game with a wall-clock ``end_time`` and no limit yet, opened with a wall clock: record once, as
        play time left, the time from now to its end time (0 when it has passed; never more than the length
        agreed at the start, ``end_time`` minus ``created_at``). From then on only play time counts."""
        end = self.meta.get("end_time")
        if (not end or self._clock is None or self.mode != "time_limit" or self.config.time_limit_s is not None
                or "limit_s" in self._state.game):
            return
        try:
            end_at = _parse_time(end)
            left = (end_at - _aware(self._clock())).total_seconds()
            created = self.meta.get("created_at")
            if isinstance(created, str):
                try:
                    left = min(left, (end_at - _parse_time(created)).total_seconds())
                except RuleViolation:
                    pass
            self.apply(TimeLimit(max(0, int(left))))
        except GameError:
            pass  # left as it was: converted at the next open

    # -- auctions ------------------------------------------------------------------------------------------
    def start_auction(self, square: int) -> DeedAuction:
        """Open the auction of an unowned deed (declined at its price, or taken from a bankrupt player).
        Returns a :class:`terminal.bank.auction.DeedAuction`; nothing is recorded until it closes."""
        return DeedAuction(self, square)

    def start_building_auction(self, building: str = "house") -> BuildingAuction:
        """Open a housing-shortage auction of one house or hotel (RULES.md, Buildings)."""
        return BuildingAuction(self, building)

    # -- questions -----------------------------------------------------------------------------------------
    def is_over(self) -> bool:
        return bool(self._state.game.get("over"))

    def debts(self) -> dict[str, list[Owed]]:
        """Each player's outstanding debts, oldest first: ``{player: [{"to": name|"bank", "amount": n}]}``."""
        out: dict[str, list[Owed]] = {}
        for d in self._state.debt_list:
            out.setdefault(d.debtor, []).append(
                {"to": BANK if d.creditor in (BANK, POT) else d.creditor, "amount": d.amount})
        return out

    def cash(self, player: str) -> int:
        return self._state.cash[player]

    def worth(self, player: str) -> int:
        """A player's worth (RULES.md, End of the game)."""
        return worth(self._state, self.edition, player, self.config.houses_before_hotel)

    def standings(self) -> list[str]:
        return standings(self._state, self.edition, self.config.houses_before_hotel)

    def rent(self, payer: str, square: int, dice: int | None = None, card: str | None = None) -> Rent:
        """The rent :meth:`pay_rent` would charge ``payer`` on ``square`` now, with its reason
        (:class:`~terminal.bank.types.Rent`: ``amount``, ``owner``, ``reason``, ``detail``); raises as it would."""
        tx = Tx(self._state, self.config, self.board)
        return self.board.rent_due(self._state, self.config, tx.player(payer), tx.deed(square), dice, card)

    def raisable(self, player: str) -> int:
        """What a player could still raise from the Bank before a bankruptcy (the classic board: half their
        buildings + their unmortgaged deeds' mortgage value; the electronic board: their properties at their
        printed price)."""
        return self.board.raisable(self._state, self.config, player)

    def state(self) -> dict[str, Any]:
        """Everything a table-log ``expect`` can check (docs/table-log.md, Checks):

        ``cash`` {player: int}, ``owner`` {"square": player|"bank"} for the 28 deeds, ``buildings``
        {"square": 0-4 or 5 = hotel}, ``mortgaged`` [squares], ``debt`` {player: [{"to", "amount"}]},
        ``jail_cards`` {player: n}, ``bankrupt`` [names], ``bank`` {"houses", "hotels", "pot"},
        ``worth`` {player: int}, ``standings`` [names], ``game_over`` bool; a time-limited game adds
        ``x_time`` (:meth:`time_state`). On the Ultimate board ``owner`` covers its 22 properties, ``levels``
        {"square": 1-5, 0 unowned} replaces ``buildings``, and ``slump`` {player: rent payments left at level 1}
        is added.
        """
        s = self._state
        common: dict[str, Any] = {
            "cash": {p: s.cash[p] for p in s.players},
            "owner": {str(d.index): s.owner.get(d.index, BANK) for d in self.edition.deeds()},
            "debt": self.debts(),
            "bankrupt": list(s.bankrupt_list),
            "worth": {p: self.worth(p) for p in s.players},
            "standings": self.standings(),
            "game_over": self.is_over(),
        }
        if self.mode == "time_limit":
            common["x_time"] = self.time_state()
        return self.board.checks(s, self.config, common)

    def time_state(self) -> dict[str, Any]:
        """A time-limited game's clock as recorded (the ``x_time`` check of docs/table-log.md): ``played_s``,
        ``limit_s`` (None: no limit, or lifted), ``left_s`` (None without a limit) and ``lifted``."""
        limit = self.time_limit()
        return {"played_s": self.played(), "limit_s": limit,
                "left_s": None if limit is None else max(0, limit - self.played()),
                "lifted": bool(self._state.game.get("lifted"))}

    def audit(self) -> AuditReport:
        """Full audit: keyed hash chain, balanced entries, replay of every operation through the rules,
        replayed state = stored state, SQL sums = projected cash. Never changes the file."""
        return audit_ledger(self._ledger, self.config)

    def history(self, with_clock: bool = False) -> list[dict[str, Any]]:
        """The journal, oldest first: ``{"seq", "kind", "op", "undoes", "postings", "undone"}``; the clock's
        entries (play time) only ``with_clock``."""
        entries = list(self._ledger.entries())
        undone = {e.undoes for e in entries if e.undoes is not None}
        return [{"seq": e.seq, "kind": e.kind, "op": e.op, "undoes": e.undoes, "postings": e.postings,
                 "undone": e.seq in undone, "recorded_at": e.recorded_at} for e in entries
                if with_clock or e.op.get("op") not in CLOCK_OPERATIONS]

    def history_pages(self) -> HistoryPages:
        """:meth:`history` as the history screen reads it: a page at a time from the file."""
        return HistoryPages(self._ledger, self.players, self._state.cash)

    def worth_series(self) -> WorthSeries:
        """:meth:`worth_history` at a bounded number of points, for the end-of-game chart."""
        return worth_series(self._ledger, self.edition, self.players, self.config.houses_before_hotel)

    def worth_history(self) -> list[dict[str, int]]:
        """Every player's worth after each journal entry (setup first), for the end-of-game chart."""
        state = State.new(self.edition, self.players)
        out: list[dict[str, int]] = []
        hbh = self.config.houses_before_hotel
        for entry in self._ledger.entries():
            if entry.op.get("op") in CLOCK_OPERATIONS:
                continue  # no money moves
            state = engine.replay_effects(state, _effects(entry))
            out.append({p: worth(state, self.edition, p, hbh) for p in self.players})
        return out


def _effects(entry: Entry) -> Effects:
    """The effects a journal entry recorded."""
    return Effects.recorded(entry.postings, entry.changes)


def _parse_time(text: str) -> datetime:
    try:
        value = datetime.fromisoformat(text)
    except (TypeError, ValueError) as exc:
        raise RuleViolation(f"End time {text!r} is not an ISO 8601 date and time.", code="bad_end_time") from exc
    return value if value.tzinfo else value.astimezone()


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.astimezone()


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


def _length_s(meta: Mapping[str, Any]) -> int | None:
    minutes = meta.get("length_minutes")
    return 60 * minutes if isinstance(minutes, int) and not isinstance(minutes, bool) else None


def _refuse_chain(path: str | Path, problems: list[str], first_bad: int | None) -> AuditFailed:
    where = f" First entry edited or inconsistent: #{first_bad}." if first_bad else ""
    return AuditFailed(f"{path}: the journal was changed outside the terminal.{where} {' '.join(problems[:3])} "
                       f"The file was left untouched; `banquier audit` tells more; restore a backup.",
                       params={"problems": problems, "first_bad_seq": first_bad})


def _header_problem(meta: Mapping[str, Any]) -> str | None:
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
    return None


#: Names no player may take (compared without capitals): the Bank's and the Free Parking pot's accounts, and the
#: names the screens give them in each language (the catalogs' ``ui_bank_name`` and ``ui_pot_name``; a test keeps
#: this list and the catalogs together), so that no message about a player reads like one about the Bank.
RESERVED_NAMES = frozenset({BANK, POT, "the bank", "banque", "la banque", "банк", "free parking", "parc gratuit",
                            "стоянка"})


def _check_players(players: tuple[str, ...], edition: Edition | None = None) -> None:
    least, most = (edition.min_players, edition.max_players) if edition is not None else (MIN_PLAYERS, MAX_PLAYERS)
    if not least <= len(players) <= most:
        raise RuleViolation(f"A game has {least} to {most} players, not {len(players)}.",
                            code="player_count", params={"count": len(players)})
    for name in players:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_LENGTH or name != name.strip() \
                or not name.isprintable():
            raise RuleViolation(f"Player names are 1 to {MAX_NAME_LENGTH} printable characters without leading or "
                                f"trailing spaces: {name!r}.", code="player_name", params={"name": name})
        if name.casefold() in RESERVED_NAMES:
            raise RuleViolation(f"{name!r} is reserved for the Bank; choose another name.",
                                code="player_name_reserved", params={"name": name})
    if len({name.casefold() for name in players}) != len(players):
        raise RuleViolation("Two players have the same name (capitals do not count).", code="player_duplicate")
