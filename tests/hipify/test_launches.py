"""Launches with their chevrons apart (`k << <g, b >> > (args)`, Visual Studio's formatting) are
joined for clang, which reads `<<<` and `>>>` only when written whole; other `<<`/`>>` stay."""

from __future__ import annotations

import pytest

from cass_cc.hipify import translate


@pytest.mark.parametrize("cuda, hip", [
    ("k << <g, b >> > (x);", "k <<< g, b >>>  (x);"),
    ("k << <n / 2, dim3(32), 0 >> > (a, b);", "k <<< n / 2, dim3(32), 0 >>>  (a, b);"),
    ("k << <static_cast<int>(n), 32 > >> (y);", "k <<< static_cast<int>(n), 32 >>>  (y);"),
    ("k << < 1, 2 > > > (z);", "k <<<  1, 2 >>>   (z);"),
    ("k<<<1, 2>>>(x);", "k<<<1, 2>>>(x);"),
    ("k << <1, 2>>>(x);", "k <<< 1, 2>>>(x);"),
])
def test_spaced_chevrons_are_joined(cuda, hip):
    assert translate(f"void f() {{ {cuda} }}\n", "t.cu").text == f"void f() {{ {hip} }}\n"


@pytest.mark.parametrize("text", [
    "S& operator<< <int>(S& s, int v);",                        # explicit template argument
    "int f(int a) { return a << 2 >> 1; }",
    "std::vector<std::vector<std::vector<int>> > v;",
    "int g(int a, int b) { return (a << b) > (b >> a); }",
])
def test_other_shifts_and_templates_are_left_alone(text):
    assert translate(text + "\n", "t.cu").text == text + "\n"


def test_kernel_entry_is_written_first_in_every_kernel_body_on_its_line():
    """The wave64 source route's one-warp-per-wave entry (cass_wave_per_warp.h): first in each
    __global__ body, templates included, never in a __device__ function or a prototype, and no
    line moves; threadIdx and blockDim become the header's, members of that name stay."""
    cuda = ("__global__ void proto(int *p);\n"
            "__device__ int helper(int x) { return x + 1; }\n"
            "template <int N>\n__global__ void __launch_bounds__(256) tiles(int *p)\n{\n  p[0] = N;\n}\n"
            "__global__ void plain(int *p) { p[threadIdx.x] = helper(1); }\n"
            "void host(int *p) { plain<<<1, 64>>>(p); }\n"
            "void node(cudaKernelNodeParams &q) { q.blockDim = dim3(blockDim_host); }\n")
    result = translate(cuda, "t.cu", kernel_entry="ENTRY;", thread_coordinates=True)
    lines = result.text.splitlines()
    assert lines[0] == "__global__ void proto(int *p);"
    assert lines[1] == "__device__ int helper(int x) { return x + 1; }"
    assert lines[4] == "{ ENTRY;"
    assert lines[7] == "__global__ void plain(int *p) { ENTRY; p[cass_threadIdx.x] = helper(1); }"
    assert lines[9] == "void node(hipKernelNodeParams &q) { q.blockDim = dim3(blockDim_host); }"
    assert len(lines) == len(cuda.splitlines())
    assert result.entered_kernels == ["plain", "tiles"]
    assert result.compat_header
    assert "ENTRY" not in translate(cuda, "t.cu").text
