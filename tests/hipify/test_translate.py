"""translate(): which tokens change, which stay byte for byte, what is reported."""

from __future__ import annotations

import pytest

from cass_cc.hipify import COMPAT_HEADER, Diagnostic, HipifyResult, translate

# (family, CUDA line, expected HIP line)
REWRITES = [
    ("runtime", "cudaMalloc(&p, n);", "hipMalloc(&p, n);"),
    ("runtime", "cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);",
     "hipMemcpyAsync(d, h, n, hipMemcpyHostToDevice, s);"),
    ("runtime", "cudaMemcpy2D(d, dp, s, sp, w, h, cudaMemcpyDeviceToDevice);",
     "hipMemcpy2D(d, dp, s, sp, w, h, hipMemcpyDeviceToDevice);"),
    ("runtime", "cudaMemcpyToSymbol(sym, &v, 4);", "hipMemcpyToSymbol(sym, &v, 4);"),
    ("runtime", "cudaDeviceEnablePeerAccess(1, 0);", "hipDeviceEnablePeerAccess(1, 0);"),
    ("runtime", "cudaMallocHost(&h, n); cudaFreeHost(h);", "hipHostMalloc(&h, n); hipHostFree(h);"),
    ("runtime", "cudaGraphInstantiate(&exec, graph, 0);",
     "hipGraphInstantiateWithFlags(&exec, graph, 0);"),
    ("runtime", "cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);",
     "hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0);"),
    ("runtime", "cudaStreamGetCaptureInfo(s, &status, &id);", "hipStreamGetCaptureInfo(s, &status, &id);"),
    ("runtime", "cudaStreamGetCaptureInfo(s, &st, &id, &g, &deps, &n);",
     "hipStreamGetCaptureInfo_v2(s, &st, &id, &g, &deps, &n);"),
    ("runtime", "cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);",
     "hipStreamBeginCapture(s, hipStreamCaptureModeGlobal);"),
    # CUDA 13's edge-data forms (and CUDA 12's result-info update) by their argument count
    ("runtime", "cudaGraphGetEdges(g, f, t, &n);", "hipGraphGetEdges(g, f, t, &n);"),
    ("runtime", "cudaGraphGetEdges(g, f, t, nullptr, &n);", "cass_hipGraphGetEdges(g, f, t, nullptr, &n);"),
    ("runtime", "cudaGraphExecUpdate(e, g, &info);", "cass_hipGraphExecUpdate(e, g, &info);"),
    ("runtime", "cudaGraphExecUpdate(e, g, &node, &result);", "hipGraphExecUpdate(e, g, &node, &result);"),
    # the calls that wait for the device report a failed device assert (cass_device_assert.h)
    ("runtime", "::cudaDeviceSynchronize();", "::cass_hipDeviceSynchronize();"),
    ("types", "cudaStream_t s; cudaEvent_t e; cudaDeviceProp p;",
     "hipStream_t s; hipEvent_t e; hipDeviceProp_t p;"),
    ("types", "cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0);",
     "cass_hipDeviceGetAttribute(&v, hipDeviceAttributeMultiprocessorCount, 0);"),
    # a CUDA warp is 32 threads on wave64 targets too (cass_warp_size.h); members keep their name
    ("warp", "int w = warpSize; p.warpSize = w;", "int w = cass_warpSize; p.warpSize = w;"),
    ("types", "cudaHostAlloc(&p, n, cudaHostAllocMapped);", "hipHostMalloc(&p, n, hipHostMallocMapped);"),
    ("types", "cuFloatComplex z = make_cuFloatComplex(1, 2);",
     "hipFloatComplex z = make_hipFloatComplex(1, 2);"),
    ("errors", "if (e != cudaSuccess && e != cudaErrorNotReady) {}",
     "if (e != hipSuccess && e != hipErrorNotReady) {}"),
    ("errors", "cudaError_t e = cudaErrorMemoryAllocation;", "hipError_t e = hipErrorMemoryAllocation;"),
    ("driver", "CUresult r = cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, args, 0);",
     "hipError_t r = hipModuleLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, args, 0);"),
    ("driver", "CUdeviceptr d; cuMemAlloc(&d, n); cuMemcpyHtoD(d, h, n);",
     "hipDeviceptr_t d; hipMalloc(&d, n); hipMemcpyHtoD(d, h, n);"),
    ("driver", "cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev);",
     "cass_hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, dev);"),
    ("driver", "if (r == CUDA_ERROR_OUT_OF_MEMORY) return;", "if (r == hipErrorOutOfMemory) return;"),
    ("device", "atomicAdd_block(p, 1); atomicAdd_system(q, 1);", "atomicAdd(p, 1); atomicAdd_system(q, 1);"),
    ("device", "float v = __ldg(p) + __expf(x);", "float v = __ldg(p) + __expf(x);"),
    ("half", "__nv_bfloat16 b = __float2bfloat16(x);", "hip_bfloat16 b = __float2bfloat16(x);"),
    ("half", "__half h = __float2half(x);", "__half h = __float2half(x);"),
    ("coop_groups", "int n = g.num_threads();", "int n = g.size();"),
    ("coop_groups", "cg::thread_block_tile<32> w = cg::tiled_partition<32>(b); int r = w.meta_group_rank();",
     "cg::cass_thread_block_tile<32> w = cg::tiled_partition<32>(b); int r = w.meta_group_rank();"),
    ("coop_groups", "cg::coalesced_group g = cg::coalesced_threads(); __shared__ cg::block_tile_memory<256> m;",
     "cg::cass_coalesced_group g = cg::cass_coalesced_threads(); __shared__ cg::cass_block_tile_memory<256> m;"),
    ("runtime", "printf(\"%s\", cudaGetErrorName(e));", "printf(\"%s\", cass_hipGetErrorName(e));"),
    ("types", "cudaPointerAttributes a; cudaPointerGetAttributes(&a, p); if (a.type == cudaMemoryTypeManaged) f();",
     "cass_hipPointerAttributes a; cass_hipPointerGetAttributes(&a, p); if (a.type == cass_hipMemoryTypeManaged) f();"),
    ("macros", "#ifdef __CUDACC__", "#ifdef __HIPCC__"),
    ("macros", "#ifdef __DRIVER_TYPES_H__", "#ifdef HIP_INCLUDE_HIP_DRIVER_TYPES_H"),
    ("macros", "#if defined(__CUDA_ARCH__)", "#if defined(__HIP_DEVICE_COMPILE__)"),
    ("macros", "#ifndef __CUDA_ARCH__", "#ifndef __HIP_DEVICE_COMPILE__"),
    ("macros", "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600",
     "#if !defined(__HIP_DEVICE_COMPILE__) || CASS_CUDA_ARCH >= 600"),
    ("headers", "#include <cuda_runtime.h>", "#include <hip/hip_runtime.h>"),
    ("headers", '#include "cuda_fp16.h"', '#include "hip/hip_fp16.h"'),
    ("headers", "#include <cooperative_groups.h>", "#include <hip/hip_cooperative_groups.h>"),
    ("headers", "#  include <curand_kernel.h>", "#  include <hiprand/hiprand_kernel.h>"),
    ("libraries", "cublasHandle_t h; cublasCreate(&h); cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T);",
     "hipblasHandle_t h; hipblasCreate(&h); hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_T);"),
    ("libraries", "curandState st; curand_init(1, i, 0, &st); float u = curand_uniform(&st);",
     "hiprandState st; hiprand_init(1, i, 0, &st); float u = hiprand_uniform(&st);"),
    ("libraries", "cufftHandle plan; cufftExecC2C(plan, a, b, CUFFT_FORWARD);",
     "hipfftHandle plan; hipfftExecC2C(plan, a, b, HIPFFT_FORWARD);"),
    ("libraries", "cusparseHandle_t h; cusparseCreate(&h);", "hipsparseHandle_t h; hipsparseCreate(&h);"),
    ("libraries", "cub::BlockReduce<int, 128> r; ::cub::WarpReduce<int> w;",
     "hipcub::BlockReduce<int, 128> r; ::hipcub::WarpReduce<int> w;"),
    ("libraries", "thrust::reduce(thrust::cuda::par.on(s), a, b);",
     "thrust::reduce(thrust::hip::par.on(s), a, b);"),
    ("half", "unsigned short b = __half_as_ushort(__float2half_rd(x)); int i = __half2int_ru(h);",
     "unsigned short b = cass_half_as_ushort(cass_float2half_rd(x)); int i = cass_half2int_ru(h);"),
    ("half", "y = hsin(x) + h2rcp(p);", "y = cass_hsin(x) + cass_h2rcp(p);"),
    ("rounding", "float f = __double2float_rz(d) + __ull2float_rd(u);",
     "float f = cass_double2float_rz(d) + cass_ull2float_rd(u);"),
    ("runtime", "cudaDeviceSetLimit(cudaLimitStackSize, 1 << 14);",
     "cass_hipDeviceSetLimit(cass_hipLimitStackSize, 1 << 14);"),
    ("int128", "typedef unsigned __int128 u128; __int128 s; signed __int128 t; __uint128_t u;",
     "typedef  cass_u128 u128; cass_s128 s;  cass_s128 t; cass_u128 u;"),
    ("headers", "#include <cuda/std/atomic>", "#include <hip/hip_runtime.h>"),
    ("headers", "#include <cuda/pipeline>", "#include <hip/hip_runtime.h>"),
    ("headers", "#include <cuda/barrier>", "#include <hip/hip_runtime.h>"),
    ("headers", "#include <cooperative_groups/scan.h>", "#include <hip/hip_cooperative_groups.h>"),
    ("launch", "k<<<dim3(4), 64, 0, s>>>(a); k2<T><<<1, 1>>>();",
     "k<<<dim3(4), 64, 0, s>>>(a); k2<T><<<1, 1>>>();"),
]


