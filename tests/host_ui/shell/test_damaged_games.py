"""Issue 11, point 3: a damaged game is named, kept and worked around, never crashed on. Every entry point
(Game.open, audit, export, doctor, games list/resume, start-up) answers a damaged, foreign or edited game with
one line naming the problem and the fix, never a traceback, and leaves its files as they were."""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from host_ui.cli import main
from host_ui.shell.games import key_for_new_game
from host_ui.shell.startup import resume_at_startup
from terminal.bank.game import Game
from terminal.errors import GameError
from tests.host_ui.shell.damage import SQL_DAMAGE, clean_game, contents, damage_sql, damaged_variant
from tests.host_ui.shell.helpers import banquier, hashes

VARIANTS = 48
# Judged below by whether the file still holds the same game (a flipped bit in free space changes nothing).
UNSEEN = ("audit passed", "Game.open resumed", "doctor: 'ok ")


@pytest.fixture
def games() -> Path:
    folder = Path(os.environ["BANQUIER_DATA_DIR"]) / "games"
    folder.mkdir(parents=True)
    return folder


def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line(err: str) -> bool:
    return err.count("\n") <= 1 and "Traceback" not in err and "internal error" not in err


def _entry_points(capsys, path: Path, key: bytes) -> list[str]:
    """Run every reader on ``path`` in-process; return what went wrong (empty when all is well)."""
    wrong = []
    before = hashes(path.parent)
    for argv in (["audit", str(path)], ["export", str(path)], ["export", str(path), "--format", "csv"],
                 ["games", "list"], ["games", "resume", path.stem]):
        code, out, err = _cli(capsys, *argv)
        if not _one_line(err):
            wrong.append(f"{argv[0]} {argv[-1]}: {err[:300]!r}")
        if argv[0] == "audit" and code == 0:
            wrong.append("audit passed a damaged file")
        if hashes(path.parent) != before:
            wrong.append(f"{argv} changed the files")
    code, out, err = _cli(capsys, "doctor", "--no-probe")
    line = next((x for x in out.splitlines() if path.name in x), "")
    if "Traceback" in err or not line or not line.lstrip().startswith(("FAIL", "WARN", "fail", "warn")):
        wrong.append(f"doctor: {line!r} {err[:200]!r}")
    if hashes(path.parent) != before:
        wrong.append("doctor changed the files")
    return wrong


def _resumed_unreported(path: Path, key: bytes, mirror: Path | None) -> bool:
    """Resume ``path`` as the terminal does at start-up (background audit, mirror) and make one payment:
    whether the game resumed and took it without the damage being reported (refused, mended from the mirror,
    or payments stopped by the background audit)."""
    try:
        game = Game.open(path, key=key, background=True, mirror=mirror)
    except GameError as exc:
        assert "\n" not in str(exc), str(exc)
        return False
    try:
        if game.restored:
            return False
        assert game.ledger.guard.wait_verdict(60) is not None
        try:
            game.pass_go(game.players[0])
        except GameError:
            return False
        return True
    finally:
        game.close()


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_a_fuzz_of_damaged_files_over_every_entry_point(games, capsys):
    """Bit flips, pages of garbage and truncations of the file or of its WAL, and edits in SQL: no traceback,
    no file changed by a reader, one line each, and no damaged file resumed (as the terminal resumes it:
    background audit, mirror) and taking a payment without the damage being reported."""
    key = key_for_new_game()
    rng = random.Random(11)
    problems = {}
    same_game = 0
    for n in range(VARIANTS):
        path, what, before, mirror = damaged_variant(games, key, rng, n)
        unchanged = contents(path) == before
        same_game += unchanged
        wrong = [w for w in _entry_points(capsys, path, key) if not (unchanged and w.startswith(UNSEEN))]
        if _resumed_unreported(path, key, mirror) and not unchanged:
            wrong.append("resumed and took a payment without the damage being reported")
        if wrong:
            problems[f"{n} {what}"] = wrong
        for leftover in games.glob(path.name + "*"):
            leftover.unlink()
    assert problems == {}
    assert same_game < VARIANTS // 3  # most variants really damaged the game


