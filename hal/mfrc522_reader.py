"""An MFRC522 (RC522) card reader on SPI, built on the ``mfrc522`` package's low-level ``MFRC522``.

Registry name ``"mfrc522"``. From the package we use only the constructor (SPI open, pin numbering,
reset pin, ``MFRC522_Init``), ``Write_MFRC522`` / ``Read_MFRC522`` (register access) and
``CalulateCRC`` (the chip's CRC coprocessor). Everything else is here, because the package's own calls
cannot serve a terminal (field-notes 3 to 8):

* **Our transceive.** ``MFRC522_ToCard`` waits for a card by reading ComIrqReg up to 2 000 times and
  ignores the timer interrupt, so a poll with no card costs 2 000 SPI transfers. Ours programs the
  chip's timer to the ISO 14443 response window (1 ms by default), lets the CPU rest for that window,
  and stops at the first of RxIRq / IdleIRq / ErrIRq / TimerIRq: an empty poll costs about eight
  transfers. The status loop itself never sleeps and is bounded by a read count, so a chip that stops
  raising interrupts is reported, not waited on.
* **Whole UIDs.** WUPA, then anticollision and SELECT per cascade level: level 1, level 2 for 7-byte
  UIDs (cascade tag 0x88), level 3 for 10-byte ones; BCC and CRC_A are checked. The UID is the hex of its
  real bytes; the cascade tag and BCC never appear in it. Then HALT.
* **Presence.** WUPA (not REQA) wakes halted cards too, so a card resting on the reader answers every
  poll and the removal debounce sees it; HALT after each read keeps it quiet in between.
* **Poll schedule.** An empty field costs one WUPA (7 SPI transfers and a 1 ms rest), a resting card a
  whole read (about 80 transfers and 4 rests): after a scan that read no card the next one comes 20 ms
  later (``idle_poll_interval_s``), so a card entering the field is seen within about 25 ms, and while a
  card is read every 50 ms (``poll_interval_s``), as before. The chip's IRQ pin only signals the end of a command the
  host started, so it cannot replace the polling.
* **Health.** Every ``health_check_interval_s`` and after any garbled scan, the version register
  (0x91 / 0x92, or a known clone), the timer mode and the antenna are checked; a chip that fails or
  stops raising interrupts ``failures_before_lost`` times is reported lost, then hard-reset through its
  reset pin and re-initialised until it answers (``ReaderBack``).
* **Never writes to a card** (no ``MFRC522_Write``, no authentication) and **never calls**
  ``Close_MFRC522``, whose bare ``GPIO.cleanup()`` would reset other code's pins: ``close`` closes SPI
  and cleans up only the reset pin.
"""

from __future__ import annotations

import importlib
import itertools
import logging
import time
import warnings
from collections.abc import Callable, Iterable
from typing import Protocol, Unpack

from hal import rpi_gpio
from hal.advice import permission_fix, spi_missing_fix
from hal.backends import Finding, Option, Options, ProbeHost, ReaderBackend
from hal.errors import BackendUnavailableError, HalConfigError, HalDeviceError, HalError
from hal.interfaces import Clock
from hal.presence import PollingReader, PollingTiming, ScanResult, check_range
from hal.uid import bcc, crc_a, uid_from_bytes

__all__ = ["Mfrc522Reader", "BACKEND", "KNOWN_VERSIONS", "IDLE_POLL_INTERVAL_S", "Transceive", "Mfrc522Chip"]

log = logging.getLogger(__name__)

