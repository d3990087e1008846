// Stream compaction: keep the odd values. Warps vote with __ballot_sync, count with __popc, reserve
// space with one global atomicAdd per warp; the lane id comes from inline PTX (%laneid).
#include <cstdio>
#include <cstdlib>

__device__ unsigned lane_id()
{
    unsigned id;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
    return id;
}

__global__ void compact(const int *in, int *out, unsigned *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    bool keep = i < n && (v & 1);
    unsigned mask = __ballot_sync(0xffffffffu, keep);
    unsigned lane = lane_id();
    unsigned base = 0;
    if (lane == 0 && mask)
        base = atomicAdd(count, __popc(mask));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (keep)
        out[base + __popc(mask & ((1u << lane) - 1))] = v;
}

int main()
{
    const int n = 3000;
    int *h = (int *)malloc(n * 4), *r = (int *)malloc(n * 4);
    int want = 0;
    long long want_sum = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (i * 2654435761u) >> 20;
        if (h[i] & 1) {
            want++;
            want_sum += h[i];
        }
    }
    int *d_in, *d_out;
    unsigned *d_cnt;
    cudaMalloc(&d_in, n * 4);
    cudaMalloc(&d_out, n * 4);
    cudaMalloc(&d_cnt, 4);
    cudaMemset(d_cnt, 0, 4);
    cudaMemcpy(d_in, h, n * 4, cudaMemcpyHostToDevice);
    compact<<<(n + 255) / 256, 256>>>(d_in, d_out, d_cnt, n);
    unsigned got = 0;
    cudaMemcpy(&got, d_cnt, 4, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaMemcpy(r, d_out, n * 4, cudaMemcpyDeviceToHost);
    long long sum = 0;
    bool ok = e == cudaSuccess && (int)got == want;
    for (unsigned i = 0; ok && i < got; i++) {
        if (!(r[i] & 1))
            ok = false;
        sum += r[i];
    }
    ok = ok && sum == want_sum;
    printf("checksum: %lld\n", sum + got);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
