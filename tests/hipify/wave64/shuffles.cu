// __shfl_sync/_up/_down/_xor at every width, source lanes out of range, 64-bit values.
#include "harness.cuh"

__global__ void shuffles(long long* out) {
  unsigned full = 0xffffffffu;
  int t = threadIdx.x, v = t * 7 + 3;
  int r = 0;
  for (int width = 32; width >= 1; width /= 2) {
    OUT(r++) = __shfl_sync(full, v, (t * 5 + 1) % 40, width);
    OUT(r++) = __shfl_up_sync(full, v, 3, width);
    OUT(r++) = __shfl_down_sync(full, v, 5, width);
    OUT(r++) = __shfl_xor_sync(full, v, width / 2 + 1, width);
    OUT(r++) = __shfl_xor_sync(full, v, width, width);
  }
  OUT(r++) = __shfl_sync(full, v, 37);
  OUT(r++) = __shfl_up_sync(full, v, 33);
  OUT(r++) = __shfl_xor_sync(full, v, 33);
  double d = t * 0.5 + (1ll << 40);
  OUT(r++) = (long long)__shfl_xor_sync(full, d, 3);
  long long w = ((long long)t << 40) | t;
  OUT(r++) = __shfl_down_sync(full, w, 1);
  if (t % 32 < 20) OUT(r) = __shfl_sync(0x000fffffu, v, 19);
  ++r;
}

int main() {
  run("shuffles", shuffles, 2, 96, 36);
  return 0;
}
