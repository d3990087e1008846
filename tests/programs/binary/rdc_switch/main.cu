// Kernels in this file call apply_op (ops.cu) through the device link (-rdc=true).
#include <cstdio>

__device__ int apply_op(int op, int a, int b);

__global__ void evaluate(const int *ops, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        out[t] = apply_op(ops[t], t * 3 + 1, t + 2);
}

static int host_op(int op, int a, int b)
{
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a ^ b;
    case 4: return a | b;
    case 5: return a & b;
    case 6: return a << (b & 7);
    case 7: return a >> (b & 7);
    default: return -1;
    }
}

int main()
{
    const int n = 96;
    int ops[n], out[n];
    for (int i = 0; i < n; i++)
        ops[i] = (i * 7) % 10;           // 8 and 9 take the default
    int *dops, *dout;
    cudaMalloc(&dops, sizeof ops);
    cudaMalloc(&dout, sizeof out);
    cudaMemcpy(dops, ops, sizeof ops, cudaMemcpyHostToDevice);
    evaluate<<<3, 32>>>(dops, dout, n);
    cudaError_t e = cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    unsigned long long cs = 0;
    for (int i = 0; i < n; i++) {
        ok = ok && out[i] == host_op(ops[i], i * 3 + 1, i + 2);
        cs = cs * 3 + out[i];
    }
    printf("checksum: %llu\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
