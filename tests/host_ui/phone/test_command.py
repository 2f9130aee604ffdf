"""``banquier phone on|off|status|renew`` and the refusals of ``phone serve``, as users run them."""
from __future__ import annotations

import os
import subprocess
import sys
import time
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
                                       f"link: http://192.168.1.9:8737/t/{tok}/"]  # the running page's address
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


def test_serve_without_options_takes_the_configurations_phone_section(table, tmp_path):
    """The unit runs `banquier phone serve` with no option: the address, the port and the language come from
    `[phone]` (listen, port, language); `status` and `on` name that port when nothing is published."""
    import json
    import urllib.request

    from tests.host_ui.phone.conftest import free_port, wait_listening
    port = free_port()
    config = tmp_path / "config.toml"
    config.write_text(f'[phone]\nport = {port}\nlisten = ["127.0.0.1"]\nlanguage = "uk"\n')
    runtime = tmp_path / "rt"
    env = clean_env({"BANQUIER_PHONE_RUNTIME": str(runtime), "BANQUIER_CONFIG": str(config)})
    unpublished = subprocess.run([sys.executable, "-m", "host_ui", "phone", "status"], capture_output=True, text=True,
                                 timeout=60, env=clean_env({"BANQUIER_PHONE_RUNTIME": str(tmp_path / "none"),
                                                            "BANQUIER_CONFIG": str(config)}))
    assert f"link: http://localhost:{port}/t/{table.token}/" in unpublished.stdout
    process = subprocess.Popen([sys.executable, "-m", "host_ui", "phone", "serve"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_listening(port)
        deadline = time.monotonic() + 10
        while not access.read_links(runtime) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert any(f":{port}/t/{table.token}/" in link for link in access.read_links(runtime))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/t/{table.token}/state.json") as answer:
            state = json.load(answer)
        assert state["language"] == "uk", sorted(state)
    finally:
        process.terminate()
        process.communicate(timeout=10)
