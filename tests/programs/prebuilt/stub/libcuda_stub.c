/* A link-time stand-in for libcuda.so on machines without NVIDIA's driver: it defines the driver
 * API entry points that the prebuilt test programs (driver_api, nvrtc) link to, under the versioned
 * names that cuda.h of CUDA 13.0 maps them to (cuMemAlloc -> cuMemAlloc_v2, ...), and is built
 * with the real library's soname, so a program linked against it asks for libcuda.so.1 at run time
 * (NVIDIA's driver, or cass-cc's libcuda on HIP). Every function only returns
 * CUDA_ERROR_STUB_LIBRARY (34): nothing is meant to run on it.
 *
 *   python3 tests/programs/prebuilt/prebuilt.py stub-libcuda DIR   ->  DIR/libcuda.so
 *
 * A program that starts calling another driver function needs its linked name added here
 * (`nm -u program.o | grep ' cu'` lists them). */

#define STUB(name) int name(void) { return 34; }

STUB(cuCtxCreate_v4)
STUB(cuCtxDestroy_v2)
STUB(cuCtxGetCurrent)
STUB(cuCtxGetDevice)
STUB(cuCtxSetCurrent)
STUB(cuCtxSynchronize)
STUB(cuDeviceGet)
STUB(cuDeviceGetAttribute)
STUB(cuDeviceGetCount)
STUB(cuDeviceGetName)
STUB(cuDevicePrimaryCtxRelease_v2)
STUB(cuDevicePrimaryCtxRetain)
STUB(cuEventCreate)
STUB(cuEventDestroy_v2)
STUB(cuEventElapsedTime_v2)
STUB(cuEventQuery)
STUB(cuEventRecord)
STUB(cuEventSynchronize)
STUB(cuFuncGetAttribute)
STUB(cuGetErrorName)
STUB(cuGetErrorString)
STUB(cuInit)
STUB(cuLaunchKernel)
STUB(cuLaunchKernelEx)
STUB(cuMemAlloc_v2)
STUB(cuMemFree_v2)
STUB(cuMemcpyDtoDAsync_v2)
STUB(cuMemcpyDtoD_v2)
STUB(cuMemcpyDtoHAsync_v2)
STUB(cuMemcpyDtoH_v2)
STUB(cuMemcpyHtoDAsync_v2)
STUB(cuMemcpyHtoD_v2)
STUB(cuMemsetD32_v2)
STUB(cuModuleGetFunction)
STUB(cuModuleGetGlobal_v2)
STUB(cuModuleLoad)
STUB(cuModuleLoadData)
STUB(cuModuleLoadDataEx)
STUB(cuModuleUnload)
STUB(cuStreamCreate)
STUB(cuStreamDestroy_v2)
STUB(cuStreamSynchronize)
