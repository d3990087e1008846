// 64-bit item counts walked in chunks, as CUB's device-wide algorithms walk them: the items left
// in chunk k are n - (k << 30) (ptxas computes it with a LEA of a negated register whose carry
// is the "no borrow" of a 64-bit subtraction), clamped to a chunk, then split in tiles over a
// grid-stride loop; a per-thread version does the same with the chunk index in a vector
// register. Every kernel must stop at n exactly: an extra tile reads past the input's end.
// Each result is known exactly; the host checks them and prints a checksum.
#include <cstdio>
#include <cstdlib>

constexpr unsigned TILE = 256;

__global__ void sum_chunked(const unsigned *in, unsigned long long n, int log_chunk,
                            unsigned long long *sum, unsigned *tiles_seen) {
  unsigned long long chunks = (n + (1ull << log_chunk) - 1) >> log_chunk;
  for (unsigned long long k = 0; k < chunks; ++k) {
    unsigned long long left = n - (k << log_chunk);
    unsigned long long items = left < (1ull << log_chunk) ? left : (1ull << log_chunk);
    for (unsigned long long tile = blockIdx.x * (unsigned long long)TILE; tile < items;
         tile += gridDim.x * (unsigned long long)TILE) {
      unsigned long long i = (k << log_chunk) + tile + threadIdx.x;
      if (tile + threadIdx.x < items) atomicAdd(sum, (unsigned long long)in[i]);
      if (threadIdx.x == 0) atomicAdd(tiles_seen, 1u);
    }
  }
}

// The same walk with a fixed chunk of 2^30 items (the shift is an immediate, as in CUB).
__global__ void sum_fixed_chunks(const unsigned *in, unsigned long long n, unsigned long long *sum,
                                 unsigned *tiles_seen) {
  unsigned long long chunks = (n + (1ull << 30) - 1) >> 30;
  for (unsigned long long k = 0; k < chunks; ++k) {
    unsigned long long left = n - (k << 30);
    unsigned long long items = left < (1ull << 30) ? left : (1ull << 30);
    for (unsigned long long tile = blockIdx.x * (unsigned long long)TILE; tile < items;
         tile += gridDim.x * (unsigned long long)TILE) {
      unsigned long long i = (k << 30) + tile + threadIdx.x;
      if (tile + threadIdx.x < items) atomicAdd(sum, (unsigned long long)in[i]);
      if (threadIdx.x == 0) atomicAdd(tiles_seen, 1u);
    }
  }
}

// The size of every chunk of n, 64-bit, each chunk written by a block: ptxas computes
// n - (k << 30) here as LEA -R, c[n.lo], 0x1e then IADD3.X ~hi, c[n.hi] with its carry.
__global__ void chunk_sizes(unsigned long long n, unsigned long long *out, int chunks) {
  for (unsigned long long k = 0; k < chunks; ++k) {
    unsigned long long left = n - (k << 30);
    out[k * blockDim.x + threadIdx.x] = left < (1ull << 30) ? left : (1ull << 30);
    __syncthreads();
  }
}

int main() {
  const unsigned long long sizes[] = {1, 255, 256, 257, 5000, 12345};
  const int count = 12345;
  unsigned *in, *tiles;
  unsigned long long *sum, *left;
  cudaMalloc(&in, count * sizeof(unsigned));
  cudaMalloc(&tiles, sizeof(unsigned));
  cudaMalloc(&sum, sizeof(unsigned long long));
  cudaMalloc(&left, count * sizeof(unsigned long long));
  unsigned *host = (unsigned *)malloc(count * sizeof(unsigned));
  for (int i = 0; i < count; ++i) host[i] = (i * 2654435761u) >> 20;
  cudaMemcpy(in, host, count * sizeof(unsigned), cudaMemcpyHostToDevice);

  unsigned long long checksum = 0;
  int failures = 0;
  for (unsigned long long n : sizes) {
    unsigned long long want = 0;
    for (unsigned long long i = 0; i < n; ++i) want += host[i];
    for (int variant = 0; variant < 3; ++variant) {
      int log_chunk = variant == 0 ? 30 : 11;
      cudaMemset(sum, 0, sizeof(unsigned long long));
      cudaMemset(tiles, 0, sizeof(unsigned));
      if (variant == 2)
        sum_fixed_chunks<<<7, TILE>>>(in, n, sum, tiles);
      else
        sum_chunked<<<7, TILE>>>(in, n, log_chunk, sum, tiles);
      unsigned long long got;
      unsigned tiles_seen;
      cudaMemcpy(&got, sum, sizeof(got), cudaMemcpyDeviceToHost);
      cudaMemcpy(&tiles_seen, tiles, sizeof(tiles_seen), cudaMemcpyDeviceToHost);
      unsigned long long chunk = 1ull << log_chunk, want_tiles = 0;
      for (unsigned long long k = 0; k * chunk < n; ++k) {
        unsigned long long items = n - k * chunk < chunk ? n - k * chunk : chunk;
        want_tiles += (items + TILE - 1) / TILE;
      }
      if (got != want || tiles_seen != want_tiles) {
        printf("n=%llu variant %d: sum %llu (want %llu), tiles %u (want %llu)\n", n, variant, got, want,
               tiles_seen, want_tiles);
        ++failures;
      }
      checksum += got * (variant + 1) + tiles_seen;
    }
  }

  const unsigned long long totals[] = {0x100000010ull, 0x40000000ull, 12345, 0x7fffffffull};
  const int chunks = 6, threads = 32;
  for (unsigned long long n : totals) {
    chunk_sizes<<<1, threads>>>(n, left, chunks);
    unsigned long long got[chunks * threads];
    cudaMemcpy(got, left, sizeof(got), cudaMemcpyDeviceToHost);
    for (int k = 0; k < chunks; ++k) {
      unsigned long long rest = n - ((unsigned long long)k << 30);
      unsigned long long want = rest < (1ull << 30) ? rest : (1ull << 30);
      for (int t = 0; t < threads; ++t) {
        if (got[k * threads + t] != want) {
          if (failures < 10) printf("n=%#llx chunk %d: %#llx (want %#llx)\n", n, k, got[k * threads + t], want);
          ++failures;
        }
        checksum += got[k * threads + t] >> 3;
      }
    }
  }
  printf("checksum: %llu\n", checksum);
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}
