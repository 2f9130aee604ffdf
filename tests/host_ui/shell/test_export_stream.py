"""``banquier export`` streams the journal (a chunk at a time) and writes, for every recorded game and format,
the very bytes the whole-journal export wrote: the reference below is that export, built from the whole journal
read at once (tests/terminal/oracles.py)."""
from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest

from host_ui.cli import main, write_json_export
from host_ui.screen.history_text import history_label, movement_text
from terminal.bank.game import Game
from terminal.bank.operations import TimeUp
from tests.conftest import KEY, OWN_LOGS, RECORDED
from tests.terminal.oracles import journal_of

LOGS = sorted(RECORDED.glob("*.jsonl")) + [OWN_LOGS / "us-undo.jsonl", OWN_LOGS / "fr-time-limit-play-time.jsonl"]
GAMES = [pytest.param(p, id=p.name, marks=[pytest.mark.slow] if p.name.startswith("long-") else []) for p in LOGS]


def whole_journal_export(game: Game, fmt: str) -> str:
    """The export as it was written from the whole journal in memory."""
    out = io.StringIO()
    if fmt == "json":
        json.dump({"meta": game.meta, "history": journal_of(game), "state": game.state()}, out,
                  ensure_ascii=False, indent=1, default=list)
        out.write("\n")
    elif fmt == "csv":  # the words as the history screen says them, in the configured language (fr here)
        writer = csv.writer(out)
        writer.writerow(["seq", "kind", "operation", "undone", "payer", "payee", "amount", "description"])
        for item in journal_of(game):
            op = json.dumps(item["op"], ensure_ascii=False)
            label = history_label(item, "fr", game.edition)
            if not item["postings"]:
                writer.writerow([item["seq"], item["kind"], op, item["undone"], "", "", "", label])
            for payer, payee, amount in item["postings"]:
                words = f"{label} — {movement_text((payer, payee, amount), 'fr', game.edition)}"
                writer.writerow([item["seq"], item["kind"], op, item["undone"], payer, payee, amount, words])
    else:
        meta = game.meta
        header = {"format": "table-log", "version": 1, "edition": meta["edition"], "players": meta["players"],
                  "mode": meta["mode"]}
        for name, field in (("rules", "rules_changed"), ("dealt", "dealt"), ("end_time", "end_time")):
            if meta.get(field):
                header[name] = meta[field]
        if meta.get("length_minutes") is not None:
            header["length_minutes"] = meta["length_minutes"]
        header["rules_version"] = game.config.rules_version  # every export names it (docs/table-log.md)
        header["source"] = f"exported by Banquier from {game.path.name}"
        lines: list[dict] = [header]
        for entry in game.ledger.entries():
            if entry.kind == "op" and entry.op.get("op") != TimeUp.op:
                lines.append(entry.op)
            elif entry.kind == "undo":
                lines.append({"op": "undo"})
        lines.append({"expect": game.state()})
        out.write("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
    return out.getvalue()


@pytest.fixture
def key_file():
    path = Path(os.environ["BANQUIER_KEY_FILE"])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(KEY)
    path.chmod(0o600)
    return path


@pytest.mark.parametrize("log", GAMES)
def test_the_streamed_export_writes_the_same_bytes(direct_replay, tmp_path, capsys, key_file, log, monkeypatch):
    monkeypatch.setenv("BANQUIER_LANGUAGE", "fr")
    path = direct_replay(log).copy_to(tmp_path)
    with Game.open(path, key=KEY, read_only=True) as game:
        wanted = {fmt: whole_journal_export(game, fmt) for fmt in ("table-log", "csv", "json")}
    for fmt, text in wanted.items():
        assert main(["export", str(path), "--format", fmt, "--output", str(tmp_path / f"out.{fmt}")]) == 0
        said = capsys.readouterr().out
        assert said.count("\n") == 1 and said.startswith(f"wrote {path.name} as {fmt} (")  # one line on success
        assert (tmp_path / f"out.{fmt}").read_bytes() == text.encode("utf-8"), f"{fmt} differs"
        assert main(["export", str(path), "--format", fmt]) == 0
        out, _err = capsys.readouterr()  # (the capture reads the CSV's line ends as "\n")
        assert out.replace("\r\n", "\n") == text.replace("\r\n", "\n"), f"{fmt} differs on standard output"


def test_the_json_of_an_empty_history_is_that_of_json_dump():
    out = io.StringIO()
    write_json_export(out, {"a": [1, {"b": "é"}]}, iter(()), {"s": {}})
    wanted = io.StringIO()
    json.dump({"meta": {"a": [1, {"b": "é"}]}, "history": [], "state": {"s": {}}}, wanted, ensure_ascii=False,
              indent=1, default=list)
    assert out.getvalue() == wanted.getvalue() + "\n"