@pytest.mark.parametrize("name", sorted(SQL_DAMAGE))
def test_every_edit_in_sql_is_reported_by_audit(games, capsys, name):
    key = key_for_new_game()
    path = clean_game(games / "g.db", key)
    damage_sql(path, name)
    before = hashes(games)
    code, out, err = _cli(capsys, "audit", str(path))
    assert code in (1, 3) and _one_line(err), (out, err)
    assert hashes(games) == before


def test_start_up_with_a_damaged_current_game_does_not_crash_and_offers_the_backup(games, tmp_path):
    from host_ui.shell.backup import rotate_backup
    from host_ui.shell.manage import set_current
    key = key_for_new_game()
    path = clean_game(games / "sunday.db", key)
    backups = tmp_path / "backups"
    rotate_backup(path, backups, keep=3)
    damage_sql(path, "projection_without_cash")
    set_current(games.parent, path)
    before = hashes(games)
    found = resume_at_startup(games.parent, key, backups=backups)
    assert found.game is None and found.path == path and found.backup is not None
    assert "sunday.db" in found.problem and "banquier games restore sunday" in found.problem
    assert "\n" not in found.problem and hashes(games) == before


def test_games_restore_puts_the_newest_good_backup_in_a_new_file_and_keeps_the_damaged_one(games, tmp_path):
    from host_ui.shell.backup import rotate_backup
    key = key_for_new_game()
    path = clean_game(games / "sunday.db", key)
    backups = Path(os.environ["BANQUIER_DATA_DIR"]) / "backups"
    rotate_backup(path, backups, keep=3)
    damage_sql(path, "entry_deleted")
    damaged = hashes(path)
    result = banquier("games", "restore", "sunday")
    assert result.returncode == 0, result.stderr
    assert hashes(path) == damaged
    restored = list(games.glob("sunday-restored-*.db"))
    assert len(restored) == 1
    with Game.open(restored[0], key=key, check="full") as game:
        assert game.ledger.last_entry()[0] == 7
    assert (games.parent / "current").read_text().strip() == restored[0].name


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_banquier_run_with_a_damaged_current_game_keeps_running(games, tmp_path):
    """The service must not crash-loop: `banquier run` starts without the game (exit 0 at the deadline)."""
    key = key_for_new_game()
    path = clean_game(games / "sunday.db", key)
    damage_sql(path, "projection_without_cash")
    (games.parent / "current").write_text("sunday.db\n")
    before = hashes(games)
    config = tmp_path / "config.toml"
    config.write_text('[hardware.reader]\nbackend = "sim"\n[hardware.beeper]\nbackend = "sim"\n'
                      '[hardware.buttons]\nbackend = "sim"\n[logging]\nlevel = "info"\n')
    result = banquier("--config", str(config), "run", "--headless", "--seconds", "0.5",
                      env={"SDL_VIDEODRIVER": "dummy"})
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.stderr and "cannot resume sunday.db" in result.stderr
    assert hashes(games) == before


@pytest.mark.parametrize("n", [0, 1, 2, 4, 5])
@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_a_sample_through_the_banquier_command(games, n):
    key = key_for_new_game()
    path, what, _, _ = damaged_variant(games, key, random.Random(n), n)
    before = hashes(games)
    for argv in (["audit", str(path)], ["export", str(path)], ["games", "list"], ["games", "resume", path.stem]):
        result = banquier(*argv)
        assert "Traceback" not in result.stderr and "internal error" not in result.stderr, (what, argv)
        assert result.stderr.count("\n") <= 1, (what, argv, result.stderr)
        assert hashes(games) == before
    result = banquier("audit", str(path))
    assert result.returncode in (0, 1, 3) and "Traceback" not in result.stdout + result.stderr
