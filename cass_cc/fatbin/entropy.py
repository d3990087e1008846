"""Zstandard's entropy coders (RFC 8878 4): FSE tables and Huffman trees, and the backward
bitstreams both are read from. Used by cass_cc.fatbin.zstd."""

from __future__ import annotations

from ..errors import CassError


class ZstdError(CassError):
    pass


def corrupt(what: str):
    raise ZstdError(f"corrupt zstd data: {what}")


class BackwardBits:
    """A bitstream read from its end: the last byte's highest set bit marks the start."""

    def __init__(self, data: bytes):
        if not data or data[-1] == 0:
            corrupt("bitstream without its end marker")
        self.data = data
        self.pos = len(data) * 8 - 8 + data[-1].bit_length() - 1  # bits left to read

    def peek(self, n: int) -> int:
        start = self.pos - n
        if start >= 0:
            chunk = int.from_bytes(self.data[start >> 3:(self.pos + 7) >> 3], "little")
            return (chunk >> (start & 7)) & ((1 << n) - 1)
        avail = self.pos
        value = int.from_bytes(self.data[:(avail + 7) >> 3], "little") & ((1 << avail) - 1) if avail > 0 else 0
        return value << (-start)  # past the start: zeros

    def read(self, n: int) -> int:
        if n == 0:
            return 0
        value = self.peek(n)
        self.pos -= n
        return value

    def overflowed(self) -> bool:
        return self.pos < 0


class FseTable:
    """An FSE decoding table: per state (symbol, bits to read, baseline of the next state)."""

    def __init__(self, counts: list[int], accuracy_log: int):
        size = 1 << accuracy_log
        symbols = [0] * size
        high = size - 1
        next_state = list(counts)
        for s, c in enumerate(counts):
            if c == -1:
                symbols[high] = s
                high -= 1
                next_state[s] = 1
        step = (size >> 1) + (size >> 3) + 3
        pos = 0
        for s, c in enumerate(counts):
            for _ in range(max(c, 0)):
                symbols[pos] = s
                pos = (pos + step) & (size - 1)
                while pos > high:
                    pos = (pos + step) & (size - 1)
        if pos != 0:
            corrupt("FSE table does not fill its states")
        self.symbol, self.bits, self.base = symbols, [0] * size, [0] * size
        for u in range(size):
            s = symbols[u]
            n = next_state[s]
            next_state[s] += 1
            nb = accuracy_log - (n.bit_length() - 1)
            self.bits[u] = nb
            self.base[u] = (n << nb) - size
        self.accuracy_log = accuracy_log


def read_fse_description(data: bytes, pos: int, max_log: int, max_symbol: int) -> tuple[FseTable, int]:
    """Parse normalized counts at data[pos:]; return the table and the position after them."""
    bitpos = 0

    def bits(n: int) -> int:
        byte = pos + (bitpos >> 3)
        chunk = int.from_bytes(data[byte:byte + 4], "little")
        return (chunk >> (bitpos & 7)) & ((1 << n) - 1)

    accuracy_log = bits(4) + 5
    bitpos += 4
    if accuracy_log > max_log:
        corrupt(f"FSE accuracy log {accuracy_log} above {max_log}")
    remaining = (1 << accuracy_log) + 1
    threshold = 1 << accuracy_log
    nbits = accuracy_log + 1
    counts: list[int] = []
    while remaining > 1:
        if len(counts) > max_symbol:
            corrupt("too many FSE symbols")
        limit = (2 * threshold - 1) - remaining
        low = bits(nbits - 1)
        if low < limit:
            value = low
            bitpos += nbits - 1
        else:
            value = bits(nbits) & (2 * threshold - 1)
            if value >= threshold:
                value -= limit
            bitpos += nbits
        count = value - 1
        remaining -= abs(count)
        counts.append(count)
        if count == 0:
            while True:
                repeat = bits(2)
                bitpos += 2
                counts.extend([0] * repeat)
                if repeat != 3:
                    break
        while remaining < threshold:
            nbits -= 1
            threshold >>= 1
    if remaining != 1:
        corrupt("FSE counts do not add up")
    end = pos + ((bitpos + 7) >> 3)
    if end > len(data):
        corrupt("truncated FSE table")
    return FseTable(counts, accuracy_log), end


class Huffman:
    def __init__(self, weights: list[int]):
        total = sum(1 << (w - 1) for w in weights if w)
        if total == 0:
            corrupt("Huffman weights all zero")
        max_bits = total.bit_length()
        if max_bits > 11:
            corrupt(f"Huffman code length {max_bits} above 11")
        rest = (1 << max_bits) - total
        if rest & (rest - 1):
            corrupt("Huffman weights do not complete a tree")
        weights = weights + [rest.bit_length()]
        self.max_bits = max_bits
        size = 1 << max_bits
        self.symbol = [0] * size
        self.bits = [0] * size
        pos = 0
        for w in range(1, max_bits + 1):
            for s, ws in enumerate(weights):
                if ws == w:
                    span = 1 << (w - 1)
                    nb = max_bits + 1 - w
                    for k in range(pos, pos + span):
                        self.symbol[k] = s
                        self.bits[k] = nb
                    pos += span

    def decode_stream(self, data: bytes, count: int, out: bytearray) -> None:
        br = BackwardBits(data)
        mb, sym, nbits = self.max_bits, self.symbol, self.bits
        for _ in range(count):
            k = br.peek(mb)
            out.append(sym[k])
            br.pos -= nbits[k]
        if br.pos != 0:
            corrupt("Huffman stream not fully consumed")


def read_huffman(data: bytes, pos: int) -> tuple[Huffman, int]:
    header = data[pos]
    pos += 1
    if header >= 128:
        n = header - 127
        raw = data[pos:pos + (n + 1) // 2]
        weights = []
        for b in raw:
            weights += [b >> 4, b & 15]
        return Huffman(weights[:n]), pos + (n + 1) // 2
    end = pos + header
    table, start = read_fse_description(data[:end], pos, 6, 255)
    br = BackwardBits(data[start:end])
    s1 = br.read(table.accuracy_log)
    s2 = br.read(table.accuracy_log)
    weights = []
    while len(weights) < 255:
        weights.append(table.symbol[s1])
        s1 = table.base[s1] + br.read(table.bits[s1])
        if br.overflowed():
            weights.append(table.symbol[s2])
            break
        weights.append(table.symbol[s2])
        s2 = table.base[s2] + br.read(table.bits[s2])
        if br.overflowed():
            weights.append(table.symbol[s1])
            break
    return Huffman(weights), end
