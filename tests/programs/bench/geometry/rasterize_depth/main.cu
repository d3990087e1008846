// Triangle rasterisation with a depth buffer: one block per triangle walks its bounding box,
// edge functions decide coverage, the depth test uses atomicMin on a packed (depth, id) word.
#include <cstdio>
#include <cstdlib>

#define W 64
#define H 64

struct Tri2 {
    int x0, y0, x1, y1, x2, y2;
    unsigned depth;
};

__device__ __host__ int edge(int ax, int ay, int bx, int by, int px, int py)
{
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

__device__ __host__ bool covers(Tri2 t, int px, int py)
{
    int w0 = edge(t.x1, t.y1, t.x2, t.y2, px, py), w1 = edge(t.x2, t.y2, t.x0, t.y0, px, py),
        w2 = edge(t.x0, t.y0, t.x1, t.y1, px, py);
    return (w0 >= 0 && w1 >= 0 && w2 >= 0) || (w0 <= 0 && w1 <= 0 && w2 <= 0);
}

__device__ __host__ int imin3(int a, int b, int c) { return min(a, min(b, c)); }
__device__ __host__ int imax3(int a, int b, int c) { return max(a, max(b, c)); }

__global__ void raster(const Tri2 *tris, unsigned *zbuf)
{
    Tri2 t = tris[blockIdx.x];
    int x0 = max(imin3(t.x0, t.x1, t.x2), 0), x1 = min(imax3(t.x0, t.x1, t.x2), W - 1);
    int y0 = max(imin3(t.y0, t.y1, t.y2), 0), y1 = min(imax3(t.y0, t.y1, t.y2), H - 1);
    int bw = x1 - x0 + 1, count = bw * (y1 - y0 + 1);
    for (int k = threadIdx.x; k < count; k += blockDim.x) {
        int px = x0 + k % bw, py = y0 + k / bw;
        if (covers(t, px, py))
            atomicMin(&zbuf[py * W + px], t.depth << 8 | blockIdx.x);
    }
}

int main()
{
    const int nt = 12;
    Tri2 tris[nt];
    for (int i = 0; i < nt; i++) {
        int cx = (i * 23) % 56 + 4, cy = (i * 37) % 56 + 4, r = 6 + i % 9;
        tris[i] = Tri2{cx - r, cy - r / 2, cx + r, cy - r, cx, cy + r, (unsigned)((i * 7919) % 1000)};
    }
    Tri2 *dt;
    unsigned *dz, *z = (unsigned *)malloc(W * H * 4), *want = (unsigned *)malloc(W * H * 4);
    cudaMalloc(&dt, sizeof tris);
    cudaMalloc(&dz, W * H * 4);
    cudaMemset(dz, 0xff, W * H * 4);
    cudaMemcpy(dt, tris, sizeof tris, cudaMemcpyHostToDevice);
    raster<<<nt, 128>>>(dt, dz);
    cudaError_t e = cudaMemcpy(z, dz, W * H * 4, cudaMemcpyDeviceToHost);
    for (int p = 0; p < W * H; p++)
        want[p] = 0xffffffffu;
    for (int i = 0; i < nt; i++)
        for (int py = 0; py < H; py++)
            for (int px = 0; px < W; px++)
                if (covers(tris[i], px, py)) {
                    unsigned v = tris[i].depth << 8 | i;
                    if (v < want[py * W + px])
                        want[py * W + px] = v;
                }
    bool ok = e == cudaSuccess;
    unsigned cs = 0;
    for (int p = 0; p < W * H; p++) {
        ok = ok && z[p] == want[p];
        cs = cs * 31u + (z[p] & 0xff);
    }
    printf("checksum: %u\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
