"""The game file as storage: rollback of every write path, append-only triggers, tamper evidence, foreign
keys, damaged files, undo across restarts, and when the full audit runs on opening.

Everything written is read back from a NEW ``sqlite3`` connection, not from the ledger's own connection.
Write failures are injected inside the ledger's transaction by wrapping its connection
(:class:`FailingConnection`), by a temporary trigger on that connection, or by an unbalanced posting.
"""
from __future__ import annotations

import contextlib
import json
import random
import sqlite3
from pathlib import Path

import pytest

import terminal.bank.ledger.journal as ledger_module
import terminal.bank.opening as opening_module
from terminal.bank.game import Game
from terminal.bank.ledger.journal import Ledger
from terminal.bank.ledger.records import canonical
from terminal.bank.operations import Undo, parse_operation
from terminal.errors import AuditFailed, GameError, LedgerError
from tests.terminal.oracles import journal_of
from tests.unclean import abandon

TABLES = {
    "meta": "SELECT key, value FROM meta ORDER BY key",
    "journal": "SELECT * FROM journal ORDER BY seq",
    "postings": "SELECT * FROM postings ORDER BY seq, n",
    "projection": "SELECT * FROM projection",
    "session": "SELECT * FROM session",
}
TRIGGERS = ("journal_append_only_update", "journal_append_only_delete", "postings_append_only_update",
            "postings_append_only_delete", "postings_of_new_entries_only", "journal_entries_balance")
OTHER_KEY = bytes(range(100, 132))


# -- helpers -------------------------------------------------------------------------------------------------
@contextlib.contextmanager
def fresh(path: Path):
    """A new plain sqlite3 connection to the file (closed afterwards)."""
    conn = sqlite3.connect(path)
    try:
        yield conn
    finally:
        conn.close()


def snapshot(path: Path) -> dict:
    """Every row of the game file, read from a new connection."""
    with fresh(path) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return {table: conn.execute(sql).fetchall() if table in names else None for table, sql in TABLES.items()}


def session_open(path: Path) -> int:
    with fresh(path) as conn:
        return conn.execute("SELECT open FROM session").fetchone()[0]


class FailingConnection:
    """Wraps a sqlite3 connection and raises ``sqlite3.OperationalError`` at every statement for which
    ``when(sql)`` is true (as a full disk or an I/O error would); everything else goes to the real connection."""

    def __init__(self, conn: sqlite3.Connection, when):
        self._conn = conn
        self._when = when
        self.fired = 0

    def _check(self, sql: str) -> None:
        if self._when(" ".join(sql.split())):
            self.fired += 1
            raise sqlite3.OperationalError("disk I/O error (injected by the test)")

    def execute(self, sql, *args):
        self._check(sql)
        return self._conn.execute(sql, *args)

    def executemany(self, sql, *args):
        self._check(sql)
        return self._conn.executemany(sql, *args)

    def __getattr__(self, name):
        return getattr(self._conn, name)


def starts(prefix: str):
    return lambda sql: sql.upper().startswith(prefix.upper())


@contextlib.contextmanager
def failing(ledger: Ledger, when):
    """Make the statements of ``ledger`` matching ``when`` fail, for the duration of the block."""
    real = ledger.db.conn
    wrapper = FailingConnection(real, when)
    ledger.db.conn = wrapper
    try:
        yield wrapper
    finally:
        ledger.db.conn = real
    assert wrapper.fired, "the injected failure never happened"


@contextlib.contextmanager
def failing_projection_trigger(ledger: Ledger):
    """A real SQLite failure at the last statement of an entry: a TEMP trigger (on the ledger's connection
    only, never stored in the file) that aborts the write of the projection."""
    ledger.db.conn.execute("CREATE TEMP TRIGGER fail_projection BEFORE INSERT ON main.projection "
                           "BEGIN SELECT RAISE(ABORT, 'disk full (simulated by a test trigger)'); END")
    try:
        yield
    finally:
        ledger.db.conn.execute("DROP TRIGGER temp.fail_projection")


@contextlib.contextmanager
def unbalanced_postings(monkeypatch):
    """The entry's signed posting rows no longer sum to zero (one unit added to the last row)."""
    original = ledger_module.posting_rows

    def rows(postings):
        out = original(postings)
        n, account, amount = out[-1]
        out[-1] = (n, account, amount + 1)
        return out

    with monkeypatch.context() as m:
        m.setattr(ledger_module, "posting_rows", rows)
        yield


