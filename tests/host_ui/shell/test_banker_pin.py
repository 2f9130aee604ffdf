"""Issue 11, point 9: the banker PIN is a secret. Stored as a salted hash written by ``banquier pin set``,
never in plaintext (a plaintext PIN in a configuration is refused with that command as the fix), compared in
constant time, slowed down after wrong tries (and logged); files made with private modes whatever the umask."""
from __future__ import annotations

import logging
import os
import stat

import pytest

from host_ui.shell import pin as pin_module
from host_ui.shell.config import parse_config
from host_ui.shell.pin import FREE_TRIES, PinCheck, hash_pin
from tests.host_ui.shell.helpers import banquier, one_line_error


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_pin_set_stores_a_salted_hash_and_removes_the_plaintext(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('# my settings\n[game]\nlanguage = "en"\nbanker_pin = "2468"\n[logging]\nlevel = "info"\n')
    os.chmod(config, 0o644)
    result = banquier("--config", str(config), "pin", "set", "--stdin", stdin="1357\n1357\n")
    assert result.returncode == 0, result.stderr
    text = config.read_text()
    assert "1357" not in text and "2468" not in text and "# my settings" in text and 'level = "info"' in text
    parsed = parse_config(text)
    assert parsed.game.language == "en" and parsed.game.banker_pin_hash.startswith("scrypt$")
    assert parsed.terminal_settings().banker_pin.matches("1357")
    assert stat.S_IMODE(config.stat().st_mode) == 0o644  # the file's mode is kept
    assert "1357" not in parsed.to_toml() and parsed.game.banker_pin_hash in parsed.to_toml()
    again = banquier("--config", str(config), "pin", "set", "--stdin", stdin="1357\n1357\n")
    assert again.returncode == 0 and config.read_text().count("banker_pin_hash") == 1
    assert parse_config(config.read_text()).game.banker_pin_hash != parsed.game.banker_pin_hash  # a new salt


def test_pin_set_refuses_a_bad_or_mistyped_pin(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[game]\n")
    for given in ("12\n12\n", "1234\n1243\n", "abcd\nabcd\n"):
        result = banquier("--config", str(config), "pin", "set", "--stdin", stdin=given)
        assert result.returncode == 2 and one_line_error(result), result.stderr
    assert config.read_text() == "[game]\n"


def test_a_plaintext_pin_is_refused_with_the_command_as_the_fix(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[game]\nbanker_pin = "2468"\n')
    result = banquier("--config", str(config), "games", "list")
    assert result.returncode == 2 and one_line_error(result)
    assert "game.banker_pin" in result.stderr and "sudo banquier pin set" in result.stderr


def test_wrong_pins_slow_down_then_the_right_one_opens(caplog):
    clock = Clock()
    check = PinCheck(hash_pin("2468"), clock=clock)
    with caplog.at_level(logging.WARNING, logger="banquier"):
        for _ in range(FREE_TRIES - 1):
            assert not check.matches("1111") and check.wait_s() == 0
        assert not check.matches("1111") and check.wait_s() == 1.0
        assert not check.matches("2468")  # the right PIN during the wait is refused too
        clock.now += 1.0
        assert not check.matches("1111") and check.wait_s() == 2.0  # doubled
        clock.now += 2.0
        assert not check.matches("1111") and check.wait_s() == 4.0
        clock.now += 4.0
        assert check.matches("2468") and check.wait_s() == 0 and check.wrong_in_a_row == 0
    assert sum("wrong banker PIN" in r.message for r in caplog.records) == FREE_TRIES + 2


def test_thousands_of_wrong_pins_do_not_open_the_menu():
    clock = Clock()
    check = PinCheck(hash_pin("2468"), clock=clock)
    opened = False
    for n in range(2000):
        opened |= check.matches(f"{n:04d}") if n != 2468 else False
    assert not opened and not check.matches("2468")
    assert check.wait_s() > 0


def test_the_comparison_is_in_constant_time(monkeypatch):
    calls = []
    real = pin_module.hmac.compare_digest
    monkeypatch.setattr(pin_module.hmac, "compare_digest", lambda a, b: calls.append((a, b)) or real(a, b))
    check = PinCheck(hash_pin("2468"))
    assert check.matches("2468") and calls
    assert "2468" not in repr(check)


def test_the_terminal_asks_the_pin_through_the_hash(make_game):
    from tests.terminal.test_machine import Table
    from tests.terminal.ui_driver import type_amount
    table = Table(make_game, banker_pin=PinCheck(hash_pin("2468")))
    table.driver.choose("banker")
    assert table.view.screen == "pin"
    type_amount(table.terminal, 1111)
    assert table.view.message.code == "wrong_pin" and table.view.screen == "pin"
    type_amount(table.terminal, 2468)
    assert table.view.screen == "banker"


@pytest.mark.parametrize("umask", [0o000, 0o022])
def test_games_backups_and_the_key_are_private_whatever_the_umask(tmp_path, umask):
    from host_ui.shell.backup import rotate_backup
    from host_ui.shell.device_key import load_or_create_key
    from terminal.bank.game import Game
    old = os.umask(umask)
    try:
        key = load_or_create_key(tmp_path / "k" / "device.key")
        game = Game.create(tmp_path / "g" / "sunday.db", "fr", ["Ann", "Bob"], key=key)
        game.pass_go("Ann")
        backup = rotate_backup(game.path, tmp_path / "b", keep=2)
        files = [tmp_path / "k" / "device.key", game.path, backup]
        files += [p for p in (tmp_path / "g").iterdir() if p.name.startswith("sunday.db-")]
        modes = {path: stat.S_IMODE(path.stat().st_mode) for path in files}
        game.close()
    finally:
        os.umask(old)
    assert len(modes) >= 4
    for path, mode in modes.items():
        assert mode & 0o007 == 0, (path, oct(mode))
