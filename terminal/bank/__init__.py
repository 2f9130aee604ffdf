"""The Bank: the money, the rules and the journal of one game (:class:`terminal.bank.game.Game`).

``operations`` (the typed operations of docs/table-log.md), ``types`` (shared records), ``money``, ``state``,
``tx`` (one operation's working copy), ``rules``, ``bankruptcy``, ``engine`` (applies an operation),
``auction``, ``ledger`` (the SQLite journal), ``audit``, ``game`` (the public API) and ``tablelog``.
"""
