"""Running the real ``banquier`` command in a subprocess, and hashing every file of a folder."""
from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

from tests.cli_env import clean_env

ROOT = Path(__file__).resolve().parents[3]


def banquier(*argv: str, env: dict[str, str] | None = None, timeout: float = 60,
             stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``banquier ARGV...`` as a user runs it (``python -m host_ui``) from a plain shell: in a clean environment
    (:func:`tests.cli_env.clean_env`: the test's key file and data directory, nothing of this machine's), with
    ``env`` added."""
    return subprocess.run([sys.executable, "-m", "host_ui", *argv], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=clean_env(env), input=stdin)


def hashes(*folders: Path) -> dict[str, str]:
    """``{path: sha256}`` of every file under ``folders`` (a file that appears or vanishes shows too)."""
    out = {}
    for folder in folders:
        if folder.is_file():
            out[str(folder)] = hashlib.sha256(folder.read_bytes()).hexdigest()
            continue
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                out[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def one_line_error(result: subprocess.CompletedProcess[str]) -> bool:
    """A refusal as the CLI promises it: one line on stderr, no traceback."""
    return "Traceback" not in result.stderr and result.stderr.count("\n") == 1