# Registers (MFRC522 datasheet, section 9).
COMMAND_REG, COMM_IRQ_REG, DIV_IRQ_REG, ERROR_REG = 0x01, 0x04, 0x05, 0x06
FIFO_DATA_REG, FIFO_LEVEL_REG, CONTROL_REG, BIT_FRAMING_REG = 0x09, 0x0A, 0x0C, 0x0D
TX_CONTROL_REG, T_MODE_REG, T_PRESCALER_REG = 0x14, 0x2A, 0x2B
T_RELOAD_REG_H, T_RELOAD_REG_L, VERSION_REG = 0x2C, 0x2D, 0x37
# Commands.
PCD_IDLE, PCD_TRANSCEIVE = 0x00, 0x0C
# ComIrqReg bits.
TIMER_IRQ, ERR_IRQ, IDLE_IRQ, RX_IRQ = 0x01, 0x02, 0x10, 0x20
# ErrorReg bits that spoil a frame: protocol, parity, collision, buffer overflow.
FRAME_ERRORS = 0x1B
# ISO 14443-3 type A commands.
PICC_WUPA, PICC_HALT = 0x52, 0x50
SELECT_CODES = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
SAK_CASCADE = 0x04

#: Version register values accepted: MFRC522 v1.0 / v2.0 and common clones (FM17522, counterfeits).
KNOWN_VERSIONS: dict[int, str] = {0x91: "MFRC522 v1.0", 0x92: "MFRC522 v2.0", 0x88: "FM17522 clone",
                                  0xB2: "FM17522E clone", 0x12: "MFRC522 clone"}

# Timer: TPrescaler = 169 -> 13.56 MHz / (2*169 + 1) = 40 kHz, one tick = 25 us.
_PRESCALER = 169
_TICK_S = (2 * _PRESCALER + 1) / 13.56e6
_T_MODE = 0x80 | (_PRESCALER >> 8)  # TAuto: start at the end of each transmission
_BIT_S = 1 / 106e3  # one bit on the air at 106 kbit/s

#: Default seconds between two scans of an empty field (a card resting on the reader: ``poll_interval_s``).
IDLE_POLL_INTERVAL_S = 0.02

_numbers = itertools.count(1)


class _Spi(Protocol):
    """The ``spidev.SpiDev`` the package's ``MFRC522`` holds as ``spi`` (spidev ships no types)."""

    mode: int
    max_speed_hz: int

    def close(self) -> None: ...


class Mfrc522Chip(Protocol):
    """What this backend uses of the ``mfrc522`` package's ``MFRC522`` object (the package ships no types,
    and it is imported by name at run time): register access, the CRC coprocessor, init and the antenna."""

    spi: _Spi

    def Write_MFRC522(self, addr: int, val: int) -> None: ...

    def Read_MFRC522(self, addr: int) -> int: ...

    def CalulateCRC(self, pIndata: list[int]) -> list[int]: ...

    def MFRC522_Init(self) -> None: ...

    def AntennaOff(self) -> None: ...


class _Mfrc522Class(Protocol):
    """The ``mfrc522.MFRC522`` class, called with the keywords ``_construct`` passes."""

    def __call__(self, *, bus: int, device: int, spd: int, pin_mode: int, pin_rst: int) -> Mfrc522Chip: ...


class Transceive:
    """Outcomes of one exchange with a card (``kind`` of ``_transceive``)."""

    OK = "ok"  # a frame came back (data, bit count)
    TIMEOUT = "timeout"  # nothing came back within the response window: no card
    ERROR = "error"  # something came back garbled (CRC, parity, collision...): a card is there
    STUCK = "stuck"  # the chip raised no interrupt at all: it is not working


