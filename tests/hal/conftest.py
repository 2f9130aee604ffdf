"""Fixtures for the hal tests: the shared fakes of ``tests/fakes`` (see ``tests/fakes/plugin.py``)."""

import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from tests.fakes.plugin import *  # noqa: E402, F403 - the fixtures
