"""Issue 22, point 6: every file a command writes under a name the user gives goes through one guard (that of
``export -o``): ``sim --screenshot`` too, which overwrote any file without --force, even through a link (the game
being played, a backup, the card set, the device key). The guard also keeps the terminal's own files beside its
games (a game's mirror, the ``current`` marker) and the configuration files, which ``export -o`` and ``cards
export --force`` could replace. Through the real ``banquier`` command; every file is hashed before and after."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from host_ui.shell.device_key import default_key_path
from host_ui.shell.games import key_for_new_game
from host_ui.shell.manage import set_current
from terminal.bank.game import Game
from tests.host_ui.shell.helpers import banquier, hashes, one_line_error

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def world(tmp_path):
    """A data directory with a game, its mirror, the `current` marker, a card set, the key and a configuration."""
    data = Path(os.environ["BANQUIER_DATA_DIR"])
    games = data / "games"
    games.mkdir(parents=True)
    backups = data / "backups"
    game = Game.create(games / "sunday.db", "fr", ["Ann", "Bob"], key=key_for_new_game(),
                       mirror=backups / "sunday.mirror")
    game.pass_go("Ann")
    game.close()
    set_current(data, games / "sunday.db")
    (data / "cards.txt").write_text("04A1B2C3             = player 1\n", encoding="utf-8")
    config = tmp_path / "config.toml"
    config.write_text('[game]\nlanguage = "en"\n', encoding="utf-8")
    named = {"game": games / "sunday.db", "mirror": backups / "sunday.mirror", "current": data / "current",
             "cards": data / "cards.txt", "key": default_key_path(), "config": config}
    assert all(p.is_file() for p in named.values()), named
    return {"data": data, "tmp": tmp_path, "config": config, **named}


def every_file(world) -> dict[str, str]:
    return hashes(world["data"], world["key"], world["config"])


def sim(world, *argv: str):
    return banquier("--config", str(world["config"]), "sim", "--headless", "--seconds", "0.2", *argv, timeout=120)


@pytest.mark.slow  # a headless simulator run per target: over 0.5 s
@pytest.mark.parametrize("target", ["game", "mirror", "current", "cards", "key", "config"])
def test_a_screenshot_never_replaces_what_the_terminal_keeps(world, target):
    before = every_file(world)
    for force in ([], ["--force"]):
        result = sim(world, "--screenshot", str(world[target]), *force)
        assert result.returncode == 2 and one_line_error(result), result.stderr
        assert "never over" in result.stderr or "already exists" in result.stderr, result.stderr
    link = world["tmp"] / "innocent.png"
    link.symlink_to(world[target])
    result = sim(world, "--screenshot", str(link), "--force")
    assert result.returncode == 2 and one_line_error(result), result.stderr
    assert every_file(world) == before


@pytest.mark.slow  # headless simulator runs: over 0.5 s
def test_a_screenshot_is_a_new_file_an_existing_one_only_with_force_never_through_a_link(world):
    shot = world["tmp"] / "shot.png"
    shot.write_bytes(b"keep me")
    shot.chmod(0o604)
    result = sim(world, "--screenshot", str(shot))
    assert result.returncode == 2 and "already exists" in result.stderr and one_line_error(result)
    assert shot.read_bytes() == b"keep me"
    assert sim(world, "--screenshot", str(shot), "--force").returncode == 0
    assert shot.read_bytes().startswith(PNG) and stat.S_IMODE(shot.stat().st_mode) == 0o604  # its mode is kept
    # A link at the name (to a file of the user's): the link is replaced by the picture, its target is untouched.
    mine = world["tmp"] / "mine.txt"
    mine.write_text("mine\n")
    link = world["tmp"] / "link.png"
    link.symlink_to(mine)
    assert sim(world, "--screenshot", str(link), "--force").returncode == 0
    assert mine.read_text() == "mine\n" and not link.is_symlink() and link.read_bytes().startswith(PNG)
    new = world["tmp"] / "new.png"
    assert sim(world, "--screenshot", str(new)).returncode == 0
    assert new.read_bytes().startswith(PNG) and stat.S_IMODE(new.stat().st_mode) == 0o640
    assert sorted(p.name for p in world["tmp"].iterdir() if p.name.startswith(".")) == []  # no temporary left


@pytest.mark.slow  # headless simulator runs: over 0.5 s
def test_a_screenshot_to_a_folder_a_device_or_an_impossible_name_is_one_line(world):
    before = every_file(world)
    for target, code in ((world["tmp"], 2), ("/dev/null", 2), (world["tmp"] / ("x" * 300 + ".png"), 3),
                         (world["tmp"] / "missing" / "shot.png", 3)):
        result = sim(world, "--screenshot", str(target), "--force")
        assert result.returncode == code and one_line_error(result), (target, result.stderr)
        assert len(result.stderr) < 600, result.stderr
    assert every_file(world) == before


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
@pytest.mark.parametrize("target", ["mirror", "current", "config"])
def test_exports_never_replace_the_mirror_the_marker_or_the_configuration(world, target):
    """`export -o` and `cards export --force` could replace them."""
    before = every_file(world)
    for argv in (["export", str(world["game"]), "-o", str(world[target]), "--force"],
                 ["cards", "export", str(world[target]), "--force"],
                 ["--config", str(world["config"]), "export", str(world["game"]), "-o", str(world[target]),
                  "--force"]):
        result = banquier(*argv, env={"BANQUIER_CONFIG": str(world["config"])})
        assert result.returncode == 2 and one_line_error(result), (argv, result.stderr)
        assert "never over" in result.stderr
    assert every_file(world) == before


def test_the_system_and_user_configurations_are_protected_too(world, tmp_path):
    home = tmp_path / "home"
    user_config = home / ".config" / "banquier" / "config.toml"
    user_config.parent.mkdir(parents=True)
    user_config.write_text("[game]\n")
    result = banquier("export", str(world["game"]), "-o", str(user_config), "--force", env={"HOME": str(home)})
    assert result.returncode == 2 and "configuration" in result.stderr and user_config.read_text() == "[game]\n"
