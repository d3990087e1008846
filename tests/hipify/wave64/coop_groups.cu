// Cooperative groups: tiled_partition<N> (N = 32 ... 2) with shuffles, votes and cg::reduce,
// coalesced_threads() in a branch, and a tile of 64 threads.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "harness.cuh"

namespace cg = cooperative_groups;

template <int N>
__device__ int tile_results(long long* out, int r) {
  cg::thread_block_tile<N> tile = cg::tiled_partition<N>(cg::this_thread_block());
  int t = threadIdx.x, v = t * 5 + 1;
  OUT(r++) = tile.thread_rank();
  OUT(r++) = tile.meta_group_rank();
  OUT(r++) = tile.shfl(v, 1);
  OUT(r++) = tile.shfl_up(v, 1);
  OUT(r++) = tile.shfl_down(v, 1);
  OUT(r++) = tile.shfl_xor(v, N / 2);
  OUT(r++) = tile.any(t == 37);
  OUT(r++) = tile.all(t % 7 != 3);
  OUT(r++) = tile.ballot(t % 3 == 0);
  OUT(r++) = cg::reduce(tile, v, cg::plus<int>());
  OUT(r++) = cg::reduce(tile, v % 13, cg::greater<int>());
  return r;
}

__global__ void tiles(long long* out) {
  int r = tile_results<32>(out, 0);
  r = tile_results<16>(out, r);
  r = tile_results<8>(out, r);
  r = tile_results<4>(out, r);
  tile_results<2>(out, r);
}

__global__ void coalesced(long long* out) {
  int t = threadIdx.x;
  if (t % 3 != 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    OUT(0) = g.size();
    OUT(1) = g.thread_rank();
    OUT(2) = g.shfl(t, 0);
    OUT(3) = g.ballot(t % 2 == 0);
    OUT(4) = cg::reduce(g, t, cg::plus<int>());
  }
}

__global__ void wide_tile(long long* out) {
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cg::this_thread_block());
  int t = threadIdx.x;
  OUT(0) = tile.thread_rank();
  OUT(1) = cg::reduce(tile, t, cg::plus<int>());
  OUT(2) = tile.any(t == 100);
}

int main() {
  run("tiles", tiles, 2, 96, 55);
  run("coalesced", coalesced, 2, 96, 5);
  run("wide_tile", wide_tile, 2, 128, 3);
  return 0;
}
