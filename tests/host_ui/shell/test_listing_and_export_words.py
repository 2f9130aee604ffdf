"""The command line as a family meets it (issue 25's command-line points), through the real ``banquier`` command
in a clean environment (``env -i``: PATH, HOME, a time zone and a configuration file, nothing else):

- ``games list`` shows when each game's last entry was recorded (an entry still in the WAL counts), newest
  first, and a game whose journal was edited is listed as failing its audit, not as a game in play; it leaves
  every file byte for byte as it was;
- ``export -o`` says in one line what it wrote; the CSV's ``description`` says each entry and posting in the
  configured language, in the very words of the history screen;
- an unknown option gets the usage of the subcommand it was given to.
"""
from __future__ import annotations

import argparse
import csv
import io
import os
import shutil
import subprocess
import sys
import types
from datetime import UTC, datetime
from pathlib import Path

import pytest

from host_ui import cli
from host_ui.screen.render import Renderer
from terminal.bank.game import Game
from tests.conftest import KEY, OWN_LOGS
from tests.host_ui.shell.damage import edit_keeping_triggers, play
from tests.host_ui.shell.helpers import hashes
from tests.unclean import abandon

BANQUIER = Path(sys.executable).with_name("banquier")


@pytest.fixture
def world(tmp_path):
    """A data directory, its device key and a configuration file naming both (``language`` set per test)."""
    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    key_file = tmp_path / "device.key"
    key_file.write_bytes(KEY)
    key_file.chmod(0o600)
    config = tmp_path / "config.toml"

    def banquier(*argv: str, language: str = "fr") -> subprocess.CompletedProcess[str]:
        config.write_text(f'[game]\nlanguage = "{language}"\n[storage]\ndata_dir = "{data}"\nkey_file = '
                          f'"{key_file}"\n')
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(tmp_path / "home"), "TZ": "UTC"}
        return subprocess.run([str(BANQUIER), "--config", str(config), *argv], env=env, capture_output=True,
                              text=True, timeout=120, cwd=tmp_path)

    return types.SimpleNamespace(data=data, games=data / "games", banquier=banquier, tmp=tmp_path)


class _Clock:
    """The wall clock the games below are played on (``wall_clock``): :func:`_at` sets it."""

    now = datetime(2031, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


CLOCK = _Clock()


def _at(monkeypatch, when: str) -> None:
    """Entries recorded from now on carry the time ``when`` (UTC), as if the game were played then."""
    monkeypatch.setattr(CLOCK, "now", datetime.fromisoformat(when).replace(tzinfo=UTC))


def _game_with_entries_in_its_wal(path: Path, monkeypatch, first: str, then: str) -> None:
    """A game played at ``first`` (in its file), then at ``then`` (those entries only in its WAL, as a power
    cut or a running terminal leaves it)."""
    building = path.with_name("building-" + path.name)
    _at(monkeypatch, first)
    game = Game.create(building, "fr", ["Ann", "Bob"], key=KEY, wall_clock=CLOCK)
    play(game, 3)
    game.ledger.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    game.ledger.db.execute("PRAGMA wal_autocheckpoint = 0")
    _at(monkeypatch, then)
    play(game, 2)
    shutil.copyfile(building, path)
    shutil.copyfile(building.with_name(building.name + "-wal"), path.with_name(path.name + "-wal"))
    abandon(game)
    for leftover in building.parent.glob(building.name + "*"):
        leftover.unlink()


def _listed(out: str) -> dict[str, str]:
    return {line[2:].split()[0]: line for line in out.splitlines()}


def test_games_list_shows_the_last_entry_time_wal_included_newest_first(world, monkeypatch):
    _game_with_entries_in_its_wal(world.games / "saturday.db", monkeypatch, "2031-05-04T10:20:00",
                                  "2031-05-04T18:45:00")
    _at(monkeypatch, "2031-05-03T09:05:00")
    with Game.create(world.games / "friday.db", "fr", ["Cleo", "Dan"], key=KEY, wall_clock=CLOCK) as game:
        play(game, 2)
    # the files' own times say otherwise: saturday's file is the older, its entries in the WAL the newer
    os.utime(world.games / "saturday.db", (978_307_200, 978_307_200))  # 2001
    os.utime(world.games / "friday.db", (1_104_537_600, 1_104_537_600))  # 2005
    before = hashes(world.games)
    done = world.banquier("games", "list")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line[2:].split()[0] for line in lines] == ["saturday", "friday"], done.stdout
    listed = _listed(done.stdout)
    assert "2031-05-04 18:45" in listed["saturday"] and "6 entries" in listed["saturday"]  # setup + 3 + 2
    assert "2031-05-03 09:05" in listed["friday"]
    assert "2001" not in done.stdout and "2005" not in done.stdout
    assert hashes(world.games) == before  # listing reads a private copy: nothing written


