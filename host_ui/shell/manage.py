"""``banquier cards ...`` and ``banquier games ...``: the card set and the game files in the data directory.

Game files live in ``DATA_DIR/games/*.db`` (archived ones in ``DATA_DIR/archive/``); the game the terminal
resumes at start-up is named in ``DATA_DIR/current`` (else the most recently changed game that is not over).
The card set is ``DATA_DIR/cards.txt`` (see :mod:`cards.registry`).

Every ``banquier`` command (``--help`` too) loads this module for :func:`add_parsers`: what a subcommand needs
(opening games, backups, output files, the card registry, hal) is loaded by that subcommand when it runs.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import threading
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Required, TypedDict

from cards.errors import CardsError
from terminal.bank.audit import DAMAGE
from terminal.bank.durable import fsync_directory, make_directories, replace_durably
from terminal.errors import GameError, one_line

if TYPE_CHECKING:
    from cards.registry import CardRegistry
    from hal.uid import UidForm
    from host_ui.shell.config import Config, ReaderSettings
    from host_ui.shell.outputs import Protected
    from terminal.bank.game import Game

EXIT_OK, EXIT_MISMATCH, EXIT_USAGE, EXIT_FILE = 0, 1, 2, 3


#: The ``current`` marker's mode: the service's group may read it, as its games (whatever the umask).
MARKER_MODE = 0o640
#: The longest a ``--seconds`` may ask: about 115 days (a limit, not an expected use).
MAX_SECONDS = 10_000_000.0


def seconds_argument(text: str) -> float:
    """``--seconds``: a number of seconds above 0 and at most :data:`MAX_SECONDS` (``nan``, ``inf``, a
    negative or a huge number is refused: ``nan`` would never be reached)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text[:40]!r}") from None
    if not 0 < value <= MAX_SECONDS:  # also refuses nan
        raise argparse.ArgumentTypeError(f"the seconds must be above 0 and at most {MAX_SECONDS:g}, not {text[:40]}")
    return value


def describe_os_error(exc: OSError) -> str:
    """One line for a file the system refused: its name (shortened when very long) and the system's reason."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename is None:
        return f"{reason}."
    from cards.inputs import shown_path  # late: for an error line only
    return f"{shown_path(exc.filename)}: {reason}."


def games_dir(data: Path) -> Path:
    return data / "games"


class GameRow(TypedDict, total=False):
    """One game of :func:`list_games`: its ``path``, ``name`` and ``modified`` time (the file's or its WAL's,
    whichever is newer: an entry may be in the WAL only); then either its ``problem`` (``unverified`` for a
    game signed with another device key, ``audit_failed`` for a journal that does not verify) or what its header
    says, with ``last_entry_at``, the time its last entry was recorded (None for a game without one)."""

    path: Required[Path]
    name: Required[str]
    modified: Required[float]
    problem: str
    unverified: bool
    audit_failed: bool
    last_entry_at: datetime | None
    edition: str
    mode: str
    players: list[str]
    entries: int
    over: bool


def _modified(path: Path) -> float:
    """When a game file last changed: the newest of its own time and its WAL's (``-wal``), where entries live
    until SQLite's checkpoint copies them into the file."""
    times = [path.stat().st_mtime]
    try:
        times.append(path.with_name(path.name + "-wal").stat().st_mtime)
    except OSError:
        pass
    return max(times)


