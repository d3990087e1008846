"""Headers the source route adds to a translation unit use reserved names for their own
identifiers: programs define short macros on the command line (PolyBench passes its sizes as
-DN=… -DM=…), and a template parameter named N in a compat header became `template <int 64>`."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_tool

# Inline PTX (cass_ptx.h), wmma (cass_wmma.h), cuda::atomic_ref (cass_cuda_atomic.h), textures
# (cass_texture_compat.h), __int128 and half conversions pull in every compat header.
PROGRAM = r"""
#include <cstdio>
#include <mma.h>
#include <cuda/atomic>
#include <cuda_fp16.h>
__global__ void k(int* out, cudaTextureObject_t tex, __half h) {
  int v;
  asm("add.s32 %0, %1, 1;" : "=r"(v) : "r"(out[0]));
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
  nvcuda::wmma::fill_fragment(acc, 1.0f);
  cuda::atomic_ref<int, cuda::thread_scope_device> a(out[1]);
  a.fetch_add(v);
  __int128 wide = (__int128)out[2] * out[3];
  out[threadIdx.x] = v + N * M + K + (int)(wide / 3) + (int)acc.x[0] + tex2D<float>(tex, 0.5f, 0.5f) + __half2int_rn(h);
}
int main() { printf("%d\n", N + M + K + L + I); }
"""


def test_short_macros_from_the_command_line(tmp_path: Path) -> None:
    source = tmp_path / "macros.cu"
    source.write_text(PROGRAM)
    proc = run_tool("cass-nvcc", "--cass-route=source", "-DN=64", "-DM=32", "-DK=3", "-DL=2", "-DI=1",
                    "-c", str(source), "-o", str(tmp_path / "macros.o"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_a_header_mapping_cuda_names_for_hip_keeps_its_macro_names() -> None:
    """A code base's own HIP port header (the CUDA Handbook's chError_hip.h) maps CUDA's names to
    HIP's with macros; hipify renames the uses, never the name a #define or #undef gives, which
    made `#define hipDeviceMapHost hipDeviceMapHost` (use of undeclared identifier)."""
    from cass_cc.hipify import translate
    text = ("#define cudaDeviceMapHost hipDeviceMapHost\n#undef cudaMemcpy\n"
            "void f() { cudaSetDeviceFlags(cudaDeviceMapHost); }\n")
    assert translate(text, "chError_hip.h").text == (
        "#define cudaDeviceMapHost hipDeviceMapHost\n#undef cudaMemcpy\n"
        "void f() { hipSetDeviceFlags(hipDeviceMapHost); }\n")


def test_a_code_bases_own_hip_port_is_not_taken() -> None:
    """nvcc defines no __HIPCC__: a code base's `#ifdef __HIPCC__` HIP port (direct hip* calls
    past the compatibility header) stays out, its CUDA path is hipified, and __CUDACC__ still
    reads as defined."""
    from cass_cc.hipify import translate
    text = ("#ifdef __HIPCC__\n#include \"port_hip.h\"\n#elif defined(__HIP_PLATFORM_AMD__) || __HIP__\n"
            "#else\n#include \"port_cuda.h\"\n#endif\n#ifdef __CUDACC__\n#endif\n")
    assert translate(text, "t.cu").text == (
        "#ifdef CASS_UNDEFINED_UNDER_NVCC__HIPCC__\n#include \"port_hip.h\"\n"
        "#elif defined(CASS_UNDEFINED_UNDER_NVCC__HIP_PLATFORM_AMD__) || CASS_UNDEFINED_UNDER_NVCC__HIP__\n"
        "#else\n#include \"port_cuda.h\"\n#endif\n#ifdef __HIPCC__\n#endif\n")
