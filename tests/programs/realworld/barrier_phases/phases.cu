// cuda::barrier<cuda::thread_scope_block> without copies, over many phases: split arrive/wait
// with arrival tokens (work between them), a producer warp and a consumer warp handing tiles over
// through a "full" and an "empty" barrier, arrive(n) by one lane for its whole warp,
// arrive_and_drop shrinking the expected count, and a barrier with a completion function.
#include <cstdio>
#include <cstdlib>
#include <cuda/barrier>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int THREADS = 64, ROUNDS = 3;
using barrier = cuda::barrier<cuda::thread_scope_block>;

// ring: each round every thread publishes a value, arrives, does private work, waits on its
// token, then reads its neighbour's value (double-buffered, so one phase per round suffices). In
// odd rounds lane 0 of warp 1 arrives once for its whole warp (arrive(32)) and releases its lanes
// with __syncwarp after its wait.
__global__ void ring_kernel(const int *in, int *out)
{
    __shared__ int v[2][THREADS];
    __shared__ barrier bar;
    int t = threadIdx.x;
    if (t == 0) init(&bar, blockDim.x);
    __syncthreads();
    unsigned acc = in[blockIdx.x * THREADS + t], priv = t;
    for (int r = 0; r < ROUNDS; r++) {
        v[r & 1][t] = (int)acc;
        if ((r & 1) && t >= 32) {
            __syncwarp();                                // the warp's writes before its one arrive
            barrier::arrival_token token;
            if (t == 32) token = bar.arrive(32);
            for (int k = 0; k < 3; k++) priv = priv * 1103515245u + 12345u;
            if (t == 32) bar.wait(std::move(token));
            __syncwarp();
        } else {
            barrier::arrival_token token = bar.arrive();
            for (int k = 0; k < 3; k++) priv = priv * 1103515245u + 12345u;   // work between arrive and wait
            bar.wait(std::move(token));
        }
        unsigned got = (unsigned)v[r & 1][(t + THREADS - 1) % THREADS];
        acc = acc * 3 + got + (priv & 0xff);
    }
    out[blockIdx.x * THREADS + t] = (int)acc;
}

// warp 0 fills a tile, warp 1 consumes it; full/empty barriers of 64 arrivals each
__global__ void handoff_kernel(const int *in, int *out, int tiles)
{
    __shared__ int tile[32];
    __shared__ barrier full, empty;
    int t = threadIdx.x;
    if (t == 0) { init(&full, 64); init(&empty, 64); }
    __syncthreads();
    unsigned acc = 0;
    for (int i = 0; i < tiles; i++) {
        if (t < 32) {
            if (i > 0) empty.arrive_and_wait();          // the consumer took the previous tile
            tile[t] = in[(blockIdx.x * tiles + i) * 32 + t];
            (void)full.arrive();
        } else {
            full.arrive_and_wait();
            acc = acc * 7 + (unsigned)tile[63 - t];
            if (i < tiles - 1) (void)empty.arrive();
        }
    }
    if (t >= 32) out[blockIdx.x * 32 + t - 32] = (int)acc;
}

// odd threads drop out after round 1; the remaining ones keep going on the shrunk barrier
__global__ void drop_kernel(int *out)
{
    __shared__ int count[ROUNDS];
    __shared__ barrier bar;
    int t = threadIdx.x;
    if (t < ROUNDS) count[t] = 0;
    if (t == 0) init(&bar, blockDim.x);
    __syncthreads();
    for (int r = 0; r < ROUNDS; r++) {
        atomicAdd(&count[r], 1);
        if ((t & 1) && r == 1) { bar.arrive_and_drop(); return; }
        bar.arrive_and_wait();
        if (t == 0) out[blockIdx.x * ROUNDS + r] = count[r];
    }
}

struct Tally {
    int *phases;
    __device__ void operator()() noexcept { ++*phases; }
};

