"""SIGTERM while waiting for a card: the process exits promptly and cleanly (field-notes 3, 13).

Real processes and real signals, with wide margins: we assert what happened and in which order,
never how long it took.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

CHILD = Path(__file__).with_name("sigterm_child.py")


@pytest.mark.parametrize("mode", ["event", "exit"])
def test_sigterm_while_waiting_for_a_card(mode):
    child = subprocess.Popen([sys.executable, str(CHILD), mode], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "READY"
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, err
    lines = out.splitlines()
    expected = (["STOPPED None"] if mode == "event" else []) + ["CLOSING", "CLOSED 3"]
    assert lines[:-1] == expected
    state = json.loads(lines[-1])
    assert state["sounded"]  # the beep was playing when the signal came ...
    assert state["level_12"] == 0 and not state["pwm_running_12"]  # ... and was cut to silence
    assert state["cleanups"] == [[16, 18], 12, 22]  # buttons, beeper, reader: only their own pins
    assert state["violations"] == [] and state["foreign_40_still_set_up"]
    assert state["mode"] == 10  # BOARD, kept (no bare cleanup() resetting it)
    assert state["scans"] >= 1
