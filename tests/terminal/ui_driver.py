"""The table driver now lives in :mod:`host_ui.demo` (the simulator's demo mode plays logs with it too)."""
from host_ui.demo import BANKER_UID, UNKNOWN_UID, FakeClock, GaveUp, TableDriver, deed_uid, player_uid, type_amount  # noqa: F401 - re-exported