@pytest.mark.parametrize("family, cuda, hip", REWRITES, ids=[f"{r[0]}-{i}" for i, r in enumerate(REWRITES)])
def test_rewrite(family, cuda, hip):
    assert translate(cuda + "\n", "t.cu").text == hip + "\n"


@pytest.mark.parametrize("text", [
    'const char *s = "cudaMalloc(&p, n)";',
    "// cudaMalloc(&p, n);",
    "/* cudaStream_t */",
    'auto r = R"raw(cudaFree(p); "quoted" )raw";',
    "char c = 'c';",
    "obj.cudaMalloc(p); ptr->cudaStream_t = 1;",
    "mylib::cudaMalloc(p); std::cub::x;",
    "int curandom = 3; int cubic = cub;",
])
def test_left_alone(text):
    assert translate(text, "t.cu").text == text


def test_formatting_kept_byte_for_byte():
    cuda = ("#include   <cuda_runtime.h>\t// the runtime\r\n"
            "int main( ) {\r\n\tfloat  *d ;   cudaMalloc( &d ,4 ) ; /* x */ cudaFree(d);\r\n}\r\n")
    hip = ("#include   <hip/hip_runtime.h>\t// the runtime\r\n"
           "int main( ) {\r\n\tfloat  *d ;   hipMalloc( &d ,4 ) ; /* x */ hipFree(d);\r\n}\r\n")
    assert translate(cuda, "t.cu").text == hip


