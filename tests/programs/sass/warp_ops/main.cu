// SASS family: warp operations. SHFL IDX/UP/DOWN/BFLY with sub-warp widths and out-of-range
// lanes (which keep their own value), VOTE any/all/ballot including under divergence, MATCH
// any/all, REDUX add/min/max/and/or/xor, __syncwarp. Checked against a CPU model of a warp.
#include <cstdio>
#include <cstdint>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

constexpr int WARPS = 4, N = 32 * WARPS, OUT = 16;

__global__ void kernel(const int *in, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[t];
    int *o = out + t * OUT;
    o[0] = __shfl_sync(0xffffffff, v, (lane * 5 + 3) & 31);
    o[1] = __shfl_sync(0xffffffff, v, lane + 3, 8);           // index wraps inside 8-lane segments
    o[2] = __shfl_up_sync(0xffffffff, v, 3);                  // lanes 0..2 keep their value
    o[3] = __shfl_up_sync(0xffffffff, v, 2, 16);
    o[4] = __shfl_down_sync(0xffffffff, v, 5);                // lanes 27..31 keep their value
    o[5] = __shfl_down_sync(0xffffffff, v, 1, 4);
    o[6] = __shfl_xor_sync(0xffffffff, v, 9);
    o[7] = __shfl_xor_sync(0xffffffff, v, 3, 16);
    o[8] = __ballot_sync(0xffffffff, v & 1);
    o[9] = __any_sync(0xffffffff, v > 900) | __all_sync(0xffffffff, v >= 0) << 1 | __all_sync(0xffffffff, v > 10) << 2;
    // A vote among the lanes that took the branch. Its mask names exactly those lanes: a full mask
    // there would wait for lanes that never arrive (undefined; it deadlocks on Volta and later).
    unsigned taken = __ballot_sync(0xffffffff, v & 2), m = 0;
    if (v & 2)
        m = __ballot_sync(taken, 1);
    o[10] = m;
    o[11] = __match_any_sync(0xffffffff, v % 5);
    int pred;
    o[12] = __match_all_sync(0xffffffff, lane < 32 ? 7 : v, &pred) + pred;
    o[13] = __reduce_add_sync(0xffffffff, v) ^ __reduce_min_sync(0xffffffff, v) << 3;
    o[14] = __reduce_max_sync(0xffffffff, (unsigned)v) + (__reduce_or_sync(0xffffffff, v) ^ __reduce_and_sync(0xffffffff, v | 0x100) ^ __reduce_xor_sync(0xffffffff, v));
    __syncwarp();
    o[15] = lane;
}

int main()
{
    int in[N];
    uint32_t x = 88675123u;
    for (int i = 0; i < N; i++) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; in[i] = (int)(x % 1000); }
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof in));
    CHECK(cudaMalloc(&d_out, N * OUT * 4));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    kernel<<<2, N / 2>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    static int got[N * OUT];
    CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    unsigned long long checksum = 1469598103934665603ull;
    int bad = 0;
    for (int w = 0; w < WARPS; w++) {
        const int *v = in + 32 * w;
        unsigned ballot = 0, branch = 0; int sum = 0, mn = 1 << 30; unsigned mx = 0; int bor = 0, band = -1, bxor = 0;
        int any = 0, all0 = 1, all10 = 1;
        for (int l = 0; l < 32; l++) {
            ballot |= (unsigned)(v[l] & 1) << l; branch |= (v[l] & 2 ? 1u : 0u) << l;
            sum += v[l]; mn = v[l] < mn ? v[l] : mn; mx = (unsigned)v[l] > mx ? v[l] : mx;
            bor |= v[l]; band &= v[l] | 0x100; bxor ^= v[l];
            any |= v[l] > 900; all0 &= v[l] >= 0; all10 &= v[l] > 10;
        }
        for (int l = 0; l < 32; l++) {
            int want[OUT];
            unsigned match = 0;
            for (int k = 0; k < 32; k++) match |= (unsigned)(v[k] % 5 == v[l] % 5) << k;
            int seg8 = l & ~7, seg16 = l & ~15, seg4 = l & ~3;
            want[0] = v[(l * 5 + 3) & 31];
            want[1] = v[seg8 + ((l + 3) & 7)];
            want[2] = l >= 3 ? v[l - 3] : v[l];
            want[3] = l - seg16 >= 2 ? v[l - 2] : v[l];
            want[4] = l + 5 < 32 ? v[l + 5] : v[l];
            want[5] = l + 1 - seg4 < 4 ? v[l + 1] : v[l];
            want[6] = v[l ^ 9];
            want[7] = v[seg16 + ((l ^ 3) & 15)];
            want[8] = (int)ballot;
            want[9] = any | all0 << 1 | all10 << 2;
            want[10] = v[l] & 2 ? (int)branch : 0;
            want[11] = (int)match;
            want[12] = -1 + 1;
            want[13] = sum ^ mn << 3;
            want[14] = (int)mx + (bor ^ band ^ bxor);
            want[15] = l;
            for (int k = 0; k < OUT; k++) {
                int g = got[(32 * w + l) * OUT + k];
                checksum = (checksum ^ (unsigned)g) * 1099511628211ull;
                if (g != want[k] && bad++ < 8) printf("warp %d lane %d item %d: got %d want %d\n", w, l, k, g, want[k]);
            }
        }
    }
    for (int k = 0; k < OUT; k++) printf("lane 5 item %d: %d\n", k, got[5 * OUT + k]);
    printf("checksum: %llu\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
