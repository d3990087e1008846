"""libcassrt's 3D pitched memory (cudaMalloc3D, cudaMemcpy3D(Async), cudaMemset3D(Async), and their
per-thread default stream forms) and the runtime calls that samples use besides kernels, each run
under cass-run. The programs of tests/programs/realworld/pitched_3d and
tests/programs/binary/memory3d_streams run through the binary route in test_route.py."""

from __future__ import annotations

import subprocess

import pytest

from binroute import PROGRAMS, cass_nvcc, cass_run, checksum
from cass_cc import toolchain

pytestmark = pytest.mark.slow  # builds and emulates whole programs

PITCHED = PROGRAMS / "realworld" / "pitched_3d"

# Host code only: argument checks of the 3D calls and the calls of the audit, each checked.
RUNTIME_CALLS = r"""
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>

static int bad = 0;
#define EXPECT(call, want) do { cudaError_t e = (call); if (e != (want)) { \
    printf("%s: %s, expected %s\n", #call, cudaGetErrorName(e), cudaGetErrorName(want)); bad++; } \
    cudaGetLastError(); } while (0)

int main()
{
    EXPECT(cudaMalloc3D(nullptr, make_cudaExtent(16, 2, 2)), cudaErrorInvalidValue);
    EXPECT(cudaMemcpy3D(nullptr), cudaErrorInvalidValue);
    cudaPitchedPtr p;
    EXPECT(cudaMalloc3D(&p, make_cudaExtent(0, 0, 0)), cudaSuccess);
    EXPECT(cudaMalloc3D(&p, make_cudaExtent(100, 3, 2)), cudaSuccess);
    if (p.pitch < 100 || p.xsize != 100 || p.ysize != 3) { printf("pitched pointer %zu %zu %zu\n", p.pitch, p.xsize, p.ysize); bad++; }
    EXPECT(cudaMemset3D(p, 7, make_cudaExtent(100, 3, 2)), cudaSuccess);
    unsigned char back[2][3][100];
    cudaMemcpy3DParms down = {};
    down.srcPtr = p;
    down.dstPtr = make_cudaPitchedPtr(back, 100, 100, 3);
    down.extent = make_cudaExtent(100, 3, 2);
    down.kind = cudaMemcpyDeviceToHost;
    EXPECT(cudaMemcpy3D(&down), cudaSuccess);
    for (int i = 0; i < 600; ++i)
        if ((&back[0][0][0])[i] != 7) { printf("byte %d is %d\n", i, (&back[0][0][0])[i]); bad++; break; }
    EXPECT(cudaFree(p.ptr), cudaSuccess);

    EXPECT(cudaProfilerStart(), cudaSuccess);
    EXPECT(cudaProfilerStop(), cudaSuccess);
    cudaSharedMemConfig config;
    EXPECT(cudaDeviceGetSharedMemConfig(&config), cudaSuccess);
    EXPECT(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte), cudaSuccess);
    int value = -1;
    EXPECT(cudaDeviceGetAttribute(&value, cudaDevAttrMaxTexture3DWidth, 0), cudaSuccess);
    EXPECT(cudaDeviceGetAttribute(&value, cudaDevAttrGlobalL1CacheSupported, 0), cudaSuccess);
    EXPECT(cudaDeviceGetAttribute(&value, cudaDevAttrComputePreemptionSupported, 0), cudaSuccess);

    cudaStream_t s;
    EXPECT(cudaStreamCreate(&s), cudaSuccess);
    int *managed;
    EXPECT(cudaMallocManaged(&managed, 64 * sizeof(int)), cudaSuccess);
    EXPECT(cudaStreamAttachMemAsync(s, managed, 0, cudaMemAttachSingle), cudaSuccess);
    cudaEvent_t a, b;
    EXPECT(cudaEventCreate(&a), cudaSuccess);
    EXPECT(cudaEventCreate(&b), cudaSuccess);
    EXPECT(cudaEventRecordWithFlags(a, s, cudaEventRecordDefault), cudaSuccess);

    // A graph captured from a stream, instantiated with flags, launched twice.
    int *dev;
    EXPECT(cudaMalloc(&dev, 64 * sizeof(int)), cudaSuccess);
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    EXPECT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    EXPECT(cudaMemsetAsync(dev, 0x02, 64 * sizeof(int), s), cudaSuccess);
    EXPECT(cudaMemcpyAsync(managed, dev, 64 * sizeof(int), cudaMemcpyDeviceToDevice, s), cudaSuccess);
    EXPECT(cudaStreamEndCapture(s, &graph), cudaSuccess);
    EXPECT(cudaGraphInstantiateWithFlags(&exec, graph, 0), cudaSuccess);
    EXPECT(cudaGraphLaunch(exec, s), cudaSuccess);
    EXPECT(cudaGraphLaunch(exec, s), cudaSuccess);
    EXPECT(cudaEventRecordWithFlags(b, s, cudaEventRecordDefault), cudaSuccess);
    EXPECT(cudaEventSynchronize(b), cudaSuccess);
    EXPECT(cudaEventQuery(b), cudaSuccess);
    float ms = -1;
    EXPECT(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
    long long sum = 0;
    for (int i = 0; i < 64; ++i)
        sum += managed[i];
    if (sum != 64LL * 0x02020202) { printf("graph result %lld\n", sum); bad++; }
    EXPECT(cudaGraphExecDestroy(exec), cudaSuccess);

    // Stream-ordered allocation through memory pools, as the CUDA samples set them up.
    cudaMemPool_t pool, current, own;
    EXPECT(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
    EXPECT(cudaDeviceGetMemPool(&current, 0), cudaSuccess);
    if (current != pool) { printf("current pool is not the default one\n"); bad++; }
    unsigned long long threshold = ~0ULL, back_threshold = 0;
    EXPECT(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold), cudaSuccess);
    EXPECT(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &back_threshold), cudaSuccess);
    if (back_threshold != threshold) { printf("release threshold %llx\n", back_threshold); bad++; }
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    EXPECT(cudaMemPoolCreate(&own, &props), cudaSuccess);
    EXPECT(cudaDeviceSetMemPool(0, own), cudaSuccess);
    EXPECT(cudaDeviceGetMemPool(&current, 0), cudaSuccess);
    if (current != own) { printf("current pool is not the one set\n"); bad++; }
    int *pooled;
    EXPECT(cudaMallocFromPoolAsync((void **)&pooled, 64 * sizeof(int), own, s), cudaSuccess);
    EXPECT(cudaMemcpyAsync(pooled, dev, 64 * sizeof(int), cudaMemcpyDeviceToDevice, s), cudaSuccess);
    EXPECT(cudaMemcpyAsync(managed, pooled, 64 * sizeof(int), cudaMemcpyDeviceToHost, s), cudaSuccess);
    EXPECT(cudaFreeAsync(pooled, s), cudaSuccess);
    EXPECT(cudaStreamSynchronize(s), cudaSuccess);
    if (managed[63] != 0x02020202) { printf("pooled copy %x\n", managed[63]); bad++; }
    EXPECT(cudaMemPoolTrimTo(own, 0), cudaSuccess);
    EXPECT(cudaDeviceSetMemPool(0, pool), cudaSuccess);
    EXPECT(cudaMemPoolDestroy(own), cudaSuccess);
    EXPECT(cudaDeviceGetDefaultMemPool(&pool, 99), cudaErrorInvalidDevice);
    EXPECT(cudaGraphDestroy(graph), cudaSuccess);
    printf("checksum: %lld\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
"""


