// SASS family: the bit-field and byte-permute PTX that hashing, compression and codec kernels
// write inline: bfe.u32/.s32/.u64, bfi.b32, prmt.b32 in every mode (default, f4e, b4e, rc8, ecl,
// ecr, rc16), bfind (.shiftamt), brev.b64, __fns, shf.l/r .wrap/.clamp, and the lop3 immLut
// forms compilers do not pick themselves, and vabsdiff4 with a merge operand. Each result is compared with a CPU model written from
// the PTX ISA's definitions.
#include <cstdio>
#include <cstdint>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d: %s\nFAIL\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

constexpr int N = 128, OUTS = 19;

__global__ void bits_kernel(const unsigned *a, const unsigned *b, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = a[i], y = b[i], r[OUTS];
    unsigned pos = y & 31, len = (y >> 5) & 31;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r[0]) : "r"(x), "r"(pos), "r"(len));
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r[1]) : "r"(x), "r"(pos), "r"(len));
    unsigned long long wide = ((unsigned long long)y << 32) | x, w;
    asm("bfe.u64 %0, %1, %2, %3;" : "=l"(w) : "l"(wide), "r"((y >> 10) & 63), "r"((x >> 10) & 63));
    r[2] = (unsigned)(w ^ (w >> 32));
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r[3]) : "r"(x), "r"(y), "r"(pos), "r"(len));
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r[4]) : "r"(x), "r"(y), "r"(x >> 7));
    asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r[5]) : "r"(x), "r"(y), "r"(y >> 3));
    asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r[6]) : "r"(x), "r"(y), "r"(y >> 5));
    asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r[7]) : "r"(x), "r"(y), "r"(y));
    asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r[8]) : "r"(x), "r"(y), "r"(y >> 9));
    asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r[9]) : "r"(x), "r"(y), "r"(x >> 11));
    asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r[10]) : "r"(x), "r"(y), "r"(x));
    asm("bfind.u32 %0, %1;" : "=r"(r[11]) : "r"(x >> (y & 31)));
    asm("bfind.s32 %0, %1;" : "=r"(r[12]) : "r"((int)y >> (x & 31)));
    asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r[13]) : "r"(x & y));
    unsigned long long rv;
    asm("brev.b64 %0, %1;" : "=l"(rv) : "l"(wide));
    r[14] = (unsigned)rv + (unsigned)(rv >> 32) * 3u;
    r[15] = __fns(x, pos, (int)(len % 9) - 4);
    asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r[16]) : "r"(x), "r"(y), "r"(x >> 26));
    unsigned lop;
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(lop) : "r"(x), "r"(y), "r"(x + y));
    unsigned lop2;
    asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(lop2) : "r"(x), "r"(y), "r"(x ^ 0x5a5a5a5a));
    r[17] = lop ^ (lop2 << 1);
    asm("vabsdiff4.u32.u32.u32 %0, %1, %2, %3;" : "=r"(r[18]) : "r"(x), "r"(y), "r"(x ^ y));   // full mask: c unused
    for (int k = 0; k < OUTS; k++) out[i * OUTS + k] = r[k];
}

// ---- CPU models (PTX ISA definitions) ----
static unsigned bfe32(unsigned x, unsigned pos, unsigned len, bool sign)
{
    pos &= 0xff; len &= 0xff;
    unsigned msb = pos + len - 1 > 31 ? 31 : pos + len - 1;
    unsigned sbit = sign ? (len == 0 ? 0 : (x >> msb) & 1) : 0;
    unsigned d = 0;
    for (unsigned i = 0; i < 32; i++) d |= (i < len && pos + i <= 31 ? (x >> (pos + i)) & 1 : sbit) << i;
    return d;
}
static unsigned long long bfe64u(unsigned long long x, unsigned pos, unsigned len)
{
    unsigned long long d = 0;
    for (unsigned i = 0; i < 64; i++) d |= (unsigned long long)(i < len && pos + i <= 63 ? (x >> (pos + i)) & 1 : 0) << i;
    return d;
}
static unsigned bfi32(unsigned a, unsigned b, unsigned pos, unsigned len)
{
    pos &= 0xff; len &= 0xff;
    unsigned f = b;
    for (unsigned i = 0; i < len && pos + i <= 31; i++) f = (f & ~(1u << (pos + i))) | (((a >> i) & 1) << (pos + i));
    return f;
}
static unsigned prmt(unsigned a, unsigned b, unsigned c, int mode)
{
    unsigned char bytes[8];
    for (int k = 0; k < 4; k++) { bytes[k] = (a >> (8 * k)) & 0xff; bytes[k + 4] = (b >> (8 * k)) & 0xff; }
    unsigned d = 0;
    if (mode == 0) {
        for (int k = 0; k < 4; k++) {
            unsigned sel = (c >> (4 * k)) & 15;
            unsigned char v = bytes[sel & 7];
            if (sel & 8) v = (v & 0x80) ? 0xff : 0;
            d |= (unsigned)v << (8 * k);
        }
        return d;
    }
    unsigned s = c & 3;
    static const int table[6][4][4] = {
        {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},   // f4e
        {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},   // b4e
        {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},   // rc8
        {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},   // ecl
        {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},   // ecr
        {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},   // rc16
    };
    for (int k = 0; k < 4; k++) d |= (unsigned)bytes[table[mode - 1][s][k]] << (8 * k);
    return d;
}
static unsigned bfind(unsigned long long v, bool sign, bool shiftamt)
{
    unsigned x = (unsigned)v;
    if (sign && (int)x < 0) x = ~x;
    if (x == 0) return 0xffffffffu;
    unsigned msb = 31 - __builtin_clz(x);
    return shiftamt ? 31 - msb : msb;
}
static unsigned fns(unsigned mask, unsigned base, int offset)
{
    if (offset == 0) return (mask >> base) & 1 ? base : 0xffffffffu;
    int count = (offset > 0 ? offset : -offset) - 1, inc = offset > 0 ? 1 : -1;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += inc) {
        if ((mask >> pos) & 1) {
            if (count == 0) return (unsigned)pos;
            count--;
        }
    }
    return 0xffffffffu;
}

