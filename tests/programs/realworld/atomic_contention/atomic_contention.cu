// Threads that contend on atomics and spin-wait on each other, in forms a GPU finishes without
// independent thread scheduling (one spinning thread per block or per warp): a ticket lock
// across blocks, a barrier on a global counter across blocks, a chain of flags handed from
// block to block in reverse order, a spin lock taken by one lane of every warp, and every thread
// hammering a few words with atomicAdd/Max/Min/Inc and a compare-and-swap float add. Every
// result is known exactly; the host checks them and prints a checksum.
#include <cstdio>

constexpr int BLOCKS = 6;
constexpr int THREADS = 64;
constexpr int WARPS = BLOCKS * THREADS / 32;

__device__ unsigned atomic_read(unsigned *p) { return atomicAdd(p, 0u); }

struct Shared {
  unsigned ticket_next, ticket_serving, ticket_sum, order[BLOCKS];
  unsigned arrived, values[BLOCKS], sums[BLOCKS];
  unsigned flag, chain[BLOCKS];
  int lock;
  unsigned warp_count, warp_sum;
  unsigned bins[4], max_seen, min_seen, wrapped;
  float fsum;
};

__device__ void float_add(float *p, float v) {
  unsigned *word = reinterpret_cast<unsigned *>(p);
  unsigned seen = *word, assumed;
  do {
    assumed = seen;
    seen = atomicCAS(word, assumed, __float_as_uint(__uint_as_float(assumed) + v));
  } while (seen != assumed);
}

__global__ void contend(Shared *s) {
  unsigned b = blockIdx.x, t = threadIdx.x, id = b * blockDim.x + t;

  // every thread, many times over a few words
  for (int r = 0; r < 4; ++r) {
    atomicAdd(&s->bins[(id + r) % 4], 1u);
    atomicMax(&s->max_seen, id * 3 + r);
    atomicMin(&s->min_seen, 1000000u - id - r);
    atomicInc(&s->wrapped, 99u);
  }
  float_add(&s->fsum, (float)(id % 7));

  // a ticket lock taken by thread 0 of every block; the critical section is a plain update
  if (t == 0) {
    unsigned ticket = atomicAdd(&s->ticket_next, 1u);
    while (atomic_read(&s->ticket_serving) != ticket) {
    }
    volatile unsigned *sum = &s->ticket_sum;
    *sum = *sum * 3 + b + 1;
    s->order[ticket] = b;
    __threadfence();
    atomicAdd(&s->ticket_serving, 1u);
  }

  // a barrier on a global counter: every block's value is visible after it
  if (t == 0) {
    s->values[b] = b * 7 + 1;
    __threadfence();
    atomicAdd(&s->arrived, 1u);
    while (atomic_read(&s->arrived) < gridDim.x) {
    }
  }
  __syncthreads();
  if (t == 0) {
    unsigned total = 0;
    for (unsigned i = 0; i < gridDim.x; ++i) total += ((volatile unsigned *)s->values)[i];
    s->sums[b] = total;
  }

  // a chain: the last block goes first, each block waits for the one after it
  if (t == 0) {
    while (atomic_read(&s->flag) != gridDim.x - 1 - b) {
    }
    s->chain[b] = atomic_read(&s->flag) * 10 + b;
    __threadfence();
    atomicAdd(&s->flag, 1u);
  }

  // a spin lock taken by lane 0 of every warp; the warp's other lanes wait for it
  if (t % 32 == 0) {
    while (atomicCAS(&s->lock, 0, 1) != 0) {
    }
    volatile unsigned *count = &s->warp_count, *sum = &s->warp_sum;
    unsigned c = *count + 1;
    *count = c;
    *sum = *sum + c;
    __threadfence();
    atomicExch(&s->lock, 0);
  }
}

int main() {
  Shared h = {}, *d;
  h.min_seen = 0xffffffffu;
  cudaMalloc(&d, sizeof(Shared));
  cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice);
  contend<<<BLOCKS, THREADS>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);

  int bad = e != cudaSuccess;
  if (bad) printf("launch: %s\n", cudaGetErrorString(e));
  const unsigned n = BLOCKS * THREADS;
  unsigned expect_sum = 0, seen = 0;
  for (int i = 0; i < BLOCKS; ++i) {
    expect_sum = expect_sum * 3 + h.order[i] + 1;   // the order the lock was taken in
    seen |= 1u << h.order[i];
  }
  if (seen != (1u << BLOCKS) - 1 || h.ticket_sum != expect_sum) { printf("ticket lock\n"); bad++; }
  if (h.ticket_next != BLOCKS || h.ticket_serving != BLOCKS) { printf("tickets\n"); bad++; }
  unsigned values = 0;
  for (int i = 0; i < BLOCKS; ++i) values += i * 7 + 1;
  for (int i = 0; i < BLOCKS; ++i)
    if (h.sums[i] != values) { printf("barrier block %d: %u\n", i, h.sums[i]); bad++; }
  for (int i = 0; i < BLOCKS; ++i)
    if (h.chain[i] != (BLOCKS - 1 - i) * 10u + i) { printf("chain block %d: %u\n", i, h.chain[i]); bad++; }
  if (h.flag != BLOCKS) { printf("flag\n"); bad++; }
  if (h.warp_count != WARPS || h.warp_sum != WARPS * (WARPS + 1) / 2 || h.lock != 0) { printf("warp lock\n"); bad++; }
  for (int i = 0; i < 4; ++i) if (h.bins[i] != n) { printf("bin %d: %u\n", i, h.bins[i]); bad++; }
  if (h.max_seen != (n - 1) * 3 + 3 || h.min_seen != 1000000u - (n - 1) - 3) { printf("max/min\n"); bad++; }
  if (h.wrapped != (4 * n) % 100) { printf("inc: %u\n", h.wrapped); bad++; }
  double fexpect = 0;
  for (unsigned i = 0; i < n; ++i) fexpect += i % 7;
  if (h.fsum != (float)fexpect) { printf("float sum %f\n", h.fsum); bad++; }

  // the order the ticket lock was taken in may differ between runs: checked above, not summed
  unsigned long long checksum = 0;
  for (int i = 0; i < BLOCKS; ++i) checksum = checksum * 31 + h.sums[i] + h.chain[i];
  checksum += h.warp_sum + h.bins[0] + h.max_seen + h.min_seen + h.wrapped + (unsigned long long)h.fsum;
  printf("checksum: %llu\n%s\n", checksum, bad ? "FAIL" : "PASS");
  cudaFree(d);
  return bad != 0;
}