def inject(kind: str, ledger: Ledger, monkeypatch):
    """The failure ``kind`` inside Ledger.append's transaction."""
    if kind == "postings":
        return failing(ledger, starts("INSERT INTO postings"))          # the first statement
    if kind == "journal":
        return failing(ledger, starts("INSERT INTO journal"))           # after the postings
    if kind == "projection":
        return failing(ledger, starts("INSERT OR REPLACE INTO projection"))  # after postings and journal
    if kind == "commit":
        return failing(ledger, lambda sql: sql.upper() == "COMMIT")      # everything written, commit fails
    if kind == "trigger":
        return failing_projection_trigger(ledger)
    if kind == "unbalanced":
        return unbalanced_postings(monkeypatch)
    raise AssertionError(kind)


FAILURES = ["postings", "journal", "projection", "commit", "trigger", "unbalanced"]


def played(make_game) -> Game:
    """A French game with a few entries: setup, GO, two purchases, a rent."""
    game = make_game("fr", ("Ann", "Bob"))
    game.pass_go("Ann")
    game.buy("Ann", 39)
    game.buy("Bob", 37)
    game.pay_rent("Bob", 39)
    return game


def assert_unchanged(game: Game, before_file: dict, before_state: dict, before_public: dict) -> None:
    assert snapshot(game.path) == before_file, "something of the failed entry reached the file"
    assert game.raw_state.to_json() == before_state, "the in-memory state changed"
    assert game.state() == before_public
    assert not game.ledger.db.conn.in_transaction, "the connection was left inside a transaction"


# -- rollback of every write path ----------------------------------------------------------------------------
@pytest.mark.parametrize("failure", FAILURES)
def test_failed_operation_writes_nothing_and_the_next_one_works(make_game, key, monkeypatch, failure):
    game = played(make_game)
    before = snapshot(game.path), game.raw_state.to_json(), game.state()
    last = game.ledger.last_entry()[0]
    with inject(failure, game.ledger, monkeypatch), pytest.raises(LedgerError) as caught:
        game.pay_rent("Ann", 37)
    assert caught.value.code == "ledger_write_failed"
    assert "nothing was recorded" in str(caught.value)
    assert_unchanged(game, *before)

    receipt = game.pay_rent("Ann", 37)
    assert receipt.seq == last + 1
    assert receipt.paid("Ann", "Bob") == 35  # the Champs-Élysées' bare rent (fr)
    after = snapshot(game.path)
    assert [r[0] for r in after["journal"]] == list(range(1, last + 2))
    assert after["journal"][:-1] == before[0]["journal"]
    report = game.audit()
    assert report.ok, report.summary()
    path = game.path
    game.close()
    with Game.open(path, key=key) as reopened:
        assert reopened.cash("Ann") == game.cash("Ann")


@pytest.mark.parametrize("failure", FAILURES)
def test_failed_undo_writes_nothing_and_the_next_undo_works(make_game, key, monkeypatch, failure):
    game = played(make_game)
    after_rent = game.state()  # Bob has paid Ann 50 for Rue de la Paix
    before = snapshot(game.path), game.raw_state.to_json(), game.state()
    target = game.last_undoable()
    assert target == {"op": "pay_rent", "player": "Bob", "square": 39}
    with inject(failure, game.ledger, monkeypatch), pytest.raises(LedgerError):
        game.undo()
    assert_unchanged(game, *before)
    assert game.last_undoable() == target, "the failed undo was counted as done"

    receipt = game.undo()
    assert receipt.operation == Undo() and receipt.undone.to_json() == target
    assert receipt.paid("Ann", "Bob") == 50  # Rue de la Paix' bare rent, back to Bob
    assert game.cash("Bob") == after_rent["cash"]["Bob"] + 50
    assert game.cash("Ann") == after_rent["cash"]["Ann"] - 50
    history = journal_of(game)
    assert history[-1]["kind"] == "undo" and history[-2]["undone"]
    assert game.audit().ok


