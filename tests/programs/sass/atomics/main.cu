// SASS family: atomics of every operation and type on global (ATOMG/RED) and shared (ATOMS)
// memory: add (int, unsigned long long, float, double), sub, min/max (signed, unsigned, 64-bit),
// inc/dec with CUDA's wrap rules, and/or/xor, exchange, compare-and-swap (and a CAS loop),
// block and system scopes. Final values do not depend on the order of the operations.
#include <cstdio>
#include <cstdint>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

constexpr int BLOCKS = 2, THREADS = 64, N = BLOCKS * THREADS;

struct Result {
    int add, sub, smin, smax, band, bor, bxor, cas_winner, exch_seen;
    unsigned umin, umax, inc, dec;
    unsigned long long add64, min64, max64, cas_loop;
    float fadd;
    double dadd;
    int shared_add, shared_min, shared_max, block_or, system_add;
};

__global__ void kernel(const int *in, Result *r)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[t];
    __shared__ int s_add, s_min, s_max;
    if (threadIdx.x == 0) { s_add = 0; s_min = 1 << 30; s_max = -(1 << 30); }
    __syncthreads();
    atomicAdd(&r->add, v);
    atomicSub(&r->sub, v);
    atomicMin(&r->smin, v);
    atomicMax(&r->smax, v);
    atomicAnd(&r->band, ~(1 << (t % 31)));
    atomicOr(&r->bor, 1 << (v & 31));
    atomicXor(&r->bxor, v);
    atomicCAS(&r->cas_winner, -1, 7);                 // the first thread wins, all write 7
    int old = atomicExch(&r->exch_seen, 5);
    if (old != 0 && old != 5) atomicAdd(&r->exch_seen, 1000);
    atomicMin(&r->umin, (unsigned)v * 2654435761u);
    atomicMax(&r->umax, (unsigned)v * 2654435761u);
    atomicInc(&r->inc, 19u);
    atomicDec(&r->dec, 7u);
    atomicAdd(&r->add64, (unsigned long long)v << 20);
    atomicMin(&r->min64, (unsigned long long)(v + 5000) << 33);
    atomicMax(&r->max64, (unsigned long long)(v + 5000) << 33);
    unsigned long long seen = r->cas_loop, assumed;
    do {                                               // a CAS loop: add (v & 7) + 1
        assumed = seen;
        seen = atomicCAS(&r->cas_loop, assumed, assumed + (v & 7) + 1);
    } while (seen != assumed);
    atomicAdd(&r->fadd, 0.25f * (v & 3));
    atomicAdd(&r->dadd, 0.125 * (v & 7));
    atomicAdd(&s_add, v & 15);
    atomicMin(&s_min, v);
    atomicMax(&s_max, v);
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicAdd_block(&r->shared_add, s_add);
        atomicMin(&r->shared_min, s_min);
        atomicMax(&r->shared_max, s_max);
    }
    atomicOr_block(&r->block_or, 1 << blockIdx.x);
    atomicAdd_system(&r->system_add, 1);
}

int main()
{
    int in[N];
    uint32_t x = 2463534242u;
    for (int i = 0; i < N; i++) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; in[i] = (int)(x % 20001) - 10000; }
    Result init = {};
    init.smin = 1 << 30; init.smax = -(1 << 30); init.band = -1; init.cas_winner = -1;
    init.umin = ~0u; init.min64 = ~0ull; init.shared_min = 1 << 30; init.shared_max = -(1 << 30);
    int *d_in; Result *d_r;
    CHECK(cudaMalloc(&d_in, sizeof in));
    CHECK(cudaMalloc(&d_r, sizeof(Result)));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_r, &init, sizeof init, cudaMemcpyHostToDevice));
    kernel<<<BLOCKS, THREADS>>>(d_in, d_r);
    CHECK(cudaGetLastError());
    Result g;
    CHECK(cudaMemcpy(&g, d_r, sizeof g, cudaMemcpyDeviceToHost));

    Result w = init;
    int shared_sum = 0;
    for (int t = 0; t < N; t++) {
        int v = in[t];
        w.add += v; w.sub -= v;
        w.smin = v < w.smin ? v : w.smin; w.smax = v > w.smax ? v : w.smax;
        w.band &= ~(1 << (t % 31)); w.bor |= 1 << (v & 31); w.bxor ^= v;
        unsigned u = (unsigned)v * 2654435761u;
        w.umin = u < w.umin ? u : w.umin; w.umax = u > w.umax ? u : w.umax;
        w.inc = w.inc >= 19u ? 0 : w.inc + 1;
        w.dec = (w.dec == 0 || w.dec > 7u) ? 7u : w.dec - 1;
        w.add64 += (unsigned long long)v << 20;
        unsigned long long m = (unsigned long long)(v + 5000) << 33;
        w.min64 = m < w.min64 ? m : w.min64; w.max64 = m > w.max64 ? m : w.max64;
        w.cas_loop += (v & 7) + 1;
        w.fadd += 0.25f * (v & 3); w.dadd += 0.125 * (v & 7);
        shared_sum += v & 15;
        w.shared_min = v < w.shared_min ? v : w.shared_min; w.shared_max = v > w.shared_max ? v : w.shared_max;
    }
    w.cas_winner = 7; w.exch_seen = 5; w.shared_add = shared_sum; w.block_or = (1 << BLOCKS) - 1; w.system_add = N;
    long long got[] = {g.add, g.sub, g.smin, g.smax, g.band, g.bor, g.bxor, g.cas_winner, g.exch_seen, g.umin, g.umax,
                       g.inc, g.dec, (long long)g.add64, (long long)g.min64, (long long)g.max64, (long long)g.cas_loop,
                       (long long)(g.fadd * 4), (long long)(g.dadd * 8), g.shared_add, g.shared_min, g.shared_max,
                       g.block_or, g.system_add};
    long long want[] = {w.add, w.sub, w.smin, w.smax, w.band, w.bor, w.bxor, w.cas_winner, w.exch_seen, w.umin, w.umax,
                        w.inc, w.dec, (long long)w.add64, (long long)w.min64, (long long)w.max64, (long long)w.cas_loop,
                        (long long)(w.fadd * 4), (long long)(w.dadd * 8), w.shared_add, w.shared_min, w.shared_max,
                        w.block_or, w.system_add};
    unsigned long long checksum = 1469598103934665603ull;
    int bad = 0;
    for (int k = 0; k < (int)(sizeof got / sizeof got[0]); k++) {
        printf("result %d: %lld\n", k, got[k]);
        checksum = (checksum ^ (unsigned long long)got[k]) * 1099511628211ull;
        if (got[k] != want[k] && bad++ < 8) printf("result %d: got %lld want %lld\n", k, got[k], want[k]);
    }
    printf("checksum: %llu\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
