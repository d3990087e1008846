// __ballot_sync, __any_sync, __all_sync, __activemask, with partial masks and divergence.
#include "harness.cuh"

__global__ void votes(long long* out) {
  unsigned full = 0xffffffffu;
  int t = threadIdx.x, lane = t % 32;
  OUT(0) = __ballot_sync(full, t % 3 == 0);
  OUT(1) = __any_sync(full, t == 40);
  OUT(2) = __all_sync(full, t < 90);
  OUT(3) = __activemask();
  if (lane % 4 != 1) {
    unsigned active = __activemask();
    OUT(4) = active;
    OUT(5) = __ballot_sync(active, t % 5 == 0);
    OUT(6) = __all_sync(active, lane < 30);
    OUT(7) = __any_sync(active, t == 70);
    if (lane < 12) OUT(8) = __ballot_sync(active & 0xfffu, lane & 1);
  }
}

int main() {
  run("votes", votes, 2, 96, 9);
  run("votes", votes, 1, 40, 9);
  return 0;
}
