"""Forms other parts of the project found the lifter refusing: %warpid/%smid/%nsmid/%nwarpid
(S2R SR_VIRTID, SR_VIRTUALSMID, SR_VIRTCFG, c[0x0][0x10c]), %dynamic_smem_size (c[0x0][0x2c]),
__hfma2_relu (HFMA2.RELU on half and bfloat16 pairs), assert() without printf (a lone
__assertfail call) and predicates unpacked from one byte of a register (R2P PR, R4.B1), each compiled by nvcc, lifted, and run on the RDNA3 emulator."""

from __future__ import annotations

import ctypes
import shutil
import struct
import numpy as np
import pytest

from tests.lift.lifted import code_objects

pytestmark = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")

SOURCE = r"""
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cassert>
extern "C" __global__ void ids(unsigned *o)
{
    unsigned sm, nsm, warp, nwarp;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsm));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nwarp));
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned *p = o + 4 * (t + blockIdx.x * blockDim.x * blockDim.y * blockDim.z);
    p[0] = sm; p[1] = nsm; p[2] = warp; p[3] = nwarp;
}
extern "C" __global__ void smem(unsigned *o)
{
    extern __shared__ unsigned dynamic[];
    unsigned size;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(size));
    dynamic[threadIdx.x] = size + threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = dynamic[(threadIdx.x + 1) % blockDim.x];
}
extern "C" __global__ void only_assert(const int *in, int *out)
{
    int v = in[threadIdx.x];
    assert(v >= 0);
    out[threadIdx.x] = 2 * v;
}
extern "C" __global__ void bit_counts(int *out, const int *in, int n)
{
    // a __syncthreads_count per bit: ptxas unpacks the 32 bits into predicates a byte at a time
    int sum = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        int value = in[i];
        for (int bit = 0; bit < 32; bit++)
            sum += __syncthreads_count(value & (1 << bit)) << bit;
    }
    if (threadIdx.x == 0) *out = sum;
}
extern "C" __global__ void relu_h(const __half2 *a, const __half2 *b, const __half2 *c, __half2 *o)
{ int i = threadIdx.x; o[i] = __hfma2_relu(a[i], b[i], c[i]); }
extern "C" __global__ void relu_bf(const __nv_bfloat162 *a, const __nv_bfloat162 *b, const __nv_bfloat162 *c, __nv_bfloat162 *o)
{ int i = threadIdx.x; o[i] = __hfma2_relu(a[i], b[i], c[i]); }
"""


