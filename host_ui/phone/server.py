"""The phone page's server: a Starlette app under uvicorn, in a process of its own (``banquier phone serve``).

Routes, all under the device's token (:mod:`host_ui.phone.access`), GET and HEAD only:

- ``/t/TOKEN/``: the page (``page/index.html``); ``/t/TOKEN/app.js``, ``/t/TOKEN/style.css``: its assets, held in
  memory from the package's data (no file is ever looked up from a request's path);
- ``/t/TOKEN/state.json?lang=fr|en|uk``: the game's public state (:func:`host_ui.phone.state.localized`);
- ``/t/TOKEN/events``: Server-Sent Events: first ``hello`` (its data: the keep-alive's period, seconds), then one
  ``state`` message (its data: the state's version) on each change of the game (a commit, an undo, a new game),
  within a second, and an ``alive`` message after :data:`KEEP_ALIVE` s without any (the page counts its connection
  lost after about 2.5 periods of silence: a hung server). A final ``end`` message closes the stream when its token
  was replaced (data ``replaced``: seen within :data:`TOKEN_EVERY` s of ``banquier phone renew``) or the page
  switched off (data ``off``); on SIGTERM the streams end without one (the page reconnects by itself). Every
  stream ends before the server stops: no response is cut.

Answers: a client outside the table's networks 403 (:func:`~host_ui.phone.access.allowed_client`, before anything
else), a missing or wrong token 404 for every path and method, another method 405, another path 404.

Bounds: request line and headers 8 KiB (h11; more is 400), at most :data:`MAX_CONNECTIONS` connections (a new one
beyond closes the longest idle one, else is closed), a connection without a complete request for
:data:`REQUEST_TIMEOUT` s is closed (slow clients), one that reads nothing of what it is sent for as long too, at most
:data:`MAX_EVENT_CLIENTS` event streams (503 beyond). One shared watcher looks at the data folder's files
(:func:`~host_ui.phone.state.game_signature`, 4 times a second) and reads the game again only when they changed;
requests are answered from the state it read (the same bytes for everyone, with an ETag).

:func:`serve` runs until SIGTERM or SIGINT: it listens only while the switch is on (looked at twice a second),
publishes its links (:func:`~host_ui.phone.access.publish_links`: held under a lock for as long as it lives) while
it listens, publishes them again when the token changes, and withdraws them (when still its own) when it stops.
uvicorn's "Invalid HTTP request received." is logged at most once a minute, with the count of those left out.
"""
from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import signal
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from cards.editions import LANGUAGES
from host_ui.phone import access
from host_ui.phone.state import Public, current_game, game_signature, localized, read_public

log = logging.getLogger("banquier.phone")

#: The most connections held at once (20 phones use 2 to 6 each).
MAX_CONNECTIONS = 96
#: The most event streams at once.
MAX_EVENT_CLIENTS = 40
#: Seconds a connection may take to send a whole request (or stay idle between two), or leave what it is sent unread.
REQUEST_TIMEOUT = 10.0
#: The request line and headers, in bytes.
MAX_HEAD_BYTES = 8192
#: The most header fields in a request.
MAX_HEADERS = 64
#: Seconds between two looks at the data folder's files.
WATCH_EVERY = 0.25
#: Seconds between two looks at the switch.
SWITCH_EVERY = 0.5
#: Seconds between two keep-alive events on an idle event stream (``$BANQUIER_PHONE_KEEPALIVE`` when set, 0.2 to
#: 60: the tests' short one); the page counts its connection lost after about 2.5 of them without a message.
KEEP_ALIVE = 15.0
#: Seconds between two looks at the token file (a renewed token ends the old token's event streams).
TOKEN_EVERY = 0.5
#: The final events' reasons: the link was replaced (a new token), the page was switched off.
REPLACED, SWITCHED_OFF = "replaced", "off"


