"""The measuring helpers the bench scripts share: CPU time, a percentile, the file system under a path, and a
beeper that notes when the success beep is asked for."""
from __future__ import annotations

import resource
import time
from pathlib import Path


def cpu() -> float:
    """CPU seconds (user + system) this process has used."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def filesystem_of(path: Path) -> str:
    """The mount point and type holding ``path`` (from /proc/mounts, Linux only)."""
    best = ("?", "?")
    try:
        real = str(path.resolve())
        with open("/proc/mounts", encoding="utf-8") as f:
            for line in f:
                _, mount, fstype, *_ = line.split()
                if (real == mount or real.startswith(mount.rstrip("/") + "/")) and len(mount) >= len(best[0]):
                    best = (mount, fstype)
    except OSError:
        pass
    return f"{best[0]} ({best[1]})"


class TimingBeeper:
    """A beeper that notes when ``success`` is asked for."""

    def __init__(self) -> None:
        self.success_at: float | None = None

    def play(self, pattern: str) -> bool:
        if pattern == "success":
            self.success_at = time.perf_counter()
        return True
