"""Device printf as ROCm's device libraries emit it: `printf` becomes calls of
__ockl_printf_begin/append_args/append_string_n, which send hostcall messages through
__ockl_hostcall_internal. The emulator serves that function at its call (no hostcall buffer
polling): each active lane's message is collected and, at its END packet, formatted on the host
with C printf semantics and written to the sink — lane order within a wave.

Message packets (ockl services): a descriptor (bit 0 BEGIN, bit 1 END, bits 5-7 number of data
words, bits 8+ message id) and up to seven 64-bit data words. A printf message is: a control
word, the format string (NUL-terminated, packed 8 bytes a word), then per argument one word, or
for %s the string packed the same way.
"""

from __future__ import annotations

import re
import struct

import numpy as np

SERVICE_PRINTF = 2
FORMAT_SPEC = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?"
                         r"(?P<length>hh|h|ll|l|j|z|t|L)?(?P<conv>[diouxXfFeEgGaAcsp%])")


class PrintfService:
    """Serves calls of __ockl_hostcall_internal for one launch."""

    def __init__(self, sink):
        self.sink = sink
        self.messages: dict[int, list[int]] = {}
        self.next_id = 1

    def __call__(self, st, w):
        ex = st.exec_mask(w)
        for k, wave in enumerate(w):
            V = st.V[wave]
            # The callee may have been specialised with the service id folded away; the id
            # (2) in v2 means it was kept and the descriptor starts at v3.
            first = 3 if int(V[2][np.argmax(ex[k])]) == SERVICE_PRINTF else 2
            words = [(V[first + 2 * i].astype(np.uint64) | (V[first + 2 * i + 1].astype(np.uint64) << np.uint64(32)))
                     for i in range(8)]
            ret_x = np.zeros(st.lanes, np.uint64)
            for lane in np.nonzero(ex[k])[0]:
                ret_x[lane] = self._packet([int(x[lane]) for x in words])
            V[0] = np.where(ex[k], (ret_x & np.uint64(0xFFFFFFFF)).astype(np.uint32), V[0])
            V[1] = np.where(ex[k], (ret_x >> np.uint64(32)).astype(np.uint32), V[1])
            V[2] = np.where(ex[k], np.uint32(0), V[2])
            V[3] = np.where(ex[k], np.uint32(0), V[3])

    def _packet(self, words: list[int]) -> int:
        desc, data = words[0], words[1:]
        begin, end, count = desc & 1, desc & 2, (desc >> 5) & 7
        msg = desc >> 8
        if begin:
            msg, self.next_id = self.next_id, self.next_id + 1
            self.messages[msg] = []
        payload = self.messages.setdefault(msg, [])
        payload.extend(data[:count])
        if not end:
            return msg << 8
        del self.messages[msg]
        text = format_message(payload)
        self.sink(text)
        return len(text.encode())


def _string(words: list[int], i: int) -> tuple[str, int]:
    """A NUL-terminated string packed from words[i]; (text, index after it)."""
    out = bytearray()
    while i < len(words):
        chunk = struct.pack("<Q", words[i] & 0xFFFFFFFFFFFFFFFF)
        i += 1
        if b"\0" in chunk:
            out += chunk[:chunk.index(b"\0")]
            break
        out += chunk
    return out.decode("utf-8", "replace"), i


def format_message(payload: list[int]) -> str:
    """C printf of the format string and arguments in a message (after its control word)."""
    fmt, i = _string(payload, 1)
    out = []
    pos = 0
    for m in FORMAT_SPEC.finditer(fmt):
        out.append(fmt[pos:m.start()])
        pos = m.end()
        conv = m.group("conv")
        if conv == "%":
            out.append("%")
            continue
        width, prec = m.group("width"), m.group("prec")
        if width == "*":
            width, i = str(_signed(_arg(payload, i), 32)), i + 1
        if prec == "*":
            prec, i = str(_signed(_arg(payload, i), 32)), i + 1
        spec = "%" + m.group("flags") + (width or "") + ("." + prec if prec is not None else "")
        if conv == "s":
            text, i = _string(payload, i)
            out.append((spec + "s") % text)
            continue
        value, i = _arg(payload, i), i + 1
        length = m.group("length") or ""
        bits = 64 if length in ("l", "ll", "j", "z", "t") else 16 if length == "h" else 8 if length == "hh" else 32
        if conv in "di":
            out.append((spec + "d") % _signed(value, bits))
        elif conv in "ouxX":
            masked = value & ((1 << bits) - 1)
            if conv == "o" and "#" in spec and masked:        # C writes 017 where Python writes 0o17
                out.append((spec.replace("#", "") + "s") % ("0%o" % masked))
            else:
                out.append((spec + conv) % masked)
        elif conv == "c":
            out.append((spec + "c") % chr(value & 0xFF))
        elif conv == "p":
            out.append((spec + "s") % (hex(value) if value else "(nil)"))
        elif conv in "aA":
            text = re.sub(r"\.?0*p", "p", float.hex(struct.unpack("<d", struct.pack("<Q", value))[0]))
            out.append((spec + "s") % (text.upper() if conv == "A" else text))
        else:
            out.append((spec + conv) % struct.unpack("<d", struct.pack("<Q", value))[0])
    out.append(fmt[pos:])
    return "".join(out)


def _arg(payload, i):
    return payload[i] if i < len(payload) else 0


def _signed(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value
