"""Device runtime services in the binary route: malloc/free in kernels lift to the allocator in
the translated code (cass_cc/passes/lift/device_runtime.py) on the heap libcassrt gives each code object,
sized by cudaDeviceSetLimit; cooperative launches (cudaLaunchCooperativeKernel,
cudaLaunchKernelEx's cooperative attribute) get the grid-sync workspace the SASS reads from
c[0x0][0x8c/0x90]. The realworld programs device_malloc, device_malloc_calls (malloc/free in
__noinline__ device functions, sizes across the size classes) and grid_sync cover the rest."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cass_cc.emu import CodeObject, Memory, launch
from cass_cc.passes.lift.device_runtime import HEAD_BYTES

from binroute import ROOT, cass_nvcc, cass_run

DATA = Path(__file__).resolve().parent / "data" / "device_runtime"
KERNEL = """
__global__ void grab(unsigned long long *out, unsigned long long size) {
  void *p = malloc(size);
  out[threadIdx.x] = (unsigned long long)p;
  if (threadIdx.x % 2) free(p);
}
"""


@pytest.fixture(scope="module")
def grab_code_object(tmp_path_factory) -> bytes:
    work = tmp_path_factory.mktemp("device-heap")
    (work / "grab.cu").write_text(KERNEL)
    proc = subprocess.run([sys.executable, str(ROOT / "bin" / "cass-cc"), "translate", "grab.cu", "-o", "out"],
                          cwd=work, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return (work / "out" / "grab.hsaco").read_bytes()


def _run_grab(code: bytes, heap_bytes: int, size: int, threads: int = 8):
    mem = Memory()
    co = CodeObject.load(code, mem)
    heap = 0
    if heap_bytes:
        heap = mem.allocate(heap_bytes)
        mem.view(heap, heap_bytes)[:] = 0
        address, _ = co.globals["__cass_device_heap"]
        mem.view(address, 16)[:] = np.frombuffer(struct.pack("<QQ", heap, heap_bytes), np.uint8)
    out = mem.allocate(8 * threads)
    name = next(iter(co.kernels))
    launch(co, name, (1, 1, 1), (threads, 1, 1), struct.pack("<QQ", out, size), memory=mem)
    return heap, mem.view(out, 8 * threads).view(np.uint64).tolist(), (co, name, out, mem)


def test_malloc_without_a_heap_returns_null(grab_code_object):
    _, pointers, _ = _run_grab(grab_code_object, 0, 64)
    assert pointers == [0] * 8


def test_malloc_gives_distinct_aligned_blocks_inside_the_heap(grab_code_object):
    heap, pointers, _ = _run_grab(grab_code_object, 1 << 20, 100)
    assert len(set(pointers)) == 8
    assert all(p % 16 == 0 and heap < p < heap + (1 << 20) for p in pointers)
    assert min(b - a for a, b in zip(sorted(pointers), sorted(pointers)[1:])) >= 100


@pytest.mark.parametrize("size", [0, 17, 120, 1000, 4000, 16000])
def test_blocks_hold_the_request_and_their_header(grab_code_object, size):
    """A block is the least power of two >= size + 16 bytes (at least 32): a request just past a
    power of two takes the next one up. Blocks that were a power of two smaller (sizes 120, 1000,
    4000, 16000) made a thread's writes run into the next block's header, whose class free() then
    followed outside the heap (device_malloc_calls faulted in the allocator)."""
    heap, pointers, _ = _run_grab(grab_code_object, 1 << 20, size)
    step = min(b - a for a, b in zip(sorted(pointers), sorted(pointers)[1:]))
    assert step >= size + 16 and step == max(32, 1 << (size + 15).bit_length())
    assert all(heap < p and p + size <= heap + (1 << 20) for p in pointers)


def test_free_of_a_pointer_into_a_block_pushes_nothing(tmp_path):
    """free() of an address inside a block (whose 'header' is user data) leaves the free lists
    alone instead of following a class read from the data."""
    (tmp_path / "inner.cu").write_text("""#include <cstdio>
__global__ void k(int *o) {
  long long *p = (long long *)malloc(64);
  p[0] = 0x123456789abcdLL; p[1] = -1;     // what free(p + 2) takes for a block header
  free(p + 2);
  long long *q = (long long *)malloc(64);  // p is still taken: q is a fresh block
  o[threadIdx.x] = q != p && q != p + 2 && p[0] == 0x123456789abcdLL;
  free(q); free(p);
}
int main() { int *d, h[32], ok = 1; cudaMalloc(&d, sizeof h); k<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; ++i) ok &= h[i] == 1;
  printf("%s\\n", ok && cudaDeviceSynchronize() == cudaSuccess ? "PASS" : "FAIL"); return !ok; }
