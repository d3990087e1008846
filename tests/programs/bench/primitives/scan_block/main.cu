// Inclusive prefix sum: per-block Hillis-Steele scan in dynamic shared memory, then a scan of the
// block totals and an add-back kernel (three kernels).
#include <cstdio>
#include <cstdlib>

__global__ void scan_blocks(const unsigned *in, unsigned *out, unsigned *totals, int n)
{
    extern __shared__ unsigned buf[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int off = 1; off < blockDim.x; off <<= 1) {
        unsigned add = threadIdx.x >= off ? buf[threadIdx.x - off] : 0;
        __syncthreads();
        buf[threadIdx.x] += add;
        __syncthreads();
    }
    if (i < n)
        out[i] = buf[threadIdx.x];
    if (threadIdx.x == blockDim.x - 1)
        totals[blockIdx.x] = buf[threadIdx.x];
}

__global__ void add_offsets(unsigned *out, const unsigned *scanned_totals, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x > 0 && i < n)
        out[i] += scanned_totals[blockIdx.x - 1];
}

int main()
{
    const int n = 2000, bs = 128, nb = (n + bs - 1) / bs;
    unsigned *h = (unsigned *)malloc(n * 4), *r = (unsigned *)malloc(n * 4);
    for (int i = 0; i < n; i++)
        h[i] = (i * 7919u) % 13u;
    unsigned *d_in, *d_out, *d_tot, *d_tot_scan, *d_dummy;
    cudaMalloc(&d_in, n * 4);
    cudaMalloc(&d_out, n * 4);
    cudaMalloc(&d_tot, nb * 4);
    cudaMalloc(&d_tot_scan, nb * 4);
    cudaMalloc(&d_dummy, 4);
    cudaMemcpy(d_in, h, n * 4, cudaMemcpyHostToDevice);
    scan_blocks<<<nb, bs, bs * sizeof(unsigned)>>>(d_in, d_out, d_tot, n);
    scan_blocks<<<1, 32, 32 * sizeof(unsigned)>>>(d_tot, d_tot_scan, d_dummy, nb);
    add_offsets<<<nb, bs>>>(d_out, d_tot_scan, n);
    cudaError_t e = cudaMemcpy(r, d_out, n * 4, cudaMemcpyDeviceToHost);
    unsigned acc = 0, cs = 0;
    bool ok = e == cudaSuccess;
    for (int i = 0; i < n; i++) {
        acc += h[i];
        if (r[i] != acc)
            ok = false;
        cs = cs * 31u + r[i];
    }
    printf("checksum: %u\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