class Mfrc522Reader(PollingReader):
    """An RC522 board on SPI.

    Args:
        bus: SPI bus, 0..6 (default 0). device: chip select, 0..2 (default 0 = CE0, header pin 24).
        spi_speed_hz: SPI clock, 100 kHz..10 MHz (default 1 MHz; long wires want less).
        reset_pin: header pin wired to RST (BOARD numbering, default 22 = GPIO25).
        response_timeout_s: how long the chip waits for a card's answer, 0.3..25 ms (default 1 ms; the
            ISO 14443 frame delay is 91 us).
        health_check_interval_s: seconds between register health checks, 0.5..600 (default 5).
        accepted_versions: version register values taken as a working chip (default ``KNOWN_VERSIONS``).
        max_status_reads: ComIrqReg reads after which a chip that raised no interrupt counts as stuck,
            10..10000 (default 400).
        wait: ``wait(seconds)`` that lets the CPU rest while the chip works (default ``time.sleep``;
            tests advance the fake chip's clock instead).
        idle_poll_interval_s: seconds between two scans of an empty field (default 0.02, or
            ``poll_interval_s`` if that is shorter).
        clock, poll_interval_s, removal_debounce_s, failures_before_lost, recover_interval_s:
            as ``hal.presence.PollingReader``.

    Raises:
        HalConfigError: a value out of range, or a pin clash with another part.
        BackendUnavailableError: spidev, RPi.GPIO (or rpi-lgpio) or mfrc522 missing or unusable.
        HalDeviceError: SPI not enabled, no permission, or no chip answering (message says the fix).
    """

    backend = "mfrc522"

    def __init__(self, *, bus: int = 0, device: int = 0, spi_speed_hz: int = 1_000_000,
                 reset_pin: int = 22, response_timeout_s: float = 0.001,
                 health_check_interval_s: float = 5.0,
                 accepted_versions: Iterable[int] | None = None, max_status_reads: int = 400,
                 wait: Callable[[float], None] | None = None, clock: Clock | None = None,
                 **timing: Unpack[PollingTiming]) -> None:
        if "idle_poll_interval_s" not in timing:
            base = timing.get("poll_interval_s", 0.05)
            fast = isinstance(base, (int, float)) and 0 < base < IDLE_POLL_INTERVAL_S
            timing["idle_poll_interval_s"] = float(base) if fast else IDLE_POLL_INTERVAL_S
        super().__init__(clock=clock, **timing)
        for name, value, high in (("bus", bus, 6), ("device", device, 2)):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
                raise HalConfigError(f"SPI {name}={value!r}: use an integer 0..{high}")
        self._bus, self._device = bus, device
        self._path = f"/dev/spidev{bus}.{device}"
        self._speed = int(check_range("spi_speed_hz", spi_speed_hz, 100_000, 10_000_000, unit="Hz"))
        self._reset_pin = rpi_gpio.check_pin("reset_pin", reset_pin)
        timeout = check_range("response_timeout_s", response_timeout_s, 0.0003, 0.025)
        self._reload = max(1, round(timeout / _TICK_S) - 1)
        self._response_window_s = (self._reload + 1) * _TICK_S
        self._health_interval = check_range("health_check_interval_s", health_check_interval_s, 0.5, 600)
        self._versions = frozenset(KNOWN_VERSIONS if accepted_versions is None else accepted_versions)
        if not isinstance(max_status_reads, int) or not 10 <= max_status_reads <= 10000:
            raise HalConfigError(f"max_status_reads={max_status_reads!r}: use an integer 10..10000")
        self._max_status_reads = max_status_reads
        self._rest: Callable[[float], None] = wait or time.sleep
        self._next_health = float("-inf")
        self.version: int | None = None

        self._gpio = rpi_gpio.import_gpio()
        try:
            importlib.import_module("spidev")
        except ImportError as exc:
            raise BackendUnavailableError("spidev is not installed: pip install spidev") from exc
        try:
            mfrc522_class: _Mfrc522Class = importlib.import_module("mfrc522").MFRC522
        except ImportError as exc:
            raise BackendUnavailableError("the mfrc522 package is not installed: pip install mfrc522==0.0.7") from exc

        self._owner = f"card reader #{next(_numbers)}"
        spi_pins = [rpi_gpio.SPI0_PINS["CE1" if device == 1 else "CE0"]] if bus == 0 else []
        if bus == 0:
            spi_pins += [rpi_gpio.SPI0_PINS[k] for k in ("MOSI", "MISO", "SCLK")]
        rpi_gpio.claim(self._owner, [self._reset_pin, *spi_pins], label="card reader")
        self._dev: Mfrc522Chip | None = None
        self._channel: int | None = None
        try:
            self._channel = channel = rpi_gpio.numbering(self._gpio)(self._reset_pin)
            self._dev = self._construct(mfrc522_class, channel)
            self._configure()
            reason = self._health_problem()
            if reason is not None:
                raise HalDeviceError(
                    f"no MFRC522 answers on {self._path} ({reason}): check the wiring: SDA to pin "
                    f"24 (CE0), SCK 23, MOSI 19, MISO 21, RST {self._reset_pin}, 3.3 V (never 5 V)"
                )
        except OSError as exc:  # an SPI transfer failing while the chip is configured
            self._release_hardware()
            if isinstance(exc, HalDeviceError):
                raise
            raise HalDeviceError(f"the SPI link to the card reader on {self._path} failed ({exc}): check the "
                                 "wiring and the 3.3 V supply") from exc
        except Exception as exc:
            self._release_hardware()
            if isinstance(exc, HalError):
                raise
            raise rpi_gpio.device_error(exc, "the card reader") from exc
        except BaseException:
            self._release_hardware()
            raise
        chip = "chip" if self.version is None else KNOWN_VERSIONS.get(self.version, "chip")
        log.info("card reader: %s on %s at %d Hz", chip, self._path, self._speed)

    # -- set-up ------------------------------------------------------------------------------------
    def _construct(self, mfrc522_class: _Mfrc522Class, channel: int) -> Mfrc522Chip:
        logger = logging.getLogger("mfrc522Logger")
        handlers = list(logger.handlers)
        try:
            # pin_mode only matters if no mode is set; numbering() has set one already.
            return mfrc522_class(bus=self._bus, device=self._device, spd=self._speed,
                                 pin_mode=self._gpio.BOARD, pin_rst=channel)
        except FileNotFoundError as exc:
            raise HalDeviceError(spi_missing_fix(self._path)) from exc
        except PermissionError as exc:  # the fix fits what is there: config.txt, the groups, the device policy
            raise HalDeviceError(f"no permission to open {self._path}: {permission_fix(self._path, 'spi', exc)}"
                                 ) from exc
        except OSError as exc:
            raise HalDeviceError(f"cannot open {self._path}: {exc}") from exc
        except Exception as exc:  # RPi.GPIO's RuntimeError on the reset pin ("No access to /dev/mem"), ...
            raise rpi_gpio.device_error(exc, f"the card reader's reset pin {self._reset_pin}") from exc
        finally:
            # The package adds a StreamHandler to a shared logger on every construction.
            for handler in logger.handlers[:]:
                if handler not in handlers:
                    logger.removeHandler(handler)

    def _live_chip(self) -> Mfrc522Chip:
        """The chip object, which exists from a successful start on (every caller runs after it)."""
        if self._dev is None:
            raise HalDeviceError(f"the card reader on {self._path} was never opened: create it again")
        return self._dev

    def _configure(self) -> None:
        """Program the timer for our response window (after the package's MFRC522_Init)."""
        dev = self._live_chip()
        dev.spi.mode = 0
        dev.spi.max_speed_hz = self._speed
        dev.Write_MFRC522(T_MODE_REG, _T_MODE)
        dev.Write_MFRC522(T_PRESCALER_REG, _PRESCALER & 0xFF)
        dev.Write_MFRC522(T_RELOAD_REG_H, self._reload >> 8)
        dev.Write_MFRC522(T_RELOAD_REG_L, self._reload & 0xFF)

    def _health_problem(self) -> str | None:
        """Read the version, timer mode and antenna registers; return None if all is well."""
        read = self._live_chip().Read_MFRC522
        version = read(VERSION_REG)
        if version not in self._versions:
            return f"version register reads 0x{version:02X}, expected 0x91 or 0x92"
        self.version = version
        if read(T_MODE_REG) != _T_MODE:
            return "the chip lost its configuration (it reset itself)"
        if read(TX_CONTROL_REG) & 0x03 != 0x03:
            return "the antenna is off (the chip reset itself)"
        return None

    # -- our transceive --------------------------------------------------------------------------
    def _transceive(self, data: list[int], last_bits: int = 0) -> tuple[str, list[int], int]:
        """Send a frame and wait for the answer; return ``(kind, data, bit count)``."""
        dev = self._live_chip()
        write, read = dev.Write_MFRC522, dev.Read_MFRC522
        write(COMMAND_REG, PCD_IDLE)  # stop whatever runs (a CRC calculation, a previous receive)
        write(COMM_IRQ_REG, 0x7F)  # clear every interrupt flag
        write(FIFO_LEVEL_REG, 0x80)  # flush the FIFO
        for byte in data:
            write(FIFO_DATA_REG, byte)
        write(COMMAND_REG, PCD_TRANSCEIVE)
        write(BIT_FRAMING_REG, 0x80 | last_bits)  # StartSend
        # The chip needs the frame's air time plus the response window: rest instead of spinning.
        self._rest(len(data) * 9 * _BIT_S + self._response_window_s + 0.0001)
        for _ in range(self._max_status_reads):
            irq = read(COMM_IRQ_REG)
            if irq & (RX_IRQ | IDLE_IRQ | ERR_IRQ | TIMER_IRQ):
                break
        else:
            return Transceive.STUCK, [], 0
        if not irq & (RX_IRQ | IDLE_IRQ | ERR_IRQ):
            return Transceive.TIMEOUT, [], 0
        if read(ERROR_REG) & FRAME_ERRORS:
            return Transceive.ERROR, [], 0
        level = read(FIFO_LEVEL_REG) & 0x7F
        last = read(CONTROL_REG) & 0x07
        bits = (level - 1) * 8 + last if last else level * 8
        received = [read(FIFO_DATA_REG) for _ in range(min(level, 64))]
        return Transceive.OK, received, bits

    def _read_uid(self) -> ScanResult:
        dev = self._live_chip()
        kind, _atqa, bits = self._transceive([PICC_WUPA], last_bits=7)
        if kind == Transceive.TIMEOUT:
            return ScanResult()
        if kind == Transceive.STUCK:
            return ScanResult(failure="the card reader chip raised no interrupt (stuck)")
        if kind == Transceive.ERROR or bits != 16:
            return ScanResult(errors=1)
        uid: list[int] = []
        for select in SELECT_CODES:
            kind, answer, bits = self._transceive([select, 0x20])
            if kind == Transceive.STUCK:
                return ScanResult(failure="the card reader chip raised no interrupt (stuck)")
            if kind != Transceive.OK or bits != 40 or len(answer) != 5 or bcc(answer[:4]) != answer[4]:
                return ScanResult(errors=1)
            frame = [select, 0x70, *answer]
            frame += dev.CalulateCRC(frame)
            kind, sak, bits = self._transceive(frame)
            if kind == Transceive.STUCK:
                return ScanResult(failure="the card reader chip raised no interrupt (stuck)")
            if kind != Transceive.OK or bits != 24 or len(sak) != 3 or bytes(sak[1:]) != crc_a(sak[:1]):
                return ScanResult(errors=1)
            cascade = bool(sak[0] & SAK_CASCADE)
            if cascade != (answer[0] == CASCADE_TAG) or (cascade and select == SELECT_CODES[-1]):
                return ScanResult(errors=1)
            uid += answer[1:4] if cascade else answer[:4]
            if not cascade:
                break
        halt = [PICC_HALT, 0x00]
        self._transceive(halt + dev.CalulateCRC(halt))  # a card answers HALT only to refuse it
        return ScanResult(uids=(uid_from_bytes(uid),))

    # -- PollingReader hooks -----------------------------------------------------------------------
    def _scan(self, now: float) -> ScanResult:
        if now >= self._next_health:
            reason = self._health_problem()
            if reason is not None:
                return ScanResult(failure=reason)  # checked again at every scan until it passes
            self._next_health = now + self._health_interval
        result = self._read_uid()
        if result.errors or result.failure:
            reason = self._health_problem()  # garbage may be a dying chip rather than a card
            if reason is not None:
                self._next_health = now  # keep checking at every scan until it passes
                return ScanResult(failure=reason)
        return result

    def _recover(self, now: float) -> str | None:
        """Hard reset through the reset pin, re-initialise, check."""
        gpio, channel, dev = self._gpio, self._channel, self._live_chip()
        if channel is None:
            return f"the card reader's reset pin {self._reset_pin} was never set up: create it again"
        try:
            gpio.output(channel, 0)
            self._rest(0.0001)
            gpio.output(channel, 1)
            self._rest(0.005)  # oscillator start-up
            dev.MFRC522_Init()
            self._configure()
            reason = self._health_problem()
        except OSError as exc:
            return f"the card reader's SPI link failed: {exc}"
        except Exception as exc:  # RPi.GPIO refusing the reset pin: reported, retried, never a crash
            return str(rpi_gpio.device_error(exc, f"resetting the card reader (pin {self._reset_pin})"))
        if reason is None:
            self._next_health = now + self._health_interval
        return reason

    def _release_hardware(self) -> None:
        try:
            if self._dev is not None:
                try:
                    self._dev.AntennaOff()
                except OSError:
                    pass
                self._dev.spi.close()
        finally:
            try:
                if self._channel is not None:
                    with warnings.catch_warnings():  # set up or not (a failed start), release it
                        warnings.simplefilter("ignore", RuntimeWarning)
                        self._gpio.cleanup(self._channel)  # only our reset pin, never GPIO.cleanup()
            finally:
                rpi_gpio.release(self._owner)

    def _close(self) -> None:
        self._release_hardware()

    # -- for tests and the benchmark -----------------------------------------------------------------
    @property
    def chip(self) -> Mfrc522Chip | None:
        """The package's ``MFRC522`` object (read-only use: registers, counters)."""
        return self._dev

    def empty_poll(self) -> str:
        """One WUPA exchange and its outcome (``Transceive.*``), for measurements."""
        return self._transceive([PICC_WUPA], last_bits=7)[0]