def list_games(data: Path, key_path: Path | None = None, *, check: bool = False) -> list[GameRow]:
    """Every game file under ``DATA_DIR/games`` with its header and size, newest first. A file that cannot be
    opened is listed with its problem, never removed. ``key_path``: the device key (default: the usual one).
    ``check``: open each game with the checks of a resume (:meth:`terminal.Game.open` ``check="auto"``, read
    only: SQLite's quick check, the stored state against the journal, a full audit after an unclean stop),
    then verify the keyed hash chain of every entry from the first and the journal's schema (its tables and
    append-only triggers): an entry edited behind the last audit's checkpoint shows too, at a cost that follows
    the game's length (0.24 s for 9 658 entries on the 2-core development machine; a full audit with its
    replay: 1.2 s). A game that fails is listed with its problem (``audit_failed``), not as a game in play."""
    # Late (here and below): a subcommand's modules, off the path of `banquier --help` (see the docstring).
    from host_ui.shell.games import open_game
    from terminal.bank.history import read_entries
    from terminal.errors import AuditFailed
    rows = []
    folder = games_dir(data)
    found = [(path, _modified(path)) for path in folder.glob("*.db")] if folder.is_dir() else []
    for path, modified in sorted(found, key=lambda item: item[1], reverse=True):
        row: GameRow = {"path": path, "name": path.stem, "modified": modified}
        try:
            game = open_game(path, check="auto" if check else "none", read_only=True, key_path=key_path)
        except (GameError, OSError) as exc:
            row["problem"] = one_line(exc)
            if getattr(exc, "code", None) == "audit_foreign_key":
                row["unverified"] = True
            elif isinstance(exc, AuditFailed):
                row["audit_failed"] = True
        else:
            try:
                failed = _verify(game, path) if check else None
                if failed is not None:
                    row.update({"problem": failed, "audit_failed": True})
                else:
                    last = game.ledger.last_entry()
                    seq = last[0] if last else 0
                    entry = read_entries(game.ledger, seq, seq, seq, with_clock=True) if seq else []
                    row.update({"edition": game.edition.name, "mode": game.mode, "players": list(game.players),
                                "entries": seq, "over": game.is_over(), "last_entry_at":
                                datetime.fromisoformat(entry[0]["recorded_at"]) if entry else None})
            except DAMAGE as exc:
                row["problem"] = (f"{path} is damaged ({type(exc).__name__}: {one_line(exc)[:200]}). It was left "
                                  f"untouched; restore a backup.")
            finally:
                game.close()
        rows.append(row)
    # newest first by what is shown: the time of the last entry (the file's time for a game without one)
    rows.sort(key=_shown_time, reverse=True)
    return rows


def _shown_time(row: GameRow) -> float:
    last = row.get("last_entry_at")
    return last.timestamp() if last is not None else row["modified"]


def _verify(game: Game, path: Path) -> str | None:
    """What :func:`list_games` finds wrong with ``game`` beyond the checks of its opening (see there), in one
    sentence naming the fix; None when the whole chain and the schema are as the terminal wrote them."""
    ledger = game.ledger
    problems, _first, _last = ledger.chain_since(0, ledger.genesis_mac())
    problems += [f"{problem[:1].upper()}{problem[1:]}." for problem in ledger.schema_problems()]
    if not problems:
        return None
    return (f"{path} was changed outside the terminal: {problems[0]} The file was left untouched; `banquier audit "
            f"{path.stem}` tells more; restore a backup (`banquier games restore {path.stem}`).")


def current_game(data: Path, key_path: Path | None = None) -> Path | None:
    """The game to resume: the one named in ``DATA_DIR/current`` if it still exists, else the newest game
    that is not over, else None."""
    return current_game_and_listing(data, key_path)[0]


def current_game_and_listing(data: Path, key_path: Path | None = None) -> tuple[Path | None, list[GameRow] | None]:
    """:func:`current_game`, with the :func:`list_games` rows it read to choose (None when the marker named the
    game), so that a caller that wants them too does not open every game file again."""
    marker = data / "current"
    try:
        name = marker.read_text(encoding="utf-8").strip() if marker.is_file() else ""
    except (OSError, UnicodeDecodeError):
        name = ""  # a damaged marker: fall back to the newest game
    if name and Path(name).name == name:  # a name in the games folder, never a path elsewhere
        path = games_dir(data) / name
        if path.is_file():
            return path, None
    rows = list_games(data, key_path)
    for row in rows:
        if "problem" not in row and not row["over"]:
            return row["path"], rows
    return None, rows


def set_current(data: Path, path: Path | None) -> None:
    """Name ``path`` (a game of ``DATA_DIR/games``) in ``DATA_DIR/current`` as the game to resume, durably: a power
    cut leaves the old name or the new one, never an empty marker (issue 21, point 2). None removes the marker.
    The marker is written under a new temporary name (never a link planted in the data folder followed), mode
    0640 whatever the umask (issue 22, point 8)."""
    marker = data / "current"
    if path is None:
        marker.unlink(missing_ok=True)
        fsync_directory(data)
        return
    make_directories(marker.parent)
    replace_durably(marker, (path.name + "\n").encode("utf-8"), MARKER_MODE)