def keep_alive_seconds() -> float:
    """:data:`KEEP_ALIVE`, or ``$BANQUIER_PHONE_KEEPALIVE`` (seconds, 0.2 to 60) when set and valid."""
    import os
    with contextlib.suppress(KeyError, ValueError):
        value = float(os.environ["BANQUIER_PHONE_KEEPALIVE"])
        if 0.2 <= value <= 60:
            return value
    return KEEP_ALIVE

#: What every answer carries: nothing is loaded from elsewhere, the token never leaves in a Referer.
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}

#: The page's files (package data of ``host_ui.phone.page``) and their media types.
ASSETS = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
          "style.css": "text/css; charset=utf-8", "icon.svg": "image/svg+xml"}


def load_assets() -> dict[str, bytes]:
    """The page's files, read once from the package."""
    folder = resources.files("host_ui.phone") / "page"
    return {name: (folder / name).read_bytes() for name in ASSETS}


# -- the state, shared by every client ----------------------------------------------------------------------------
@dataclass
class Hub:
    """The state every client is answered from. ``version`` grows by one at each change the watcher sees; ``docs``
    holds the state's JSON bytes by language (made on first request, for this version)."""

    data: Path
    key_path: Path | None
    display: str = "plain"
    version: int = 0
    public: Public = field(default_factory=Public)
    docs: dict[str, bytes] = field(default_factory=dict)
    clients: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    signature: tuple[Any, ...] | None = None
    reads: int = 0
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    #: The token the page serves now (None: none yet); :meth:`watch_token` follows the file.
    token: str | None = None
    #: Set when the event streams must end (:attr:`ending`: why, sent to each page as a final ``end`` event, or
    #: None: the server stops and the page reconnects by itself); a new one for each listening period.
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    ending: str | None = None
    #: Set (and replaced) each time the token changes.
    token_changed: asyncio.Event = field(default_factory=asyncio.Event)
    keep_alive: float = KEEP_ALIVE

    def end_streams(self, reason: str | None) -> None:
        """End every event stream (``reason``: the final event's, or None for none)."""
        self.ending = reason
        self.ended.set()

    def set_token(self, tok: str | None) -> None:
        if tok != self.token:
            self.token = tok
            event, self.token_changed = self.token_changed, asyncio.Event()
            event.set()

    async def watch_token(self) -> None:
        """Read the token file every :data:`TOKEN_EVERY` s: a renewed token ends the old one's streams within it."""
        while True:
            self.set_token(await asyncio.to_thread(access.read_token, self.data))
            await asyncio.sleep(TOKEN_EVERY)

    def read(self) -> Public:
        """Read the current game (in a worker thread: the event loop keeps serving meanwhile)."""
        self.reads += 1
        return read_public(current_game(self.data, self.key_path), self.key_path, self.display)

    def publish(self, public: Public) -> None:
        self.public, self.docs = public, {}
        self.version += 1
        event, self.changed = self.changed, asyncio.Event()
        event.set()
        self.ready.set()

    def doc(self, language: str) -> bytes:
        cached = self.docs.get(language)
        if cached is None:
            body = localized(self.public, language)
            body["version"] = self.version
            cached = self.docs[language] = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
        return cached

    async def watch(self) -> None:
        """Look at the files 4 times a second; read the game again when they changed (and again 2 s after a read
        that failed: a game being written, a damaged one)."""
        failed_at = 0.0
        while True:
            signature = await asyncio.to_thread(game_signature, self.data)
            if signature != self.signature or (failed_at and time.monotonic() - failed_at > 2):
                try:
                    public = await asyncio.to_thread(self.read)
                except Exception as exc:  # a game the page cannot read: it says so, and tries again
                    log.warning("phone page: cannot read the game (%s)", str(exc).splitlines()[0][:200] if str(exc)
                                else type(exc).__name__)
                    failed_at = time.monotonic()
                    if self.version == 0:
                        self.publish(Public())
                else:
                    failed_at = 0.0
                    self.signature = signature
                    if public.game != self.public.game or public.seq != self.public.seq or self.version == 0 \
                            or public.state != self.public.state:
                        self.publish(public)
            await asyncio.sleep(WATCH_EVERY)


