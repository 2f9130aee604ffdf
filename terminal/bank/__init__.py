"""The Bank: money, rules and the journal of a game.

- ``operations``: one typed record per operation of docs/table-log.md, parsed once where input enters.
- ``money``: amounts (ints of the edition's unit), parsing, formatting, the rounding rules.
- ``state``: the state of a game as a plain record; ``types``: the records the modules share
  (``GameConfig``, ``Effects``, ``Receipt``, postings, debts, changes); ``tx``: the transaction one
  operation is computed on.
- ``rules``, ``bankruptcy``: the money rules (RULES.md); ``engine``: one operation -> its effects;
  ``auction``: auctions held in memory until they close.
- ``ultimate``: the Ultimate Banking board's rules (rent levels, Location squares, Event cards, sales back to the
  Bank, its bankruptcy and end), for editions with ``board = "ultimate"``.
- ``ledger``: the journal on SQLite (WAL, ``synchronous=FULL``, keyed hash chain); ``audit``: its full check.
- ``game``: :class:`Game`, the public API the table machine and the host use; ``tablelog``: table logs.

Imports nothing of :mod:`terminal.table`, no pygame and no hardware library; reads time only from an
injected clock.
"""
