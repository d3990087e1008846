// Probe of the mbarrier (the 64-bit object in shared memory behind cuda::barrier and
// cuda::pipeline) through a fixed sequence: init(5), arrives, a phase completion, arrive_drop,
// more arrives, and 32 threads' cp.async arrive-ons. For every step it prints the raw word and
// checks what PTX defines: mbarrier.pending_count of the word and of the tokens, and
// test_wait.parity for the phases completed; the checksum covers only those, so it is the same on
// every architecture. Code built for sm_80..sm_89 also checks the raw words against the encoding
// nvcc's sm_80 SASS uses, which cass-cc's lifter relies on (passes/lift/mbarrier.py): low word =
// 2^30 - expected count, high word = phase << 31 | (2^31 - pending count). sm_90 encodes the word
// differently (its init stores (2^20 - n) << 1 and << 43), so there the words are only printed.
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

typedef unsigned long long u64;
constexpr int STEPS = 10, THREADS = 32;

struct Probe {
    u64 word[STEPS];          // raw words (6 and 7 are the tokens of the first and fifth arrive)
    unsigned pending[STEPS];  // mbarrier.pending_count of each
    unsigned parity[STEPS];   // bit p: test_wait.parity(p) is true
    int arch;
};

__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ u64 arrive(u64 *bar)
{
    u64 state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(smem(bar)) : "memory");
    return state;
}
__device__ __forceinline__ unsigned pending(u64 state)
{
    unsigned n;
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(n) : "l"(state));
    return n;
}
__device__ __forceinline__ unsigned parity_done(u64 *bar, unsigned parity)
{
    unsigned done;
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(smem(bar)), "r"(parity) : "memory");
    return done;
}
__device__ void record(Probe *out, int i, u64 *bar, u64 word)
{
    out->word[i] = word;
    out->pending[i] = pending(word);
    out->parity[i] = bar ? parity_done(bar, 0) | parity_done(bar, 1) << 1 : 0;
}
__device__ __forceinline__ u64 raw(u64 *bar) { return *(volatile u64 *)bar; }

__global__ void probe(const int *in, Probe *out, int *copied)
{
    __shared__ u64 bar, wide;
    __shared__ int buf[THREADS];
    int t = threadIdx.x;
    if (t == 0) {
#ifdef __CUDA_ARCH__
        out->arch = __CUDA_ARCH__;
#endif
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(smem(&bar)), "r"(5) : "memory");
        record(out, 0, &bar, raw(&bar));
        u64 first = arrive(&bar);
        record(out, 1, &bar, raw(&bar));
        for (int i = 0; i < 3; i++) arrive(&bar);
        record(out, 2, &bar, raw(&bar));
        u64 last = arrive(&bar);
        record(out, 3, &bar, raw(&bar));
        asm volatile("{ .reg .b64 st; mbarrier.arrive_drop.shared.b64 st, [%0]; }" :: "r"(smem(&bar)) : "memory");
        record(out, 4, &bar, raw(&bar));
        for (int i = 0; i < 4; i++) arrive(&bar);
        record(out, 5, &bar, raw(&bar));
        record(out, 6, nullptr, first);
        record(out, 7, nullptr, last);
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(smem(&wide)), "r"(THREADS) : "memory");
    }
    __syncthreads();
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(smem(&buf[t])), "l"(in + t) : "memory");
    asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" :: "r"(smem(&wide)) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");       // the copies, and so their arrive-ons, are done
    __syncthreads();
    if (t == 0) record(out, 8, &wide, raw(&wide));
    __syncthreads();
    u64 s = arrive(&wide);
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(smem(&wide)), "l"(s) : "memory");
    copied[t] = buf[THREADS - 1 - t];
    __syncthreads();
    if (t == 0) record(out, 9, &wide, raw(&wide));
}

static u64 sm80_word(unsigned phase, unsigned pend, unsigned expected)
{
    return ((u64)((phase << 31) | (0x80000000u - pend)) << 32) | (0x40000000u - expected);
}

int main()
{
    static int in[THREADS], copied[THREADS];
    for (int i = 0; i < THREADS; i++) in[i] = i * 11 - 7;
    int *d_in, *d_copied;
    Probe *d_out, out;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in));
    CUDA_CHECK(cudaMalloc(&d_copied, sizeof copied));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_out, 0, sizeof out));
    probe<<<1, THREADS>>>(d_in, d_out, d_copied);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(&out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(copied, d_copied, sizeof copied, cudaMemcpyDeviceToHost));
    // phase, pending, expected at each step; parity bits: test_wait.parity(p) is true when p is
    // the parity of the phase before the current one (PTX: p names the current or the preceding phase)
    const unsigned phase[STEPS] = {0, 0, 0, 1, 1, 0, 0, 0, 0, 1};
    const unsigned pend[STEPS] = {5, 4, 1, 5, 4, 4, 5, 1, 32, 32};
    const unsigned expected[STEPS] = {5, 5, 5, 5, 4, 4, 5, 5, 32, 32};
    const unsigned parity[STEPS] = {2, 2, 2, 1, 1, 2, 0, 0, 2, 1};
    const char *what[STEPS] = {"init(5)", "1 arrive", "4 arrives", "5 arrives", "arrive_drop", "4 more",
                               "token of arrive 1", "token of arrive 5", "32 cp.async arrive-ons", "32 arrives"};
    bool sm80 = out.arch >= 800 && out.arch < 900;
    int bad = 0;
    u64 checksum = 0;
    printf("device code for sm_%d\n", out.arch / 10);
    for (int i = 0; i < STEPS; i++) {
        bool encoding = sm80_word(phase[i], pend[i], expected[i]) == out.word[i];
        printf("%-24s %016llx pending %u parity-done %u%s\n", what[i], out.word[i], out.pending[i],
               out.parity[i], sm80 && !encoding ? "  (differs from the sm_80 encoding)" : "");
        if (out.pending[i] != pend[i] || out.parity[i] != parity[i] || (sm80 && !encoding)) bad++;
        checksum = checksum * 31 + out.pending[i] * 4 + out.parity[i];
    }
    for (int t = 0; t < THREADS; t++) {
        if (copied[t] != in[THREADS - 1 - t]) bad++;
        checksum += copied[t];
    }
    printf("checksum: %llu\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
