"""Table logs (``docs/table-log.md``, version 1): read, replay into a game file, and export a game back.

A table log is JSON Lines: a header, then operations (``"op"``) and checks (``"expect"``). Reading it parses
every operation into its record (:mod:`terminal.bank.operations`), so a malformed line is refused before
anything is replayed. :func:`replay`
applies every operation through :class:`terminal.Game` (an operation marked ``"refused": true`` must be
refused, every other one accepted) and compares every check with the game's state, stopping at the first
mismatch with the line, the field, the expected and the actual value.
"""
from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from cards.editions import load_edition
from cards.inputs import read_input, shown_path
from terminal.bank.boards import board_of
from terminal.bank.game import Game
from terminal.bank.history import iter_operations
from terminal.bank.operations import Operation, TimeUp, parse_operation
from terminal.bank.types import RULES_VERSION, RULES_VERSIONS, WallClock, system_clock
from terminal.errors import GameError, LedgerError, MalformedOperation

HEADER_FIELDS = {"format", "version", "edition", "players", "mode", "rules", "dealt", "end_time", "length_minutes",
                 "source", "rules_version"}
CHECK_FIELDS = {"cash", "owner", "buildings", "mortgaged", "debt", "jail_cards", "bankrupt", "bank", "worth",
                "standings", "game_over", "x_time", "levels", "slump"}
SUBSET_FIELDS = {"cash", "owner", "buildings", "jail_cards", "worth", "bank", "x_time", "levels", "slump"}
UNORDERED_LIST_FIELDS = {"mortgaged", "bankrupt"}
MAX_LINE_CHARS = 1_000_000


class TableLogError(GameError, ValueError):
    """A table log that is not of the spec's shape: the message names the file and the line."""

    code = "table_log_malformed"


class ReplayMismatch(GameError, ValueError):
    """A replay that disagrees with its log: ``params`` holds ``line``, ``field``, ``expected``, ``actual``."""

    code = "replay_mismatch"


@dataclass(frozen=True)
class Line:
    """One operation or check of a table log: its line ``number`` in the file, the ``data`` as read, and for
    an operation its parsed record (``None`` for a check)."""

    number: int
    data: dict[str, Any]
    operation: Operation | None = None


@dataclass
class TableLog:
    path: Path
    header: dict[str, Any]
    lines: list[Line]

    @property
    def operations(self) -> int:
        return sum(1 for line in self.lines if line.operation is not None)


@dataclass
class ReplayResult:
    operations: int
    refused: int
    checks: int
    game_path: Path


#: The largest table log read (bytes): a long game's log is a few megabytes.
MAX_LOG_BYTES = 64 * 1024 * 1024


def read_table_log(path: str | Path) -> TableLog:
    """Parse and shape-check a table log. Raises TableLogError naming the line of the first problem."""
    path = Path(path)
    try:
        text = read_input(path, limit=MAX_LOG_BYTES).decode("utf-8")
    except OSError as exc:  # missing, a folder, a device or a FIFO (never waited on), too large, too long a name
        raise TableLogError(f"{shown_path(path)}: cannot read the table log ({exc.strerror or exc}).",
                            params={"path": str(path)}) from exc
    except UnicodeDecodeError as exc:
        raise TableLogError(f"{shown_path(path)}: cannot read the table log (not UTF-8 text: {exc.reason}).",
                            params={"path": str(path)}) from exc
    header: dict[str, Any] | None = None
    lines: list[Line] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if len(stripped) > MAX_LINE_CHARS:
            raise _malformed(path, number, f"longer than {MAX_LINE_CHARS} characters")
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise _malformed(path, number, f"not valid JSON ({exc.msg})") from exc
        except (ValueError, RecursionError) as exc:  # a number of thousands of digits, nesting too deep
            raise _malformed(path, number, "not valid JSON (a number too long or values nested too deep)") from exc
        if not isinstance(data, dict):
            raise _malformed(path, number, "not a JSON object")
        if header is None:
            header = _check_header(path, number, data)
            continue
        operation = None
        if "op" in data:
            if "expect" in data:
                raise _malformed(path, number, "a line is an operation or a check, not both")
            try:
                operation = parse_operation(data)
            except MalformedOperation as exc:
                raise _malformed(path, number, str(exc)) from exc
        elif "expect" in data:
            if set(data) != {"expect"} or not isinstance(data["expect"], dict):
                raise _malformed(path, number, "a check is {\"expect\": {...}} and nothing else")
            unknown = set(data["expect"]) - CHECK_FIELDS
            if unknown:
                raise _malformed(path, number, f"unknown check field(s) {', '.join(sorted(unknown))}")
        else:
            raise _malformed(path, number, "neither an operation (\"op\") nor a check (\"expect\")")
        lines.append(Line(number, data, operation))
    if header is None:
        raise TableLogError(f"{path}: empty table log (no header).", params={"path": str(path)})
    return TableLog(path, header, lines)


