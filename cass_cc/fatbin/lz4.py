"""LZ4 block decompression: what nvcc's fatbinary writes for `--compress-mode=speed` (entry flag
0x2000), and what CUDA 11/12 wrote by default."""

from __future__ import annotations

from ..errors import CassError


def lz4_block_decompress(src: bytes, size: int) -> bytes:
    """Decompress one LZ4 block whose decompressed size is `size` bytes."""
    out = bytearray()
    i, n = 0, len(src)
    try:
        while i < n:
            token = src[i]
            i += 1
            length = token >> 4
            if length == 15:
                while True:
                    b = src[i]
                    i += 1
                    length += b
                    if b != 255:
                        break
            out += src[i:i + length]
            i += length
            if len(out) > size:
                raise CassError("corrupt LZ4 data: output longer than the header says")
            if i >= n:  # the last sequence has literals only
                break
            offset = src[i] | (src[i + 1] << 8)
            i += 2
            if offset == 0 or offset > len(out):
                raise CassError(f"corrupt LZ4 data: match offset {offset} outside the output")
            match = token & 15
            if match == 15:
                while True:
                    b = src[i]
                    i += 1
                    match += b
                    if b != 255:
                        break
            match += 4
            if len(out) + match > size:
                raise CassError("corrupt LZ4 data: output longer than the header says")
            start = len(out) - offset
            if offset >= match:
                out += out[start:start + match]
            else:  # overlapping copy repeats the last `offset` bytes
                for k in range(match):
                    out.append(out[start + k])
    except IndexError:
        raise CassError("corrupt LZ4 data: truncated block") from None
    if len(out) != size:
        raise CassError(f"corrupt LZ4 data: {len(out)} bytes decompressed, header says {size}")
    return bytes(out)
