"""``banquier doctor``'s ``phone`` line: the phone page switched on or off; when on, the links its running page
published, and its ``state.json`` answering on loopback with the device's token.

Handed to :func:`host_ui.shell.doctor.run_checks` by the command (the shell's checks do not import the page's
modules: they import the shell's).
"""
from __future__ import annotations

import http.client
import urllib.parse
from collections.abc import Callable
from pathlib import Path

from host_ui.phone import access
from host_ui.phone.switch import PhoneSwitch
from host_ui.shell.config import Config
from host_ui.shell.doctor import Check

#: Seconds the page is given to answer.
TIMEOUT_S = 3.0
#: Where deploy/install.sh puts the page's unit: it is there on a device, not on a PC.
UNIT_FILE = Path("/etc/systemd/system/banquier-phone.service")
#: The fix on a device (the page is its systemd unit).
DEVICE_FIX = "sudo systemctl restart banquier-phone; journalctl -u banquier-phone -n 20"


def pc_fix(folder: Path) -> str:
    """The fix on a PC, where the page is the simulator's child (or a ``banquier phone serve`` of one's own),
    publishing in ``folder``."""
    return (f"on a PC the page is the simulator's: start `banquier sim` (it starts the page and starts it again "
            f"if it dies; its log: {folder / 'sim-page.log'}), or run `banquier phone serve` yourself")


def _get(host: str, port: int, path: str) -> int:
    """The HTTP status of a GET of ``path`` at ``host:port`` (raises OSError or http.client.HTTPException)."""
    connection = http.client.HTTPConnection(host, port, timeout=TIMEOUT_S)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read(1 << 20)
        return response.status
    finally:
        connection.close()


def check_phone(config: Config, *, runtime: Path | None = None,
                get: Callable[[str, int, str], int] = _get, device: bool | None = None) -> list[Check]:
    """The ``phone`` line (one :class:`Check`): ``warn`` when the page is switched off (nothing is served: the
    device's default); ``fail`` when it is on but publishes no link (its service is not running) or its first
    link's ``state.json`` does not answer 200 on loopback; ``ok`` with the links otherwise. ``runtime``: the page's
    runtime folder (default :func:`host_ui.phone.access.runtime_folder`); ``get(host, port, path) -> status``;
    ``device``: whether the page is a systemd unit here (default: :data:`UNIT_FILE` exists), which the fix says
    (else the simulator's page, on a PC)."""
    data = Path(config.storage.data_dir)
    if not access.is_on(data):
        return [Check("phone", "warn", "the phone page is off: the players' phones see nothing",
                      "switch it on in the banker menu (Phones), or: banquier phone on")]
    folder = runtime if runtime is not None else access.runtime_folder()
    fix = DEVICE_FIX if (UNIT_FILE.exists() if device is None else device) else pc_fix(folder)
    links = access.read_links(folder)
    if not links:
        return [Check("phone", "fail", f"the phone page is switched on but publishes no link in {folder}: its "
                                       f"service is not running", fix)]
    first = PhoneSwitch(data, folder).link() or links[0]  # with the data folder's token, as the terminal shows it
    parsed = urllib.parse.urlsplit(first)
    port = parsed.port or config.phone.port
    path = parsed.path.rstrip("/") + "/state.json"
    answers: list[str] = []
    for host in ("127.0.0.1", "::1"):
        try:
            status = get(host, port, path)
        except (OSError, http.client.HTTPException) as exc:
            answers.append(f"{host}: {getattr(exc, 'strerror', None) or exc}")
            continue
        if status == 200:
            shown = ", ".join(links)
            return [Check("phone", "ok", f"the phone page is on and answers on loopback (port {port}); its links: "
                                         f"{shown}")]
        answers.append(f"{host}: HTTP {status}")
    return [Check("phone", "fail", f"the phone page is on and publishes {first}, but its state.json does not "
                                   f"answer on loopback: {'; '.join(answers)}", fix)]