static void model(unsigned x, unsigned y, unsigned *r)
{
    unsigned pos = y & 31, len = (y >> 5) & 31;
    r[0] = bfe32(x, pos, len, false);
    r[1] = bfe32(x, pos, len, true);
    unsigned long long wide = ((unsigned long long)y << 32) | x;
    unsigned long long w = bfe64u(wide, (y >> 10) & 63, (x >> 10) & 63);
    r[2] = (unsigned)(w ^ (w >> 32));
    r[3] = bfi32(x, y, pos, len);
    r[4] = prmt(x, y, x >> 7, 0);
    r[5] = prmt(x, y, y >> 3, 1); r[6] = prmt(x, y, y >> 5, 2); r[7] = prmt(x, y, y, 3);
    r[8] = prmt(x, y, y >> 9, 4); r[9] = prmt(x, y, x >> 11, 5); r[10] = prmt(x, y, x, 6);
    r[11] = bfind(x >> (y & 31), false, false);
    r[12] = bfind((unsigned)((int)y >> (x & 31)), true, false);
    r[13] = bfind(x & y, false, true);
    unsigned long long rv = 0;
    for (int k = 0; k < 64; k++) rv |= ((wide >> k) & 1ull) << (63 - k);
    r[14] = (unsigned)rv + (unsigned)(rv >> 32) * 3u;
    r[15] = fns(x, pos, (int)(len % 9) - 4);
    unsigned s = (x >> 26) > 32 ? 32 : (x >> 26);
    r[16] = (unsigned)((((unsigned long long)y << 32 | x) << s) >> 32);
    unsigned c = x + y, lop = 0, lop2 = 0, c2 = x ^ 0x5a5a5a5a;
    for (int k = 0; k < 32; k++) {
        unsigned ia = (x >> k) & 1, ib = (y >> k) & 1, ic = (c >> k) & 1, ic2 = (c2 >> k) & 1;
        lop |= ((0x96u >> (ia * 4 + ib * 2 + ic)) & 1) << k;
        lop2 |= ((0xe8u >> (ia * 4 + ib * 2 + ic2)) & 1) << k;
    }
    r[17] = lop ^ (lop2 << 1);
    unsigned ad = 0;
    for (int k = 0; k < 4; k++) {
        unsigned p = (x >> (8 * k)) & 0xff, q = (y >> (8 * k)) & 0xff;
        ad |= (p > q ? p - q : q - p) << (8 * k);
    }
    r[18] = ad;
}

int main()
{
    static unsigned a[N], b[N], out[N * OUTS];
    uint32_t s = 0xC0FFEEu;
    for (int i = 0; i < N; i++) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5; a[i] = s;
        s ^= s << 13; s ^= s >> 17; s ^= s << 5; b[i] = s;
    }
    a[0] = 0; b[0] = 0xffffffffu; a[1] = 0x80000000u; b[1] = 0x3e0u;      // edge cases: zero, len 31
    unsigned *d_a, *d_b, *d_out;
    CHECK(cudaMalloc(&d_a, sizeof a)); CHECK(cudaMalloc(&d_b, sizeof b)); CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice));
    bits_kernel<<<N / 64, 64>>>(d_a, d_b, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    unsigned long long checksum = 0;
    for (int i = 0; i < N; i++) {
        unsigned want[OUTS];
        model(a[i], b[i], want);
        for (int k = 0; k < OUTS; k++) {
            checksum = checksum * 1000003u + out[i * OUTS + k];
            if (out[i * OUTS + k] != want[k] && bad++ < 10)
                printf("element %d, output %d: got 0x%08x want 0x%08x (a=0x%08x b=0x%08x)\n", i, k, out[i * OUTS + k], want[k], a[i], b[i]);
        }
    }
    printf("checksum: %llu\n", checksum % 1000000007ull);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
