"""Warp-heavy programs (tests/programs/realworld, sass) built by cass-nvcc for gfx1100 and gfx942
in one bundle and run under cass-run as a gfx942 device: two CUDA warps share each wave64
(lift/warp_model.py), and the outputs must still be the H200's (reference.txt checksums). Kernels
whose warps wait for each other run one warp per wave instead; the source route builds them for
gfx90a too (cass_wave64.h)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "tests" / "programs"
pytestmark = pytest.mark.slow

WARP_PROGRAMS = ["realworld/warp_collectives", "realworld/warp_scan", "realworld/cg_tile_sizes",
                 "realworld/cg_tile_reduce", "realworld/cg_coalesced", "realworld/coop_groups",
                 "realworld/attention_mma", "realworld/grid_sync", "realworld/wmma_gemm",
                 "realworld/simd_intrinsics", "sass/warp_ops", "sass/warp_masks", "sass/warp_blocks",
                 "sass/mma_shapes"]


def _tool(name: str, *args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "bin" / name), *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=600, env=dict(os.environ))


def _build(folder: Path, out: Path, archs: str) -> subprocess.CompletedProcess:
    flags = (folder / "flags.txt").read_text().split() if (folder / "flags.txt").is_file() else []
    return _tool("cass-nvcc", "-O2", "-arch=sm_80", f"--cass-offload-arch={archs}", *flags, "-o", out,
                 *sorted(folder.glob("*.cu")), *sorted(folder.glob("*.cpp")), cwd=out.parent)


def _checksum(text: str) -> str | None:
    lines = [line for line in text.splitlines() if line.startswith("checksum:")]
    return lines[-1].split(":", 1)[1].strip() if lines else None


@pytest.mark.parametrize("program", WARP_PROGRAMS)
def test_warp_program_on_gfx942(program, tmp_path):
    folder = PROGRAMS / program
    exe = tmp_path / folder.name
    built = _build(folder, exe, "gfx1100,gfx942")
    assert built.returncode == 0, built.stderr
    run = _tool("cass-run", "--emu-arch", "gfx942", exe, cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.rstrip().endswith("PASS"), run.stdout + run.stderr
    assert _checksum(run.stdout) == _checksum((folder / "reference.txt").read_text())


@pytest.mark.parametrize("program", ["realworld/cg_big_tiles", "realworld/barrier_phases",
                                     "realworld/pipeline_block_tiles", "realworld/atomic_contention"])
def test_warps_waiting_for_each_other_run_one_warp_per_wave_on_gfx942(program, tmp_path):
    """Warps of a block that wait for each other (a 128-thread cooperative-groups tile syncing
    through a polled shared word, cuda::barrier phases with one warp arriving for all, a pipeline
    producer arriving where a consumer waits, a spin lock taken by lane 0 of every warp) would
    hang two to a wave: each kernel runs one warp per wave (lanes 32-63 idle) and prints the
    H200's checksum."""
    folder = PROGRAMS / program
    exe = tmp_path / folder.name
    built = _build(folder, exe, "gfx942")
    assert built.returncode == 0, built.stderr
    run = _tool("cass-run", exe, cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.rstrip().endswith("PASS"), run.stdout + run.stderr
    assert _checksum(run.stdout) == _checksum((folder / "reference.txt").read_text())


SPIN_LOCK_PROGRAM = r"""#include <cstdio>
__global__ void locked_sum(int *lock, int *sum)
{
    if (threadIdx.x % 32 == 0) {
        while (atomicCAS(lock, 0, 1) != 0) { }
        *sum += 1;
        __threadfence();
        atomicExch(lock, 0);
    }
}

int main()
{
    int *lock, *sum, got = 0;
    cudaMalloc(&lock, sizeof(int));
    cudaMalloc(&sum, sizeof(int));
    cudaMemset(lock, 0, sizeof(int));
    cudaMemset(sum, 0, sizeof(int));
    locked_sum<<<3, 128>>>(lock, sum);
    cudaMemcpy(&got, sum, sizeof(int), cudaMemcpyDeviceToHost);
    printf("%d\n", got);
    return got == 12 ? 0 : 1;
}
"""


def test_spin_lock_with_a_constant_moved_by_hfma2_runs_one_warp_per_wave(tmp_path):
    """ptxas moves the lock's compare value 0 into its register with HFMA2.MMA (-0 * 0 + 0), not
    MOV, in this kernel: the lock is still a spin loop (its data is the same each time round), so
    the kernel runs one warp per wave on gfx942; two warps to a wave hung (the emulator stopped it)."""
    source = tmp_path / "lock.cu"
    source.write_text(SPIN_LOCK_PROGRAM)
    exe = tmp_path / "lock"
    built = _tool("cass-nvcc", "-O2", "-arch=sm_80", "--cass-offload-arch=gfx942", "-o", exe, source, cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    run = _tool("cass-run", exe, cwd=tmp_path)
    assert run.returncode == 0 and run.stdout == "12\n", run.stdout + run.stderr


LOCK_BY_THREAD_ZERO_PROGRAM = r"""#include <cstdio>
__device__ void lock(int *l) { while (atomicCAS(l, 0, 1) != 0) { } }
__device__ void unlock(int *l) { atomicExch(l, 0); }

// A block's total added under a global lock that the threads with threadIdx.x == 0 take (one in a
// one-dimensional block, one a row in a two-dimensional one, where row 0 adds the total).
__global__ void block_totals(int *l, int *total, const int *in)
{
    __shared__ int part[1024];
    int t = threadIdx.y * blockDim.x + threadIdx.x, size = blockDim.x * blockDim.y;
    part[t] = in[blockIdx.x * size + t];
    __syncthreads();
    for (int s = size / 2; s > 0; s /= 2) {
        if (t < s)
            part[t] += part[t + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        lock(l);
        *total += threadIdx.y == 0 ? part[0] : 0;
        __threadfence();
        unlock(l);
    }
}

int main()
{
    const int n = 4096;
    static int host[n];
    int *in, *l, *total, got = 0, want = 0;
    for (int i = 0; i < n; ++i) { host[i] = (i * 7) % 13; want += host[i]; }
    cudaMalloc(&in, sizeof host);
    cudaMalloc(&l, sizeof(int));
    cudaMalloc(&total, sizeof(int));
    cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
    cudaMemset(l, 0, sizeof(int));
    for (dim3 block : {dim3(256), dim3(1024), dim3(32, 32), dim3(32, 16)}) {
        cudaMemset(total, 0, sizeof(int));
        block_totals<<<n / (block.x * block.y), block>>>(l, total, in);
        cudaError_t e = cudaGetLastError();
        cudaMemcpy(&got, total, sizeof(int), cudaMemcpyDeviceToHost);
        printf("(%u, %u): %s %d of %d\n", block.x, block.y, cudaGetErrorName(e), got, want);
    }
    return 0;
}
"""


def test_a_lock_thread_zero_takes_runs_one_dimensional_blocks_of_1024_on_gfx942(tmp_path):
    """Thread 0 of each block takes a global lock: the kernel runs one warp per wave, whose blocks
    hold 512 threads at most; its waits are by threadIdx.x == 0 alone, so a one-dimensional block
    of 1024 runs two warps to a wave (one thread of it spins). A (32, 32) block has 32 threads
    with threadIdx.x == 0, in 32 warps: refused, loudly, as before; (32, 16) runs one warp per
    wave. (The H200 runs all four; the device's maxThreadsPerBlock, 1024, is what programs ask.)"""
    source = tmp_path / "lock.cu"
    source.write_text(LOCK_BY_THREAD_ZERO_PROGRAM)
    exe = tmp_path / "lock"
    built = _tool("cass-nvcc", "-O2", "-arch=sm_80", "--cass-offload-arch=gfx942", "-o", exe, source, cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    run = _tool("cass-run", exe, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines() == ["(256, 1): cudaSuccess 24570 of 24570", "(1024, 1): cudaSuccess 24570 of 24570",
                                       "(32, 32): cudaErrorInvalidConfiguration 0 of 24570",
                                       "(32, 16): cudaSuccess 24570 of 24570"], run.stdout + run.stderr
    assert "blocks hold at most 512 threads (one-dimensional blocks up to 1024); this launch asks for 1024" in run.stderr


GRAPH_PROGRAM = r"""#include <cstdio>
// Lane 0 of every warp takes a global lock: on wave64 the kernel runs one warp per wave.
__global__ void warp_count(int *lock, int *count)
{
    if (threadIdx.x % 32 == 0) {
        while (atomicCAS(lock, 0, 1) != 0) { }
        *count += threadIdx.x / 32 + 1;
        __threadfence();
        atomicExch(lock, 0);
    }
}

int main()
{
    int *lock, *count, got = 0;
    cudaMalloc(&lock, sizeof(int));
    cudaMalloc(&count, sizeof(int));
    cudaMemset(lock, 0, sizeof(int));
    cudaMemset(count, 0, sizeof(int));
    cudaGraph_t graph;
    cudaGraphCreate(&graph, 0);
    void *args[] = {&lock, &count};
    cudaKernelNodeParams p = {};
    p.func = (void *)warp_count;
    p.gridDim = dim3(2);
    p.blockDim = dim3(96);
    p.kernelParams = args;
    cudaGraphNode_t node;
    cudaGraphAddKernelNode(&node, graph, nullptr, 0, &p);
    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphLaunch(exec, 0);
    cudaError_t e = cudaStreamSynchronize(0);
    cudaMemcpy(&got, count, sizeof(int), cudaMemcpyDeviceToHost);
    printf("%s %d\n", cudaGetErrorName(e), got);
    p.gridDim = dim3(3);
    p.blockDim = dim3(64);
    cudaGraphExecKernelNodeSetParams(exec, node, &p);
    cudaGraphLaunch(exec, 0);
    e = cudaStreamSynchronize(0);
    cudaMemcpy(&got, count, sizeof(int), cudaMemcpyDeviceToHost);
    printf("%s %d\n", cudaGetErrorName(e), got);
    return 0;
}
"""


def test_a_graph_kernel_node_runs_one_warp_per_wave_on_gfx942(tmp_path):
    """A kernel node of a graph launches as a launch does: the lock taken by lane 0 of every warp
    runs one warp per wave, in the node as made and after cudaGraphExecKernelNodeSetParams (the
    node launched it with CUDA's geometry and no blockDim argument, and counted 6, not 12). The
    H200 prints the same two lines."""
    source = tmp_path / "graph.cu"
    source.write_text(GRAPH_PROGRAM)
    exe = tmp_path / "graph"
    built = _tool("cass-nvcc", "-O2", "-arch=sm_80", "--cass-offload-arch=gfx942", "-o", exe, source, cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    run = _tool("cass-run", exe, cwd=tmp_path)
    assert run.returncode == 0 and run.stdout == "cudaSuccess 12\ncudaSuccess 21\n", run.stdout + run.stderr


def test_prebuilt_program_runs_one_warp_per_wave_on_gfx942(tmp_path):
    """A plain nvcc build (its kernels translated when it runs, launched through the driver API):
    the spin lock taken by lane 0 of every warp runs one warp per wave on an emulated gfx942."""
    import shutil
    if shutil.which("nvcc") is None:
        pytest.skip("nvcc not installed")
    folder = PROGRAMS / "realworld" / "atomic_contention"
    exe = tmp_path / "plain"
    subprocess.run(["nvcc", "-O2", "-arch=sm_80", "-o", str(exe), *map(str, sorted(folder.glob("*.cu")))],
                   check=True, capture_output=True)
    run = _tool("cass-run", "--emu-arch", "gfx942", exe, cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.rstrip().endswith("PASS"), run.stdout + run.stderr
    assert _checksum(run.stdout) == _checksum((folder / "reference.txt").read_text())


@pytest.mark.parametrize("program", ["managed_saxpy", "cg_tile_sizes", "device_malloc_calls"])
def test_source_route_builds_for_gfx90a(program, tmp_path):
    """The source route builds a TU with or without warp operations for a wave64 target (hipcc
    knows gfx90a; two CUDA warps to a wave), and it runs on an emulated gfx90a with the H200's
    checksum. device_malloc_calls: the device heap's free list per lane took lanes 32-63 to the
    next size class's lists (cass_device_heap.h), and reused blocks overlapped."""
    folder = PROGRAMS / "realworld" / program
    exe = tmp_path / program
    built = _tool("cass-nvcc", "-O2", "-arch=sm_80", "--cass-route=source", "--cass-offload-arch=gfx90a", "-o", exe,
                  *sorted(folder.glob("*.cu")), cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    run = _tool("cass-run", exe, cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.rstrip().endswith("PASS"), run.stdout + run.stderr
    assert _checksum(run.stdout) == _checksum((folder / "reference.txt").read_text())


TEXTURE_PROGRAMS = ["texture_1d", "texture_2d", "texture_descs", "texture_filter_weights", "texture_formats",
                    "texture_gather", "texture_layered", "texture_modes", "texture_object", "surfaces"]
# gfx90a shares the software path (hipcc builds it): the programs that use what its sampler lacks
# (gather4, linear filtering of floats) and a surface; all ten pass there too (docs/wave64.md).
GFX90A_TEXTURE_PROGRAMS = ["texture_gather", "texture_filter_weights", "surfaces"]


@pytest.mark.parametrize("program, arch", [(p, "gfx942") for p in TEXTURE_PROGRAMS] +
                         [(p, "gfx90a") for p in GFX90A_TEXTURE_PROGRAMS])
def test_source_route_textures_in_software_on_cdna(program, arch, tmp_path):
    """gfx942 has no image instructions (ROCm refuses texture objects on MI300, as the emulated
    runtime does there) and gfx90a's lack gather4 and linear filtering of floats: the source
    route's texture and surface objects are the binary route's descriptors, fetched in software
    with CUDA's rules (cass_texture_software.h), and the programs print the H200's checksum
    (gfx942 through clang-22, gfx90a through hipcc)."""
    folder = PROGRAMS / "realworld" / program
    exe = tmp_path / program
    flags = (folder / "flags.txt").read_text().split() if (folder / "flags.txt").is_file() else []
    built = _tool("cass-nvcc", "-O2", "-arch=sm_80", "--cass-route=source", f"--cass-offload-arch={arch}", *flags,
                  "-o", exe, *sorted(folder.glob("*.cu")), cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    run = _tool("cass-run", exe, cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.rstrip().endswith("PASS"), run.stdout + run.stderr
    reference = folder / "reference.txt"
    if reference.is_file():
        assert _checksum(run.stdout) == _checksum(reference.read_text())


def _source_build(source: Path, out: Path, archs: str, *flags: str) -> subprocess.CompletedProcess:
    return _tool("cass-nvcc", "-O2", "-arch=sm_80", "--cass-route=source", f"--cass-offload-arch={archs}", *flags,
                 "-o", out, source, cwd=out.parent)


@pytest.mark.parametrize("program, arch", [
    ("realworld/barrier_phases", "gfx942"), ("realworld/pipeline_block_tiles", "gfx942"),
    ("realworld/atomic_contention", "gfx942"), ("realworld/cg_big_tiles", "gfx942"),
    ("realworld/barrier_phases", "gfx90a")])
def test_source_route_runs_warps_that_wait_one_warp_per_wave(program, arch, tmp_path):
    """The source route (clang-22 for gfx942, hipcc 5.2 for gfx90a) hung on these two warps to a
    wave: `cass-cc warp-waits` finds the waiting kernels in nvcc's SASS, the unit is compiled one
    CUDA warp per wave (cass_wave_per_warp.h) and its launches get work-groups of twice CUDA's
    blockDim.x (cass_wave_per_warp.c); the H200's checksum comes out."""
    folder = PROGRAMS / program
    exe = tmp_path / folder.name
    built = _source_build(*sorted(folder.glob("*.cu")), exe, arch)
    assert built.returncode == 0, built.stderr
    run = _tool("cass-run", exe, cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.rstrip().endswith("PASS"), run.stdout + run.stderr
    assert _checksum(run.stdout) == _checksum((folder / "reference.txt").read_text())


def test_source_route_graph_kernel_node_runs_one_warp_per_wave_on_the_device_present(tmp_path):
    """One source build for gfx1100 and gfx942: a graph kernel node (made, then updated through
    cudaGraphExecKernelNodeSetParams) of a kernel whose warps wait runs one warp per wave on a
    gfx942 device and as it is on a gfx1100 one; both print the H200's two lines."""
    source = tmp_path / "graph.cu"
    source.write_text(GRAPH_PROGRAM)
    exe = tmp_path / "graph"
    built = _source_build(source, exe, "gfx1100,gfx942")
    assert built.returncode == 0, built.stderr
    for arch in ("gfx942", "gfx1100"):
        run = _tool("cass-run", "--emu-arch", arch, exe, cwd=tmp_path)
        assert run.returncode == 0 and run.stdout == "cudaSuccess 12\ncudaSuccess 21\n", arch + run.stdout + run.stderr


def test_source_route_refuses_loudly_what_one_warp_per_wave_cannot_launch(tmp_path):
    """On the source route a unit run one warp per wave launches blocks whose x is a multiple of
    32 and which hold at most 512 threads: (1024, 1) and (32, 32) fail with
    cudaErrorInvalidConfiguration and the reason on stderr (the binary route runs (1024, 1), as
    the H200 does), and -rdc, where other units' device functions would read the hardware's
    threadIdx, is refused at compile time."""
    source = tmp_path / "lock.cu"
    source.write_text(LOCK_BY_THREAD_ZERO_PROGRAM)
    exe = tmp_path / "lock"
    built = _source_build(source, exe, "gfx942")
    assert built.returncode == 0, built.stderr
    run = _tool("cass-run", exe, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines() == ["(256, 1): cudaSuccess 24570 of 24570",
                                       "(1024, 1): cudaErrorInvalidConfiguration 0 of 24570",
                                       "(32, 32): cudaErrorInvalidConfiguration 0 of 24570",
                                       "(32, 16): cudaSuccess 24570 of 24570"], run.stdout + run.stderr
    assert ("kernel 'block_totals(int*, int*, int const*)' runs one CUDA warp per 64-lane wave (its warps wait "
            "for each other), which needs blockDim.x a multiple of 32 and at most 512 threads; the launch asked "
            "for (1024, 1, 1)") in run.stderr
    rdc = _tool("cass-nvcc", "-O2", "-arch=sm_80", "-rdc=true", "--cass-route=source", "--cass-offload-arch=gfx942",
                "-c", source, "-o", tmp_path / "lock.o", cwd=tmp_path)
    assert rdc.returncode != 0 and "with -rdc the device functions of other units" in rdc.stderr, rdc.stderr
    assert not (tmp_path / "lock.o").exists()


def test_source_route_reads_the_waits_of_relocatable_units(tmp_path):
    """`cass-cc warp-waits` reads the SASS of a -rdc unit as nvcc makes it (a kernel calling another
    unit's device function leaves the call unresolved, which nvcc without -rdc refuses): the
    bench's two-unit XTEA program, whose warps never wait, builds for gfx942 on the source route
    and prints the H200's output."""
    folder = PROGRAMS / "bench" / "crypto" / "xtea_ctr"
    exe = tmp_path / "xtea"
    built = _tool("cass-nvcc", "-O2", "-arch=sm_80", "--cass-route=source", "--cass-offload-arch=gfx942",
                  *(folder / "flags.txt").read_text().split(), "-o", exe, *sorted(folder.glob("*.cu")), cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    run = _tool("cass-run", exe, cwd=tmp_path)
    assert run.returncode == 0 and run.stdout == (folder / "reference.txt").read_text(), run.stdout + run.stderr


NAMES_PROGRAM = r"""#include <cstdio>
#define TID (blockIdx.x * blockDim.x + threadIdx.x)
struct Config { dim3 gridDim, blockDim; };
__global__ void locked(int *lock, int *sum, int *ids)
{
    ids[TID] = threadIdx.x + 1000 * blockDim.x;
    if (threadIdx.x % 32 == 0) {
        while (atomicCAS(lock, 0, 1) != 0) { }
        *sum += 1;
        __threadfence();
        atomicExch(lock, 0);
    }
}
void launch(Config c, dim3 blockDim, int *l, int *s, int *ids) { locked<<<c.gridDim, blockDim>>>(l, s, ids); }
int main()
{
    int *lock, *sum, *ids, got = 0;
    static int host[192];
    cudaMalloc(&lock, 4); cudaMalloc(&sum, 4); cudaMalloc(&ids, sizeof host);
    cudaMemset(lock, 0, 4); cudaMemset(sum, 0, 4);
    Config c = {dim3(3), dim3(64)};
    launch(c, c.blockDim, lock, sum, ids);
    cudaMemcpy(&got, sum, 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(host, ids, sizeof host, cudaMemcpyDeviceToHost);
    long long t = 0; for (int i = 0; i < 192; ++i) t += host[i] * (i + 1);
    printf("%d %lld\n", got, t);
    return 0;
}
"""


def test_source_route_one_warp_per_wave_keeps_members_and_parameters_named_blockdim(tmp_path):
    """In a unit run one warp per wave, hipify names CUDA's threadIdx and blockDim for the header
    that reads them back (in a macro too), but not a struct's members `dim3 gridDim, blockDim;`,
    their uses (`c.blockDim`) or a host function's parameter called blockDim: the kernel's ids
    are CUDA's (threadIdx.x + 1000 * blockDim.x, 64 threads a block): the H200 printed the same
    line (2026-12-04)."""
    source = tmp_path / "names.cu"
    source.write_text(NAMES_PROGRAM)
    exe = tmp_path / "names"
    built = _source_build(source, exe, "gfx942")
    assert built.returncode == 0, built.stderr
    run = _tool("cass-run", exe, cwd=tmp_path)
    want = sum(((i % 64) + 64000) * (i + 1) for i in range(192))
    assert run.returncode == 0 and run.stdout == f"6 {want}\n", run.stdout + run.stderr
