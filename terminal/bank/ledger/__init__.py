"""The journal of one game on a crash-safe SQLite file, in the seams it is made of:

- :mod:`~terminal.bank.ledger.schema`: the tables, indexes and triggers, the pragmas of every connection (and
  what sqlite-utils is used for).
- :mod:`~terminal.bank.ledger.records`: the one JSON spelling stored and hashed, an entry's signed posting rows,
  an entry as read back.
- :mod:`~terminal.bank.ledger.keys`: the keyed hashes (HMAC-SHA256 under the device key).
- :mod:`~terminal.bank.ledger.journal`: :class:`~terminal.bank.ledger.journal.Ledger`, the connection that
  writes entries (the writer), reads them, and hands a checked view over to the connection that plays.
- :mod:`~terminal.bank.ledger.chain`: the keyed hash chain and its checkpoint.
- :mod:`~terminal.bank.ledger.projection`: the projection's text (the state after the last entry).
- :mod:`~terminal.bank.ledger.mirror`: the second, append-only record of acknowledged entries.
- :mod:`~terminal.bank.ledger.batch`: the batches a replay commits in.
- :mod:`~terminal.bank.ledger.locks`: the play lock.
- :mod:`~terminal.bank.ledger.files`: private views and copies that read a game without writing beside it, the
  files as start-up found them, new private files.

Nothing is imported here: import what you use from its module.
"""
