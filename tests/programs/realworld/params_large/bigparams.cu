// Kernel parameters beyond the classic 4 KB limit (CUDA 12.1+ on Volta and later allows 32764
// bytes): a 12 KB coefficient table passed by value next to ordinary parameters, indexed with
// thread-dependent subscripts, and a second kernel taking a 30 KB struct. nvcc describes these
// parameters with EIATTR_KPARAM_INFO_V2 and moves the parameter base in constant bank 0.
#include <cstdio>
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

struct Table {
    float coef[3000];          // 12000 bytes
};

struct Huge {
    int header[4];
    short lut[15000];          // 30000 bytes
    double scale;
};

__global__ void apply_table(float bias, Table t, const float *x, float *y, int n, char mode)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    int k = (i * 37 + 11) % 3000;
    y[i] = mode == 'm' ? fmaf(t.coef[k], v, bias) : t.coef[k] + t.coef[2999 - k] * v;
}

__global__ void apply_huge(Huge h, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = (i * 7919) % 15000;
    out[i] = (int)(h.lut[k] * h.scale) + h.header[i & 3] + h.lut[14999 - (i % 15000)];
}

int main()
{
    static Table t;
    for (int i = 0; i < 3000; i++) t.coef[i] = (float)((i * 31) % 97) * 0.125f - 6.0f;
    static Huge h;
    for (int i = 0; i < 4; i++) h.header[i] = 1000 * (i + 1);
    for (int i = 0; i < 15000; i++) h.lut[i] = (short)((i * 2654435761u) >> 17);
    h.scale = 0.5;
    const int N = 256;
    static float x[N], y[N];
    static int out[N];
    for (int i = 0; i < N; i++) x[i] = (float)(i % 19) - 9.0f;
    float *d_x, *d_y; int *d_out;
    CUDA_CHECK(cudaMalloc(&d_x, sizeof x)); CUDA_CHECK(cudaMalloc(&d_y, sizeof y)); CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));
    int bad = 0;
    double checksum = 0;
    for (char mode : {'m', 'a'}) {
        apply_table<<<N / 64, 64>>>(0.25f, t, d_x, d_y, N, mode);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(y, d_y, sizeof y, cudaMemcpyDeviceToHost));
        for (int i = 0; i < N; i++) {
            int k = (i * 37 + 11) % 3000;
            float want = mode == 'm' ? fmaf(t.coef[k], x[i], 0.25f) : t.coef[k] + t.coef[2999 - k] * x[i];
            checksum += y[i];
            if (y[i] != want && bad++ < 5) fprintf(stderr, "table %c %d: %g want %g\n", mode, i, y[i], want);
        }
    }
    apply_huge<<<N / 64, 64>>>(h, d_out, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        int k = (i * 7919) % 15000;
        int want = (int)(h.lut[k] * h.scale) + h.header[i & 3] + h.lut[14999 - (i % 15000)];
        checksum += out[i];
        if (out[i] != want && bad++ < 5) fprintf(stderr, "huge %d: %d want %d\n", i, out[i], want);
    }
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
