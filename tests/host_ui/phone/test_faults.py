"""The page's faults a newcomer found (issue 29's follow-up), each over the real thing: a published link's liveness
across a SIGKILL, two servers on one machine, a renewed token and a switch-off seen by the connected phones, a stop
with phones connected, bad requests in the log, the page's words in its language."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

from host_ui.phone import access
from tests.cli_env import clean_env
from tests.host_ui.phone.conftest import start_server, stop_server

LINK = "http://192.168.1.9:8737/t/" + "A" * 22 + "/"


def holder(folder: Path, link: str = LINK) -> subprocess.Popen[str]:
    """A child process that publishes ``link`` in ``folder`` and holds it until killed (SIGTERM: withdrawn)."""
    code = textwrap.dedent(f"""
        import signal, sys, time
        from pathlib import Path
        from host_ui.phone import access
        held = access.publish_links(Path({str(folder)!r}), [{link!r}])
        signal.signal(signal.SIGTERM, lambda *_: (held.withdraw(), sys.exit(0)))
        print("published", flush=True)
        while True:
            time.sleep(1)
        """)
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                             env=clean_env({}), cwd=Path(__file__).resolve().parents[3])
    assert child.stdout is not None and child.stdout.readline().strip() == "published"
    return child


def test_the_links_of_a_page_killed_by_sigkill_are_not_read(tmp_path):
    child = holder(tmp_path)
    try:
        assert access.read_links(tmp_path) == [LINK]
        assert access.read_links(tmp_path) == [LINK]  # reading takes nothing away
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(5)
    assert (tmp_path / access.LINKS_FILE).exists()  # left behind, as after kill -9 ...
    assert access.read_links(tmp_path) == []  # ... but nobody holds it: no link of a dead page
    before = sorted(p.name for p in tmp_path.iterdir())
    assert access.read_links(tmp_path) == [] and sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_file_nobody_holds_is_not_read_and_reading_never_raises(tmp_path):
    (tmp_path / access.LINKS_FILE).write_text(LINK + "\n")
    assert access.read_links(tmp_path) == []
    (tmp_path / access.LINKS_FILE).unlink()
    (tmp_path / access.LINKS_FILE).mkdir()
    assert access.read_links(tmp_path) == []
    assert access.read_links(tmp_path / "missing") == []


def test_a_stopping_page_leaves_the_other_pages_links(tmp_path):
    mine = access.publish_links(tmp_path, ["http://10.0.0.1:1/t/x/"])
    other = holder(tmp_path)  # a second server on the machine publishes over ours
    try:
        assert access.read_links(tmp_path) == [LINK]
        mine.withdraw()  # ours stops: the file is the other's now
        assert access.read_links(tmp_path) == [LINK]
        other.terminate()
        other.wait(5)
        assert not (tmp_path / access.LINKS_FILE).exists()
    finally:
        other.kill()
        other.wait(5)


def test_withdrawn_links_go_and_a_new_publication_replaces_the_last(tmp_path):
    first = access.publish_links(tmp_path, ["http://a/"])
    second = access.publish_links(tmp_path, ["http://b/"])
    assert not first.held and access.read_links(tmp_path) == ["http://b/"]
    first.withdraw()  # already replaced: changes nothing
    assert access.read_links(tmp_path) == ["http://b/"]
    second.withdraw()
    assert access.read_links(tmp_path) == [] and not (tmp_path / access.LINKS_FILE).exists()
    assert [p.name for p in tmp_path.iterdir()] == []  # no temporary file left


def events(served, tok: str | None = None) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", served.port), timeout=5)
    s.sendall(f"GET /t/{tok or served.table.token}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return s


def read_until(s: socket.socket, marker: bytes, seconds: float) -> tuple[bytes, float]:
    """What the stream sent until ``marker`` (and the stream's end after it, if it comes at once); the time it took."""
    t0 = time.monotonic()
    got = b""
    while marker not in got:
        s.settimeout(max(0.01, t0 + seconds - time.monotonic()))
        chunk = s.recv(4096)
        assert chunk, f"the stream closed before {marker!r}: {got!r}"
        got += chunk
    return got, time.monotonic() - t0


def closed(s: socket.socket, seconds: float = 2, got: bytes = b"") -> bool:
    """Whether the stream ends (the chunked body's last chunk, or the connection closed) within ``seconds``;
    ``got``: what was read of it already."""
    if got.endswith(b"0\r\n\r\n"):
        return True
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        s.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = s.recv(4096)
        except TimeoutError:
            return False
        if not chunk or (got + chunk).endswith(b"0\r\n\r\n"):
            return True
        got += chunk
    return False


def test_a_renewed_token_ends_the_old_streams_with_a_final_event(table, tmp_path):
    served = start_server(table, tmp_path / "rt")
    try:
        s = events(served)
        read_until(s, b"event: state", 5)
        access.renew_token(table.data)
        got, took = read_until(s, b"event: end\ndata: replaced\n\n", 3)
        assert took < 1.5, took
        assert closed(s, got=got)
        s.close()
        deadline = time.monotonic() + 3  # and the links published carry the new token
        while access.token(table.data) not in "".join(access.read_links(served.runtime)):
            assert time.monotonic() < deadline, access.read_links(served.runtime)
            time.sleep(0.1)
    finally:
        out = stop_server(served)
    assert "Traceback" not in out, out


def test_a_switch_off_ends_the_streams_with_a_final_event(table, tmp_path):
    served = start_server(table, tmp_path / "rt")
    try:
        s = events(served)
        read_until(s, b"event: state", 5)
        access.set_on(table.data, False)
        got, _ = read_until(s, b"event: end\ndata: off\n\n", 3)
        assert closed(s, got=got)
        s.close()
    finally:
        out = stop_server(served)
    assert "Traceback" not in out and "CancelledError" not in out, out


def test_a_stop_with_phones_connected_logs_no_traceback(table, tmp_path):
    served = start_server(table, tmp_path / "rt")
    streams = [events(served) for _ in range(6)]
    try:
        for s in streams:
            read_until(s, b"event: state", 5)
        out = stop_server(served)
    finally:
        for s in streams:
            s.close()
    assert served.process.returncode == 0, out
    assert "Traceback" not in out and "CancelledError" not in out and "Cancel " not in out, out
    assert len(out.splitlines()) <= 3, out  # listening, stopped listening, at most one more


def test_the_streams_send_a_keep_alive_event_the_page_can_see(table, tmp_path):
    served = start_server_with(table, tmp_path, {"BANQUIER_PHONE_KEEPALIVE": "0.5"})
    try:
        s = events(served)
        read_until(s, b"event: hello\ndata: 0.5\n\n", 5)
        _got, took = read_until(s, b"event: alive\n", 2)
        assert took < 1.5
        s.close()
    finally:
        stop_server(served)


def start_server_with(table, tmp_path, env: dict[str, str]):
    from tests.host_ui.phone import conftest
    real = conftest.clean_env
    conftest.clean_env = lambda extra: real({**extra, **env})
    try:
        return start_server(table, tmp_path / "rt")
    finally:
        conftest.clean_env = real


def test_bad_requests_log_at_most_a_line_a_minute(table, tmp_path):
    served = start_server(table, tmp_path / "rt")
    try:
        for _ in range(200):
            with socket.create_connection(("127.0.0.1", served.port), timeout=5) as s:
                s.sendall(b"\x16\x03\x01 not http\r\n\r\n")
                s.settimeout(5)
                while s.recv(4096):
                    pass
    finally:
        out = stop_server(served)
    lines = [line for line in out.splitlines() if "Invalid HTTP request" in line]
    assert len(lines) == 1, out[:2000]


def test_the_bad_request_line_says_how_many_were_dropped():
    import logging

    from host_ui.phone.server import BadRequestsFilter
    now = [0.0]
    f = BadRequestsFilter(60, clock=lambda: now[0])

    def record(msg: str) -> logging.LogRecord:
        return logging.LogRecord("uvicorn.error", logging.WARNING, "", 0, msg, (), None)
    passed = [f.filter(record("Invalid HTTP request received.")) for _ in range(5000)]
    assert passed.count(True) == 1 and f.filter(record("something else"))
    now[0] = 61
    again = record("Invalid HTTP request received.")
    assert f.filter(again) and "4999 more" in again.getMessage()


def test_the_page_speaks_its_language_for_the_edition_and_its_title(table, tmp_path):
    served = start_server(table, tmp_path / "rt")
    try:
        docs = {}
        for lang in ("fr", "en", "uk"):
            with urllib.request.urlopen(served.base + f"state.json?lang={lang}", timeout=5) as r:
                docs[lang] = json.loads(r.read())
    finally:
        stop_server(served)
    assert docs["fr"]["edition"] == "Monopoly France (euros)"
    assert docs["en"]["edition"] == "Monopoly France (euros)" and "édition" not in docs["en"]["edition"]
    assert docs["uk"]["edition"] == "Monopoly Франція (євро)"
    assert docs["fr"]["words"]["title"] == "Banquier — la partie"
    assert docs["en"]["words"]["title"] == "Banquier — the game"
    assert docs["uk"]["words"]["title"] == "Банкір — гра"
    for lang in ("fr", "en", "uk"):
        assert docs[lang]["words"]["title"] not in ("Téléphones", "Phones", "Телефони")
        assert docs[lang]["words"]["replaced"] != "replaced" and docs[lang]["words"]["switched_off"] != "switched_off"
    assert os.environ.get("BANQUIER_PHONE_KEEPALIVE") is None


def test_a_server_on_every_address_publishes_the_machines_unique_local_ipv6(table, tmp_path):
    import pytest

    from host_ui.phone.server import _primary_ipv4, ipv6_addresses
    ula = ipv6_addresses()
    if not ula:
        pytest.skip("this machine has no unique-local IPv6 address")
    served = start_server_with_hosts(table, tmp_path, ["0.0.0.0", "::"])
    try:
        links = access.read_links(served.runtime)
    finally:
        stop_server(served)
    assert access.page_url(ula[0], served.port, table.token) in links, links
    primary = _primary_ipv4()
    if primary is None or not access.allowed_client(primary):  # as on this machine: its IPv4 is public
        assert links[0] == access.page_url(ula[0], served.port, table.token), links


def start_server_with_hosts(table, tmp_path, hosts: list[str]):
    from tests.host_ui.phone.conftest import Served, free_port, wait_listening
    port = free_port()
    args = [a for h in hosts for a in ("--host", h)]
    process = subprocess.Popen([sys.executable, "-m", "host_ui", "phone", "serve", *args, "--port", str(port)],
                               env=clean_env({"BANQUIER_PHONE_RUNTIME": str(tmp_path / "rt")}),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wait_listening(port)
    deadline = time.monotonic() + 5
    while not access.read_links(tmp_path / "rt") and time.monotonic() < deadline:
        time.sleep(0.05)
    return Served(table, port, process, tmp_path / "rt")
