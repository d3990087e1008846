// Kernels for tests/lift/test_warp_tiles.py: cooperative_groups tiles below a warp, whose votes
// and matches run under masks that differ between the tiles of a warp (sm_80: ptxas's R2UR P
// mask test and bare VOTE/MATCH; sm_90: WARPSYNC.EXCLUSIVE), and a tile of two warps, whose
// barrier and scratch live in CUDA's reserved shared memory (sm_80: %reserved_smem_offset_1).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

template <unsigned N>
__device__ void votes(const int *in, unsigned *out) {
  cg::thread_block_tile<N> t = cg::tiled_partition<N>(cg::this_thread_block());
  int v = in[threadIdx.x];
  unsigned *o = out + threadIdx.x * 6;
  o[0] = t.ballot(v > 0);
  o[1] = t.any(v > 6);
  o[2] = t.all(v > -7);
  o[3] = t.match_any(v & 3);
  int pred = 0;
  o[4] = t.match_all(v >= -100 ? 1 : 0, pred) + (pred << 24);
  o[5] = cg::reduce(t, v, cg::plus<int>());
}

extern "C" __global__ void tiles8(const int *in, unsigned *out) { votes<8>(in, out); }
extern "C" __global__ void tiles16(const int *in, unsigned *out) { votes<16>(in, out); }
