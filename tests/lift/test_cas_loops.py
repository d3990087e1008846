"""ptxas's compare-and-swap retry loops (ATOMS.CAST.SPIN: sm_80 has no shared-memory atomic for
64-bit add/min/max/and/or/xor or float/double add) are lifted as the one atomic they implement
(lift/cas_loops.py): the codegen is counted, and the emulator checks each block's final values
and every lane's returned old value against the host, all lanes of a block on one address."""

from __future__ import annotations

import collections
import ctypes
import re
import shutil
import struct
from fractions import Fraction

import numpy as np
import pytest

from .lifted import lifted_unit

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

INTEGER = r"""
#include <climits>
extern "C" __global__ void integer_rmw(const long long *in, const float *fin,
                                       unsigned long long *olds, unsigned long long *finals)
{
    __shared__ unsigned long long s_add, s_and, s_or, s_xor, s_umin, s_umax;
    __shared__ long long s_min, s_max;
    __shared__ float s_f;
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    if (t == 0) {
        s_add = 0; s_and = ~0ull; s_or = 0; s_xor = 0; s_umin = ~0ull; s_umax = 0;
        s_min = LLONG_MAX; s_max = LLONG_MIN; s_f = 0.0f;
    }
    __syncthreads();
    long long v = in[g];
    unsigned long long u = (unsigned long long)v;
    unsigned long long *o = olds + 9 * g;
    o[0] = atomicAdd(&s_add, u);
    o[1] = atomicAnd(&s_and, u | (1ull << (t % 61)));
    o[2] = atomicOr(&s_or, u & (0x8000000000000001ull << (t % 7)));
    o[3] = atomicXor(&s_xor, u);
    o[4] = atomicMin(&s_umin, u);
    o[5] = atomicMax(&s_umax, u);
    o[6] = atomicMin(&s_min, v);
    o[7] = atomicMax(&s_max, v);
    o[8] = __float_as_uint(atomicAdd(&s_f, fin[g]));
    __syncthreads();
    if (t == 0) {
        unsigned long long *f = finals + 9 * blockIdx.x;
        f[0] = s_add; f[1] = s_and; f[2] = s_or; f[3] = s_xor; f[4] = s_umin; f[5] = s_umax;
        f[6] = s_min; f[7] = s_max; f[8] = __float_as_uint(s_f);
    }
}
"""

# Fused by ptxas into the loop: atomicAdd(p, x * 0.5f) is FFMA x, 0.5, old and x * 0.1f FFMA x,
# 0.1, old (an atomic add of the product where it is exact, the loop where not); a double add is
# DADD; y * 0.125 is DFMA y, 0.125, old (the same); y * 0.1 DFMA y, 0.1, old: that stays a loop.
FUSED = r"""
extern "C" __global__ void fused_rmw(const float *fin, const double *din, const float *fw,
                                     unsigned long long *olds, unsigned long long *finals)
{
    __shared__ float s_half, s_w;
    __shared__ double s_d, s_eighth, s_tenth;
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    if (t == 0) { s_half = 0.0f; s_w = 0.0f; s_d = 0.0; s_eighth = 0.0; s_tenth = 0.0; }
    __syncthreads();
    float x = fin[g];
    double y = din[g];
    unsigned long long *o = olds + 5 * g;
    o[0] = __float_as_uint(atomicAdd(&s_half, x * 0.5f));
    o[1] = __double_as_longlong(atomicAdd(&s_d, y));
    o[2] = __double_as_longlong(atomicAdd(&s_eighth, y * 0.125));
    o[3] = __double_as_longlong(atomicAdd(&s_tenth, y * 0.1));
    o[4] = __float_as_uint(atomicAdd(&s_w, fw[g] * 0.1f));
    __syncthreads();
    if (t == 0) {
        unsigned long long *f = finals + 5 * blockIdx.x;
        f[0] = __float_as_uint(s_half); f[1] = __double_as_longlong(s_d);
        f[2] = __double_as_longlong(s_eighth); f[3] = __double_as_longlong(s_tenth);
        f[4] = __float_as_uint(s_w);
    }
}
"""

BLOCKS, THREADS = 2, 96          # three waves of a block on each address
M64 = (1 << 64) - 1
ATOMIC = re.compile(r"^\s+(ds_(?:add|and|or|xor|min|max|cmpstore)\w*)", re.M)


@pytest.fixture(scope="module")
def integer(tmp_path_factory):
    return lifted_unit(INTEGER, tmp_path_factory.mktemp("cas_integer"))


@pytest.fixture(scope="module")
def fused(tmp_path_factory):
    return lifted_unit(FUSED, tmp_path_factory.mktemp("cas_fused"))


