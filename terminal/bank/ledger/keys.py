"""The keyed hashes of a game file (HMAC-SHA256 under the device key): of its header, of each entry chained to the
previous one, of the checkpoint and of the projection; and the key's public fingerprint (:func:`key_id`).

The key never leaves this process (see :mod:`host_ui.shell.device_key`); an edit of the file made without it shows
as a hash that does not match (:mod:`terminal.bank.audit`, :mod:`terminal.bank.ledger.chain`).
"""
from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence
from typing import Any

from terminal.bank.ledger.records import Row, canonical, encode_str, entry_payload, rows_text


class Keys:
    """The keyed hashes under ``key`` (bytes): the two keyed states of HMAC-SHA256 are made once."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        block = key if len(key) <= 64 else hashlib.sha256(key).digest()  # SHA-256's block: 64 bytes
        block = block.ljust(64, b"\0")
        self._inner = hashlib.sha256(bytes(b ^ 0x36 for b in block))
        self._outer = hashlib.sha256(bytes(b ^ 0x5C for b in block))

    def mac(self, payload: str) -> str:
        """HMAC-SHA256 of ``payload`` under the key, hex (RFC 2104, from the two keyed states made once)."""
        inner = self._inner.copy()
        inner.update(payload.encode("utf-8"))
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.hexdigest()

    def meta_mac(self, meta: dict[str, Any]) -> str:
        """The header's hash: over every field of ``meta`` but ``meta_mac`` itself."""
        return self.mac(canonical({k: v for k, v in meta.items() if k != "meta_mac"}))

    def checkpoint_mac(self, seq: int, mac: str) -> str:
        return self.mac(canonical(["checkpoint", seq, mac]))

    def entry_mac(self, prev_mac: str, seq: int, kind: str, op: dict[str, Any], undoes: int | None,
                  rows: Sequence[Row], changes: Sequence[Sequence[Any]], recorded_at: str) -> str:
        """HMAC-SHA256 of the entry and of the previous entry's hash."""
        return self.mac(canonical([prev_mac, seq, kind, op, undoes, [list(r) for r in rows], changes, recorded_at]))

    def stored_entry_mac(self, prev_mac: Any, seq: int, kind: Any, op: Any, undoes: Any, rows: Sequence[Row],
                         changes: Any, recorded_at: Any, stored_mac: Any) -> str:
        """:meth:`entry_mac` of an entry as stored (``op`` and ``changes``: the stored JSON texts), or "" when
        they are not JSON. Computed first over the stored texts themselves (valid JSON values, so the payload
        reads back the same: no decoding and spelling again); only when that does not give ``stored_mac``, over
        the decoded values, as the hash was always defined."""
        try:
            op_value, changes_value = json.loads(op), json.loads(changes)
        except (ValueError, TypeError, RecursionError):
            return ""
        if type(op) is str and type(changes) is str and isinstance(stored_mac, str):
            try:
                fast = self.mac(entry_payload(prev_mac, seq, kind, op, undoes, rows_text(rows), changes,
                                              recorded_at))
            except (ValueError, TypeError, RecursionError):
                fast = ""
            if hmac.compare_digest(fast, stored_mac):
                return fast
        try:
            return self.entry_mac(prev_mac, seq, kind, op_value, undoes, rows, changes_value, recorded_at)
        except (ValueError, TypeError, RecursionError):
            return ""

    def projection_mac(self, seq: int, state_json: str, last_mac: str) -> str:
        if type(seq) is int and type(state_json) is str and type(last_mac) is str:
            return self.mac(f"[{seq},{encode_str(state_json)},{encode_str(last_mac)}]")  # canonical(), spelled
        return self.mac(canonical([seq, state_json, last_mac]))


def key_id(key: bytes) -> str:
    """A short public fingerprint of a device key, stored in each game to tell 'another device's key'
    from 'edited'."""
    return hmac.new(key, b"banquier key id", hashlib.sha256).hexdigest()[:16]
