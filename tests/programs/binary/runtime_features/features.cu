// CUDA runtime features through libcassrt: __device__/__constant__ variables and the symbol
// copies, dynamic shared memory, launch bounds, device printf, streams and events, device and
// kernel queries. Self-checking against a CPU reference.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t e_ = (call);                                                      \
        if (e_ != cudaSuccess) {                                                      \
            printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            printf("FAIL\n");                                                         \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

__constant__ int coeffs[4];
__device__ int counter;
__device__ float bias = 0.5f;

// Dynamic shared memory: each block reverses its slice, scaled by a constant coefficient.
__global__ void __launch_bounds__(128) reverse_scale(const int *in, int *out, int n)
{
    extern __shared__ int tile[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    tile[t] = i < n ? in[i] : 0;
    __syncthreads();
    int j = blockIdx.x * blockDim.x + (blockDim.x - 1 - t);
    if (j < n)
        out[j] = tile[t] * coeffs[blockIdx.x % 4];
    atomicAdd(&counter, 1);
}

__global__ void add_bias(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += bias;
    if (i == 0)
        printf("add_bias: block %d of %d\n", (int)blockIdx.x, (int)gridDim.x);
}

int main()
{
    const int n = 256, block = 64, blocks = n / block;
    int h_in[n], h_out[n], h_coeffs[4] = {1, 2, 3, -1};
    for (int i = 0; i < n; i++)
        h_in[i] = i * 7 - 100;

    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    if (prop.warpSize != 32 || prop.maxThreadsPerBlock < 128) {
        printf("unexpected device: warpSize %d\nFAIL\n", prop.warpSize);
        return 1;
    }

    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyToSymbol(coeffs, h_coeffs, sizeof h_coeffs));
    int zero = 0;
    CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));

    cudaStream_t stream;
    cudaEvent_t start, stop;
    CHECK(cudaStreamCreate(&stream));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, stream));
    reverse_scale<<<blocks, block, block * sizeof(int), stream>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaStreamSynchronize(stream));
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpyAsync(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    int launched = 0;
    CHECK(cudaMemcpyFromSymbol(&launched, counter, sizeof launched));

    long long checksum = 0;
    int ok = ms >= 0 && launched == n;
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < block; t++) {
            int j = b * block + (block - 1 - t);
            int want = h_in[b * block + t] * h_coeffs[b % 4];
            ok &= h_out[j] == want;
            checksum += (long long)h_out[j] * (j + 1);
        }

    float h_x[n], *d_x;
    for (int i = 0; i < n; i++)
        h_x[i] = i * 0.25f;
    CHECK(cudaMalloc(&d_x, sizeof h_x));
    CHECK(cudaMemcpy(d_x, h_x, sizeof h_x, cudaMemcpyHostToDevice));
    float two = 2.0f;
    CHECK(cudaMemcpyToSymbol(bias, &two, sizeof two));
    add_bias<<<2, n / 2>>>(d_x, n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_x, d_x, sizeof h_x, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        ok &= h_x[i] == i * 0.25f + 2.0f;
        checksum += (long long)(h_x[i] * 4);
    }

    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, (const void *)reverse_scale));
    ok &= attr.maxThreadsPerBlock >= 64;
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)reverse_scale, block, block * sizeof(int)));
    ok &= per_sm > 0;

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_x));
    CHECK(cudaStreamDestroy(stream));
    printf("checksum: %lld\n", checksum);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