def header_rules_version(header: dict[str, Any]) -> int:
    """The version of the board's rules a table log's ``header`` plays by (docs/table-log.md, Rules versions):
    its ``rules_version`` (1 or 2); absent, 1 on the electronic board (every log written before version 2 named
    none: the reading before), and :data:`~terminal.bank.types.RULES_VERSION` on a classic board, whose rules
    the version does not change (an unknown edition too: starting the game refuses it)."""
    version = header.get("rules_version")
    if version is not None:
        return int(version)
    try:
        return board_of(load_edition(header["edition"])).unnamed_rules_version
    except (LookupError, KeyError, TypeError):
        return RULES_VERSION


def _malformed(path: Path, number: int, reason: str) -> TableLogError:
    reason = reason.rstrip(".")  # the reasons of the operations' own errors end with one already
    return TableLogError(f"{path}:{number}: malformed line: {reason}.",
                         params={"path": str(path), "line": number, "reason": reason})


def _check_header(path: Path, number: int, data: dict[str, Any]) -> dict[str, Any]:
    if data.get("format") != "table-log" or data.get("version") != 1 or type(data.get("version")) is not int:
        raise _malformed(path, number, "the first line must be a header with \"format\": \"table-log\" and "
                                       "\"version\": 1")
    unknown = set(data) - HEADER_FIELDS
    if unknown:
        raise _malformed(path, number, f"unknown header field(s) {', '.join(sorted(unknown))}")
    if not isinstance(data.get("edition"), str):
        raise _malformed(path, number, "the header needs an \"edition\"")
    if not isinstance(data.get("players"), list) or not all(isinstance(p, str) for p in data["players"]):
        raise _malformed(path, number, "the header needs \"players\", a list of names")
    if not isinstance(data.get("rules", {}), dict) or not isinstance(data.get("dealt", {}), dict):
        raise _malformed(path, number, "\"rules\" and \"dealt\" must be objects")
    version = data.get("rules_version")
    if version is not None and (type(version) is not int or version not in RULES_VERSIONS):
        raise _malformed(path, number, f"\"rules_version\" must be one of {', '.join(map(str, RULES_VERSIONS))}")
    minutes = data.get("length_minutes")
    if minutes is not None and (not isinstance(minutes, int) or isinstance(minutes, bool)):
        raise _malformed(path, number, "\"length_minutes\" must be a whole number of minutes")
    for player, squares in data.get("dealt", {}).items():
        if not isinstance(squares, list) or not all(type(s) is int for s in squares):
            raise _malformed(path, number, f"\"dealt\": {player!r} must be given a list of squares")
    if not isinstance(data.get("mode", "classic"), str) or not isinstance(data.get("end_time") or "", str):
        raise _malformed(path, number, "\"mode\" and \"end_time\" must be texts")
    return data


def _compare(number: int, field: str, expected: Any, actual: Any) -> None:
    def mismatch(exp: Any, act: Any, name: str = field) -> NoReturn:
        raise ReplayMismatch(f"line {number}: {name}: expected {json.dumps(exp, ensure_ascii=False)}, "
                             f"actual {json.dumps(act, ensure_ascii=False)}",
                             params={"line": number, "field": name, "expected": exp, "actual": act})
    if field in SUBSET_FIELDS:
        if not isinstance(expected, dict):
            mismatch(expected, actual)
        for key, value in expected.items():
            if key not in actual or actual[key] != value:
                mismatch(value, actual.get(key), f"{field}.{key}")
    elif field in UNORDERED_LIST_FIELDS:
        if not isinstance(expected, list) or sorted(map(str, expected)) != sorted(map(str, actual)):
            mismatch(expected, actual)
    elif expected != actual:
        mismatch(expected, actual)


def replay(log: str | Path | TableLog, game_path: str | Path, *, key: bytes,
           progress: Callable[[int], object] | None = None, wall_clock: WallClock = system_clock) -> ReplayResult:
    """Replay a table log into a new game file ``game_path``.

    Returns the counts on success. Raises TableLogError (malformed line: the replay stops there),
    ReplayMismatch (an accepted refusal, a refused operation, or a failing check), or LedgerError.
    ``key``: the device key's bytes. ``progress``: optional callable(line_number) called after each line.
    ``wall_clock``: the time the entries are recorded at (default: now); a log's ``end_time`` is never
    converted into play time (it is no table's).
    """
    log = log if isinstance(log, TableLog) else read_table_log(log)
    h = log.header
    try:
        game = Game.create(game_path, h["edition"], h["players"], mode=h.get("mode"),
                           rules=h.get("rules") or None, dealt=h.get("dealt") or None,
                           end_time=h.get("end_time"), length_minutes=h.get("length_minutes"), key=key,
                           wall_clock=wall_clock, rules_version=header_rules_version(h))
    except LedgerError:
        raise  # the game file, not the log: an existing or unwritable path
    except GameError as exc:
        if isinstance(exc, (MalformedOperation,)):
            raise
        raise TableLogError(f"{log.path}: the header cannot start a game: {exc}",
                            params={"path": str(log.path), "line": 1}) from exc
    # Committed in batches, durably at the end, then closed; at a mismatch what came before it is kept (Game.batch)
    # for a look: that is the game the log describes up to its first disagreement. Any other end before the last
    # line (a malformed line, an interruption, a failure) leaves no game file: never half of one.
    try:
        operations, refused, checks = _replay_lines(log, game, progress)
    except ReplayMismatch:
        raise
    except BaseException:
        _remove_game(Path(game_path))
        raise
    return ReplayResult(operations, refused, checks, Path(game_path))