@pytest.fixture(scope="module", params=["sm_80", "sm_90"])
def lifted(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("loose_ends")
    source = folder / "loose_ends.cu"
    source.write_text(SOURCE)
    return code_objects(source, request.param, folder)


class Device:
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

    def run(self, grid, block, *pointers: int, dynamic_lds: int = 0) -> None:
        from cass_cc.emu import launch
        (name,) = self.co.kernels
        launch(self.co, name, grid=grid, block=block, kernarg=struct.pack(f"<{len(pointers)}Q", *pointers),
               memory=self.mem, dynamic_lds=dynamic_lds)


def test_warp_and_sm_ids_keep_cuda_bounds(lifted):
    """warpid is the warp's index in its (3-D) block, below nwarpid; smid is below nsmid."""
    dev = Device(lifted["ids"])
    block, grid = (8, 6, 2), 2                       # 96 threads: three waves per block
    threads = 96 * grid
    out = np.zeros(4 * threads, np.uint32)
    addr = dev.put(out)
    dev.run((grid, 1, 1), block, addr)
    got = dev.get(addr, out).reshape(threads, 4)
    flat = np.arange(threads) % 96
    assert (got[:, 0] < got[:, 1]).all()
    assert (got[:, 2] == flat // 32).all()
    assert (got[:, 2] < got[:, 3]).all()            # ptxas may fold %nwarpid (64 on sm_80)


@pytest.mark.parametrize("dynamic", [128, 4096])
def test_dynamic_smem_size_is_the_launch_size(lifted, dynamic):
    """%dynamic_smem_size (c[0x0][0x2c]) is the dynamic shared memory the launch asked for."""
    dev = Device(lifted["smem"])
    out = np.zeros(32, np.uint32)
    addr = dev.put(out)
    dev.run((1, 1, 1), (32, 1, 1), addr, dynamic_lds=dynamic)
    assert (dev.get(addr, out) == dynamic + (np.arange(32) + 1) % 32).all()


def test_assert_without_printf(lifted):
    """A kernel whose only call is __assertfail lifts (no function pointer) and runs; a failed
    assert sets the code object's flag (libcassrt turns it into cudaErrorAssert) and ends its wave
    without a trap (on ROCm a trap ends the process). The other waves run on."""
    from cass_cc.passes.lift.printf import ASSERT_FLAG
    dev = Device(lifted["only_assert"])
    flag_address, flag_size = dev.co.globals[ASSERT_FLAG]
    flag = np.zeros(1, np.int32)
    good = np.arange(64, dtype=np.int32)
    out = np.zeros(64, np.int32)
    src, dst = dev.put(good), dev.put(out)
    dev.run((1, 1, 1), (64, 1, 1), src, dst)
    assert (dev.get(dst, out) == 2 * good).all()
    assert flag_size == 4 and dev.get(flag_address, flag)[0] == 0
    bad = dev.put(np.where(good == 9, -1, good).astype(np.int32))
    dev.run((1, 1, 1), (64, 1, 1), bad, dst)     # lane 9 of the first wave fails
    assert dev.get(flag_address, flag)[0] == 1
    assert (dev.get(dst, out)[32:] == 2 * good[32:]).all()


def test_predicates_from_each_byte(lifted):
    """Every bit of every input counts once: R2P of bytes 1, 2 and 3 sets P0..P6 from those bytes."""
    dev = Device(lifted["bit_counts"])
    values = np.random.default_rng(3).integers(-2**31, 2**31, 200, dtype=np.int64).astype(np.int32)
    out = np.zeros(1, np.int32)
    dst, src = dev.put(out), dev.put(values)
    dev.run((1, 1, 1), (64, 1, 1), dst, src, len(values))
    want = sum(((values.view(np.uint32) >> bit) & 1).sum() << bit for bit in range(32)) & 0xFFFFFFFF
    assert dev.get(dst, out)[0].view(np.uint32) == np.uint32(want)


def _round_bf16(x: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bits, to nearest even."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def _relu_reference(bits: np.ndarray, infinity: int) -> np.ndarray:
    magnitude = bits & 0x7FFF
    out = np.where(bits & 0x8000, 0, bits)
    return np.where(magnitude > infinity, 0x7FFF, out).astype(np.uint16)


def _operands(kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Multiples of 1/16 in [-4, 4] (a*b+c is exact in float32, so one rounding is the reference),
    then the special lanes: NaN inputs, inf-inf, inf, a -0.0 result, a zero result."""
    rng = np.random.default_rng(7)
    a, b, c = (rng.integers(-64, 65, 64).astype(np.float32) / 16 for _ in range(3))
    a[:6] = [np.nan, np.inf, np.inf, -0.0, 3.0, -np.nan]
    b[:6] = [1.0, 1.0, 2.0, 1.0, 2.0, 1.0]
    c[:6] = [0.0, -np.inf, 1.0, -0.0, -6.0, 1.0]
    if kind == "h":
        return tuple(x.astype(np.float16).view(np.uint16) for x in (a, b, c))
    return tuple(_round_bf16(x) for x in (a, b, c))


@pytest.mark.parametrize("kind", ["h", "bf"])
def test_hfma2_relu(lifted, kind):
    dev = Device(lifted[f"relu_{kind}"])
    a, b, c = _operands(kind)
    out = np.zeros(64, np.uint16)
    pointers = [dev.put(x) for x in (a, b, c, out)]
    dev.run((1, 1, 1), (32, 1, 1), *pointers)
    got = dev.get(pointers[-1], out)
    if kind == "h":
        f = [x.view(np.float16).astype(np.float32) for x in (a, b, c)]
        with np.errstate(invalid="ignore"):
            want = _relu_reference((f[0] * f[1] + f[2]).astype(np.float16).view(np.uint16), 0x7C00)
    else:
        f = [(x.astype(np.uint32) << 16).view(np.float32) for x in (a, b, c)]
        with np.errstate(invalid="ignore"):
            want = _relu_reference(_round_bf16(f[0] * f[1] + f[2]), 0x7F80)
    assert [hex(v) for v in got] == [hex(v) for v in want]