def _find(data: Path, name: str) -> Path | None:
    """A game of ``DATA_DIR/games`` by name (``sunday`` or ``sunday.db``) or by a path that leads there; never a
    file elsewhere."""
    folder = games_dir(data).resolve()
    for path in (games_dir(data) / name, games_dir(data) / f"{name}.db", Path(name)):
        if path.is_file() and path.resolve().parent == folder:
            return path
    return None


def cmd_games(args: argparse.Namespace, data: Path, key_path: Path | None = None, backups: Path | None = None) -> int:
    if args.action == "list":
        rows = list_games(data, key_path, check=True)
        if not rows:
            print(f"No game in {games_dir(data)}.")
        current = current_game(data, key_path)
        for row in rows:
            mark = "*" if current and row["path"] == current else " "
            if "problem" in row:
                label = ("UNVERIFIED" if row.get("unverified") else "FAILS ITS AUDIT" if row.get("audit_failed")
                         else "DAMAGED")
                print(f"{mark} {row['name']:<32} {label}: {row['problem']}")
                continue
            state = "over" if row["over"] else "in play"
            players, entries = len(row["players"]), row["entries"]
            # the time of the last entry (in the file or still in its WAL), in this machine's time zone
            last_at = row.get("last_entry_at")
            changed = (last_at.astimezone() if last_at is not None else datetime.fromtimestamp(row["modified"])) \
                .strftime("%Y-%m-%d %H:%M")
            print(f"{mark} {row['name']:<32} {changed}  {row['edition']:<10} {row['mode']:<16} "
                  f"{players} player{'s' * (players != 1)}  {entries:>6} entr{'ies' if entries != 1 else 'y'}  "
                  f"{state}  ({', '.join(row['players'])})")
        return EXIT_OK
    path = _find(data, args.game)
    if path is None:
        print(f"banquier: no game {args.game!r} in {games_dir(data)} (see `banquier games list`; games elsewhere "
              f"are not managed here).", file=sys.stderr)
        return EXIT_USAGE
    if args.action == "resume":
        from host_ui.shell.games import open_game  # late: opening games, for resume and archive only
        try:
            open_game(path, check="full", read_only=True, key_path=key_path).close()
        except (GameError, OSError) as exc:
            print(f"banquier: cannot resume {path.name}: {one_line(exc)}", file=sys.stderr)
            return EXIT_FILE
        set_current(data, path)
        print(f"{path.name} will be resumed at the next start.")
        return EXIT_OK
    if args.action == "restore":
        return _restore(path, data, key_path, backups)
    if args.action == "archive":
        from host_ui.shell.games import open_game
        try:
            with open_game(path, check="none", read_only=True, key_path=key_path) as game:
                over = game.is_over()
                in_use = game.ledger.was_unclean
        except (GameError, OSError, *DAMAGE):
            over = in_use = False
        if in_use:
            print(f"banquier: {path.name} is in use, or Banquier stopped without closing it: stop Banquier (or "
                  f"resume the game once) before archiving it.", file=sys.stderr)
            return EXIT_FILE
        if not over and not args.force:
            print(f"banquier: {path.name} is not finished: archive it anyway with --force.", file=sys.stderr)
            return EXIT_USAGE
        target = data / "archive" / path.name
        make_directories(target.parent)
        if target.exists():
            print(f"banquier: {target} already exists; nothing moved.", file=sys.stderr)
            return EXIT_FILE
        shutil.move(str(path), str(target))
        if current_game(data, key_path) is None or ((data / "current").is_file() and \
                (data / "current").read_text(encoding="utf-8").strip() == path.name):
            set_current(data, None)
        print(f"archived {path.name} -> {target}")
        return EXIT_OK
    return EXIT_USAGE


def _restore(path: Path, data: Path, key_path: Path | None, backups: Path | None) -> int:
    """``games restore GAME``: the newest good backup of GAME into a new game file, made current; GAME is kept."""
    # Late: the backups and the device key, for `games restore` only.
    from host_ui.shell.backup import newest_good_backup, restore_backup
    from host_ui.shell.device_key import load_key
    folder = backups if backups is not None else data / "backups"
    try:
        key = load_key(key_path)
        backup = newest_good_backup(path, folder, key)
        if backup is None:
            print(f"banquier: no backup of {path.name} in {folder} passes its check; nothing restored.",
                  file=sys.stderr)
            return EXIT_FILE
        game = restore_backup(backup, games_dir(data), key, stem=path.stem, mirrors=folder)  # and the entries
        # acknowledged after the backup, from the damaged game's mirror
        set_current(data, game.path)
    except (GameError, OSError) as exc:
        print(f"banquier: cannot restore {path.name}: {one_line(exc)}", file=sys.stderr)
        return EXIT_FILE
    restored, carried = game.path, game.restored
    game.close()
    after = f" and the {carried} acknowledged entries after it (from the mirror)" if carried else ""
    print(f"restored {backup.name}{after} into {restored.name} (the game resumed at the next start); {path.name} is "
          f"kept as it was.")
    return EXIT_OK


