// warpSize, the lane id (threadIdx % 32 and PTX %laneid, %lanemask_lt), __syncwarp ordering
// shared memory within a warp, and inline PTX shfl and vote.
#include "harness.cuh"

__global__ void lanes(long long* out) {
  __shared__ int s[96];
  int t = threadIdx.x;
  unsigned lane, lt, shuffled, votes;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm volatile("shfl.sync.bfly.b32 %0, %1, 16, 0x1f, 0xffffffff;" : "=r"(shuffled) : "r"(t));
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }"
               : "=r"(votes) : "r"(t & 4));
  OUT(0) = warpSize;
  OUT(1) = lane;
  OUT(2) = lt;
  OUT(3) = shuffled;
  OUT(4) = votes;
  s[t] = t * 3;
  __syncwarp();
  OUT(5) = s[t ^ 1];
}

int main() {
  run("lanes", lanes, 2, 96, 6);
  return 0;
}
