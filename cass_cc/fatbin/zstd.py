"""Zstandard decompression (RFC 8878), in Python: nvcc 13's fatbinary compresses PTX (and, with
`--compress-mode=size` or `-Xfatbin -compress-all`, cubins) as zstd frames (entry flag 0x8000).

No dictionaries (fatbinary uses none). Written for correctness over speed; fatbin entries are small.
"""

from __future__ import annotations

from .entropy import BackwardBits, FseTable, Huffman, ZstdError, corrupt, read_fse_description, read_huffman

_MAGIC = 0xFD2FB528

# (baseline, extra bits) of literal-length and match-length codes (RFC 8878 3.1.1.3.2.1.1).
_LL = [(i, 0) for i in range(16)] + [
    (16, 1), (18, 1), (20, 1), (22, 1), (24, 2), (28, 2), (32, 3), (40, 3), (48, 4), (64, 6),
    (128, 7), (256, 8), (512, 9), (1024, 10), (2048, 11), (4096, 12), (8192, 13), (16384, 14),
    (32768, 15), (65536, 16)]
_ML = [(i + 3, 0) for i in range(32)] + [
    (35, 1), (37, 1), (39, 1), (41, 1), (43, 2), (47, 2), (51, 3), (59, 3), (67, 4), (83, 4),
    (99, 5), (131, 7), (259, 8), (515, 9), (1027, 10), (2051, 11), (4099, 12), (8195, 13),
    (16387, 14), (32771, 15), (65539, 16)]

# Predefined distributions (RFC 8878 3.1.1.3.2.2).
_LL_DEFAULT = ([4, 3] + [2] * 11 + [1, 1, 1] + [2] * 9 + [3, 2] + [1] * 5 + [-1] * 4, 6)
_ML_DEFAULT = ([1, 4, 3] + [2] * 6 + [1] * 37 + [-1] * 7, 6)
_OF_DEFAULT = ([1] * 6 + [2] * 3 + [1] * 15 + [-1] * 5, 5)


class _Frame:
    def __init__(self):
        self.huffman: Huffman | None = None
        self.tables: list[FseTable | None] = [None, None, None]  # LL, OF, ML
        self.reps = [1, 4, 8]
        self.out = bytearray()

    def literals(self, data: bytes, pos: int) -> tuple[bytes, int]:
        b0 = data[pos]
        kind, fmt = b0 & 3, (b0 >> 2) & 3
        if kind in (0, 1):
            if fmt in (0, 2):
                size, pos = b0 >> 3, pos + 1
            elif fmt == 1:
                size, pos = (b0 >> 4) + (data[pos + 1] << 4), pos + 2
            else:
                size, pos = (b0 >> 4) + (data[pos + 1] << 4) + (data[pos + 2] << 12), pos + 3
            if kind == 0:
                if pos + size > len(data):
                    corrupt("truncated raw literals")
                return data[pos:pos + size], pos + size
            return bytes([data[pos]]) * size, pos + 1
        header_len, field = {0: (3, 10), 1: (3, 10), 2: (4, 14), 3: (5, 18)}[fmt]
        header = int.from_bytes(data[pos:pos + header_len], "little") >> 4
        regenerated = header & ((1 << field) - 1)
        compressed = (header >> field) & ((1 << field) - 1)
        pos += header_len
        end = pos + compressed
        if end > len(data):
            corrupt("truncated compressed literals")
        if kind == 2:
            self.huffman, pos = read_huffman(data[:end], pos)
        elif self.huffman is None:
            corrupt("treeless literals without a previous Huffman table")
        out = bytearray()
        if fmt == 0:
            self.huffman.decode_stream(data[pos:end], regenerated, out)
        else:
            s1, s2, s3 = (int.from_bytes(data[pos + 2 * i:pos + 2 * i + 2], "little") for i in range(3))
            starts = [pos + 6, pos + 6 + s1, pos + 6 + s1 + s2, pos + 6 + s1 + s2 + s3, end]
            per = (regenerated + 3) // 4
            for i in range(4):
                n = per if i < 3 else regenerated - 3 * per
                self.huffman.decode_stream(data[starts[i]:starts[i + 1]], n, out)
        if len(out) != regenerated:
            corrupt("literal count mismatch")
        return bytes(out), end

    def sequences(self, data: bytes, pos: int, literals: bytes) -> None:
        b0 = data[pos]
        if b0 == 0:
            self.out += literals
            return
        if b0 < 128:
            count, pos = b0, pos + 1
        elif b0 < 255:
            count, pos = ((b0 - 128) << 8) + data[pos + 1], pos + 2
        else:
            count, pos = data[pos + 1] + (data[pos + 2] << 8) + 0x7F00, pos + 3
        modes = data[pos]
        pos += 1
        for i, (shift, default, max_log, max_sym) in enumerate(
                ((6, _LL_DEFAULT, 9, 35), (4, _OF_DEFAULT, 8, 31), (2, _ML_DEFAULT, 9, 52))):
            mode = (modes >> shift) & 3
            if mode == 0:
                self.tables[i] = FseTable(*default)
            elif mode == 1:
                self.tables[i] = FseTable([0] * data[pos] + [1], 0)
                pos += 1
            elif mode == 2:
                self.tables[i], pos = read_fse_description(data, pos, max_log, max_sym)
            elif self.tables[i] is None:
                corrupt("repeat mode without a previous table")
        ll_t, of_t, ml_t = self.tables
        br = BackwardBits(data[pos:])
        ll = br.read(ll_t.accuracy_log)
        of = br.read(of_t.accuracy_log)
        ml = br.read(ml_t.accuracy_log)
        out, reps, lit = self.out, self.reps, 0
        for n in range(count):
            of_code, ml_code, ll_code = of_t.symbol[of], ml_t.symbol[ml], ll_t.symbol[ll]
            if ll_code > 35 or ml_code > 52 or of_code > 31:
                corrupt("sequence code out of range")
            offset_value = (1 << of_code) + br.read(of_code)
            ml_base, ml_bits = _ML[ml_code]
            match = ml_base + br.read(ml_bits)
            ll_base, ll_bits = _LL[ll_code]
            litlen = ll_base + br.read(ll_bits)
            if offset_value > 3:
                offset = offset_value - 3
                reps[:] = [offset, reps[0], reps[1]]
            else:
                idx = offset_value - 1 + (1 if litlen == 0 else 0)
                if idx == 0:
                    offset = reps[0]
                elif idx == 3:
                    offset = reps[0] - 1
                    reps[:] = [offset, reps[0], reps[1]]
                elif idx == 1:
                    offset = reps[1]
                    reps[:] = [offset, reps[0], reps[2]]
                else:
                    offset = reps[2]
                    reps[:] = [offset, reps[0], reps[1]]
            if n != count - 1:
                ll = ll_t.base[ll] + br.read(ll_t.bits[ll])
                ml = ml_t.base[ml] + br.read(ml_t.bits[ml])
                of = of_t.base[of] + br.read(of_t.bits[of])
            if lit + litlen > len(literals):
                corrupt("sequence reads past the literals")
            out += literals[lit:lit + litlen]
            lit += litlen
            start = len(out) - offset
            if offset <= 0 or start < 0:
                corrupt("match offset outside the output")
            if offset >= match:
                out += out[start:start + match]
            else:
                for k in range(match):
                    out.append(out[start + k])
        if br.pos != 0:
            corrupt("sequence bitstream not fully consumed")
        out += literals[lit:]


