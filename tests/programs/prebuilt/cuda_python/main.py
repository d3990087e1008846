"""cuda_python: NVIDIA's Python bindings (package cuda-bindings: cuda.bindings.driver and
cuda.bindings.nvrtc) compile a kernel with NVRTC to a cubin, load it with the driver API, launch
it on device memory and check what comes back. Host buffers are ctypes arrays, so nothing beyond
cuda-bindings is needed.

usage: python main.py ARCH    (ARCH: the sm_XY the cubin is compiled for; the GPU must run its code)

Prints a checksum and PASS; exits 1 at the first failure.
"""

from __future__ import annotations

import ctypes
import sys

from cuda.bindings import driver, nvrtc

SOURCE = rb"""
extern "C" __global__ void mix(unsigned *out, const unsigned *in, unsigned salt, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (in[i] ^ salt) * 2654435761u + (unsigned)i;
}
"""


def fail(message: str) -> None:
    print(f"FAIL: {message}")
    sys.exit(1)


def cu(result):
    """Unwraps a driver call's (CUresult, values...) tuple, failing on an error."""
    err, *values = result if isinstance(result, tuple) else (result,)
    if err != driver.CUresult.CUDA_SUCCESS:
        name_err, name = driver.cuGetErrorName(err)
        fail(f"driver call returned {name.decode() if name_err == driver.CUresult.CUDA_SUCCESS else int(err)}")
    return values[0] if len(values) == 1 else tuple(values) if values else None


def rtc(result, program=None):
    err, *values = result if isinstance(result, tuple) else (result,)
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:
        log = ""
        if program is not None:
            _, size = nvrtc.nvrtcGetProgramLogSize(program)
            buffer = b" " * size
            nvrtc.nvrtcGetProgramLog(program, buffer)
            log = buffer.decode(errors="replace")
        fail(f"nvrtc call returned {nvrtc.nvrtcGetErrorString(err)[1].decode()}\n{log}")
    return values[0] if len(values) == 1 else tuple(values) if values else None


def compile_cubin(arch: str) -> bytes:
    program = rtc(nvrtc.nvrtcCreateProgram(SOURCE, b"prebuilt_cuda_python.cu", 0, [], []))
    rtc(nvrtc.nvrtcCompileProgram(program, 1, [f"--gpu-architecture={arch}".encode()]), program)
    size = rtc(nvrtc.nvrtcGetCUBINSize(program))
    if size <= 0:
        fail("empty cubin")
    cubin = b" " * size
    rtc(nvrtc.nvrtcGetCUBIN(program, cubin))
    rtc(nvrtc.nvrtcDestroyProgram(program))
    return cubin


def main() -> None:
    if len(sys.argv) != 2 or not sys.argv[1].startswith("sm_"):
        print(f"usage: {sys.argv[0]} sm_XY (the architecture of the cubin; the GPU must run it)")
        sys.exit(2)
    cubin = compile_cubin(sys.argv[1])
    if not cubin.startswith(b"\x7fELF"):
        fail("nvrtcGetCUBIN did not give an ELF image")

    cu(driver.cuInit(0))
    device = cu(driver.cuDeviceGet(0))
    context = cu(driver.cuDevicePrimaryCtxRetain(device))
    cu(driver.cuCtxSetCurrent(context))
    module = cu(driver.cuModuleLoadData(cubin))
    kernel = cu(driver.cuModuleGetFunction(module, b"mix"))

    n = 5000
    words = ctypes.c_uint32 * n
    host_in = words(*[(i * 40503 + 17) & 0xFFFFFFFF for i in range(n)])
    host_out = words()
    nbytes = ctypes.sizeof(host_in)
    d_in = cu(driver.cuMemAlloc(nbytes))
    d_out = cu(driver.cuMemAlloc(nbytes))
    stream = cu(driver.cuStreamCreate(0))
    cu(driver.cuMemcpyHtoDAsync(d_in, ctypes.addressof(host_in), nbytes, stream))
    cu(driver.cuMemsetD32Async(d_out, 0xDEADBEEF, n, stream))

    # kernelParams as C sees it: an array of pointers to each argument's bytes.
    salt = 0x5A5A1234
    arg_out = ctypes.c_uint64(int(d_out))
    arg_in = ctypes.c_uint64(int(d_in))
    arg_salt = ctypes.c_uint32(salt)
    arg_n = ctypes.c_int32(n)
    params = (ctypes.c_void_p * 4)(*[ctypes.addressof(a) for a in (arg_out, arg_in, arg_salt, arg_n)])
    threads = 128
    cu(driver.cuLaunchKernel(kernel, (n + threads - 1) // threads, 1, 1, threads, 1, 1, 0, stream,
                             ctypes.addressof(params), 0))
    cu(driver.cuMemcpyDtoHAsync(ctypes.addressof(host_out), d_out, nbytes, stream))
    cu(driver.cuStreamSynchronize(stream))

    checksum = 0
    for i in range(n):
        expected = (((host_in[i] ^ salt) * 2654435761) + i) & 0xFFFFFFFF
        if host_out[i] != expected:
            fail(f"element {i}: {host_out[i]} != {expected}")
        checksum = (checksum + (i + 1) * host_out[i]) & 0xFFFFFFFFFFFFFFFF
    print(f"cubin from nvrtc, {n} elements: checksum {checksum}")

    cu(driver.cuStreamDestroy(stream))
    cu(driver.cuMemFree(d_in))
    cu(driver.cuMemFree(d_out))
    cu(driver.cuModuleUnload(module))
    cu(driver.cuDevicePrimaryCtxRelease(device))
    print("PASS")


if __name__ == "__main__":
    main()
