"""The table: the tap-driven state machine and what it shows.

- ``machine``: :class:`Terminal`, which turns reader, button and screen inputs into operations of
  :class:`terminal.Game` and beeps; ``flows`` and ``view_builder`` are its multi-step dialogs and the
  description of each screen.
- ``view``: the view model (immutable records the screen draws).
- ``i18n``, ``messages``: the texts of every message code in French, English and Ukrainian.

Depends on :mod:`terminal.bank`, :mod:`cards` and :mod:`hal.interfaces` only.
"""
