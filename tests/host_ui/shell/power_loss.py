"""What a power cut keeps of a folder's files, as the code under test flushed them (issue 21, point 2).

A file's data is durable once it was ``fsync``-ed (or ``fdatasync``-ed); its *name* (a new file, a rename, a new
folder) once the folder holding it was ``fsync``-ed. :class:`PowerLoss` watches every ``os.fsync`` and
``os.fdatasync`` of this process under ``root`` and builds, at any moment, the worst state a power cut then leaves
(:meth:`PowerLoss.image`):

- a name is there only if each folder on its way was flushed since the name appeared (or the name was there when
  the watch began); a file or folder whose name is not durable is gone, with everything in it;
- a file's content is what it held at its last flush (a file never flushed is empty: its data never left the page
  cache), except the files SQLite writes (``*.db``, ``*.db-wal``), which it flushes itself, from C, with
  ``synchronous=FULL`` before a commit returns (their content is taken as it is, and the name of a ``-wal``,
  whose folder SQLite flushes when it creates it, is trusted);
- a ``-shm`` is never kept (shared memory: SQLite rebuilds it after a crash).

The game files are SQLite's, so what this finds is what our code flushes (the mirror, the markers, the
folders); SQLite's own durability is checked by ``test_ledger_connection_is_wal_and_synchronous_full``.
"""
from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

SQLITE_SUFFIXES = (".db", ".db-wal")


class PowerLoss:
    """Watch ``root`` (use :meth:`start` / :meth:`stop`, or ``monkeypatch`` via :meth:`install`)."""

    def __init__(self, root: Path):
        self.root = Path(root).resolve()
        self.listings: dict[Path, set[str]] = {}  # folder -> its names as last flushed
        self.contents: dict[int, bytes] = {}  # inode -> the file's bytes as last flushed
        self._real_fsync = os.fsync
        self._real_fdatasync = getattr(os, "fdatasync", os.fsync)
        for folder, dirs, files in os.walk(self.root):
            here = Path(folder)
            self.listings[here] = set(dirs) | set(files)
            for name in files:
                path = here / name
                self.contents[path.stat().st_ino] = path.read_bytes()

    def install(self, monkeypatch) -> PowerLoss:
        monkeypatch.setattr(os, "fsync", self._fsync)
        if hasattr(os, "fdatasync"):
            monkeypatch.setattr(os, "fdatasync", self._fdatasync)
        return self

    def _record(self, fd: int) -> None:
        try:
            path = Path(os.readlink(f"/proc/self/fd/{fd}"))
            st = os.fstat(fd)
        except OSError:
            return
        if not path.is_relative_to(self.root):
            return
        if stat.S_ISDIR(st.st_mode):
            self.listings[path] = set(os.listdir(path))
        elif stat.S_ISREG(st.st_mode):
            with open(f"/proc/self/fd/{fd}", "rb") as f:
                self.contents[st.st_ino] = f.read()

    def _fsync(self, fd: int) -> None:
        self._real_fsync(fd)
        self._record(fd)

    def _fdatasync(self, fd: int) -> None:
        self._real_fdatasync(fd)
        self._record(fd)

    def _durable(self, path: Path) -> bool:
        """Whether each name from ``root`` down to ``path`` was flushed in its folder."""
        parts = path.relative_to(self.root).parts
        folder = self.root
        for i, name in enumerate(parts):
            last = i == len(parts) - 1
            if not (last and name.endswith("-wal")) and name not in self.listings.get(folder, set()):
                return False
            folder = folder / name
        return True

    def image(self, target: Path) -> Path:
        """The files a power cut now leaves, copied to the new folder ``target`` (its layout is ``root``'s)."""
        target = Path(target)
        target.mkdir(parents=True)
        for folder, dirs, files in os.walk(self.root):
            here = Path(folder)
            for name in dirs:
                if self._durable(here / name):
                    (target / (here / name).relative_to(self.root)).mkdir(exist_ok=True)
            for name in files:
                path = here / name
                if name.endswith("-shm") or not self._durable(path):
                    continue
                out = target / path.relative_to(self.root)
                if not out.parent.is_dir():
                    continue
                kept = self.contents.get(path.stat().st_ino)
                if kept is not None:
                    out.write_bytes(kept)
                elif name.endswith(SQLITE_SUFFIXES):
                    shutil.copyfile(path, out)
                else:
                    out.write_bytes(b"")  # never flushed: its data is lost
        return target


WAL_HEADER, FRAME_HEADER, PAGE = 32, 24, 4096


def frames(wal: Path) -> int:
    """How many frames the WAL ``wal`` holds (valid or not)."""
    return max(0, (wal.stat().st_size - WAL_HEADER) // (FRAME_HEADER + PAGE)) if wal.exists() else 0


def damage_frame(wal: Path, frame: int) -> None:
    """One frame of ``wal`` reads back damaged (a byte of its page flipped): SQLite's checksums then drop it and
    every frame after it."""
    data = bytearray(wal.read_bytes())
    at = WAL_HEADER + frame * (FRAME_HEADER + PAGE) + FRAME_HEADER + 100
    data[at] ^= 0xFF
    wal.write_bytes(bytes(data))
