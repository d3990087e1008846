// cuda-samples style vectorAdd: checkCudaErrors around every call, device properties printed,
// pinned host memory, event timing on stderr, cudaGetLastError after the launch.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
template <typename T>
void check(T result, char const *const func, const char *const file, int const line)
{
    if (result) {
        fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line,
                static_cast<unsigned int>(result), cudaGetErrorName(result), func);
        printf("FAIL\n");
        exit(EXIT_FAILURE);
    }
}

__global__ void vectorAdd(const float *A, const float *B, float *C, int numElements)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < numElements)
        C[i] = A[i] + B[i] + 0.0f;
}

int main(int argc, char **argv)
{
    int devID = 0, deviceCount = 0;
    checkCudaErrors(cudaGetDeviceCount(&deviceCount));
    if (deviceCount == 0) {
        printf("no device\nFAIL\n");
        return 1;
    }
    checkCudaErrors(cudaSetDevice(devID));
    cudaDeviceProp deviceProp;
    checkCudaErrors(cudaGetDeviceProperties(&deviceProp, devID));
    fprintf(stderr, "GPU Device %d: \"%s\" with compute capability %d.%d\n", devID, deviceProp.name,
            deviceProp.major, deviceProp.minor);
    fprintf(stderr, "  SMs %d, warp %d, maxThreadsPerBlock %d, sharedMemPerBlock %zu, totalGlobalMem %zu\n",
            deviceProp.multiProcessorCount, deviceProp.warpSize, deviceProp.maxThreadsPerBlock,
            deviceProp.sharedMemPerBlock, deviceProp.totalGlobalMem);
    if (deviceProp.warpSize != 32 || deviceProp.maxThreadsPerBlock < 256 ||
        deviceProp.maxGridSize[0] < 65535 || deviceProp.multiProcessorCount < 1) {
        printf("implausible device properties\nFAIL\n");
        return 1;
    }
    int driverVersion = 0, runtimeVersion = 0;
    checkCudaErrors(cudaDriverGetVersion(&driverVersion));
    checkCudaErrors(cudaRuntimeGetVersion(&runtimeVersion));
    fprintf(stderr, "  driver %d runtime %d\n", driverVersion, runtimeVersion);

    int numElements = 1000;
    size_t size = numElements * sizeof(float);
    float *h_A, *h_B, *h_C;
    checkCudaErrors(cudaMallocHost((void **)&h_A, size));
    checkCudaErrors(cudaMallocHost((void **)&h_B, size));
    checkCudaErrors(cudaHostAlloc((void **)&h_C, size, cudaHostAllocDefault));
    for (int i = 0; i < numElements; ++i) {
        h_A[i] = (float)((i * 37) % 101) / 101.0f;
        h_B[i] = (float)((i * 53) % 97) / 97.0f;
    }
    float *d_A = NULL, *d_B = NULL, *d_C = NULL;
    checkCudaErrors(cudaMalloc((void **)&d_A, size));
    checkCudaErrors(cudaMalloc((void **)&d_B, size));
    checkCudaErrors(cudaMalloc((void **)&d_C, size));
    checkCudaErrors(cudaMemset(d_C, 0, size));

    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    checkCudaErrors(cudaEventRecord(start, 0));
    checkCudaErrors(cudaMemcpy(d_A, h_A, size, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(d_B, h_B, size, cudaMemcpyHostToDevice));
    int threadsPerBlock = 256;
    int blocksPerGrid = (numElements + threadsPerBlock - 1) / threadsPerBlock;
    vectorAdd<<<blocksPerGrid, threadsPerBlock>>>(d_A, d_B, d_C, numElements);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaMemcpy(h_C, d_C, size, cudaMemcpyDeviceToHost));
    checkCudaErrors(cudaEventRecord(stop, 0));
    checkCudaErrors(cudaEventSynchronize(stop));
    float msecTotal = 0.0f;
    checkCudaErrors(cudaEventElapsedTime(&msecTotal, start, stop));
    fprintf(stderr, "Time= %.3f msec\n", msecTotal);
    if (!(msecTotal >= 0.0f)) {
        printf("bad elapsed time\nFAIL\n");
        return 1;
    }

    long long checksum = 0;
    bool ok = true;
    for (int i = 0; i < numElements; ++i) {
        if (fabs(h_A[i] + h_B[i] - h_C[i]) > 1e-5) {
            fprintf(stderr, "Result verification failed at element %d!\n", i);
            ok = false;
            break;
        }
        checksum += (long long)(h_C[i] * 1000.0f);
    }
    checkCudaErrors(cudaFree(d_A));
    checkCudaErrors(cudaFree(d_B));
    checkCudaErrors(cudaFree(d_C));
    checkCudaErrors(cudaFreeHost(h_A));
    checkCudaErrors(cudaFreeHost(h_B));
    checkCudaErrors(cudaFreeHost(h_C));
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaDeviceReset());
    printf("checksum: %lld\n", checksum);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
