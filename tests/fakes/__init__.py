"""Fakes of the vendor libraries at hal's boundary, so the real backend code runs on any PC.

* ``fake_gpio``: an ``RPi.GPIO`` that enforces the real library's rules and records pin history.
* ``fake_mfrc522`` + ``fake_spidev``: a ``spidev`` whose device is an emulated MFRC522 chip with
  ISO 14443A cards in its field; the unmodified ``mfrc522`` package runs against it.
* ``fake_serial``: a ``serial`` (pyserial) module whose ports deliver chunks, noise, repeats,
  disconnects and permission errors.
* ``clock``: a manual monotonic clock.
* ``install``: put the fakes into ``sys.modules`` (a context manager, for scripts and subprocesses).
* ``plugin``: pytest fixtures over all of these; register it with ``pytest_plugins``.
"""
