// __match_any_sync, __match_all_sync and __reduce_*_sync, over all lanes and a partial mask.
#include "harness.cuh"

__global__ void match_reduce(long long* out) {
  unsigned full = 0xffffffffu;
  int t = threadIdx.x, lane = t % 32;
  OUT(0) = __match_any_sync(full, (lane * 7) % 4);
  OUT(1) = __match_any_sync(full, (long long)(lane / 3) << 33);
  int pred = -1;
  OUT(2) = __match_all_sync(full, t / 32, &pred);
  OUT(3) = pred;
  OUT(4) = __match_all_sync(full, lane, &pred);
  OUT(5) = pred;
  OUT(6) = __reduce_add_sync(full, (unsigned)t);
  OUT(7) = __reduce_min_sync(full, (unsigned)(t * 37 % 101));
  OUT(8) = __reduce_max_sync(full, 50 - t * 3);
  OUT(9) = __reduce_min_sync(full, 50 - t * 3);
  OUT(10) = __reduce_and_sync(full, (unsigned)~(1u << (t % 32)));
  OUT(11) = __reduce_or_sync(full, 1u << (t % 29));
  OUT(12) = __reduce_xor_sync(full, (unsigned)(t * 2654435761u));
  if (lane % 3 == 0) {
    OUT(13) = __reduce_add_sync(0x49249249u, (unsigned)t);
    OUT(14) = __match_any_sync(0x49249249u, lane % 2);
  }
}

int main() {
  run("match_reduce", match_reduce, 2, 96, 15);
  return 0;
}
