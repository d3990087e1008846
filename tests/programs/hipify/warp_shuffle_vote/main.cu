// Warp shuffles (idx, up, down, xor; int, float, double), votes (ballot, any, all, activemask),
// match and reduce, checked lane by lane against a CPU model of a 32-lane warp.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int WARPS = 4, THREADS = 32 * WARPS;

struct Out {
    int sum_down, scan_up, max_xor, bcast;
    float fsum;
    double dbcast;
    unsigned ballot, active, match, rsum;
    int any, all, half_ballot;
};

__global__ void warp_ops(const int *in, Out *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
    int v = in[t];
    Out o;
    int s = v;
    for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffff, s, off);
    o.sum_down = __shfl_sync(0xffffffff, s, 0);
    int scan = v;
    for (int off = 1; off < 32; off *= 2) {
        int other = __shfl_up_sync(0xffffffff, scan, off);
        if (lane >= off) scan += other;
    }
    o.scan_up = scan;
    int m = v;
    for (int off = 16; off > 0; off /= 2) m = max(m, __shfl_xor_sync(0xffffffff, m, off));
    o.max_xor = m;
    o.bcast = __shfl_sync(0xffffffff, v, 7, 16);       // width 16: lane 7 of each half
    float f = (float)v * 0.5f;
    for (int off = 16; off > 0; off /= 2) f += __shfl_xor_sync(0xffffffff, f, off);
    o.fsum = f;
    o.dbcast = __shfl_sync(0xffffffff, (double)v * 0.25, 31);
    o.ballot = __ballot_sync(0xffffffff, v % 3 == 0);
    o.any = __any_sync(0xffffffff, v == 17);
    o.all = __all_sync(0xffffffff, v >= 0);
    o.active = __activemask();
    o.match = __match_any_sync(0xffffffff, v % 4);
    o.rsum = __reduce_add_sync(0xffffffff, (unsigned)v);
    o.half_ballot = 0;
    if (lane < 16) {
        o.half_ballot = (int)__ballot_sync(0x0000ffff, v & 1);
        __syncwarp(0x0000ffff);
    }
    __syncwarp();
    out[t] = o;
}

int main()
{
    int h_in[THREADS];
    for (int i = 0; i < THREADS; i++) h_in[i] = (i * 37 + 11) % 53;
    int *d_in;
    Out *d_out, h_out[THREADS];
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    warp_ops<<<2, THREADS / 2>>>(d_in, d_out);
    cudaError_t err = cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    int bad = err != cudaSuccess;
    unsigned long long checksum = 0;
    for (int w = 0; w < WARPS; w++) {
        const int *v = h_in + 32 * w;
        int sum = 0, mx = 0, any = 0, all = 1;
        unsigned ballot = 0, half = 0;
        float fsum = 0;
        for (int l = 0; l < 32; l++) {
            sum += v[l];
            mx = v[l] > mx ? v[l] : mx;
            fsum += v[l] * 0.5f;
            ballot |= (unsigned)(v[l] % 3 == 0) << l;
            any |= v[l] == 17;
            all &= v[l] >= 0;
            if (l < 16) half |= (unsigned)(v[l] & 1) << l;
        }
        int scan = 0;
        for (int l = 0; l < 32; l++) {
            const Out &o = h_out[32 * w + l];
            scan += v[l];
            unsigned match = 0;
            for (int k = 0; k < 32; k++) match |= (unsigned)(v[k] % 4 == v[l] % 4) << k;
            int bcast = v[(l / 16) * 16 + 7];
            bool ok = o.sum_down == sum && o.scan_up == scan && o.max_xor == mx && o.bcast == bcast
                      && o.fsum == fsum && o.dbcast == v[31] * 0.25 && o.ballot == ballot
                      && o.any == any && o.all == all && o.active == 0xffffffffu && o.match == match
                      && o.rsum == (unsigned)sum && o.half_ballot == (l < 16 ? (int)half : 0);
            if (!ok && bad < 5) printf("mismatch warp %d lane %d\n", w, l);
            bad += !ok;
            checksum += (unsigned)o.sum_down + o.scan_up + o.max_xor + o.bcast + o.ballot + o.match
                        + o.rsum + o.half_ballot;
        }
    }
    cudaFree(d_in);
    cudaFree(d_out);
    printf("checksum: %llu\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
