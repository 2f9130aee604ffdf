"""The environment the tests run the ``banquier`` command in (issue 21, point 7): a clean one, as ``env -i`` leaves
it plus the least a login shell gives, so that no test passes only because of this machine's environment.

The development machine sets ``PYTHONUNBUFFERED`` (and ``PYTHONDONTWRITEBYTECODE``); the systemd unit sets the
first; a user's shell sets neither. A command that behaves differently without them (a full disk behind a buffered
standard output gave "Exception ignored" and exit 120) showed only in a plain shell. So every subprocess of the
command gets :func:`clean_env`: ``PATH``, a ``HOME`` of the test's own (nothing of this machine's ``~/.config`` is
read), and the test's isolation (the key file and data folder of ``tests/conftest.py``, and ``TMPDIR``, which only
says where temporary files go), then what the test adds. A test of what the unit's environment changes passes it
explicitly (``clean_env({"PYTHONUNBUFFERED": "1"})``).
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

#: What is kept from the test process's environment: the shell's PATH and the test's own isolation.
KEPT = ("PATH", "BANQUIER_KEY_FILE", "BANQUIER_DATA_DIR", "TMPDIR")


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """``env -i PATH=... HOME=<the test's own>`` plus the test's key file, data folder and TMPDIR, then ``extra``
    (a value of None in ``extra`` removes that variable)."""
    env = {name: os.environ[name] for name in KEPT if name in os.environ}
    data = os.environ.get("BANQUIER_DATA_DIR")
    home = Path(data).parent / "home" if data else Path(tempfile.mkdtemp(prefix="banquier-home-"))
    home.mkdir(parents=True, exist_ok=True)
    env["HOME"] = str(home)
    for name, value in (extra or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env
