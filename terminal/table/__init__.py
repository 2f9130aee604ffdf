"""The table: the tap machine and what it shows.

- ``machine``: :class:`~terminal.table.machine.Terminal`, which turns reader, button and screen inputs into
  operations of :class:`terminal.Game` and beeps: the routing, the versions of the screens, the timeouts and the
  commit.
- ``screens``: one class per screen (what it holds, the inputs it takes, its handlers, its view), and
  ``screens.base``: what a screen may ask of the machine (``Table``) and what differs between boards (``Board``).
- ``boards``, ``classic``, ``ultimate``: the board of each edition, and what the table does on each.
- ``view``: the view model (immutable records the screen draws); ``done``: the message after a commit;
  ``words``: texts built from parts; ``settings``: what a host hands the machine.
- ``i18n``, ``i18n_extract``: the texts of every message code in French, English and Ukrainian, and their
  extraction.

Depends on :mod:`terminal.bank`, :mod:`cards` and :mod:`hal.interfaces` only.
"""
