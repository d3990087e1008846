// SASS family: local memory. Per-thread arrays indexed at run time (STL/LDL of every width),
// a local struct array, a local array passed to a non-inlined function (generic addresses into
// the local window: ST/LD), and a recursive function using the stack. Checked against the CPU.
#include <cstdio>
#include <cstdint>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

constexpr int N = 64, OUT = 6;

struct Item { char tag; short weight; int value; double scale; };

__host__ __device__ __noinline__ int sum_through_pointer(int *p, int n, int stride)
{
    int s = 0;
    for (int k = 0; k < n; k++) { p[(k * stride) % n] += k; s += (int)((unsigned)p[k] * (k + 1)); }
    return s;
}

__host__ __device__ __noinline__ int collatz_depth(long long v, int depth)
{
    if (v == 1 || depth > 200) return depth;
    return collatz_depth(v & 1 ? 3 * v + 1 : v / 2, depth + 1);
}

__host__ __device__ void compute(const int *in, int i, long long *o)
{
    int x = in[i];
    int a[24];
    for (int k = 0; k < 24; k++) a[k] = (int)((unsigned)x * (k + 3)) ^ k;
    long long b[9];
    for (int k = 0; k < 9; k++) b[k] = (long long)a[(unsigned)(x + k * 5) % 24] << (k * 3);
    Item items[5];
    for (int k = 0; k < 5; k++) {
        items[k].tag = (char)(x + k);
        items[k].weight = (short)((unsigned)x * k);
        items[k].value = a[(unsigned)(k * 7 + x) % 24];
        items[k].scale = 0.5 * (k + x % 3);
    }
    int pick = (unsigned)x % 5;
    // 32-bit sums wrap explicitly: signed overflow would be undefined (hipcc widens it, nvcc wraps)
    o[0] = (int)((unsigned)a[(unsigned)x % 24] + (unsigned)a[((unsigned)x >> 5) % 24]);
    o[1] = b[(unsigned)x % 9] ^ b[((unsigned)x / 9) % 9];
    o[2] = (int)((unsigned)(items[pick].tag + items[pick].weight) + (unsigned)items[pick].value) + (long long)(items[pick].scale * 4);
    o[3] = sum_through_pointer(a, 24, (x & 7) | 1);
    o[4] = (int)((unsigned)a[3] + (unsigned)a[23]);
    o[5] = collatz_depth(((unsigned)x % 1000) + 1, 0);
}

__global__ void kernel(const int *in, long long *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    compute(in, i, out + i * OUT);
}

int main()
{
    int in[N];
    uint32_t x = 362436069u;
    for (int i = 0; i < N; i++) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; in[i] = (int)x; }
    int *d_in; long long *d_out;
    CHECK(cudaMalloc(&d_in, sizeof in));
    CHECK(cudaMalloc(&d_out, N * OUT * 8));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 16384));
    kernel<<<2, N / 2>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    static long long got[N * OUT], want[N * OUT];
    CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    unsigned long long checksum = 1469598103934665603ull;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        compute(in, i, want + i * OUT);
        for (int k = 0; k < OUT; k++) {
            checksum = (checksum ^ (unsigned long long)got[i * OUT + k]) * 1099511628211ull;
            if (got[i * OUT + k] != want[i * OUT + k] && bad++ < 8)
                printf("row %d item %d: got %lld want %lld\n", i, k, got[i * OUT + k], want[i * OUT + k]);
        }
    }
    for (int k = 0; k < OUT; k++) printf("row 1 item %d: %lld\n", k, got[OUT + k]);
    printf("checksum: %llu\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