def cmd_cards(args: argparse.Namespace, data: Path, reader: ReaderSettings | None = None,
              protected: Protected | None = None) -> int:
    """``banquier cards ...``: ``data`` the data directory; ``reader`` the configured card reader (backend and
    its options), which the guided enrolment waits on (``--reader`` names another backend); ``protected``:
    what an export may not replace (default: :func:`protected_outputs` without a configuration)."""
    # Late: the card registry and (for an export) the output guard, for `banquier cards` only.
    from cards.inputs import read_input
    from cards.registry import MAX_CARD_SET_BYTES, CardRegistry, describe, parse_role
    path = Path(args.card_set) if args.card_set else data / "cards.txt"
    if args.card_set and args.action in ("enrol", "import"):
        # A card set named by the user goes in a folder that exists (as `export -o` and `replay --game`): no folder
        # is made for it, a typing mistake is said before any card is read. The default one may start a new data
        # folder.
        from host_ui.shell.outputs import OutputFileError, check_folder
        try:
            check_folder(path)
        except OutputFileError as exc:
            print(f"banquier: {exc}", file=sys.stderr)
            return EXIT_FILE
    try:
        registry = CardRegistry.load(path)
        if args.action == "list":
            roles = registry.roles()
            if not roles:
                print(f"No card enrolled yet ({path}).")
            for role, uid in roles.items():
                print(f"{uid:<22} {describe(role)}")
            return EXIT_OK
        if args.action == "export":
            text = registry.export_text()
            if args.file:
                from host_ui.shell.outputs import OutputFileError, OutputRefused, write_output
                try:
                    guard = protected if protected is not None else protected_outputs(None, card_set=path)
                    guard.card_sets.append(path)
                    write_output(args.file, lambda f: f.write(text), force=getattr(args, "force", False),
                                 protected=guard, what="card export")
                except OutputRefused as exc:
                    print(f"banquier: {exc}", file=sys.stderr)
                    return EXIT_USAGE
                except OutputFileError as exc:
                    print(f"banquier: {exc}", file=sys.stderr)
                    return EXIT_FILE
                print(f"wrote {len(registry)} cards to {args.file}")
            else:
                sys.stdout.write(text)
            return EXIT_OK
        if args.action == "import":
            try:
                text = read_input(args.file, limit=MAX_CARD_SET_BYTES).decode("utf-8") if args.file != "-" \
                    else sys.stdin.read(MAX_CARD_SET_BYTES)
            except UnicodeDecodeError as exc:
                print(f"banquier: {args.file} is not a UTF-8 text file ({exc.reason}); nothing imported.",
                      file=sys.stderr)
                return EXIT_USAGE
            added = registry.import_text(text, replace_all=args.replace_all)
            print(f"imported {added} {'card' if added == 1 else 'cards'} into {path}")
            return EXIT_OK
        if args.action == "enrol":
            if args.uid is not None:
                if not args.role:
                    print("banquier: --uid needs --role (e.g. --role 'player 1', 'deed 39', 'banker').",
                          file=sys.stderr)
                    return EXIT_USAGE
                role = parse_role(args.role)
                typed = _typed_uid(args.uid, getattr(args, "uid_form", None), args.reader, reader)
                if typed is None:
                    return EXIT_USAGE
                old = registry.enrol(typed, role, replace=args.replace)
                print(f"{registry.uid_of(role)} is now {describe(role)}" + (f" (replaces {old})" if old else ""))
                return EXIT_OK
            return _enrol_with_reader(registry, args, reader)
    except CardsError as exc:
        print(f"banquier: {exc}", file=sys.stderr)
        return EXIT_FILE if isinstance(exc, OSError) else EXIT_USAGE
    except OSError as exc:
        print(f"banquier: {describe_os_error(exc)}", file=sys.stderr)
        return EXIT_FILE
    return EXIT_USAGE


