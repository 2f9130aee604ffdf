"""A PN532 board (13.56 MHz) on I²C, SPI or UART, through Adafruit's ``adafruit-circuitpython-pn532``.

Registry name ``"pn532"``. The library (with Adafruit Blinka's ``board``, ``busio`` and ``digitalio`` on a
Raspberry Pi, or pyserial for the UART) drives the chip; from it we use only the constructor of the interface
chosen (``PN532_I2C``, ``PN532_SPI``, ``PN532_UART``), ``firmware_version``, ``SAM_configuration()`` and
``read_passive_target(timeout=...)``, which returns the UID bytes of an ISO 14443A card in the order it sends
them (so the canonical form as is) or None. Why this library rather than nfcpy: it speaks all three
interfaces of the common red and blue PN532 boards (nfcpy drives a PN532 only on a UART or through USB), it is
kept up by Adafruit with releases every year, and it needs no kernel driver but I²C or SPI enabled.

* **Each scan** is one ``read_passive_target`` with a short timeout (``response_timeout_s``, 20 ms by
  default: the library waits for the chip's answer by polling its ready bit, so an empty field costs that
  wait). A card resting on the reader answers every scan; the shared ``PresenceTracker`` turns those reads into
  one ``CardPresented`` and, once they stop for the debounce time, one ``CardRemoved``.
* **Errors.** The library raises ``RuntimeError`` for a frame it cannot read (a bad checksum or preamble:
  a garbled read, no event) and for a chip that does not answer (``No response``, ``expected ACK``), and
  ``OSError`` for a bus that fails (I²C's ``Remote I/O error``): ``failures_before_lost`` of those in a row
  report ``ReaderLost``; then the board is set up again every ``recover_interval_s`` until its firmware
  version answers (``ReaderBack``).
* **Permissions.** I²C is ``/dev/i2c-1`` (group ``i2c``; enable it with ``sudo raspi-config nonint
  do_i2c 0``), SPI ``/dev/spidev0.*`` (group ``spi``), the UART a serial port (group ``dialout``).

The library is the optional extra ``banquier[pn532]``, imported only when this reader is made.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any, Unpack

from hal import rpi_gpio
from hal.backends import Finding, Option, Options, ProbeHost, ReaderBackend
from hal.errors import BackendUnavailableError, HalConfigError, HalDeviceError, InvalidUidError
from hal.interfaces import Clock
from hal.presence import PollingReader, PollingTiming, ScanResult, check_range
from hal.uid import uid_from_bytes

__all__ = ["Pn532Reader", "BACKEND", "INTERFACES"]

log = logging.getLogger(__name__)

#: The PN532's host interfaces (the board's switches or jumpers choose one).
INTERFACES = ("i2c", "spi", "uart")

#: Words of the library's RuntimeError for a frame it could not read (a garbled read, not a lost chip).
_GARBLED_WORDS = ("checksum", "preamble", "frame", "length")


class Pn532Reader(PollingReader):
    """A PN532 board.

    Args:
        interface: "i2c" (default), "spi" or "uart", as the board's switches are set.
        port: the UART's device (``/dev/serial0``; "uart" only). baudrate: the UART's speed (115200).
        cs_pin: header pin wired to the board's SS ("spi" only; default 24 = CE0).
        response_timeout_s: how long one scan waits for a card's answer, 0.005..0.5 (default 0.02).
        clock, poll_interval_s, removal_debounce_s, failures_before_lost, recover_interval_s:
            as ``hal.presence.PollingReader``.

    Raises:
        HalConfigError: a value out of range, or a UART without its port.
        BackendUnavailableError: the Adafruit library (or Blinka, or pyserial) is not installed.
        HalDeviceError: the bus cannot be opened or no PN532 answers (the message says what to check).
    """

    backend = "pn532"

    def __init__(self, *, interface: str = "i2c", port: str | None = None, baudrate: int = 115200,
                 cs_pin: int = 24, response_timeout_s: float = 0.02, clock: Clock | None = None,
                 **timing: Unpack[PollingTiming]) -> None:
        super().__init__(clock=clock, **timing)
        if interface not in INTERFACES:
            raise HalConfigError(f"interface={interface!r}: use one of {', '.join(INTERFACES)}")
        if interface == "uart" and not port:
            raise HalConfigError("a PN532 on the UART needs port=/dev/serial0 (or its /dev/serial/by-id/ name)")
        self._interface, self._port = interface, port
        self._baudrate = int(check_range("baudrate", baudrate, 1200, 921600, unit="baud"))
        self._cs_pin = rpi_gpio.check_pin("cs_pin", cs_pin)
        self._timeout = check_range("response_timeout_s", response_timeout_s, 0.005, 0.5)
        self._chip: Any = None
        self._bus: Any = None
        self.firmware: tuple[int, int, int, int] | None = None
        self._start()

    @property
    def interface(self) -> str:
        return self._interface

    def _import(self, name: str, install: str) -> Any:
        try:
            return importlib.import_module(name)
        except ImportError as exc:
            raise BackendUnavailableError(f"{name} is not installed: {install}") from exc

    def _make(self) -> Any:
        """Open the bus and make the library's PN532 object for the interface (raises as the library does)."""
        extra = "pip install 'banquier[pn532]'"
        if self._interface == "uart":
            serial = self._import("serial", "pip install pyserial")
            uart = serial.Serial(self._port, baudrate=self._baudrate, timeout=0.1)
            self._bus = uart
            return self._import("adafruit_pn532.uart", extra).PN532_UART(uart, debug=False)
        board = self._import("board", f"{extra} (Adafruit Blinka)")
        busio = self._import("busio", f"{extra} (Adafruit Blinka)")
        if self._interface == "i2c":
            self._bus = busio.I2C(board.SCL, board.SDA)
            return self._import("adafruit_pn532.i2c", extra).PN532_I2C(self._bus, debug=False)
        digitalio = self._import("digitalio", f"{extra} (Adafruit Blinka)")
        self._bus = busio.SPI(board.SCK, board.MOSI, board.MISO)
        cs = digitalio.DigitalInOut(getattr(board, f"D{rpi_gpio.BOARD_TO_BCM[self._cs_pin]}"))
        return self._import("adafruit_pn532.spi", extra).PN532_SPI(self._bus, cs, debug=False)

    def _start(self) -> None:
        """Set the board up and check that it answers; raise HalDeviceError with the fix otherwise."""
        where = {"i2c": "I²C (SDA 3, SCL 5)", "spi": f"SPI (MOSI 19, MISO 21, SCK 23, SS {self._cs_pin})",
                 "uart": f"the UART {self._port}"}[self._interface]
        try:
            chip = self._make()
            ic, version, revision, support = chip.firmware_version
            self.firmware = (int(ic), int(version), int(revision), int(support))
            chip.SAM_configuration()
        except (BackendUnavailableError, HalConfigError):
            self._drop()
            raise
        except PermissionError as exc:
            self._drop()
            group = {"i2c": "i2c", "spi": "spi", "uart": "dialout"}[self._interface]
            raise HalDeviceError(f"no permission to open the PN532's bus ({exc.filename or where}): sudo usermod "
                                 f"-aG {group} $USER, then log in again") from exc
        except (OSError, RuntimeError, ValueError) as exc:
            self._drop()
            enable = {"i2c": "sudo raspi-config nonint do_i2c 0 and reboot", "spi": "sudo raspi-config nonint "
                      "do_spi 0 and reboot", "uart": "check the port (ls /dev/serial/by-id/)"}[self._interface]
            raise HalDeviceError(f"no PN532 answers on {where} ({exc}): check the board's interface switches, the "
                                 f"wiring (3.3 V or 5 V as the board says) and that the bus is enabled ({enable})"
                                 ) from exc
        self._chip = chip
        log.info("card reader: PN532 firmware %s on %s", ".".join(map(str, self.firmware[1:3])), where)

    # -- PollingReader ---------------------------------------------------------------------------------
    def _scan(self, now: float) -> ScanResult:
        if self._chip is None:
            return ScanResult(failure="the PN532 is not set up")
        try:
            raw = self._chip.read_passive_target(timeout=self._timeout)
        except RuntimeError as exc:
            if any(word in str(exc).lower() for word in _GARBLED_WORDS):
                return ScanResult(errors=1)
            return ScanResult(failure=f"the PN532 does not answer: {exc}")
        except OSError as exc:
            return ScanResult(failure=f"the PN532's bus failed: {exc.strerror or exc}")
        if raw is None:
            return ScanResult()
        try:
            return ScanResult(uids=(uid_from_bytes(raw),))
        except InvalidUidError:
            return ScanResult(errors=1)

    def _recover(self, now: float) -> str | None:
        self._drop()
        try:
            self._start()
        except HalDeviceError as exc:
            return str(exc)
        return None

    def _drop(self) -> None:
        bus, self._bus, self._chip = self._bus, None, None
        for name in ("deinit", "close"):
            method = getattr(bus, name, None)
            if method is not None:
                try:
                    method()
                except Exception:
                    pass
                break

    def _close(self) -> None:
        self._drop()


