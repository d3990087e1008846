"""CUDA's texture rules computed on the host for two kernels of sampler_corners.cu, from the same
inputs: linear2d (linear filtering of a 5x4 float texture, unnormalized coordinates, clamp and
border 0.75) and modes1d (point sampling of a 6-texel float texture with normalized coordinates
under wrap and mirror, and element reads of an int4 texture under border mode).

The rules (CUDA C++ Programming Guide, "Texture Fetching", and the H200's measured ones, see
passes/lift/texture.py): x - 0.5 split into floor and fraction, the fraction as a 9-bit weight
(1/256 steps, half up); a corner's weight the product of its axes' weights rounded to 1/256,
a tie rounding up where the corner has an even number of high sides; the weighted texels summed
exactly, rounded once; wrap and mirror fold normalized coordinates only; an element read of an
integer texture outside it returns the border colour's float bits."""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import numpy as np

f32 = np.float32


def bits(value: float) -> int:
    return struct.unpack("<I", struct.pack("<f", float(value)))[0]


def _line(name: str, i: int, words: list[int]) -> str:
    words = (words + [0, 0, 0, 0])[:4]
    return f"{name} {i}: " + " ".join(f"{w & 0xFFFFFFFF:08x}" for w in words)


def _corner_weight(factors: list[int], high_sides: int) -> Fraction:
    product = math.prod(factors)
    shift = 8 * (len(factors) - 1)
    units, rest, half = product >> shift, product & ((1 << shift) - 1), 1 << (shift - 1)
    if rest > half or (rest == half and high_sides % 2 == 0):
        units += 1
    return Fraction(units, 256)


def _linear_2d(texel, width: int, height: int, x: np.float32, y: np.float32) -> float:
    axes = []
    for u, n in ((x, width), (y, height)):
        shifted = f32(u - f32(0.5))
        low = math.floor(shifted)
        alpha = math.floor(f32(f32(shifted - f32(low)) * f32(256.0)) + f32(0.5))
        axes.append(((low, 256 - alpha), (low + 1, alpha)))
    total = Fraction(0)
    for corner in range(4):
        (i, wi), (j, wj) = axes[0][corner & 1], axes[1][corner >> 1]
        weight = _corner_weight([wi, wj], bin(corner).count("1"))
        total += weight * Fraction(float(texel(i, j)))
    return float(f32(float(total)))


def linear2d() -> list[str]:
    grid = [[f32(((x * 7 + y * 13) % 11) / 4.0 + 0.125) for x in range(5)] for y in range(4)]
    clamp = lambda i, j: grid[min(max(j, 0), 3)][min(max(i, 0), 4)]
    border = lambda i, j: grid[j][i] if 0 <= i < 5 and 0 <= j < 4 else f32(0.75)
    s = lambda v: f32(1) / f32(v)
    points = [(f32(0.5), f32(0.5)), (f32(1.0), f32(1.0)), (f32(1.5) + s(256), f32(2.5) + f32(3) / f32(256)),
              (f32(2.0) + s(512), f32(1.7)), (f32(3.3), f32(0.2)), (f32(-0.4), f32(2.2)), (f32(4.9), f32(3.9)),
              (f32(5.6), f32(-0.7)), (f32(2.5) + f32(5) / f32(256), f32(1.5) + f32(7) / f32(256)),
              (f32(0.9), f32(3.1)), (f32(2.25), f32(2.75)), (f32(1.0) + s(1024), f32(2.0) - s(1024))]
    lines = []
    for k, (x, y) in enumerate(points):
        lines.append(_line("linear2d", 2 * k, [bits(_linear_2d(clamp, 5, 4, x, y))]))
        lines.append(_line("linear2d", 2 * k + 1, [bits(_linear_2d(border, 5, 4, x, y))]))
    return lines


def modes1d() -> list[str]:
    line = [1.5, -2.0, 3.25, 0.5, 8.0, -0.125]
    quads = [[(x - 3) * 1000 + c for c in range(4)] for x in range(6)]
    border = [bits(2.7), bits(-1.0), bits(0.0), bits(100.0)]
    coords = [f32(v) for v in (-0.01, 0.0, 0.16, 0.5, 0.999, 1.0, 1.2, -1.3, 2.55, -0.6)]
    lines = []
    for k, u in enumerate(coords):
        i = math.floor(f32(u * f32(6.0)))
        wrapped = i % 6
        folded = i % 12
        mirrored = folded if folded < 6 else 11 - folded
        ints = quads[i] if 0 <= i < 6 else border
        lines += [_line("modes1d", 3 * k, [bits(line[wrapped])]), _line("modes1d", 3 * k + 1, [bits(line[mirrored])]),
                  _line("modes1d", 3 * k + 2, ints)]
    return lines
