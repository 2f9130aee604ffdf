"""The ``banquier`` command (also ``python -m host_ui``).

Exit codes: 0 success; 1 a replay or audit disagreed (the mismatch is printed); 2 bad usage or malformed
input (the line is named); 3 a file could not be read or written (game file damaged, unwritable directory).
Errors are one clear line on stderr, never a traceback.

Loaded at start: what every command (and ``banquier --help``) needs. The rest (the configuration with ``hal``,
opening games and the device key, output files, the table log, ``doctor``, the device and the simulator with
pygame) is loaded by the commands that use it, so that ``banquier --help`` and the small commands start fast on a
Pi Zero and never load pygame.
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import errno
import getpass
import json
import os
import sys
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

import terminal
from cards.errors import CardsError
from host_ui.shell import manage
from terminal.bank.audit import DAMAGE
from terminal.bank.money import format_amount
from terminal.errors import AuditFailed, GameError, LedgerError, one_line

if TYPE_CHECKING:
    from collections.abc import Iterable

    from host_ui.shell.config import Config
    from host_ui.shell.outputs import Protected
    from terminal.bank.game import Game

EXIT_OK, EXIT_MISMATCH, EXIT_USAGE, EXIT_FILE = 0, 1, 2, 3
#: The reader of the output went away (a pipe closed early): what a shell reports for a command ended by SIGPIPE.
EXIT_BROKEN_PIPE = 141
EXAMPLES = Path(terminal.__file__).with_name("examples")
DEMO_LOG = EXAMPLES / "recorded" / "game-fr-random-4p-101.jsonl"


_CONFIG_PATH: str | None = None


def load_config() -> Config:
    """The configuration (``--config``, ``$BANQUIER_CONFIG``, the user's or the system file, else defaults)."""
    # Late: the configuration module loads hal and the editions; `banquier --help` needs neither.
    from host_ui.shell.config import load_config as load
    return load(_CONFIG_PATH)


def data_dir() -> Path:
    """The configured data directory (``storage.data_dir``; ``$BANQUIER_DATA_DIR`` overrides it; default
    ``$XDG_DATA_HOME/banquier``, i.e. ``~/.local/share/banquier``)."""
    return Path(load_config().storage.data_dir)


def _new_game_path(folder: str, stem: str) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = data_dir() / folder / f"{stem}-{stamp}.db"
    n = 1
    while path.exists():
        n += 1
        path = data_dir() / folder / f"{stem}-{stamp}-{n}.db"
    return path


def _game_argument(text: str) -> Path:
    """The game file a command names: a path as given when it exists, else a game of ``DATA_DIR/games`` by name
    (``sunday`` or ``sunday.db``, as ``banquier games list`` shows it), else the path as given (the command then
    says there is no such file)."""
    path = Path(text)
    if path.exists():
        return path
    try:
        found = manage._find(data_dir(), text)
    except GameError:  # a broken configuration: the command reports the missing file as given
        return path
    return found if found is not None else path


def cmd_replay(args: argparse.Namespace) -> int:
    # Late: the table log and the device key, for the commands that replay a log only.
    from host_ui.shell.games import key_for_new_game
    from terminal.bank.tablelog import ReplayMismatch, TableLogError, read_table_log, replay
    try:
        log = read_table_log(args.log)
    except TableLogError as exc:
        return _fail(str(exc), EXIT_FILE if "cannot read" in str(exc) else EXIT_USAGE)
    if args.game is not None and not args.game.strip():
        return _fail("--game needs the name of the game file to create (or leave it out).", EXIT_USAGE)
    if args.game:
        from host_ui.shell.outputs import OutputFileError, check_folder  # late: for the commands that write files
        # The game's folder is never made for it (a mistyped path), but for the data folder's own folders, which
        # the Banquier makes with their modes (DATA_DIR/games on a fresh data folder).
        if not Path(args.game).absolute().parent.is_relative_to(data_dir().absolute()):
            try:
                check_folder(args.game)
            except OutputFileError as exc:
                return _fail(str(exc), EXIT_FILE)
    game_path = Path(args.game) if args.game else _new_game_path("replays", Path(args.log).stem)
    try:
        result = replay(log, game_path, key=key_for_new_game(data=data_dir()))
    except ReplayMismatch as exc:
        print(f"MISMATCH {args.log}: {exc} (game file so far: {game_path})", file=sys.stderr)
        return EXIT_MISMATCH
    except TableLogError as exc:
        return _fail(str(exc), EXIT_FILE if isinstance(exc.__cause__, OSError) else EXIT_USAGE)
    except LedgerError as exc:
        return _fail(str(exc), EXIT_FILE)
    print(f"{args.log}: {_count(result.operations, 'operation')} ({result.refused} refused as the log says) and "
          f"{_count(result.checks, 'check')} replayed: all agree.")
    print(f"game file: {result.game_path}")
    return EXIT_OK


def _open(path: str) -> Game:
    """Open a game to read it: read-only, after a full audit (an export must not carry edited entries)."""
    from host_ui.shell.games import open_game  # late: opening games, for the commands that read one
    return open_game(path, check="full", read_only=True)


def protected_files(card_set: str | Path | None = None) -> Protected:
    """What no output may replace: the device key, the card set, the games, mirrors and ``current`` marker of the
    data directory, and the configuration files (:func:`host_ui.shell.manage.protected_outputs`)."""
    try:
        config: Config | None = load_config()
    except GameError:
        config = None
    return manage.protected_outputs(config, config_path=_CONFIG_PATH, card_set=card_set)


def cmd_export(args: argparse.Namespace) -> int:
    # Late: the output files and the table log's writer, for this command only.
    from host_ui.shell.outputs import OutputFileError, OutputRefused, check_output, is_sqlite, write_output
    from terminal.bank.history import iter_history
    from terminal.bank.tablelog import export_lines
    protected = protected_files()
    if args.output:
        output = Path(args.output)
        if output.is_file() and (output.resolve() == Path(args.game).resolve() or is_sqlite(output)):
            return _fail(f"{output} is a game file: export writes to a new text file, never over a game.",
                         EXIT_USAGE)
        try:
            check_output(output, force=args.force, protected=protected, what="export")
        except OutputRefused as exc:
            return _fail(str(exc), EXIT_USAGE)
    try:
        game = _open(args.game)
    except AuditFailed as exc:
        return _fail(f"{args.game} fails its audit, so it is not exported: {exc}", EXIT_MISMATCH)
    except (LedgerError, GameError) as exc:
        return _fail(str(exc), EXIT_FILE)

    entries = 0

    def write(out: IO[str]) -> None:
        nonlocal entries
        if args.format == "table-log":
            for line in export_lines(game):
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
                entries += "op" in line
        elif args.format == "json":
            def counted(history: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
                nonlocal entries
                for item in history:
                    entries += 1
                    yield item
            write_json_export(out, game.meta, counted(iter_history(game.ledger)), game.state())
        else:
            entries = write_csv_export(out, game, language, display)

    language, display = _screen_language()
    try:
        if args.output:
            write_output(args.output, write, force=args.force, protected=protected, what="export")
            what = "operations" if args.format == "table-log" else "entries"
            print(f"wrote {Path(args.game).name} as {args.format} ({entries} {what}) to {args.output}")
        else:
            try:
                write(sys.stdout)
                sys.stdout.flush()
            except BrokenPipeError:
                raise  # the reader went away (`| head`): main() stops quietly
            except OSError as exc:  # a full disk or a broken device behind the redirection
                _stdout_gone()
                return _fail(f"cannot write the export to standard output: {exc.strerror or exc}.", EXIT_FILE)
    except OutputRefused as exc:
        return _fail(str(exc), EXIT_USAGE)
    except OutputFileError as exc:
        return _fail(str(exc), EXIT_FILE)
    except DAMAGE as exc:
        return _fail(f"{args.game} is damaged and could not be exported ({type(exc).__name__}: "
                     f"{one_line(exc)[:200]}). It was left untouched; restore a backup.", EXIT_FILE)
    finally:
        game.close()
    return EXIT_OK


#: The CSV export's columns: the journal's own, then ``description``, the entry and the posting in words.
CSV_COLUMNS = ("seq", "kind", "operation", "undone", "payer", "payee", "amount", "description")


def _screen_language() -> tuple[str, str]:
    """The configured screen language and amount display, for words an export writes (defaults when the
    configuration does not load: the command then reports what is wrong where it matters)."""
    try:
        game = load_config().game
    except GameError:
        return "fr", "plain"
    return game.language, game.amount_display


def write_csv_export(out: IO[str], game: Game, language: str, display: str = "plain") -> int:
    """Write the CSV export of ``game`` to ``out``, one entry at a time (:data:`CSV_COLUMNS`; one row per
    posting, one row for an entry without postings); return the number of entries written. The
    ``description`` says, in ``language``, what the history screen says of the entry and, on a posting's row,
    that posting ("Anne · Loyer de Rue Lecourbe — Anne → Bruno 26 €":
    :mod:`host_ui.screen.history_text`)."""
    # Late: the history's words (the catalogs) and the journal reader, for this export only.
    from host_ui.screen.history_text import history_label, movement_text
    from terminal.bank.history import iter_history
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    edition = game.edition
    entries = 0
    for item in iter_history(game.ledger):
        op = json.dumps(item["op"], ensure_ascii=False)
        label = history_label(item, language, edition)
        if not item["postings"]:
            writer.writerow([item["seq"], item["kind"], op, item["undone"], "", "", "", label])
        for payer, payee, amount in item["postings"]:
            words = f"{label} — {movement_text((payer, payee, amount), language, edition, display)}"
            writer.writerow([item["seq"], item["kind"], op, item["undone"], payer, payee, amount, words])
        entries += 1
    return entries


def _stdout_gone() -> None:
    """Standard output failed (a full disk, a broken device behind the redirection) and the failure is being
    reported: what its buffer still holds is dropped, so the interpreter's last flush at exit does not fail
    again ("Exception ignored ... OSError", exit 120) when output is buffered, as in a plain shell without
    ``PYTHONUNBUFFERED``."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def write_json_export(out: IO[str], meta: dict[str, Any], history: Iterable[dict[str, Any]],
                      state: dict[str, Any]) -> None:
    """Write ``{"meta": ..., "history": [...], "state": ...}`` to ``out`` exactly as ``json.dump(..., indent=1,
    ensure_ascii=False, default=list)`` writes it, one history entry at a time (the history is not held in
    memory). A JSON text has no raw line break inside a string, so a value encoded on its own is indented by
    prefixing its lines."""
    def value(item: Any, level: int) -> str:
        return json.dumps(item, ensure_ascii=False, indent=1, default=list).replace("\n", "\n" + " " * level)
    out.write('{\n "meta": ' + value(meta, 1) + ',\n "history": [')
    first = True
    for item in history:
        out.write(("\n  " if first else ",\n  ") + value(item, 2))
        first = False
    out.write("]" if first else "\n ]")
    out.write(',\n "state": ' + value(state, 1) + "\n}\n")


def cmd_audit(args: argparse.Namespace) -> int:
    from host_ui.shell.games import open_game  # late: opening games, for the commands that read one
    try:
        game = open_game(args.game, check="none", read_only=True)
    except AuditFailed as exc:
        print(f"AUDIT FAILED {args.game}: {exc}", file=sys.stderr)
        return EXIT_MISMATCH
    except (LedgerError, GameError) as exc:
        return _fail(str(exc), EXIT_FILE)
    try:
        report = game.audit()
        lost = _lost_entries(game)
    finally:
        game.close()
    if lost:
        report.fail(lost)
    print(f"{args.game}: {report.summary()}")
    for problem in report.problems:
        print(f"  - {problem}")
    return EXIT_OK if report.ok else EXIT_MISMATCH


def _lost_entries(game: Game) -> str | None:
    """The entries the mirror of acknowledged entries holds beyond the game file's end (a WAL that lost its
    last frames), as one sentence; None when there are none (or no mirror)."""
    from host_ui.shell.startup import mirror_of  # late: the start-up module, for `banquier audit` only
    try:
        mirror = mirror_of(game.path, load_config().storage.backups)
    except GameError:
        return None
    if mirror is None:
        return None
    game.ledger.mirror = mirror
    last = game.ledger.last_entry()
    try:
        extra = game.ledger.mirrored_after(last[0] if last else 0)
    except OSError:
        return None
    finally:
        game.ledger.mirror = None
    if not extra:
        return None
    return (f"The file lost its last {len(extra)} acknowledged entries (#{extra[0]['seq']} to #{extra[-1]['seq']}, "
            f"kept in the mirror {mirror}): resuming the game on the terminal writes them back, and restoring its "
            f"newest good backup (`banquier games restore`) brings them back with it.")


def cmd_key(args: argparse.Namespace) -> int:
    """``banquier key new``: a new device key, only when the old one is missing or damaged."""
    from host_ui.shell.device_key import default_key_path, new_key  # late: the device key, for this command
    try:
        path = new_key(default_key_path(), data=data_dir(), force=args.force)
    except LedgerError as exc:
        return _fail(str(exc), EXIT_USAGE if exc.code == "key_exists" else EXIT_FILE)
    print(f"new device key {path}: keep a copy of it somewhere safe (games signed with it cannot be verified "
          f"without it).")
    return EXIT_OK


def cmd_pin(args: argparse.Namespace) -> int:
    """``sudo banquier pin set``: store the banker PIN as a salted hash in the configuration file."""
    # Late: the configuration module (hal, the editions) and the PIN hashing, for this command only.
    from host_ui.shell.config import SYSTEM_CONFIG, find_config, parse_config
    from host_ui.shell.pin import set_pin_in_config, valid_pin
    try:
        target = find_config(_CONFIG_PATH) or SYSTEM_CONFIG
    except GameError as exc:
        return _fail(str(exc), EXIT_FILE)
    if args.stdin or not sys.stdin.isatty():
        lines = sys.stdin.read().splitlines()
        pin, again = (lines + ["", ""])[0].strip(), (lines + ["", ""])[1].strip() or (lines + [""])[0].strip()
    else:
        pin = getpass.getpass("New banker PIN (4 to 8 digits): ").strip()
        again = getpass.getpass("The same PIN again: ").strip()
    if not valid_pin(pin):
        return _fail("a banker PIN is 4 to 8 digits; nothing was changed.", EXIT_USAGE)
    if pin != again:
        return _fail("the two PINs differ; nothing was changed.", EXIT_USAGE)
    try:
        set_pin_in_config(target, pin, lambda text: parse_config(text, source=target),
                          new_owner=_service_owner(target))
    except GameError as exc:
        return _fail(f"{exc}; nothing was changed.", EXIT_USAGE)
    except OSError as exc:
        return _fail(f"cannot write {target}: {exc.strerror or exc} (the configuration is root's: sudo banquier pin "
                     f"set); nothing was changed.", EXIT_FILE)
    print(f"banker PIN stored as a salted hash in {target} (restart Banquier to use it).")
    return EXIT_OK


def _service_owner(target: Path) -> tuple[int, int] | None:
    """Who a new system configuration belongs to: root, with the service's group (which reads it), when root
    makes it; None (the writer) otherwise."""
    import grp  # late: for `pin set` only

    from host_ui.shell.config import SYSTEM_CONFIG
    if os.geteuid() != 0 or Path(target) != SYSTEM_CONFIG:
        return None
    try:
        return 0, grp.getgrnam("banquier").gr_gid
    except KeyError:
        return None


def cmd_demo(args: argparse.Namespace) -> int:
    """Replay the shipped demo game and print the final standings."""
    # Late: the table log, opening games and the device key, for the commands that replay a log only.
    from host_ui.shell.games import key_for_new_game, open_game
    from terminal.bank.tablelog import ReplayMismatch, replay
    path = _new_game_path("replays", "demo")
    log = Path(args.log) if args.log else DEMO_LOG
    try:
        result = replay(log, path, key=key_for_new_game(data=data_dir()))
    except ReplayMismatch as exc:
        return _fail(str(exc), EXIT_MISMATCH)
    except GameError as exc:  # an unreadable log is a file problem (3), a malformed one bad input (2)
        return _fail(str(exc), EXIT_FILE if isinstance(exc, OSError) or isinstance(exc.__cause__, OSError)
                     else EXIT_USAGE)
    game = open_game(path, read_only=True)
    try:
        print(f"Banquier replayed {log.name}: {_count(result.operations, 'operation')}, "
              f"{_count(result.checks, 'check')}, all agree.")
        print("Standings:")
        for rank, player in enumerate(game.standings(), 1):
            print(f"  {rank}. {player:<10} cash {format_amount(game.cash(player), game.edition):>10}   "
                  f"worth {format_amount(game.worth(player), game.edition):>10}")
        print(f"Game file: {path}")
    finally:
        game.close()
    return EXIT_OK


def _use_configured_key() -> None:
    """Point the device-key lookups at ``storage.key_file`` of the configuration (on the device:
    /var/lib/banquier/device.key), unless $BANQUIER_KEY_FILE says otherwise. A configuration that does not
    load is left for the commands that need it to report."""
    if os.environ.get("BANQUIER_KEY_FILE"):
        return
    try:
        key_file = load_config().storage.key_file
    except GameError:
        return
    if key_file is not None:
        os.environ["BANQUIER_KEY_FILE"] = str(key_file)


def cmd_run(args: argparse.Namespace) -> int:
    """The terminal with the configured hardware; the simulator on a PC without configuration, or whose
    configuration says ``reader = sim`` with a window (a `banquier pin set` file, say): the device's loop would
    open a window with nothing to tap. ``--headless`` (tests) always runs the device's loop."""
    # Late: the configuration module (hal, the editions), then the device (pygame) only once it runs.
    from host_ui.shell.config import find_config
    config = load_config()
    if not args.headless and not _on_raspberry_pi():
        found = find_config(_CONFIG_PATH)
        if found is None:
            print("banquier: no configuration and no Raspberry Pi here: starting the simulator "
                  "(`banquier sim --help`).", file=sys.stderr)
            return cmd_sim(argparse.Namespace(sim_args=_sim_options(config, args)))
        if config.reader.backend == "sim" and config.display.output == "window":
            print(f"banquier: {found} says reader = sim, in a window, and this is no Raspberry Pi: starting the "
                  f"simulator, whose tray holds the cards to tap (`banquier sim --help`).", file=sys.stderr)
            return cmd_sim(argparse.Namespace(sim_args=_sim_options(config, args)))
    from host_ui.device import run_device
    return run_device(config, headless=args.headless, max_seconds=args.seconds)


def _sim_options(config: Config, args: argparse.Namespace) -> list[str]:
    """The simulator's options for what `banquier run` was given: the configured screen (its size when the
    simulator lays it out), ``--seconds``."""
    from host_ui.sim import SIZES  # late: the simulator's module, for the run that starts it
    display = config.display
    options = ["--rotation", str(display.rotation)]
    if (display.width, display.height) in SIZES:
        options += ["--size", f"{display.width}x{display.height}"]
    return options + (["--seconds", str(args.seconds)] if args.seconds is not None else [])


def _on_raspberry_pi() -> bool:
    # Late: doctor's machine facts (and the configuration it loads), for `banquier run` only.
    from host_ui.shell.doctor import read_model
    return "raspberry pi" in (read_model() or "").lower()


def cmd_sim(args: argparse.Namespace) -> int:
    # Late: the simulator loads pygame and the screen code.
    from host_ui.sim import main as sim_main
    if _CONFIG_PATH is not None:  # the simulator reads the configuration itself (the PIN, the timeouts)
        os.environ["BANQUIER_CONFIG"] = _CONFIG_PATH
    argv = list(args.sim_args)
    if not any(a == "--data-dir" or a.startswith("--data-dir=") for a in argv):
        argv += ["--data-dir", str(data_dir())]
    if not any(a == "--language" or a.startswith("--language=") for a in argv):
        argv += ["--language", load_config().game.language]
    return sim_main(argv)  # its --screenshot guard protects the configuration named above too (BANQUIER_CONFIG)


def cmd_doctor(args: argparse.Namespace) -> int:
    # Late: doctor's checks (and the configuration they read), for this command only.
    from host_ui.shell.doctor import format_checks, run_checks, worst
    try:
        config = load_config()
    except GameError as exc:
        print(f"FAIL  config     {exc}", file=sys.stderr)
        if isinstance(exc.__cause__, PermissionError):
            print(f"{'':16} fix: run it as the service user: banquier doctor (the command in /usr/local/bin "
                  f"does it), or sudo -u banquier {sys.argv[0]} doctor", file=sys.stderr)
        return EXIT_FILE
    from host_ui.phone.check import check_phone  # late: the phone page's line, for this command only
    checks = run_checks(config, probe_hardware=not args.no_probe, phone=check_phone)
    print(format_checks(checks))
    return {"ok": EXIT_OK, "warn": EXIT_OK, "fail": EXIT_MISMATCH}[worst(checks)]


def cmd_phone(args: argparse.Namespace) -> int:
    """``banquier phone serve|on|off|status|renew``: the phone page (issue 29)."""
    from host_ui.phone import access  # late: the phone page's switch and token, for this command only
    data = data_dir()
    if args.action == "serve":
        if args.port is not None and not 1 <= args.port <= 65535:
            return _fail(f"--port must be 1 to 65535, not {args.port}.", EXIT_USAGE)
        try:
            from host_ui.phone.server import serve  # late: the web server, for this command only
        except ImportError as exc:
            return _fail(f"the phone page needs {exc.name or 'starlette and uvicorn'} (pip install "
                         f"starlette uvicorn).", EXIT_FILE)
        config = load_config()
        # The options win; else the configuration's [phone] (the unit runs `phone serve` with none).
        return serve(data, config.storage.key_file, args.host or list(config.phone.listen),
                     args.port if args.port is not None else config.phone.port,
                     args.language or config.phone_language, config.game.amount_display)
    port = load_config().phone.port

    def link(tok: str) -> str:
        """The link with the token ``tok``: the running page's first published address (the one the terminal's
        QR code shows), else localhost on the configured port."""
        published = access.read_links(access.runtime_folder())
        if published:
            return published[0].split("/t/", 1)[0] + f"/t/{tok}/"
        return access.page_url("localhost", port, tok)
    try:
        if args.action == "on":
            tok = access.token(data)
            access.set_on(data, True)
            print(f"phone page: on (link: {link(tok)})")
        elif args.action == "off":
            access.set_on(data, False)
            print("phone page: off")
        elif args.action == "renew":
            tok = access.renew_token(data)
            print(f"phone page: new token; the links shown before no longer work "
                  f"(link: {link(tok)})")
        else:
            print(f"phone page: {'on' if access.is_on(data) else 'off'}")
            folder = access.runtime_folder()
            links = access.read_links(folder)
            if links:
                for address in links:
                    print(f"listening: {address}")
            else:
                print(f"listening: no (nothing publishes in {folder}: neither `banquier sim` nor `banquier phone "
                      f"serve` is running, or the page is off)")
            found = access.read_token(data)
            print(f"link: {link(found)}" if found
                  else "link: none yet (`banquier phone on` or `banquier phone renew` makes the token)")
    except OSError as exc:
        return _fail(f"cannot write in the data folder {data}: {exc.strerror or exc}; nothing was changed.",
                     EXIT_FILE)
    return EXIT_OK


def _language_argument(text: str) -> str:
    from cards.editions import LANGUAGES  # late: for this option only
    if text not in LANGUAGES:
        raise argparse.ArgumentTypeError(f"choose one of {', '.join(LANGUAGES)}, not {text!r}")
    return text


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _fail(message: str, code: int) -> int:
    print(f"banquier: {message}", file=sys.stderr)
    return code


class _Subcommand(argparse.ArgumentParser):
    """A subcommand's parser. It leaves itself in the parsed arguments (``subcommand_parser``) so that an
    argument it does not know is refused with its own usage (``banquier games list --bogus`` shows ``usage:
    banquier games ...``), not the top-level one argparse shows (see :func:`parse_arguments`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_defaults(subcommand_parser=self)


def parse_arguments(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """``parser.parse_args(argv)``, an unknown argument refused by the subcommand's parser (its usage, exit 2).
    An optional positional given after the options (``cards import --card-set X FILE``, as the usage line shows
    them) is taken as if it came first: argparse fills such a positional only before the first option."""
    args, extras = parser.parse_known_args(argv)
    command_at = argv.index(args.command) if getattr(args, "command", None) in argv else len(argv)
    subcommand = getattr(args, "subcommand_parser", None)
    if extras and subcommand is not None:
        for action in subcommand._actions:
            if (action.option_strings or action.nargs != "?" or action.type is not None or action.choices
                    or getattr(args, action.dest, None) != action.default):
                continue
            # "-" alone is a value (standard input), not an option
            if (not extras or (extras[0].startswith("-") and extras[0] != "-")
                    or extras[0] not in argv[command_at + 1:]):
                break
            setattr(args, action.dest, extras.pop(0))
    if extras:
        # one placed before the subcommand's name (`banquier --bogus games list`) is the top level's
        before = all(extra in argv[:command_at] for extra in extras)
        owner = parser if before else getattr(args, "subcommand_parser", parser)
        owner.error(f"unrecognized arguments: {' '.join(extras)}")
    return args


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="banquier", description="Banquier, an electronic bank for Monopoly.",
        epilog="Without a command: `banquier run`. Exit codes: 0 success, 1 replay/audit mismatch or a failed "
               "doctor check, 2 bad usage or malformed input, 3 file, hardware or display problem. Data directory: "
               "storage.data_dir in the configuration, $BANQUIER_DATA_DIR (default ~/.local/share/banquier).")
    parser.add_argument("--config", help="the configuration file (default: $BANQUIER_CONFIG, "
                                          "~/.config/banquier/config.toml, /etc/banquier/config.toml)")
    # (typed as a plain parser's: a _Subcommand is one, and manage.add_parsers takes those)
    sub = cast("argparse._SubParsersAction[argparse.ArgumentParser]",
               parser.add_subparsers(dest="command", parser_class=_Subcommand))
    p = sub.add_parser("run", help="start the terminal with the configured hardware (the default command)",
                       description="Start the terminal: card reader, beeper, buttons and screen as configured. "
                                   "On a PC with no configuration file, or whose configuration has the sim "
                                   "reader in a window, starts the simulator instead.")
    p.add_argument("--headless", action="store_true", help="tests only: allow SDL's dummy video driver")
    p.add_argument("--seconds", type=manage.seconds_argument, help="stop after this many seconds (tests)")
    p.set_defaults(func=cmd_run)
    p = sub.add_parser("sim", help="the simulator: the terminal's screen with virtual cards to tap",
                       description="The PC simulator. Options are those of the simulator: --demo LOG, --speed, "
                                   "--headless, --size WxH, --rotation, --language, --new, ... "
                                   "(`banquier sim -- --help` lists them).", add_help=False)
    p.add_argument("sim_args", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_sim)
    p = sub.add_parser("doctor", help="check the installation and say how to fix what is wrong",
                       description="Check SPI, the reader chip, the GPIO library, groups, display, touch, the data "
                                   "directory and every game's integrity; one line each with the fix. Exit 1 if "
                                   "anything fails.")
    p.add_argument("--no-probe", action="store_true", help="do not talk to the reader chip")
    p.set_defaults(func=cmd_doctor)
    p = sub.add_parser("replay", help="replay a table log into a new game file and check it",
                       description="Replay a table log (docs/table-log.md) into a new game file; print the count of "
                                   "operations and checks, or the first mismatch (exit 1).")
    p.add_argument("log", help="the table log (.jsonl)")
    p.add_argument("--game", help="the game file to create (default: a new file under DATA_DIR/replays)")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("export", help="write a game's journal as a table log, CSV or JSON",
                       description="Export a game file. table-log: replayable (docs/table-log.md); csv: one row per "
                                   "posting; json: header, history and state.")
    p.add_argument("game", help="the game file (.db)")
    p.add_argument("--format", choices=["table-log", "csv", "json"], default="table-log")
    p.add_argument("-o", "--output", help="file to write (default: standard output); never an existing file "
                                          "unless --force, never a game, the card set or the device key")
    p.add_argument("--force", action="store_true", help="replace an existing output file (never a game, the card "
                                                         "set or the key)")
    p.set_defaults(func=cmd_export)
    p = sub.add_parser("audit", help="check a game file's journal, hashes and sums",
                       description="Full audit of a game file: keyed hash chain, balanced entries, replay through "
                                   "the rules, stored state. Exit 1 when anything disagrees.")
    p.add_argument("game")
    p.set_defaults(func=cmd_audit)
    manage.add_parsers(sub)
    p = sub.add_parser("key", help="make a new device key when the old one is lost or damaged",
                       description="The device key signs every game's journal. 'new' makes one only when the key "
                                   "file is missing or damaged (a damaged one is kept beside it); games signed with "
                                   "the old key then read as unverified, so it asks for --force when there are "
                                   "games. An intact key is never replaced.")
    p.add_argument("action", choices=["new"])
    p.add_argument("--force", action="store_true", help="make the new key even though games exist")
    p.set_defaults(func=cmd_key)
    p = sub.add_parser("pin", help="set the banker PIN (stored as a salted hash; run it with sudo)",
                       description="Store the banker PIN as a salted hash (game.banker_pin_hash) in the configuration "
                                   "file in use (default /etc/banquier/config.toml, root's: run it with sudo). The "
                                   "PIN is asked twice, or read from standard input (one or two lines).")
    p.add_argument("action", choices=["set"])
    p.add_argument("--stdin", action="store_true", help="read the PIN from standard input")
    p.set_defaults(func=cmd_pin)
    p = sub.add_parser("phone", help="the page every player's phone can open on the table's network",
                       description="The phone page: a read-only live page of the game for the players' phones. "
                                   "'serve' runs its server (until SIGTERM; it listens only while the page is on); "
                                   "'on' and 'off' switch it (kept in the data folder); 'status' says whether it is "
                                   "on, where it listens and its link; 'renew' replaces the token in its links.")
    p.add_argument("action", choices=["serve", "on", "off", "status", "renew"])
    p.add_argument("--host", action="append", help="serve: an address to listen on (repeatable; default: [phone] "
                                                   "listen, 0.0.0.0 and ::)")
    p.add_argument("--port", type=int, help="serve: the TCP port (default: [phone] port, 8737)")
    p.add_argument("--language", type=_language_argument, help="serve: the page's language when the phone "
                                                                "chooses none: fr, en or uk (default: [phone] "
                                                                "language, else the terminal's)")
    p.set_defaults(func=cmd_phone)
    p = sub.add_parser("demo", help="replay a recorded game and print the standings",
                       description="Replay a recorded game shipped with Banquier and print the standings.")
    p.add_argument("--log", help="another table log to replay")
    p.set_defaults(func=cmd_demo)
    return parser


#: The options and arguments that name a file, as a refusal names them.
PATH_OPTIONS = {"config": "--config", "game": "the game file", "output": "-o", "file": "the file", "log": "the log",
                "card_set": "--card-set"}


def _leading_config(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--config FILE`` (or ``--config=FILE``) given before the command, and the rest of ``argv``."""
    config = None
    while argv:
        if argv[0] == "--config" and len(argv) > 1:
            config, argv = argv[1], argv[2:]
        elif argv[0].startswith("--config="):
            config, argv = argv[0].split("=", 1)[1], argv[1:]
        else:
            break
    return config, argv


def private_runtime_dir(env: os._Environ[str] | dict[str, str] = os.environ) -> str | None:
    """Give this process an ``XDG_RUNTIME_DIR`` when none is set (``env -i``, cron, ``su``): SDL and the sound
    libraries under it print "XDG_RUNTIME_DIR is invalid or not set" for each window or sound they open, which
    buries the one clear message. The folder is ``$TMPDIR/banquier-runtime-UID``, mode 0700 and this user's
    (else nothing is set). Returns the folder set, or None (already set, or no such folder could be made)."""
    if env.get("XDG_RUNTIME_DIR"):
        return None
    import stat
    import tempfile
    path = Path(tempfile.gettempdir()) / f"banquier-runtime-{os.getuid()}"
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        info = path.lstat()
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None
    env["XDG_RUNTIME_DIR"] = str(path)
    return str(path)


def main(argv: list[str] | None = None, *,
         commands: Mapping[str, Callable[[argparse.Namespace], int]] | None = None) -> int:
    """Run the ``banquier`` command with ``argv`` (default: the process's arguments); returns its exit code.
    ``commands``: the function run for a subcommand instead of its own, by the subcommand's name (``doctor``,
    ``run``...), given the parsed arguments (the tests' seam)."""
    global _CONFIG_PATH
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    config, rest = _leading_config(argv)
    if rest[:1] == ["sim"]:  # the simulator parses its own options (and its own --help)
        args = argparse.Namespace(command="sim", sim_args=rest[1:], func=cmd_sim, config=config)
    else:
        args = parse_arguments(parser, argv)
    _CONFIG_PATH = args.config
    empty = next((label for key, label in PATH_OPTIONS.items()
                  if isinstance(getattr(args, key, None), str) and not getattr(args, key).strip()), None)
    if empty is not None:  # an unset variable in a script, most likely: never "the default" or the current folder
        return _fail(f"{empty} is empty: name a file (or leave the option out).", EXIT_USAGE)
    _use_configured_key()
    if args.command in (None, "run", "sim", "demo"):  # the commands that open SDL
        private_runtime_dir()
    if not args.command:
        args = parser.parse_args((["--config", args.config] if args.config else []) + ["run"])
    if commands and args.command in commands:
        args.func = commands[args.command]
    try:
        if args.func in ("games", "cards"):
            if args.func == "games" and args.action != "list" and not args.game:
                parser.error("games resume/archive need a GAME")
            if args.func == "cards" and args.action == "import" and not args.file:
                parser.error("cards import needs a FILE ('-' for standard input)")
            if args.func == "games":
                storage = load_config().storage
                code: int = manage.cmd_games(args, data_dir(), storage.key_file, storage.backups)
            else:
                code = manage.cmd_cards(args, data_dir(), load_config().reader, protected_files(args.card_set))
            sys.stdout.flush()  # as below
            return code
        if args.func in (cmd_audit, cmd_export):
            args.game = str(_game_argument(args.game))
        code = args.func(args)
        sys.stdout.flush()  # a write error shows here, while it can still be reported in one line
        return code
    except KeyboardInterrupt:
        # Ctrl-C: every committed operation stays committed (each is its own transaction); say so, on one line.
        print("banquier: interrupted (Ctrl-C); what was already committed is kept.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of the output went away (`banquier export GAME | head`): stop quietly, as other commands
        # do, with the code a shell gives a command ended by SIGPIPE; nothing more is written to stdout.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except GameError as exc:
        return _fail(str(exc), EXIT_FILE if isinstance(exc, OSError) else EXIT_USAGE)
    except CardsError as exc:  # an edition or card-set file the command read
        return _fail(one_line(exc), EXIT_FILE if isinstance(exc, OSError) else EXIT_USAGE)
    except OSError as exc:
        if exc.filename is not None:  # a file the system refused: too long a name, a loop of links, no permission
            return _fail(manage.describe_os_error(exc), EXIT_FILE)
        if exc.errno in (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT):  # stdout's disk is full or failing
            _stdout_gone()
            return _fail(f"cannot write the output: {exc.strerror or exc}.", EXIT_FILE)
        return _fail(f"internal error ({type(exc).__name__}: {one_line(exc)[:300]}); nothing was changed by "
                     f"it. Please report it with the command you ran.", EXIT_FILE)
    except Exception as exc:  # the promise is one line, never a traceback; this line is a bug to report
        return _fail(f"internal error ({type(exc).__name__}: {one_line(exc)[:300]}); nothing was changed by "
                     f"it. Please report it with the command you ran.", EXIT_FILE)


if __name__ == "__main__":
    sys.exit(main())
