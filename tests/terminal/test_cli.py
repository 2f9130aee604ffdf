"""The ``banquier`` command: exit codes, one-line errors, every subcommand (RECORDED games as input)."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest

from terminal.cli import main
from tests.conftest import RECORDED

SMALL = RECORDED / "game-us-random-3p-100.jsonl"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_prints_counts_and_exits_0(capsys, tmp_path):
    code, out, err = run(capsys, "replay", str(SMALL), "--game", str(tmp_path / "g.db"))
    assert code == 0 and "184 operations (2 refused as the log says) and 19 checks" in out


def test_replay_mismatch_exits_1_with_line_field_expected_actual(capsys, tmp_path):
    lines = SMALL.read_text().splitlines()
    check = next(i for i, line in enumerate(lines) if '"expect"' in line)
    data = json.loads(lines[check])
    player = next(iter(data["expect"]["cash"]))
    data["expect"]["cash"][player] += 1
    lines[check] = json.dumps(data)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "replay", str(bad), "--game", str(tmp_path / "g.db"))
    assert code == 1
    assert f"line {check + 1}: cash.{player}: expected" in err and "actual" in err


def test_malformed_log_exits_2_naming_the_line(capsys, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(SMALL.read_text().splitlines()[0] + "\n" + '{"op": "fly"}\n')
    code, out, err = run(capsys, "replay", str(bad), "--game", str(tmp_path / "g.db"))
    assert code == 2 and ":2: malformed line" in err and "Traceback" not in err


def test_missing_log_exits_3(capsys, tmp_path):
    code, out, err = run(capsys, "replay", str(tmp_path / "nope.jsonl"))
    assert code == 3 and err.count("\n") == 1


def test_export_formats_and_round_trip(capsys, tmp_path):
    run(capsys, "replay", str(SMALL), "--game", str(tmp_path / "g.db"))
    code, out, _ = run(capsys, "export", str(tmp_path / "g.db"), "-o", str(tmp_path / "out.jsonl"))
    assert code == 0
    code, out, _ = run(capsys, "replay", str(tmp_path / "out.jsonl"), "--game", str(tmp_path / "again.db"))
    assert code == 0
    code, out, _ = run(capsys, "export", str(tmp_path / "g.db"), "--format", "csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["seq", "kind", "operation", "undone", "payer", "payee", "amount"]
    assert sum(1 for r in rows[1:] if r[1] == "setup") == 3  # the starting cash of 3 players
    code, out, _ = run(capsys, "export", str(tmp_path / "g.db"), "--format", "json")
    data = json.loads(out)
    assert data["meta"]["players"] == ["Alice", "Bob", "Charlie"] and data["state"]["game_over"] is False


def test_audit_passes_then_names_the_edited_entry(capsys, tmp_path, monkeypatch):
    run(capsys, "replay", str(SMALL), "--game", str(tmp_path / "g.db"))
    code, out, _ = run(capsys, "audit", str(tmp_path / "g.db"))
    assert code == 0 and "Audit passed" in out
    import sqlite3
    conn = sqlite3.connect(tmp_path / "g.db")
    conn.execute("DROP TRIGGER postings_append_only_update")
    conn.execute("UPDATE postings SET amount = amount + 100 WHERE seq = 40 AND amount > 0")
    conn.execute("UPDATE postings SET amount = amount - 100 WHERE seq = 40 AND amount < 0")
    conn.commit()
    conn.close()
    code, out, _ = run(capsys, "audit", str(tmp_path / "g.db"))
    assert code == 1 and "#40" in out


def test_a_damaged_file_is_refused_and_left_alone(capsys, tmp_path):
    path = tmp_path / "g.db"
    path.write_bytes(b"this is not a database" * 100)
    before = path.read_bytes()
    code, out, err = run(capsys, "audit", str(path))
    assert code == 3 and "not a readable game file" in err
    assert path.read_bytes() == before


def test_games_list_resume_archive(capsys, tmp_path, monkeypatch):
    data = tmp_path / "data"
    monkeypatch.setenv("BANQUIER_DATA_DIR", str(data))
    (data / "games").mkdir(parents=True)
    run(capsys, "replay", str(SMALL), "--game", str(data / "games" / "sunday.db"))
    code, out, _ = run(capsys, "games", "list")
    assert code == 0 and "sunday" in out and "Alice, Bob, Charlie" in out and out.startswith("*")
    code, out, _ = run(capsys, "games", "resume", "sunday")
    assert code == 0 and (data / "current").read_text().strip() == "sunday.db"
    code, out, err = run(capsys, "games", "resume", "monday")
    assert code == 2 and "no game 'monday'" in err
    code, out, _ = run(capsys, "games", "archive", "sunday")
    assert code == 0 and (data / "archive" / "sunday.db").is_file()
    code, out, _ = run(capsys, "games", "list")
    assert "No game" in out


def test_cards_enrol_list_export_import(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("BANQUIER_DATA_DIR", str(tmp_path / "data"))
    assert run(capsys, "cards", "enrol", "--role", "player 1", "--uid", "04a1b2c3")[0] == 0
    assert run(capsys, "cards", "enrol", "--role", "banker", "--uid", "04:11:22:33:44:55:66")[0] == 0
    code, out, err = run(capsys, "cards", "enrol", "--role", "player 2", "--uid", "04A1B2C3")
    assert code == 2 and "already player 1's bank card" in err
    code, out, _ = run(capsys, "cards", "list")
    assert "04A1B2C3" in out and "04112233445566" in out
    run(capsys, "cards", "export", str(tmp_path / "set.txt"))
    monkeypatch.setenv("BANQUIER_DATA_DIR", str(tmp_path / "other"))
    code, out, _ = run(capsys, "cards", "import", str(tmp_path / "set.txt"))
    assert code == 0 and "imported 2 cards" in out


@pytest.mark.parametrize("argv", [[], ["replay"], ["export"], ["audit"], ["games"], ["cards"], ["demo"]])
def test_help_everywhere(argv):
    result = subprocess.run([sys.executable, "-m", "terminal", *argv, "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "usage: banquier" in result.stdout


def test_demo_replays_and_prints_standings(capsys):
    code, out, _ = run(capsys, "demo")
    assert code == 0 and "Standings:" in out and "1. " in out
