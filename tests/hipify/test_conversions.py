"""The compatibility header's conversions in directed rounding modes (cass_half.h,
cass_convert.h), checked on the source route against exact rational rounding done here: float
to half, integer to half, half to integer, double to float, 64-bit integer to float and double,
in each of CUDA's modes. HIP 5.2's own versions round to nearest whatever the suffix says."""

from __future__ import annotations

import math
import os
import struct
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

FLOATS = [0.1, -0.1, 1.0 / 3, -2.0 / 3, 65519.0, 65520.0, -65520.0, 1e6, -1e6, 5.9604644775390625e-8,
          2.9802322387695312e-8, -4.5e-8, 1e-10, -1e-10, 0.0, 1.00048828125, 2049.0, -2051.0, 3.14159]
INTS = [0, 1, -1, 2049, -2049, 2051, 65519, 65520, 70000, -70000, 123457, -2147483647]
HALVES = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1.25, -1.75, 65504.0, -65504.0, 0.000061035156, 3.0]
DOUBLES = [0.1, -0.1, 1.0 / 3, 1e300, -1e300, 1e-300, -1e-300, 3.4028235677973366e38, 16777217.0]
LONGS = [16777217, -16777217, 2**53 + 1, -(2**53 + 1), 2**63 - 1, -(2**63), 123456789123456789]
ULONGS = [2**64 - 1, 2**63 + 1, 16777217, 2**53 + 1]
MODES = ["rn", "rz", "rd", "ru"]


def _round(q: Fraction, digits: int, emin: int, emax: int, mode: str):
    """q rounded to a binary format of `digits` significant bits (subnormals below 2^emin)."""
    if q == 0:
        return Fraction(0)
    e = max(math.floor(math.log2(abs(q))), emin)
    while Fraction(2) ** (e + 1) <= abs(q):
        e += 1
    while e > emin and Fraction(2) ** e > abs(q):
        e -= 1
    ulp = Fraction(2) ** (e - digits + 1)
    low = math.floor(q / ulp) * ulp
    high = low + (0 if low == q else ulp)
    if mode == "rz":
        r = low if q > 0 else high
    elif mode == "rd":
        r = low
    elif mode == "ru":
        r = high
    else:
        r = low if (q - low < high - q or (q - low == high - q and (low / ulp) % 2 == 0)) else high
    largest = (2 - Fraction(2) ** (1 - digits)) * Fraction(2) ** emax
    if abs(r) > largest:
        to_inf = mode == "rn" or (mode == "ru" and r > 0) or (mode == "rd" and r < 0)
        return math.copysign(math.inf, r) if to_inf else (largest if r > 0 else -largest)
    return math.copysign(0.0, q) if r == 0 else r   # a negative value rounded to zero is -0


def _half_bits(v) -> int:
    """The bits of a value that is a half already (rounded by _round)."""
    return int(np.array(float(v), dtype=np.float16).view(np.uint16))


def _float_bits(v) -> int:
    return struct.unpack("<I", struct.pack("<f", float(v)))[0]


def _double_bits(v) -> int:
    return struct.unpack("<Q", struct.pack("<d", float(v)))[0]


def _to_integer(h: float, mode: str, lo: int, hi: int) -> int:
    f = Fraction(h)
    r = {"rn": round(f), "rz": math.trunc(f), "rd": math.floor(f), "ru": math.ceil(f)}[mode]
    return min(max(r, lo), hi)