def test_failed_setup_entry_writes_nothing(tmp_path, key, monkeypatch):
    """Game.create's setup entry fails: nothing is left at the path (the file is built under a temporary
    name and renamed only when complete), and no temporary file stays behind."""
    path = tmp_path / "g.db"
    _fail_new_connections(monkeypatch, starts("INSERT INTO journal"))
    with pytest.raises(LedgerError) as caught:
        Game.create(path, "fr", ["Ann", "Bob"], key=key)
    assert caught.value.code == "ledger_unwritable"
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []


def test_failed_ledger_create_writes_nothing(tmp_path, key, monkeypatch):
    """Ledger.create's transaction (schema, header, session) fails at one statement: no file at the path."""
    path = tmp_path / "g.db"
    _fail_new_connections(monkeypatch, starts("INSERT INTO session"))
    with pytest.raises(LedgerError) as caught:
        Game.create(path, "fr", ["Ann", "Bob"], key=key)
    assert caught.value.code == "ledger_unwritable"
    assert not path.exists()


@pytest.mark.parametrize("statement", ["INSERT INTO journal", "INSERT INTO session"])
def test_a_failed_create_can_be_retried(tmp_path, key, monkeypatch, statement):
    path = tmp_path / "g.db"
    with monkeypatch.context() as m:
        _fail_new_connections(m, starts(statement))
        with pytest.raises(LedgerError):
            Game.create(path, "fr", ["Ann", "Bob"], key=key)
    with Game.create(path, "fr", ["Ann", "Bob"], key=key) as game:
        assert game.cash("Ann") == 1500


def _fail_new_connections(monkeypatch, when) -> None:
    """Every connection the ledger opens from now on fails at the statements matching ``when``."""
    original = Ledger._connect

    def connect(path):
        db = original(path)
        db.conn = FailingConnection(db.conn, when)
        return db

    monkeypatch.setattr(Ledger, "_connect", staticmethod(connect))


def test_failed_open_mark_writes_nothing(make_game, key, monkeypatch, mocker):
    game = played(make_game)
    path = game.path
    state = game.state()
    game.close()
    before = snapshot(path)
    assert session_open(path) == 0
    with monkeypatch.context() as m:
        _fail_new_connections(m, starts("INSERT OR REPLACE INTO session"))
        with pytest.raises(LedgerError):
            Game.open(path, key=key)
    assert snapshot(path) == before
    spy = mocker.spy(opening_module, "audit_ledger")
    with Game.open(path, key=key) as reopened:
        assert not reopened.ledger.was_unclean
        assert spy.call_count == 0
        assert reopened.state() == state
        reopened.pass_go("Bob")


def test_failed_close_mark_leaves_the_game_marked_open_and_it_is_audited(make_game, key, mocker):
    game = played(make_game)
    path = game.path
    state = game.state()
    journal = snapshot(path)["journal"]
    with failing(game.ledger, starts("UPDATE session")):
        game.close()
    after = snapshot(path)
    assert after["journal"] == journal
    assert after["session"] == [(1, 1)], "the clean-close mark was written although it failed"
    spy = mocker.spy(opening_module, "audit_ledger")
    with Game.open(path, key=key, background=False) as reopened:  # audited before it resumes
        assert reopened.ledger.was_unclean
        assert spy.call_count == 1 and spy.spy_return.ok
        assert reopened.state() == state
        assert reopened.pass_go("Bob").seq == journal[-1][0] + 1


def test_session_marks_read_back(make_game, key):
    game = played(make_game)
    path = game.path
    assert session_open(path) == 1
    game.close()
    assert session_open(path) == 0
    game = Game.open(path, key=key)
    assert session_open(path) == 1
    game.close()
    assert session_open(path) == 0


# -- append-only and balance triggers --------------------------------------------------------------------------
@pytest.mark.parametrize("statement, message", [
    ("UPDATE journal SET op = '{\"op\":\"pass_go\",\"player\":\"Bob\"}' WHERE seq = 2", "append-only"),
    ("UPDATE journal SET mac = 'x'", "append-only"),
    ("DELETE FROM journal WHERE seq = 5", "append-only"),
    ("DELETE FROM journal", "append-only"),
    ("UPDATE postings SET amount = amount * 2 WHERE seq = 2", "append-only"),
    ("DELETE FROM postings WHERE seq = 2", "append-only"),
    ("INSERT INTO postings(seq, n, account, amount) VALUES (2, 9, 'Ann', 1)", "entry being written"),
])
def test_triggers_refuse_changes_to_recorded_entries(make_game, statement, message):
    game = played(make_game)
    before = snapshot(game.path)
    with fresh(game.path) as conn:  # the cheater's own connection, triggers in place
        with pytest.raises(sqlite3.IntegrityError, match=message):
            conn.execute(statement)
        conn.rollback()
    # The ledger's own connection is held to the same rule.
    with pytest.raises(sqlite3.IntegrityError, match=message):
        game.ledger.db.conn.execute(statement)
    assert snapshot(game.path) == before


