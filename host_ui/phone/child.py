"""The phone page as a child process of the simulator: ``banquier phone serve --host 127.0.0.1 --port P
--language L`` on the simulator's data folder, with a runtime folder of its own, so that a PC user can switch it
on in the banker menu and open its link in a browser.

The simulator never depends on it: a child that cannot start, or dies, is said once on stderr and the game goes
on (the phones' screen then says the page is not running); when the simulator ends, the child is asked to stop
(SIGTERM), killed if it has not stopped within :data:`STOP_S`, and reaped.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO

#: Seconds a child is given to stop after SIGTERM before it is killed.
STOP_S = 3.0
#: The host the simulator's page listens on: this PC only.
LOCALHOST = "127.0.0.1"


def serve_command(port: int, language: str, host: str = LOCALHOST) -> list[str]:
    """The command line of the page (this Python's ``banquier``: ``python -m host_ui``)."""
    return [sys.executable, "-m", "host_ui", "phone", "serve", "--host", host, "--port", str(port),
            "--language", language]


class PageChild:
    """The page's process, started by :meth:`start` and ended by :meth:`stop` (both never raise).

    - ``data``: the data folder the page reads (``BANQUIER_DATA_DIR`` of the child);
    - ``port``, ``language``: its ``--port`` and ``--language``;
    - ``command``: the command line (default :func:`serve_command`; tests give a stand-in);
    - ``env``: the child's environment (default this process's), to which its data folder and runtime folder
      (``BANQUIER_PHONE_RUNTIME``, a new temporary folder: :attr:`runtime`, removed by :meth:`stop`) are added.

    What the child writes on stderr goes to ``page.log`` in its runtime folder; its last line is what
    :meth:`check` says when the child has ended."""

    def __init__(self, data: Path, port: int, language: str, *, command: Sequence[str] | None = None,
                 env: Mapping[str, str] | None = None) -> None:
        self.data, self.port, self.language = Path(data), port, language
        self.command = list(command) if command is not None else serve_command(port, language)
        self.env = dict(os.environ if env is None else env)
        self.runtime = Path(tempfile.mkdtemp(prefix="banquier-sim-phone-"))
        self.process: subprocess.Popen[bytes] | None = None
        self.ended: str | None = None  # what check() said when the child ended
        self._log: IO[bytes] | None = None

    @property
    def log_file(self) -> Path:
        return self.runtime / "page.log"

    def start(self) -> bool:
        """Start the child; False (said on stderr) when it cannot be started."""
        env = {**self.env, "BANQUIER_DATA_DIR": str(self.data), "BANQUIER_PHONE_RUNTIME": str(self.runtime)}
        try:
            self._log = self.log_file.open("wb")
            self.process = subprocess.Popen(self.command, env=env, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL, stderr=self._log, start_new_session=True)
        except OSError as exc:
            self.ended = f"the phone page cannot start ({exc.strerror or exc}): the game goes on without it"
            print(f"banquier sim: {self.ended}", file=sys.stderr, flush=True)
            return False
        print(f"banquier sim: the phone page on {LOCALHOST}:{self.port} (process {self.process.pid}): switch it on "
              f"in the banker menu (Phones), then open the link it shows", flush=True)
        return True

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def check(self) -> str | None:
        """None while the child runs (or was never started); once it has ended, one line saying so (printed on
        stderr the first time)."""
        if self.process is None or self.ended is not None:
            return self.ended
        code = self.process.poll()
        if code is None:
            return None
        self.ended = f"the phone page stopped (exit {code}{self._last_line()}): the game goes on without it"
        print(f"banquier sim: {self.ended}", file=sys.stderr, flush=True)
        return self.ended

    def _last_line(self) -> str:
        try:
            lines = [line for line in self.log_file.read_text(encoding="utf-8", errors="replace").splitlines()
                     if line.strip()]
        except OSError:
            return ""
        return f": {lines[-1].strip()[:200]}" if lines else ""

    def stop(self) -> int | None:
        """Stop the child (SIGTERM, then SIGKILL after :data:`STOP_S`), reap it and remove its runtime folder;
        returns its exit code (None: it never started)."""
        code = None
        process = self.process
        if process is not None:
            if process.poll() is None:
                try:
                    process.terminate()
                    code = process.wait(STOP_S)
                except subprocess.TimeoutExpired:
                    process.kill()
                    code = process.wait()
                except OSError:
                    code = process.wait()
            else:
                code = process.returncode
        if self._log is not None:
            self._log.close()
        shutil.rmtree(self.runtime, ignore_errors=True)
        return code
