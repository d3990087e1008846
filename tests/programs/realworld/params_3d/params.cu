// Kernel parameters and launch shapes the way simulation codes use them: a 4 KB struct passed by
// value (a filter bank and a lookup table), a small struct with mixed types, a struct holding
// device pointers, a 3D grid of 3D blocks indexing a volume, and __constant__ tables indexed
// with thread-dependent subscripts (uncoalesced constant reads).
#include <cstdio>
#include <cstdint>
#include <cstdlib>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t err__ = (call);                                                        \
        if (err__ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                              \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

struct Bank {                    // 4000 bytes: near the classic 4 KB parameter limit
    float taps[16][31];
    int lut[504];
};
static_assert(sizeof(Bank) == 4000, "Bank layout");

struct Mixed {
    char tag;
    double scale;
    short offset;
    unsigned long long mask;
    float bias[3];
};

struct Volume {
    const float *in;
    float *out;
    int nx, ny, nz;
};

__constant__ float c_weights[64];
__constant__ int c_perm[256];

__global__ void filter_kernel(Bank bank, Mixed m, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int f = bank.lut[(i * 7) % 504] & 15;
    float acc = 0.0f;
    for (int k = 0; k < 31; k++) {
        int j = i + k - 15;
        float v = (j >= 0 && j < n) ? x[j] : 0.0f;
        acc = fmaf(bank.taps[f][k], v, acc);
    }
    acc = acc * (float)m.scale + (float)m.offset + m.bias[i % 3];
    if ((m.mask >> (i % 64)) & 1) acc = -acc;
    y[i] = acc + (float)m.tag;
}

__global__ void volume_kernel(Volume v)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= v.nx || y >= v.ny || z >= v.nz) return;
    int idx = (z * v.ny + y) * v.nx + x;
    float sum = 0.0f;
    for (int d = -1; d <= 1; d++) {
        int zz = min(max(z + d, 0), v.nz - 1);
        sum += v.in[(zz * v.ny + y) * v.nx + x] * c_weights[(x + y + zz) & 63];
    }
    int p = c_perm[(x * 131 + y * 17 + z) & 255];
    v.out[idx] = sum + (float)p * 0.001f + (float)(gridDim.x * 100 + gridDim.y * 10 + gridDim.z);
}

int main()
{
    static Bank bank;
    for (int f = 0; f < 16; f++)
        for (int k = 0; k < 31; k++) bank.taps[f][k] = (float)((f * 31 + k) % 13 - 6) * 0.125f;
    for (int i = 0; i < 504; i++) bank.lut[i] = (i * 2654435761u) >> 7;
    Mixed m = {5, 0.5, -3, 0xF0F0A5A5C3C30F0Full, {0.25f, -0.5f, 1.0f}};
    const int N = 200;
    static float x[N], y[N];
    for (int i = 0; i < N; i++) x[i] = (float)((i * 37) % 23) - 11.0f;
    float *d_x, *d_y;
    CUDA_CHECK(cudaMalloc(&d_x, sizeof x)); CUDA_CHECK(cudaMalloc(&d_y, sizeof y));
    CUDA_CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));
    filter_kernel<<<(N + 63) / 64, 64>>>(bank, m, d_x, d_y, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(y, d_y, sizeof y, cudaMemcpyDeviceToHost));
    int bad = 0;
    double checksum = 0;
    for (int i = 0; i < N; i++) {
        int f = bank.lut[(i * 7) % 504] & 15;
        float acc = 0.0f;
        for (int k = 0; k < 31; k++) {
            int j = i + k - 15;
            acc = fmaf(bank.taps[f][k], (j >= 0 && j < N) ? x[j] : 0.0f, acc);
        }
        acc = acc * (float)m.scale + (float)m.offset + m.bias[i % 3];
        if ((m.mask >> (i % 64)) & 1) acc = -acc;
        float want = acc + (float)m.tag;
        checksum += y[i];
        if (y[i] != want && bad++ < 5) fprintf(stderr, "filter %d: %g want %g\n", i, y[i], want);
    }

    float weights[64]; int perm[256];
    for (int i = 0; i < 64; i++) weights[i] = (float)(i % 7) * 0.25f - 0.5f;
    for (int i = 0; i < 256; i++) perm[i] = (i * 167 + 13) & 255;
    CUDA_CHECK(cudaMemcpyToSymbol(c_weights, weights, sizeof weights));
    CUDA_CHECK(cudaMemcpyToSymbol(c_perm, perm, sizeof perm));
    const int NX = 12, NY = 10, NZ = 6, V = NX * NY * NZ;
    static float in[V], out[V];
    for (int i = 0; i < V; i++) in[i] = (float)((i * 13) % 29) * 0.5f;
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in)); CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    dim3 block(4, 4, 2), grid((NX + 3) / 4, (NY + 3) / 4, (NZ + 1) / 2);
    volume_kernel<<<grid, block>>>(Volume{d_in, d_out, NX, NY, NZ});
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int z = 0; z < NZ; z++)
        for (int yy = 0; yy < NY; yy++)
            for (int xx = 0; xx < NX; xx++) {
                float sum = 0.0f;
                for (int d = -1; d <= 1; d++) {
                    int zz = z + d < 0 ? 0 : z + d > NZ - 1 ? NZ - 1 : z + d;
                    sum += in[(zz * NY + yy) * NX + xx] * weights[(xx + yy + zz) & 63];
                }
                int p = perm[(xx * 131 + yy * 17 + z) & 255];
                float want = sum + (float)p * 0.001f + (float)(grid.x * 100 + grid.y * 10 + grid.z);
                float got = out[(z * NY + yy) * NX + xx];
                checksum += got;
                if (got != want && bad++ < 5) fprintf(stderr, "volume (%d,%d,%d): %g want %g\n", xx, yy, z, got, want);
            }
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
