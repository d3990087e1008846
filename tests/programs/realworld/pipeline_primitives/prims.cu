// The pipeline primitives of <cuda_pipeline.h> as a 3-stage stream: __pipeline_memcpy_async of
// 16, 8 and 4 bytes (and a zero-filled tail of src_size 0), one __pipeline_commit per stage,
// __pipeline_wait_prior(2/1/0) before each stage is read, __syncthreads around the reuse of a slot.
#include <cstdio>
#include <cstdlib>
#include <cuda_pipeline.h>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int THREADS = 64, STAGES = 3, CHUNK = THREADS * 4;   // ints per stage

__device__ void issue(int *slot, const int *src, int valid)
{
    int t = threadIdx.x;
    if (t < THREADS / 2) {          // half the block copies 16 bytes at a time
        __pipeline_memcpy_async(slot + 8 * t, src + 8 * t, 16);
        __pipeline_memcpy_async(slot + 8 * t + 4, src + 8 * t + 4, 8);
        __pipeline_memcpy_async(slot + 8 * t + 6, src + 8 * t + 6, 8);
    } else {                        // the other half 4 bytes, zero-filling past `valid`
        for (int k = 0; k < 8; k++) {
            int i = 8 * t + k;
            int skip = i < valid ? 0 : 4;
            __pipeline_memcpy_async(slot + i, src + i, 4, skip);
        }
    }
    __pipeline_commit();
}

__global__ void stream_kernel(const int *in, long long *out, int chunks, int valid_last)
{
    __shared__ __align__(16) int slot[STAGES][2 * CHUNK];
    const int *base = in + (size_t)blockIdx.x * chunks * 2 * CHUNK;
    long long acc = 0;
    for (int s = 0; s < STAGES - 1; s++) issue(slot[s], base + s * 2 * CHUNK, s == chunks - 1 ? valid_last : 2 * CHUNK);
    for (int c = 0; c < chunks; c++) {
        int next = c + STAGES - 1;
        if (next < chunks) {
            issue(slot[next % STAGES], base + next * 2 * CHUNK, next == chunks - 1 ? valid_last : 2 * CHUNK);
            __pipeline_wait_prior(STAGES - 1);
        } else if (next == chunks) {
            __pipeline_wait_prior(1);
        } else {
            __pipeline_wait_prior(0);
        }
        __syncthreads();
        const int *v = slot[c % STAGES];
        for (int k = 0; k < 8; k++) acc += (long long)v[(threadIdx.x * 29 + k * 67) % (2 * CHUNK)] * (c + k + 1);
        __syncthreads();
    }
    out[blockIdx.x * THREADS + threadIdx.x] = acc;
}

int main()
{
    constexpr int BLOCKS = 2, CHUNKS = 5, PER = CHUNKS * 2 * CHUNK, VALID = 2 * CHUNK - 37;
    static int in[BLOCKS * PER];
    static long long out[BLOCKS * THREADS];
    for (int i = 0; i < BLOCKS * PER; i++) in[i] = (i * 2654435761u) % 2001 - 1000;
    int *d_in;
    long long *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    stream_kernel<<<BLOCKS, THREADS>>>(d_in, d_out, CHUNKS, VALID);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    long long checksum = 0;
    for (int b = 0; b < BLOCKS; b++)
        for (int t = 0; t < THREADS; t++) {
            long long want = 0;
            for (int c = 0; c < CHUNKS; c++)
                for (int k = 0; k < 8; k++) {
                    int i = (t * 29 + k * 67) % (2 * CHUNK);
                    // the 4-byte copies (second half of each chunk) past VALID in the last chunk are zeros
                    bool zero = c == CHUNKS - 1 && i >= CHUNK && i >= VALID;
                    long long v = zero ? 0 : in[b * PER + c * 2 * CHUNK + i];
                    want += v * (c + k + 1);
                }
            if (out[b * THREADS + t] != want && bad++ < 5)
                fprintf(stderr, "block %d thread %d: %lld want %lld\n", b, t, out[b * THREADS + t], want);
            checksum += out[b * THREADS + t];
        }
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
