// SASS family: bitwise integer operations. LOP3 truth tables (many three-input expressions),
// funnel shifts (SHF, wrap and clamp), PRMT in every mode (inline PTX prmt.b32.<mode>), POPC,
// FLO, BREV, BMSK/SGXT (PTX bmsk, szext), dot products (IDP), byte/half extraction (I2I/PRMT).
// Checked against the same function on the CPU.
#include <cstdio>
#include <cstdint>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

constexpr int N = 64, OUT = 24;

__host__ __device__ uint32_t byte_of(uint64_t pool, unsigned k) { return (uint32_t)(pool >> (8 * (k & 7))) & 0xFF; }

// PTX prmt semantics, for the CPU reference
__host__ __device__ uint32_t prmt_ref(uint32_t a, uint32_t b, uint32_t c, int mode)
{
    uint64_t pool = (uint64_t)b << 32 | a;
    uint32_t s = c & 3, r = 0;
    for (int i = 0; i < 4; i++) {
        unsigned k;
        switch (mode) {
        case 0: { unsigned n = (c >> (4 * i)) & 15; uint32_t v = byte_of(pool, n);
                  if (n & 8) v = (v & 0x80) ? 0xFF : 0; r |= v << (8 * i); continue; }
        case 1: k = (s + i) & 7; break;                 // f4e
        case 2: k = (s - i) & 7; break;                 // b4e
        case 3: k = s; break;                           // rc8
        case 4: k = i > (int)s ? i : s; break;          // ecl
        case 5: k = i < (int)s ? i : s; break;          // ecr
        default: k = 2 * (s & 1) + (i & 1); break;      // rc16
        }
        r |= byte_of(pool, k) << (8 * i);
    }
    return r;
}