def test_trigger_refuses_an_unbalanced_entry(make_game):
    game = played(make_game)
    before = snapshot(game.path)
    seq = game.ledger.last_entry()[0] + 1
    with fresh(game.path) as conn:
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO postings(seq, n, account, amount) VALUES (?, ?, ?, ?)",
                         [(seq, 0, "bank", -200), (seq, 1, "Ann", 2000)])
        with pytest.raises(sqlite3.IntegrityError, match="sum to zero"):
            conn.execute("INSERT INTO journal(seq, kind, op, undoes, changes, recorded_at, mac) "
                         "VALUES (?, 'op', '{\"op\":\"pass_go\",\"player\":\"Ann\"}', NULL, '[]', '2024', 'x')",
                         [seq])
        conn.rollback()
    assert snapshot(game.path) == before


def test_a_balanced_entry_forged_with_triggers_in_place_is_detected(make_game, key):
    """The triggers let a balanced new entry in; its keyed hash cannot be forged without the device key."""
    game = played(make_game)
    path = game.path
    seq = game.ledger.last_entry()[0] + 1
    game.close()
    with fresh(path) as conn:
        conn.executemany("INSERT INTO postings(seq, n, account, amount) VALUES (?, ?, ?, ?)",
                         [(seq, 0, "bank", -200), (seq, 1, "Ann", 200)])
        conn.execute("INSERT INTO journal(seq, kind, op, undoes, changes, recorded_at, mac) VALUES "
                     "(?, 'op', '{\"op\":\"pass_go\",\"player\":\"Ann\"}', NULL, '[]', '2024-01-01', ?)",
                     [seq, "0" * 64])
        conn.commit()
    with pytest.raises(AuditFailed) as caught:
        Game.open(path, key=key)
    assert caught.value.params["first_bad_seq"] == seq


# -- tamper evidence (triggers dropped by a cheater with a plain SQLite browser) -----------------------------
def cheat(path: Path, *statements: tuple) -> None:
    with fresh(path) as conn:
        for trigger in TRIGGERS:
            conn.execute(f"DROP TRIGGER {trigger}")
        for statement in statements:
            sql, *params = statement if isinstance(statement, tuple) else (statement,)
            cursor = conn.execute(sql, *params)
            assert cursor.rowcount != 0, f"the edit {sql!r} changed nothing"
        conn.commit()


def tampered_game(make_game) -> Game:
    """An open game of 12 entries, each moving money; entry 5 is Bob's purchase of square 37. The tests
    edit its file behind its back while it is open (the terminal is running) or after closing it."""
    game = make_game("fr", ("Ann", "Bob", "Cleo"))
    game.pass_go("Ann")               # 2
    game.buy("Ann", 39)               # 3
    game.pass_go("Bob")               # 4
    game.buy("Bob", 37)               # 5
    game.pay_rent("Cleo", 39)         # 6
    game.pay_tax("Cleo", 4)           # 7
    game.bank_pays("Bob", 100)        # 8
    game.pay_rent("Ann", 37)          # 9
    game.transfer("Cleo", "Bob", 10)  # 10
    game.pay_bank("Ann", 15)          # 11
    game.pass_go("Cleo")              # 12
    assert game.ledger.last_entry()[0] == 12
    return game


def _op(path: Path, seq: int) -> dict:
    with fresh(path) as conn:
        return json.loads(conn.execute("SELECT op FROM journal WHERE seq = ?", [seq]).fetchone()[0])


def _edited_op(path: Path, seq: int, **changes) -> tuple:
    return ("UPDATE journal SET op = ? WHERE seq = ?", [canonical({**_op(path, seq), **changes}), seq])


