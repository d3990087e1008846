// The SIMD-within-a-word and byte intrinsics image and genomics code uses: __vabsdiffu4,
// __vadd2/__vsub2/__vadd4, __vcmpgtu4/__vcmpeq2, __vmaxu4/__vmins2, __vavgu4, __sad/__usad,
// __vsadu4, __dp4a/__dp2a_lo/__dp2a_hi, __byte_perm, __funnelshift_l/r (wrap and clamp), __brev,
// __clz/__ffs/__popc (32 and 64 bit), __mulhi/__umul64hi, __hadd/__rhadd. Every result is
// compared bit for bit with a CPU model of the intrinsic.
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

constexpr int N = 256, OUTS = 27;

__global__ void simd_kernel(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i];
    unsigned long long xy = ((unsigned long long)x << 32) | y;
    unsigned *o = out + (size_t)i * OUTS;
    o[0] = __vabsdiffu4(x, y);
    o[1] = __vadd2(x, y);
    o[2] = __vsub2(x, y);
    o[3] = __vadd4(x, y);
    o[4] = __vcmpgtu4(x, y);
    o[5] = __vcmpeq2(x & 0xff00ff00u, y & 0xff00ff00u);
    o[6] = __vmaxu4(x, y);
    o[7] = __vmins2(x, y);
    o[8] = __vavgu4(x, y);
    o[9] = __sad((int)x, (int)y, 7u);
    o[10] = __usad(x, y, 11u);
    o[11] = (unsigned)__dp4a((int)x, (int)y, 1000);
    o[12] = __dp4a(x, y, 5u);
    o[13] = (unsigned)__dp2a_lo((int)x, (int)y, -3);
    o[14] = __dp2a_hi(x, y, 9u);
    o[15] = __byte_perm(x, y, y & 0x7777u);
    o[16] = __funnelshift_l(x, y, y >> 27);
    o[17] = __funnelshift_r(x, y, x >> 26);
    o[18] = __funnelshift_lc(x, y, y >> 26);
    o[19] = __funnelshift_rc(x, y, x >> 25);
    o[20] = __brev(x) ^ (unsigned)__clz((int)(x >> (y & 31)));
    o[21] = (unsigned)__ffs((int)(x & y)) + ((unsigned)__clzll((long long)(xy >> (x & 63))) << 8) +
            ((unsigned)__popcll(xy) << 16) + ((unsigned)__ffsll((long long)(xy & ~0xffffull)) << 24);
    o[22] = (unsigned)__mulhi((int)x, (int)y);
    o[23] = (unsigned)(__umul64hi(xy, 0x9e3779b97f4a7c15ull) >> 7);
    o[24] = (unsigned)__hadd((int)x, (int)y) ^ (unsigned)__rhadd((int)x, (int)y) << 1;
    o[25] = __vsetgeu2(x, y) | __vabsss2(x) << 1;
    o[26] = __vsadu4(x, y) + __vsadu4(x ^ y, y) * 1024u;
}

// ---- CPU models of the intrinsics (CUDA Math API definitions) ----
static unsigned bytes(unsigned v, int k) { return (v >> (8 * k)) & 0xff; }
static unsigned halves(unsigned v, int k) { return (v >> (16 * k)) & 0xffff; }
static int sbyte(unsigned v, int k) { return (int8_t)bytes(v, k); }
static int shalf(unsigned v, int k) { return (int16_t)halves(v, k); }

