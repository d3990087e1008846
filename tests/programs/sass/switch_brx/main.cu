// SASS family: indirect branches. Dense switch statements become BRX jump tables (the targets
// in c[0x2] and .nv.info); a state machine loops over one, a second is nested in a divergent
// branch. Checked against the same function on the CPU.
#include <cstdio>
#include <cstdint>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

constexpr int N = 128, OUT = 3;

// Each case updates a different slot in a different way: not foldable into a table of values.
__host__ __device__ void step(unsigned op, unsigned *slot, unsigned arg)
{
    switch (op % 12) {
    case 0: slot[0] += arg; break;
    case 1: slot[1] = slot[1] * 3 + 1; break;
    case 2: slot[2] ^= arg; break;
    case 3: slot[3] -= arg >> 2; break;
    case 4: slot[0] <<= arg & 7; break;
    case 5: slot[1] >>= arg & 7; break;
    case 6: slot[2] |= 0x100; break;
    case 7: slot[3] = ~slot[3]; break;
    case 8: slot[0] *= arg; break;
    case 9: slot[1] += 12345; break;
    case 10: slot[2] = (slot[2] & 0xFFFF) * 17; break;
    default: slot[3] /= arg | 1; break;
    }
}

__host__ __device__ void compute(const unsigned *in, int i, unsigned *o)
{
    unsigned state = in[i], slot[4] = {(unsigned)i, 1, 2, 3};
    for (int k = 0; k < 24; k++) {                       // a little interpreter
        step(state >> (k % 28), slot, state + k);
        state = state * 1103515245u + 12345u;
    }
    unsigned acc = slot[0] ^ slot[1] * 3 ^ slot[2] * 5 ^ slot[3] * 7;
    o[0] = acc;
    unsigned v = in[(i * 7) % N];
    unsigned r = 0;
    if (v & 1) {
        switch ((v >> 1) % 9) {
        case 0: r = 10; break;
        case 1: r = v * 2; break;
        case 2: r = v ^ 0x5555; break;
        case 3: r = 7; break;
        case 4: r = v >> 3; break;
        case 5: r = 99; break;
        case 6: r = v + v / 3; break;
        case 7: r = 1; break;
        default: r = 0xDEAD; break;
        }
    }
    o[1] = r;
    unsigned last[4] = {acc, r, v, 9};
    step(v, last, r);
    o[2] = last[0] + last[1] + last[2] + last[3];
}

__global__ void kernel(const unsigned *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    compute(in, i, out + i * OUT);
}

__global__ void table(const int *in, int *o)
{
    int t = threadIdx.x;
    in += blockIdx.x * blockDim.x;
    o += blockIdx.x * blockDim.x;
    int v = in[t];
    switch (v % 7) {                                     // signed: cases -6..6 share a jump table
    case 0: o[t] += 3; break;
    case 1: o[t] *= 5; break;
    case 2: o[t] ^= 9; break;
    case 3: o[t] -= 11; break;
    case 4: o[t] <<= 2; break;
    case 5: o[t] = 7; break;
    default: o[t] = 1; break;
    }
}

static void log_reference(const int *in, int i, int *o)
{
    switch (in[i] % 7) {
    case 0: o[i] += 3; break;
    case 1: o[i] *= 5; break;
    case 2: o[i] ^= 9; break;
    case 3: o[i] -= 11; break;
    case 4: o[i] = (int)((unsigned)o[i] << 2); break;
    case 5: o[i] = 7; break;
    default: o[i] = 1; break;
    }
}

int main()
{
    unsigned in[N];
    uint32_t x = 521288629u;
    for (int i = 0; i < N; i++) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; in[i] = x; }
    unsigned *d_in, *d_out;
    int *d_log;
    CHECK(cudaMalloc(&d_in, sizeof in));
    CHECK(cudaMalloc(&d_out, N * OUT * 4));
    CHECK(cudaMalloc(&d_log, N * 4));
    static int log_init[N];
    for (int k = 0; k < N; k++) log_init[k] = k * 1000 - 50000;
    CHECK(cudaMemcpy(d_log, log_init, sizeof log_init, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    kernel<<<2, N / 2>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    table<<<2, N / 2>>>((const int *)d_in, d_log);
    CHECK(cudaGetLastError());
    static unsigned got[N * OUT], want[N * OUT];
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
    static int log[N], log_want[N];
    for (int k = 0; k < N; k++) log_want[k] = k * 1000 - 50000;
    CHECK(cudaMemcpy(log, d_log, sizeof log, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        log_reference((const int *)in, i, log_want);
        checksum = (checksum ^ (unsigned)log[i]) * 1099511628211ull;
        if (log[i] != log_want[i] && bad++ < 8) printf("table %d: got %d want %d\n", i, log[i], log_want[i]);
    }
    for (int i = 0; i < 4; i++) printf("row %d: %08x %08x %08x\n", i, got[i * OUT], got[i * OUT + 1], got[i * OUT + 2]);
    printf("checksum: %llu\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
