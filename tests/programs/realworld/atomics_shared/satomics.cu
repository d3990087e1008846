// Block-local accumulation in shared memory the way histogram and reduction kernels write it:
// 64-bit add/max/min/exchange, float and double add, __half2 add, 16-bit CAS loops and atomicInc
// on __shared__ variables; then cuda::std::atomic with seq_cst loads/stores/RMW, a CAS, fences at
// every scope, and a volatile flag, merged into global results.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cuda_fp16.h>
#include <cuda/std/atomic>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int BLOCKS = 3, THREADS = 64;

struct BlockResult {
    unsigned long long sum64;
    long long max64, min64;
    float fsum;
    double dsum;
    float h_lo, h_hi;
    unsigned counter16, inc;
    int exch_ok;
};

__global__ void shared_atomics(const int *in, BlockResult *out)
{
    __shared__ unsigned long long s64;
    __shared__ long long smax, smin;
    __shared__ float sf;
    __shared__ double sd;
    __shared__ __half2 sh;
    __shared__ unsigned short s16[2];
    __shared__ unsigned long long sx;
    __shared__ unsigned su;
    if (threadIdx.x == 0) {
        s64 = 0; smax = INT64_MIN; smin = INT64_MAX; sf = 0; sd = 0; sh = __floats2half2_rn(0.0f, 0.0f);
        s16[0] = s16[1] = 0; sx = 0; su = 0;
    }
    __syncthreads();
    int v = in[blockIdx.x * THREADS + threadIdx.x];
    atomicAdd(&s64, (unsigned long long)(unsigned)v << 16);
    atomicMax(&smax, (long long)v * 4096 - 7);
    atomicMin(&smin, (long long)v * -3);
    atomicAdd(&sf, 0.5f * (v & 15));
    atomicAdd(&sd, 0.125 * (v & 31));
    atomicAdd(&sh, __floats2half2_rn(1.0f, 0.25f * (v & 3)));
    unsigned short *c = &s16[threadIdx.x & 1];
    unsigned short old = *c, seen;
    do {
        seen = old;
        old = atomicCAS(c, seen, (unsigned short)(seen + 1));
    } while (old != seen);
    unsigned long long prev = atomicExch(&sx, (unsigned long long)threadIdx.x + 1);
    atomicInc(&su, 40u);
    __syncthreads();
    if (prev > THREADS) atomicAdd(&su, 1000u);       // never: sx only holds 0 or thread numbers + 1
    __syncthreads();
    if (threadIdx.x == 0) {
        BlockResult r;
        r.sum64 = s64; r.max64 = smax; r.min64 = smin; r.fsum = sf; r.dsum = sd;
        r.h_lo = __low2float(sh); r.h_hi = __high2float(sh);
        r.counter16 = s16[0] + 1000u * s16[1]; r.inc = su; r.exch_ok = sx >= 1 && sx <= THREADS;
        out[blockIdx.x] = r;
    }
}

__global__ void std_atomics(cuda::std::atomic<int> *counter, cuda::std::atomic<unsigned long long> *mask,
                            volatile int *flag, int *data)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    data[t] = t * 3;
    __threadfence_block();
    __threadfence();
    __threadfence_system();
    counter->fetch_add(1, cuda::std::memory_order_seq_cst);
    mask->fetch_or(1ull << (t % 64), cuda::std::memory_order_acq_rel);
    cuda::std::atomic_thread_fence(cuda::std::memory_order_seq_cst);
    if (t == 0) {
        int expected = 0;
        while (!counter->compare_exchange_weak(expected, expected, cuda::std::memory_order_acquire)) {}
        *flag = 1;
    }
    data[t] += counter->load(cuda::std::memory_order_seq_cst) > 0 ? 1 : 0;
}

int main()
{
    static int in[BLOCKS * THREADS];
    for (int i = 0; i < BLOCKS * THREADS; i++) in[i] = (int)((i * 2654435761u) >> 12) % 100000 - 50000;
    int *d_in; BlockResult *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in)); CUDA_CHECK(cudaMalloc(&d_out, BLOCKS * sizeof(BlockResult)));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    shared_atomics<<<BLOCKS, THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    BlockResult out[BLOCKS];
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    double checksum = 0;
    for (int b = 0; b < BLOCKS; b++) {
        unsigned long long sum = 0; long long mx = INT64_MIN, mn = INT64_MAX; double fs = 0, ds = 0, hh = 0;
        for (int t = 0; t < THREADS; t++) {
            int v = in[b * THREADS + t];
            sum += (unsigned long long)(unsigned)v << 16;
            long long a = (long long)v * 4096 - 7, c = (long long)v * -3;
            mx = a > mx ? a : mx; mn = c < mn ? c : mn;
            fs += 0.5 * (v & 15); ds += 0.125 * (v & 31); hh += 0.25 * (v & 3);
        }
        // atomicInc(&su, 40): counts 0..40 then wraps to 0, 64 increments end at 64 - 41 = 23
        const BlockResult &r = out[b];
        bool ok = r.sum64 == sum && r.max64 == mx && r.min64 == mn && r.fsum == fs && r.dsum == ds &&
                  r.h_lo == THREADS && r.h_hi == hh && r.counter16 == 32u + 1000u * 32u && r.inc == 23u && r.exch_ok;
        checksum += (double)(r.sum64 % 1000003) + (double)(r.max64 % 1000) + r.fsum + r.dsum + r.h_hi + r.inc;
        if (!ok && bad++ < 3)
            fprintf(stderr, "block %d: sum %llu/%llu max %lld/%lld min %lld/%lld f %g/%g d %g/%g half %g,%g/%d,%g c16 %u inc %u exch %d\n",
                    b, r.sum64, sum, r.max64, mx, r.min64, mn, r.fsum, fs, r.dsum, ds, r.h_lo, r.h_hi, THREADS, hh,
                    r.counter16, r.inc, r.exch_ok);
    }
    cuda::std::atomic<int> *d_counter; cuda::std::atomic<unsigned long long> *d_mask; int *d_flag, *d_data;
    CUDA_CHECK(cudaMalloc(&d_counter, sizeof(int))); CUDA_CHECK(cudaMalloc(&d_mask, 8));
    CUDA_CHECK(cudaMalloc(&d_flag, sizeof(int))); CUDA_CHECK(cudaMalloc(&d_data, 128 * sizeof(int)));
    CUDA_CHECK(cudaMemset(d_counter, 0, sizeof(int))); CUDA_CHECK(cudaMemset(d_mask, 0, 8)); CUDA_CHECK(cudaMemset(d_flag, 0, 4));
    std_atomics<<<2, 64>>>(d_counter, d_mask, d_flag, d_data);
    CUDA_CHECK(cudaGetLastError());
    int counter, flag, data[128];
    unsigned long long mask;
    CUDA_CHECK(cudaMemcpy(&counter, d_counter, 4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&mask, d_mask, 8, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&flag, d_flag, 4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(data, d_data, sizeof data, cudaMemcpyDeviceToHost));
    if ((counter != 128 || mask != ~0ull || flag != 1) && bad++ < 5) fprintf(stderr, "std atomics: %d %llx %d\n", counter, mask, flag);
    for (int t = 0; t < 128; t++) {
        checksum += data[t];
        if (data[t] != t * 3 + 1 && bad++ < 5) fprintf(stderr, "data %d: %d\n", t, data[t]);
    }
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
