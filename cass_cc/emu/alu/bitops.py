"""Bit counting and bit reversal on uint32/uint64 numpy arrays (shared by the scalar and
the vector integer families)."""
from __future__ import annotations

import numpy as np

_REV8 = np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], dtype=np.uint8)


def popcount(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(x).astype(np.uint32)


def _smear_right(x: np.ndarray) -> np.ndarray:
    for s in (1, 2, 4, 8, 16, 32)[: (x.dtype.itemsize * 8).bit_length() - 1]:
        x = x | (x >> x.dtype.type(s))
    return x


def clz(x: np.ndarray) -> np.ndarray:
    """Leading zeros; -1 for a zero input (the RDNA3 convention), as int32."""
    width = x.dtype.itemsize * 8
    n = width - popcount(_smear_right(x)).astype(np.int32)
    return np.where(x == 0, -1, n).astype(np.int32)


def ctz(x: np.ndarray) -> np.ndarray:
    """Trailing zeros; -1 for a zero input, as int32."""
    low = x & (~x + x.dtype.type(1))
    n = popcount(low - x.dtype.type(1)).astype(np.int32)
    return np.where(x == 0, -1, n).astype(np.int32)


def cls(x: np.ndarray) -> np.ndarray:
    """Position, counted from the MSB, of the first bit that differs from the sign bit;
    -1 if all bits agree. x is the signed integer (int32 or int64)."""
    u = x.view(np.uint32 if x.dtype.itemsize == 4 else np.uint64)
    return clz(np.where(x < 0, ~u, u).astype(u.dtype))


def brev(x: np.ndarray) -> np.ndarray:
    b = np.ascontiguousarray(x).view(np.uint8).reshape(*x.shape, x.dtype.itemsize)
    return _REV8[b[..., ::-1]].copy().view(x.dtype).reshape(x.shape)