static void model(unsigned x, unsigned y, unsigned *o)
{
    unsigned long long xy = ((unsigned long long)x << 32) | y;
    unsigned r[8] = {};
    for (int k = 0; k < 4; k++) {
        unsigned p = bytes(x, k), q = bytes(y, k);
        r[0] |= (p > q ? p - q : q - p) << (8 * k);
        r[3] |= ((p + q) & 0xff) << (8 * k);
        r[4] |= (p > q ? 0xffu : 0u) << (8 * k);
        r[6] |= (p > q ? p : q) << (8 * k);
        r[7] |= ((p + q + 1) >> 1) << (8 * k);
    }
    o[0] = r[0]; o[3] = r[3]; o[4] = r[4]; o[6] = r[6]; o[8] = r[7];
    unsigned add2 = 0, sub2 = 0, eq2 = 0, min2 = 0, geu2 = 0, abs2 = 0;
    for (int k = 0; k < 2; k++) {
        unsigned p = halves(x, k), q = halves(y, k);
        add2 |= ((p + q) & 0xffff) << (16 * k);
        sub2 |= ((p - q) & 0xffff) << (16 * k);
        unsigned pm = halves(x & 0xff00ff00u, k), qm = halves(y & 0xff00ff00u, k);
        eq2 |= (pm == qm ? 0xffffu : 0u) << (16 * k);
        int sp = shalf(x, k), sq = shalf(y, k);
        min2 |= ((unsigned)(sp < sq ? sp : sq) & 0xffff) << (16 * k);
        geu2 |= (p >= q ? 1u : 0u) << (16 * k);
        int a = sp < 0 ? -sp : sp;
        if (a > 32767) a = 32767;
        abs2 |= ((unsigned)a & 0xffff) << (16 * k);
    }
    o[1] = add2; o[2] = sub2; o[5] = eq2; o[7] = min2;
    unsigned sad = 7, usad = 11;
    for (int k = 0; k < 1; k++) {
        int sx = (int)x, sy = (int)y;
        long long d = (long long)sx - sy;
        sad += (unsigned)(d < 0 ? -d : d);
        usad += x > y ? x - y : y - x;
    }
    o[9] = sad; o[10] = usad;
    int dp = 1000;
    unsigned udp = 5;
    for (int k = 0; k < 4; k++) { dp += sbyte(x, k) * sbyte(y, k); udp += bytes(x, k) * bytes(y, k); }
    o[11] = (unsigned)dp; o[12] = udp;
    o[13] = (unsigned)(shalf(x, 0) * sbyte(y, 0) + shalf(x, 1) * sbyte(y, 1) - 3);
    o[14] = halves(x, 0) * bytes(y, 2) + halves(x, 1) * bytes(y, 3) + 9u;
    unsigned long long both = ((unsigned long long)y << 32) | x;
    unsigned sel = y & 0x7777u, perm = 0;
    for (int k = 0; k < 4; k++) perm |= (unsigned)((both >> (8 * ((sel >> (4 * k)) & 7))) & 0xff) << (8 * k);
    o[15] = perm;
    unsigned s = (y >> 27) & 31;
    o[16] = (unsigned)((both << s) >> 32);
    s = (x >> 26) & 31;
    o[17] = (unsigned)(both >> s);
    s = y >> 26; if (s > 32) s = 32;
    o[18] = (unsigned)((both << s) >> 32);
    s = x >> 25; if (s > 32) s = 32;
    o[19] = (unsigned)(both >> s);
    unsigned rev = 0;
    for (int k = 0; k < 32; k++) rev |= ((x >> k) & 1u) << (31 - k);
    unsigned sh = x >> (y & 31);
    o[20] = rev ^ (unsigned)(sh ? __builtin_clz(sh) : 32);
    unsigned xa = x & y;
    unsigned long long sh64 = xy >> (x & 63), m64 = xy & ~0xffffull;
    o[21] = (unsigned)(xa ? __builtin_ctz(xa) + 1 : 0) + ((unsigned)(sh64 ? __builtin_clzll(sh64) : 64) << 8) +
            ((unsigned)__builtin_popcountll(xy) << 16) + ((unsigned)(m64 ? __builtin_ctzll(m64) + 1 : 0) << 24);
    o[22] = (unsigned)(((long long)(int)x * (int)y) >> 32);
    o[23] = (unsigned)((unsigned long long)(((unsigned __int128)xy * 0x9e3779b97f4a7c15ull) >> 64) >> 7);
    long long hs = (long long)(int)x + (int)y;
    o[24] = (unsigned)(int)(hs >> 1) ^ (unsigned)(int)((hs + 1) >> 1) << 1;
    o[25] = geu2 | abs2 << 1;
    unsigned sad1 = 0, sad2 = 0;
    for (int k = 0; k < 4; k++) {
        unsigned p = bytes(x, k), q = bytes(y, k), r = bytes(x ^ y, k);
        sad1 += p > q ? p - q : q - p;
        sad2 += r > q ? r - q : q - r;
    }
    o[26] = sad1 + sad2 * 1024u;
}

int main()
{
    static unsigned a[N], b[N], out[N * OUTS], want[OUTS];
    uint32_t s = 2463534242u;
    for (int i = 0; i < N; i++) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5; a[i] = s;
        s ^= s << 13; s ^= s >> 17; s ^= s << 5; b[i] = i % 17 == 0 ? a[i] : s;
    }
    unsigned *d_a, *d_b, *d_out;
    CUDA_CHECK(cudaMalloc(&d_a, sizeof a));
    CUDA_CHECK(cudaMalloc(&d_b, sizeof b));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof out));
    CUDA_CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice));
    simd_kernel<<<(N + 63) / 64, 64>>>(d_a, d_b, d_out, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    unsigned long long checksum = 0;
    for (int i = 0; i < N; i++) {
        model(a[i], b[i], want);
        for (int k = 0; k < OUTS; k++) {
            checksum = checksum * 31 + out[i * OUTS + k];
            if (out[i * OUTS + k] != want[k] && bad++ < 10)
                fprintf(stderr, "element %d, intrinsic %d: got 0x%08x want 0x%08x\n", i, k, out[i * OUTS + k], want[k]);
        }
    }
    printf("checksum: %llu\n", checksum % 1000000007ull);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