# -- the app --------------------------------------------------------------------------------------------------
def _plain(status: int, text: str, headers: dict[str, str] | None = None) -> Response:
    return PlainTextResponse(text + "\n", status_code=status, headers={**SECURITY_HEADERS, **(headers or {})})


class Guard:
    """The ASGI middleware in front of everything: the client's network (403), then the token (404). No path of
    the page is written with a percent sign: one (``%2e%2e``, ``%2f``) is not found."""

    def __init__(self, app: ASGIApp, data: Path) -> None:
        self.app, self.data = app, data

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # a websocket: nothing here speaks it
            await send({"type": "websocket.close", "code": 1008})
            return
        client = scope.get("client")
        if not access.allowed_client(client[0] if client else None):
            await _plain(403, "Forbidden: the page serves the table's network only.")(scope, receive, send)
            return
        head = len(scope.get("raw_path", b"")) + len(scope.get("query_string", b"")) + sum(
            len(k) + len(v) + 4 for k, v in scope.get("headers", []))
        if head > MAX_HEAD_BYTES or len(scope.get("headers", [])) > MAX_HEADERS:  # h11 bounds only a request in parts
            await _plain(431, "Request Header Fields Too Large")(scope, receive, send)
            return
        parts = scope["path"].split("/", 3)
        if (b"%" in scope.get("raw_path", b"%") or len(parts) < 4 or parts[0] != "" or parts[1] != "t"
                or not access.token_matches(self.data, parts[2])):
            await _plain(404, "Not Found")(scope, receive, send)
            return
        await self.app(scope, receive, send)


def make_app(hub: Hub, language: str = "fr", assets: dict[str, bytes] | None = None) -> Starlette:
    """The page's ASGI app answering from ``hub``; ``language``: the state's when the request names none."""
    files = assets if assets is not None else load_assets()

    def asset(name: str) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            return Response(files[name], media_type=ASSETS[name], headers=SECURITY_HEADERS)
        return endpoint

    async def state(request: Request) -> Response:
        if not hub.ready.is_set():  # just started: the first read of the game, not "no game"
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(hub.ready.wait(), 10)
        lang = request.query_params.get("lang", language)
        if lang not in LANGUAGES:
            lang = language
        tag = f'"{hub.version}-{lang}"'
        headers = {**SECURITY_HEADERS, "etag": tag}
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers=headers)
        body = hub.doc(lang)
        return Response(body, media_type="application/json", headers=headers)

    async def events(request: Request) -> Response:
        headers = {**SECURITY_HEADERS, "x-accel-buffering": "no"}
        if request.method == "HEAD":
            return Response(media_type="text/event-stream", headers=headers)
        if hub.clients >= MAX_EVENT_CLIENTS:
            return _plain(503, "Too many pages open: try again later.", {"retry-after": "10"})

        mine = request.path_params.get("token", "")
        ended = hub.ended

        async def stream() -> AsyncIterator[str]:
            hub.clients += 1
            try:
                yield f"retry: 2000\n\nevent: hello\ndata: {hub.keep_alive:g}\n\n"
                seen = -1
                while True:
                    if ended.is_set():
                        if hub.ending:
                            yield f"event: end\ndata: {hub.ending}\n\n"
                        return
                    if hub.token is not None and hub.token != mine:
                        yield f"event: end\ndata: {REPLACED}\n\n"
                        return
                    if hub.version != seen:
                        seen = hub.version
                        yield f"event: state\ndata: {seen}\n\n"
                    waits = [asyncio.ensure_future(e.wait()) for e in (hub.changed, ended, hub.token_changed)]
                    try:
                        done, _ = await asyncio.wait(waits, timeout=hub.keep_alive,
                                                     return_when=asyncio.FIRST_COMPLETED)
                    finally:
                        for w in waits:
                            w.cancel()
                    if not done:
                        yield "event: alive\ndata: \n\n"
            finally:
                hub.clients -= 1
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    routes = [Route("/t/{token}/", asset("index.html"), methods=["GET"]),
              Route("/t/{token}/state.json", state, methods=["GET"]),
              Route("/t/{token}/events", events, methods=["GET"])]
    routes += [Route(f"/t/{{token}}/{name}", asset(name), methods=["GET"]) for name in ASSETS if name != "index.html"]

    async def not_found(request: Request, exc: Exception) -> Response:
        return _plain(404, "Not Found")

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return _plain(405, "Method Not Allowed: the page only reads.", {"allow": "GET, HEAD"})

    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: not_allowed})
    app.router.redirect_slashes = False
    return app


