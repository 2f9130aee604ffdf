"""The ``banquier`` command: exit codes, one-line errors, every subcommand (RECORDED games as input)."""
from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import tty
from pathlib import Path

import pytest

from host_ui.cli import main
from terminal.bank.game import Game
from tests.cli_env import clean_env
from tests.conftest import RECORDED
from tests.host_ui.shell.helpers import banquier, one_line_error

SMALL = RECORDED / "game-us-random-3p-100.jsonl"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_prints_counts_and_exits_0(capsys, tmp_path):
    code, out, _err = run(capsys, "replay", str(SMALL), "--game", str(tmp_path / "g.db"))
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
    code, _out, err = run(capsys, "replay", str(bad), "--game", str(tmp_path / "g.db"))
    assert code == 1
    assert f"line {check + 1}: cash.{player}: expected" in err and "actual" in err


def test_malformed_log_exits_2_naming_the_line(capsys, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(SMALL.read_text().splitlines()[0] + "\n" + '{"op": "fly"}\n')
    code, _out, err = run(capsys, "replay", str(bad), "--game", str(tmp_path / "g.db"))
    assert code == 2 and ":2: malformed line" in err and "Traceback" not in err


def test_missing_log_exits_3(capsys, tmp_path):
    code, _out, err = run(capsys, "replay", str(tmp_path / "nope.jsonl"))
    assert code == 3 and err.count("\n") == 1


def test_export_formats_and_round_trip(capsys, tmp_path):
    run(capsys, "replay", str(SMALL), "--game", str(tmp_path / "g.db"))
    code, out, _ = run(capsys, "export", str(tmp_path / "g.db"), "-o", str(tmp_path / "out.jsonl"))
    assert code == 0
    code, out, _ = run(capsys, "replay", str(tmp_path / "out.jsonl"), "--game", str(tmp_path / "again.db"))
    assert code == 0
    code, out, _ = run(capsys, "export", str(tmp_path / "g.db"), "--format", "csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["seq", "kind", "operation", "undone", "payer", "payee", "amount", "description"]
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
    code, _out, err = run(capsys, "audit", str(path))
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
    code, out, err = run(capsys, "games", "archive", "sunday")
    assert code == 2 and "not finished" in err and (data / "games" / "sunday.db").is_file()
    code, out, _ = run(capsys, "games", "archive", "sunday", "--force")
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
    (tmp_path / "one.txt").write_text("\n".join(line for line in (tmp_path / "set.txt").read_text().splitlines()
                                                if "banker" not in line) + "\n")
    monkeypatch.setenv("BANQUIER_DATA_DIR", str(tmp_path / "third"))
    code, out, _ = run(capsys, "cards", "import", str(tmp_path / "one.txt"))
    assert code == 0 and "imported 1 card into" in out


@pytest.mark.parametrize("argv", [[], ["replay"], ["export"], ["audit"], ["games"], ["cards"], ["demo"]])
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_help_everywhere(argv):
    result = subprocess.run([sys.executable, "-m", "host_ui", *argv, "--help"], capture_output=True, text=True,
                            env=clean_env())
    assert result.returncode == 0 and "usage: banquier" in result.stdout


def test_demo_replays_and_prints_standings(capsys):
    code, out, _ = run(capsys, "demo")
    assert code == 0 and "Standings:" in out and "1. " in out


def _sha(path):
    import hashlib
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _tamper(path, sql):
    import sqlite3
    conn = sqlite3.connect(path)
    for trigger in ("postings_append_only_update", "journal_append_only_update", "postings_of_new_entries_only"):
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    conn.execute(sql)
    conn.commit()
    conn.close()


def test_export_never_overwrites_a_game(capsys, tmp_path):
    run(capsys, "replay", str(SMALL), "--game", str(tmp_path / "g.db"))
    before = _sha(tmp_path / "g.db")
    code, _out, err = run(capsys, "export", str(tmp_path / "g.db"), "-o", str(tmp_path / "g.db"))
    assert code == 2 and "never over a game" in err and _sha(tmp_path / "g.db") == before
    code, _out, err = run(capsys, "export", str(tmp_path / "g.db"), "-o", str(tmp_path / "no" / "dir" / "x"))
    assert code == 3 and err.count("\n") == 1 and "Traceback" not in err


def test_looking_at_a_game_changes_nothing_and_creates_no_key(capsys, tmp_path, monkeypatch):
    run(capsys, "replay", str(SMALL), "--game", str(tmp_path / "g.db"))
    _tamper(tmp_path / "g.db", "UPDATE projection SET state = replace(state, '\"pot\":0', '\"pot\":5')")
    before = sorted(p.name for p in tmp_path.iterdir()), _sha(tmp_path / "g.db")
    for argv in (["audit"], ["export"], ["export", "--format", "csv"]):
        code, _out, err = run(capsys, *argv[:1], str(tmp_path / "g.db"), *argv[1:])
        assert code == 1, (argv, err)
    monkeypatch.setenv("BANQUIER_KEY_FILE", str(tmp_path / "other.key"))
    code, _out, err = run(capsys, "audit", str(tmp_path / "g.db"))
    assert code == 3 and "no device key" in err
    assert (sorted(p.name for p in tmp_path.iterdir()), _sha(tmp_path / "g.db")) == before


def test_an_edited_entry_is_never_undone(tmp_path, key):
    from terminal.errors import AuditFailed
    with Game.create(tmp_path / "g.db", "fr", ["Ann", "Bob"], key=key) as game:
        game.buy("Ann", 39)
    _tamper(tmp_path / "g.db", "UPDATE postings SET amount = amount * 10 WHERE seq = 2")
    with Game.open(tmp_path / "g.db", key=key) as game:
        with pytest.raises(AuditFailed, match="#2 was edited"):
            game.undo()
        assert game.cash("Ann") == 1100


def test_games_outside_the_data_directory_are_not_managed(capsys, tmp_path, monkeypatch):
    data = tmp_path / "data"
    monkeypatch.setenv("BANQUIER_DATA_DIR", str(data))
    run(capsys, "replay", str(SMALL), "--game", str(tmp_path / "elsewhere.db"))
    for action in ("resume", "archive"):
        code, _out, err = run(capsys, "games", action, str(tmp_path / "elsewhere.db"))
        assert code == 2 and "no game" in err
    assert (tmp_path / "elsewhere.db").is_file() and not (data / "current").exists()


def test_bad_card_inputs_never_hang_or_trace(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("BANQUIER_DATA_DIR", str(tmp_path / "data"))
    code, _out, err = run(capsys, "cards", "enrol", "--role", "player 3", "--uid", "")
    assert code == 2 and "not a card UID" in err
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe\x00x")
    code, _out, err = run(capsys, "cards", "import", str(tmp_path / "bad.txt"))
    assert code == 2 and "not a UTF-8 text file" in err


def test_malformed_api_input_and_damaged_header(tmp_path, key):
    from terminal.errors import LedgerError, MalformedOperation
    with Game.create(tmp_path / "g.db", "fr", ["Ann", "Bob"], key=key) as game, pytest.raises(MalformedOperation):
        game.apply([1, 2])
    import sqlite3
    conn = sqlite3.connect(tmp_path / "g.db")
    conn.execute("UPDATE meta SET value = 'Zed' WHERE key = 'players'")
    conn.commit()
    conn.close()
    with pytest.raises(LedgerError, match="header is damaged"):
        Game.open(tmp_path / "g.db", key=key)


@pytest.mark.parametrize("argv", [("demo", "--log"), ("sim", "--headless", "--seconds", "1", "--demo")])
def test_an_unreadable_log_is_a_file_problem_everywhere(capsys, tmp_path, monkeypatch, argv):
    # README: exit 3 is a file problem; replay, demo and sim --demo agree on a log that is not there.
    monkeypatch.setenv("BANQUIER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    code, _out, err = run(capsys, *argv, str(tmp_path / "nope.jsonl"))
    assert code == 3 and "cannot read the table log" in err and err.count("\n") == 1


def test_audit_and_export_take_a_game_by_the_name_games_list_shows(capsys, tmp_path, monkeypatch):
    data = tmp_path / "data"
    monkeypatch.setenv("BANQUIER_DATA_DIR", str(data))
    monkeypatch.chdir(tmp_path)  # no file called "sunday" here: the name means the data directory's game
    (data / "games").mkdir(parents=True)
    run(capsys, "replay", str(SMALL), "--game", str(data / "games" / "sunday.db"))
    code, out, _ = run(capsys, "games", "list")
    assert code == 0 and " 3 players " in out and " entries " in out
    assert any(part.count("-") == 2 and len(part) == 10 for part in out.split())  # the date it last changed
    for name in ("sunday", "sunday.db"):
        code, out, err = run(capsys, "audit", name)
        assert code == 0 and "sunday.db" in out, err
        code, out, err = run(capsys, "export", name)
        assert code == 0 and out.startswith("{"), err
    code, _out, err = run(capsys, "audit", "monday")
    assert code == 3 and "monday" in err and err.count("\n") == 1


def test_ctrl_c_says_what_was_kept(capsys):
    import host_ui.cli as cli

    def interrupted(_args):
        raise KeyboardInterrupt
    code = cli.main(["doctor"], commands={"doctor": interrupted})
    err = capsys.readouterr().err
    assert code == 130 and "interrupted" in err and err.count("\n") == 1


def test_an_empty_player_name_is_refused_not_dropped(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("BANQUIER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    code, _out, err = run(capsys, "sim", "--headless", "--new", "--players", "Ann,,Bob", "--seconds", "1")
    assert code == 2 and "empty name" in err and err.count("\n") == 1
    assert not (tmp_path / "data" / "games").exists() or not list((tmp_path / "data" / "games").iterdir())


def test_the_command_line_tests_run_in_a_clean_environment():
    """Nothing of this machine's environment reaches the command under test (issue 21, point 7): no PYTHON*
    setting, no display, no locale, a home of the test's own."""
    env = clean_env()
    assert set(env) <= {"PATH", "HOME", "BANQUIER_KEY_FILE", "BANQUIER_DATA_DIR", "TMPDIR"}, sorted(env)
    assert Path(env["HOME"]).is_dir() and Path(env["HOME"]) != Path.home()
    assert "PYTHONUNBUFFERED" not in clean_env({"PYTHONUNBUFFERED": None})
    result = banquier("--help")
    assert result.returncode == 0 and "usage: banquier" in result.stdout


@pytest.mark.slow  # a subprocess waiting on a serial line: over 0.5 s
def test_cards_enrol_waits_on_the_configured_reader(tmp_path):
    """Issue 22, point 5: `banquier cards enrol` ignored the configured reader (backend, pins, port) and waited on
    the simulator. Here the configuration names a serial reader on a pseudo-terminal: the UID written to the
    line is what gets enrolled."""
    import pty
    import select

    master, slave = pty.openpty()
    tty.setraw(slave)
    config = tmp_path / "config.toml"
    data = tmp_path / "data"
    config.write_text(f'[hardware.reader]\nbackend = "serial"\nport = "{os.ttyname(slave)}"\nformat = "lines"\n'
                      f'[storage]\ndata_dir = "{data}"\nkey_file = "{tmp_path / "device.key"}"\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith("BANQUIER_")}
    process = subprocess.Popen([sys.executable, "-m", "host_ui", "--config", str(config), "cards", "enrol",
                                "--role", "banker"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env, cwd=Path(__file__).resolve().parents[3])
    try:
        assert select.select([process.stdout], [], [], 30)[0], "no prompt"
        prompt = process.stdout.readline()
        assert "banker" in prompt.lower(), prompt
        os.write(master, b"04A1B2C3D4\r\n")
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
        os.close(slave)
    assert process.returncode == 0, err
    assert "ok" in out and "04A1B2C3D4" in (data / "cards.txt").read_text().upper(), out


def test_cards_enrol_reads_uid_the_way_the_configured_reader_writes_it(tmp_path):
    """`cards enrol --uid` reads the UID as the configured reader writes it (its backend's declared form): the
    number 3283263748 a keyboard reader with uid_order "reversed" and uid_digits "decimal" types for card 04A1B2C3
    is that card, and a duplicate of it once 04A1B2C3 is enrolled; `--uid-form` names the form explicitly."""
    cards = tmp_path / "cards.txt"
    config = tmp_path / "kbrd.toml"
    config.write_text('[hardware.reader]\nbackend = "keyboard"\ndevice = "RFID"\nuid_order = "reversed"\n'
                      'uid_digits = "decimal"\n')
    result = banquier("--config", str(config), "cards", "enrol", "--card-set", str(cards), "--role", "player 2",
                      "--uid", "3283263748")
    assert result.returncode == 0, result.stderr
    assert "04A1B2C3 is now player 2" in result.stdout and "04A1B2C3" in cards.read_text()
    again = banquier("--config", str(config), "cards", "enrol", "--card-set", str(cards), "--role", "player 3",
                     "--uid", "04a1b2c3", "--uid-form", "hex")
    assert again.returncode == 2 and one_line_error(again) and "already" in again.stderr
    named = banquier("cards", "enrol", "--card-set", str(cards), "--role", "player 4", "--uid", "3283263748",
                     "--uid-form", "reversed,decimal")
    assert named.returncode == 2 and "already" in named.stderr, named.stderr
    bad = banquier("cards", "enrol", "--card-set", str(cards), "--role", "player 4", "--uid", "1",
                   "--uid-form", "backwards")
    assert bad.returncode == 2 and one_line_error(bad) and "backwards" in bad.stderr


def test_cards_enrol_refuses_ten_decimal_digits_without_a_form(tmp_path):
    """With no configured form (a reader that writes hex, or none), 10 decimal digits could be a 5-byte hex UID
    or a USB reader's number: refused in one line saying how to give it; nothing stored."""
    cards = tmp_path / "cards.txt"
    result = banquier("cards", "enrol", "--card-set", str(cards), "--role", "player 2", "--uid", "3283263748")
    assert result.returncode == 2 and one_line_error(result), result.stderr
    assert "--uid-form" in result.stderr and not cards.exists()
    hex_named = banquier("cards", "enrol", "--card-set", str(cards), "--role", "player 2", "--uid", "3283263748",
                         "--uid-form", "hex")
    assert hex_named.returncode == 0 and "3283263748" in cards.read_text()


def test_cards_import_takes_the_file_after_the_options(tmp_path):
    """`cards import --card-set X FILE` (options first, as the usage line shows them) works as
    `cards import FILE --card-set X` does; a second file is still refused."""
    cards, listing = tmp_path / "cards.txt", tmp_path / "in.txt"
    listing.write_text("04A1B2C3 = player 1\n")
    result = banquier("cards", "import", "--card-set", str(cards), str(listing))
    assert result.returncode == 0, result.stderr
    assert "04A1B2C3" in cards.read_text()
    twice = banquier("cards", "import", "--card-set", str(cards), str(listing), str(listing))
    assert twice.returncode == 2 and "unrecognized arguments" in twice.stderr


def test_cards_import_takes_standard_input_after_the_options(tmp_path):
    """`cards import --card-set X -` reads standard input, as `cards import - --card-set X` does ("-" alone is a
    value, not an option); an option after it is still an option."""
    cards = tmp_path / "cards.txt"
    result = banquier("cards", "import", "--card-set", str(cards), "-", stdin="04A1B2C3 = player 1\n")
    assert result.returncode == 0, result.stderr
    assert "imported 1 card into" in result.stdout and "04A1B2C3" in cards.read_text()
    bogus = banquier("cards", "import", "--card-set", str(cards), "-", "--bogus", stdin="")
    assert bogus.returncode == 2 and "unrecognized arguments: --bogus" in bogus.stderr


def test_event_card_enrolment_takes_the_editions_card_numbers(tmp_path):
    """``event N`` is enrolled for N of the edition's Event cards of every rules version (1-24), refused for another
    with the range; ``cards --help`` names every role; a classic square's sticker named on the electronic board's
    numbering gets the hint of ``property N``. The command as a user runs it, in a clean environment."""
    card_set = tmp_path / "c.txt"
    ok = banquier("cards", "enrol", "--card-set", str(card_set), "--role", "event 24", "--uid", "11227CA1")
    assert ok.returncode == 0, ok.stderr
    for number in (25, 26):
        refused = banquier("cards", "enrol", "--card-set", str(card_set), "--role", f"event {number}",
                           "--uid", "11227CA2")
        assert refused.returncode != 0
        assert f"There is no Event card {number}: Event cards are numbered 1 to 24." in refused.stderr
    assert "event 25" not in card_set.read_text(encoding="utf-8")
    assert "event N (its Event cards, 1 to 24)" in card_set.read_text(encoding="utf-8")
    deed = banquier("cards", "enrol", "--card-set", str(card_set), "--role", "deed 10", "--uid", "11227CA3")
    assert deed.returncode != 0 and "'property N' (1 to 22)" in deed.stderr
    helped = " ".join(banquier("cards", "--help").stdout.split())
    assert "'property N' (1-22) and 'event N' (1-24)" in helped


def test_banquier_replay_takes_an_old_ultimate_log_naming_no_rules_version(tmp_path):
    """A log of the electronic board written before rules version 2 names none: ``banquier replay`` replays it by
    version 1, as it was played (M0 for M50 per property with none), in a clean environment."""
    from tests.conftest import ROOT
    log = ROOT / "tests" / "fixtures" / "ultimate-readings-v1.jsonl"
    result = banquier("replay", str(log), "--game", str(tmp_path / "g.db"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "14 operations (0 refused as the log says) and 0 checks replayed: all agree." in result.stdout
    key = Path(os.environ["BANQUIER_KEY_FILE"]).read_bytes()
    with Game.open(tmp_path / "g.db", key=key) as game:
        assert game.config.rules_version == 1 and game.config.rules["location_landing"] == "land"


@pytest.mark.parametrize("absolute", [True, False])
def test_replay_refuses_a_game_in_a_folder_that_does_not_exist(tmp_path, absolute):
    # As export -o and sim --screenshot do: one line, exit 3, and no folder made (absolute or relative).
    where = tmp_path / "cwd"
    where.mkdir()
    game = str(tmp_path / "nonexist" / "x.db") if absolute else "a/b/z.db"
    result = subprocess.run([sys.executable, "-m", "host_ui", "replay", str(SMALL), "--game", game],
                            capture_output=True, text=True, cwd=where, timeout=60,
                            env=clean_env({"PYTHONPATH": str(Path(__file__).resolve().parents[3])}))
    folder = Path(game).parent
    assert result.returncode == 3, result.stderr
    assert one_line_error(result) and f"there is no folder {folder}; nothing was written" in result.stderr
    assert not (where / "a").exists() and not (tmp_path / "nonexist").exists()


@pytest.mark.parametrize("action", [["enrol", "--role", "player 1", "--uid", "04A1B2C3"], ["import", "-"]])
def test_a_card_set_in_a_missing_folder_is_refused_and_no_folder_is_made(tmp_path, action):
    """`cards enrol`/`import --card-set MISSING/cards.txt` says there is no such folder (exit 3, one line) and makes
    none, as `export -o` and `replay --game` do."""
    card_set = tmp_path / "typo" / "cards.txt"
    result = banquier("cards", *action[:1], "--card-set", str(card_set), *action[1:], stdin="04A1B2C3 = player 1\n")
    assert result.returncode == 3 and result.stderr.count("\n") == 1, result.stderr
    assert "there is no folder" in result.stderr and not (tmp_path / "typo").exists()
