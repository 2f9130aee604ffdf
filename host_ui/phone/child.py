"""The phone page as a child process of the simulator: ``banquier phone serve --host 127.0.0.1 --port P
--language L`` on the simulator's data folder, publishing its links where ``banquier phone status`` and
``banquier doctor`` look (:func:`host_ui.phone.access.runtime_folder`, this user's default), so that a PC user can
switch it on in the banker menu, open its link in a browser, and check it with the commands.

The simulator never depends on it: a child that cannot start, or dies, is said on stdout with its real cause (its
exit code, or the signal that killed it) and started again while the page is switched on, after 2 s, then 4, 8
... up to :data:`BACKOFF_MAX_S` (back to 2 s once a child has run :data:`HEALTHY_S`); the game goes on throughout
(the phones' screen says the page is not running meanwhile). When the simulator ends, the child is asked to stop
(SIGTERM), killed if it has not stopped within :data:`STOP_S`, and reaped.

What the child writes on stderr goes to :attr:`PageChild.log_file` (``sim-page.log`` in the runtime folder), kept
under :data:`LOG_MAX` bytes: when it grows past it, it becomes ``sim-page.log.1`` (the one before is dropped) and
a new one is begun.
"""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO

from host_ui.phone import access

#: Seconds a child is given to stop after SIGTERM before it is killed.
STOP_S = 3.0
#: The host the simulator's page listens on: this PC only.
LOCALHOST = "127.0.0.1"
#: The first wait before a child that died is started again (doubled at each death in a row).
BACKOFF_S = 2.0
#: The longest wait before a child that died is started again.
BACKOFF_MAX_S = 60.0
#: Seconds a child must have run for the next wait to be :data:`BACKOFF_S` again.
HEALTHY_S = 60.0
#: Bytes the child's log may reach before it is rotated (one old log is kept: at most about twice this).
LOG_MAX = 256 * 1024


def serve_command(port: int, language: str, host: str = LOCALHOST) -> list[str]:
    """The command line of the page (this Python's ``banquier``: ``python -m host_ui``)."""
    return [sys.executable, "-m", "host_ui", "phone", "serve", "--host", host, "--port", str(port),
            "--language", language]


def user_runtime_folder() -> Path:
    """Where ``banquier phone status`` and ``banquier doctor`` look for the page's links when this user runs them
    (:func:`host_ui.phone.access.runtime_folder` in the user's own environment). The simulator's process may
    have been given an ``XDG_RUNTIME_DIR`` of its own by ``banquier`` (``$TMPDIR/banquier-runtime-UID``, when the
    shell had none: :func:`host_ui.cli.private_runtime_dir`), which the other commands do not get: that one is
    not the user's and is left out."""
    import tempfile
    given = os.environ.get("XDG_RUNTIME_DIR")
    private = Path(tempfile.gettempdir()) / f"banquier-runtime-{os.getuid()}"
    if os.environ.get("BANQUIER_PHONE_RUNTIME") or not given or Path(given) != private:
        return access.runtime_folder()
    saved = os.environ.pop("XDG_RUNTIME_DIR")
    try:
        return access.runtime_folder()
    finally:
        os.environ["XDG_RUNTIME_DIR"] = saved


def exit_cause(code: int) -> str:
    """A child's end as :attr:`subprocess.Popen.returncode` gives it, in words: ``exit 1``, ``killed by signal 9
    (SIGKILL)``."""
    if code >= 0:
        return f"exit {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        return f"killed by signal {-code}"
    return f"killed by signal {-code} ({name})"


