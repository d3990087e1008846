// Waves that contend on atomics and spin-wait on each other, as GPUs finish them (each kernel's
// result is exactly known, so a lost update or a wave let through early shows), and kernels
// that can never finish (each spins on something nobody changes).
#include <hip/hip_runtime.h>

__device__ unsigned load_acquire(unsigned* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

// A ticket lock taken by thread 0 of every block: the critical section does a plain
// read-modify-write (an update lost if two blocks were in it at once) and records the order;
// meanwhile every thread adds to one of four counters.
extern "C" __global__ void ticket_lock(unsigned* lock /* next, serving */, unsigned* counter,
                                       unsigned* order, unsigned* bins) {
  atomicAdd(&bins[threadIdx.x % 4], 1u);
  if (threadIdx.x == 0) {
    unsigned ticket = atomicAdd(&lock[0], 1u);
    while (load_acquire(&lock[1]) != ticket) {
    }
    volatile unsigned* c = counter;
    *c = *c + blockIdx.x + 1;
    order[ticket] = blockIdx.x;
    __threadfence();
    atomicAdd(&lock[1], 1u);
  }
}

// A barrier across blocks on a global counter: every block writes its value, arrives, waits for
// all, then sums every block's value.
extern "C" __global__ void counter_barrier(unsigned* arrived, unsigned* values, unsigned* sums) {
  if (threadIdx.x == 0) values[blockIdx.x] = blockIdx.x * 7 + 1;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(arrived, 1u);
    while (atomicAdd(arrived, 0u) < gridDim.x) {
    }
  }
  __syncthreads();
  unsigned sum = 0;
  for (unsigned b = 0; b < gridDim.x; b++) sum += ((volatile unsigned*)values)[b];
  if (threadIdx.x == 0) sums[blockIdx.x] = sum;
}

// The first lane of every wave takes one global spin lock (compare-and-swap) and the others
// wait for it at the reconvergence point. (A lock taken by every lane would not finish on an AMD
// GPU: hipcc moves the critical section after the loop, where a lane that won waits for lanes
// that wait for it.)
extern "C" __global__ void wave_lock(int* lock, unsigned* counter) {
  if (threadIdx.x % 32 == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    volatile unsigned* c = counter;
    *c = *c + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}

// Never finish: a lock nobody releases (failing compare-and-swap), a counter nobody raises (an
// atomic add of 0 writes the value already there), a flag nobody sets while a count goes up.
extern "C" __global__ void held_lock(int* lock) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
}

extern "C" __global__ void never_arrives(unsigned* arrived) {
  while (atomicAdd(arrived, 0u) < gridDim.x + 1) {
  }
}

extern "C" __global__ void counting_spin(volatile int* flag, int* out) {
  int n = 0;
  while (*flag == 0) n++;
  out[threadIdx.x] = n;
}