def _run(unit, name: str, inputs: list[np.ndarray], per_thread: int) -> tuple[np.ndarray, np.ndarray]:
    from cass_cc.emu import CodeObject, Memory, launch
    n = BLOCKS * THREADS
    mem = Memory()
    co = CodeObject.load(unit.code_object, mem)
    addrs = []
    for array in inputs:
        addrs.append(mem.allocate(array.nbytes))
        ctypes.memmove(addrs[-1], array.ctypes.data, array.nbytes)
    olds, finals = mem.allocate(8 * per_thread * n), mem.allocate(8 * per_thread * BLOCKS)
    launch(co, name, grid=(BLOCKS, 1, 1), block=(THREADS, 1, 1),
           kernarg=struct.pack("<" + "Q" * (len(addrs) + 2), *addrs, olds, finals), memory=mem)
    out_olds, out_finals = np.empty((n, per_thread), np.uint64), np.empty((BLOCKS, per_thread), np.uint64)
    ctypes.memmove(out_olds.ctypes.data, olds, out_olds.nbytes)
    ctypes.memmove(out_finals.ctypes.data, finals, out_finals.nbytes)
    return out_olds, out_finals


def _linearizable(init: int, olds: list[int], final: int, step, values: list) -> bool:
    """Whether the old values the lanes got back and the final value are those of the lanes'
    atomics applied one after another in some order: each lane's new value is another lane's old
    value or the final one, and the first old value is the initial one (as multisets)."""
    made = collections.Counter([init] + [step(o, v) for o, v in zip(olds, values)])
    return made == collections.Counter(olds + [final])


def _signed(x: int) -> int:
    return x - (1 << 64) if x >> 63 else x


def _f32(bits: int) -> Fraction:
    return Fraction(float(np.uint32(bits).view(np.float32)))


def _f32_bits(x: Fraction) -> int:
    """x rounded to the nearest float, ties to even (no overflow here), as its bits."""
    if x == 0:
        return 0
    sign, x = (0x80000000, -x) if x < 0 else (0, x)
    exponent = max(x.numerator.bit_length() - x.denominator.bit_length() - 1, -126)
    while Fraction(2) ** (exponent + 1) <= x:
        exponent += 1
    while exponent > -126 and Fraction(2) ** exponent > x:
        exponent -= 1
    quantum = Fraction(2) ** (exponent - 23)
    steps = round(x / quantum)                  # Python rounds a Fraction half to even
    return sign | int(np.float32(float(steps * quantum)).view(np.uint32))


def _f64(bits: int) -> Fraction:
    return Fraction(float(np.uint64(bits).view(np.float64)))


def _f64_bits(x: Fraction) -> int:
    return int(np.float64(float(x)).view(np.uint64))      # float(Fraction) rounds to nearest even


def _integer_inputs() -> tuple[np.ndarray, np.ndarray]:
    n = BLOCKS * THREADS
    i = np.arange(n, dtype=np.uint64)
    v = ((i * np.uint64(0x9E3779B97F4A7C15)) ^ (i << np.uint64(40))).view(np.int64)
    # denormals whose sums are exact in any order and reach the normal range: an add that
    # flushed a denormal operand or result would show
    fin = ((np.arange(n) % 13) * 2.0 ** -149).astype(np.float32)
    fin[::16] = np.float32(2.0 ** -128)
    return v, fin


def test_integer_and_float_loops_are_native_lds_atomics(integer):
    for shape in ("ATOMS.CAST.SPIN.64", "ATOMS.CAST.SPIN "):
        assert shape in integer.sass_text
    counts = collections.Counter(ATOMIC.findall(integer.asm))
    for name in ("ds_add_rtn_u64", "ds_and_rtn_b64", "ds_or_rtn_b64", "ds_xor_rtn_b64", "ds_min_rtn_u64",
                 "ds_max_rtn_u64", "ds_min_rtn_i64", "ds_max_rtn_i64", "ds_add_rtn_f32"):
        assert counts[name] == 1, (name, counts)
    assert not [name for name in counts if "cmpstore" in name], counts
    # one atomic per lane: no wave reduction before it (a v_readlane loop over the lanes)
    assert not re.findall(r"^\s+v_readlane_b32", integer.asm, re.M)


