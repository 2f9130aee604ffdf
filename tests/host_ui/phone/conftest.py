"""The phone page's fixtures: a data folder with a game in play and the page switched on, and the page's server
(``banquier phone serve``) run as users run it, in a subprocess under a clean environment."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli_env import clean_env

PLAYERS = ("Anne", "Bruno", "Chloé")


@dataclass
class Table:
    """A data folder with a game (``game``: its path), the key file, the page's token."""

    data: Path
    key_file: Path
    game: Path
    token: str

    def open(self):
        from host_ui.shell.games import open_game
        return open_game(self.game, key_path=self.key_file, background=False)


def make_table(data: Path | None = None, *, jackpot: bool = True, key_file: Path | None = None) -> Table:
    from host_ui.phone import access
    from host_ui.shell.games import key_for_new_game
    from host_ui.shell.manage import set_current
    from terminal.bank.game import Game
    data = data or Path(os.environ["BANQUIER_DATA_DIR"])
    key_file = key_file or Path(os.environ["BANQUIER_KEY_FILE"])
    (data / "games").mkdir(parents=True, exist_ok=True)
    key = key_for_new_game(key_file, data=data)
    path = data / "games" / "sunday.db"
    game = Game.create(path, "fr", PLAYERS, key=key, rules={"free_parking_jackpot": jackpot})
    try:
        game.buy("Anne", 1)
        game.buy("Bruno", 3)
        game.pay_rent("Bruno", 1)
    finally:
        game.close()
    set_current(data, path)
    tok = access.token(data)
    access.set_on(data, True)
    return Table(data, key_file, path, tok)


@pytest.fixture
def table() -> Table:
    return make_table()


@pytest.fixture(scope="module")
def shared_table(tmp_path_factory) -> Table:
    """One table for a module's tests that change nothing of it (the routes, the methods, the paths)."""
    base = tmp_path_factory.mktemp("phone-table")
    return make_table(base / "data", key_file=base / "device.key")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    table: Table
    port: int
    process: subprocess.Popen[str]
    runtime: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/t/{self.table.token}/"


def wait_listening(port: int, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on port {port} after {seconds} s")


def start_server(table: Table, runtime: Path, *extra: str, language: str = "fr", port: int | None = None) -> Served:
    port = port or free_port()
    env = clean_env({"BANQUIER_PHONE_RUNTIME": str(runtime)})
    process = subprocess.Popen([sys.executable, "-m", "host_ui", "phone", "serve", "--host", "127.0.0.1",
                                "--port", str(port), "--language", language, *extra],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_listening(port)
    except AssertionError:
        process.kill()
        raise AssertionError(process.communicate()[0]) from None
    return Served(table, port, process, runtime)


def stop_server(served: Served) -> str:
    served.process.terminate()
    try:
        out, _ = served.process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        served.process.kill()
        out, _ = served.process.communicate()
        raise AssertionError("the server did not stop within 10 s of SIGTERM") from None
    return out


@pytest.fixture
def served(table, tmp_path) -> Iterator[Served]:
    s = start_server(table, tmp_path / "runtime")
    yield s
    stop_server(s)