def zstd_decompress(src: bytes, max_size: int = 1 << 30) -> bytes:
    """Decompress every zstd frame in `src` (skippable frames skipped; trailing zero padding
    allowed); more than `max_size` bytes of output is an error."""
    result = bytearray()
    pos = 0
    try:
        while pos + 4 <= len(src):
            magic = int.from_bytes(src[pos:pos + 4], "little")
            if magic == 0 and not any(src[pos:]):
                break
            if magic & 0xFFFFFFF0 == 0x184D2A50:
                pos += 8 + int.from_bytes(src[pos + 4:pos + 8], "little")
                continue
            if magic != _MAGIC:
                corrupt(f"bad frame magic 0x{magic:08x}")
            pos = _frame(src, pos + 4, result, max_size)
    except IndexError:
        corrupt("truncated data")
    return bytes(result)


def _frame(src: bytes, pos: int, result: bytearray, max_size: int) -> int:
    desc = src[pos]
    pos += 1
    fcs_flag, single, checksum, dict_flag = desc >> 6, (desc >> 5) & 1, (desc >> 2) & 1, desc & 3
    if desc & 8:
        corrupt("reserved frame header bit set")
    if not single:
        pos += 1  # window descriptor
    dict_size = (0, 1, 2, 4)[dict_flag]
    if dict_size and int.from_bytes(src[pos:pos + dict_size], "little"):
        corrupt("frames with a dictionary are not supported")
    pos += dict_size
    fcs_size = (1 if single else 0, 2, 4, 8)[fcs_flag]
    content_size = int.from_bytes(src[pos:pos + fcs_size], "little") if fcs_size else None
    if fcs_size == 2:
        content_size += 256
    pos += fcs_size
    frame = _Frame()
    while True:
        header = int.from_bytes(src[pos:pos + 3], "little")
        if pos + 3 > len(src):
            corrupt("truncated block header")
        pos += 3
        last, kind, size = header & 1, (header >> 1) & 3, header >> 3
        if kind == 0:
            if pos + size > len(src):
                corrupt("truncated raw block")
            frame.out += src[pos:pos + size]
            pos += size
        elif kind == 1:
            frame.out += bytes([src[pos]]) * size
            pos += 1
        elif kind == 2:
            block = src[pos:pos + size]
            if len(block) != size:
                corrupt("truncated compressed block")
            literals, at = frame.literals(block, 0)
            frame.sequences(block, at, literals)
            pos += size
        else:
            corrupt("reserved block type")
        if len(result) + len(frame.out) > max_size:
            corrupt(f"output larger than the {max_size} bytes expected")
        if last:
            break
    if checksum:
        pos += 4
    if content_size is not None and content_size != len(frame.out):
        corrupt(f"{len(frame.out)} bytes decompressed, frame header says {content_size}")
    result += frame.out
    return pos