def test_games_list_says_which_game_fails_its_audit(world, key):
    for name in ("sound", "an_amount", "a_name"):
        with Game.create(world.games / f"{name}.db", "fr", ["Ann", "Bob"], key=key) as game:
            play(game, 6)
    # edits behind the keyed checkpoint of the last audit, the schema kept: only the whole chain shows them
    edit_keeping_triggers(world.games / "an_amount.db", "UPDATE postings SET amount = 20 WHERE seq = 2")
    edit_keeping_triggers(world.games / "a_name.db", "UPDATE journal SET op = replace(op, 'Ann', 'Bob') "
                                                       "WHERE seq = 6")
    before = hashes(world.games)
    done = world.banquier("games", "list")
    assert done.returncode == 0, done.stderr
    listed = _listed(done.stdout)
    assert " in play " in listed["sound"]
    for name, seq in (("an_amount", 2), ("a_name", 6)):
        line = listed[name]
        assert "FAILS ITS AUDIT" in line and f"#{seq}" in line and f"banquier audit {name}" in line, line
        assert " in play " not in line
    assert hashes(world.games) == before
    for name in ("an_amount", "a_name"):  # the full audit agrees
        assert world.banquier("audit", name).returncode == 1


@pytest.fixture
def replayed(world):
    done = world.banquier("replay", str(OWN_LOGS / "fr-rent-streets.jsonl"), "--game", str(world.games / "g.db"))
    assert done.returncode == 0, done.stderr
    return world.games / "g.db"


@pytest.mark.parametrize(("fmt", "noun"), [("csv", "entries"),  # the other two: subprocesses of 0.7 s, same code
                                           pytest.param("json", "entries", marks=pytest.mark.slow),
                                           pytest.param("table-log", "operations", marks=pytest.mark.slow)])
def test_export_to_a_file_says_what_it_wrote_in_one_line(world, replayed, fmt, noun):
    out = world.tmp / f"out.{fmt}"
    done = world.banquier("export", "g", "--format", fmt, "-o", str(out))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.count("\n") == 1 and done.stdout.startswith(f"wrote g.db as {fmt} (")
    assert f" {noun}) to {out}" in done.stdout and out.stat().st_size > 0
    assert world.banquier("export", "g", "--format", fmt).stdout == out.read_text(encoding="utf-8")  # the same


@pytest.mark.parametrize(("language", "rent", "bank"), [("fr", "Loyer de", "Banque"), ("en", "Rent on", "Bank"),
                                                         ("uk", None, None)])
def test_the_csv_says_each_operation_in_the_configured_language(world, replayed, language, rent, bank):
    done = world.banquier("export", "g", "--format", "csv", language=language)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert list(rows[0]) == ["seq", "kind", "operation", "undone", "payer", "payee", "amount", "description"]
    assert all(row["description"] for row in rows)
    paid = [row for row in rows if '"pay_rent"' in row["operation"]]
    assert paid
    for row in paid:  # "Ann · Loyer de Rue Lecourbe — Ann → Bob 4 €"
        assert row["description"].startswith(f"{row['payer']} · ")
        assert f" — {row['payer']} → {row['payee']} " in row["description"]
        if rent is not None:
            assert rent in row["description"]
    if bank is not None:
        assert any(f"{bank} → " in row["description"] for row in rows if row["kind"] == "setup")


