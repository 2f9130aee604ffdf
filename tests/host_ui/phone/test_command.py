"""``banquier phone on|off|status|renew`` and the refusals of ``phone serve``, as users run them."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from host_ui.phone import access
from tests.cli_env import clean_env


def banquier(*args: str, runtime: Path | None = None) -> subprocess.CompletedProcess[str]:
    extra = {"BANQUIER_PHONE_RUNTIME": str(runtime)} if runtime else None
    return subprocess.run([sys.executable, "-m", "host_ui", "phone", *args], env=clean_env(extra),
                          capture_output=True, text=True, timeout=60)


def test_on_off_status_renew(tmp_path):
    data = Path(os.environ["BANQUIER_DATA_DIR"])
    data.mkdir(parents=True, exist_ok=True)
    out = banquier("status", runtime=tmp_path / "rt")
    assert out.returncode == 0 and out.stdout.splitlines()[0] == "phone page: off"
    assert "link: none yet" in out.stdout
    out = banquier("on")
    tok = access.read_token(data)
    assert out.returncode == 0 and access.is_on(data) and tok and f"/t/{tok}/" in out.stdout
    access.publish_links(tmp_path / "rt", [f"http://192.168.1.9:8737/t/{tok}/"])
    out = banquier("status", runtime=tmp_path / "rt")
    assert out.stdout.splitlines() == ["phone page: on", f"listening: http://192.168.1.9:8737/t/{tok}/",
                                       f"link: http://localhost:8737/t/{tok}/"]
    out = banquier("renew")
    new = access.read_token(data)
    assert out.returncode == 0 and new != tok and f"/t/{new}/" in out.stdout
    out = banquier("off")
    assert out.returncode == 0 and not access.is_on(data) and out.stdout == "phone page: off\n"
    assert access.read_token(data) == new  # off keeps the token


def test_bad_usage_is_one_line_and_exit_2():
    for args in (("bogus",), ("serve", "--language", "de"), ("serve", "--port", "x")):
        out = banquier(*args)
        assert out.returncode == 2 and "Traceback" not in out.stderr, args
    out = banquier("serve", "--port", "70000")
    assert out.returncode == 2 and out.stderr == "banquier: --port must be 1 to 65535, not 70000.\n"


def test_an_unwritable_data_folder_is_one_line_and_exit_3(tmp_path):
    if os.geteuid() == 0:
        target = tmp_path / "file"
        target.write_text("not a folder")
        out = subprocess.run([sys.executable, "-m", "host_ui", "phone", "on"],
                             env=clean_env({"BANQUIER_DATA_DIR": str(target)}), capture_output=True, text=True,
                             timeout=60)
    else:
        folder = tmp_path / "ro"
        folder.mkdir(mode=0o500)
        out = subprocess.run([sys.executable, "-m", "host_ui", "phone", "on"],
                             env=clean_env({"BANQUIER_DATA_DIR": str(folder)}), capture_output=True, text=True,
                             timeout=60)
    assert out.returncode == 3 and len(out.stderr.splitlines()) == 1 and "nothing was changed" in out.stderr
