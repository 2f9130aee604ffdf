"""The phone page's app in this process (httpx's ASGI transport): every route with every method, the token, the
client's network, what a response may hold, and the state it shows against the game's own."""
from __future__ import annotations

import asyncio
import hashlib
import json
import os
from pathlib import Path

import httpx
import pytest

from host_ui.phone import access
from host_ui.phone.server import ASSETS, Hub, wrapped
from host_ui.phone.state import GROUP_COLOURS, PLAYER_COLOURS, localized, read_public

METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PROPFIND", "FOO",
           "M-SEARCH"]
ROUTES = ["", "state.json", "state.json?lang=en", *[n for n in ASSETS if n != "index.html"]]


def run(coro):
    return asyncio.run(coro)


_HUBS: dict[Path, Hub] = {}


def client_for(table, host: str = "127.0.0.1", *, shared: bool = False) -> tuple[httpx.AsyncClient, Hub]:
    hub = _HUBS.get(table.data) if shared else None
    if hub is None:
        hub = Hub(table.data, table.key_file)
        hub.publish(hub.read())
        if shared:
            _HUBS[table.data] = hub
    app = wrapped(hub, table.data, "fr")
    transport = httpx.ASGITransport(app=app, client=(host, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://table"), hub


async def request(table, method: str, path: str, host: str = "127.0.0.1", *, shared: bool = False
                  ) -> httpx.Response:
    client, _hub = client_for(table, host, shared=shared)
    async with client:
        return await client.request(method, path)


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("method", METHODS)
def test_every_route_answers_get_and_head_only(shared_table, route, method):
    table = shared_table
    response = run(request(table, method, f"/t/{table.token}/{route}", shared=True))
    if method in ("GET", "HEAD"):
        assert response.status_code == 200
        assert response.headers["referrer-policy"] == "no-referrer"
        assert "default-src 'none'" in response.headers["content-security-policy"]
        if method == "HEAD":
            assert response.content == b""
    else:
        assert response.status_code == 405
        assert response.headers["allow"] == "GET, HEAD"


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("path", ["/", "/t/", "/t//", "/state.json", "/t/{bad}/", "/t/{bad}/state.json",
                                  "/t/{tok}x/", "/t/{upper}/", "/t/{tok}", "/t//{tok}/", "/t/{tok}/../state.json",
                                  "/t/{tok}/nope", "/t/{tok}/index.html/", "/t/{tok}//state.json",
                                  "/t/{tok}/state.json/", "/T/{tok}/", "/t/{tok}/%2e%2e/", "/t/{tok}/page/app.js",
                                  "/t/{tok}/../../../etc/passwd", "/t/{tok}/events/x", "/t/{tok}/access.py"])
def test_a_wrong_token_or_path_is_not_found_for_every_method(shared_table, method, path):
    table = shared_table
    bad = "A" * 22 if table.token != "A" * 22 else "B" * 22
    upper = table.token.swapcase()
    response = run(request(table, method, path.format(tok=table.token, bad=bad, upper=upper), shared=True))
    assert response.status_code == 404, path


def test_without_a_token_nothing_is_served(table):
    (table.data / access.TOKEN_FILE).unlink()
    assert run(request(table, "GET", f"/t/{table.token}/")).status_code == 404


def test_a_renewed_token_closes_the_old_links_at_once(table):
    new = access.renew_token(table.data)
    assert run(request(table, "GET", f"/t/{table.token}/state.json")).status_code == 404
    assert run(request(table, "GET", f"/t/{new}/state.json")).status_code == 200


@pytest.mark.parametrize("host", ["8.8.8.8", "100.64.0.1", "2001:db8::1", "172.32.0.1", "169.254.1.1",
                                  "testclient", ""])
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_client_outside_the_table_is_forbidden_before_anything(shared_table, host, method):
    table = shared_table
    for path in (f"/t/{table.token}/", "/t/wrong/", "/"):
        assert run(request(table, method, path, host, shared=True)).status_code == 403


@pytest.mark.parametrize("host", ["127.0.0.1", "10.1.2.3", "172.16.9.9", "192.168.1.20", "::1", "fe80::1",
                                  "fd00::5", "::ffff:192.168.0.2"])
def test_clients_of_the_table_are_served(shared_table, host):
    table = shared_table
    assert run(request(table, "GET", f"/t/{table.token}/state.json", host, shared=True)).status_code == 200


def test_the_state_is_the_games(table):
    response = run(request(table, "GET", f"/t/{table.token}/state.json?lang=en"))
    doc = response.json()
    game = table.open()
    try:
        state = game.state()
        assert doc["game"] == "sunday" and doc["language"] == "en"
        assert {p["name"]: p["cash"] for p in doc["players"]} == state["cash"]
        assert {p["name"]: p["worth"] for p in doc["players"]} == state["worth"]
        assert [p["name"] for p in doc["players"]] == list(game.players)
        owned = {p["name"]: [d["square"] for d in p["deeds"]] for p in doc["players"]}
        assert owned == {"Anne": [1], "Bruno": [3], "Chloé": []}
        assert doc["pot"]["amount"] == state["bank"]["pot"]
        assert doc["standings"] == state["standings"] and doc["over"] is False
        assert doc["last"][0]["seq"] == game.ledger.last_entry()[0]
        assert "Boulevard de Belleville" in doc["last"][0]["text"]
        assert doc["chart"]["points"][-1] == state["worth"]
    finally:
        game.close()


def test_the_state_in_the_three_languages(table):
    words = {}
    for lang in ("fr", "en", "uk"):
        doc = run(request(table, "GET", f"/t/{table.token}/state.json?lang={lang}")).json()
        assert doc["language"] == lang
        assert all(text and not text.startswith("phone_") for text in doc["words"].values())
        words[lang] = doc["words"]["cash"]
    assert words == {"fr": "Argent", "en": "Cash", "uk": "Готівка"}
    # an unknown language: the server's own
    assert run(request(table, "GET", f"/t/{table.token}/state.json?lang=de")).json()["language"] == "fr"


def test_state_is_answered_from_its_etag(table):
    async def go():
        client, _hub = client_for(table)
        async with client:
            first = await client.get(f"/t/{table.token}/state.json")
            again = await client.get(f"/t/{table.token}/state.json",
                                     headers={"if-none-match": first.headers["etag"]})
            return first, again
    first, again = run(go())
    assert first.status_code == 200 and again.status_code == 304 and again.content == b""


def _secrets(table) -> list[bytes]:
    key = Path(os.environ["BANQUIER_KEY_FILE"]).read_bytes()
    return [key, key.hex().encode(), str(table.data).encode(), str(table.game).encode(),
            str(table.key_file).encode(), b"device.key", b"banker_pin", b"pin_hash", b"config.toml", b".db"]


def test_no_response_holds_the_key_the_pin_the_configuration_or_a_path(table):
    for route in ROUTES + ["events-head"]:
        for lang in ("fr", "en", "uk"):
            path = f"/t/{table.token}/{route}" + (f"?lang={lang}" if route == "state.json" else "")
            method = "HEAD" if route == "events-head" else "GET"
            if route == "events-head":
                path = f"/t/{table.token}/events"
            response = run(request(table, method, path))
            blob = response.content + b"".join(k.encode() + v.encode() for k, v in response.headers.items())
            for secret in _secrets(table):
                assert secret not in blob, (route, secret)
    for method in ("GET", "POST"):
        for path in ("/t/wrong/", "/nope", f"/t/{table.token}/nope"):
            blob = run(request(table, method, path)).content
            assert not any(secret in blob for secret in _secrets(table))


def folder_digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() + f"{p.stat().st_mode:o}"
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_reading_leaves_the_data_folder_byte_identical(table):
    before = folder_digest(table.data)
    for lang in ("fr", "en", "uk"):
        localized(read_public(table.game, table.key_file), lang)
    run(request(table, "GET", f"/t/{table.token}/state.json"))
    assert folder_digest(table.data) == before


def test_reading_a_game_in_play_writes_nothing_beside_it(table):
    game = table.open()  # the terminal has it open: its -wal and -shm exist
    try:
        game.bank_pays("Chloé", 50)
        before = folder_digest(table.data)
        public = read_public(table.game, table.key_file)
        assert public.state["cash"]["Chloé"] == game.cash("Chloé")
        assert folder_digest(table.data) == before
    finally:
        game.close()


def test_no_game_says_so(tmp_path):
    from host_ui.phone.state import Public
    doc = localized(Public(), "en")
    assert doc["game"] is None and doc["words"]["no_game"] == "No game in play on the terminal"


def test_the_page_names_no_outside_resource(table):
    for name in ASSETS:
        body = run(request(table, "GET", f"/t/{table.token}/{'' if name == 'index.html' else name}")).text
        assert "http://" not in body.replace("http://www.w3.org/2000/svg", "") and "https://" not in body
        assert "//" not in body.replace("http://www.w3.org/2000/svg", "").replace("// ", "").split("\n")[0] \
            or name != "index.html"


def test_the_colours_are_the_screens(pg):
    from host_ui.screen import theme
    assert dict(GROUP_COLOURS) == theme.GROUP_COLOURS
    assert PLAYER_COLOURS == theme.PLAYER_COLOURS


def test_the_electronic_board_shows_levels(table):
    from host_ui.shell.device_key import load_key
    from terminal.bank.game import Game
    path = table.data / "games" / "ultimate.db"
    game = Game.create(path, "ultimate", ("Anne", "Bruno"), key=load_key(table.key_file))
    try:
        deed = game.edition.deeds()[0].index
        game.buy("Anne", deed)
        game.raise_level("Anne", deed)
    finally:
        game.close()
    doc = localized(read_public(path, table.key_file), "fr")
    assert doc["ultimate"] is True and doc["pot"] is None
    anne = next(p for p in doc["players"] if p["name"] == "Anne")
    assert [(d["square"], d["level"], d["houses"], d["hotel"]) for d in anne["deeds"]] == [(deed, 2, 0, False)]
    json.dumps(doc)


def test_a_time_limited_game_shows_its_time_left_and_the_end_its_standings(table):
    import random

    from host_ui.shell.device_key import load_key
    from terminal.bank.game import Game
    path = table.data / "games" / "timed.db"
    game = Game.create(path, "fr", ("Ann", "Bob"), mode="time_limit", dealt={"Ann": [11, 13], "Bob": [14, 16]},
                       length_minutes=60, key=load_key(table.key_file), rng=random.Random(0))
    game.close()
    doc = localized(read_public(path, table.key_file), "en")
    assert doc["time"]["limit_s"] == 3600 and doc["time"]["left_s"] == 3600 and doc["over"] is False
    game = Game.open(path, key=load_key(table.key_file), background=False)
    try:
        game.end_game()
        standings = game.standings()
    finally:
        game.close()
    doc = localized(read_public(path, table.key_file), "en")
    assert doc["over"] is True and doc["standings"] == standings
    assert doc["words"]["over"] == "The game is over" and doc["words"]["standings"] == "Standings"
