// Smith-Waterman local alignment scores of 8 query/target pairs, one thread block per pair,
// cells of an anti-diagonal in parallel; three diagonals kept in shared memory.
#include <cstdio>
#include <cstdlib>

#define L 40
#define MATCH 2
#define MISMATCH -1
#define GAP -2

__device__ __host__ int imax(int a, int b) { return a > b ? a : b; }

__global__ void sw(const char *q, const char *t, int *best)
{
    __shared__ int d0[L + 1], d1[L + 1], d2[L + 1];
    __shared__ int top;
    const char *qs = q + blockIdx.x * L, *ts = t + blockIdx.x * L;
    int i = threadIdx.x + 1; // row of this thread
    if (threadIdx.x == 0)
        top = 0;
    for (int k = threadIdx.x; k <= L; k += blockDim.x)
        d0[k] = d1[k] = d2[k] = 0;
    __syncthreads();
    int mine = 0;
    // diagonal s holds cells (i, j) with i + j = s, indexed by i
    for (int s = 2; s <= 2 * L; s++) {
        int j = s - i;
        int v = 0;
        if (j >= 1 && j <= L) {
            int diag = d0[i - 1] + (qs[i - 1] == ts[j - 1] ? MATCH : MISMATCH);
            v = imax(0, imax(diag, imax(d1[i - 1] + GAP, d1[i] + GAP)));
            mine = imax(mine, v);
        }
        d2[i] = v;
        __syncthreads();
        d0[i] = d1[i];
        d1[i] = d2[i];
        __syncthreads();
    }
    atomicMax(&top, mine);
    __syncthreads();
    if (threadIdx.x == 0)
        best[blockIdx.x] = top;
}

static int sw_host(const char *q, const char *t)
{
    static int H[L + 1][L + 1];
    int best = 0;
    for (int i = 0; i <= L; i++)
        for (int j = 0; j <= L; j++) {
            if (!i || !j) {
                H[i][j] = 0;
                continue;
            }
            int v = imax(0, imax(H[i - 1][j - 1] + (q[i - 1] == t[j - 1] ? MATCH : MISMATCH),
                                 imax(H[i - 1][j] + GAP, H[i][j - 1] + GAP)));
            H[i][j] = v;
            best = imax(best, v);
        }
    return best;
}

int main()
{
    const int pairs = 8;
    const char acgt[] = "ACGT";
    char *q = (char *)malloc(pairs * L), *t = (char *)malloc(pairs * L);
    unsigned x = 2024;
    for (int i = 0; i < pairs * L; i++) {
        x = x * 1664525u + 1013904223u;
        q[i] = acgt[x >> 30];
        x = x * 1664525u + 1013904223u;
        t[i] = (x >> 29) < 5 ? q[i] : acgt[x >> 30];
    }
    char *dq, *dt;
    int *db, best[pairs];
    cudaMalloc(&dq, pairs * L);
    cudaMalloc(&dt, pairs * L);
    cudaMalloc(&db, sizeof best);
    cudaMemcpy(dq, q, pairs * L, cudaMemcpyHostToDevice);
    cudaMemcpy(dt, t, pairs * L, cudaMemcpyHostToDevice);
    sw<<<pairs, L>>>(dq, dt, db);
    cudaError_t e = cudaMemcpy(best, db, sizeof best, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    int cs = 0;
    for (int p = 0; p < pairs; p++) {
        ok = ok && best[p] == sw_host(q + p * L, t + p * L);
        cs = cs * 3 + best[p];
    }
    printf("checksum: %d\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