def _expected() -> list[str]:
    lines = []
    for x in FLOATS:
        f = Fraction(float(np.float32(x)))
        lines += [f"f2h {m} {_half_bits(_round(f, 11, -14, 15, m)):04x}" for m in MODES]
    for i in INTS:
        lines += [f"i2h {m} {_half_bits(_round(Fraction(i), 11, -14, 15, m)):04x}" for m in MODES]
    for h in HALVES:
        hv = float(np.float16(h))
        lines += [f"h2i {m} {_to_integer(hv, m, -2**31, 2**31 - 1)}" for m in MODES]
        lines += [f"h2u {m} {_to_integer(hv, m, 0, 2**32 - 1)}" for m in MODES]
    for d in DOUBLES:
        lines += [f"d2f {m} {_float_bits(_round(Fraction(d), 24, -126, 127, m)):08x}" for m in MODES[1:]]
    for v in LONGS:
        lines += [f"ll2f {m} {_float_bits(_round(Fraction(v), 24, -126, 127, m)):08x}" for m in MODES[1:]]
        lines += [f"ll2d {m} {_double_bits(_round(Fraction(v), 53, -1022, 1023, m)):016x}" for m in MODES[1:]]
    for v in ULONGS:
        lines += [f"ull2f {m} {_float_bits(_round(Fraction(v), 24, -126, 127, m)):08x}" for m in MODES[1:]]
    return lines


def _array(ctype: str, name: str, values) -> str:
    return f"__device__ const {ctype} {name}[] = {{{', '.join(map(str, values))}}};\n"


def _program() -> str:
    def each(fmt: str, call: str, modes=MODES) -> str:
        return "".join(f'    printf("{fmt}\\n", "{m}", {call.format(m=m)});\n' for m in modes)
    return ("#include <cstdio>\n#include <cuda_fp16.h>\n"
            + _array("float", "floats", [repr(float(np.float32(x))) + "f" for x in FLOATS])
            + _array("int", "ints", INTS)
            + _array("float", "halves", [repr(float(np.float16(h))) + "f" for h in HALVES])
            + _array("double", "doubles", [repr(d) for d in DOUBLES])
            + _array("long long", "longs", [f"{v}ll" if v > -(2**63) else "(-9223372036854775807ll - 1)"
                                            for v in LONGS])
            + _array("unsigned long long", "ulongs", [f"{v}ull" for v in ULONGS])
            + "__global__ void convert() {\n"
            + f"  for (int i = 0; i < {len(FLOATS)}; i++) {{\n"
            + each("f2h %s %04x", "__half_as_ushort(__float2half_{m}(floats[i]))") + "  }\n"
            + f"  for (int i = 0; i < {len(INTS)}; i++) {{\n"
            + each("i2h %s %04x", "__half_as_ushort(__int2half_{m}(ints[i]))") + "  }\n"
            + f"  for (int i = 0; i < {len(HALVES)}; i++) {{\n    __half h = __float2half(halves[i]);\n"
            + each("h2i %s %d", "__half2int_{m}(h)") + each("h2u %s %u", "__half2uint_{m}(h)") + "  }\n"
            + f"  for (int i = 0; i < {len(DOUBLES)}; i++) {{\n"
            + each("d2f %s %08x", "__float_as_uint(__double2float_{m}(doubles[i]))", MODES[1:]) + "  }\n"
            + f"  for (int i = 0; i < {len(LONGS)}; i++) {{\n"
            + each("ll2f %s %08x", "__float_as_uint(__ll2float_{m}(longs[i]))", MODES[1:])
            + each("ll2d %s %016llx", "(unsigned long long)__double_as_longlong(__ll2double_{m}(longs[i]))",
                   MODES[1:]) + "  }\n"
            + f"  for (int i = 0; i < {len(ULONGS)}; i++) {{\n"
            + each("ull2f %s %08x", "__float_as_uint(__ull2float_{m}(ulongs[i]))", MODES[1:]) + "  }\n"
            + "}\nint main() {\n  convert<<<1, 1>>>();\n  return cudaDeviceSynchronize() != cudaSuccess;\n}\n")


def _tool(name: str, *args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "bin" / name), *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=600, env=dict(os.environ))


def test_directed_conversions_round_exactly(tmp_path):
    (tmp_path / "convert.cu").write_text(_program())
    built = _tool("cass-nvcc", "-O2", "--cass-route=source", "-o", "convert", "convert.cu", cwd=tmp_path)
    assert built.returncode == 0, built.stderr[-3000:]
    run = _tool("cass-run", "./convert", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    got, want = run.stdout.split("\n")[:-1], _expected()
    wrong = [f"{g} (want {w})" for g, w in zip(got, want) if g != w]
    assert len(got) == len(want) and not wrong, wrong[:20]
