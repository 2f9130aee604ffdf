"""Issue 11, point 6: the device key is durable and never silently replaced."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from host_ui.shell import device_key
from host_ui.shell.device_key import KEY_BYTES, default_key_path, load_or_create_key, new_key
from terminal.bank.game import Game
from terminal.errors import LedgerError
from tests.host_ui.shell.helpers import banquier, hashes, one_line_error


@pytest.fixture
def data() -> Path:
    folder = Path(os.environ["BANQUIER_DATA_DIR"])
    (folder / "games").mkdir(parents=True)
    return folder


def test_the_key_and_its_folders_are_flushed_to_disk_when_made(tmp_path, monkeypatch):
    synced = []
    real = os.fsync

    def fsync(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        return real(fd)

    monkeypatch.setattr(device_key.os, "fsync", fsync)
    path = tmp_path / "new" / "config" / "device.key"
    key = load_or_create_key(path)
    assert len(key) == KEY_BYTES and path.read_bytes() == key
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert str(path.parent) in synced  # the folder holding the new name
    assert str(tmp_path / "new") in synced and str(tmp_path) in synced  # the folders made for it
    assert any(p.startswith(str(path.parent / ".device.key.")) for p in synced)  # the file's bytes
    assert sorted(p.name for p in path.parent.iterdir()) == ["device.key"]  # no temporary left


def test_a_missing_key_is_not_replaced_while_games_exist(data):
    key = load_or_create_key()
    Game.create(data / "games" / "sunday.db", "fr", ["Ann", "Bob"], key=key).close()
    default_key_path().unlink()
    with pytest.raises(LedgerError, match="restore") as caught:
        load_or_create_key(data=data)
    assert caught.value.code == "key_missing" and not default_key_path().exists()
    before = hashes(data)
    result = banquier("replay", "terminal/examples/recorded/game-us-random-3p-100.jsonl")
    assert result.returncode == 3 and one_line_error(result) and "banquier key new" in result.stderr
    assert not default_key_path().exists() and hashes(data) == before


@pytest.mark.slow  # over 0.5 s: in the full run, not the quick one
def test_key_new_only_when_asked_and_old_games_read_as_unverified(data):
    key = load_or_create_key()
    Game.create(data / "games" / "sunday.db", "fr", ["Ann", "Bob"], key=key).close()
    result = banquier("key", "new")
    assert result.returncode == 2 and "never replaced" in result.stderr and default_key_path().read_bytes() == key
    default_key_path().write_bytes(b"short")  # damaged
    result = banquier("key", "new")
    assert result.returncode == 2 and "--force" in result.stderr
    result = banquier("key", "new", "--force")
    assert result.returncode == 0, result.stderr
    assert default_key_path().read_bytes() != key and len(default_key_path().read_bytes()) == KEY_BYTES
    assert (default_key_path().parent / "device.key.damaged-1").read_bytes() == b"short"  # kept
    listing = banquier("games", "list")
    assert "UNVERIFIED" in listing.stdout and "sunday" in listing.stdout


def test_new_key_in_a_fresh_install(tmp_path):
    path = new_key(tmp_path / "k" / "device.key", data=tmp_path / "nothing")
    assert len(path.read_bytes()) == KEY_BYTES