def test_plain_cpp_unchanged_and_clean():
    text = "#include <vector>\nint main() { std::vector<int> v{1, 2}; return v[0] >> 1; }\n"
    res = translate(text, "t.cpp")
    assert isinstance(res, HipifyResult)
    assert (res.text, res.diagnostics, res.compat_header, res.kernels) == (text, [], None, [])


def test_kernels_found():
    text = """
template <typename T> __global__ void scale(T *p) {}
extern "C" __global__ void __launch_bounds__(256, 2) saxpy(float a, float *x) {}
__global__ void
multi_line(int *p);
__global__ void multi_line(int *p) { }
static __global__ void __attribute__((noinline)) tiny() {}
__device__ void helper() {}
"""
    assert translate(text, "t.cu").kernels == ["scale", "saxpy", "multi_line", "tiny"]


@pytest.mark.parametrize("text, uses", [
    ("x = __shfl_down_sync(0xffffffff, v, 1);", True),
    ("m = __ballot_sync(__activemask(), p);", True),
    ("__syncwarp();", True),
    ("h = __hmax(a, b);", True),
    ("cg::reduce(tile, v, cg::plus<int>());", True),
    ("#include <cooperative_groups.h>", True),
    ("#include <cuda/atomic>", True),
    ("#include <mma.h>", True),
    ("unsigned __int128 x;", True),
    ("__half h = __int2half_rn(i);", True),
    ("#if __CUDA_ARCH__ >= 700\n#endif", True),
    ("#ifdef __CUDA_ARCH__\n#endif", False),
    ("cudaEventCreate(&e, cudaEventDisableTiming);", True),
    ("x = __shfl_down(v, 1);", False),
    ("x = cudaMalloc(&p, 4);", False),
    ('s = "__shfl_sync";', False),
])
def test_compat_header_only_when_used(text, uses):
    text = "#include <cuda_runtime.h>\n" + text
    assert translate(text, "t.cu").compat_header == (COMPAT_HEADER if uses else None)


