"""A Banquier-like process for test_hal_sigterm.py: real backends on fakes, waiting for a card.

Usage: python sigterm_child.py event|exit. Prints READY once waiting (with a beep still sounding), then,
after SIGTERM, its shutdown steps and a JSON summary of the fake GPIO's final state.
"""

import json
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import hal
from tests.fakes.fake_gpio import FakeGPIO
from tests.fakes.fake_mfrc522 import FakeMFRC522
from tests.fakes.fake_spidev import FakeSpiBus
from tests.fakes.install import installed


def say(*words):
    print(*words, flush=True)


mode = sys.argv[1]
gpio = FakeGPIO()
chip = FakeMFRC522(clock=time.perf_counter)  # real time: the chip's timer runs for real
gpio.watch(22, chip.reset_pin_changed)
gpio.claim_foreign(40)  # another program's pin: must survive our shutdown

with installed(gpio=gpio, spi=FakeSpiBus({(0, 0): chip})):
    reader = hal.load_reader("mfrc522", env={})
    beeper = hal.load_beeper("gpio", env={}, pin=12, kind="passive")
    buttons = hal.load_buttons("gpio", env={}, pins={"confirm": 16, "cancel": 18})
    stop = threading.Event() if mode == "event" else None
    hal.install_sigterm_handler(stop)
    try:
        beeper.play("game_over")
        beeper.play("bankruptcy")
        while not gpio.pwm_running(12):
            time.sleep(0.001)
        reader.poll()  # the reader is scanning for cards
        say("READY")
        if mode == "event":
            say("STOPPED", hal.wait_for_card(reader, stop=stop))
        else:
            while True:
                reader.poll()
                buttons.poll()
                time.sleep(reader.next_poll_in())
    finally:
        say("CLOSING")
        say("CLOSED", hal.close_all())
        say(json.dumps({
            "level_12": gpio.level(12),
            "pwm_running_12": gpio.pwm_running(12),
            "sounded": any(what == "pwm_start" for _, what, _ in gpio.events(12)),
            "cleanups": [c[1] for c in gpio.calls if c[0] == "cleanup"],
            "violations": gpio.violations,
            "foreign_40_still_set_up": gpio.is_setup(40),
            "mode": gpio.mode,
            "scans": reader.scans,
        }))
