"""Semantic checks of the lifter: real nvcc SASS (tests/lift/kernels.cu) lifted, compiled for
gfx1100 by the back end, run on the project's RDNA3 emulator, compared with host computations."""

from __future__ import annotations

import ctypes
import shutil
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

from .lifted import BUILDS, launch_as_runtime

HERE = Path(__file__).parent
pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")


@pytest.fixture(scope="session", params=BUILDS)
def code_objects(request, tmp_path_factory):
    """{kernel: code object} for every kernel of kernels.cu, through the whole lift pipeline, from
    SASS for sm_80 (what cass-nvcc asks nvcc for) and sm_90 (parameters at 0x210, shared memory
    from 0x400, VIADD/VIMNMX/REDG), for gfx1100 and for gfx942 (two warps in each wave64)."""
    from cass_cc.pipeline import run_pipeline
    from cass_cc.passes import LIFT_PIPELINE, units_from_file
    sm, offload_arch = request.param
    cubin = tmp_path_factory.mktemp("lift") / f"kernels_{sm}.cubin"
    subprocess.run(["nvcc", f"-arch={sm}", "-cubin", "-o", str(cubin), str(HERE / "kernels.cu")],
                   check=True)
    out = {}
    for unit in units_from_file(str(cubin), offload_arch):
        unit = run_pipeline(unit, LIFT_PIPELINE)
        assert unit.status == "ok", unit.reasons
        out[unit.name] = unit.code_object
    return out


class Device:
    """Buffers in emulated memory and launches of one code object."""

    def __init__(self, code_object: bytes):
        from cass_cc.emu import CodeObject, Memory
        self.mem = Memory()
        self.co = CodeObject.load(code_object, self.mem)

    def put(self, array: np.ndarray) -> int:
        array = np.ascontiguousarray(array)
        addr = self.mem.allocate(max(array.nbytes, 4))
        ctypes.memmove(addr, array.ctypes.data, array.nbytes)
        return addr

    def get(self, addr: int, like: np.ndarray) -> np.ndarray:
        out = np.empty_like(like)
        ctypes.memmove(out.ctypes.data, addr, out.nbytes)
        return out

    def launch(self, name: str, grid: int, block: int, fmt: str, *args) -> None:
        launch_as_runtime(self.co, self.mem, name, grid, block, struct.pack(fmt, *args))


def u32(x) -> int:
    return int(x) & 0xFFFFFFFF


def s32(x) -> int:
    x = u32(x)
    return x - (1 << 32) if x >> 31 else x


def test_saxpy(code_objects):
    dev = Device(code_objects["saxpy"])
    n = 100
    x = np.arange(n, dtype=np.float32) * 0.25
    y = np.linspace(-3, 3, n).astype(np.float32)
    px, py = dev.put(x), dev.put(y)
    dev.launch("saxpy", 2, 64, "<ifQQ", n, 1.5, px, py)
    assert np.array_equal(dev.get(py, y), np.float32(1.5) * x + y)