# -- the backend's declaration (hal.backends) -------------------------------------------------------------
def spi_path(options: Options) -> str:
    """The SPI device node of these options: ``/dev/spidev<spi_bus>.<spi_device>``."""
    return f"/dev/spidev{options.get('spi_bus', 0)}.{options.get('spi_device', 0)}"


def _pins(options: Options) -> list[tuple[int, str]]:
    pins: list[tuple[int, str]] = []
    if options.get("spi_bus", 0) == 0:
        pins += [(rpi_gpio.SPI0_PINS[name], f"the reader's SPI {name}") for name in ("MOSI", "MISO", "SCLK")]
        chip_select = "CE1" if options.get("spi_device", 0) == 1 else "CE0"
        pins.append((rpi_gpio.SPI0_PINS[chip_select], "the reader's SPI chip select"))
    return pins + [(options.get("reset_pin", 22), "hardware.reader.reset_pin")]


def _spi_finding(host: ProbeHost, options: Options) -> Finding:
    shown_path = spi_path(options)
    wanted = host.path(shown_path)
    present = sorted(p.name for p in host.path("/dev").glob("spidev*"))
    if not wanted.exists():
        if not present:
            enabled = host.boot_setting(r"dtparam=spi=on\b")
            where = host.boot_file()
            shown = where or "/boot/firmware/config.txt"
            if enabled and enabled[2]:
                return Finding("spi", "fail", f"SPI is enabled in {shown} but {shown_path} is missing: the Pi "
                                              f"has not rebooted since, or the overlay failed",
                               "sudo reboot; if it is still missing after the reboot: dmesg | grep -i spi")
            if enabled:
                return Finding("spi", "fail", f"{shown_path} is missing: dtparam=spi=on in {shown} is under "
                                              f"[{enabled[1]}], which does not apply to this Pi",
                               f"move dtparam=spi=on under an [all] line at the end of {shown}, then sudo reboot")
            if where is not None and not host.path("/usr/bin/raspi-config").exists():
                return Finding("spi", "fail", f"SPI is not enabled: {shown_path} is missing",
                               f"add the line dtparam=spi=on under an [all] line at the end of {shown}, then "
                               f"sudo reboot")
            return Finding("spi", "fail", f"SPI is not enabled: {shown_path} is missing",
                           "sudo raspi-config nonint do_spi 0 (or dtparam=spi=on in /boot/firmware/config.txt), "
                           "then sudo reboot")
        return Finding("spi", "fail", f"{shown_path} is missing; SPI devices present: {', '.join(present)}",
                       "set spi_bus and spi_device in [hardware.reader] to one of them (spidev<bus>.<device>)")
    if not host.usable(wanted):
        group = host.group_of(wanted) or "unknown"
        return Finding("spi", "fail", f"{host.user_name} may not use {shown_path} (group {group})",
                       host.access_fix(wanted, "spi"))
    return Finding("spi", "ok", f"SPI is enabled: {shown_path} is usable by {host.user_name}")


