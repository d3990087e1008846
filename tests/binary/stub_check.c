/* A host program against libcassrt alone (no device needed): unsupported functions, error codes
 * and strings, the last-error rules, versions and the launch-configuration stack. */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream);

#define CHECK(cond)                                                   \
    do {                                                              \
        if (!(cond)) {                                                \
            printf("FAIL line %d: %s\n", __LINE__, #cond);            \
            return 1;                                                 \
        }                                                             \
    } while (0)

int main(void)
{
    cudaIpcMemHandle_t handle;
    int dummy;
    CHECK(cudaIpcGetMemHandle(&handle, &dummy) == cudaErrorNotSupported);
    CHECK(cudaIpcGetMemHandle(&handle, &dummy) == cudaErrorNotSupported);
    CHECK(cudaPeekAtLastError() == cudaErrorNotSupported);
    CHECK(cudaGetLastError() == cudaErrorNotSupported);
    CHECK(cudaGetLastError() == cudaSuccess);
    CHECK(strcmp(cudaGetErrorString(cudaErrorNotSupported), "operation not supported") == 0);
    CHECK(strcmp(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument") == 0);
    CHECK(strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0);
    CHECK(strcmp(cudaGetErrorName(cudaErrorMemoryAllocation), "cudaErrorMemoryAllocation") == 0);
    CHECK(strcmp(cudaGetErrorName((cudaError_t)12345), "unrecognized error code") == 0);
    int version = 0;
    CHECK(cudaRuntimeGetVersion(&version) == cudaSuccess && version == CUDART_VERSION);
    dim3 g = {3, 2, 1}, b = {64, 1, 1}, g2, b2;
    size_t shared = 0;
    cudaStream_t stream = 0;
    CHECK(__cudaPushCallConfiguration(g, b, 128, (struct CUstream_st *)0x10) == 0);
    CHECK(__cudaPopCallConfiguration(&g2, &b2, &shared, &stream) == cudaSuccess);
    CHECK(g2.x == 3 && g2.y == 2 && b2.x == 64 && shared == 128 && stream == (cudaStream_t)0x10);
    CHECK(__cudaPopCallConfiguration(&g2, &b2, &shared, &stream) == cudaErrorMissingConfiguration);
    CHECK(cudaLaunchKernel((const void *)main, g, b, NULL, 0, 0) == cudaErrorInvalidDeviceFunction);
    printf("PASS\n");
    return 0;
}
