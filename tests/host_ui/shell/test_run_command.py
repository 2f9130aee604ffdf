"""``banquier run`` on a PC: the simulator, whether there is no configuration or one that says ``reader = sim``
in a window (what ``banquier pin set``, the README's way to set the simulator's PIN, leaves); the device's loop
for anything else. And no "ALSA lib ..." lines where there is no sound card.

Through the real command (``.venv/bin/banquier``) in a clean environment (``env -i``: only PATH and HOME), the
windows under Xvfb.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from host_ui import cli
from tests.conftest import KEY

BANQUIER = Path(sys.executable).with_name("banquier")
needs_xvfb = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb (./dev.sh test installs xvfb)")


def _clean_env(home: Path, **more: str) -> dict[str, str]:
    """What ``env -i PATH=... HOME=...`` leaves: no PYTHONUNBUFFERED, no SDL_*, no BANQUIER_*."""
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), **more}


@pytest.fixture
def xvfb():
    """A display on Xvfb (its number picked by Xvfb itself): ``":N"``."""
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        with os.fdopen(read) as f:
            number = f.readline().strip()
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


@needs_xvfb
@pytest.mark.slow  # two subprocesses and a window: about 3 s
def test_after_pin_set_run_starts_the_simulator_not_a_terminal_with_nothing_to_tap(tmp_path, xvfb):
    home = tmp_path / "home"
    config = home / ".config" / "banquier" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("")  # the user's configuration file, as the README says to make it
    env = _clean_env(home)
    done = subprocess.run([str(BANQUIER), "pin", "set", "--stdin"], input="2468\n2468\n", env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "banker_pin_hash" in config.read_text()
    run = subprocess.run([str(BANQUIER), "run", "--seconds", "0.5"], env={**env, "DISPLAY": xvfb},
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    first, *rest = run.stderr.splitlines()
    assert first == (f"banquier: {config} says reader = sim, in a window, and this is no Raspberry Pi: starting "
                     f"the simulator, whose tray holds the cards to tap (`banquier sim --help`).")
    assert "banquier sim: game file" in run.stdout, run.stdout
    assert "terminal running" not in run.stderr  # the device's loop never started
    assert not [line for line in rest if "ALSA" in line], run.stderr  # no sound card here: no mixer


def test_run_gives_the_simulator_the_configuration_and_its_screen(tmp_path, monkeypatch, capsys):
    config = tmp_path / "banquier.toml"
    config.write_text('[display]\nwidth = 480\nheight = 320\nrotation = 90\n')
    seen = {}

    def fake_sim(argv):
        from host_ui.shell.config import load_config
        seen["argv"] = list(argv)
        seen["pin"] = load_config().terminal_settings().banker_pin  # as the simulator reads it
        return 0

    import host_ui.sim
    monkeypatch.setattr(host_ui.sim, "main", fake_sim)
    monkeypatch.setattr(cli, "_on_raspberry_pi", lambda: False)
    monkeypatch.delenv("BANQUIER_CONFIG", raising=False)
    from host_ui.shell.pin import set_pin_in_config
    set_pin_in_config(config, "13579", lambda text: None)
    assert cli.main(["--config", str(config), "run", "--seconds", "2"]) == 0
    assert "starting the simulator" in capsys.readouterr().err
    argv = seen["argv"]
    assert argv[argv.index("--size") + 1] == "480x320" and argv[argv.index("--rotation") + 1] == "90"
    assert argv[argv.index("--seconds") + 1] == "2.0"
    assert seen["pin"] is not None and seen["pin"].matches("13579")  # the PIN of the file given to run


@pytest.mark.parametrize("display", ['output = "kmsdrm"', 'output = "framebuffer"'])
def test_a_device_output_runs_the_device_loop_even_with_the_sim_reader(tmp_path, monkeypatch, display):
    config = tmp_path / "banquier.toml"
    config.write_text(f'[hardware.reader]\nbackend = "sim"\n[display]\n{display}\n')
    started = []
    import host_ui.device
    monkeypatch.setattr(host_ui.device, "run_device", lambda config, **kw: started.append(kw) or 0)
    monkeypatch.setattr(cli, "_on_raspberry_pi", lambda: False)
    monkeypatch.setattr(cli, "cmd_sim", lambda args: pytest.fail("the simulator started"))
    assert cli.main(["--config", str(config), "run", "--seconds", "1"]) == 0
    assert started == [{"headless": False, "max_seconds": 1.0}]


@pytest.mark.slow  # a subprocess running the device's loop for a second
def test_run_prints_no_alsa_lines_without_a_sound_card(tmp_path):
    """Where there is no sound card (CI, a container), the sim beeper does not start SDL's audio: libasound's
    8 lines of "ALSA lib ... cannot find card '0'" are not printed. (With a card, there are none to print.)"""
    data = tmp_path / "data"
    key_file = tmp_path / "device.key"
    key_file.write_bytes(KEY)
    key_file.chmod(0o600)
    config = tmp_path / "config.toml"
    config.write_text(f'[hardware.beeper]\nbackend = "sim"\n[storage]\ndata_dir = "{data}"\nkey_file = "{key_file}"\n')
    done = subprocess.run([str(BANQUIER), "--config", str(config), "run", "--headless", "--seconds", "1"],
                          env=_clean_env(tmp_path / "home"), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "stopped cleanly" in done.stderr
    assert "ALSA" not in done.stderr, done.stderr


@pytest.mark.slow  # a subprocess playing a demo: about 2 s (the in-process demos are in the quick run)
def test_the_simulators_demo_ends_by_saying_its_checks_agreed(tmp_path):
    from tests.conftest import OWN_LOGS
    log = OWN_LOGS / "fr-mortgage.jsonl"
    checks = sum(1 for line in log.read_text(encoding="utf-8").splitlines() if '"expect"' in line)
    done = subprocess.run([str(BANQUIER), "sim", "--headless", "--demo", str(log), "--speed", "inf"],
                          env=_clean_env(tmp_path / "home"), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()
    assert said[0].startswith("banquier sim: fr-mortgage.jsonl: ") and \
        said[0].endswith(f" operations played by taps and {checks} checks of the log: all agree."), said
    assert said[1].startswith("banquier sim: game file ") and done.stderr == ""


def test_run_without_xdg_runtime_dir_prints_no_sdl_warnings(tmp_path):
    """Under `env -i` (no XDG_RUNTIME_DIR) and with no screen, `banquier run` prints its one clear message and
    none of SDL's "XDG_RUNTIME_DIR is invalid or not set" lines: the command gives itself a private folder
    ($TMPDIR/banquier-runtime-UID, mode 0700)."""
    import stat

    from tests.host_ui.shell.helpers import banquier
    result = banquier("run", env={"TMPDIR": str(tmp_path)})
    assert result.returncode == 3 and "no screen here" in result.stderr, result.stderr
    assert "XDG_RUNTIME_DIR" not in result.stderr + result.stdout
    folder = tmp_path / f"banquier-runtime-{os.getuid()}"
    assert folder.is_dir() and stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_the_private_runtime_dir_leaves_a_set_one_and_refuses_a_shared_folder(tmp_path, monkeypatch):
    import tempfile
    assert cli.private_runtime_dir({"XDG_RUNTIME_DIR": "/run/user/1000"}) is None
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    shared = tmp_path / f"banquier-runtime-{os.getuid()}"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    env: dict[str, str] = {}
    assert cli.private_runtime_dir(env) is None and "XDG_RUNTIME_DIR" not in env
    shared.chmod(0o700)
    assert cli.private_runtime_dir(env) == str(shared) and env["XDG_RUNTIME_DIR"] == str(shared)
