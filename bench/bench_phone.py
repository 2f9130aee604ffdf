"""The phone page's server (issue 29): its memory and its work with 20 phones connected, over a long game.

A game of 10 000 operations (``bench_ledger.build``: the long recorded game's, then its money operations again) is
made the current game of a throwaway data folder, the page switched on, and ``banquier phone serve`` started fresh
(a subprocess, as the page's systemd unit runs it, on loopback). Then 20 "phones", each an event stream (``GET
/t/TOKEN/events``) and a ``state.json`` fetched once a second (with its ETag, as a browser revalidates), for
``--seconds`` seconds, while the terminal's side commits one operation every 2 s (``Game.bank_pays`` on the
game opened to play, as the terminal has it).

Printed: the server process's memory (``VmRSS`` and ``VmHWM`` of /proc/PID/status) started, after its first read
of the game, and at the end with the 20 phones; its CPU time per second of the run; the time from a commit to the
event reaching a phone, and to the state showing it (p50, p99, max); ``state.json``'s answer time (p50, p99); the
phones' requests answered and refused. Target: a few tens of MiB on a Pi Zero 2 W (issue 29); the Pi's figure is
the PC's: the same Python objects and SQLite copy (a 32-bit Raspberry Pi OS is smaller, a 64-bit one alike).

``--tap``: instead, the device-true tap -> beep p99 (bench/bench_device.py's child: the device's path on the PC's
disk, its own 10 000-operation game, no fsync latency added) without and with the page's server following that
game with the 20 phones, in rounds alternated (without, with, without, with, ...; 4 rounds of 250 taps a side by
default) so that the PC's load falls on both alike. The server runs in its own process with the page's unit's
priority (``Nice=10`` over the bench's, I/O class idle); the phones in another process at Nice 19 (on the table
they are other devices). Each phone proves it followed the game tapped: its events, the entries it saw in
``state.json``, and its last one equal to the game's last entry after the last tap. Printed: the ratio of the two
p99s with its spread (per round, and a bootstrap's 5-95 %), the medians, the server's VmHWM, the load; one row of
the bench table. Target (issue 29): within 10 % of the figure without them. The device's key there is
bench_device's (32 zero bytes), written to the page's key file.

    .venv/bin/python bench/bench_phone.py [--ops N] [--phones N] [--seconds S] [--tap [--rents N] [--rounds N]]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from measure import percentile  # noqa: E402  (this folder, as for every bench script)

MIB = 1024 * 1024


def status(pid: int) -> dict[str, int]:
    out = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                out[name] = int(value.split()[0]) * 1024
    return out


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_listening(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"bench_phone: nothing listens on port {port}")


class Phone(threading.Thread):
    """One phone: an event stream read in this thread, state.json fetched once a second in another."""

    def __init__(self, base: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.base, self.stop = base, stop
        self.events: list[tuple[float, int]] = []  # (time seen, version)
        self.fetch_s: list[float] = []
        self.refused = 0
        self.seen_cash: list[tuple[float, int]] = []  # (time, version of the state fetched)

    def run(self) -> None:
        threading.Thread(target=self.refresh, daemon=True).start()
        try:
            with urllib.request.urlopen(self.base + "events", timeout=60) as stream:
                event = None
                for raw in stream:
                    line = raw.decode().rstrip("\n")
                    if line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: ") and event == "state":
                        self.events.append((time.monotonic(), int(line[6:])))
                    if self.stop.is_set():
                        return
        except OSError:
            self.refused += 1

    def refresh(self) -> None:
        tag = None
        while not self.stop.is_set():
            t0 = time.monotonic()
            request = urllib.request.Request(self.base + "state.json", headers={"If-None-Match": tag} if tag else {})
            try:
                with urllib.request.urlopen(request, timeout=10) as r:
                    body = r.read()
                    tag = r.headers.get("etag")
                    self.seen_cash.append((time.monotonic(), json.loads(body)["version"]))
            except urllib.error.HTTPError as exc:
                if exc.code != 304:
                    self.refused += 1
            except OSError:
                self.refused += 1
            self.fetch_s.append(time.monotonic() - t0)
            self.stop.wait(max(0.0, 1.0 - (time.monotonic() - t0)))


def spread(values: list[float], scale: float = 1000, unit: str = "ms") -> str:
    if not values:
        return "none"
    return (f"p50 {statistics.median(values) * scale:.1f} {unit}, p99 {percentile(values, 0.99) * scale:.1f} {unit}, "
            f"max {max(values) * scale:.1f} {unit} ({len(values)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, default=10_000)
    parser.add_argument("--phones", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--tap", action="store_true", help="also the tap -> beep p99 with and without the phones")
    parser.add_argument("--rents", type=int, default=250, help="--tap: committing taps per round and side")
    parser.add_argument("--rounds", type=int, default=4, help="--tap: rounds without and with the phones")
    args = parser.parse_args(argv)
    if args.tap:
        return tap_bench(args)

    import bench_ledger

    from host_ui.phone import access
    from host_ui.shell.device_key import load_or_create_key
    from host_ui.shell.games import open_game
    from host_ui.shell.manage import set_current

    work = Path(tempfile.mkdtemp(prefix="bench-phone-"))
    data, key_file = work / "data", work / "device.key"
    (data / "games").mkdir(parents=True)
    os.environ["BANQUIER_KEY_FILE"] = str(key_file)
    key = load_or_create_key(key_file, data=data)
    t0 = time.monotonic()
    path = bench_ledger.build(data / "games" / "long.db", key, args.ops)
    print(f"game of {args.ops} operations built in {time.monotonic() - t0:.1f} s: "
          f"{path.stat().st_size / MIB:.1f} MiB")
    set_current(data, path)
    tok = access.token(data)
    access.set_on(data, True)
    port = free_port()
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(work), "BANQUIER_DATA_DIR": str(data),
           "BANQUIER_KEY_FILE": str(key_file), "BANQUIER_PHONE_RUNTIME": str(work / "run"),
           "TMPDIR": os.environ.get("TMPDIR", "/tmp")}
    server = subprocess.Popen([sys.executable, "-m", "host_ui", "phone", "serve", "--host", "127.0.0.1", "--port",
                               str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}/t/{tok}/"
    try:
        wait_listening(port)
        started = status(server.pid)
        t0 = time.monotonic()
        with urllib.request.urlopen(base + "state.json", timeout=60) as r:
            first = json.loads(r.read())
        first_read_s = time.monotonic() - t0
        after_read = status(server.pid)
        print(f"server started: VmRSS {started['VmRSS'] / MIB:.1f} MiB; after its first read of the game "
              f"({first_read_s:.2f} s to the first state.json, {len(json.dumps(first)) / 1024:.0f} KiB): VmRSS "
              f"{after_read['VmRSS'] / MIB:.1f} MiB, VmHWM {after_read['VmHWM'] / MIB:.1f} MiB")

        stop = threading.Event()
        phones = [Phone(base, stop) for _ in range(args.phones)]
        for phone in phones:
            phone.start()
        time.sleep(2)
        game = open_game(path, key_path=key_file, background=False)
        commits: list[tuple[float, int]] = []
        cpu0, wall0 = cpu_seconds(server.pid), time.monotonic()
        peak = dict(status(server.pid))
        try:
            players = list(game.players)
            end = time.monotonic() + args.seconds
            i = 0
            while time.monotonic() < end:
                game.bank_pays(players[i % len(players)], 10)
                commits.append((time.monotonic(), i))
                i += 1
                for _ in range(4):
                    time.sleep(0.5)
                    now = status(server.pid)
                    peak = {k: max(peak[k], now[k]) for k in now}
        finally:
            game.close()
        cpu = cpu_seconds(server.pid) - cpu0
        wall = time.monotonic() - wall0
        time.sleep(1.5)
        stop.set()
        end_status = status(server.pid)

        to_event, to_state = [], []
        for at, _ in commits:
            for phone in phones:
                seen = [t for t, _v in phone.events if t > at]
                if seen and seen[0] - at < 2:
                    to_event.append(seen[0] - at)
                fetched = [t for t, _v in phone.seen_cash if t > at]
                if fetched and fetched[0] - at < 3:
                    to_state.append(fetched[0] - at)
        fetches = [s for phone in phones for s in phone.fetch_s]
        refused = sum(phone.refused for phone in phones)
        print(f"{args.phones} phones for {wall:.0f} s, {len(commits)} commits (one every 2 s):")
        print(f"  server memory: VmRSS {end_status['VmRSS'] / MIB:.1f} MiB at the end (peak seen "
              f"{peak['VmRSS'] / MIB:.1f}), VmHWM {end_status['VmHWM'] / MIB:.1f} MiB")
        print(f"  server CPU: {cpu:.2f} s over {wall:.0f} s ({100 * cpu / wall:.1f} % of one core of this PC)")
        print(f"  commit -> event at a phone: {spread(to_event)}")
        print(f"  commit -> the phone's next state.json (once a second): {spread(to_state)}")
        print(f"  state.json answer: {spread(fetches)}; refused or failed: {refused}")
        print("  target (issue 29): a few tens of MiB on a Pi Zero 2 W (512 MiB of RAM): VmHWM "
              f"{end_status['VmHWM'] / MIB:.1f} MiB measured here")
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        import shutil
        shutil.rmtree(work, ignore_errors=True)
    return 0


def start_server(data: Path, key_file: Path, work: Path) -> tuple[subprocess.Popen[str], str]:
    """``banquier phone serve`` in its own process, with the page's unit's priority (deploy/banquier-phone.service:
    ``Nice=10`` over the bench's own, ``IOSchedulingClass=idle`` through ionice where there is one; its
    ``CPUWeight=20`` needs a cgroup and is not applied here)."""
    from host_ui.phone import access
    tok = access.token(data)
    access.set_on(data, True)
    port = free_port()
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(work), "BANQUIER_DATA_DIR": str(data),
           "BANQUIER_KEY_FILE": str(key_file), "BANQUIER_PHONE_RUNTIME": str(work / "run"),
           "TMPDIR": os.environ.get("TMPDIR", "/tmp")}
    ionice = shutil.which("ionice")
    command = ([ionice, "-c", "3"] if ionice else []) + [sys.executable, "-m", "host_ui", "phone", "serve", "--host",
                                                          "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
                              preexec_fn=lambda: os.nice(SERVER_NICE))
    wait_listening(port)
    return server, f"http://127.0.0.1:{port}/t/{tok}/"


#: The page's unit's Nice= (deploy/banquier-phone.service), over the terminal's.
SERVER_NICE = 10
#: The phones' process: the phones are other devices, not the Pi's CPU; here they share the PC's, at the lowest
#: priority so that they take as little as they can from the terminal (the figure is then, if anything, pessimistic).
PHONES_NICE = 19

PHONES_CHILD = r"""
import json, os, sys, threading, time, urllib.error, urllib.request
base, count = sys.argv[1], int(sys.argv[2])
stop = threading.Event()
phones = []
def phone():
    me = {"events": 0, "versions": set(), "seqs": set(), "games": set(), "last_seq": None, "refused": 0}
    phones.append(me)
    def stream():
        try:
            with urllib.request.urlopen(base + "events", timeout=120) as r:
                event = None
                for raw in r:
                    line = raw.decode().rstrip("\n")
                    if line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: ") and event == "state":
                        me["events"] += 1
                        me["versions"].add(int(line[6:]))
                    if stop.is_set():
                        return
        except OSError:
            me["refused"] += 1
    threading.Thread(target=stream, daemon=True).start()
    tag = None
    while not stop.is_set():
        t0 = time.monotonic()
        req = urllib.request.Request(base + "state.json", headers={"If-None-Match": tag} if tag else {})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                doc = json.loads(r.read())
                tag = r.headers.get("etag")
                me["seqs"].add(doc.get("seq"))
                me["games"].add(json.dumps(doc.get("game"), sort_keys=True))
                me["last_seq"] = doc.get("seq")
        except urllib.error.HTTPError as exc:
            if exc.code != 304:
                me["refused"] += 1
        except OSError:
            me["refused"] += 1
        stop.wait(max(0.0, 1.0 - (time.monotonic() - t0)))
