"""Every table log and recorded game gives the same game file as the Bank of issue 21 wrote: with a fixed wall
clock and key, every column of every table byte for byte (issue 23, "what must hold": the Bank's door, its
split and its boards change no journal).

The digests in ``tests/fixtures/journals.json`` were written by the Bank as it was before issue 23 (main at
0bf2096, its wall clock patched to :data:`MOMENT`), through the two ways a game is written: the API replay of a
table log (:func:`terminal.bank.tablelog.replay`) and the state machine driven by a person's taps
(``tests/terminal/test_machine_replay.drive``). Each table is digested on its own, so a difference names the
table. To write them again (only for a change that is meant to change the journal, said in its commit):
``python -m tests.terminal.test_same_journal --write``.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.conftest import KEY, OWN_LOGS, RECORDED

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "journals.json"
LOGS = sorted(OWN_LOGS.glob("*.jsonl")) + sorted(RECORDED.glob("*.jsonl"))
#: The fixed wall clock: every entry recorded at this second, every game created at it.
MOMENT = datetime(2024, 3, 9, 14, 30, 5, tzinfo=UTC)


def wall_clock() -> datetime:
    return MOMENT


@contextmanager
def fixed_time_zone() -> Iterator[None]:
    """The header's ``created_at`` is written in the local time zone: UTC here, whatever the machine's."""
    old = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = old
        time.tzset()


def digest(path: Path) -> dict[str, str]:
    """``{table: sha256}`` over the rows of every table of the game file at ``path`` (in key order, each value
    with its SQLite type: an int, a text, a real, a blob or NULL), and ``sqlite_master`` for the schema."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        out = {}
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        for table in ["sqlite_master", *tables]:
            h = hashlib.sha256()
            order = "type, name" if table == "sqlite_master" else "rowid" if _has_rowid(conn, table) else "1"
            for row in conn.execute(f'SELECT * FROM "{table}" ORDER BY {order}'):
                h.update(repr(tuple((type(v).__name__, v) for v in row)).encode("utf-8"))
                h.update(b"\n")
            out[table] = h.hexdigest()
        return out
    finally:
        conn.close()


def _has_rowid(conn: sqlite3.Connection, table: str) -> bool:
    try:
        conn.execute(f'SELECT rowid FROM "{table}" LIMIT 1')
    except sqlite3.OperationalError:
        return False
    return True


def api_replay(log: Path, folder: Path) -> Path:
    """The log replayed through the API (as ``banquier replay`` does), the game closed: its file."""
    from terminal.bank.tablelog import replay
    path = folder / "api.db"
    with _wall_clock():
        replay(log, path, key=KEY, wall_clock=wall_clock)
    return path


def machine_replay(log: Path, folder: Path) -> Path:
    """The log played through the state machine by a person's taps, the game closed: its file."""
    from tests.terminal.test_machine_replay import drive
    with _wall_clock():
        game = drive(log, folder, KEY, wall_clock=wall_clock)
        game.close()
    return folder / "machine.db"


# -- the fixed clock ---------------------------------------------------------------------------------------------
# Before issue 23 the Bank read the wall clock itself (the ledger's time.time(), Game.create's datetime.now()): the
# digests were written with both patched to MOMENT. Since, the clock is injected (wall_clock) and gives the same.

@contextmanager
def _wall_clock() -> Iterator[None]:
    with fixed_time_zone():
        yield


WAYS: dict[str, Callable[[Path, Path], Path]] = {"api": api_replay, "machine": machine_replay}


def _cases() -> list[object]:
    out = []
    for log in LOGS:
        for way in WAYS:
            slow = [pytest.mark.slow] if way == "machine" or log.name.startswith("long-") else []
            out.append(pytest.param(log, way, id=f"{way}-{log.name}", marks=slow))
    return out


@pytest.mark.parametrize(("log", "way"), _cases())
def test_the_same_game_file_as_before_issue_23(log, way, tmp_path):
    expected = json.loads(FIXTURE.read_text(encoding="utf-8"))[f"{way}/{log.name}"]
    got = digest(WAYS[way](log, tmp_path))
    differ = sorted(t for t in set(got) | set(expected) if got.get(t) != expected.get(t))
    assert got == expected, f"{way} replay of {log.name}: the tables that differ: {differ}"


def test_every_log_has_its_digests():
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert set(recorded) == {f"{way}/{log.name}" for log in LOGS for way in WAYS}


def write() -> None:
    out = {}
    for log in LOGS:
        for way, run in WAYS.items():
            folder = Path(tempfile.mkdtemp(prefix="journals-"))
            try:
                out[f"{way}/{log.name}"] = digest(run(log, folder))
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            print(way, log.name, file=sys.stderr)
    FIXTURE.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.terminal.test_same_journal --write")
    write()


@pytest.mark.parametrize("fixture", sorted(FIXTURE.parent.glob("*.db")), ids=lambda p: p.name)
def test_old_game_files_open_and_pass_their_audit(fixture, tmp_path):
    """Game files written by older Banquiers (tests/fixtures/*.db) open for play through the start-up's sequence
    and pass the full audit, their journal left as it was."""
    from terminal.bank.game import Game
    path = tmp_path / fixture.name
    shutil.copyfile(fixture, path)
    before = digest(path)
    with Game.open(path, key=KEY, check="full", background=False) as game:
        assert game.audit().ok, game.audit().summary()
        state = game.state()
    after = digest(path)
    assert {t: after[t] for t in ("journal", "postings", "meta")} == {t: before[t] for t in ("journal", "postings",
                                                                                            "meta")}
    with Game.open(path, key=KEY) as again:
        assert again.state() == state