def _assert_first_bad(game: Game, key: bytes, seq: int) -> None:
    """The running game's on-demand audit, then the full check on opening after a clean close, both name
    ``seq`` as the first edited entry (0: the header)."""
    report = game.audit()
    assert not report.ok
    assert report.first_bad_seq == seq, report.summary()
    game.close()
    with pytest.raises(AuditFailed) as caught:
        Game.open(game.path, key=key, check="full")
    assert caught.value.params["first_bad_seq"] == seq
    assert (f"#{seq}" if seq else "header") in str(caught.value)
    assert isinstance(caught.value, LedgerError) and isinstance(caught.value, OSError)


def test_edited_posting_amount_is_detected(make_game, key):
    game = tampered_game(make_game)
    # Bob pays 100 instead of 280 for the Champs-Élysées (both rows, so the entry still balances).
    cheat(game.path, "UPDATE postings SET amount = amount / abs(amount) * 100 WHERE seq = 5")
    _assert_first_bad(game, key, 5)


def test_edited_operation_is_detected(make_game, key):
    game = tampered_game(make_game)
    cheat(game.path, _edited_op(game.path, 8, amount=1000))
    _assert_first_bad(game, key, 8)


def test_edited_last_entry_is_detected(make_game, key):
    game = tampered_game(make_game)
    cheat(game.path, _edited_op(game.path, 12, player="Ann"))
    _assert_first_bad(game, key, 12)


def test_the_first_of_several_edits_is_named(make_game, key):
    game = tampered_game(make_game)
    cheat(game.path, _edited_op(game.path, 10, amount=1), "UPDATE postings SET amount = -amount WHERE seq = 6",
          "UPDATE journal SET recorded_at = '2000-01-01T00:00:00+00:00' WHERE seq = 11")
    _assert_first_bad(game, key, 6)


def test_edited_current_state_is_refused_on_opening(make_game, key):
    game = tampered_game(make_game)
    game.close()
    with fresh(game.path) as conn:
        state = json.loads(conn.execute("SELECT state FROM projection").fetchone()[0])
    state["cash"]["Cleo"] += 5000
    state["cash"]["bank"] -= 5000
    cheat(game.path, ("UPDATE projection SET state = ?", [canonical(state)]))
    with pytest.raises(AuditFailed) as caught:
        Game.open(game.path, key=key)  # a clean stop, yet the stored state no longer matches its hash
    assert any("differs from a replay" in p or "Cleo" in p for p in caught.value.params["problems"])


def test_deleted_last_entry_is_refused_on_opening(make_game, key):
    game = tampered_game(make_game)
    game.close()
    cheat(game.path, "DELETE FROM postings WHERE seq = 12", "DELETE FROM journal WHERE seq = 12")
    with pytest.raises(AuditFailed):
        Game.open(game.path, key=key)


HEADER_EDITS = pytest.mark.parametrize("name, value", [
    ("players", ["Ann", "Bobby", "Cleo"]),
    ("rules", {"double_rent_with_mortgaged_street": False, "free_parking_jackpot": True,
               "income_tax_percent": False, "interest_rounding": "up"}),
    ("mode", "quick"),
])


@HEADER_EDITS
def test_edited_header_is_detected(make_game, key, name, value):
    game = tampered_game(make_game)
    cheat(game.path, ("UPDATE meta SET value = ? WHERE key = ?", [canonical(value), name]))
    _assert_first_bad(game, key, 0)


@HEADER_EDITS
def test_edited_header_is_refused_on_opening_after_a_clean_stop(make_game, key, name, value):
    """The header sets the rules in force: a clean stop must not let the game resume on edited rules."""
    game = tampered_game(make_game)
    game.close()
    cheat(game.path, ("UPDATE meta SET value = ? WHERE key = ?", [canonical(value), name]))
    assert session_open(game.path) == 0
    with pytest.raises(AuditFailed) as caught:
        Game.open(game.path, key=key)
    assert caught.value.params["first_bad_seq"] == 0
    assert "header" in str(caught.value)