def test_integer_division(code_objects):
    dev = Device(code_objects["intdiv"])
    rng = np.random.default_rng(1)
    a = rng.integers(-2**31 + 1, 2**31 - 1, 64).astype(np.int32)
    b = rng.integers(-70000, 70000, 64).astype(np.int32)
    b[b == 0] = 3
    a[:4], b[:4] = [7, -7, 7, 2**31 - 1], [2, 2, -2, 1]
    pa, pb, pq, pr, pu = dev.put(a), dev.put(b), dev.put(a * 0), dev.put(a * 0), dev.put(a.view(np.uint32) * 0)
    dev.launch("intdiv", 2, 32, "<QQQQQ", pa, pb, pq, pr, pu)
    q = [int(x / y) for x, y in zip(a.tolist(), b.tolist())]
    assert dev.get(pq, a).tolist() == q
    assert dev.get(pr, a).tolist() == [x - qq * y for x, y, qq in zip(a.tolist(), b.tolist(), q)]
    assert dev.get(pu, a.view(np.uint32)).tolist() == [u32(x) // u32(y) for x, y in zip(a.tolist(), b.tolist())]


def test_float_division_and_sqrt(code_objects):
    """Fast paths and the CALL.REL slow-path subroutines (denormals, huge ratios) round exactly."""
    dev = Device(code_objects["fpdiv"])
    rng = np.random.default_rng(2)
    a = (rng.standard_normal(64) * 10.0 ** rng.integers(-30, 30, 64)).astype(np.float32)
    b = (rng.standard_normal(64) * 10.0 ** rng.integers(-30, 30, 64)).astype(np.float32)
    a[:6] = [1.0, 1e-40, 3e38, 0.0, -5.0, 2.5e-39]
    b[:6] = [3.0, 3.0, 1e-5, 2.0, 1e-40, 7.0]
    pq, ps, pd = dev.put(a * 0), dev.put(a * 0), dev.put(np.zeros(64))
    dev.launch("fpdiv", 2, 32, "<QQQQQ", dev.put(a), dev.put(b), pq, ps, pd)
    with np.errstate(all="ignore"):
        assert dev.get(pq, a).view(np.uint32).tolist() == (a / b).view(np.uint32).tolist()
        assert dev.get(ps, a).view(np.uint32).tolist() == np.sqrt(np.abs(a)).view(np.uint32).tolist()
        want = a.astype(np.float64) / b.astype(np.float64)
        assert dev.get(pd, want).view(np.uint64).tolist() == want.view(np.uint64).tolist()


def test_bit_operations(code_objects):
    """PRMT, funnel shifts, POPC/FLO/BREV, LOP3 truth tables, IMAD.HI/WIDE carries, 64-bit math."""
    dev = Device(code_objects["bits"])
    rng = np.random.default_rng(3)
    a = rng.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    po = dev.put(np.zeros(8 * 64, np.uint32))
    dev.launch("bits", 2, 32, "<QQQ", dev.put(a), dev.put(b), po)
    got = dev.get(po, np.zeros(8 * 64, np.uint32)).reshape(64, 8).tolist()
    for i, (x, y) in enumerate(zip(a.tolist(), b.tolist())):
        pool = (y << 32) | x
        sel = y & 0x7777
        perm = sum(((pool >> (8 * ((sel >> (4 * k)) & 7))) & 0xFF) << (8 * k) for k in range(4))
        fl = u32((((y << 32) | x) << (y & 31)) >> 32)
        fr = u32(((y << 32) | x) >> (x & 31))
        brev = int(f"{x:032b}"[::-1], 2)
        clz = 32 - y.bit_length()
        w = (((x << 32) | y) + y * 12345) & (2**64 - 1)
        sad = u32(abs(s32(x) - s32(y)) + 7)
        ffs = (x & -x).bit_length()
        want = [perm, fl, fr, u32(bin(x).count("1") + clz + (brev ^ y)), u32((x & y) ^ (~x | (y >> 3))),
                u32((x * y >> 32) + ((s32(x) * s32(y)) >> 40)), u32((w >> 17) ^ (w % 1000003)),
                ffs if s32(x) < s32(y) else sad]
        assert got[i] == want, i


def test_warp_operations(code_objects):
    """Shuffles with out-of-range lanes keep their own value; votes, also under divergence."""
    dev = Device(code_objects["warp"])
    rng = np.random.default_rng(4)
    a = rng.integers(0, 100, 64).astype(np.int32)
    po = dev.put(np.zeros(8 * 64, np.int32))
    dev.launch("warp", 1, 64, "<QQ", dev.put(a), po)
    got = dev.get(po, np.zeros(8 * 64, np.int32)).reshape(64, 8).tolist()
    for w in range(2):
        v = a[32 * w: 32 * w + 32].tolist()
        ballot = sum(1 << l for l in range(32) if v[l] & 1)
        div = sum(1 << l for l in range(32) if v[l] & 2 and v[l] & 4)
        for l in range(32):
            up = l - 5 if (l % 16) >= 5 else l
            match = sum(1 << k for k in range(32) if v[k] & 3 == v[l] & 3)
            want = [v[l + 3] if l + 3 < 32 else v[l], v[up], v[l ^ 6], v[(l * 7) & 31], s32(ballot),
                    int(any(x > 90 for x in v)) + 2, s32(div) if v[l] & 2 else 0, s32(sum(v) + match)]
            assert got[32 * w + l] == want, (w, l)


def test_atomics(code_objects):
    dev = Device(code_objects["atomics"])
    rng = np.random.default_rng(5)
    n = 128
    a = rng.integers(-1000, 1000, n).astype(np.int32)
    counters = np.array([0, -2**31, 2**31 - 1, 0, 0, 0, 0, 2**31 - 1], np.int32)
    pc, pu, pf = dev.put(counters), dev.put(np.zeros(2, np.uint32)), dev.put(np.zeros(1, np.float32))
    dev.launch("atomics", 2, 64, "<QQQQ", pc, pu, pf, dev.put(a))
    c = dev.get(pc, counters).tolist()
    orv = 0
    xor = 0
    for x in a.tolist():
        orv |= 1 << (x & 31)
        xor ^= x
    assert c == [int(a.sum()), int(a.max()), int(a.min()), s32(orv), xor, 7, n, int(a.min())]
    assert dev.get(pu, np.zeros(2, np.uint32)).tolist() == [n % 18, (6 - n % 6) % 6]
    assert dev.get(pf, np.zeros(1, np.float32)).tolist() == [0.5 * n]


def _directed(exact, mode: str, dtype) -> float:
    """The Fraction `exact` rounded to dtype (float16/32/64) toward zero (rz), down (rd), up (ru)."""
    from fractions import Fraction
    if exact == 0:
        return 0.0
    bits, emin = {np.float16: (11, -14), np.float32: (24, -126), np.float64: (53, -1022)}[dtype]
    top = Fraction(float(np.finfo(dtype).max))
    v = abs(exact)
    e = v.numerator.bit_length() - v.denominator.bit_length()
    if Fraction(2) ** e > v:
        e -= 1
    quantum = Fraction(2) ** (max(e, emin) - (bits - 1))
    k = v // quantum
    inexact = k * quantum != v
    up = inexact and (mode == "ru" and exact > 0 or mode == "rd" and exact < 0)
    magnitude = (k + up) * quantum
    if magnitude > top:
        magnitude = None if (mode == "ru" and exact > 0 or mode == "rd" and exact < 0) else top
    result = float("inf") if magnitude is None else float(magnitude)
    return -result if exact < 0 else result


def test_directed_rounding(code_objects):
    """.RZ/.RM/.RP of FFMA, FADD, FMUL, I2F, F2F, DADD, DMUL, DFMA against exact arithmetic."""
    from fractions import Fraction as F
    dev = Device(code_objects["rounding"])
    rng = np.random.default_rng(6)
    n = 32
    a, b, c = (rng.standard_normal(n).astype(np.float32) for _ in range(3))
    d = rng.standard_normal(3 * n) * 10.0 ** rng.integers(-5, 5, 3 * n)
    d[:3] = [1.7976931348623157e308, 2.0, -1.0]            # overflow of the product
    l = rng.integers(-2**62, 2**62, n, dtype=np.int64)
    of, od = dev.put(np.zeros(8 * n, np.float32)), dev.put(np.zeros(4 * n))
    dev.launch("rounding", 1, n, "<QQQQQQQ", dev.put(a), dev.put(b), dev.put(c), dev.put(d), dev.put(l), of, od)
    gf = dev.get(of, np.zeros(8 * n, np.float32)).reshape(n, 8).tolist()
    gd = dev.get(od, np.zeros(4 * n)).reshape(n, 4).tolist()
    for i in range(n):
        x, y, z = F(float(a[i])), F(float(b[i])), F(float(c[i]))
        p, q, r = (F(float(v)) for v in d[3 * i: 3 * i + 3])
        i32 = ((int(l[i]) + 2**31) % 2**32) - 2**31
        want = [_directed(x * y + z, "rz", np.float32), _directed(x * y + z, "rd", np.float32),
                _directed(x * y + z, "ru", np.float32), _directed(x + z, "rz", np.float32),
                _directed(x * y, "rd", np.float32), _directed(F(int(l[i])), "ru", np.float32),
                _directed(p, "rz", np.float32), _directed(F(i32), "rd", np.float32)]
        assert gf[i] == want, i
        want = [_directed(p + q, "rz", np.float64), _directed(p * q, "ru", np.float64),
                _directed(p * q + r, "rd", np.float64), _directed(p * q + r, "rz", np.float64)]
        assert gd[i] == want, i


def test_barrier_reductions(code_objects):
    """__syncthreads_count/and/or (BAR.RED.POPC/AND/OR + B2R.RESULT) per block, twice in a row,
    with static shared memory next to the reduction word."""
    dev = Device(code_objects["barred"])
    rng = np.random.default_rng(7)
    a = rng.integers(0, 1000, 128).astype(np.int32)
    a[64:] = np.maximum(a[64:], 4)                       # block 1: every value > 3
    po = dev.put(np.zeros(128, np.int32))
    dev.launch("barred", 2, 64, "<QQ", dev.put(a), po)
    got = dev.get(po, np.zeros(128, np.int32)).tolist()
    for blk in range(2):
        v = a[64 * blk: 64 * blk + 64].tolist()
        r = (sum(x & 1 for x in v) + 100 * all(x > 3 for x in v) + 1000 * any(x > 950 for x in v)
             + 10000 * sum(x > 500 for x in v))
        assert got[64 * blk: 64 * blk + 64] == [r + 1000000 * v[63 - t] for t in range(64)], blk


def test_nan_propagating_min_max(code_objects):
    """FMNMX.NAN and HMNMX2.NAN (max/min.NaN): a NaN operand gives the canonical NaN."""
    dev = Device(code_objects["nanminmax"])
    rng = np.random.default_rng(8)
    n = 32
    a, b = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
    a[[1, 5]] = np.nan
    b[[2, 5]] = np.nan
    h = rng.standard_normal(4 * n).astype(np.float16)
    h[[0, 3, 9, 10, 11]] = np.nan
    po, pho = dev.put(np.zeros(2 * n, np.float32)), dev.put(np.zeros(4 * n, np.float16))
    dev.launch("nanminmax", 1, n, "<QQQQQ", dev.put(a), dev.put(b), dev.put(h), po, pho)
    got = dev.get(po, np.zeros(2 * n, np.uint32)).tolist()
    hgot = dev.get(pho, np.zeros(4 * n, np.uint16)).tolist()

    def bits32(x):
        return 0x7FFFFFFF if np.isnan(x) else int(np.float32(x).view(np.uint32))

    def bits16(x):
        return 0x7FFF if np.isnan(x) else int(np.float16(x).view(np.uint16))

    for i in range(n):
        x, y = a[i], b[i]
        nan = np.isnan(x) or np.isnan(y)
        assert got[2 * i: 2 * i + 2] == [bits32(np.nan if nan else max(x, y)),
                                         bits32(np.nan if nan else min(x, y))], i
        p, q = h[4 * i: 4 * i + 2], h[4 * i + 2: 4 * i + 4]
        want = []
        for op in (max, min):
            for k in range(2):
                nan = np.isnan(p[k]) or np.isnan(q[k])
                want.append(bits16(np.nan if nan else op(p[k], q[k])))
        assert hgot[4 * i: 4 * i + 4] == [want[0], want[1], want[2], want[3]], i


def test_tanh_approx(code_objects):
    """MUFU.TANH (tanh.approx.f32): within 2e-6 relative of tanh (the H200 measured 1e-5, 7.7e-6
    absolute), and NVIDIA's exact answers where it gives them: x itself for tiny and denormal x,
    +-1 for infinities, the canonical NaN."""
    dev = Device(code_objects["tanh_approx"])
    special = [0.0, -0.0, 1e-20, -3e-39, 1e-40, float("inf"), float("-inf"), float("nan")]
    x = np.concatenate([np.array(special, np.float32), np.linspace(-9, 9, 56).astype(np.float32)])
    po = dev.put(np.zeros(64, np.float32))
    dev.launch("tanh_approx", 1, 64, "<QQ", dev.put(x), po)
    got = dev.get(po, np.zeros(64, np.float32))
    bits = got.view(np.uint32).tolist()
    want_special = [0, 0x80000000, int(np.float32(1e-20).view(np.uint32)), int(np.float32(-3e-39).view(np.uint32)),
                    int(np.float32(1e-40).view(np.uint32)), 0x3F800000, 0xBF800000, 0x7FFFFFFF]
    assert bits[:8] == want_special
    ref = np.tanh(x[8:].astype(np.float64))
    assert np.all(np.abs(got[8:] - ref) <= 2e-6 * np.abs(ref) + 1e-45)


def test_directed_rounding_to_half(code_objects):
    """F2F.F16.F32/F2FP.PACK_AB with .RZ/.RM/.RP and I2F.F16.RZ/.RM/.RP against exact arithmetic,
    overflow past 65504, the subnormal range and signed zeros included."""
    from fractions import Fraction as F
    dev = Device(code_objects["half_rounding"])
    rng = np.random.default_rng(9)
    n = 64
    a = (rng.standard_normal(n) * 2.0 ** rng.integers(-26, 17, n)).astype(np.float32)
    a[:6] = [65519.0, -70000.0, 1e-9, -1e-9, 3e-5, -0.0]
    k = rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
    k[:4] = [2049, -2049, 65520, 70001]
    po = dev.put(np.zeros(6 * n, np.float16))
    dev.launch("half_rounding", 1, n, "<QQQ", dev.put(a), dev.put(k), po)
    got = dev.get(po, np.zeros(6 * n, np.float16)).astype(np.float64).reshape(n, 6)
    for i in range(n):
        x, m = F(float(a[i])), F(int(k[i]))
        want = [_directed(x, mode, np.float16) for mode in ("rz", "rd", "ru")]
        want += [_directed(m, mode, np.float16) for mode in ("rz", "rd", "ru")]
        assert got[i].tolist() == want, (i, a[i], k[i])
    assert np.signbit(got[5, :3]).all()                  # -0.0 stays negative


def test_reductions_over_lane_groups(code_objects):
    """__reduce_*_sync with masks that differ between lanes (cooperative_groups tiles): R2UR's
    uniformity predicate, WARPSYNC.EXCLUSIVE and REDUX over each group of equal masks."""
    dev = Device(code_objects["group_reduce"])
    rng = np.random.default_rng(10)
    v = rng.integers(-1000, 1000, 64).astype(np.int32)
    masks = np.array([0xF << (l & ~3) for l in range(32)] + [0xFFFFFFFF] * 32, np.uint32)
    po = dev.put(np.zeros(3 * 64, np.int32))
    dev.launch("group_reduce", 1, 64, "<QQQ", dev.put(v), dev.put(masks), po)
    got = dev.get(po, np.zeros(3 * 64, np.int32)).reshape(64, 3).tolist()
    for t in range(64):
        w, lane = t & ~31, t & 31
        group = lambda m: [int(v[w + j]) for j in range(32) if int(m) >> j & 1]
        m16 = 0xFFFF if lane < 16 else 0xFFFF0000
        assert got[t] == [s32(sum(group(m16))), min(group(0xFF << (lane & ~7))), max(group(masks[t]))], t


def test_bf16_min_max_and_compares(code_objects):
    """HMNMX2.BF16_V2 (.NAN: any NaN gives 0x7fff; plain: a NaN yields the other operand) and
    bf16 comparisons of both halves (HSET2.BF16_V2 on sm_90)."""
    dev = Device(code_objects["bf16_minmax"])
    rng = np.random.default_rng(11)
    n = 32
    f = rng.standard_normal(4 * n).astype(np.float32)
    words = (f.view(np.uint32) >> 16).astype(np.uint16)
    words[[0, 5, 6, 7, 9]] = 0x7FC0                         # NaNs in some halves
    words[[16, 18]] = words[[17, 19]]                       # equal halves
    a, b = words.reshape(n, 4)[:, :2].copy(), words.reshape(n, 4)[:, 2:].copy()
    po, pp = dev.put(np.zeros(4 * n, np.uint16)), dev.put(np.zeros(n, np.int32))
    dev.launch("bf16_minmax", 1, n, "<QQQQ", dev.put(a), dev.put(b), po, pp)
    got = dev.get(po, np.zeros(4 * n, np.uint16)).reshape(n, 4).tolist()
    gp = dev.get(pp, np.zeros(n, np.int32)).tolist()
    val = lambda w: float(np.uint32(int(w) << 16).view(np.float32))
    for i in range(n):
        x, y = [val(w) for w in a[i]], [val(w) for w in b[i]]
        bits = lambda v: int((np.float32(v).view(np.uint32) >> 16))
        want = []
        for k in range(2):
            want.append(0x7FFF if np.isnan(x[k]) or np.isnan(y[k]) else bits(max(x[k], y[k])))
        for k in range(2):
            nans = [v for v in (x[k], y[k]) if np.isnan(v)]
            want.append(0x7FFF if len(nans) == 2 else bits(y[k] if np.isnan(x[k]) else x[k] if np.isnan(y[k]) else min(x[k], y[k])))
        assert got[i] == want, i
        gt = all(p > q for p, q in zip(x, y))
        le = all(p <= q for p, q in zip(x, y))
        eq = all(p == p for p in x)
        assert gp[i] == gt + 2 * le + 4 * eq, i
