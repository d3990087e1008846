// Atomics of every kind and scope: add (int, unsigned long long, float, double), sub, exch, min,
// max, inc/dec with wrap-around, CAS loops, and/or/xor, in _block and _system forms too.
// The final values do not depend on the order the threads ran in.
#include <cstdio>

constexpr int BLOCKS = 2, THREADS = 64, N = BLOCKS * THREADS;

struct Counters {
    int add, sub, max, min, add_block, cas_sum;
    unsigned inc, dec, and_bits, or_bits, xor_bits, or_block, exch_seen;
    unsigned long long add64;
    float fadd, fadd_system;
    double dadd;
};

__device__ void cas_add(int *p, int v)
{
    int old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, assumed + v);
    } while (old != assumed);
}

__global__ void hammer(Counters *c, unsigned *slots)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&c->add, t);
    atomicSub(&c->sub, t);
    atomicMax(&c->max, (t * 37) % 101);
    atomicMin(&c->min, 50 - (t * 37) % 101);
    atomicAdd_block(&c->add_block, 2);
    if (t % 4 == 0) cas_add(&c->cas_sum, t % 7);    // a contended CAS loop on every 4th thread
    atomicInc(&c->inc, 99u);                 // counts 0..99 and wraps
    atomicDec(&c->dec, 99u);
    atomicAnd(&c->and_bits, ~(1u << (t % 32)));
    atomicOr(&c->or_bits, 1u << (t % 32));
    atomicXor(&c->xor_bits, 1u << (t % 5));
    atomicOr_block(&c->or_block, 1u << (blockIdx.x + 8));
    unsigned before = atomicExch(&slots[t % 16], (unsigned)t);
    atomicOr(&c->exch_seen, before == 0xffffffffu ? 1u : 0u);
    atomicAdd(&c->add64, 1ull << 33);
    atomicAdd(&c->fadd, 0.5f);
    atomicAdd_system(&c->fadd_system, 1.0f);
    atomicAdd(&c->dadd, 0.25);
}

int main()
{
    Counters h = {}, *d;
    h.min = 1000;
    h.dec = 0;
    h.and_bits = 0xffffffffu;
    unsigned h_slots[16], *d_slots;
    for (int i = 0; i < 16; i++) h_slots[i] = 0xffffffffu;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&d_slots, sizeof h_slots);
    cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemcpy(d_slots, h_slots, sizeof h_slots, cudaMemcpyHostToDevice);
    hammer<<<BLOCKS, THREADS>>>(d, d_slots);
    cudaError_t err = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(h_slots, d_slots, sizeof h_slots, cudaMemcpyDeviceToHost);
    int add = 0, mx = 0, mn = 1000, cas = 0;
    unsigned xr = 0;
    for (int t = 0; t < N; t++) {
        add += t;
        mx = (t * 37) % 101 > mx ? (t * 37) % 101 : mx;
        mn = 50 - (t * 37) % 101 < mn ? 50 - (t * 37) % 101 : mn;
        cas += t % 4 == 0 ? t % 7 : 0;
        xr ^= 1u << (t % 5);
    }
    // atomicInc: ((old >= 99) ? 0 : old + 1), N times from 0; atomicDec: ((old == 0 || old > 99) ? 99 : old - 1).
    unsigned inc = 0, dec = 0;
    for (int t = 0; t < N; t++) {
        inc = inc >= 99 ? 0 : inc + 1;
        dec = (dec == 0 || dec > 99) ? 99 : dec - 1;
    }
    unsigned or_block = 0;
    for (int b = 0; b < BLOCKS; b++) or_block |= 1u << (b + 8);
    bool slots_ok = true;
    for (int i = 0; i < 16; i++) slots_ok &= h_slots[i] % 16 == (unsigned)i && h_slots[i] < N;
    bool ok = err == cudaSuccess && h.add == add && h.sub == -add && h.max == mx && h.min == mn
              && h.add_block == 2 * N && h.cas_sum == cas && h.inc == inc && h.dec == dec
              && h.and_bits == 0 && h.or_bits == 0xffffffffu && h.xor_bits == xr
              && h.or_block == or_block && h.exch_seen == 1 && h.add64 == (unsigned long long)N << 33
              && h.fadd == 0.5f * N && h.fadd_system == (float)N && h.dadd == 0.25 * N && slots_ok;
    if (!ok)
        printf("add %d sub %d max %d min %d blk %d cas %d inc %u dec %u and %x or %x xor %x orb %x seen %u "
               "add64 %llu f %g fs %g d %g slots %d\n", h.add, h.sub, h.max, h.min, h.add_block, h.cas_sum,
               h.inc, h.dec, h.and_bits, h.or_bits, h.xor_bits, h.or_block, h.exch_seen, h.add64, h.fadd,
               h.fadd_system, h.dadd, (int)slots_ok);
    long long checksum = (long long)h.add + h.max + h.min + h.add_block + h.cas_sum + h.inc + h.dec
                         + h.xor_bits + h.or_block + (long long)(h.add64 >> 33) + (long long)h.fadd
                         + (long long)h.dadd;
    cudaFree(d);
    cudaFree(d_slots);
    printf("checksum: %lld\n", checksum);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
