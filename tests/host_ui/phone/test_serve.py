"""``banquier phone serve`` as users run it (a subprocess, a clean environment), over raw sockets: malformed and
oversized requests, path tricks, slow clients, garbage (hypothesis), the events of a commit and an undo, the
switch."""
from __future__ import annotations

import json
import socket
import time
import urllib.request

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host_ui.phone import access
from tests.host_ui.phone.conftest import free_port, start_server, stop_server


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    import os

    from tests.host_ui.phone.conftest import make_table
    base = tmp_path_factory.mktemp("phone-shared")
    os.environ["BANQUIER_DATA_DIR"], key_before = str(base / "data"), os.environ.get("BANQUIER_KEY_FILE")
    os.environ["BANQUIER_KEY_FILE"] = str(base / "device.key")
    table = make_table(base / "data")
    served = start_server(table, base / "runtime")
    try:
        yield served
    finally:
        stop_server(served)
        if key_before is not None:
            os.environ["BANQUIER_KEY_FILE"] = key_before


def raw(port: int, data: bytes, timeout: float = 5.0, half_close: bool = True) -> bytes:
    """Send ``data`` and read until the server closes or ``timeout``; returns what it answered."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(data)
            if half_close:
                s.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
        except (TimeoutError, ConnectionResetError):
            pass
        return out


def status(answer: bytes) -> int | None:
    if not answer.startswith(b"HTTP/1."):
        return None
    return int(answer.split(b" ", 2)[1])


def alive(served) -> None:
    assert served.process.poll() is None, "the server died"
    with urllib.request.urlopen(served.base + "state.json", timeout=5) as r:
        assert r.status == 200


@pytest.mark.parametrize("method", ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT",
                                    "get", "FOO", "M-SEARCH"])
@pytest.mark.parametrize("route", ["", "state.json", "app.js", "style.css", "icon.svg", "events"])
def test_every_route_and_method_over_the_wire(shared, method, route):
    served = shared
    target = f"/t/{served.table.token}/{route}" if method != "CONNECT" else f"127.0.0.1:{served.port}"
    answer = raw(served.port, f"{method} {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode(),
                 timeout=1 if route == "events" else 5, half_close=route != "events")
    code = status(answer)
    if method in ("GET", "HEAD") and method != "get":
        assert code == 200
    elif method == "CONNECT":
        assert code in (400, 404, 405)
    else:
        assert code in (400, 405), answer[:200]


@pytest.mark.parametrize("target", [
    "/", "/t/", "/t/{tok}", "/t//{tok}/", "/t/{tok}//", "/t/{tok}x/", "/t/{TOK}/", "/T/{tok}/", "/t/{tok}/..",
    "/t/{tok}/../{tok}/state.json", "/t/{tok}/%2e%2e/%2e%2e/etc/passwd", "/t/{tok}/%2E%2E/", "/t/%2e%2e/{tok}/",
    "/t/{tok}/state.json%00", "/t/{tok}%2f", "/t/{tok}/./state.json", "/t/{tok}/app.js/..", "/t/{tok}/page/app.js",
    "/t/{tok}/..%2fapp.js", "/t/{tok}/%252e%252e/", "//t/{tok}/", "/t/{tok}/state.json/", "/t/{tok}/events/",
    "/t/{tok}/index.html", "/t/{tok}/server.py", "/t/{tok}/__init__.py", "/t/{tok}/%ff", "http://evil/t/{tok}x/"])
def test_path_tricks_are_not_found(shared, target):
    served = shared
    tok = served.table.token
    line = target.format(tok=tok, TOK=tok.swapcase())
    answer = raw(served.port, f"GET {line} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    assert status(answer) in (400, 404), (line, answer[:100])
    alive(served)


@pytest.mark.parametrize("request_bytes", [
    b"", b"\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", b"GET /  HTTP/1.1\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", b"GET / HTTP/1.1\r\n: nothing\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost x\r\n\r\n", b"GET / HTTP/1.1\nHost: x\n\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
    b"GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", b"GET / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
    b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nabc",
    b"GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", b"\x00" * 100, b"\xff\xfe" * 50,
    b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\n\r\n", b"GET / HTTP/1.1\r\nX: " + b"b" * 20000 + b"\r\n\r\n",
    b"GET / HTTP/1.1\r\n" + b"X-A: 1\r\n" * 3000 + b"\r\n", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    b"GET / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nHost: x\r\n\r\n",
    b"GET /t/%zz/ HTTP/1.1\r\nHost: x\r\n\r\n", b"GET \xc3\xa9 HTTP/1.1\r\n\r\n"])
def test_malformed_and_oversized_requests_get_a_4xx_or_a_close(shared, request_bytes):
    served = shared
    answer = raw(served.port, request_bytes)
    code = status(answer)
    assert code is None or 400 <= code < 500, answer[:200]
    alive(served)


def test_oversized_headers_under_the_token_are_refused(served):
    line = f"GET /t/{served.table.token}/state.json HTTP/1.1\r\nHost: x\r\nX: {'c' * 10000}\r\n\r\n"
    assert status(raw(served.port, line.encode())) in (400, 431)
    alive(served)


def test_a_body_on_a_get_changes_nothing(served):
    before = served.table.game.read_bytes()
    body = b'{"op": "bank_pays", "player": "Anne", "amount": 1000}'
    answer = raw(served.port, f"POST /t/{served.table.token}/state.json HTTP/1.1\r\nHost: x\r\nContent-Length: "
                              f"{len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
    assert status(answer) == 405
    assert served.table.game.read_bytes() == before


def test_many_slow_connections_leave_the_state_served(served):
    slow = []
    try:
        for i in range(150):
            try:
                s = socket.create_connection(("127.0.0.1", served.port), timeout=2)
            except OSError:
                continue
            s.sendall(b"GET /t/" + served.table.token.encode()[: i % 20] )
            slow.append(s)
        started = time.monotonic()
        for _ in range(5):
            with urllib.request.urlopen(served.base + "state.json", timeout=5) as r:
                assert r.status == 200 and json.loads(r.read())["game"] == "sunday"
        assert time.monotonic() - started < 5
        for s in slow[:50]:  # they keep trickling: still served
            try:
                s.sendall(b"x")
            except OSError:
                pass
        alive(served)
    finally:
        for s in slow:
            s.close()


@pytest.mark.slow
def test_a_slow_client_is_closed_after_the_request_timeout(served):
    from host_ui.phone.server import REQUEST_TIMEOUT
    s = socket.create_connection(("127.0.0.1", served.port), timeout=1)
    started = time.monotonic()
    s.sendall(b"GET /t/")
    closed_at = None
    while time.monotonic() - started < REQUEST_TIMEOUT * 3:
        try:
            s.sendall(b"a")  # one byte a second: never a whole request
            if s.recv(100) == b"":
                closed_at = time.monotonic()
                break
        except TimeoutError:
            continue
        except OSError:
            closed_at = time.monotonic()
            break
    s.close()
    assert closed_at is not None and closed_at - started < REQUEST_TIMEOUT * 2 + 1


def test_event_streams_are_capped_and_the_state_still_served(served):
    from host_ui.phone.server import MAX_EVENT_CLIENTS
    streams = []
    try:
        for _ in range(MAX_EVENT_CLIENTS):
            s = socket.create_connection(("127.0.0.1", served.port), timeout=5)
            s.sendall(f"GET /t/{served.table.token}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert s.recv(12).startswith(b"HTTP/1.1 200")
            streams.append(s)
        answer = raw(served.port, f"GET /t/{served.table.token}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode(),
                     timeout=3, half_close=False)
        assert status(answer) == 503 and b"retry-after: 10" in answer.lower()
        alive(served)
    finally:
        for s in streams:
            s.close()
    time.sleep(0.5)
    answer = raw(served.port, f"GET /t/{served.table.token}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode(),
                 timeout=1, half_close=False)
    assert status(answer) == 200  # the closed streams gave their places back


garbage_line = st.one_of(
    st.binary(max_size=300),
    st.builds(lambda m, p, v: f"{m} {p} {v}\r\n".encode("utf-8", "surrogateescape"),
              st.text(st.characters(codec="latin-1"), max_size=12), st.text(max_size=60),
              st.sampled_from(["HTTP/1.1", "HTTP/1.0", "HTTP/2", "", "HTTP/1.1 x"])))
garbage_headers = st.lists(st.tuples(st.text(max_size=20), st.text(max_size=60)), max_size=6)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=garbage_line, headers=garbage_headers, tail=st.binary(max_size=50))
def test_garbage_gets_a_4xx_or_a_close_never_a_5xx(shared, line, headers, tail):
    data = line + b"".join(f"{k}: {v}\r\n".encode("utf-8", "surrogateescape") for k, v in headers) + b"\r\n" + tail
    answer = raw(shared.port, data, timeout=3)
    for code in [int(m.split(b" ", 2)[1]) for m in answer.split(b"\r\n") if m.startswith(b"HTTP/1.") and
                 len(m.split(b" ")) > 1 and m.split(b" ")[1].isdigit()]:
        assert code < 500, answer[:300]
    assert shared.process.poll() is None


def read_events(served, count: int, timeout: float):
    s = socket.create_connection(("127.0.0.1", served.port), timeout=timeout)
    s.sendall(f"GET /t/{served.table.token}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return s


def next_event(s, buffer: list[bytes], deadline: float) -> str:
    while True:
        joined = b"".join(buffer)
        if b"event: state\ndata: " in joined:
            _head, _, rest = joined.partition(b"event: state\ndata: ")
            value, _, after = rest.partition(b"\n\n")
            if _:
                buffer[:] = [after]
                return value.decode()
        s.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = s.recv(4096)
        assert chunk, "the stream closed"
        buffer.append(chunk)


def cash_shown(served) -> dict[str, int]:
    with urllib.request.urlopen(served.base + "state.json", timeout=5) as r:
        return {p["name"]: p["cash"] for p in json.loads(r.read())["players"]}


def shown_within(served, s, buffer, game, seconds: float) -> float:
    """Wait for events until the page's state shows the game's cash; the seconds it took."""
    t0 = time.monotonic()
    want = {p: game.cash(p) for p in game.players}
    while cash_shown(served) != want:
        next_event(s, buffer, t0 + seconds)
    return time.monotonic() - t0


def test_a_commit_and_an_undo_each_send_an_event_within_a_second(served):
    game = served.table.open()
    s = read_events(served, 3, 5)
    buffer: list[bytes] = []
    try:
        next_event(s, buffer, time.monotonic() + 5)
        time.sleep(0.6)  # what opening the game wrote is seen
        game.bank_pays("Chloé", 200)
        assert shown_within(served, s, buffer, game, 1.5) < 1.0
        assert cash_shown(served)["Chloé"] == 1700
        game.undo()
        assert shown_within(served, s, buffer, game, 1.5) < 1.0
        assert cash_shown(served)["Chloé"] == 1500
    finally:
        game.close()
        s.close()


def test_a_new_game_is_followed(served):
    from host_ui.shell.device_key import load_key
    from host_ui.shell.manage import set_current
    from terminal.bank.game import Game
    path = served.table.data / "games" / "monday.db"
    Game.create(path, "fr", ("Zoé", "Yann"), key=load_key(served.table.key_file)).close()
    set_current(served.table.data, path)
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        with urllib.request.urlopen(served.base + "state.json", timeout=5) as r:
            doc = json.loads(r.read())
        if doc["game"] == "monday":
            break
        time.sleep(0.1)
    assert doc["game"] == "monday" and [p["name"] for p in doc["players"]] == ["Zoé", "Yann"]


def test_switched_off_nothing_listens_and_the_links_go(served):
    links = access.read_links(served.runtime)
    assert links and links[0] == f"http://127.0.0.1:{served.port}/t/{served.table.token}/"
    access.set_on(served.table.data, False)
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", served.port), timeout=0.3).close()
        except OSError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("still listening 3 s after the switch went off")
    assert access.read_links(served.runtime) == []
    access.set_on(served.table.data, True)
    from tests.host_ui.phone.conftest import wait_listening
    wait_listening(served.port, 5)
    alive(served)


def test_off_from_the_start_nothing_listens(table, tmp_path):
    access.set_on(table.data, False)
    import subprocess
    import sys

    from tests.cli_env import clean_env
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "host_ui", "phone", "serve", "--host", "127.0.0.1", "--port",
                                str(port)], env=clean_env({"BANQUIER_PHONE_RUNTIME": str(tmp_path / "rt")}),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        time.sleep(2)
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        assert access.read_links(tmp_path / "rt") == []
    finally:
        process.terminate()
        out, _ = process.communicate(timeout=10)
    assert process.returncode == 0, out


def test_sigterm_stops_it_and_removes_its_links(table, tmp_path):
    served = start_server(table, tmp_path / "rt")
    assert access.read_links(tmp_path / "rt")
    out = stop_server(served)
    assert served.process.returncode == 0, out
    assert access.read_links(tmp_path / "rt") == []
    assert "Traceback" not in out