def test_game_opened_with_another_key_is_refused_clearly(make_game, key):
    game = tampered_game(make_game)
    game.close()
    with pytest.raises(AuditFailed) as caught:
        Game.open(game.path, key=OTHER_KEY)
    assert caught.value.code == "audit_foreign_key"
    assert "another device's key" in str(caught.value)
    assert isinstance(caught.value, OSError)
    before = snapshot(game.path)
    with Game.open(game.path, key=key) as reopened:  # nothing was damaged
        assert reopened.audit().ok
    assert snapshot(game.path)["journal"] == before["journal"]


# -- damaged files -----------------------------------------------------------------------------------------
def _random_bytes(path: Path) -> None:
    path.write_bytes(random.Random(7).randbytes(64 * 1024))


def _random_after_header(path: Path, game_bytes: bytes) -> None:
    path.write_bytes(game_bytes[:100] + random.Random(8).randbytes(len(game_bytes) - 100))


def _other_sqlite(path: Path, journal_mode: str) -> None:
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA journal_mode = {journal_mode}")
    conn.execute("CREATE TABLE scores (name TEXT, points INTEGER)")
    conn.execute("INSERT INTO scores VALUES ('Ann', 12)")
    conn.commit()
    conn.close()


CORRUPTIONS = {
    "random bytes": lambda p, g: _random_bytes(p),
    "random pages after a valid header": _random_after_header,
    "truncated to 100 bytes": lambda p, g: p.write_bytes(g[:100]),
    "truncated to one page": lambda p, g: p.write_bytes(g[:4096]),
    "truncated to half": lambda p, g: p.write_bytes(g[:len(g) // 2 // 4096 * 4096]),
    "last page cut off": lambda p, g: p.write_bytes(g[:len(g) - 4096]),
    "another program's SQLite file (WAL)": lambda p, g: _other_sqlite(p, "wal"),
    "another program's SQLite file (rollback journal)": lambda p, g: _other_sqlite(p, "delete"),
    "truncated to 0 bytes": lambda p, g: p.write_bytes(b""),
}


@pytest.fixture(scope="module")
def game_bytes(tmp_path_factory) -> bytes:
    """A cleanly closed game file of a few hundred entries (several pages), as bytes."""
    path = tmp_path_factory.mktemp("game") / "g.db"
    with Game.create(path, "fr", ["Ann", "Bob"], key=bytes(range(32))) as game:
        for _ in range(150):
            game.pass_go("Ann")
            game.pay_bank("Bob", 10)
    data = path.read_bytes()
    assert len(data) > 5 * 4096
    return data


@pytest.mark.parametrize("corrupt", CORRUPTIONS.values(), ids=list(CORRUPTIONS))
def test_damaged_file_is_refused_and_left_byte_for_byte(tmp_path, key, game_bytes, corrupt):
    path = tmp_path / "damaged.db"
    corrupt(path, game_bytes)
    before = path.read_bytes()
    with pytest.raises(LedgerError) as caught:
        Game.open(path, key=key)
    assert str(path) in str(caught.value)
    assert path.read_bytes() == before, "the damaged file was changed"
    # Never replaced by an empty game.
    with pytest.raises(LedgerError, match="already exists"):
        Game.create(path, "fr", ["Ann", "Bob"], key=key)
    assert path.read_bytes() == before


def test_missing_file_is_not_created(tmp_path, key):
    path = tmp_path / "nope.db"
    with pytest.raises(LedgerError, match="no game file"):
        Game.open(path, key=key)
    assert not path.exists()


# -- undo across restarts ----------------------------------------------------------------------------------
def test_undo_survives_close_and_open(make_game, key):
    game = make_game("fr", ("Ann", "Bob"))
    states = [game.state()]
    for op in ({"op": "pass_go", "player": "Ann"}, {"op": "buy", "player": "Ann", "square": 39},
               {"op": "pay_rent", "player": "Bob", "square": 39}):
        game.apply(parse_operation(op))
        states.append(game.state())
    path = game.path
    game.close()

    for expected in (states[2], states[1]):
        game = Game.open(path, key=key)
        game.undo()
        assert game.state() == expected
        game.close()
    with Game.open(path, key=key) as game:
        assert game.state() == states[1]
        assert game.last_undoable() == {"op": "pass_go", "player": "Ann"}
        assert [h["undone"] for h in journal_of(game)] == [False, False, True, True, False, False]
        assert game.audit().ok
    # After an unclean stop too.
    game = Game.open(path, key=key)
    game.undo()
    abandon(game)  # the process dies without closing the file
    with Game.open(path, key=key) as game:
        assert game.ledger.was_unclean
        assert game.state() == states[0]
        with pytest.raises(GameError):
            game.undo()  # nothing left to undo


# -- when the full audit runs on opening ------------------------------------------------------------------
def test_clean_open_skips_the_audit_unclean_open_runs_it(make_game, key, mocker):
    """``background=False`` (as before issue 21): the full audit in this process after an unclean stop only."""
    game = played(make_game)
    path = game.path
    state = game.state()
    game.close()
    spy = mocker.spy(opening_module, "audit_ledger")
    game = Game.open(path, key=key, background=False)
    assert spy.call_count == 0 and not game.ledger.was_unclean
    game.pass_go("Bob")
    state = game.state()
    abandon(game)  # unclean stop
    game = Game.open(path, key=key, background=False)
    assert game.ledger.was_unclean
    assert spy.call_count == 1 and spy.spy_return.ok
    assert game.state() == state
    game.close()
    with Game.open(path, key=key, background=False):
        assert spy.call_count == 1


@pytest.mark.parametrize("unclean", [False, True])
def test_by_default_every_open_is_judged_beside_play_in_full(make_game, key, mocker, unclean):
    """The default (issue 21, point 3): no full audit holds the resume, clean or not; it runs in a separate
    process, every time, and the game is judged once it answered."""
    game = played(make_game)
    path = game.path
    (abandon if unclean else Game.close)(game)
    spy = mocker.spy(opening_module, "audit_ledger")
    with Game.open(path, key=key) as game:
        assert game.ledger.was_unclean == unclean and spy.call_count == 0
        assert game.judged is None
        game.pass_go("Bob")
        assert game.await_judgment(60) is True
        assert game.ledger.as_found is None
        game.pass_go("Ann")
    with Game.open(path, key=key, check="full") as again:
        assert again.audit().ok


# -- a batch of entries (a replay) ------------------------------------------------------------------------------
@pytest.mark.parametrize("failure", [f for f in FAILURES if f != "commit"])
def test_a_failed_entry_in_a_batch_writes_nothing_of_itself_and_keeps_the_others(tmp_path, key, monkeypatch,
                                                                                   failure):
    mirror = tmp_path / "backups" / "g.mirror"
    game = Game.create(tmp_path / "g.db", "fr", ["Ann", "Bob"], key=key, mirror=mirror)
    game.buy("Bob", 37)
    lines = len(mirror.read_text().splitlines())
    with game.batch():
        game.pass_go("Ann")
        game.pass_go("Bob")
        assert len(mirror.read_text().splitlines()) == lines, "the mirror gets entries once they are committed"
        before = game.raw_state.to_json()
        with inject(failure, game.ledger, monkeypatch), pytest.raises(LedgerError):
            game.pay_rent("Ann", 37)
        assert game.raw_state.to_json() == before
        game.pay_rent("Ann", 37)
    assert not game.ledger.db.conn.in_transaction
    entries = snapshot(game.path)["journal"]
    assert [r[0] for r in entries] == [1, 2, 3, 4, 5]
    mirrored = [json.loads(line) for line in mirror.read_text().splitlines()]
    assert [m["seq"] for m in mirrored] == [1, 2, 3, 4, 5]  # the setup entry first (written at creation)
    assert [m["mac"] for m in mirrored] == [r[-1] for r in entries]
    assert game.audit().ok
    game.close()
    with Game.open(tmp_path / "g.db", key=key, check="full") as reopened:
        assert reopened.cash("Bob") == 1500 - 350 + 200 + 35


def test_a_batch_ended_by_an_error_commits_what_came_before(tmp_path, key):
    game = Game.create(tmp_path / "g.db", "fr", ["Ann", "Bob"], key=key)
    with pytest.raises(KeyboardInterrupt), game.batch():
        game.pass_go("Ann")
        game.pass_go("Bob")
        raise KeyboardInterrupt  # Ctrl-C during a replay
    assert not game.ledger.db.conn.in_transaction
    game.close()
    with Game.open(tmp_path / "g.db", key=key, check="full") as reopened:
        assert reopened.ledger.last_entry()[0] == 3 and reopened.cash("Bob") == 1700