@pytest.mark.parametrize("text, filename, uses", [
    ("__global__ void k() {}", "k.cu", True),          # nvcc's implicit cuda_runtime.h
    ("#include <cuda.h>\n__global__ void k() {}", "k.cu", False),
    ('#include "cuda_runtime.h"\n__global__ void k() {}', "k.cu", False),
    ("__device__ int f();", "k.cuh", False),            # headers are included by a .cu file
    ("int main() { return 0; }", "main.cpp", False),
])
def test_compat_header_stands_in_for_implicit_runtime_include(text, filename, uses):
    assert translate(text, filename).compat_header == (COMPAT_HEADER if uses else None)


def warnings(text):
    return [str(d) for d in translate(text, "w.cu").diagnostics]


# (CUDA source, expected "file:line: warning:" text fragment)
DIAGNOSTICS = [
    ('__device__ void f() {\n asm volatile("pmevent.mask 1;");\n}',
     "w.cu:2: warning: inline PTX is not translated: PTX instruction 'pmevent.mask' is not "
     "supported; the asm statement is left unchanged"),
    ('__device__ void f() {\n asm volatile("tex.1d.v4.f32.s32 {%0,%1,%2,%3}, [t, {%4}];");\n}',
     "w.cu:2: warning: inline PTX is not translated: the PTX text cannot be read"),
    ('__device__ int f(int x) { int y;\n  __asm__("mov.u32 %0, %%nsmid;" : "=r"(y)); return y; }',
     "w.cu:2: warning: inline PTX is not translated: 'mov.u32': register '%nsmid' is not declared"),
    ("x;\ncudaStreamBeginCaptureToGraph(s, g, d, e, 1, m);",
     "w.cu:2: warning: 'cudaStreamBeginCaptureToGraph' is not in the CUDA->HIP tables"),
    ("CUtensorMap m;", "'CUtensorMap' is not in the CUDA->HIP tables"),
    ("auto p = make_cudaSomething(1);", "'make_cudaSomething' is not in the CUDA->HIP tables"),
    ("x = CUDA_VERSION;", "'CUDA_VERSION' has no HIP equivalent"),
    ("cudaGraphKernelNodeGetAttribute(n, a, &v);", "'cudaGraphKernelNodeGetAttribute' has no HIP equivalent"),
    ("cudnnCreate(&h);", "'cudnnCreate' is not translated: cuDNN maps to MIOpen"),
    ("#include <cuda_awbarrier.h>", "w.cu:1: warning: header 'cuda_awbarrier.h' is not translated: arrive/wait"),
    ('#include "cuda/annotated_ptr"', "header 'cuda/annotated_ptr' is not translated: libcu++"),
    ("__global__ void parent(int *p) {\n  if (p) { child<<<1, 32>>>(p); }\n}",
     "w.cu:2: warning: kernel launch from device code (CUDA dynamic parallelism)"),
    ("x = __vabsdiffs4(a, b);", "'__vabsdiffs4' is a CUDA device function that HIP 5.2 lacks"),
    ("texture<float, 1, cudaReadModeElementType> tex;", "texture reference"),
    ("surface<void, 2> surf;", "surface reference"),
    ("#if __CUDA_ARCH__ >= 700\n#endif", "__CUDA_ARCH__ compared as a number: the device pass "
                                         "takes the code for sm_70 (CASS_CUDA_ARCH = 700"),
    ("#ifdef __CUDA_ARCH__\n#endif", "__CUDA_ARCH__ test rewritten to __HIP_DEVICE_COMPILE__"),
    ("unsigned long long b = __ballot(p);", "__ballot returns a 64-bit mask in HIP"),
    ("unsigned m = __ballot_sync(~0u, p);\nif (m == 0xFFFFFFFFFFFFFFFFull) f();",
     "w.cu:2: warning: m holds a 32-bit lane mask, but the statement uses the 64-bit value"),
    ("if (__activemask() != 0xffffffffffffffff) f();", "__activemask holds a 32-bit lane mask"),
    ("v = __shfl_xor_sync(0xffffffff, v, 1, 64);", "__shfl_xor_sync with width 64"),
    ("#include <cooperative_groups.h>\nint r = cg::this_grid().block_rank();", "grid_group has no block_rank()"),
]


