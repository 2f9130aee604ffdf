"""Game files in the states the storage tests need: cleanly closed, stopped uncleanly with entries still in
the WAL (an image of the files taken while the game was open, as a power cut leaves them), edited, signed by
another key, a backup in rollback-journal mode."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from terminal.bank.game import Game
from tests.unclean import abandon

OTHER_KEY = bytes(range(100, 132))


def play(game: Game, n: int) -> None:
    """``n`` operations that always succeed (GO salaries, alternating players)."""
    players = game.players
    for i in range(n):
        game.pass_go(players[i % len(players)])


def clean_game(path: Path, key: bytes, ops: int = 6) -> Path:
    game = Game.create(path, "fr", ["Ann", "Bob"], key=key)
    play(game, ops)
    game.close()
    return path


def unclean_game(path: Path, key: bytes, ops: int = 6, in_wal: int = 4, mirror: Path | None = None) -> Path:
    """A game whose last ``in_wal`` entries are only in its WAL, as left by a power cut (no ``-shm``);
    ``mirror``: where its mirror of acknowledged entries is kept."""
    building = path.with_name("building-" + path.name)
    game = Game.create(building, "fr", ["Ann", "Bob"], key=key, mirror=mirror)
    play(game, ops - in_wal)
    game.ledger.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    game.ledger.db.execute("PRAGMA wal_autocheckpoint = 0")
    play(game, in_wal)
    shutil.copyfile(building, path)
    shutil.copyfile(building.with_name(building.name + "-wal"), path.with_name(path.name + "-wal"))
    abandon(game)
    for leftover in building.parent.glob(building.name + "*"):
        leftover.unlink()
    return path


def edit_entry_in_wal(path: Path, seq: int) -> None:
    """Change the amount of entry ``seq`` behind the Bank's back, on a copy of the files, so the WAL stays
    (the edit lands in the WAL; the result has no ``-shm``)."""
    work = path.with_name("edit-" + path.name)
    shutil.copyfile(path, work)
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        shutil.copyfile(wal, work.with_name(work.name + "-wal"))
    conn = sqlite3.connect(work)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("DROP TRIGGER postings_append_only_update")
    conn.execute("UPDATE postings SET amount = amount * 2 WHERE seq = ?", [seq])
    conn.commit()
    shutil.copyfile(work, path)
    shutil.copyfile(work.with_name(work.name + "-wal"), wal)
    conn.close()
    for leftover in work.parent.glob(work.name + "*"):
        leftover.unlink()


def edit_keeping_triggers(path: Path, statement: str) -> None:
    """An edit behind the keyed checkpoint (the triggers dropped and put back): what start-up's quick checks
    cannot see and only the full audit finds."""
    with sqlite3.connect(path) as conn:
        triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
        for name, _ in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute(statement)
        for _, sql in triggers:
            conn.execute(sql)
    conn.close()


def rollback_backup(path: Path, key: bytes) -> Path:
    """A game as a backup stores it: self-contained, rollback-journal mode, session marked open."""
    clean_game(path, key)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE session SET open = 1")
    conn.commit()
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    return path


# -- damaged variants (issue 11: named, kept, never crashed on) ------------------------------------------------
PAGE = 4096


def _sql_edit(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    try:
        for name in ("journal_append_only_update", "journal_append_only_delete", "postings_append_only_update",
                     "postings_append_only_delete", "postings_of_new_entries_only", "journal_entries_balance"):
            conn.execute(f"DROP TRIGGER IF EXISTS {name}")
        for statement in statements:
            conn.execute(statement)
        conn.commit()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


SQL_DAMAGE = {
    "undecodable_op": ["UPDATE journal SET op = CAST(x'7bff22fe' AS TEXT) WHERE seq = 3"],
    "undecodable_meta": ["UPDATE meta SET value = CAST(x'22ff' AS TEXT) WHERE key = 'players'"],
    "projection_without_cash": ["UPDATE projection SET state = json_remove(state, '$.cash')"],
    "projection_not_json": ["UPDATE projection SET state = '{not json'"],
    "projection_a_list": ["UPDATE projection SET state = '[1, 2]'"],
    "meta_players_a_number": ["UPDATE meta SET value = '7' WHERE key = 'players'"],
    "meta_without_edition": ["DELETE FROM meta WHERE key = 'edition'"],
    "meta_rules_a_string": ["UPDATE meta SET value = '\"x\"' WHERE key = 'rules'"],
    "meta_deep_json": ["UPDATE meta SET value = '" + "[" * 100_000 + "]" * 100_000 + "' WHERE key = 'dealt'"],
    "changes_deep_json": ["UPDATE journal SET changes = '" + "[" * 100_000 + "]" * 100_000 + "' WHERE seq = 2"],
    "entry_deleted": ["DELETE FROM journal WHERE seq = 3", "DELETE FROM postings WHERE seq = 3"],
    "entries_swapped": ["UPDATE journal SET op = (SELECT op FROM journal WHERE seq = 3) WHERE seq = 2"],
    "posting_edited": ["UPDATE postings SET amount = amount * 3 WHERE seq = 2"],
    "posting_deleted": ["DELETE FROM postings WHERE seq = 2 AND n = 1"],
    "session_dropped": ["DROP TABLE session"],
    "triggers_dropped": [],
    "schema_version_text": ["UPDATE meta SET value = '\"1\"' WHERE key = 'schema_version'"],
    "huge_integer": ["UPDATE meta SET value = '" + "9" * 5000 + "' WHERE key = 'schema_version'"],
    "kind_unknown": ["PRAGMA ignore_check_constraints = ON", "UPDATE journal SET kind = 'op', op = '{}' WHERE seq = 1"],
    "state_cash_text": ["UPDATE projection SET state = json_set(state, '$.cash.Ann', 'lots')"],
}


def damage_sql(path: Path, name: str) -> None:
    _sql_edit(path, *SQL_DAMAGE[name])


def damage_bytes(path: Path, rng, kind: str) -> None:
    """Bit flips, a page of garbage, or a truncation of ``path`` (a game file or its WAL)."""
    data = bytearray(path.read_bytes())
    if not data:
        return
    if kind == "flip":
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
    elif kind == "garbage_page":
        start = rng.randrange(max(1, len(data) // PAGE)) * PAGE
        data[start:start + PAGE] = bytes(rng.randrange(256) for _ in range(min(PAGE, len(data) - start)))
    elif kind == "truncate":
        data = data[:rng.randrange(len(data))]
    path.write_bytes(bytes(data))


def contents(path: Path) -> object:
    """What a game file holds for the Bank (every row of its tables, read from a private copy), or the error
    SQLite gives: two files with equal contents are the same game, whatever their bytes."""
    import tempfile
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "copy.db"
        shutil.copyfile(path, copy)
        wal = path.with_name(path.name + "-wal")
        if wal.exists():
            shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
        try:
            conn = sqlite3.connect(copy)
            try:
                return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
                        for t in ("meta", "journal", "postings", "projection")}
            finally:
                conn.close()
        except sqlite3.Error as exc:
            return f"unreadable: {exc}"


def damaged_variant(folder: Path, key: bytes, rng, n: int) -> tuple[Path, str, object, Path | None]:
    """The ``n``-th damaged game file in ``folder`` (a mix of SQL edits and byte damage to the file or to
    the WAL of an unclean game, which keeps a mirror); returns ``(path, what was done, the contents before the
    damage, the mirror)``."""
    names = sorted(SQL_DAMAGE)
    path = folder / f"damaged-{n}.db"
    if n % 3 == 0:
        name = names[(n // 3) % len(names)]
        clean_game(path, key)
        before = contents(path)
        damage_sql(path, name)
        return path, f"sql:{name}", before, None
    kind = ("flip", "garbage_page", "truncate")[(n // 3) % 3]
    if n % 3 == 1:
        clean_game(path, key, ops=40)
        before = contents(path)
        damage_bytes(path, rng, kind)
        return path, f"file:{kind}", before, None
    mirror = folder.parent / "backups" / f"damaged-{n}.mirror"  # where the terminal keeps it
    unclean_game(path, key, ops=12, in_wal=8, mirror=mirror)
    before = contents(path)
    damage_bytes(path.with_name(path.name + "-wal"), rng, kind)
    return path, f"wal:{kind}", before, mirror


def leave_shm(path: Path) -> None:
    """Leave ``path`` with the ``-shm`` a process that died with the game open leaves beside it (issue 21, point 6:
    a crash between a game's creation and its first entry leaves a clean file, a ``-shm`` and no ``-wal``). Made on
    a copy, so the game's own files are not written; its ``-wal``, if any, is kept as it was."""
    work = path.with_name("shm-" + path.name)
    shutil.copyfile(path, work)
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        shutil.copyfile(wal, work.with_name(work.name + "-wal"))
    conn = sqlite3.connect(work)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    shutil.copyfile(work.with_name(work.name + "-shm"), path.with_name(path.name + "-shm"))
    conn.close()
    for leftover in work.parent.glob(work.name + "*"):
        leftover.unlink()


# -- damage a clean close hides from the start-up checks (issue 21, point 3) ------------------------------------
def _flip_in_text(path: Path, needle: bytes, occurrence: int = 0) -> None:
    """Flip one bit inside the stored text ``needle`` (its ``occurrence``-th copy in the file): a record's content
    changes, SQLite's page structure does not (its quick check passes; only the keyed hashes can tell)."""
    data = bytearray(path.read_bytes())
    at = -1
    for _ in range(occurrence + 1):
        at = data.index(needle, at + 1)
    data[at + len(needle) - 2] ^= 0x01
    path.write_bytes(bytes(data))


def _flip_page_header(path: Path, table: str) -> None:
    """Garble the b-tree page header of ``table``'s root page: what SQLite's own check finds."""
    # immutable: the file alone is read, nothing is folded into it nor created beside it (a WAL stays a WAL)
    with sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True) as conn:
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", [table]).fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    start = (root - 1) * PAGE
    data[start + 3:start + 8] = b"\xff\xff\xff\xff\xff"
    path.write_bytes(bytes(data))