for _ in range(count):
    threading.Thread(target=phone, daemon=True).start()
print("ready", flush=True)
sys.stdin.read()  # until the bench closes it
stop.set()
time.sleep(0.2)
print(json.dumps([{k: (sorted(v, key=str) if isinstance(v, set) else v) for k, v in me.items()} for me in phones]))
"""


def last_seq_of(data: Path) -> int:
    """The last entry of the game in ``data`` (the one the device's child played), read-only."""
    import sqlite3

    from host_ui.shell.manage import current_game
    path = current_game(data)
    if path is None:
        raise SystemExit(f"bench_phone: no current game in {data}")
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT MAX(seq) FROM journal").fetchone()[0])
    finally:
        conn.close()


def tap_bench(args: argparse.Namespace) -> int:
    """The tap -> beep p99 without and with the page's server and its phones (see the module docstring): rounds
    alternated without / with, each a fresh device child (its own game); the phones proven to follow the game
    tapped (each one's events and the entries it saw in state.json, and the last one at the end)."""
    import bench_device
    from report import Row, emit
    work = Path(tempfile.mkdtemp(prefix="bench-phone-tap-", dir=ROOT / "bench"))
    loads = [os.getloadavg()[0]]
    try:
        shim = bench_device.build_shim(work)
        walls: dict[bool, list[list[float]]] = {False: [], True: []}
        rss: list[int] = []
        followed: list[str] = []
        lost = 0
        for r in range(args.rounds):
            for phones_on in (False, True):
                folder = work / f"round-{r}-{int(phones_on)}"
                data = folder / "data-none"
                data.mkdir(parents=True)
                server = phones = None
                if phones_on:
                    key_file = work / "device.key"
                    key_file.write_bytes(bytes(32))
                    key_file.chmod(0o600)
                    server, base = start_server(data, key_file, folder)
                    phones = subprocess.Popen([sys.executable, "-c", PHONES_CHILD, base, str(args.phones)],
                                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                              preexec_fn=lambda: os.nice(PHONES_NICE))
                    assert phones.stdout is not None
                    phones.stdout.readline()
                try:
                    taps = bench_device.run(shim, "none", folder, args.rents, args.ops)
                    if server is not None and phones is not None:
                        final = last_seq_of(data)
                        time.sleep(2.5)  # a phone's next state.json after the last tap
                        rss.append(status(server.pid)["VmHWM"])
                        out, _ = phones.communicate("", timeout=30)
                        seen = json.loads(out.strip().splitlines()[-1])
                        # one game seen besides "no game yet" (the phones start before the child creates it)
                        behind = [p for p in seen if p["last_seq"] != final
                                  or len([g for g in p["games"] if g != "null"]) != 1]
                        if behind:
                            print(f"  behind: {[(p['last_seq'], p['games']) for p in behind][:3]}")
                        lost += len(behind)
                        events = [p["events"] for p in seen]
                        seqs = [len(p["seqs"]) for p in seen]
                        followed.append(f"{len(seen) - len(behind)}/{len(seen)} phones on the last entry #{final}, "
                                        f"events {min(events)}-{max(events)}, entries seen {min(seqs)}-{max(seqs)}")
                        print(f"  the phones: {followed[-1]} ({args.rents} taps)")
                finally:
                    if phones is not None and phones.poll() is None:
                        phones.kill()
                        phones.wait(10)
                    if server is not None:
                        server.terminate()
                        server.wait(10)
                ms = [t["tap"]["ms"] for t in taps]
                walls[phones_on].append(ms)
                loads.append(os.getloadavg()[0])
                print(f"round {r + 1}, {'with' if phones_on else 'without'} {args.phones} phones: tap -> beep p99 "
                      f"{percentile(ms, 0.99):.1f} ms, median {statistics.median(ms):.1f} ms ({len(ms)} taps; load "
                      f"{loads[-1]:.2f})", flush=True)
        without = [w for part in walls[False] for w in part]
        with_phones = [w for part in walls[True] for w in part]
        p_without, p_with = percentile(without, 0.99), percentile(with_phones, 0.99)
        ratio = p_with / p_without
        per_round = [percentile(b, 0.99) / percentile(a, 0.99) for a, b in zip(walls[False], walls[True], strict=True)]
        # the spread of the ratio: the same ratio over the taps drawn again (bootstrap, 200 draws)
        import random
        rng = random.Random(29)
        boot = sorted(percentile(rng.choices(with_phones, k=len(with_phones)), 0.99)
                      / percentile(rng.choices(without, k=len(without)), 0.99) for _ in range(200))
        load = f"load {min(loads):.2f}-{max(loads):.2f}"
        print(f"tap -> beep p99 on the PC's disk: {p_without:.1f} ms without the page, {p_with:.1f} ms with it and "
              f"{args.phones} phones: {ratio:.2f}x (per round {', '.join(f'{x:.2f}' for x in per_round)}; bootstrap "
              f"5-95 % {boot[10]:.2f}-{boot[189]:.2f}); medians {statistics.median(without):.1f} and "
              f"{statistics.median(with_phones):.1f} ms; the page's server VmHWM {max(rss) / MIB:.1f} MiB; {load}")
        ok = ratio <= 1.10 and lost == 0
        emit(Row("phone", f"tap -> beep p99 with {args.phones} phones / without", f"{ratio:.2f}x",
                 "<= 1.10x", ratio, ok,
                 f"{p_with:.1f} vs {p_without:.1f} ms over {len(with_phones)} / {len(without)} taps, {args.rounds} "
                 f"rounds alternated without/with (per round {', '.join(f'{x:.2f}' for x in per_round)}; bootstrap "
                 f"5-95 % {boot[10]:.2f}-{boot[189]:.2f}); bench_device's child (no fsync latency added, its "
                 f"{args.ops}-operation game); the page's server its own process at Nice {SERVER_NICE} (ionice "
                 f"idle), the phones another at Nice {PHONES_NICE}, each an event stream and a state.json a second; "
                 f"followed: {'; '.join(followed)}; server VmHWM {max(rss) / MIB:.1f} MiB; {load}",
                 baseline=f"the same taps without the page's server or phones, interleaved round by round: p99 "
                          f"{p_without:.1f} ms",
                 fails="the page's server or its phones take the terminal's CPU or disk on the tap's path (or a "
                       "phone does not follow the game tapped: its last entry seen is not the game's)"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
