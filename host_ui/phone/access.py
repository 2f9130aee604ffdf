"""What the terminal and the phone page share, through the data folder, and who may be served.

Files, both in the data folder (the terminal's service writes it; the page's service only reads it):

- ``phone-page``: the switch. One line, ``on`` or ``off``; a missing file is off (the device's default), and so
  is anything else (a damaged switch never opens the page). Written by the banker menu or ``banquier phone on``.
- ``phone-token``: the device's token, 22 characters of :func:`secrets.token_urlsafe` (128 bits). Made on first
  use, kept across restarts and new games, replaced by :func:`renew_token` (banker menu). Every link the page
  serves carries it (``/t/TOKEN/``); without it nothing is served.

Both are written whole or not at all (temporary file, fsync, rename), mode 0640 (the page's service reads them
through the service's group).

Clients: only loopback, the private IPv4 ranges (10/8, 172.16/12, 192.168/16) and IPv6 link-local (fe80::/10) and
unique-local (fc00::/7) addresses, an IPv4-mapped IPv6 address judged as its IPv4 (:func:`allowed_client`).

The page's links, in its runtime folder (:data:`LINKS_FILE`), carry their own liveness: the page holds the file
under an exclusive ``flock`` for as long as it listens (:func:`publish_links`), and :func:`read_links` gives them only
while a live process holds that lock (the kernel drops it when the process dies, ``kill -9`` included; it works
across processes and systemd sandboxes on the same kernel).
"""
from __future__ import annotations

import contextlib
import fcntl
import hmac
import ipaddress
import os
import re
import secrets
import tempfile
from pathlib import Path

from host_ui.shell.outputs import replace_text_durably

