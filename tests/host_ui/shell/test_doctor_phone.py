"""``banquier doctor``'s ``phone`` line (issue 29): off is a warning (the device's default: nothing is served);
on, the links the page published and a GET of the first link's state.json answering 200 on loopback, with the
device's token. A stand-in page (http.server on 127.0.0.1, answering the token's path only) plays the page here."""
from __future__ import annotations

import http.server
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from host_ui.phone import access
from host_ui.phone.check import check_phone
from host_ui.shell.config import parse_config
from host_ui.shell.doctor import run_checks
from tests.cli_env import clean_env


@pytest.fixture
def folders(tmp_path):
    data, runtime = tmp_path / "data", tmp_path / "run"
    data.mkdir()
    return parse_config({"storage": {"data_dir": str(data)}}), data, runtime


@pytest.fixture
def page(folders):
    """A stand-in page on 127.0.0.1 (a free port): 200 for /t/TOKEN/state.json with the data folder's current
    token, 404 for anything else; yields its port."""
    _, data, _ = folders

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            ok = self.path == f"/t/{access.read_token(data)}/state.json"
            self.send_response(200 if ok else 404)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b"{}" if ok else b"")

        def log_message(self, *args):
            pass
    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_off_is_a_warning(folders):
    config, _data, runtime = folders
    [line] = check_phone(config, runtime=runtime)
    assert (line.name, line.status) == ("phone", "warn")
    assert "off" in line.what and "banquier phone on" in line.fix


def test_on_without_links_fails_naming_the_service(folders):
    config, data, runtime = folders
    access.token(data)
    access.set_on(data, True)
    [line] = check_phone(config, runtime=runtime, device=True)
    assert line.status == "fail" and "publishes no link" in line.what and "systemctl restart banquier-phone" in line.fix


def test_on_a_pc_the_fix_is_the_simulators_page(folders):
    """No page unit on a PC: the fix names the simulator (which runs the page), not systemctl."""
    config, data, runtime = folders
    access.token(data)
    access.set_on(data, True)
    [line] = check_phone(config, runtime=runtime, device=False)
    assert line.status == "fail" and "systemctl" not in line.fix
    assert "banquier sim" in line.fix and str(runtime / "sim-page.log") in line.fix


def test_on_and_answering_on_loopback(folders, page):
    config, data, runtime = folders
    access.set_on(data, True)
    links = [access.page_url("192.168.1.20", page, access.token(data)), access.page_url("fe80::1", page,
                                                                                       access.token(data))]
    access.publish_links(runtime, links)
    [line] = check_phone(config, runtime=runtime)
    assert line.status == "ok", line
    assert links[0] in line.what and links[1] in line.what and f"port {page}" in line.what
    # renewed since the page published: the check asks with the data folder's token, as the terminal shows it
    access.renew_token(data)
    assert check_phone(config, runtime=runtime)[0].status == "ok"


def test_a_page_that_does_not_answer_200_fails(folders, page):
    config, data, runtime = folders
    access.set_on(data, True)
    access.publish_links(runtime, [access.page_url("192.168.1.20", page, access.token(data))])
    [line] = check_phone(config, runtime=runtime, get=lambda host, port, path: 500)
    assert line.status == "fail" and "127.0.0.1: HTTP 500" in line.what
    nobody = [access.page_url("192.168.1.20", 1, access.token(data))]  # port 1: nothing listens
    access.publish_links(runtime, nobody)
    [line] = check_phone(config, runtime=runtime)
    assert line.status == "fail" and "does not answer on loopback" in line.what


def test_run_checks_puts_the_line_last_and_survives_a_broken_check(folders):
    config, *_ = folders

    def broken(config):
        raise RuntimeError("boom")
    checks = run_checks(config, probe_hardware=False, phone=broken)
    assert (checks[-1].name, checks[-1].status) == ("phone", "fail") and "boom" in checks[-1].what
    assert run_checks(config, probe_hardware=False)[-1].name != "phone"


def test_banquier_doctor_prints_the_phone_line(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    result = subprocess.run([str(Path(sys.executable).with_name("banquier")), "doctor", "--no-probe"],
                            env=clean_env({"BANQUIER_DATA_DIR": str(data),
                                           "BANQUIER_PHONE_RUNTIME": str(tmp_path / "run")}),
                            capture_output=True, text=True, timeout=120)
    lines = [line for line in result.stdout.splitlines() if line.split()[1:2] == ["phone"]]
    assert lines and lines[0].startswith("WARN") and "phone page is off" in lines[0], result.stdout