def wrapped(hub: Hub, data: Path, language: str = "fr", assets: dict[str, bytes] | None = None) -> ASGIApp:
    """:func:`make_app` behind :class:`Guard`."""
    return Guard(make_app(hub, language, assets), data)


# -- the connections ----------------------------------------------------------------------------------------------
class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a bound on connections and on slow clients (see the module docstring)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._since = time.monotonic()
        self._seen: object = self.cycle
        self._stuck = False
        if len(self.connections) > MAX_CONNECTIONS and not self._evict_idle():
            transport.abort()
            return
        self._timer = self.loop.call_later(REQUEST_TIMEOUT, self._check)

    def _idle(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _evict_idle(self) -> bool:
        idle = [c for c in self.connections if c is not self and isinstance(c, GuardedH11) and c._idle()]
        if not idle:
            return False
        oldest = min(idle, key=lambda c: c._since)
        oldest.transport.abort()
        self.connections.discard(oldest)
        return True

    def _check(self) -> None:
        if self.transport.is_closing():
            return
        if self._idle() and self.cycle is self._seen:  # no new request for a whole period: a slow or idle client
            self.transport.abort()
            return
        if self.flow.write_paused:  # it reads nothing of what it is sent
            if self._stuck:
                self.transport.abort()
                return
            self._stuck = True
        else:
            self._stuck = False
        self._seen = self.cycle
        self._since = time.monotonic()
        self._timer = self.loop.call_later(REQUEST_TIMEOUT, self._check)

    def connection_lost(self, exc: Exception | None) -> None:
        timer = getattr(self, "_timer", None)
        if timer is not None:
            timer.cancel()
        super().connection_lost(exc)


# -- serving ----------------------------------------------------------------------------------------------------
def listening_sockets(hosts: Sequence[str], port: int) -> list[socket.socket]:
    """Bound, listening sockets for ``hosts`` on ``port`` (an IPv6 one only for IPv6: ``::`` beside
    ``0.0.0.0``). A host that cannot be bound because the system has no IPv6 is left out; another failure
    raises OSError (the port is taken: EADDRINUSE)."""
    out: list[socket.socket] = []
    try:
        for host in hosts:
            family = socket.AF_INET6 if ":" in host else socket.AF_INET
            try:
                sock = socket.socket(family, socket.SOCK_STREAM)
            except OSError as exc:
                if family == socket.AF_INET6 and exc.errno in (errno.EAFNOSUPPORT, errno.EPROTONOSUPPORT):
                    continue
                raise
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind((host, port))
                sock.listen(64)
                sock.setblocking(False)
            except OSError as exc:
                sock.close()
                if family == socket.AF_INET6 and exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
                    continue
                raise
            out.append(sock)
    except BaseException:
        for sock in out:
            sock.close()
        raise
    return out


def _primary_ipv4() -> str | None:
    """The address this machine would reach the local network from (no packet is sent), or None (no route: no
    default gateway, no network)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.254.254.254", 9))
        address: str = probe.getsockname()[0]
        return address
    return None


#: ``SIOCGIFADDR`` (Linux's ``<linux/sockios.h>``): an interface's IPv4 address.
SIOCGIFADDR = 0x8915


def interface_ipv4s() -> list[str]:
    """The IPv4 addresses of the machine's interfaces (one each, in the interfaces' order: ``socket.if_nameindex``
    and the ``SIOCGIFADDR`` ioctl, the standard library only); [] where the system has neither. Never raises."""
    import fcntl
    import struct
    out: list[str] = []
    try:
        names = [name for _index, name in socket.if_nameindex()]
    except (OSError, AttributeError):
        return out
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for name in names:
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:  # no IPv4 address on it
                continue
            out.append(socket.inet_ntoa(answer[20:24]))
    return out


#: Flags of ``/proc/net/if_inet6`` that make an address unfit for a link: tentative, deprecated, failed DAD.
_IFA_UNFIT = 0x40 | 0x20 | 0x08


def ipv6_addresses(table: str = "/proc/net/if_inet6") -> list[str]:
    """The machine's unique-local IPv6 addresses (fc00::/7, RFC 4193), parsed from Linux's ``/proc/net/if_inet6``
    (``table``: its path): neither a link-local address (a link would need its zone, which browsers do not take in
    a URL) nor a tentative, deprecated or failed one. [] where there is no such file (not Linux). Never raises."""
    import ipaddress
    out: list[str] = []
    try:
        text = Path(table).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return out
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 6 or len(fields[0]) != 32:
            continue
        try:
            address = ipaddress.IPv6Address(int(fields[0], 16))
            flags = int(fields[4], 16)
        except ValueError:
            continue
        if flags & _IFA_UNFIT or address not in ipaddress.IPv6Network("fc00::/7"):
            continue
        if str(address) not in out:
            out.append(str(address))
    return out


def page_links(hosts: Sequence[str], port: int, tok: str, primary: Callable[[], str | None] = _primary_ipv4,
               interfaces: Callable[[], list[str]] = interface_ipv4s,
               ipv6: Callable[[], list[str]] = ipv6_addresses) -> list[str]:
    """The links the page is reached at, best first: the machine's private IPv4 address (when it listens on all of
    them: the one it reaches the network from, else, with no route, the first private one of its interfaces), its
    unique-local IPv6 addresses (when it listens on all of those), the addresses it was given (not a link-local
    IPv6 one: a link cannot name its zone), then ``localhost`` (loopback)."""
    def usable(address: str | None) -> bool:
        return bool(address) and access.allowed_client(address) and not str(address).startswith(("127.", "::1")) \
            and not str(address).lower().startswith("fe80")
    addresses: list[str] = []
    if any(h in ("0.0.0.0", "") for h in hosts):
        found = primary()
        if not usable(found):
            found = next((a for a in interfaces() if usable(a)), None)
        if found:
            addresses.append(found)
    if any(h in ("::", "") for h in hosts):
        addresses += [a for a in ipv6() if usable(a)]
    addresses += [h for h in hosts if h not in ("0.0.0.0", "::", "") and access.allowed_client(h)
                  and not h.lower().startswith("fe80")]
    if any(h in ("0.0.0.0", "::", "") or h.startswith("127.") or h == "::1" for h in hosts):
        addresses.append("localhost")
    seen: list[str] = []
    for a in addresses:
        if a not in seen:
            seen.append(a)
    return [access.page_url(a, port, tok) for a in seen]


def uvicorn_config(app: ASGIApp) -> Any:
    import uvicorn
    return uvicorn.Config(app, http=GuardedH11, lifespan="off", ws="none", interface="asgi3", access_log=False,
                          log_level="warning", server_header=False, date_header=True, timeout_keep_alive=5,
                          timeout_graceful_shutdown=1, h11_max_incomplete_event_size=MAX_HEAD_BYTES, backlog=64,
                          proxy_headers=False)


class BadRequestsFilter(logging.Filter):
    """uvicorn's "Invalid HTTP request received." (one line per bad request, ~41 bytes each) let through at most once
    a :data:`BAD_REQUEST_EVERY` s, saying how many were dropped since the last one."""

    def __init__(self, every: float = 0.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.every, self.clock = every or BAD_REQUEST_EVERY, clock
        self.last: float | None = None
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("Invalid HTTP request received"):
            return True
        now = self.clock()
        if self.last is not None and now - self.last < self.every:
            self.dropped += 1
            return False
        if self.dropped:
            record.msg = f"Invalid HTTP request received ({self.dropped} more since the last such line, not logged)."
            record.args = ()
        self.last, self.dropped = now, 0
        return True


#: Seconds between two lines about bad requests.
BAD_REQUEST_EVERY = 60.0


class _Server:
    """A uvicorn server that leaves the signals to :func:`serve`."""

    def __init__(self, app: ASGIApp) -> None:
        import uvicorn

        class Quiet(uvicorn.Server):
            @contextlib.contextmanager
            def capture_signals(self) -> Iterator[None]:
                yield
        self.server = Quiet(uvicorn_config(app))
        uvicorn_log = logging.getLogger("uvicorn.error")
        if not any(isinstance(f, BadRequestsFilter) for f in uvicorn_log.filters):
            uvicorn_log.addFilter(BadRequestsFilter())

    async def run(self, sockets: list[socket.socket]) -> None:
        await self.server.serve(sockets=sockets)

    def stop(self) -> None:
        self.server.should_exit = True


async def serve_async(data: Path, key_path: Path | None, hosts: Sequence[str], port: int, language: str,
                      display: str = "plain", runtime: Path | None = None,
                      stop: asyncio.Event | None = None, say: Callable[[str], None] = print) -> int:
    """What ``banquier phone serve`` does (see the module docstring); returns the exit code (0 after SIGTERM)."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    folder = runtime if runtime is not None else access.runtime_folder()
    hub = Hub(data, key_path, display, keep_alive=keep_alive_seconds())
    app = wrapped(hub, data, language)
    refused_at: str | None = None

    async def pause(seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), seconds)

    try:
        while not stop.is_set():
            if not access.is_on(data):
                await pause(SWITCH_EVERY)
                continue
            try:
                sockets = listening_sockets(hosts, port)
            except OSError as exc:
                line = f"cannot listen on port {port}: {exc.strerror or exc}; trying again every 5 s."
                if line != refused_at:
                    say(f"banquier: {line}")
                    refused_at = line
                await pause(5)
                continue
            refused_at = None
            hub.ended, hub.ending = asyncio.Event(), None
            tok = access.read_token(data)
            hub.set_token(tok)
            watcher = asyncio.create_task(hub.watch())
            token_watcher = asyncio.create_task(hub.watch_token())
            server = _Server(app)
            task = asyncio.create_task(server.run(sockets))
            links = page_links(hosts, port, tok) if tok else []
            held = publish(folder, links, say)
            say(f"phone page: listening on port {port}" + (f": {links[0]}" if links else " (no token yet)"))
            while not stop.is_set() and not task.done() and access.is_on(data):
                await pause(SWITCH_EVERY)
                if hub.token != tok and not stop.is_set():  # renewed: the links carry the new token
                    tok = hub.token
                    links = page_links(hosts, port, tok) if tok else []
                    held = publish(folder, links, say) or held
            if held is not None:  # first: the terminal stops showing a link that will not answer
                held.withdraw()
            # the event streams end (a final event when switched off), so that no response is cut by the stop
            hub.end_streams(None if stop.is_set() else SWITCHED_OFF)
            await asyncio.sleep(0.2)
            token_watcher.cancel()
            server.stop()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 5)
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await watcher
            for sock in sockets:
                sock.close()
            say("phone page: stopped listening" + ("" if stop.is_set() else " (switched off)"))
    finally:
        access.withdraw_links(folder)
    return 0


def publish(folder: Path, links: list[str], say: Callable[[str], None]) -> access.Publication | None:
    """:func:`~host_ui.phone.access.publish_links`, saying (not raising) when it cannot."""
    try:
        return access.publish_links(folder, links)
    except OSError as exc:
        say(f"banquier: cannot publish the page's links in {folder}: {exc.strerror or exc}.")
        return None


def serve(data: Path, key_path: Path | None, hosts: Sequence[str], port: int, language: str,
          display: str = "plain") -> int:
    """Run :func:`serve_async` until SIGTERM or SIGINT; returns the exit code."""
    def say(line: str) -> None:
        print(line, flush=True)
    return asyncio.run(serve_async(data, key_path, hosts, port, language, display, say=say))
