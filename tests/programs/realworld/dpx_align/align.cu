// Dynamic-programming kernels written with the DPX intrinsics (hardware on sm_90, emulated by the
// CUDA headers before): a Smith-Waterman local alignment score per sequence pair using
// __viaddmax_s32 / __vimax3_s32_relu, a packed 16-bit variant with __viaddmax_s16x2 and
// __vimax3_s16x2_relu, and __vibmax_s32 / __vibmin_u32 / __vibmax_s16x2 traceback predicates.
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

constexpr int PAIRS = 32, LEN = 24, MATCH = 3, MISMATCH = -2, GAP = -2;

__host__ __device__ int sw_reference(const char *a, const char *b)
{
    int prev[LEN + 1] = {}, cur[LEN + 1] = {}, best = 0;
    for (int i = 1; i <= LEN; i++) {
        cur[0] = 0;
        for (int j = 1; j <= LEN; j++) {
            int diag = prev[j - 1] + (a[i - 1] == b[j - 1] ? MATCH : MISMATCH);
            int v = diag > prev[j] + GAP ? diag : prev[j] + GAP;
            v = v > cur[j - 1] + GAP ? v : cur[j - 1] + GAP;
            v = v > 0 ? v : 0;
            cur[j] = v;
            best = v > best ? v : best;
        }
        for (int j = 0; j <= LEN; j++) prev[j] = cur[j];
    }
    return best;
}

// one thread per pair, the recurrence written with DPX intrinsics
__global__ void smith_waterman(const char *a, const char *b, int *score)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= PAIRS) return;
    const char *x = a + p * LEN, *y = b + p * LEN;
    int prev[LEN + 1] = {}, cur[LEN + 1] = {}, best = 0;
    for (int i = 1; i <= LEN; i++) {
        cur[0] = 0;
        for (int j = 1; j <= LEN; j++) {
            int sub = x[i - 1] == y[j - 1] ? MATCH : MISMATCH;
            int up = __viaddmax_s32(prev[j], GAP, prev[j - 1] + sub);     // max(prev[j] + GAP, diag)
            cur[j] = __vimax3_s32_relu(up, cur[j - 1] + GAP, 0);          // max(up, left, 0), clamped at 0
            best = __vimax_s32_relu(best, cur[j]);
        }
        for (int j = 0; j <= LEN; j++) prev[j] = cur[j];
    }
    score[p] = best;
}

// two pairs per thread in the 16-bit halves of each word
__global__ void smith_waterman_x2(const char *a, const char *b, int *score)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (2 * t >= PAIRS) return;
    const char *x0 = a + 2 * t * LEN, *y0 = b + 2 * t * LEN, *x1 = x0 + LEN, *y1 = y0 + LEN;
    unsigned prev[LEN + 1] = {}, cur[LEN + 1] = {}, best = 0;
    const unsigned gap2 = (unsigned)(GAP & 0xffff) * 0x10001u;
    for (int i = 1; i <= LEN; i++) {
        cur[0] = 0;
        for (int j = 1; j <= LEN; j++) {
            unsigned s0 = (unsigned)((x0[i - 1] == y0[j - 1] ? MATCH : MISMATCH) & 0xffff);
            unsigned s1 = (unsigned)((x1[i - 1] == y1[j - 1] ? MATCH : MISMATCH) & 0xffff);
            unsigned diag = __vadd2(prev[j - 1], s0 | s1 << 16);
            unsigned up = __viaddmax_s16x2(prev[j], gap2, diag);
            cur[j] = __vimax3_s16x2_relu(up, __vadd2(cur[j - 1], gap2), 0);
            best = __vimax_s16x2_relu(best, cur[j]);
        }
        for (int j = 0; j <= LEN; j++) prev[j] = cur[j];
    }
    score[2 * t] = (short)(best & 0xffff);
    score[2 * t + 1] = (short)(best >> 16);
}

__global__ void predicates(const int *v, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = v[i], y = v[(i * 7 + 3) % n];
    bool p, q, hi, lo;
    int m = __vibmax_s32(x, y, &p);
    unsigned u = __vibmin_u32((unsigned)x, (unsigned)y, &q);
    unsigned h = __vibmax_s16x2((unsigned)x, (unsigned)y, &hi, &lo);
    out[4 * i] = m;
    out[4 * i + 1] = (int)u;
    out[4 * i + 2] = (int)h;
    out[4 * i + 3] = p | q << 1 | hi << 2 | lo << 3;
}

int main()
{
    static char a[PAIRS * LEN], b[PAIRS * LEN];
    uint32_t s = 20240611u;
    const char alphabet[4] = {'A', 'C', 'G', 'T'};
    for (int i = 0; i < PAIRS * LEN; i++) {
        s = s * 1103515245u + 12345u; a[i] = alphabet[(s >> 16) & 3];
        s = s * 1103515245u + 12345u; b[i] = (s >> 20) % 3 == 0 ? a[i] : alphabet[(s >> 16) & 3];
    }
    char *d_a, *d_b; int *d_s, *d_s2;
    int score[PAIRS], score2[PAIRS];
    CUDA_CHECK(cudaMalloc(&d_a, sizeof a)); CUDA_CHECK(cudaMalloc(&d_b, sizeof b));
    CUDA_CHECK(cudaMalloc(&d_s, sizeof score)); CUDA_CHECK(cudaMalloc(&d_s2, sizeof score2));
    CUDA_CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice));
    smith_waterman<<<1, PAIRS>>>(d_a, d_b, d_s);
    smith_waterman_x2<<<1, PAIRS / 2>>>(d_a, d_b, d_s2);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(score, d_s, sizeof score, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(score2, d_s2, sizeof score2, cudaMemcpyDeviceToHost));
    int bad = 0;
    long long checksum = 0;
    for (int p = 0; p < PAIRS; p++) {
        int want = sw_reference(a + p * LEN, b + p * LEN);
        checksum += score[p] * (p + 1) + score2[p];
        if ((score[p] != want || score2[p] != want) && bad++ < 5)
            fprintf(stderr, "pair %d: %d / %d want %d\n", p, score[p], score2[p], want);
    }
    const int M = 64;
    int v[M], out[4 * M];
    for (int i = 0; i < M; i++) v[i] = (int)((i * 2654435761u) ^ (i * 40503u << 13)) >> (i % 5);
    v[5] = v[(5 * 7 + 3) % M];   // a tie
    int *d_v, *d_out;
    CUDA_CHECK(cudaMalloc(&d_v, sizeof v)); CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMemcpy(d_v, v, sizeof v, cudaMemcpyHostToDevice));
    predicates<<<1, M>>>(d_v, d_out, M);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < M; i++) {
        int x = v[i], y = v[(i * 7 + 3) % M];
        unsigned ux = (unsigned)x, uy = (unsigned)y;
        short xh = (short)(ux >> 16), yh = (short)(uy >> 16), xl = (short)ux, yl = (short)uy;
        unsigned h = (unsigned)(unsigned short)(xh >= yh ? xh : yh) << 16 | (unsigned short)(xl >= yl ? xl : yl);
        int flags = (x >= y) | (ux <= uy) << 1 | (xh >= yh) << 2 | (xl >= yl) << 3;
        int want[4] = {x >= y ? x : y, (int)(ux <= uy ? ux : uy), (int)h, flags};
        for (int k = 0; k < 4; k++) {
            checksum += (long long)out[4 * i + k] * (k + 1);
            if (out[4 * i + k] != want[k] && bad++ < 5) fprintf(stderr, "predicates %d.%d: %d want %d\n", i, k, out[4 * i + k], want[k]);
        }
    }
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