#: The switch's file name in the data folder.
SWITCH_FILE = "phone-page"
#: The token's file name in the data folder.
TOKEN_FILE = "phone-token"
#: The mode of both files: the owner writes, the service's group reads.
FILE_MODE = 0o640
#: The page's TCP port when the configuration does not say.
DEFAULT_PORT = 8737
#: A token as :func:`secrets.token_urlsafe` (16 bytes) writes it.
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{22}")
#: The networks whose clients are served (RFC 1918, loopback, RFC 4291 link-local, RFC 4193 unique-local).
ALLOWED_NETWORKS = tuple(ipaddress.ip_network(n) for n in (
    "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "::1/128", "fe80::/10", "fc00::/7"))


def is_on(data: Path) -> bool:
    """Whether the page is switched on in the data folder ``data``: its switch file reads exactly ``on``
    (surrounding white space ignored). Missing, unreadable or anything else: off. Never raises."""
    try:
        return (data / SWITCH_FILE).read_text(encoding="utf-8").strip() == "on"
    except (OSError, UnicodeDecodeError):
        return False


def set_on(data: Path, on: bool) -> None:
    """Switch the page on or off in the data folder ``data`` (durably: the switch survives a power cut).
    Raises OSError when the folder cannot be written."""
    replace_text_durably(data / SWITCH_FILE, "on\n" if on else "off\n", FILE_MODE)


def read_token(data: Path) -> str | None:
    """The device's token in the data folder ``data``, or None when there is none or it is not a token (never
    made, damaged, unreadable). Never raises, never writes."""
    try:
        text = (data / TOKEN_FILE).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if TOKEN_RE.fullmatch(text) else None


def token(data: Path) -> str:
    """The device's token in the data folder ``data``, made (and kept) when there is none or it is damaged.
    Raises OSError when it must be made and cannot be written."""
    return read_token(data) or renew_token(data)


def renew_token(data: Path) -> str:
    """Replace the device's token with a new one and return it: every link shown before stops working.
    Raises OSError when the folder cannot be written."""
    new = secrets.token_urlsafe(16)
    replace_text_durably(data / TOKEN_FILE, new + "\n", FILE_MODE)
    return new


def token_matches(data: Path, given: str) -> bool:
    """Whether ``given`` is the device's current token (compared in constant time). False when there is no
    token: nothing is served before one is made."""
    current = read_token(data)
    return current is not None and hmac.compare_digest(current.encode("ascii"),
                                                       given.encode("utf-8", "surrogateescape"))


def allowed_client(host: str | None) -> bool:
    """Whether a client at the address ``host`` (as the server reports it: ``"192.168.1.20"``, ``"fe80::1%wlan0"``,
    ``"::ffff:10.0.0.2"``) is on the table's network (:data:`ALLOWED_NETWORKS`). Anything that is not an IP
    address (None, a Unix socket's path, a name) is refused."""
    if not host:
        return False
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in ALLOWED_NETWORKS if network.version == address.version)


def page_url(host: str, port: int, tok: str) -> str:
    """The link a phone opens (and the QR code holds): ``http://HOST:PORT/t/TOKEN/``; an IPv6 address is put
    in brackets."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}/t/{tok}/"


#: The file, in the page's runtime folder, where the running page writes the links it can be reached at (one per
#: line, best first: a private IPv4 address, then the others), for the terminal to show as a QR code. The
#: terminal's own service has no network of its own (``PrivateNetwork=yes``) and cannot find the device's
#: addresses itself.
LINKS_FILE = "links"


def runtime_folder() -> Path:
    """The page's runtime folder: ``$BANQUIER_PHONE_RUNTIME`` when set; else ``/run/banquier-phone`` (the page's
    systemd unit's ``RuntimeDirectory=``) when it exists; else ``banquier-phone`` in ``$XDG_RUNTIME_DIR``, or in
    ``$TMPDIR`` (``banquier-phone-UID``) when there is none. Not created here."""
    if os.environ.get("BANQUIER_PHONE_RUNTIME"):
        return Path(os.environ["BANQUIER_PHONE_RUNTIME"])
    if Path("/run/banquier-phone").is_dir():
        return Path("/run/banquier-phone")
    if os.environ.get("XDG_RUNTIME_DIR"):
        return Path(os.environ["XDG_RUNTIME_DIR"]) / "banquier-phone"
    return Path(tempfile.gettempdir()) / f"banquier-phone-{os.getuid()}"


class Publication:
    """The page's links, published and held: the open, exclusively locked (``flock(LOCK_EX)``) links file. The lock
    lives as long as the process (the kernel drops it when the process dies, even by SIGKILL), so a reader that finds
    the file unlocked knows its writer is gone (:func:`read_links`). ``inode``: the file's, to withdraw only ours."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path, self.fd = path, fd
        self.inode = os.fstat(fd).st_ino

    @property
    def held(self) -> bool:
        """Whether the lock is still held (not withdrawn)."""
        return self.fd >= 0

    def withdraw(self) -> None:
        """Remove the links file when it is still ours (the same inode: another page's file is left alone), then
        release the lock. Idempotent; never raises."""
        if self.fd < 0:
            return
        try:
            if os.stat(self.path).st_ino == self.inode:
                self.path.unlink()
        except OSError:
            pass
        with contextlib.suppress(OSError):
            os.close(self.fd)
        self.fd = -1
        if _HELD.get(self.path) is self:
            del _HELD[self.path]


#: The publications this process holds, by links file (a caller that drops the object keeps its lock).
_HELD: dict[Path, Publication] = {}


def publish_links(folder: Path, links: list[str]) -> Publication:
    """Write the page's links (:data:`LINKS_FILE`) in its runtime folder ``folder`` (made, mode 0755, if
    missing), whole or not at all, mode 0644 (the links hold the token, but the folder is the page's and only
    the terminal's group reads it; the unit sets the folder's mode), and hold it locked for as long as this process
    lives or until :meth:`Publication.withdraw`: a temporary file, locked ``LOCK_EX``, renamed over the links file,
    its descriptor kept open. This process' earlier publication in ``folder`` is withdrawn. Raises OSError."""
    folder.mkdir(mode=0o755, parents=True, exist_ok=True)
    path = folder / LINKS_FILE
    fd, temp = tempfile.mkstemp(prefix=f".{LINKS_FILE}.", dir=folder)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.write(fd, "".join(f"{link}\n" for link in links).encode("utf-8"))
        os.fchmod(fd, 0o644)
        os.fsync(fd)
        earlier = _HELD.get(path)
        os.replace(temp, path)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    if earlier is not None:  # its file was replaced by ours: only its lock is left to release
        with contextlib.suppress(OSError):
            os.close(earlier.fd)
        earlier.fd = -1
    held = _HELD[path] = Publication(path, fd)
    return held


def withdraw_links(folder: Path) -> None:
    """Withdraw this process' publication in ``folder`` (:meth:`Publication.withdraw`), if any. Never raises."""
    held = _HELD.get(folder / LINKS_FILE)
    if held is not None:
        held.withdraw()


def read_links(folder: Path) -> list[str]:
    """The links the running page published in ``folder``, best first; [] when it publishes none (not running,
    switched off, no file, or its process died: the file is not locked by a live holder). Only ``http://`` lines
    are kept. Never raises, never writes (the probe is a shared, non-blocking lock, released at once)."""
    try:
        fd = os.open(folder / LINKS_FILE, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return []
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:  # held exclusively: its page is alive
            pass
        except OSError:
            return []
        else:  # nobody holds it: the page that wrote it is gone
            with contextlib.suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            return []
        with os.fdopen(os.dup(fd), "rb") as f:
            text = f.read(64 * 1024).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    finally:
        os.close(fd)
    return [line.strip() for line in text.splitlines() if line.strip().startswith("http://")]