def _history_rows(frame) -> dict[int, tuple[str, list[str]]]:
    """``{seq: (what, moves)}`` of the rows the history screen drew (not cut to fit)."""
    rows: dict[int, tuple[str, list[str]]] = {}
    seq = None
    for text in frame.texts:
        if text.role == "history_seq":
            seq = int(text.text.lstrip("#"))
        elif text.role == "history_what" and seq is not None and not text.cut:
            rows[seq] = (text.text, [])
        elif text.role == "history_moves" and seq in rows and not text.cut:
            rows[seq][1].extend(part for part in text.text.split("; ") if part and part != "…")
    return rows


@pytest.mark.parametrize("language", ["fr", "en", "uk"])
def test_the_csv_words_are_the_history_screens(pg, scenes_by_language, language, monkeypatch, capsys, tmp_path):
    scene = next(s for s in scenes_by_language[language] if s.name == "history")
    game = scene.game
    renderer = Renderer((1280, 720), game=game)
    shown: dict[int, tuple[str, list[str]]] = {}
    for _ in range(40):  # every page, from the last to the first
        shown.update(_history_rows(renderer.render(scene.view, "")))
        renderer.ui_event(("page", -1))
    assert len(shown) >= 10
    copy = tmp_path / "history.db"
    shutil.copyfile(game.path, copy)
    for suffix in ("-wal",):
        if game.path.with_name(game.path.name + suffix).exists():
            shutil.copyfile(game.path.with_name(game.path.name + suffix), copy.with_name(copy.name + suffix))
    key_file = tmp_path / "scenes.key"
    key_file.write_bytes(KEY)
    key_file.chmod(0o600)
    monkeypatch.setenv("BANQUIER_KEY_FILE", str(key_file))
    monkeypatch.setenv("BANQUIER_LANGUAGE", language)
    assert cli.main(["export", str(copy), "--format", "csv"]) == 0
    by_seq: dict[int, list[str]] = {}
    for row in csv.DictReader(io.StringIO(capsys.readouterr().out)):
        by_seq.setdefault(int(row["seq"]), []).append(row["description"])
    for seq, (what, moves) in shown.items():
        described = by_seq[seq]
        assert all(d == what or d.startswith(f"{what} — ") for d in described), (seq, what, described)
        if len(moves) == len(described):  # each posting between its own two accounts: the same words
            assert sorted(d.split(" — ", 1)[1] for d in described) == sorted(moves), (seq, moves, described)


# -------------------------------------------------------------------------- usage of each subcommand
#: What each subcommand needs before an unknown option is the only thing wrong.
NEEDS = {"replay": ["x.jsonl"], "export": ["g"], "audit": ["g"], "games": ["list"], "cards": ["list"],
         "key": ["new"], "pin": ["set"], "phone": ["status"]}


def _subcommands() -> list[str]:
    action = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(action.choices)


def test_the_table_names_every_subcommand():
    assert set(_subcommands()) >= set(NEEDS) and len(_subcommands()) == 12


@pytest.mark.parametrize("command", [pytest.param(c, marks=[] if c == "games" else [pytest.mark.slow])
                                     for c in _subcommands()])  # one subprocess each: games in the quick run
def test_an_unknown_option_gets_the_subcommands_usage(world, command):
    done = world.banquier(command, *NEEDS.get(command, []), "--bogus")
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"usage: banquier {command} "), done.stderr
    assert done.stderr.splitlines()[-1] == f"banquier {command}: error: unrecognized arguments: --bogus"


def test_an_unknown_option_before_the_subcommand_gets_the_top_level_usage(world):
    done = world.banquier("--bogus", "games", "list")
    assert done.returncode == 2
    assert done.stderr.startswith("usage: banquier [-h]")
    assert done.stderr.splitlines()[-1] == "banquier: error: unrecognized arguments: --bogus"
