"""``terminal.Game``: the Bank of one game, the public API of the firmware.

A game is one SQLite file (:mod:`terminal.bank.ledger`). Operations come in as records of
:mod:`terminal.bank.operations` through the door (docs/bank-door.md): :meth:`Game.preview` computes one,
:meth:`Game.commit` writes it as one journal entry, atomically and durably, and returns a
:class:`~terminal.bank.door.Receipt`; a refusal raises a :class:`~terminal.errors.GameError` subclass and changes
nothing. Every operation of ``docs/table-log.md`` also has a method here that applies its record.

What the Game does not do itself: making and opening its file (:mod:`terminal.bank.opening`), the rules
(:mod:`terminal.bank.engine` and the board the game is played on, :attr:`Game.board`), the play clock of a
time-limited game (:attr:`Game.play_clock`, :mod:`terminal.bank.play_clock`), auctions (:mod:`terminal.bank.auction`),
the history and the chart (:mod:`terminal.bank.history`), the upkeep beside play (:mod:`terminal.bank.upkeep`).

Typical use::

    game = Game.create("games/sunday.db", edition="fr", players=["Ann", "Bob"], key=key)
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
import random
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from cards.editions import Edition
from terminal.bank import engine, opening, upkeep
from terminal.bank.auction import BuildingAuction, DeedAuction
from terminal.bank.audit import AuditReport, audit_ledger
from terminal.bank.boards import board_of
from terminal.bank.door import Preview, Receipt
from terminal.bank.history import MAINTAIN_BUDGET_S, MAINTAIN_STRETCHES, HistoryPages, WorthSeries, worth_series
from terminal.bank.ledger.journal import Ledger
from terminal.bank.ledger.records import Entry
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
    TimeUp,
    Trade,
    TradeSide,
    Transfer,
    Undo,
    Unmortgage,
    UseJailCard,
    parse_operation,
)
from terminal.bank.play_clock import PlayClock, adopt_end_time
from terminal.bank.state import BANK, POT, State, standings, worth
from terminal.bank.tx import Tx
from terminal.bank.types import RULES_VERSION, Effects, Rent, WallClock, system_clock
from terminal.errors import AuditFailed, MalformedOperation, NothingToUndo

__all__ = ["Game"]


class Game:
    """One game of Monopoly as the Bank sees it. Create with :meth:`create`, resume with :meth:`open`.

    Not thread-safe: one caller (the terminal's state machine) drives it.
    """

    def __init__(self, opened: opening.Opened) -> None:
        self._ledger = opened.ledger
        self.config = opened.config
        #: The board the game is played on, chosen from its edition (:func:`terminal.bank.boards.board_of`).
        self.board = board_of(opened.config.edition)
        self.meta = opened.meta
        self._state = opened.state
        #: The play clock of a time-limited game (:class:`terminal.bank.play_clock.PlayClock`).
        self.play_clock = PlayClock(self)
        #: Entries written back from the mirror when the game was resumed.
        self.restored = opened.restored
        self._upkeep = upkeep.Upkeep(opened.ledger)

    # -- creating and opening (terminal/bank/opening.py) ------------------------------------------------------
    @classmethod
    def create(cls, path: str | Path, edition: str | Edition, players: Iterable[str], mode: str | None = None,
               rules: Mapping[str, Any] | None = None, dealt: Mapping[str, Iterable[int]] | None = None,
               end_time: str | None = None, *, key: bytes,
               rng: random.Random | None = None, clock: WallClock | None = None,
               player_cards: Mapping[str, str] | None = None, length_minutes: int | None = None,
               mirror: str | Path | None = None, wall_clock: WallClock | None = None,
               rules_version: int = RULES_VERSION) -> Game:
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
        - ``end_time``: ISO 8601 end of a time-limited game, as older versions wrote it: with the wall clock of a
          table ``clock``, converted at once into that much play time left; the wall clock never ends a game.
        - ``clock``: the wall clock of the table the game is played at (it also times the entries).
          ``wall_clock``: the wall clock that times the entries and the header's ``created_at`` (default:
          ``clock``, else the system's), without converting an ``end_time`` (a replay).
        - ``key``: the device key's bytes (32; the host application reads or creates the key file and passes it).
        - ``player_cards``: ``{player: card UID}``, the bank card each player tapped when the game was set up
          (the terminal maps taps to players with it; without it, player card N is the N-th player).
        - ``mirror``: where to keep the append-only record of acknowledged entries (see :meth:`open`).
        - ``rules_version``: the version of the board's rules (:data:`terminal.bank.types.RULES_VERSIONS`, the
          header's ``rules_version``); the current one by default, an older one only to replay an older game's
          export (docs/table-log.md, Header).
        Raises UnknownName (unknown edition), RuleViolation (players, mode, flags, deal, rules version) or
        LedgerError.
        """
        opened = opening.create(path, edition, players, mode, rules, dealt, end_time, key=key, rng=rng,
                                player_cards=player_cards, length_minutes=length_minutes, mirror=mirror,
                                wall_clock=wall_clock or clock or system_clock, rules_version=rules_version)
        game = cls(opened)
        if clock is not None:
            adopt_end_time(game, clock, opening.parse_time)
        return game

    @staticmethod
    def check_file(path: str | Path) -> Path:
        """Refuse, without writing anything, a path that is not a Banquier game file (missing, a folder, another
        program's file, damaged). Returns the path. Raises LedgerError."""
        return opening.check_file(path)

    @classmethod
    def open(cls, path: str | Path, *, key: bytes,
             check: str = "auto", clock: WallClock | None = None, read_only: bool = False,
             background: bool | None = None, mirror: str | Path | None = None,
             wall_clock: WallClock | None = None) -> Game:
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
        damage anywhere in the journal, after a clean close too, is found this way.
        ``background=False``: SQLite's check in this process before the first payment, the full audit before
        resuming after an unclean stop, and no full audit after a clean one.
        ``mirror``: the append-only record of acknowledged entries (:mod:`terminal.bank.ledger.mirror`), kept from
        now on; entries it holds beyond the file's end (a WAL that lost its last frames) are verified against
        the keyed chain and written back before the game resumes (``restored`` counts them), or the game is
        refused when they do not verify. ``clock``, ``wall_clock``: as for :meth:`create` (a game with a wall-clock
        ``end_time`` opened with a table's ``clock`` has it converted into play time left). The sequence is
        :func:`terminal.bank.opening.open_for_play`'s.
        """
        if check not in ("auto", "full", "none"):
            raise ValueError(f"check must be 'auto', 'full' or 'none', not {check!r}")
        times = wall_clock or clock or system_clock
        if read_only:
            return cls(opening.open_to_read(path, key=key, check=check, wall_clock=times))
        game = cls(opening.open_for_play(path, key=key, check=check, background=background is None or background,
                                         mirror=mirror, wall_clock=times))
        if clock is not None:
            adopt_end_time(game, clock, opening.parse_time)
        return game

    # -- the file's life ---------------------------------------------------------------------------------------
    def payments_stopped(self) -> str | None:
        """Why nothing more may be written to this game (:func:`terminal.bank.upkeep.payments_stopped`): one line
        naming the problem, or None while nothing was found."""
        return upkeep.payments_stopped(self._ledger)

    @property
    def judged(self) -> bool | None:
        """Whether the game's file was judged sound (:func:`terminal.bank.upkeep.judged`): True, False, or None
        while the checks beside play run."""
        return upkeep.judged(self._ledger)

    def await_judgment(self, timeout_s: float) -> bool | None:
        """:attr:`judged`, waiting at most ``timeout_s`` seconds (>= 0) for the checks beside play to answer:
        True, False, or None (still running when the time was up). For a clean stop's last backup, which is
        made only of a game judged sound."""
        return upkeep.judged(self._ledger, wait_s=timeout_s)

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
        self.play_clock.stop()
        if self._ledger.guard is not None:
            self._ledger.guard.stop()
        self._upkeep.at_close()
        self._ledger.close()

    def maintain(self, stretches: int = MAINTAIN_STRETCHES, budget_s: float = MAINTAIN_BUDGET_S) -> int:
        """A bounded step of the upkeep done beside play (the terminal calls it on its tick, never on the path of
        a payment): the chart's summary brought up to date by at most ``stretches`` stretches of the journal
        counted (or ``budget_s`` seconds), see :func:`terminal.bank.history.maintain_summary`, so a game stopped
        without a clean close is charted from its summary too, and an old file's summary catches up over the
        following calls. Nothing is written to a game opened read-only, stopped, inside a replay's batch or before
        its start-up check has passed. Never raises: a failure (a full disk) is logged once and the next call
        tries again. Returns how many rows were written."""
        return self._upkeep.step(stretches, budget_s)

    def settle_writes(self, *, fold: bool = True) -> None:
        """What follows an acknowledged operation, off the path from the tap to the beep: the terminal calls it once
        the beep has started (``fold=False``: the mirror's line flushed) and in idle time (the WAL folded into the
        file when due): :meth:`terminal.bank.ledger.journal.Ledger.settle_writes`. Never raises."""
        self._ledger.settle_writes(fold=fold)

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
    def read_only(self) -> bool:
        """Whether the game was opened to look only (nothing is ever written to it)."""
        return self._ledger.read_only

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
    def preview(self, op: Operation) -> Preview:
        """Compute ``op`` (a record of :mod:`terminal.bank.operations`; :class:`~terminal.bank.operations.Undo`
        for an undo) on the game as it stands, without committing it: what it would move and change, the rent
        it would charge, the debts it would create (:class:`~terminal.bank.door.Preview`). :meth:`commit` writes
        it. Raises the errors :meth:`apply` would: MalformedOperation (code ``not_an_operation``) for anything
        but a record (a table-log line is parsed first: :func:`~terminal.bank.operations.parse_operation`), a
        GameError subclass for a refusal (NothingToUndo, AuditFailed for an undo of an edited entry)."""
        if not isinstance(op, Operation):
            raise MalformedOperation(f"Not an operation record: {op!r} (parse a table-log line first).",
                                     code="not_an_operation")
        operation = op
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
            seq = self._ledger.append("undo", {"op": Undo.op}, preview.undoes, preview.effects.postings,
                                      preview.effects.changes, preview.after.to_json())
            self._state = preview.after
            if was_over and not self.is_over():  # play resumes now: the time the game stood over is no play
                self.play_clock.resumed()
            return self._receipt(seq, preview)
        seq = self._ledger.append("op", operation.to_json(), None, preview.effects.postings,
                                  preview.effects.changes, preview.after.to_json())
        self._state = preview.after
        receipt = self._receipt(seq, preview)
        if isinstance(operation, PlayTime) and engine.time_is_up(self._state, self.config):
            # the time played reached the limit: the game ends, in the entry after it
            receipt = replace(receipt, followed_by=self.apply(TimeUp()))
        return receipt

    def apply(self, op: Operation) -> Receipt:
        """Compute and commit one operation: :meth:`commit` of its :meth:`preview` (one computation). ``op``: a
        record of :mod:`terminal.bank.operations`. Raises as :meth:`preview` and :meth:`commit` do."""
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
                       effects=preview.effects, rent=preview.rent, undone=preview.undone)

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
        return self.apply(self.board.event_operation(self.edition, card, player, self.config.rules_version, **targets))

    def event_targets(self, player: str, action: str) -> dict[str, list[Any]]:
        """Where Event ``action`` would apply for ``player`` now: the accepted choices of each target it needs
        (an empty list: the card cannot apply; it is set aside without an operation)."""
        return self.board.event_targets(self._state, self.config, player, action)

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
            "debt": _debt_map(s),
            "bankrupt": list(s.bankrupt_list),
            "worth": {p: self.worth(p) for p in s.players},
            "standings": self.standings(),
            "game_over": self.is_over(),
        }
        if self.mode == "time_limit":
            common["x_time"] = self.time_state()
        return self.board.checks(s, self.config, common)

    def played(self) -> int:
        """Seconds of play recorded so far (a time-limited game; 0 for the others)."""
        return int(self._state.game.get("played_s", 0))

    def time_limit(self) -> int | None:
        """The seconds of play after which the game ends, or None (not time-limited, no limit, or lifted)."""
        return engine.time_limit(self._state, self.config)

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


def _effects(entry: Entry) -> Effects:
    """The effects a journal entry recorded."""
    return Effects.recorded(entry.postings, entry.changes)


def _debt_map(state: State) -> dict[str, list[dict[str, Any]]]:
    """The table log's ``debt`` check (docs/table-log.md, Checks): each player's outstanding debts, oldest first,
    ``{player: [{"to": name|"bank", "amount": n}]}`` (a debt to the Free Parking pot is one to the Bank)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for debt in state.debts:
        out.setdefault(debt.debtor, []).append(
            {"to": BANK if debt.creditor in (BANK, POT) else debt.creditor, "amount": debt.amount})
    return out
