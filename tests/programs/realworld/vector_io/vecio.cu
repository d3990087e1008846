// 128-bit vector memory traffic the way bandwidth-bound kernels write it: float4/int4/double2
// loads and stores, __ldg (read-only path), the cache-hinted loads and stores __ldcs/__ldcg/__ldca/
// __ldlu/__ldcv and __stcs/__stcg/__stwb/__stwt, char4/short2/ushort4 and uchar2 vectors, a
// float4 shared-memory transpose tile, and a misaligned tail handled with scalar loads.
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

constexpr int N = 1030;            // not a multiple of 4: a scalar tail
constexpr int TILE = 16;

__global__ void saxpy4(const float *__restrict__ x, float *__restrict__ y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n4 = n / 4;
    if (i < n4) {
        float4 xv = __ldg(reinterpret_cast<const float4 *>(x) + i);
        float4 yv = __ldcs(reinterpret_cast<const float4 *>(y) + i);
        yv.x = fmaf(a, xv.x, yv.x); yv.y = fmaf(a, xv.y, yv.y);
        yv.z = fmaf(a, xv.z, yv.z); yv.w = fmaf(a, xv.w, yv.w);
        __stcs(reinterpret_cast<float4 *>(y) + i, yv);
    }
    if (i < n - 4 * n4) {                         // tail
        int k = 4 * n4 + i;
        y[k] = fmaf(a, __ldg(x + k), y[k]);
    }
}

__global__ void int_mix(const int4 *__restrict__ a, const int4 *__restrict__ b, int4 *c, int2 *d,
                        double2 *e, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    int4 p = __ldcg(a + i), q = __ldca(b + i);
    int4 r = make_int4(p.x + q.w, p.y ^ q.z, p.z - q.y, p.w * q.x);
    __stcg(c + i, r);
    int2 lo = __ldlu(reinterpret_cast<const int2 *>(a) + 2 * i + 1);
    __stwb(d + i, make_int2(lo.x + 1, lo.y - 1));
    double2 dv = make_double2((double)p.x * 0.5, (double)q.y * 0.25);
    __stwt(e + i, dv);
    int4 again = __ldcv(c + i);                  // volatile re-read of our own store
    if (again.x != r.x) c[i].y = 0x7fffffff;
}

__global__ void bytes_and_shorts(const char4 *in, short2 *s2, ushort4 *u4, uchar2 *b2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    char4 v = in[i];
    s2[i] = make_short2((short)(v.x * v.y), (short)(v.z - v.w));
    u4[i] = make_ushort4((unsigned short)(v.x + 128), (unsigned short)(v.y & 0x7f), (unsigned short)(v.z << 4),
                         (unsigned short)(unsigned char)v.w);
    b2[i] = make_uchar2((unsigned char)(v.x ^ v.w), (unsigned char)(v.y + v.z));
}

// a TILE x TILE float matrix transposed through shared memory with float4 rows
__global__ void transpose4(const float4 *in, float4 *out, int rows4, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int r = threadIdx.y, c4 = threadIdx.x;        // blockDim = (TILE/4, TILE)
    float4 v = in[(blockIdx.x * TILE + r) * (TILE / 4) + c4];
    tile[r][4 * c4] = v.x; tile[r][4 * c4 + 1] = v.y; tile[r][4 * c4 + 2] = v.z; tile[r][4 * c4 + 3] = v.w;
    __syncthreads();
    float4 w = make_float4(tile[4 * c4][r], tile[4 * c4 + 1][r], tile[4 * c4 + 2][r], tile[4 * c4 + 3][r]);
    out[(blockIdx.x * TILE + r) * (TILE / 4) + c4] = w;
}