""")
    built = cass_nvcc("-O2", "--cass-route=binary", "-o", tmp_path / "inner", tmp_path / "inner.cu", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    run = cass_run(tmp_path / "inner")
    assert run.returncode == 0 and run.stdout.strip() == "PASS", run.stdout + run.stderr


def test_free_blocks_are_reused_for_the_same_size(grab_code_object):
    heap, first, (co, name, out, mem) = _run_grab(grab_code_object, 1 << 20, 100)
    launch(co, name, (1, 1, 1), (8, 1, 1), struct.pack("<QQ", out, 100), memory=mem)
    second = mem.view(out, 64).view(np.uint64).tolist()
    freed = {p for i, p in enumerate(first) if i % 2}
    assert freed <= set(second)                 # the four odd threads' blocks came back


def test_request_larger_than_the_heap_returns_null(grab_code_object):
    heap, pointers, (co, name, out, mem) = _run_grab(grab_code_object, 1 << 20, 2 << 20)
    assert pointers == [0] * 8
    launch(co, name, (1, 1, 1), (8, 1, 1), struct.pack("<QQ", out, 100), memory=mem)
    assert all(heap < p < heap + (1 << 20) for p in mem.view(out, 64).view(np.uint64).tolist())


def test_used_up_heap_reuses_blocks_other_lanes_freed(grab_code_object):
    """Eight 128-byte blocks fill the heap; the odd lanes free theirs; then lane 0, whose own
    list is empty, gets one of them."""
    heap, first, (co, name, out, mem) = _run_grab(grab_code_object, HEAD_BYTES + 8 * 128, 100)
    assert 0 not in first
    launch(co, name, (1, 1, 1), (1, 1, 1), struct.pack("<QQ", out, 100), memory=mem)
    assert mem.view(out, 8).view(np.uint64)[0] in {p for i, p in enumerate(first) if i % 2}


def test_heap_limit_and_cooperative_launch_attribute(tmp_path):
    exe = tmp_path / "heap_limit"
    built = cass_nvcc("-O2", "--cass-route=binary", "-o", exe, DATA / "heap_limit.cu", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    run = cass_run(exe)
    assert run.returncode == 0 and run.stdout.strip() == "PASS", run.stdout + run.stderr


def test_malloc_printf_and_free_in_one_kernel(tmp_path):
    """Each CALL.ABS site is lowered to the function its register was loaded for (malloc, vprintf,
    free: three c[0x4] words of one cubin)."""
    (tmp_path / "mixed.cu").write_text("""#include <cstdio>
__global__ void k(int *o) {
  int *p = (int *)malloc(8); p[0] = threadIdx.x * 3;
  printf("t %d %d\\n", threadIdx.x, p[0]);
  o[threadIdx.x] = p[0]; free(p);
}
int main() { int *d, h[4]; cudaMalloc(&d, sizeof h); k<<<1, 4>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost); printf("%d %d\\n", h[1], h[3]); return 0; }
""")
    built = cass_nvcc("-O2", "--cass-route=binary", "-o", tmp_path / "mixed", tmp_path / "mixed.cu", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    run = cass_run(tmp_path / "mixed")
    want = ["t 0 0", "t 1 3", "t 2 6", "t 3 9", "3 9"]
    assert run.returncode == 0 and run.stdout.splitlines() == want, run.stdout + run.stderr


@pytest.mark.parametrize("name", ["device_malloc", "device_malloc_calls", "grid_sync"])
def test_source_route(name, tmp_path):
    """The same programs through hipcc: device malloc from cass_device_heap.h, which hipify adds
    to a TU that allocates (ROCm 5.2's own cannot be selected for gfx11), and HIP's grid barrier
    (ds_gws_barrier) on the emulator."""
    folder = ROOT / "tests" / "programs" / "realworld" / name
    exe = tmp_path / name
    built = cass_nvcc("-O2", "--cass-route=source", "-o", exe, *sorted(folder.glob("*.cu")), cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    run = cass_run(exe)
    assert run.returncode == 0 and run.stdout.rstrip().endswith("PASS"), run.stdout + run.stderr


def test_the_layout_is_the_headers():
    """cass_device_heap.h defines the layout once: libcassrt's C includes it, and the lifter's
    allocator reads its #defines (cass_cc.runtime.device_heap)."""
    from cass_cc.passes.lift import device_runtime
    from cass_cc.runtime import device_heap
    layout = device_heap.read_defines(device_heap.HEADER.read_text())
    assert layout["CASS_HEAP_HEAD"] == HEAD_BYTES == 16 + 8 * 40 * 32
    assert device_runtime.HEAP == layout["CASS_HEAP_VARIABLE"] == "__cass_device_heap"
    assert device_heap.MAX_SHIFT == device_heap.MIN_SHIFT + device_heap.CLASSES - 1 == 44
    launch_c = (device_heap.HEADER.parent / "cassrt" / "cuda_launch.c").read_text()
    assert '#include "../cass_device_heap.h"' in launch_c and "CASS_HEAP_SIZE(limit)" in launch_c
    assert device_heap.read_defines("#define CASS_HEAP_A (1ull << 4) /* x */\n#define CASS_HEAP_F(n) (n)\n"
                                    "#define CASS_HEAP_B (CASS_HEAP_A + 2)\n") == {"CASS_HEAP_A": 16, "CASS_HEAP_B": 18}
    with pytest.raises(ValueError, match="CASS_HEAP_C"):
        device_heap.read_defines("#define CASS_HEAP_C sizeof(long)\n")
