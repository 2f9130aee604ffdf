"""The reader's thread: polls at the reader's own schedule, keeps the events in order, wakes the loop once per
batch, survives a failing poll, stops on request. The pauses are recorded, never slept."""

from __future__ import annotations

import threading

import pytest

from hal.interfaces import CardPresented, CardRemoved, ReaderLost
from hal.poller import MIN_PAUSE_S, ReaderThread


class ScriptedReader:
    """``poll()`` returns the next scripted batch; ``next_poll_in()`` the next scripted pause."""

    def __init__(self, batches, pauses=None):
        self.batches, self.pauses = list(batches), list(pauses or [])
        self.polls = 0
        self.closed = False

    def poll(self):
        self.polls += 1
        batch = self.batches.pop(0) if self.batches else []
        if isinstance(batch, Exception):
            raise batch
        return batch

    def next_poll_in(self):
        return self.pauses.pop(0) if self.pauses else 0.02


def test_one_turn_queues_wakes_once_per_batch_and_sleeps_the_readers_pause():
    reader = ScriptedReader([[CardPresented("04A1B2C3")], [], [CardRemoved("04A1B2C3"), CardPresented("1A2B3C4D")]],
                            pauses=[0.02, 0.0, 0.05])
    wakes = []
    thread = ReaderThread(reader, lambda: wakes.append(1))
    assert thread.poll_once() == 0.02
    assert thread.poll_once() == MIN_PAUSE_S  # "now" again never makes the thread spin
    assert thread.poll_once() == 0.05
    assert len(wakes) == 1  # not drained yet: the loop was woken already
    assert thread.drain() == [CardPresented("04A1B2C3"), CardRemoved("04A1B2C3"), CardPresented("1A2B3C4D")]
    assert thread.drain() == []
    reader.batches.append([ReaderLost("gone")])
    thread.poll_once()
    assert len(wakes) == 2 and thread.drain() == [ReaderLost("gone")]


def test_a_failing_poll_or_wake_is_logged_and_polling_goes_on(caplog):
    reader = ScriptedReader([RuntimeError("SPI hiccup"), [CardPresented("04A1B2C3")]])

    def wake():
        raise RuntimeError("no display")
    thread = ReaderThread(reader, wake, error_pause_s=0.5)
    assert thread.poll_once() == 0.5
    assert thread.poll_once() == 0.02
    assert thread.drain() == [CardPresented("04A1B2C3")]
    assert "polling the card reader failed" in caplog.text and "waking the screen loop failed" in caplog.text


def test_the_thread_polls_at_the_readers_schedule_until_stopped():
    reader = ScriptedReader([[], [CardPresented("04A1B2C3")], [], []], pauses=[0.02, 0.05, 0.02, 0.02])
    pauses = []
    woken = threading.Event()

    def wait(stop, seconds):  # the thread's sleep, recorded: stop after 4 turns
        pauses.append(seconds)
        if len(pauses) == 4:
            stop.set()
        return stop.is_set()
    thread = ReaderThread(reader, woken.set, wait=wait)
    thread.start()
    assert woken.wait(5)
    assert thread.stop(timeout_s=5) and not thread.running
    assert pauses == [0.02, 0.05, 0.02, 0.02]
    assert reader.polls == 4 and thread.drain() == [CardPresented("04A1B2C3")]


def test_the_thread_ends_when_the_reader_is_closed():
    reader = ScriptedReader([])
    turns = []

    def wait(stop, seconds):
        turns.append(seconds)
        reader.closed = True
    thread = ReaderThread(reader, wait=wait)
    thread.start()
    thread._thread.join(5)
    assert not thread.running and turns == [0.02] and reader.polls == 1
    assert thread.stop()


@pytest.mark.parametrize("has_pause", [True, False])
def test_a_reader_without_next_poll_in_is_polled_at_20_hz(has_pause):
    class Bare:
        def poll(self):
            return []
    reader = ScriptedReader([]) if has_pause else Bare()
    assert ReaderThread(reader).poll_once() == (0.02 if has_pause else 0.05)
