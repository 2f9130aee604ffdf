"""A PC/SC card reader (ACR122U and kin, on USB) through pyscard and the pcscd service.

Registry name ``"pcsc"``. PC/SC is how a desktop talks to smart-card readers: the ``pcscd`` daemon holds the
USB reader and pyscard asks it. From pyscard we use ``smartcard.System.readers()``, a reader's
``createConnection()``, and the connection's ``connect()``, ``transmit()`` and ``disconnect()``; its
exceptions come from ``smartcard.Exceptions``. Each scan connects to the card on the reader (none:
``NoCardException``, an empty field), sends the PC/SC "Get Data" command for the UID (``FF CA 00 00 00``,
PC/SC part 3), and disconnects; the reply is the UID bytes in the order the card sends them (the canonical
form) and the status ``90 00``.

* **Finding it.** ``reader_name``: a part of the reader's PC/SC name (``"ACR122"``; ``pcsc_scan`` lists them),
  or empty for the first reader.
* **Errors.** A reply with another status (``63 00``: the card did not answer in time) is a garbled read;
  a reader that is gone (no reader of that name, or ``CardConnectionException`` other than "no card") counts
  as a failed scan: ``failures_before_lost`` of them report ``ReaderLost``, then the reader is looked for again
  every ``recover_interval_s`` (``ReaderBack`` once it is there). ``pcscd`` not running is said as such.
* **Permissions.** None for the user: ``pcscd`` opens the USB device (``sudo apt install pcscd`` and, for an
  ACR122U, blacklist the kernel's ``pn533_usb`` NFC driver, which would take the reader first).

pyscard is the optional extra ``banquier[pcsc]``, imported only when this reader is made.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any, Unpack

from hal.backends import Finding, Option, Options, ProbeHost, ReaderBackend
from hal.errors import BackendUnavailableError, HalDeviceError, InvalidUidError
from hal.interfaces import Clock
from hal.presence import PollingReader, PollingTiming, ScanResult
from hal.uid import uid_from_bytes

__all__ = ["PcscReader", "BACKEND", "GET_UID"]

log = logging.getLogger(__name__)

#: PC/SC part 3 "Get Data" for the card's UID: CLA FF, INS CA, P1 00, P2 00, Le 00 (all its bytes).
GET_UID = [0xFF, 0xCA, 0x00, 0x00, 0x00]


class PcscReader(PollingReader):
    """A PC/SC reader.

    Args:
        reader_name: a part of the reader's PC/SC name, case-insensitive ("" or None: the first reader).
        clock, poll_interval_s, removal_debounce_s, failures_before_lost, recover_interval_s:
            as ``hal.presence.PollingReader``.

    Raises:
        BackendUnavailableError: pyscard is not installed.
        HalDeviceError: pcscd is not running, or no reader (of that name) is plugged in.
    """

    backend = "pcsc"

    def __init__(self, *, reader_name: str | None = None, clock: Clock | None = None,
                 **timing: Unpack[PollingTiming]) -> None:
        super().__init__(clock=clock, **timing)
        self._wanted = (reader_name or "").strip()
        try:
            self._system: Any = importlib.import_module("smartcard.System")
            self._errors: Any = importlib.import_module("smartcard.Exceptions")
        except ImportError as exc:
            raise BackendUnavailableError("pyscard is not installed: pip install 'banquier[pcsc]' (and sudo apt "
                                          "install pcscd)") from exc
        self._reader: Any = None
        self._reader = self._find()

    @property
    def reader_name(self) -> str | None:
        """The PC/SC name of the reader in use, or None while it is gone."""
        return str(self._reader) if self._reader is not None else None

    def _find(self) -> Any:
        try:
            present = list(self._system.readers())
        except Exception as exc:  # pyscard's EstablishContextException and kin: no pcscd to talk to
            raise HalDeviceError(f"cannot reach pcscd ({exc}): sudo apt install pcscd; sudo systemctl enable "
                                 f"--now pcscd.socket") from exc
        for reader in present:
            if self._wanted.lower() in str(reader).lower():
                log.info("card reader: PC/SC %s", reader)
                return reader
        names = ", ".join(map(str, present)) or "none"
        what = f"named like {self._wanted!r}" if self._wanted else "at all"
        raise HalDeviceError(f"no PC/SC reader {what} (readers present: {names}): plug it in; for an ACR122U, "
                             f"keep the kernel's pn533_usb driver off it (see hal/README.md)")

    # -- PollingReader ---------------------------------------------------------------------------------
    def _scan(self, now: float) -> ScanResult:
        if self._reader is None:
            return ScanResult(failure="the PC/SC reader is gone")
        errors = self._errors
        try:
            connection = self._reader.createConnection()
            connection.connect()
        except errors.NoCardException:
            return ScanResult()
        except errors.CardConnectionException as exc:
            if "no card" in str(exc).lower() or "removed" in str(exc).lower():
                return ScanResult()
            return self._lost(exc)
        except Exception as exc:  # the reader unplugged: pyscard raises its own kinds, or pcscd's errors
            return self._lost(exc)
        try:
            data, sw1, sw2 = connection.transmit(GET_UID)
        except errors.CardConnectionException:
            return ScanResult(errors=1)  # the card left during the exchange: a garbled read
        finally:
            try:
                connection.disconnect()
            except Exception:
                pass
        if (sw1, sw2) != (0x90, 0x00):
            return ScanResult(errors=1)
        try:
            return ScanResult(uids=(uid_from_bytes(data),))
        except InvalidUidError:
            return ScanResult(errors=1)

    def _lost(self, exc: BaseException) -> ScanResult:
        self._reader = None
        return ScanResult(failure=f"the PC/SC reader failed: {exc}")

    def _recover(self, now: float) -> str | None:
        try:
            self._reader = self._find()
        except HalDeviceError as exc:
            return str(exc)
        return None

    def _close(self) -> None:
        self._reader = None


# -- the backend's declaration (hal.backends) -------------------------------------------------------------
def probe(host: ProbeHost, options: Options) -> list[Finding]:
    """The doctor's line for a PC/SC reader: pyscard installed, pcscd's socket there, the reader plugged in."""
    if not host.installed("pyscard"):
        return [Finding("pcsc", "fail", "pyscard is not installed (the PC/SC reader needs it)",
                        f"{host.pip} install 'pyscard>=2.0' (or run deploy/install.sh again)")]
    if not host.path("/run/pcscd/pcscd.comm").exists():
        return [Finding("pcsc", "fail", "pcscd is not running (no /run/pcscd/pcscd.comm)",
                        "sudo apt install pcscd; sudo systemctl enable --now pcscd.socket")]
    if not host.probe_hardware:
        return [Finding("pcsc", "ok", "pcscd is running (the reader was not tried: hardware probing is off)")]
    try:
        device = host.open_reader("pcsc", **BACKEND.hal_options(options))
    except Exception as exc:
        return [Finding("pcsc", "fail", str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
                        "plug the reader in; pcsc_scan (package pcsc-tools) lists what pcscd sees")]
    try:
        name = getattr(device, "reader_name", None)
    finally:
        device.close()
    return [Finding("pcsc", "ok", f"pcscd is running and sees {name}")]


BACKEND = ReaderBackend(
    name="pcsc",
    target="hal.pcsc_reader:PcscReader",
    summary="a PC/SC reader on USB (ACR122U and kin), through pcscd",
    options=(
        Option("reader_name", "str", None, optional=True, doc="a part of the reader's PC/SC name (empty: the first)"),
    ),
    extra="pcsc",
    packages=("pyscard>=2.0",),
    probe=probe,
    cards="13.56 MHz ISO 14443A: MIFARE Classic, NTAG and Ultralight; the ACR122U also FeliCa",
    pc=True,
    system_packages=("pcscd", "python3-pyscard"),
)