def probe(host: ProbeHost, options: Options) -> list[Finding]:
    """The doctor's lines for an MFRC522: SPI enabled and its device usable (``spi``), then the chip answering
    its version register (``reader``; a clone is a warning)."""
    spi = _spi_finding(host, options)
    if spi.status == "fail":
        return [spi, Finding("reader", "fail", "the reader chip was not tried: SPI is not usable",
                             "fix SPI first (above)")]
    if not host.probe_hardware:
        return [spi, Finding("reader", "warn", "the reader chip was not tried (hardware probing is off)",
                             "sudo systemctl stop banquier, then run banquier doctor again")]
    where = spi_path(options)
    wiring = (f"check the wiring (SDA->24, SCK->23, MOSI->19, MISO->21, RST->{options.get('reset_pin', 22)}, "
              f"3.3 V, never 5 V) and stop the service while testing: sudo systemctl stop banquier")
    try:
        device = host.open_reader("mfrc522", **BACKEND.hal_options(options))
    except BackendUnavailableError as exc:
        return [spi, Finding("reader", "fail", f"the reader cannot load: {exc}",
                             f"{host.pip} install {' '.join(repr(p) for p in BACKEND.packages)} (or run "
                             f"deploy/install.sh again)")]
    except (HalDeviceError, HalConfigError) as exc:
        return [spi, Finding("reader", "fail", str(exc), wiring)]
    except Exception as exc:
        return [spi, Finding("reader", "fail", f"the reader failed to start: {type(exc).__name__}: {exc}", wiring)]
    try:
        version = getattr(device, "version", None)
    finally:
        device.close()
    name = KNOWN_VERSIONS.get(version, "a chip") if version is not None else "the chip"
    shown = f" (version 0x{version:02X})" if version is not None else ""
    if version in (0x91, 0x92) or version is None:
        return [spi, Finding("reader", "ok", f"{name}{shown} answers on {where}")]
    return [spi, Finding("reader", "warn", f"{name}{shown} answers on {where}: a clone, not an NXP MFRC522",
                         "it usually works; if cards are missed or misread, try a genuine MFRC522 board")]


BACKEND = ReaderBackend(
    name="mfrc522",
    target="hal.mfrc522_reader:Mfrc522Reader",
    summary="an RC522 board on the Pi's SPI header",
    options=(
        Option("spi_bus", "int", 0, arg="bus", lo=0, hi=6, doc="SPI bus (0: the header's SPI0)"),
        Option("spi_device", "int", 0, arg="device", lo=0, hi=2, doc="chip select: 0 = CE0 (pin 24), 1 = CE1 (26)"),
        Option("spi_speed_hz", "int", 1_000_000, lo=100_000, hi=10_000_000, hint="Hz",
               doc="SPI clock; long wires want less"),
        Option("reset_pin", "pin", 22, doc="header pin wired to RST"),
    ),
    extra="pi",
    packages=("spidev>=3.6", "mfrc522==0.0.7"),
    groups=(("spi", "the reader's SPI"), ("gpio", "the reader's reset pin")),
    gpio=True,
    device_classes=("char-spi rw",),
    devices=lambda options: [spi_path(options)],
    pins=_pins,
    probe=probe,
    cards="13.56 MHz ISO 14443A: MIFARE Classic (4-byte UID), NTAG and Ultralight stickers (7 bytes)",
)