def _garble_page_of(path: Path, needle: bytes) -> None:
    """Garble the b-tree page header of the page that holds the stored text ``needle`` (its first copy): a page of
    early entries, which later entries do not rewrite (SQLite's own check finds it)."""
    data = bytearray(path.read_bytes())
    start = data.index(needle) // PAGE * PAGE
    data[start:start + 8] = b"\x0d\xff\xff\xff\xff\xff\xff\xff"
    path.write_bytes(bytes(data))


#: Edits and damage of a cleanly closed game (``clean_game``: GO salaries, Ann then Bob, 6 of them) that its
#: keyed checkpoint, at the last entry since the clean close, does not cover: found only by the full audit (or by
#: SQLite's check), beside play. Each is ``(name, how)``.
HIDDEN_DAMAGE: dict[str, object] = {
    "posting_edited": lambda p: edit_keeping_triggers(p, "UPDATE postings SET amount = amount * 3 WHERE seq = 2"),
    "posting_deleted": lambda p: edit_keeping_triggers(p, "DELETE FROM postings WHERE seq = 3 AND n = 1"),
    "entry_deleted": lambda p: edit_keeping_triggers(p, "DELETE FROM journal WHERE seq = 3"),
    "entries_swapped": lambda p: edit_keeping_triggers(
        p, "UPDATE journal SET op = CASE seq WHEN 2 THEN (SELECT op FROM journal WHERE seq = 3) "
           "ELSE (SELECT op FROM journal WHERE seq = 2) END WHERE seq IN (2, 3)"),
    "op_edited": lambda p: edit_keeping_triggers(p, "UPDATE journal SET op = replace(op, 'Ann', 'Bob') WHERE seq = 2"),
    "mac_changed": lambda p: edit_keeping_triggers(
        p, "UPDATE journal SET mac = '00' || substr(mac, 3) WHERE seq = 4"),
    "bit_flip_in_an_entry": lambda p: _flip_in_text(p, b'"player":"Bob"'),
    "bit_flip_in_a_page_header": lambda p: _flip_page_header(p, "postings"),
    "page_of_early_entries_garbled": lambda p: _garble_page_of(p, b'"player":"Bob"'),
}


def hidden_damage(path: Path, name: str) -> None:
    HIDDEN_DAMAGE[name](path)  # type: ignore[operator]