class PageChild:
    """The page's process, started by :meth:`start`, watched (and started again) by :meth:`check`, ended by
    :meth:`stop` (none of them raises).

    - ``data``: the data folder the page reads (``BANQUIER_DATA_DIR`` of the child);
    - ``port``, ``language``: its ``--port`` and ``--language``;
    - ``command``: the command line (default :func:`serve_command`; tests give a stand-in);
    - ``env``: the child's environment (default this process's), to which its data folder and its runtime folder
      (``BANQUIER_PHONE_RUNTIME``) are added;
    - ``runtime``: where the child publishes its links (default :func:`user_runtime_folder`: where
      ``banquier phone status`` and ``banquier doctor`` read them; tests give their own);
    - ``monotonic``: the clock of the restarts' waits (seconds)."""

    def __init__(self, data: Path, port: int, language: str, *, command: Sequence[str] | None = None,
                 env: Mapping[str, str] | None = None, runtime: Path | None = None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.data, self.port, self.language = Path(data), port, language
        self.command = list(command) if command is not None else serve_command(port, language)
        self.env = dict(os.environ if env is None else env)
        self.runtime = Path(runtime) if runtime is not None else user_runtime_folder()
        self.monotonic = monotonic
        self.process: subprocess.Popen[bytes] | None = None
        self.ended: str | None = None  # what check() said when the last child ended (None while one runs)
        self.starts = 0  # children started so far
        self.backoff = BACKOFF_S  # the wait before the next start, once a child has died
        self._due: float | None = None  # when the next child may start (after a death)
        self._started_at = 0.0
        self._pump: threading.Thread | None = None

    @property
    def log_file(self) -> Path:
        return self.runtime / "sim-page.log"

    def start(self) -> bool:
        """Start a child; False (said on stdout) when it cannot be started (then tried again by :meth:`check`)."""
        env = {**self.env, "BANQUIER_DATA_DIR": str(self.data), "BANQUIER_PHONE_RUNTIME": str(self.runtime)}
        first = self.starts == 0
        self.starts += 1
        try:
            self.runtime.mkdir(mode=0o755, parents=True, exist_ok=True)
            self.process = subprocess.Popen(self.command, env=env, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                            start_new_session=True)
        except OSError as exc:
            self.process = None
            self._died(f"the phone page cannot start ({exc.strerror or exc})")
            return False
        self.ended, self._due, self._started_at = None, None, self.monotonic()
        assert self.process.stderr is not None
        with contextlib.suppress(OSError):  # the log is there once start() returns, even before the child writes
            self.log_file.touch()
        self._pump = threading.Thread(target=_pump, args=(self.process.stderr, self.log_file), daemon=True,
                                      name="phone-page-log")
        self._pump.start()
        where = f"the phone page on {LOCALHOST}:{self.port} (process {self.process.pid}"
        if not first:
            print(f"banquier sim: {where}) started again; log: {self.log_file}", flush=True)
        elif access.is_on(self.data) and (tok := access.read_token(self.data)) is not None:
            print(f"banquier sim: {where}) is switched on: open {access.page_url(LOCALHOST, self.port, tok)} "
                  f"(log: {self.log_file})", flush=True)
        else:
            print(f"banquier sim: {where}) is switched off: switch it on in the banker menu (Phones) or with "
                  f"`banquier phone on`, then open the link it shows (log: {self.log_file})", flush=True)
        return True

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def _died(self, what: str) -> None:
        """Say once that the child ended (``what``: how) and when the next one starts."""
        wait = self.backoff
        self._due = self.monotonic() + wait
        self.backoff = min(self.backoff * 2, BACKOFF_MAX_S)
        self.ended = f"{what}: the game goes on; started again in {wait:g} s while the page is switched on"
        print(f"banquier sim: {self.ended}", flush=True)

    def check(self, switched_on: bool = True) -> str | None:
        """Watch the child (call it often: each turn of the screen's loop). None while it runs (or was never
        started); once it has ended, one line saying so with its cause (printed on stdout the first time), and a
        new child started when the wait is over and ``switched_on`` (the page is switched on)."""
        if self.starts == 0:
            return None
        if self.process is not None and self.ended is None:
            code = self.process.poll()
            if code is None:
                if self.monotonic() - self._started_at >= HEALTHY_S:
                    self.backoff = BACKOFF_S
                return None
            self._reap_log()
            self._died(f"the phone page stopped ({exit_cause(code)}; log: {self.log_file})")
        if switched_on and self._due is not None and self.monotonic() >= self._due:
            said = self.ended
            return said if not self.start() else None
        return self.ended

    def _reap_log(self) -> None:
        if self._pump is not None:
            self._pump.join(1.0)
            self._pump = None

    def stop(self) -> int | None:
        """Stop the child (SIGTERM, then SIGKILL after :data:`STOP_S`) and reap it; returns its exit code (None:
        none was started). No child is started after it."""
        code = None
        process = self.process
        self._due = None
        self.starts = max(self.starts, 1)
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
        self._reap_log()
        self.ended = self.ended or "stopped"
        return code


def _pump(stream: IO[bytes], log: Path) -> None:
    """Copy the child's stderr ``stream`` into ``log`` until it ends, rotating it past :data:`LOG_MAX` bytes
    (never raises: a log that cannot be written is dropped, the child goes on)."""
    out: IO[bytes] | None = None
    try:
        out = log.open("ab")
        for line in stream:
            out.write(line)
            out.flush()
            if out.tell() > LOG_MAX:
                out.close()
                os.replace(log, log.with_name(log.name + ".1"))
                out = log.open("wb")
    except (OSError, ValueError):
        for _line in stream:  # keep reading: a child whose pipe fills would block
            pass
    finally:
        if out is not None:
            out.close()
        stream.close()