@pytest.mark.parametrize("text, expected", DIAGNOSTICS)
def test_diagnostic(text, expected):
    found = warnings(text)
    assert any(expected in w for w in found), found


@pytest.mark.parametrize("text", [
    "v = __shfl_xor_sync(0xffffffff, v, 16, 32);",     # 32-bit masks on wave32 are fine
    "unsigned m = __ballot_sync(0xffffffffu, p); if (m == 0xffffffffu) f();",
    "#define cudaCheck(x) x\ncudaCheck(f());",          # the TU's own CUDA-looking names
    "static void cudaAssert(int e) {}\nvoid g() { cudaAssert(1); }",
    "struct cudaGraphicsResource *cuda_vbo_resource;\nvoid f() { use(cuda_vbo_resource); }",
    "x = obj.ballot(1);",                               # no cooperative groups in this TU
    "int texture = 1; surface = texture < 2;",
    "CUDA_CHECK(cudaMalloc(&p, 4)); CUDA_SAFE_CALL(cudaFree(p));",  # a project's macros
    "__device__ int counter = 0;\n__global__ void k();\nvoid host() { k<<<1, 1>>>(); }",
])
def test_no_diagnostic(text):
    assert warnings(text) == []


def test_unknown_name_reported_once_at_first_use():
    found = warnings("cudaFooBar();\nx = 1;\ncudaFooBar(); cudaFooBar();")
    assert found == ["w.cu:1: warning: 'cudaFooBar' is not in the CUDA->HIP tables; it is left "
                     "unchanged (3 uses)"]


def test_diagnostic_shape():
    d = translate("\n\n  asm(\"brkpt;\");", "dir/k.cu").diagnostics[0]
    assert isinstance(d, Diagnostic)
    assert (d.file, d.line, d.column, d.severity) == ("dir/k.cu", 3, 3, "warning")
    assert str(d).startswith("dir/k.cu:3: warning: ")


def test_unterminated_comment_is_reported_not_raised():
    res = translate("int a; /* never closed\n", "bad.cu")
    assert res.text == "int a; /* never closed\n"
    assert [str(d) for d in res.diagnostics] == [
        "bad.cu:1: warning: unterminated /* comment; the file is left untranslated"]


@pytest.mark.parametrize("text, heap", [
    ("__global__ void k(int **p) { *p = (int *)malloc(64); }", True),
    ("__device__ void f(int *p) { delete[] p; }", True),
    ("__global__ void k(float *p) { p[0] = 1; }\nint main() { void *h = malloc(4); free(h); }", False),
    ("__device__ void f(Pool &pool) { pool.free(0); }", False),
])
def test_device_allocation_brings_the_device_heap(text, heap):
    """gfx11 cannot compile ROCm 5.2's device allocator: a TU whose device code allocates gets
    cass-cc's, included at the end so no line moves."""
    from cass_cc.hipify import DEVICE_HEAP_HEADER
    res = translate(text, "k.cu")
    assert res.text.endswith(f'#include "{DEVICE_HEAP_HEADER}"\n') == heap
    assert res.text.startswith(text)