#: The refusals of an amount that a log cannot hold (:func:`terminal.bank.money.check_amount`).
GARBAGE_AMOUNTS = ("amount_absurd", "amount_not_whole")


def _remove_game(path: Path) -> None:
    for name in (path, *(path.with_name(path.name + s) for s in ("-wal", "-shm", "-journal"))):
        with contextlib.suppress(OSError):
            name.unlink()


def _replay_lines(log: TableLog, game: Game, progress: Callable[[int], object] | None) -> tuple[int, int, int]:
    """Every line of ``log`` into ``game`` (then closed): ``(operations, refused, checks)``."""
    operations = refused = checks = 0
    with contextlib.closing(game), game.batch():
        for line in log.lines:
            data = line.data
            if line.operation is not None:
                operations += 1
                should_refuse = bool(data.get("refused"))
                try:
                    game.apply(line.operation)
                except MalformedOperation as exc:
                    raise _malformed(log.path, line.number, str(exc)) from exc
                except GameError as exc:
                    if not should_refuse and getattr(exc, "code", "") in GARBAGE_AMOUNTS:
                        # No table ever saw it: an amount beyond any bank's, or not a whole number, is a broken
                        # log, not a disagreement with the rules.
                        raise _malformed(log.path, line.number, str(exc)) from exc
                    if not should_refuse:
                        raise ReplayMismatch(f"line {line.number}: {data['op']} was refused: {exc}",
                                             params={"line": line.number, "field": "refused", "expected": False,
                                                     "actual": True, "reason": str(exc)}) from exc
                    refused += 1
                else:
                    if should_refuse:
                        raise ReplayMismatch(f"line {line.number}: {data['op']} was accepted but the log says it "
                                             f"must be refused", params={"line": line.number, "field": "refused",
                                                                         "expected": True, "actual": False})
            else:
                checks += 1
                state = game.state()
                for field, expected in data["expect"].items():
                    if field not in state:  # a check of the other board (levels on the classic one...)
                        raise ReplayMismatch(f"line {line.number}: {field}: not a check of this game's board",
                                             params={"line": line.number, "field": field, "expected": expected,
                                                     "actual": None})
                    _compare(line.number, field, expected, state[field])
            if progress:
                progress(line.number)
    return operations, refused, checks


def export_lines(game: Game, with_final_check: bool = True) -> Iterator[dict[str, Any]]:
    """The game as table-log lines: the header, every recorded operation and undo in journal order, and
    (by default) a final check of the whole state. Replaying them gives the same state."""
    meta = game.meta
    header: dict[str, Any] = {"format": "table-log", "version": 1, "edition": meta["edition"],
                              "players": meta["players"], "mode": meta["mode"]}
    # the flags that differ from the edition's defaults under the game's rules version (an older game may have been
    # started with other defaults: its header's full flags say what it is played by)
    defaults = game.edition.rules_of(game.config.rules_version)
    changed = {k: v for k, v in (meta.get("rules") or {}).items() if defaults.get(k) != v}
    if changed:
        header["rules"] = changed
    if meta.get("dealt"):
        header["dealt"] = meta["dealt"]
    if meta.get("end_time"):
        header["end_time"] = meta["end_time"]
    if meta.get("length_minutes") is not None:
        header["length_minutes"] = meta["length_minutes"]
    header["rules_version"] = game.config.rules_version  # always: absent, an electronic board's log is version 1
    header["source"] = f"exported by Banquier from {game.path.name}"
    yield header
    for _seq, kind, op in iter_operations(game.ledger):  # a chunk at a time: memory bounded by the chunk
        if kind == "op" and op.get("op") == TimeUp.op:
            continue  # implied by the play time that reached the limit (replayed, it ends the game again)
        if kind == "op":
            yield op
        elif kind == "undo":
            yield {"op": "undo"}
    if with_final_check:
        yield {"expect": game.state()}


def export_table_log(game: Game, path: str | Path) -> int:
    """Write :func:`export_lines` to ``path``; return the number of lines."""
    count = 0
    with open(path, "w", encoding="utf-8") as f:
        for line in export_lines(game):
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
            count += 1
    return count