#ifdef __CUDA_ARCH__
__device__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, int mode)
{
    uint32_t d;
    switch (mode) {
    case 0: asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 1: asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 2: asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 3: asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 4: asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 5: asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    default: asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    }
    return d;
}
__device__ uint32_t bmsk(uint32_t pos, uint32_t width) { uint32_t d; asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(d) : "r"(pos), "r"(width)); return d; }
__device__ int32_t szext(uint32_t a, uint32_t n) { int32_t d; asm("szext.clamp.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(n)); return d; }
#else
uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, int mode) { return prmt_ref(a, b, c, mode); }
uint32_t bmsk(uint32_t pos, uint32_t width)
{
    pos = pos > 32 ? 32 : pos; width = width > 32 ? 32 : width;
    uint64_t m = ((1ull << width) - 1) << pos;
    return (uint32_t)m;
}
int32_t szext(uint32_t a, uint32_t n)
{
    n = n > 32 ? 32 : n;
    if (n == 0) return 0;
    if (n == 32) return (int32_t)a;
    uint32_t v = a & ((1u << n) - 1);
    return (v >> (n - 1)) & 1 ? (int32_t)(v | ~((1u << n) - 1)) : (int32_t)v;
}
#endif

// CUDA intrinsics on the device, their definitions on the CPU
#ifdef __CUDA_ARCH__
#define HD __device__
HD int popc(uint32_t x) { return __popc(x); }
HD int clz(uint32_t x) { return __clz(x); }
HD uint32_t brev(uint32_t x) { return __brev(x); }
HD int ffs(uint32_t x) { return __ffs(x); }
HD uint32_t fsl(uint32_t lo, uint32_t hi, uint32_t s) { return __funnelshift_l(lo, hi, s); }
HD uint32_t fsr(uint32_t lo, uint32_t hi, uint32_t s) { return __funnelshift_r(lo, hi, s); }
HD uint32_t fslc(uint32_t lo, uint32_t hi, uint32_t s) { return __funnelshift_lc(lo, hi, s); }
HD uint32_t fsrc(uint32_t lo, uint32_t hi, uint32_t s) { return __funnelshift_rc(lo, hi, s); }
HD int dp4a(int a, int b, int c) { return __dp4a(a, b, c); }
HD unsigned udp4a(unsigned a, unsigned b, unsigned c) { return __dp4a(a, b, c); }
#else
int popc(uint32_t x) { return __builtin_popcount(x); }
int clz(uint32_t x) { return x ? __builtin_clz(x) : 32; }
uint32_t brev(uint32_t x) { uint32_t r = 0; for (int i = 0; i < 32; i++) r |= ((x >> i) & 1) << (31 - i); return r; }
int ffs(uint32_t x) { return __builtin_ffs((int)x); }
uint32_t fsl(uint32_t lo, uint32_t hi, uint32_t s) { return (uint32_t)((((uint64_t)hi << 32 | lo) << (s & 31)) >> 32); }
uint32_t fsr(uint32_t lo, uint32_t hi, uint32_t s) { return (uint32_t)(((uint64_t)hi << 32 | lo) >> (s & 31)); }
uint32_t fslc(uint32_t lo, uint32_t hi, uint32_t s) { s = s > 32 ? 32 : s; return (uint32_t)((((uint64_t)hi << 32 | lo) << s) >> 32); }
uint32_t fsrc(uint32_t lo, uint32_t hi, uint32_t s) { s = s > 32 ? 32 : s; return (uint32_t)(((uint64_t)hi << 32 | lo) >> s); }
int dp4a(int a, int b, int c) { for (int i = 0; i < 4; i++) c += (int8_t)(a >> 8 * i) * (int8_t)(b >> 8 * i); return c; }
unsigned udp4a(unsigned a, unsigned b, unsigned c) { for (int i = 0; i < 4; i++) c += (uint8_t)(a >> 8 * i) * (uint8_t)(b >> 8 * i); return c; }
#endif

__host__ __device__ void compute(const uint32_t *in, int i, uint32_t *o)
{
    uint32_t a = in[i], b = in[(i + 1) % N], c = in[(i * 5 + 2) % N];
    o[0] = (a & b) | (~a & c);                 // bit select
    o[1] = a ^ b ^ c;
    o[2] = (a | b) & ~c;
    o[3] = ~(a & b & c);
    o[4] = (a & b) | (b & c) | (a & c);        // majority
    o[5] = a ^ (b | ~c);
    o[6] = fsl(a, b, c);
    o[7] = fsr(a, b, c);
    o[8] = fslc(a, b, c & 63);
    o[9] = fsrc(a, b, c & 63);
    o[10] = prmt(a, b, c, 0);
    o[11] = prmt(a, b, c, 1) ^ prmt(a, b, c >> 2, 2) * 3;
    o[12] = prmt(a, b, c, 3) + prmt(a, b, c, 4);
    o[13] = prmt(a, b, c, 5) - prmt(a, b, c, 6);
    o[14] = popc(a) | clz(b) << 8 | ffs(c) << 16;
    o[15] = brev(a) + (31 - clz(c | 1));
    o[16] = bmsk(a & 63, b & 63);
    o[17] = (uint32_t)szext(a, c & 63);
    o[18] = (uint32_t)dp4a((int)a, (int)b, (int)c);
    o[19] = udp4a(a, b, c);
    o[20] = (uint32_t)(int8_t)(a >> 8) + (uint32_t)(uint16_t)(b >> 3) + (uint32_t)(int16_t)c;
    o[21] = a << (b & 31) | a >> (32 - (b & 31) & 31);
    o[22] = (uint32_t)((int32_t)a >> (c & 31));
    o[23] = (a >> 5 & 0x3FF) | (b & 0xF0F0F0F0) >> 3;
}

__global__ void kernel(const uint32_t *in, uint32_t *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    compute(in, i, out + i * OUT);
}

int main()
{
    uint32_t in[N];
    uint32_t v = 2463534242u;
    for (int i = 0; i < N; i++) {
        v ^= v << 13; v ^= v >> 17; v ^= v << 5;
        in[i] = i < 4 ? (uint32_t[]){0, ~0u, 0x80000000u, 1}[i] : v;
    }
    uint32_t *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof in));
    CHECK(cudaMalloc(&d_out, N * OUT * 4));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    kernel<<<2, N / 2>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    static uint32_t got[N * OUT], want[N * OUT];
    CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    unsigned long long checksum = 1469598103934665603ull;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        compute(in, i, want + i * OUT);
        for (int k = 0; k < OUT; k++) {
            checksum = (checksum ^ got[i * OUT + k]) * 1099511628211ull;
            if (got[i * OUT + k] != want[i * OUT + k] && bad++ < 8)
                printf("row %d item %d: got %08x want %08x\n", i, k, got[i * OUT + k], want[i * OUT + k]);
        }
    }
    for (int k = 0; k < OUT; k++) printf("row 9 item %d: %08x\n", k, got[9 * OUT + k]);
    printf("checksum: %llu\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