def test_integer_and_float_results_are_exact(integer):
    v, fin = _integer_inputs()
    olds, finals = _run(integer, "integer_rmw", [v, fin], 9)
    u = v.view(np.uint64)
    steps = [
        (0, lambda o, x: (o + x) & M64),
        (M64, lambda o, x: o & x),
        (0, lambda o, x: o | x),
        (0, lambda o, x: o ^ x),
        (M64, min),
        (0, max),
        ((1 << 63) - 1, lambda o, x: min(_signed(o), _signed(x)) & M64),
        (1 << 63, lambda o, x: max(_signed(o), _signed(x)) & M64),
        (0, lambda o, x: _f32_bits(_f32(o) + _f32(x))),
    ]
    for b in range(BLOCKS):
        lanes = slice(b * THREADS, (b + 1) * THREADS)
        t = np.arange(THREADS)
        operands = [
            u[lanes], u[lanes] | (np.uint64(1) << (t % 61).astype(np.uint64)),
            u[lanes] & (np.uint64(0x8000000000000001) << (t % 7).astype(np.uint64)), u[lanes],
            u[lanes], u[lanes], u[lanes], u[lanes], fin[lanes].view(np.uint32),
        ]
        for k, ((init, step), values) in enumerate(zip(steps, operands)):
            values = [int(x) for x in values]
            got = [int(x) for x in olds[lanes, k]]
            final = int(finals[b, k])
            want = init
            for x in values:        # every operation here gives the same final value in any order
                want = step(want, x)
            assert final == want, (b, k, hex(final), hex(want))
            assert _linearizable(init, got, final, step, values), (b, k)


def _fused_inputs() -> tuple[np.ndarray, np.ndarray]:
    n = BLOCKS * THREADS
    i = np.arange(n)
    lane = i % 32
    # In the first half of each wave denormals, so that the sums stay where every rounding shows:
    # odd multiples of the smallest one halve inexactly (x * 0.5 + old rounds once: the loop),
    # even ones exactly (the atomic). Then one large value, after which each lane's small add
    # rounds away, where adding the lanes' sum first (LLVM's atomic optimizer) would not.
    fin = np.where(lane < 16, (i % 9 + 1) * 2.0 ** -149, np.where(lane == 16, 2.0 ** 25, 1.5)).astype(np.float32)
    din = np.where(lane < 16, (i % 23) * 0.375, np.where(lane == 16, 2.0 ** 56, 0.375 * (i % 5 + 1)))
    din[lane < 4] = np.array([8, 4, 12, 4])[lane[lane < 4]] * 2.0 ** -1074      # 4 * 2^-1074 / 8 is inexact
    return fin, din.astype(np.float64)


def test_fused_and_double_loops(fused):
    rmws = re.findall(r"atomicrmw fadd ptr addrspace\(3\) .*?, (float|double) ", fused.llvm_ir)
    # y and y * 0.125 become atomic adds; y * 0.1 is not an add of an exact product: its loop stays
    assert collections.Counter(rmws) == {"float": 2, "double": 2}, rmws
    assert "DFMA" in fused.sass_text and "0.1" in fused.sass_text
    counts = collections.Counter(ATOMIC.findall(fused.asm))
    assert counts["ds_add_rtn_f32"] == 2, counts


def test_fused_and_double_results_are_exact(fused):
    fin, din = _fused_inputs()
    # x * 0.1f is exact for x = 1, and for 1 + k * 2^-20 not: where it is not, old + x * 0.1f rounded
    # once (the loop) and old plus the rounded product (the atomic) part often
    fw = np.where(np.arange(fin.size) % 3 == 0, 1.0, 1.0 + (np.arange(fin.size) * 7919 % 1000) * 2.0 ** -20)
    fw = fw.astype(np.float32)
    olds, finals = _run(fused, "fused_rmw", [fin, din, fw], 5)
    half, eighth, tenth = Fraction(1, 2), Fraction(1, 8), Fraction(float(np.float64(0.1)))
    steps = [
        (lambda o, x: _f32_bits(_f32(o) + Fraction(float(x)) * half), fin),
        (lambda o, x: _f64_bits(_f64(o) + Fraction(float(x))), din),
        (lambda o, x: _f64_bits(_f64(o) + Fraction(float(x)) * eighth), din),
        (lambda o, x: _f64_bits(_f64(o) + Fraction(float(x)) * tenth), din),     # fma: one rounding
        (lambda o, x: _f32_bits(_f32(o) + Fraction(float(x)) * Fraction(float(np.float32(0.1)))), fw),
    ]
    for b in range(BLOCKS):
        lanes = slice(b * THREADS, (b + 1) * THREADS)
        for k, (step, values) in enumerate(steps):
            got = [int(x) for x in olds[lanes, k]]
            assert _linearizable(0, got, int(finals[b, k]), step, list(values[lanes])), (b, k)


# ---- the shape, on hand-written SASS as nvdisasm prints it -----------------------------------

