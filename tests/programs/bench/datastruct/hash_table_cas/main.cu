// Open-addressing hash table: insert with atomicCAS and linear probing, then look keys up;
// thread 0 prints the occupancy with device printf.
#include <cstdio>
#include <cstdlib>

#define EMPTY 0xffffffffu
#define CAP 2048

__device__ __host__ unsigned hash32(unsigned k)
{
    k ^= k >> 16;
    k *= 0x7feb352du;
    k ^= k >> 15;
    k *= 0x846ca68bu;
    k ^= k >> 16;
    return k;
}

__global__ void insert(unsigned *keys, unsigned *vals, const unsigned *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned k = in[i], slot = hash32(k) & (CAP - 1);
    for (;;) {
        unsigned prev = atomicCAS(&keys[slot], EMPTY, k);
        if (prev == EMPTY || prev == k) {
            atomicAdd(&vals[slot], 1u);
            return;
        }
        slot = (slot + 1) & (CAP - 1);
    }
}

__global__ void lookup(const unsigned *keys, const unsigned *vals, const unsigned *q, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned k = q[i], slot = hash32(k) & (CAP - 1);
    out[i] = 0;
    for (int probe = 0; probe < CAP; probe++) {
        unsigned s = keys[slot];
        if (s == k) {
            out[i] = vals[slot];
            return;
        }
        if (s == EMPTY)
            return;
        slot = (slot + 1) & (CAP - 1);
    }
}

__global__ void occupancy(const unsigned *keys)
{
    __shared__ unsigned used;
    if (threadIdx.x == 0)
        used = 0;
    __syncthreads();
    unsigned mine = 0;
    for (int s = threadIdx.x; s < CAP; s += blockDim.x)
        mine += keys[s] != EMPTY;
    atomicAdd(&used, mine);
    __syncthreads();
    if (threadIdx.x == 0)
        printf("device: %u of %d slots used\n", used, CAP);
}

int main()
{
    const int n = 1500, nq = 512;
    unsigned *in = (unsigned *)malloc(n * 4), q[nq], got[nq];
    for (int i = 0; i < n; i++)
        in[i] = (i * 7) % 1000 + 1;
    for (int i = 0; i < nq; i++)
        q[i] = i * 3 + 1;
    unsigned *dk, *dv, *din, *dq, *dout;
    cudaMalloc(&dk, CAP * 4);
    cudaMalloc(&dv, CAP * 4);
    cudaMalloc(&din, n * 4);
    cudaMalloc(&dq, sizeof q);
    cudaMalloc(&dout, sizeof got);
    cudaMemset(dk, 0xff, CAP * 4);
    cudaMemset(dv, 0, CAP * 4);
    cudaMemcpy(din, in, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dq, q, sizeof q, cudaMemcpyHostToDevice);
    insert<<<(n + 255) / 256, 256>>>(dk, dv, din, n);
    lookup<<<nq / 128, 128>>>(dk, dv, dq, dout, nq);
    occupancy<<<1, 128>>>(dk);
    cudaError_t e = cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    unsigned cs = 0;
    for (int i = 0; i < nq; i++) {
        unsigned want = 0;
        for (int j = 0; j < n; j++)
            want += in[j] == q[i];
        ok = ok && got[i] == want;
        cs = cs * 3u + got[i];
    }
    printf("checksum: %u\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
