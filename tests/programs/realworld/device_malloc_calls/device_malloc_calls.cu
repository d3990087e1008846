// malloc/free inside __noinline__ device functions of a whole-program build (no -rdc): per-thread
// buffers of sizes that cross the allocator's size classes (a request just past a power of two
// needs the next one up), checked for overlap after the whole block wrote its buffers; per-thread
// linked lists grown and drained by helper functions; buffers reallocated with other sizes over
// several rounds. Everything stays well inside the default 8 MB device heap, so no request fails.
#include <cstdio>

struct Node { int value; Node *next; };

__device__ __noinline__ int *make_buffer(int n, int seed) {
  int *p = (int *)malloc(n * sizeof(int));
  if (p) for (int i = 0; i < n; ++i) p[i] = seed * 7 + i;
  return p;
}

__device__ __noinline__ int check_sum_and_free(int *p, int n, int seed) {
  int s = 0, wrong = 0;
  for (int i = 0; i < n; ++i) { wrong += p[i] != seed * 7 + i; s += p[i]; }
  free(p);
  return wrong ? -1 : s;
}

__device__ __noinline__ Node *push(Node *head, int v) {
  Node *n = (Node *)malloc(sizeof(Node));
  if (!n) return head;
  n->value = v;
  n->next = head;
  return n;
}

__device__ __noinline__ int drain(Node *head) {
  int s = 0;
  while (head) { Node *next = head->next; s += head->value; free(head); head = next; }
  return s;
}

__host__ __device__ int buffer_ints(int t, int round) { return 25 + (t * 37 + round * 101) % 1000; }

__global__ void buffers(int *out, int round) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int n = buffer_ints(t, round);
  int *p = make_buffer(n, t + round);
  __syncthreads();            // every thread of the block wrote its buffer: overlaps show now
  out[t] = p ? check_sum_and_free(p, n, t + round) : -2;
}

__global__ void lists(int *out, int len) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  Node *head = nullptr;
  for (int i = 0; i < len + t % 3; ++i) head = push(head, t + i);
  out[t] += drain(head);
}

int main() {
  const int blocks = 2, threads = 64, n = blocks * threads, rounds = 3, len = 4;
  int *out, h[n];
  cudaMalloc(&out, sizeof h);
  long long checksum = 0;
  int bad = 0;
  for (int r = 0; r < rounds; ++r) {
    buffers<<<blocks, threads>>>(out, r);
    if (r == rounds - 1) lists<<<blocks, threads>>>(out, len);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    for (int t = 0; t < n; ++t) {
      int m = buffer_ints(t, r), want = 0;
      for (int i = 0; i < m; ++i) want += (t + r) * 7 + i;
      if (r == rounds - 1)
        for (int i = 0; i < len + t % 3; ++i) want += t + i;
      bad += h[t] != want;
      checksum += h[t];
    }
  }
  bad += cudaDeviceSynchronize() != cudaSuccess;
  printf("checksum: %lld\n%s\n", checksum, bad ? "FAIL" : "PASS");
  return bad != 0;
}