# -- the backend's declaration (hal.backends) -------------------------------------------------------------
def _device(options: Options) -> str:
    interface = options.get("interface", "i2c")
    if interface == "i2c":
        return "/dev/i2c-1"
    if interface == "spi":
        return "/dev/spidev0.1" if options.get("cs_pin", 24) == 26 else "/dev/spidev0.0"
    return str(options.get("port") or "/dev/serial0")


def _pins(options: Options) -> list[tuple[int, str]]:
    interface = options.get("interface", "i2c")
    if interface == "i2c":
        return [(3, "the PN532's I²C SDA"), (5, "the PN532's I²C SCL")]
    if interface == "spi":
        return [(19, "the PN532's SPI MOSI"), (21, "the PN532's SPI MISO"), (23, "the PN532's SPI SCLK"),
                (options.get("cs_pin", 24), "hardware.reader.cs_pin")]
    port = str(options.get("port") or "")
    if port in ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0"):
        return [(8, "the PN532's UART TX"), (10, "the PN532's UART RX")]
    return []


def probe(host: ProbeHost, options: Options) -> list[Finding]:
    """The doctor's lines for a PN532: the libraries its interface needs (``pn532-lib``, a FAIL line whatever
    else is wrong), its bus enabled and usable (``pn532``), then the chip answering."""
    interface = options.get("interface", "i2c")
    needed = {"adafruit-circuitpython-pn532": "the Adafruit PN532 library"}
    needed.update({"pyserial": "pyserial"} if interface == "uart" else {"adafruit-blinka": "Adafruit Blinka"})
    missing = [dist for dist in needed if not host.installed(dist)]
    library = [Finding("pn532-lib", "fail", f"the PN532 on {interface} needs "
                                            f"{' and '.join(f'{needed[d]} ({d})' for d in missing)}: not installed",
                       f"{host.pip} install {' '.join(repr(p) for p in BACKEND.packages)} (or run "
                       f"deploy/install.sh again)")] if missing else []
    return library + _probe_bus(host, options, interface, skip_chip=bool(missing))


