"""An emulated MFRC522 chip and ISO/IEC 14443-3 type A cards in its field.

The chip is reached through SPI byte transfers exactly as the ``mfrc522`` package and ``hal`` do it
(address byte ``(reg << 1) & 0x7E``, bit 7 set for a read). Emulated:

* registers with their reset values, the 64-byte FIFO (FlushBuffer, level, overflow), ComIrqReg /
  DivIrqReg with their Set1/Set2 write semantics, ErrorReg, ControlReg RxLastBits, BitFramingReg
  StartSend and TxLastBits, TxControlReg antenna bits, VersionReg;
* commands Idle, Transceive, CalcCRC (CRC_A, preset from ModeReg), SoftReset; hard reset through the
  reset pin (a rising edge);
* the timer: prescaler and reload from TModeReg/TPrescalerReg/TReloadReg, started at the end of each
  transmission when TAuto is set, stopped by a card's answer; TimerIRq when it runs out;
* air time: a frame takes 9.44 us per bit, a card answers 91 us (its frame delay) after the end of the
  request, and RxIRq is raised when its answer has arrived;
* several cards answering differently at once: a collision (CollErr);
* faults: ``hang()`` (commands ignored, no interrupt, until a reset), ``power_glitch()`` (the chip
  resets itself and loses its configuration), ``disconnect()`` (MISO reads 0x00), ``missed`` and
  ``corrupt`` answers on a card.

Time: by default the chip has its own virtual clock that advances by the duration of each SPI transfer
(bits / clock rate + ``transfer_overhead_s``) and by ``advance(seconds)``; give ``clock=time.perf_counter``
to run in real time (the benchmark does).
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable

# Registers.
COMMAND, COMM_IEN, DIV_IEN, COMM_IRQ, DIV_IRQ, ERROR, STATUS1, STATUS2 = range(1, 9)
FIFO_DATA, FIFO_LEVEL, WATER_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E
MODE, TX_MODE, RX_MODE, TX_CONTROL, TX_ASK = 0x11, 0x12, 0x13, 0x14, 0x15
CRC_RESULT_H, CRC_RESULT_L = 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, T_COUNTER_H, T_COUNTER_L = range(0x2A, 0x30)
VERSION = 0x37
# Commands.
IDLE, MEM, GEN_RANDOM_ID, CALC_CRC, TRANSMIT, NO_CMD_CHANGE, RECEIVE = 0, 1, 2, 3, 4, 7, 8
TRANSCEIVE, MF_AUTHENT, SOFT_RESET = 0x0C, 0x0E, 0x0F
# IRQ bits.
TIMER_IRQ, ERR_IRQ, LO_ALERT_IRQ, HI_ALERT_IRQ, IDLE_IRQ, RX_IRQ, TX_IRQ = 1, 2, 4, 8, 0x10, 0x20, 0x40
CRC_IRQ = 0x04
# ErrorReg bits.
PROTOCOL_ERR, PARITY_ERR, CRC_ERR, COLL_ERR, BUFFER_OVFL = 1, 2, 4, 8, 0x10

RESET_VALUES = {
    COMMAND: 0x20, COMM_IEN: 0x80, COMM_IRQ: 0x14, STATUS1: 0x21, WATER_LEVEL: 0x08, CONTROL: 0x10,
    COLL: 0xA0, MODE: 0x3F, TX_CONTROL: 0x80, 0x16: 0x10, 0x17: 0x84, 0x18: 0x84, 0x19: 0x4D,
    0x1C: 0x62, 0x1F: 0xEB, CRC_RESULT_H: 0xFF, CRC_RESULT_L: 0xFF, 0x24: 0x26, 0x26: 0x48,
    0x27: 0x88, 0x28: 0x20, 0x29: 0x20,
}

BIT_S = 1 / 106e3 * 1.0  # 9.43 us per bit on the air at 106 kbit/s
FRAME_DELAY_S = 1236 / 13.56e6  # 91 us from the end of a request to a card's answer

REQA, WUPA, HALT = 0x26, 0x52, 0x50
SELECT_CODES = (0x93, 0x95, 0x97)
CASCADE_TAG = 0x88
FORBIDDEN = {0xA0: "WRITE", 0xA2: "ULTRALIGHT WRITE", 0x60: "AUTH A", 0x61: "AUTH B",
             0xC0: "DECREMENT", 0xC1: "INCREMENT", 0xC2: "RESTORE", 0xB0: "TRANSFER"}


def crc_a(data, preset: int = 0x6363) -> list[int]:
    crc = preset
    for b in data:
        b = (b ^ (crc & 0xFF)) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return [crc & 0xFF, crc >> 8]


def _bcc(data) -> int:
    value = 0
    for b in data:
        value ^= b
    return value


class FakeCard:
    """An ISO 14443A card (PICC) with a 4, 7 or 10 byte UID.

    States: IDLE -> (REQA/WUPA) READY -> (SELECT, each cascade level) ACTIVE -> (HALT) HALT; a HALTed
    card answers WUPA only; any unexpected command sends it back to IDLE (or HALT); leaving the field
    or losing the RF field resets it. Test controls: ``missed`` (ignore the next N requests),
    ``corrupt`` (garble the next N answers: parity error), ``bad_crc`` (wrong CRC on the next N SAKs).
    Every frame received is in ``frames``; any write/auth command is in ``forbidden``.
    """

    def __init__(self, uid, *, atqa: list[int] | None = None, sak: int | None = None) -> None:
        self.uid = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        if len(self.uid) not in (4, 7, 10):
            raise ValueError("an ISO 14443A UID has 4, 7 or 10 bytes")
        if self.uid[0] == CASCADE_TAG and len(self.uid) == 4:
            raise ValueError("a single-size UID cannot start with the cascade tag 0x88")
        size_bits = {4: 0x00, 7: 0x40, 10: 0x80}[len(self.uid)]
        self.atqa = atqa or [0x04 | size_bits, 0x00]
        self.sak = {4: 0x08, 7: 0x00, 10: 0x20}[len(self.uid)] if sak is None else sak
        self.state = "IDLE"
        self.halted = False
        self.level = 0
        self.missed = 0
        self.corrupt = 0
        self.bad_crc = 0
        self.frames: list[bytes] = []
        self.forbidden: list[str] = []

    def __repr__(self) -> str:
        return f"<FakeCard {self.uid.hex().upper()} {self.state}>"

    def levels(self) -> list[list[int]]:
        """The 4-byte UID part sent at each cascade level (with the cascade tag where needed)."""
        u = list(self.uid)
        if len(u) == 4:
            return [u]
        if len(u) == 7:
            return [[CASCADE_TAG] + u[:3], u[3:7]]
        return [[CASCADE_TAG] + u[:3], [CASCADE_TAG] + u[3:6], u[6:10]]

    def power_off(self) -> None:
        self.state, self.halted, self.level = "IDLE", False, 0

    def _reset(self) -> None:
        self.state = "HALT" if self.halted else "IDLE"
        self.level = 0

    def respond(self, frame: bytes, last_bits: int) -> tuple[list[int], int] | None:
        """Answer a frame; return ``(bytes, valid bits in last byte or 0)`` or None (silence)."""
        self.frames.append(bytes(frame))
        if frame and frame[0] in FORBIDDEN and last_bits == 0:
            self.forbidden.append(FORBIDDEN[frame[0]])
        if last_bits == 7 and len(frame) == 1:  # short frame: REQA or WUPA
            if self.missed:
                self.missed -= 1
                return None
            if (frame[0] == WUPA and self.state in ("IDLE", "HALT")) or \
               (frame[0] == REQA and self.state == "IDLE"):
                self.state, self.level = "READY", 0
                return list(self.atqa), 0
            self._reset()
            return None
        if last_bits:
            self._reset()
            return None
        if self.state == "READY" and len(frame) >= 2 and frame[0] == SELECT_CODES[self.level]:
            part = self.levels()[self.level]
            nvb = frame[1]
            if nvb == 0x20 and len(frame) == 2:
                return part + [_bcc(part)], 0
            if nvb == 0x70 and len(frame) == 9:
                if list(frame[7:9]) != crc_a(frame[:7]) or list(frame[2:7]) != part + [_bcc(part)]:
                    self._reset()
                    return None
                last = self.level == len(self.levels()) - 1
                sak = self.sak if last else 0x04
                if last:
                    self.state = "ACTIVE"
                else:
                    self.level += 1
                answer = [sak] + crc_a([sak])
                if self.bad_crc:
                    self.bad_crc -= 1
                    answer[2] ^= 0xFF
                return answer, 0
            return None  # partial anticollision frames: not emulated, no answer
        if self.state == "ACTIVE" and len(frame) == 4 and frame[0] == HALT and frame[1] == 0:
            if list(frame[2:4]) == crc_a(frame[:2]):
                self.state, self.halted = "HALT", True
            return None
        self._reset()
        return None


class FakeMFRC522:
    """The chip. Attach cards with ``enter(card)`` / ``leave(card)``; read counters after use.

    Args:
        version: what VersionReg returns (0x92 = MFRC522 v2.0).
        clock: a seconds clock to run in real time; None = a virtual clock advanced by transfers.
        transfer_overhead_s: virtual time each SPI transfer costs beyond its bits (the OS and Python
            overhead of one ``xfer2``), default 20 us.
    """

    def __init__(self, *, version: int = 0x92, clock: Callable[[], float] | None = None,
                 transfer_overhead_s: float = 20e-6) -> None:
        self.version = version
        self._external_clock = clock
        self._virtual_now = 0.0
        self.transfer_overhead_s = transfer_overhead_s
        self.speed_hz = 500_000
        self.cards: list[FakeCard] = []
        self.transfers = 0  # xfer2 calls
        self.reads: dict[int, int] = {}  # register -> read count
        self.commands: list[int] = []
        self.hard_resets = 0
        self.soft_resets = 0
        self.hung = False
        self.disconnected = False
        self.powered_down = False
        self.corrupt_next = 0  # answers garbled by the chip's receiver (parity error)
        self.arrivals: list[tuple[float, FakeCard]] = []  # cards entering later (see enter_at)
        self._seq = itertools.count()
        self._reset_registers()

    # -- time --------------------------------------------------------------------------------------
    def now(self) -> float:
        return self._external_clock() if self._external_clock else self._virtual_now

    def advance(self, seconds: float) -> None:
        """Let virtual time pass (what ``time.sleep`` does for the real chip)."""
        if self._external_clock is None:
            self._virtual_now += max(0.0, seconds)

    # -- faults and the field ---------------------------------------------------------------------
    def enter(self, card: FakeCard | str) -> FakeCard:
        """Bring a card (or a UID) into the field; returns the card."""
        card = card if isinstance(card, FakeCard) else FakeCard(card)
        card.power_off()
        if card not in self.cards:
            self.cards.append(card)
        return card

    def enter_at(self, card: FakeCard | str, at: float) -> FakeCard:
        """Bring a card into the field when the chip's clock reaches ``at`` (seconds)."""
        card = card if isinstance(card, FakeCard) else FakeCard(card)
        self.arrivals.append((at, card))
        return card

    def leave(self, card: FakeCard | str | None = None) -> None:
        """Take a card (by object or UID hex) or every card out of the field."""
        for c in list(self.cards):
            if card is None or c is card or (isinstance(card, str) and c.uid.hex().upper() == card.upper()):
                self.cards.remove(c)
                c.power_off()

    def hang(self) -> None:
        """Stop executing commands and raising interrupts until a soft or hard reset."""
        self.hung = True

    def power_glitch(self) -> None:
        """The chip resets itself: registers back to reset values (timer off, antenna off)."""
        self._reset_registers()

    def disconnect(self) -> None:
        """MISO stuck low: every read returns 0x00 and writes are lost."""
        self.disconnected = True

    def reconnect(self) -> None:
        self.disconnected = False

    def hard_reset(self) -> None:
        self.hard_resets += 1
        self.hung = False
        self._reset_registers()

    def reset_pin_changed(self, old: int, new: int) -> None:
        """Wire this to the fake GPIO reset pin: low powers down, a rising edge resets."""
        self.powered_down = new == 0
        if old == 0 and new == 1:
            self.hard_reset()

    # -- registers ---------------------------------------------------------------------------------
    def _reset_registers(self) -> None:
        self.regs = bytearray(64)
        for reg, value in RESET_VALUES.items():
            self.regs[reg] = value
        self.fifo: deque[int] = deque()
        self.command = IDLE
        self._rx_at: float | None = None
        self._rx_data: tuple[list[int], int, int] | None = None
        self._timer_at: float | None = None
        for card in self.cards:
            card.power_off()  # RF field off during reset

    def _antenna_on(self) -> bool:
        return self.regs[TX_CONTROL] & 0x03 == 0x03

    def _timer_period(self) -> float:
        prescaler = ((self.regs[T_MODE] & 0x0F) << 8) | self.regs[T_PRESCALER]
        reload = (self.regs[T_RELOAD_H] << 8) | self.regs[T_RELOAD_L]
        return (reload + 1) * (2 * prescaler + 1) / 13.56e6

    def _update(self) -> None:
        """Apply what happened on the air up to now."""
        now = self.now()
        if self.arrivals:
            for at, card in [a for a in self.arrivals if a[0] <= now]:
                self.arrivals.remove((at, card))
                self.enter(card)
        if self._rx_at is not None and now >= self._rx_at:
            data, last_bits, errors = self._rx_data
            self._rx_at = self._rx_data = None
            for b in data:
                if len(self.fifo) < 64:
                    self.fifo.append(b)
                else:
                    errors |= BUFFER_OVFL
            self.regs[CONTROL] = (self.regs[CONTROL] & ~0x07) | last_bits
            self.regs[ERROR] = errors
            self.regs[COMM_IRQ] |= RX_IRQ | (ERR_IRQ if errors else 0)
        if self._timer_at is not None and now >= self._timer_at:
            self._timer_at = None
            self.regs[COMM_IRQ] |= TIMER_IRQ

    def read(self, reg: int) -> int:
        self.reads[reg] = self.reads.get(reg, 0) + 1
        self._update()
        if reg == FIFO_DATA:
            return self.fifo.popleft() if self.fifo else 0
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        if reg == VERSION:
            return self.version
        if reg == COMMAND:
            return (self.regs[COMMAND] & 0xF0) | self.command
        if reg == COMM_IRQ:
            level = len(self.fifo)
            lo = LO_ALERT_IRQ if level <= self.regs[WATER_LEVEL] else 0
            return (self.regs[COMM_IRQ] & ~LO_ALERT_IRQ & 0x7F) | lo
        return self.regs[reg]

    def write(self, reg: int, value: int) -> None:
        value &= 0xFF
        self._update()
        if reg == COMMAND:
            self.regs[COMMAND] = value & 0xF0 | (value & 0x0F)
            self._command(value & 0x0F)
        elif reg in (COMM_IRQ, DIV_IRQ):
            if value & 0x80:
                self.regs[reg] |= value & 0x7F
            else:
                self.regs[reg] &= ~value & 0xFF
        elif reg == FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo.append(value)
            else:
                self.regs[ERROR] |= BUFFER_OVFL
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
                self.regs[ERROR] &= ~BUFFER_OVFL & 0xFF
        elif reg in (ERROR, VERSION, STATUS1):
            pass  # read-only
        elif reg == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value
            if value & 0x80 and self.command == TRANSCEIVE:
                self._transmit()
        elif reg == TX_CONTROL:
            self.regs[TX_CONTROL] = value
            if not self._antenna_on():
                for card in self.cards:
                    card.power_off()
        else:
            self.regs[reg] = value

    def _command(self, command: int) -> None:
        self.commands.append(command)
        if command == SOFT_RESET:
            self.soft_resets += 1
            self.hung = False
            self._reset_registers()
            return
        if self.hung:
            return
        self.command = command
        if command == IDLE:
            self._rx_at = self._rx_data = None
            self._timer_at = None
        elif command == CALC_CRC:
            preset = {0: 0x0000, 1: 0x6363, 2: 0xA671, 3: 0xFFFF}[self.regs[MODE] & 0x03]
            low, high = crc_a(list(self.fifo), preset)
            self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_H] = low, high
            self.regs[DIV_IRQ] |= CRC_IRQ

    def _transmit(self) -> None:
        if self.hung or not self._antenna_on():
            return
        frame = bytes(self.fifo)
        self.fifo.clear()
        last_bits = self.regs[BIT_FRAMING] & 0x07
        bits = len(frame) * 8 - ((8 - last_bits) if last_bits else 0)
        tx_end = self.now() + bits * BIT_S
        self.regs[ERROR] = 0
        answers = []
        for card in list(self.cards):
            answer = card.respond(frame, last_bits)
            if answer is not None:
                if card.corrupt:
                    card.corrupt -= 1
                    answers.append((answer, PARITY_ERR))
                else:
                    answers.append((answer, 0))
        timer_on = bool(self.regs[T_MODE] & 0x80)
        if not answers:
            self._timer_at = tx_end + self._timer_period() if timer_on else None
            return
        (data, rx_last), errors = answers[0]
        if any(a != answers[0][0] for a, _ in answers[1:]):
            errors |= COLL_ERR
            data = [b ^ 0x5A for b in data]
        errors |= max(e for _, e in answers)
        if self.corrupt_next:
            self.corrupt_next -= 1
            errors |= PARITY_ERR
        if errors & PARITY_ERR:
            data = [b ^ 0x01 for b in data]
        rx_bits = len(data) * 9
        self._timer_at = None  # stopped by the first bits of the answer
        self._rx_at = tx_end + FRAME_DELAY_S + rx_bits * BIT_S
        self._rx_data = (list(data), rx_last, errors)

    # -- SPI -------------------------------------------------------------------------------------
    def transfer(self, data: list[int]) -> list[int]:
        """One SPI transaction (``xfer2``): address byte(s) in, register values out."""
        self.transfers += 1
        if self._external_clock is None:
            self._virtual_now += len(data) * 8 / self.speed_hz + self.transfer_overhead_s
        out = [0] * len(data)
        if self.disconnected or self.powered_down or not data:
            return out
        address = data[0]
        reg = (address >> 1) & 0x3F
        if address & 0x80:  # read: each byte clocks out the register named by the previous one
            for i in range(1, len(data)):
                out[i] = self.read(reg)
                reg = (data[i] >> 1) & 0x3F
        else:
            for value in data[1:]:
                self.write(reg, value)
        return out