def _sass(*body: str) -> str:
    """A loop at .L_x_1 of `body` lines, then EXIT at .L_x_2 (where early exits go)."""
    lines = [".L_x_1:"] + [f"        /*{16 * i:04x}*/                   {line} ;" for i, line in enumerate(body)]
    return "\n".join(lines + [".L_x_2:", f"        /*{16 * len(body):04x}*/                   EXIT ;", ""])


SWAPPED_64 = ("ISETP.EQ.U32.AND P0, PT, R6, 0x1, PT", "ISETP.EQ.U32.AND.EX P0, PT, R7, RZ, PT, P0",
              "@!P0 BRA `(.L_x_1)")
ADD_64 = ("LDS.64 R4, [0x8]", "IADD3 R6, P0, R8, R4, RZ", "IMAD.X R7, R9, 0x1, R5, P0",
          "ATOMS.CAST.SPIN.64 R6, [0x8], R4, R6") + SWAPPED_64
UMIN_64 = ("LDS.64 R4, [R12]", "ISETP.LE.U32.AND P0, PT, R4, c[0x0][0x190], PT",
           "ISETP.LE.U32.AND.EX P0, PT, R5, c[0x0][0x194], PT, P0", "@P0 BRA `(.L_x_2)",
           "ATOMS.CAST.SPIN.64 R6, [R12], R4, R10") + SWAPPED_64
# leaves (storing nothing) when old > w, signed, and stores w when old <= w: max
SIGNED_MAX_64 = ("LDS.64 R4, [R12]", "ISETP.LE.U32.AND P0, PT, R4, c[0x0][0x190], PT",
                 "ISETP.LE.AND.EX P0, PT, R5, c[0x0][0x194], PT, P0", "@!P0 BRA `(.L_x_2)",
                 "ATOMS.CAST.SPIN.64 R6, [R12], R4, R10") + SWAPPED_64
FADD_32 = ("LDS R6, [0x18]", "FADD R7, R6, -R4", "ATOMS.CAST.SPIN R7, [0x18], R6, R7",
           "ISETP.EQ.U32.AND P0, PT, R7, 0x1, PT", "@!P0 BRA `(.L_x_1)")


def _loops(sass: str):
    from cass_cc.passes.lift import cas_loops
    from cass_cc.sass.parser import parse_sass
    return cas_loops.find(sorted(parse_sass(sass).instructions, key=lambda i: i.address))


@pytest.mark.parametrize("body, op, tested", [
    (ADD_64, "add", False),
    (UMIN_64, "umin", True),            # compares with c[0x0][0x190], stores R10:R11: tested at run time
    (FADD_32, "fadd", False),
    (tuple(line.replace("LE", "GE") for line in UMIN_64), "umax", True),
    (SIGNED_MAX_64, "max", True),
])
def test_loops_that_are_one_atomic(body, op, tested):
    (loop,) = _loops(_sass(*body)).values()
    assert loop.plan.op == op and (loop.plan.test is not None) == tested


@pytest.mark.parametrize("body", [
    [line.replace("FADD", "FMUL") for line in FADD_32],                    # old * v: no atomicrmw
    [line.replace("FADD", "FADD.FTZ") for line in FADD_32],                # flushes the sum
    [line.replace("R6, -R4", "R6, R7") for line in FADD_32],               # adds the last round's sum
    list(FADD_32[:2]) + ["STS [0x40], R7"] + list(FADD_32[2:]),            # a second side effect
    [line.replace("@!P0 BRA", "@P0 BRA") for line in FADD_32],             # loops while it swapped
    [line.replace("[0x18], R6, R7", "[0x1c], R6, R7") for line in FADD_32],  # swaps another word
    [line.replace("IADD3 R6, P0, R8, R4, RZ", "IADD3 R6, P0, R8, R4, R4") for line in ADD_64],  # old + old + v
    list(UMIN_64[:4]) + ["IADD3 R10, R10, 0x1, RZ"] + list(UMIN_64[4:]),    # stores a value the loop changes
])
def test_loops_that_stay_loops(body):
    assert _loops(_sass(*body)) == {}


def _lifted_ir(body) -> str:
    import cass_cc.passes.lift as lift
    from cass_cc.sass.parser import parse_sass
    from cass_cc.unit import KernelUnit
    unit = KernelUnit(name="k", sm_arch="sm_80")
    unit.instructions = parse_sass(_sass(*body)).instructions
    return lift.run(unit).llvm_ir


def test_lifted_as_the_atomic_or_kept_as_the_loop():
    rmw = _lifted_ir(FADD_32)
    assert "atomicrmw fadd" in rmw and "cmpxchg" not in rmw
    kept = _lifted_ir([line.replace("FADD", "FMUL") for line in FADD_32])
    assert "cmpxchg" in kept and "atomicrmw" not in kept