def _probe_bus(host: ProbeHost, options: Options, interface: str, *, skip_chip: bool) -> list[Finding]:
    shown = _device(options)
    node = host.path(shown)
    if not node.exists():
        if interface == "i2c":
            return [Finding("pn532", "fail", f"I²C is not enabled: {shown} is missing",
                            "sudo raspi-config nonint do_i2c 0 (or dtparam=i2c_arm=on in /boot/firmware/config.txt), "
                            "then sudo reboot")]
        if interface == "spi":
            return [Finding("pn532", "fail", f"SPI is not enabled: {shown} is missing",
                            "sudo raspi-config nonint do_spi 0, then sudo reboot")]
        return [Finding("pn532", "fail", f"the PN532's port {shown} is missing",
                        "enable the UART (sudo raspi-config nonint do_serial_hw 0) or set port in [hardware.reader]")]
    if not host.usable(node):
        usual = {"i2c": "i2c", "spi": "spi", "uart": "dialout"}[interface]
        return [Finding("pn532", "fail", f"{host.user_name} may not use {shown} (group "
                                         f"{host.group_of(node) or 'unknown'})", host.access_fix(node, usual))]
    bus = Finding("pn532", "ok", f"the PN532's bus {shown} is usable by {host.user_name}")
    if skip_chip:
        return [bus]
    if not host.probe_hardware:
        return [bus, Finding("reader", "warn", "the PN532 was not tried (hardware probing is off)",
                             "sudo systemctl stop banquier, then run banquier doctor again")]
    try:
        device = host.open_reader("pn532", **BACKEND.hal_options(options))
    except BackendUnavailableError as exc:
        return [bus, Finding("reader", "fail", f"the reader cannot load: {exc}",
                             f"{host.pip} install {' '.join(repr(p) for p in BACKEND.packages)}")]
    except Exception as exc:
        return [bus, Finding("reader", "fail", str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
                             "check the board's interface switches and wiring; stop the service while testing")]
    try:
        firmware = getattr(device, "firmware", None)
    finally:
        device.close()
    version = f" (firmware {firmware[1]}.{firmware[2]})" if firmware else ""
    return [bus, Finding("reader", "ok", f"a PN532{version} answers on {shown}")]


def _check(options: Options) -> tuple[str, str] | None:
    if options.get("interface") == "uart" and not options.get("port"):
        return ("hardware.reader.port", "a PN532 on the UART needs its port, e.g. port = \"/dev/serial0\"")
    return None


BACKEND = ReaderBackend(
    name="pn532",
    target="hal.pn532_reader:Pn532Reader",
    summary="a PN532 board (13.56 MHz) on I²C, SPI or the UART",
    options=(
        Option("interface", "str", "i2c", choices=INTERFACES, doc="as the board's switches are set"),
        Option("port", "path", None, optional=True, doc="the UART's device (interface = \"uart\")"),
        Option("baudrate", "int", 115200, lo=1200, hi=921_600, hint="baud", doc="the UART's speed"),
        Option("cs_pin", "pin", 24, doc="header pin wired to SS (interface = \"spi\")"),
    ),
    check=_check,
    extra="pn532",
    packages=("adafruit-circuitpython-pn532>=2.4", "adafruit-blinka>=8"),
    groups_of=lambda options: (({"i2c": "i2c", "spi": "spi", "uart": "dialout"}[options.get("interface", "i2c")],
                                 "the PN532's bus"), ("gpio", "the PN532's pins")),
    gpio=True,
    device_classes=("char-i2c rw", "char-spi rw", "char-tty* rw"),
    devices=lambda options: [_device(options)],
    pins=_pins,
    probe=probe,
    cards="13.56 MHz ISO 14443A: MIFARE Classic (4-byte UID), NTAG and Ultralight stickers (7 bytes)",
    raspi_config=("do_i2c",),
)
