// Atomics of every width and type real code uses: atomicAdd on __half2 / __nv_bfloat162 /
// double / unsigned long long, 16-, 32- and 64-bit atomicCAS, 64-bit signed and unsigned
// atomicMin/Max, atomicExch on float, block- and system-scope variants, and libcu++'s
// cuda::atomic_ref / cuda::std::atomic with explicit memory orders. Every final value is
// independent of the order in which threads arrive.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/atomic>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

constexpr int BLOCKS = 4, THREADS = 64, N = BLOCKS * THREADS;

struct Totals {
    __half2 h2;
    __nv_bfloat162 b2;
    double dsum;
    unsigned long long usum;
    long long smin64, smax64;
    unsigned long long umin64, umax64;
    unsigned long long cas64;
    unsigned int cas32;
    unsigned short cas16[2];
    float exch;
    int block_sum;
    int system_sum;
    int ref_sum;            // cuda::atomic_ref
    unsigned int ref_max;
    long long ref_sub64;
    float ref_fadd;
    int flag_count;
    unsigned int fetch_or, fetch_and, fetch_xor;
};

__device__ cuda::atomic<int, cuda::thread_scope_device> g_ticket;

__global__ void atomics_kernel(const int *in, Totals *t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    // half and bfloat16 pairs: values are small multiples of 1/4, every partial sum exact
    atomicAdd(&t->h2, __halves2half2(__float2half(0.25f * (v & 3)), __float2half(0.5f * (v & 1))));
    atomicAdd(&t->b2, __floats2bfloat162_rn(1.0f * (v & 1), 2.0f * (v & 1)));
    atomicAdd(&t->dsum, 0.0625 * (v & 15));
    atomicAdd(&t->usum, (unsigned long long)(unsigned)v << 24);
    long long wide = (long long)v * 1000003LL - (1LL << 40);
    atomicMin(&t->smin64, wide);
    atomicMax(&t->smax64, wide);
    atomicMin(&t->umin64, (unsigned long long)wide);
    atomicMax(&t->umax64, (unsigned long long)wide);
    // 64-bit CAS loop: add (v & 7) + 1
    unsigned long long seen = t->cas64, assumed;
    do {
        assumed = seen;
        seen = atomicCAS(&t->cas64, assumed, assumed + (v & 7) + 1);
    } while (seen != assumed);
    // 32-bit CAS loop: xor-rotate accumulate is order dependent, so add instead
    unsigned s32 = t->cas32, a32;
    do {
        a32 = s32;
        s32 = atomicCAS(&t->cas32, a32, a32 + (unsigned)(v & 0xff));
    } while (s32 != a32);
    // 16-bit CAS (sm_70+): two adjacent counters in one word
    unsigned short *c16 = &t->cas16[i & 1];
    unsigned short s16 = *c16, a16;
    do {
        a16 = s16;
        s16 = atomicCAS(c16, a16, (unsigned short)(a16 + 1));
    } while (s16 != a16);
    float old = atomicExch(&t->exch, 2.5f);
    if (old != 0.0f && old != 2.5f)
        atomicAdd_system(&t->system_sum, 1 << 20);      // never: exch only ever holds 0 or 2.5
    atomicAdd_block(&t->block_sum, v & 31);
    atomicAdd_system(&t->system_sum, 1);
    cuda::atomic_ref<int, cuda::thread_scope_device> sum(t->ref_sum);
    sum.fetch_add(v & 63, cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned int, cuda::thread_scope_block> mx(t->ref_max);
    mx.fetch_max((unsigned)v * 2654435761u, cuda::memory_order_relaxed);
    cuda::atomic_ref<long long, cuda::thread_scope_system> sub(t->ref_sub64);
    sub.fetch_sub((long long)(v & 255) << 33);
    cuda::atomic_ref<float, cuda::thread_scope_device> fa(t->ref_fadd);
    fa.fetch_add(0.125f * (v & 7));
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> bits(t->fetch_or);
    bits.fetch_or(1u << (v & 31));
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> andb(t->fetch_and);
    andb.fetch_and(~(1u << (i & 31)));
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> xorb(t->fetch_xor);
    xorb.fetch_xor((unsigned)v);
    // a release/acquire ticket: the last thread of the grid sees every earlier increment
    int ticket = g_ticket.fetch_add(1, cuda::std::memory_order_acq_rel);
    if (ticket == N - 1)
        t->flag_count = g_ticket.load(cuda::std::memory_order_acquire);
}

int main()
{
    int in[N];
    uint32_t x = 88172645u;
    for (int i = 0; i < N; i++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        in[i] = (int)(x % 200001u) - 100000;
    }
    Totals init;
    memset(&init, 0, sizeof init);
    init.smin64 = INT64_MAX; init.smax64 = INT64_MIN;
    init.umin64 = UINT64_MAX; init.umax64 = 0;
    init.fetch_and = ~0u;
    int *d_in; Totals *d_t;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in));
    CUDA_CHECK(cudaMalloc(&d_t, sizeof(Totals)));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_t, &init, sizeof init, cudaMemcpyHostToDevice));
    atomics_kernel<<<BLOCKS, THREADS>>>(d_in, d_t);
    CUDA_CHECK(cudaGetLastError());
    Totals t;
    CUDA_CHECK(cudaMemcpy(&t, d_t, sizeof t, cudaMemcpyDeviceToHost));

    // CPU reference
    double h2lo = 0, h2hi = 0, b2lo = 0, b2hi = 0, dsum = 0, fadd = 0;
    unsigned long long usum = 0, cas64 = 0, umin64 = UINT64_MAX, umax64 = 0;
    long long smin64 = INT64_MAX, smax64 = INT64_MIN, sub64 = 0;
    unsigned cas32 = 0, rmax = 0, orb = 0, andb = ~0u, xorb = 0;
    int block_sum = 0, ref_sum = 0;
    for (int i = 0; i < N; i++) {
        int v = in[i];
        h2lo += 0.25 * (v & 3); h2hi += 0.5 * (v & 1);
        b2lo += 1.0 * (v & 1); b2hi += 2.0 * (v & 1);
        dsum += 0.0625 * (v & 15);
        usum += (unsigned long long)(unsigned)v << 24;
        long long wide = (long long)v * 1000003LL - (1LL << 40);
        if (wide < smin64) smin64 = wide;
        if (wide > smax64) smax64 = wide;
        if ((unsigned long long)wide < umin64) umin64 = wide;
        if ((unsigned long long)wide > umax64) umax64 = wide;
        cas64 += (v & 7) + 1;
        cas32 += (unsigned)(v & 0xff);
        block_sum += v & 31;
        ref_sum += v & 63;
        unsigned h = (unsigned)v * 2654435761u;
        if (h > rmax) rmax = h;
        sub64 -= (long long)(v & 255) << 33;
        fadd += 0.125 * (v & 7);
        orb |= 1u << (v & 31);
        andb &= ~(1u << (i & 31));
        xorb ^= (unsigned)v;
    }
    int bad = 0;
    auto expect = [&](const char *what, double got, double want) {
        if (got != want) { fprintf(stderr, "%s: got %.17g want %.17g\n", what, got, want); bad++; }
    };
    expect("half2.lo", __half2float(t.h2.x), h2lo);
    expect("half2.hi", __half2float(t.h2.y), h2hi);
    expect("bf162.lo", __bfloat162float(t.b2.x), b2lo);
    expect("bf162.hi", __bfloat162float(t.b2.y), b2hi);
    expect("double", t.dsum, dsum);
    expect("u64 add", (double)(t.usum != usum), 0);
    expect("s64 min", (double)(t.smin64 != smin64), 0);
    expect("s64 max", (double)(t.smax64 != smax64), 0);
    expect("u64 min", (double)(t.umin64 != umin64), 0);
    expect("u64 max", (double)(t.umax64 != umax64), 0);
    expect("cas64", (double)t.cas64, (double)cas64);
    expect("cas32", t.cas32, cas32);
    expect("cas16[0]", t.cas16[0], N / 2);
    expect("cas16[1]", t.cas16[1], N / 2);
    expect("exch", t.exch, 2.5);
    expect("block", t.block_sum, block_sum);
    expect("system", t.system_sum, N);
    expect("atomic_ref add", t.ref_sum, ref_sum);
    expect("atomic_ref max", t.ref_max, rmax);
    expect("atomic_ref sub64", (double)(t.ref_sub64 != sub64), 0);
    expect("atomic_ref fadd", t.ref_fadd, fadd);
    expect("ticket", t.flag_count, N);
    expect("or", t.fetch_or, orb);
    expect("and", t.fetch_and, andb);
    expect("xor", t.fetch_xor, xorb);
    unsigned long long checksum = usum ^ (unsigned long long)smin64 ^ (unsigned long long)smax64 ^ cas64 ^
                                  ((unsigned long long)rmax << 7) ^ (unsigned long long)sub64 ^ orb ^ xorb;
    checksum += (unsigned long long)(t.dsum * 16) + (unsigned long long)(t.ref_fadd * 8) + t.cas32 + t.block_sum;
    printf("checksum: %llu\n", checksum % 1000000007ull);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
