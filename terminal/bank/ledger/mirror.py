"""The mirror: a second, append-only record of every acknowledged entry of a game, beside its backups.

Each entry's line (its canonical JSON, :meth:`Mirror.line`) is appended as the entry is committed and flushed to
disk (:meth:`Mirror.sync`) just after the entry's beep, before the next entry is acknowledged, so a game file that
lost the end of its journal (a damaged WAL frame makes SQLite drop every later frame) is noticed and mended at the
next start (:func:`entries_after`, verified against the keyed chain by the caller). The entry itself is durable in
the WAL before its beep (its commit's flush, the only one on that path); a power cut between the beep and the
mirror's flush keeps it there (no WAL frame is being written then). Writing the mirror is its own step after the
entry's commit (:meth:`Mirror.write`): a mirror that cannot be written is reported (:attr:`Mirror.problem`), the
entry itself is committed.
"""
from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from terminal.bank.durable import fsync_directory, make_directories, open_for_append
from terminal.bank.ledger.files import FILE_MODE
from terminal.bank.ledger.records import canonical
from terminal.errors import LedgerError

#: The end of a mirror's line: its entry's seq (then "undoes", the last key of the canonical spelling).
_MIRROR_TAIL = re.compile(rb',"seq":(\d+),"undoes":(?:null|-?\d+)\}\r?$')


class Mirror:
    """The mirror at ``path`` of one game, written as entries are acknowledged (the file is opened at the first
    write and kept open)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.problem: str | None = None  # why the last write failed (None: it did not)
        self._fd: int | None = None
        self._unflushed = False  # lines written since the last flush
        self._name_unflushed = False  # the file was opened (perhaps made) since its folder was last flushed

    @staticmethod
    def line(seq: int, kind: str, op_text: str, undoes: int | None, rows_text: str, changes_text: str,
             recorded_at: str, mac: str) -> str:
        """The mirror's line of an entry, from the canonical texts stored: ``canonical()`` of ``{"changes",
        "kind", "mac", "op", "recorded_at", "rows", "seq", "undoes"}``, spelled without decoding them again."""
        return (f'{{"changes":{changes_text},"kind":{canonical(kind)},"mac":{canonical(mac)},"op":{op_text},'
                f'"recorded_at":{canonical(recorded_at)},"rows":{rows_text},"seq":{seq},'
                f'"undoes":{"null" if undoes is None else canonical(undoes)}}}')

    def write(self, lines: list[str], *, sync: bool = True) -> None:
        """Append committed entries' lines; ``sync``: flushed to disk at once (:meth:`sync`), else left for
        :meth:`sync` (called just after the entry's beep, before the next entry is acknowledged). A failure is
        kept in :attr:`problem` (logged by the caller); nothing is raised."""
        if not lines:
            return
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        try:
            if self._fd is None:
                make_directories(self.path.parent)
                # never through a link planted at its name; a new one's mode whatever the umask
                self._fd = open_for_append(self.path, FILE_MODE)
                self._name_unflushed = True
            os.write(self._fd, data)
            self._unflushed = True
            self.problem = None
        except OSError as exc:
            self.problem = f"cannot write the mirror {self.path}: {exc.strerror or exc}"
            return
        if sync:
            self.sync()

    @property
    def unflushed(self) -> bool:
        """Whether lines were written since the last :meth:`sync` (they are in the page cache, not yet on disk)."""
        return self._unflushed

    def sync(self) -> None:
        """Flush the lines written since the last call to disk (``fdatasync``: one flush, none when nothing was
        written); the mirror's name too when the file was opened since (fdatasync flushes the data, not the folder
        that names it: a power cut would otherwise lose the mirror of a new game with its first entries). A
        failure is kept in :attr:`problem`; nothing is raised."""
        if not self._unflushed or self._fd is None:
            return
        try:
            (os.fdatasync if hasattr(os, "fdatasync") else os.fsync)(self._fd)
            if self._name_unflushed:
                fsync_directory(self.path.parent)
                self._name_unflushed = False
            self._unflushed = False
        except OSError as exc:
            self.problem = f"cannot write the mirror {self.path}: {exc.strerror or exc}"

    def close(self) -> None:
        """Flush what is left (:meth:`sync`) and close the file."""
        if self._fd is not None:
            self.sync()
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None


def set_aside(path: Path, clock: Callable[[], datetime]) -> None:
    """Rename a mirror left at ``path`` by an older game (``<name>.old-<local time>``), durably, so that a new
    game's mirror starts empty. Raises LedgerError (``ledger_unwritable``)."""
    try:
        if path.exists():
            path.replace(path.with_name(f"{path.name}.old-{clock().astimezone():%Y%m%d-%H%M%S}"))
            fsync_directory(path.parent)  # durable before the new game's first entry: a power cut must
            # not bring the old mirror back under the name, where it would not follow from the new file
    except OSError as exc:
        raise LedgerError(f"Cannot set aside the old mirror {path}: {exc.strerror or exc}.",
                          code="ledger_unwritable", params={"path": str(path)}) from exc


def entries_after(path: Path | None, seq: int) -> list[dict[str, Any]]:
    """The entries of the mirror at ``path`` after ``seq``, in order (only its end is read when it has few; none
    without a mirror). Each as it was written (:meth:`Mirror.line`): ``{"changes", "kind", "mac", "op",
    "recorded_at", "rows", "seq", "undoes"}``; a line that does not read (torn by a power cut, damaged) is left out."""
    if path is None or not path.is_file():
        return []
    with open(path, "rb") as f:
        size = f.seek(0, os.SEEK_END)
        chunk = 64 * 1024
        while True:
            start = max(0, size - chunk)
            f.seek(start)
            data = f.read(size - start)
            lines = data.split(b"\n")
            if start > 0:
                lines = lines[1:]  # a partial first line
            found: list[dict[str, Any]] = []
            first: int | None = None  # the seq of the chunk's first entry that reads
            for raw in lines:
                if first is not None:
                    # A line as the mirror writes it (canonical: "seq" and "undoes" come last) that names an
                    # entry up to ``seq`` is not wanted, whether or not the rest of it reads: not decoded.
                    tail = _MIRROR_TAIL.search(raw, max(0, len(raw) - 64))
                    if tail is not None and int(tail.group(1)) <= seq:
                        continue
                try:
                    entry = json.loads(raw)
                except (ValueError, RecursionError):
                    continue  # a torn last line (a power cut while it was written) or damage
                if isinstance(entry, dict) and isinstance(entry.get("seq"), int):
                    if first is None:
                        first = entry["seq"]
                    if entry["seq"] > seq:
                        found.append(entry)
            if start == 0 or (first is not None and first <= seq + 1):
                return found
            chunk *= 4
