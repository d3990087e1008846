// A per-thread cuda::pipeline (cuda::make_pipeline() -> cuda::pipeline<cuda::thread_scope_thread>):
// each thread streams its own rows through STAGES shared-memory slots, STAGES - 1 copies in flight,
// producer_acquire / cuda::memcpy_async(dst, src, size, pipe) / producer_commit and
// consumer_wait / consumer_release; cuda::pipeline_consumer_wait_prior<N> drains the tail.
#include <cstdio>
#include <cstdlib>
#include <cuda/pipeline>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int THREADS = 64, STAGES = 3, ROW = 4;   // a row is one int4

__global__ void rows_kernel(const int4 *in, long long *out, int rows)
{
    __shared__ __align__(16) int4 slot[STAGES][THREADS];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const int g = blockIdx.x * THREADS + threadIdx.x;
    const int4 *mine = in + (size_t)g * rows;
    long long acc = 0;
    int fetched = 0;
    for (; fetched < STAGES - 1 && fetched < rows; ++fetched) {
        pipe.producer_acquire();
        cuda::memcpy_async(&slot[fetched % STAGES][threadIdx.x], &mine[fetched], sizeof(int4), pipe);
        pipe.producer_commit();
    }
    for (int r = 0; r < rows; ++r) {
        if (fetched < rows) {
            pipe.producer_acquire();
            cuda::memcpy_async(&slot[fetched % STAGES][threadIdx.x], &mine[fetched], sizeof(int4), pipe);
            pipe.producer_commit();
            ++fetched;
            cuda::pipeline_consumer_wait_prior<STAGES - 1>(pipe);
        } else {
            pipe.consumer_wait();
        }
        int4 v = slot[r % STAGES][threadIdx.x];
        acc = acc * 3 + v.x + 2 * v.y - v.z + 5 * v.w;
        pipe.consumer_release();
    }
    out[g] = acc;
}

int main()
{
    constexpr int BLOCKS = 2, ROWS = 9, N = BLOCKS * THREADS * ROWS;
    static int4 in[N];
    static long long out[BLOCKS * THREADS];
    for (int i = 0; i < N; i++) in[i] = make_int4(i % 97 - 40, (i * 13) % 31, -(i % 7), i % 5);
    int4 *d_in;
    long long *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_out, 0, sizeof out));
    rows_kernel<<<BLOCKS, THREADS>>>(d_in, d_out, ROWS);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    long long checksum = 0;
    for (int g = 0; g < BLOCKS * THREADS; g++) {
        long long want = 0;
        for (int r = 0; r < ROWS; r++) {
            int4 v = in[g * ROWS + r];
            want = want * 3 + v.x + 2 * v.y - v.z + 5 * v.w;
        }
        if (out[g] != want && bad++ < 5) fprintf(stderr, "thread %d: %lld want %lld\n", g, out[g], want);
        checksum += out[g] % 1000003;
    }
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
