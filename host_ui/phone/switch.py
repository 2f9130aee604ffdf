"""The terminal's side of the phone page: the :class:`terminal.table.settings.PhonePage` the tap machine is given
(the banker menu's "Phones", the idle screen's QR code), over the files of :mod:`host_ui.phone.access`.

The page itself is another process (``banquier phone serve``, its own systemd unit): the terminal only writes the
switch and the token in the data folder, and reads the links the running page published in its runtime folder
(the terminal's own service has no network and cannot find the device's addresses).
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from host_ui.phone import access

_T = TypeVar("_T")
#: The token's place in a link (:func:`host_ui.phone.access.page_url`).
_TOKEN_IN_LINK = re.compile(r"/t/[A-Za-z0-9_-]{22}/")


class PhoneSwitch:
    """The phone page's switch and link for the tap machine.

    - ``data``: the data folder (where the switch and the token are kept);
    - ``runtime``: the page's runtime folder (where it publishes its links; default
      :func:`host_ui.phone.access.runtime_folder`, looked up again at each read until one is found: the page's
      service may start after the terminal);
    - ``on_idle``: whether the idle screen shows the QR code (``[phone] qr_on_idle``).

    The switch and the token cost a ``stat`` of their files while nothing changed (they are read on every clock
    tick of the screens that show the link); the links are read again (:func:`host_ui.phone.access.read_links`)
    at every tick, never kept: a page that died publishes none any more though its file is unchanged, and the
    screens say it is not running at the next tick. The link carries the data folder's token: just after a
    renewal, before the page has published its links again, the link shown is already the new one (the page
    checks the token file at each request)."""

    def __init__(self, data: Path, runtime: Path | None = None, *, on_idle: bool = False) -> None:
        self.data = Path(data)
        self._runtime = runtime
        self.on_idle = on_idle
        self._seen: dict[Path, tuple[tuple[int, int, int] | None, Any]] = {}

    @property
    def runtime(self) -> Path:
        return self._runtime if self._runtime is not None else access.runtime_folder()

    def _cached(self, path: Path, read: Callable[[], _T]) -> _T:
        """What ``read()`` gave for ``path`` while its (mtime, size, inode) stay the same."""
        try:
            st = os.stat(path)
            key: tuple[int, int, int] | None = (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            key = None
        seen = self._seen.get(path)
        if seen is not None and seen[0] == key and key is not None:
            value: _T = seen[1]
            return value
        value = read()
        self._seen[path] = (key, value)
        return value

    def is_on(self) -> bool:
        return self._cached(self.data / access.SWITCH_FILE, lambda: access.is_on(self.data))

    def set_on(self, on: bool, /) -> None:
        if on:
            access.token(self.data)  # made before the page is asked to serve it
        access.set_on(self.data, on)

    def link(self) -> str | None:
        folder = self.runtime
        links = access.read_links(folder)  # each time: the publisher's liveness is not in the file's stat
        if not links:
            return None
        current = self._cached(self.data / access.TOKEN_FILE, lambda: access.read_token(self.data))
        link = links[0]
        return _TOKEN_IN_LINK.sub(f"/t/{current}/", link, count=1) if current else link

    def renew(self) -> None:
        access.renew_token(self.data)