def protected_outputs(config: Config | None, *, config_path: str | os.PathLike[str] | None = None,
                      card_set: str | os.PathLike[str] | None = None) -> Protected:
    """What no output may replace (:mod:`host_ui.shell.outputs`): the device key, the card sets (the data
    directory's and ``card_set``), every game and mirror of the data directory and backup folder, its
    ``current`` marker, and the configuration files (the one ``config`` was read from, ``config_path``,
    ``$BANQUIER_CONFIG``, the user's and the system's). ``config`` None: one that did not load (then
    ``$BANQUIER_DATA_DIR`` is the data directory)."""
    # Late: the configuration's places, the device key's and the output guard, for the commands that write a file.
    from host_ui.shell.config import SYSTEM_CONFIG, user_config_path
    from host_ui.shell.device_key import default_key_path
    from host_ui.shell.outputs import Protected
    source = backups = key_file = None
    if config is not None:
        data, key_file, backups, source = Path(config.storage.data_dir), config.storage.key_file, \
            config.storage.backups, config.source
    else:
        data = Path(os.environ.get("BANQUIER_DATA_DIR") or ".")
    named = [Path(p).expanduser() for p in (config_path, os.environ.get("BANQUIER_CONFIG") or None) if p]
    return Protected(key_files=[default_key_path(), key_file],
                     card_sets=[data / "cards.txt", Path(card_set) if card_set is not None else None],
                     data_dirs=[data], game_folders=[backups],
                     config_files=[source, *named, SYSTEM_CONFIG, user_config_path(os.environ)])


def _uid_form(text: str) -> UidForm:
    """``--uid-form``: ``ORDER,DIGITS`` (``reversed,decimal``), or one of them alone (the other: ``sent``,
    ``hex``); orders and digits of ``hal.uid``. Raises ``ValueError`` with the one-line reason."""
    # Late: hal's UID forms, for `cards enrol --uid` only.
    from hal.uid import UID_DIGITS, UID_ORDERS, UidForm
    order, digits = "sent", "hex"
    parts = [part.strip() for part in text.replace("/", ",").split(",") if part.strip()]
    if not parts or len(parts) > 2:
        raise ValueError(f"--uid-form {text!r}: use ORDER,DIGITS such as 'reversed,decimal' (orders: "
                         f"{', '.join(UID_ORDERS)}; digits: {', '.join(UID_DIGITS)})")
    for part in parts:
        if part in UID_ORDERS:
            order = part
        elif part in UID_DIGITS:
            digits = part
        else:
            raise ValueError(f"--uid-form {text!r}: {part!r} is neither an order ({', '.join(UID_ORDERS)}) nor "
                             f"digits ({', '.join(UID_DIGITS)})")
    return UidForm(order, digits)


def _typed_uid(text: str, form_text: str | None, backend: str | None, settings: ReaderSettings | None) -> str | None:
    """The canonical UID of ``--uid`` as the reader writes it: through ``--uid-form`` if given, else the form the
    reader declares (``--reader``'s with its default options, else the configured reader's, ``hal.uid.UidForm``).
    With a hex form that was not named (a reader that writes hex, or none configured), 10 decimal digits and
    nothing else are refused as ambiguous (a 5-byte hex UID, or the 10-digit number a USB reader types).
    Returns None after printing the one-line reason on stderr."""
    try:
        if form_text is not None:
            return _uid_form(form_text).canonical(text)
        form = _reader_form(backend, settings)
    except ValueError as exc:  # an unknown --uid-form, or a number that is no UID in it
        print(f"banquier: {exc}", file=sys.stderr)
        return None
    cleaned = re.sub(r"[\s:\-.]", "", text)
    if form.digits == "hex" and len(cleaned) == 10 and cleaned.isascii() and cleaned.isdigit():
        print(f"banquier: {text} could be a 10-digit decimal card number or a 5-byte hex UID; say which with "
              f"--uid-form decimal (reversed,decimal for a reader that types the bytes backwards) or --uid-form hex.",
              file=sys.stderr)
        return None
    try:
        return form.canonical(text)
    except ValueError as exc:
        print(f"banquier: {exc}", file=sys.stderr)
        return None


def _reader_form(backend: str | None, settings: ReaderSettings | None) -> UidForm:
    """The form ``backend`` (with its default options) writes UIDs in, else the configured reader's."""
    from hal import registry as hal_registry
    from hal.uid import UidForm
    declared = hal_registry.reader_backends()
    if backend is not None and (settings is None or backend != settings.backend) and backend in declared:
        return declared[backend].form({})
    return settings.uid_form if settings is not None else UidForm()