def _passes(proc: subprocess.CompletedProcess) -> None:
    assert proc.returncode == 0 and proc.stdout.rstrip().endswith("PASS"), proc.stdout + proc.stderr


def test_per_thread_default_stream_forms(tmp_path):
    """An object nvcc made with -default-stream per-thread calls cudaMemcpy3D_ptds and
    cudaMemset3D_ptds; cass-nvcc links it, libcassrt serves them."""
    obj = tmp_path / "pitched.o"
    subprocess.run([toolchain.path("nvcc"), "-O2", "-arch=sm_80", "-default-stream", "per-thread", "-c",
                    str(PITCHED / "pitched3d.cu"), "-o", str(obj)], check=True, capture_output=True)
    undefined = subprocess.run(["nm", "-u", str(obj)], capture_output=True, text=True, check=True).stdout
    assert "cudaMemcpy3D_ptds" in undefined and "cudaMemset3D_ptds" in undefined
    linked = cass_nvcc("-o", tmp_path / "pitched", obj, cwd=tmp_path)
    assert linked.returncode == 0, linked.stderr
    ran = cass_run(tmp_path / "pitched")
    _passes(ran)
    assert checksum(ran.stdout) == "1.446000e+04"


def test_runtime_calls_without_kernels(tmp_path):
    source = tmp_path / "calls.cu"
    source.write_text(RUNTIME_CALLS)
    built = cass_nvcc("--cass-route=binary", "-o", tmp_path / "calls", source, cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    ran = cass_run(tmp_path / "calls")
    _passes(ran)
    assert "not supported" not in ran.stderr, ran.stderr