// a completion function runs once per phase, before anyone is released
__global__ void completion_kernel(int *out)
{
    __shared__ int phases, seen[THREADS];
    using tally_barrier = cuda::barrier<cuda::thread_scope_block, Tally>;
    __shared__ __align__(alignof(tally_barrier)) unsigned char storage[sizeof(tally_barrier)];
    auto *bar = reinterpret_cast<tally_barrier *>(storage);
    int t = threadIdx.x;
    if (t == 0) { phases = 0; init(bar, blockDim.x, Tally{&phases}); }
    __syncthreads();
    int sum = 0;
    for (int r = 0; r < ROUNDS; r++) {
        bar->arrive_and_wait();
        seen[t] = phases;
        bar->arrive_and_wait();
        sum += seen[(t + r) % THREADS] * (r + 1);
    }
    out[blockIdx.x * THREADS + t] = sum;
}

int main()
{
    constexpr int BLOCKS = 2, TILES = 3;
    static int in[BLOCKS * TILES * 32 + BLOCKS * THREADS];
    for (int i = 0; i < (int)(sizeof in / sizeof in[0]); i++) in[i] = (i * 97 + 31) % 1013 - 500;
    int *d_in, *d_out;
    static int out[BLOCKS * THREADS];
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    int bad = 0;
    long long checksum = 0;

    ring_kernel<<<BLOCKS, THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BLOCKS; b++) {
        unsigned acc[THREADS], priv[THREADS], v[THREADS];
        for (int t = 0; t < THREADS; t++) acc[t] = in[b * THREADS + t], priv[t] = t;
        for (int r = 0; r < ROUNDS; r++) {
            for (int t = 0; t < THREADS; t++) v[t] = acc[t];
            for (int t = 0; t < THREADS; t++) {
                for (int k = 0; k < 3; k++) priv[t] = priv[t] * 1103515245u + 12345u;
                acc[t] = acc[t] * 3 + v[(t + THREADS - 1) % THREADS] + (priv[t] & 0xff);
            }
        }
        for (int t = 0; t < THREADS; t++) {
            if ((unsigned)out[b * THREADS + t] != acc[t] && bad++ < 5)
                fprintf(stderr, "ring block %d thread %d: %d want %d\n", b, t, out[b * THREADS + t], (int)acc[t]);
            checksum += out[b * THREADS + t] % 10007;
        }
    }

    handoff_kernel<<<BLOCKS, 64>>>(d_in, d_out, TILES);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BLOCKS; b++)
        for (int x = 0; x < 32; x++) {
            unsigned want = 0;
            for (int i = 0; i < TILES; i++) want = want * 7 + (unsigned)in[(b * TILES + i) * 32 + 31 - x];
            if ((unsigned)out[b * 32 + x] != want && bad++ < 5)
                fprintf(stderr, "handoff block %d thread %d: %d want %d\n", b, x, out[b * 32 + x], (int)want);
            checksum += out[b * 32 + x] % 10007;
        }

    drop_kernel<<<BLOCKS, THREADS>>>(d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof(int) * BLOCKS * ROUNDS, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BLOCKS; b++)
        for (int r = 0; r < ROUNDS; r++) {
            int want = r <= 1 ? THREADS : THREADS / 2;
            if (out[b * ROUNDS + r] != want && bad++ < 5)
                fprintf(stderr, "drop block %d round %d: %d want %d\n", b, r, out[b * ROUNDS + r], want);
            checksum += out[b * ROUNDS + r] * (r + 1);
        }

    completion_kernel<<<BLOCKS, THREADS>>>(d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BLOCKS; b++)
        for (int t = 0; t < THREADS; t++) {
            int want = 0;
            for (int r = 0; r < ROUNDS; r++) want += (2 * r + 1) * (r + 1);
            if (out[b * THREADS + t] != want && bad++ < 5)
                fprintf(stderr, "completion block %d thread %d: %d want %d\n", b, t, out[b * THREADS + t], want);
            checksum += out[b * THREADS + t];
        }
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
