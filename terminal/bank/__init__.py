"""The Bank: money, rules and the journal of a game (terminal/bank/README.md draws the map and says where to add
an operation or a board).

- ``operations``: one typed record per operation of docs/table-log.md, checked when it is made; a table-log line
  is parsed into its record once, where it enters.
- ``money``: amounts (ints of the edition's unit), their checks, formatting and the rounding rules.
- ``state``: the state of a game as a plain record; ``types``: the records the modules share (``GameConfig``,
  ``Effects``, postings, debts, changes, ``Rent``, the wall clock's type); ``tx``: the transaction one operation
  is computed on.
- ``rules`` (the classic board's pure rule computations), ``bankruptcy``: the money rules (RULES.md);
  ``engine``: one operation -> its effects; ``auction``: auctions held in memory until they close.
- ``board``: what differs between boards, answered for the classic board; ``ultimate``: everything that differs on
  the electronic Ultimate Banking board (its ``UltimateBoard`` and its own operations); ``boards``: the choice of
  a board from the edition.
- ``ledger``: the journal on SQLite (WAL, ``synchronous=FULL``, keyed hash chain), in its seams; ``audit``: its
  full check; ``history``: the journal read a page, a chunk or a summary at a time.
- ``door``: what comes out of the door (``Preview``, ``Receipt``); ``game``: :class:`Game`, the public API the
  table machine and the host use (docs/bank-door.md); ``opening``: making and opening a game's file;
  ``play_clock``: the play time of a time-limited game; ``upkeep``: what the file needs beside play;
  ``players``: who may play; ``tablelog``: table logs.

Imports nothing of :mod:`terminal.table`, no pygame and no hardware library. The wall clock is read only through
the clock a game is given (``clock`` or ``wall_clock``, default :func:`terminal.bank.types.system_clock`): the time
each entry is recorded at, the header's ``created_at``, an older game's ``end_time``. Monotonic time only bounds
work and waits (the upkeep's budget, the background audit's start); play time runs on the monotonic clock the
terminal gives the play clock.
"""