def _enrol_with_reader(registry: CardRegistry, args: argparse.Namespace, settings: ReaderSettings | None) -> int:
    """The guided enrolment on the configured reader (``settings``: its backend, pins, port; ``--reader``
    names another backend, with its default options unless it is the configured one): one prompt per card,
    Ctrl-C or SIGTERM to stop."""
    # Late: hal (the reader's backend) and the enrolment, for the guided enrolment only.
    import hal
    from cards.registry import Enrolment, parse_role
    if args.role:
        enrolment = Enrolment.single(registry, parse_role(args.role), replace=args.replace)
    else:
        enrolment = Enrolment(registry, players=args.players, deeds=args.deeds, missing_only=not args.all)
    stop = threading.Event()
    hal.install_sigterm_handler(stop)
    backend = args.reader or (settings.backend if settings is not None else None)
    options = settings.hal_options() if settings is not None and backend == settings.backend else {}
    try:
        # env={}: the configuration has applied the BANQUIER_READER/... overrides already.
        reader = hal.load_reader(backend, env={} if settings is not None else None, **options)
    except hal.HalError as exc:
        print(f"banquier: {exc}", file=sys.stderr)
        return EXIT_FILE
    try:
        while (prompt := enrolment.prompt) is not None and not stop.is_set():  # None once done
            print(f"{prompt.text} (Ctrl-C to stop)", flush=True)
            event = hal.wait_for_card(reader, stop=stop)
            if event is None:
                break
            result = enrolment.present(event.uid)
            print(("  ok: " if result.accepted else "  refused: ") + result.text, flush=True)
    finally:
        reader.close()
    summary = enrolment.summary()
    print(summary.text)
    return EXIT_OK


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("games", help="list, resume or archive the games in the data directory",
                       description="The game files under DATA_DIR/games. 'resume' picks the game the terminal "
                                   "resumes at start-up; 'archive' moves a finished game to DATA_DIR/archive; "
                                   "'restore' puts the newest good backup of a game into a new game file.")
    p.add_argument("action", choices=["list", "resume", "archive", "restore"])
    p.add_argument("game", nargs="?", help="a game of DATA_DIR/games, by name (as listed)")
    p.add_argument("--force", action="store_true", help="archive: also a game that is not finished")
    p.set_defaults(func="games")
    p = sub.add_parser("cards", help="enrol, list, export or import RFID cards",
                       description="The card set (DATA_DIR/cards.txt): which card is which player's bank card, "
                                   "which sticker is on which title deed, and the banker card.")
    p.add_argument("action", choices=["enrol", "list", "export", "import"])
    p.add_argument("file", nargs="?", help="export: file to write (default stdout); import: file to read ('-' = stdin)")
    p.add_argument("--card-set", help="the card-set file (default DATA_DIR/cards.txt)")
    p.add_argument("--role", help="enrol one card: 'banker', 'player N' (1-8), 'deed N' (the title deed's square), "
                                  "or on the Ultimate Banking board 'property N' (1-22) and 'event N' (1-24)")
    p.add_argument("--uid", help="enrol without a reader: the card's UID as the reader writes it (with --role; "
                                 "read through --uid-form, else the configured reader's form)")
    p.add_argument("--uid-form", help="how --uid is written: ORDER,DIGITS, e.g. 'reversed,decimal' (orders: sent, "
                                      "reversed; digits: hex, decimal, auto); default: the configured reader's")
    p.add_argument("--replace", action="store_true", help="re-enrol a lost card: the role's old card is forgotten")
    p.add_argument("--players", type=int, default=8, help="guided enrolment: how many bank cards (default 8)")
    p.add_argument("--deeds", action="store_true", help="guided enrolment: also the title deed stickers")
    p.add_argument("--all", action="store_true", help="guided enrolment: also roles that already have a card")
    p.add_argument("--replace-all", action="store_true", help="import: replace the whole card set")
    p.add_argument("--force", action="store_true", help="export: replace an existing file (never a game, the card "
                                                         "set or the device key)")
    p.add_argument("--reader", help="reader backend for the guided enrolment (default: the configured reader, "
                                    "with its pins or port)")
    p.set_defaults(func="cards")
