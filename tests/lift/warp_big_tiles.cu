// A tile of two warps (tests/lift/test_warp_tiles.py): sync, shfl and reduce across its warps
// through the barriers and scratch cooperative groups keep in reserved shared memory.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void big64(const int *in, int *out) {
  __shared__ cg::block_tile_memory<128> memory;
  __shared__ int exchange[128];
  cg::thread_block block = cg::this_thread_block(memory);
  cg::thread_block_tile<64> t = cg::tiled_partition<64>(block);
  int v = in[threadIdx.x];
  int *o = out + threadIdx.x * 4;
  exchange[threadIdx.x] = v;
  t.sync();
  o[0] = exchange[threadIdx.x ^ 32];            // the other warp's value
  o[1] = t.shfl(v, 40);
  o[2] = cg::reduce(t, v, cg::plus<int>());
  o[3] = t.meta_group_rank();
}
