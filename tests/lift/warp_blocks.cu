// Warp operations in blocks of 32, 96, 100 (a partial last warp: 4 threads) and 256 threads
// (tests/lift/test_warp_blocks.py): on wave64 two warps share a wave, and a block of 96 or 100
// ends in a wave whose upper half is partly or wholly empty. Each thread writes WORDS words.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define WORDS 20

extern "C" __global__ void warp_blocks(const int *in, int *out) {
  __shared__ int exchange[256];
  int t = threadIdx.x, v = in[blockIdx.x * blockDim.x + t];
  int *o = out + (blockIdx.x * blockDim.x + t) * WORDS;
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  unsigned active = __activemask();
  int count = __popc(active);
  o[0] = lane;
  o[1] = active;
  o[2] = __ballot_sync(active, v & 1);
  o[3] = __any_sync(active, v > 90) + 2 * __all_sync(active, v > 2);
  o[4] = __match_any_sync(active, v & 3);
  o[5] = __reduce_add_sync(active, v);
  o[6] = __reduce_max_sync(active, v);
  o[7] = __shfl_sync(active, v, (lane * 7 + 3) % count);
  o[8] = __shfl_xor_sync(active, v, 1, 4);
  o[9] = __syncthreads_count(v & 1);
  if (active == 0xffffffffu) {          // whole warps: every source lane is there
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    o[10] = __shfl_up_sync(active, v, 3);
    o[11] = __shfl_down_sync(active, v, 5);
    o[12] = __shfl_down_sync(active, v, 5, 8);
    o[13] = __shfl_up_sync(active, v, 1, 16);
    o[14] = __shfl_xor_sync(active, v, 16);
    o[15] = __shfl_sync(active, v, 9, 16);
    o[16] = cg::reduce(tile, v, cg::plus<int>());
    o[17] = tile.shfl_down(v, 2);
  }
  // named barriers with thread counts: threads 0..63 on barrier 1, the rest on barrier 2
  int whole = (blockDim.x + 31) & ~31, first = whole < 64 ? whole : 64;
  exchange[t] = v;
  if (t < 64) {
    asm volatile("bar.sync 1, %0;" :: "r"(first));
    o[18] = exchange[first - 1 - t < (int)blockDim.x ? first - 1 - t : t];
  } else {
    asm volatile("bar.sync 2, %0;" :: "r"(whole - 64));
    o[18] = exchange[64 + ((int)blockDim.x - 1 - t)];
  }
  o[19] = t / 32;
}