int main()
{
    static float x[N], y[N], y0[N];
    for (int i = 0; i < N; i++) { x[i] = (float)(i % 37) * 0.5f - 9.0f; y0[i] = y[i] = (float)(i % 11) - 5.0f; }
    float *d_x, *d_y;
    CUDA_CHECK(cudaMalloc(&d_x, sizeof x));
    CUDA_CHECK(cudaMalloc(&d_y, sizeof y));
    CUDA_CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_y, y, sizeof y, cudaMemcpyHostToDevice));
    saxpy4<<<(N / 4 + 63) / 64, 64>>>(d_x, d_y, 1.5f, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(y, d_y, sizeof y, cudaMemcpyDeviceToHost));
    int bad = 0;
    double checksum = 0;
    for (int i = 0; i < N; i++) {
        float want = fmaf(1.5f, x[i], y0[i]);
        checksum += y[i];
        if (y[i] != want && bad++ < 5) fprintf(stderr, "saxpy4[%d]: %g != %g\n", i, y[i], want);
    }

    constexpr int M = 96;
    static int4 a[M], b[M], c[M];
    static int2 d[M];
    static double2 e[M];
    for (int i = 0; i < M; i++) {
        a[i] = make_int4(i * 3, -i * 7, i * i, 1000 - i);
        b[i] = make_int4(i ^ 5, i * 11, -i, i + 17);
    }
    int4 *d_a, *d_b, *d_c; int2 *d_d; double2 *d_e;
    CUDA_CHECK(cudaMalloc(&d_a, sizeof a)); CUDA_CHECK(cudaMalloc(&d_b, sizeof b));
    CUDA_CHECK(cudaMalloc(&d_c, sizeof c)); CUDA_CHECK(cudaMalloc(&d_d, sizeof d));
    CUDA_CHECK(cudaMalloc(&d_e, sizeof e));
    CUDA_CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice));
    int_mix<<<2, 64>>>(d_a, d_b, d_c, d_d, d_e, M);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(c, d_c, sizeof c, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(d, d_d, sizeof d, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(e, d_e, sizeof e, cudaMemcpyDeviceToHost));
    for (int i = 0; i < M; i++) {
        int4 p = a[i], q = b[i];
        const int *flat = reinterpret_cast<const int *>(a);
        bool ok = c[i].x == p.x + q.w && c[i].y == (p.y ^ q.z) && c[i].z == p.z - q.y && c[i].w == p.w * q.x &&
                  d[i].x == flat[4 * i + 2] + 1 && d[i].y == flat[4 * i + 3] - 1 &&
                  e[i].x == p.x * 0.5 && e[i].y == q.y * 0.25;
        checksum += c[i].x + c[i].y + c[i].z + c[i].w + d[i].x + d[i].y + e[i].x + e[i].y;
        if (!ok && bad++ < 5) fprintf(stderr, "int_mix[%d] wrong\n", i);
    }

    constexpr int B = 200;
    static char4 in[B]; static short2 s2[B]; static ushort4 u4[B]; static uchar2 b2[B];
    for (int i = 0; i < B; i++) in[i] = make_char4((char)(i * 7), (char)(i - 100), (char)(i * 3 + 1), (char)(-i));
    char4 *d_in; short2 *d_s2; ushort4 *d_u4; uchar2 *d_b2;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof in)); CUDA_CHECK(cudaMalloc(&d_s2, sizeof s2));
    CUDA_CHECK(cudaMalloc(&d_u4, sizeof u4)); CUDA_CHECK(cudaMalloc(&d_b2, sizeof b2));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    bytes_and_shorts<<<(B + 63) / 64, 64>>>(d_in, d_s2, d_u4, d_b2, B);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(s2, d_s2, sizeof s2, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(u4, d_u4, sizeof u4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(b2, d_b2, sizeof b2, cudaMemcpyDeviceToHost));
    for (int i = 0; i < B; i++) {
        char4 v = in[i];
        bool ok = s2[i].x == (short)(v.x * v.y) && s2[i].y == (short)(v.z - v.w) &&
                  u4[i].x == (unsigned short)(v.x + 128) && u4[i].y == (unsigned short)(v.y & 0x7f) &&
                  u4[i].z == (unsigned short)(v.z << 4) && u4[i].w == (unsigned short)(unsigned char)v.w &&
                  b2[i].x == (unsigned char)(v.x ^ v.w) && b2[i].y == (unsigned char)(v.y + v.z);
        checksum += s2[i].x + s2[i].y + u4[i].x + u4[i].y + u4[i].z + u4[i].w + b2[i].x + b2[i].y;
        if (!ok && bad++ < 5) fprintf(stderr, "bytes_and_shorts[%d] wrong\n", i);
    }

    constexpr int MATS = 3;
    static float mat[MATS * TILE * TILE], tr[MATS * TILE * TILE];
    for (int i = 0; i < MATS * TILE * TILE; i++) mat[i] = (float)((i * 37) % 101) - 50.0f;
    float4 *d_m, *d_t;
    CUDA_CHECK(cudaMalloc(&d_m, sizeof mat)); CUDA_CHECK(cudaMalloc(&d_t, sizeof tr));
    CUDA_CHECK(cudaMemcpy(d_m, mat, sizeof mat, cudaMemcpyHostToDevice));
    transpose4<<<MATS, dim3(TILE / 4, TILE)>>>(d_m, d_t, TILE, TILE);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(tr, d_t, sizeof tr, cudaMemcpyDeviceToHost));
    for (int m = 0; m < MATS; m++)
        for (int r = 0; r < TILE; r++)
            for (int k = 0; k < TILE; k++) {
                float got = tr[m * TILE * TILE + r * TILE + k], want = mat[m * TILE * TILE + k * TILE + r];
                checksum += got * (r + 1);
                if (got != want && bad++ < 5) fprintf(stderr, "transpose %d (%d,%d)\n", m, r, k);
            }
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
