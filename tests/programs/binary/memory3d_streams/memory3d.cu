// 3D pitched memory on a stream: cudaMemset3DAsync of a sub-box, cudaMemcpy3DAsync host->device
// into a box at a destination position, a device->device copy between positions, the volume back
// with cudaMemcpy3DAsync, and a kernel in between on the same stream; the parameters structure is
// reused (changed) right after each asynchronous call, as programs do.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        cudaError_t err__ = (call);                                                         \
        if (err__ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err__)); \
            printf("FAIL\n");                                                               \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

const int W = 16, H = 6, D = 5;            // the volume, in ints
const int BW = 5, BH = 3, BD = 2;          // the box written into it
const int BX = 7, BY = 2, BZ = 1;          // where the box goes

__global__ void scale(cudaPitchedPtr p, int w, int h, int d, int factor)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
    if (x >= w || y >= h || z >= d)
        return;
    int *row = (int *)((char *)p.ptr + (z * h + y) * p.pitch);
    row[x] = row[x] * factor + z;
}

int main()
{
    static int box[BD][BH][BW], back[D][H][W], expect[D][H][W], moved[BD][BH][BW];
    for (int z = 0; z < BD; ++z)
        for (int y = 0; y < BH; ++y)
            for (int x = 0; x < BW; ++x)
                box[z][y][x] = 1000 * z + 100 * y + x;
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    cudaPitchedPtr vol, other;
    CUDA_CHECK(cudaMalloc3D(&vol, make_cudaExtent(W * sizeof(int), H, D)));
    CUDA_CHECK(cudaMalloc3D(&other, make_cudaExtent(BW * sizeof(int), BH, BD)));
    // Every byte 0x01, then the first slice's first two rows 0x00 (int 0x01010101 elsewhere).
    CUDA_CHECK(cudaMemset3DAsync(vol, 0x01, make_cudaExtent(W * sizeof(int), H, D), stream));
    CUDA_CHECK(cudaMemset3DAsync(vol, 0x00, make_cudaExtent(W * sizeof(int), 2, 1), stream));

    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(box, BW * sizeof(int), BW, BH);
    p.dstPtr = vol;
    p.dstPos = make_cudaPos(BX * sizeof(int), BY, BZ);
    p.extent = make_cudaExtent(BW * sizeof(int), BH, BD);
    p.kind = cudaMemcpyHostToDevice;
    CUDA_CHECK(cudaMemcpy3DAsync(&p, stream));
    memset(&p, 0xee, sizeof p);  // the call kept its own copy

    dim3 grid((W + 7) / 8, H, D);
    scale<<<grid, 8, 0, stream>>>(vol, W, H, D, 3);
    CUDA_CHECK(cudaGetLastError());

    memset(&p, 0, sizeof p);
    p.srcPtr = vol;
    p.srcPos = make_cudaPos(BX * sizeof(int), BY, BZ);
    p.dstPtr = other;
    p.extent = make_cudaExtent(BW * sizeof(int), BH, BD);
    p.kind = cudaMemcpyDeviceToDevice;
    CUDA_CHECK(cudaMemcpy3DAsync(&p, stream));

    memset(&p, 0, sizeof p);
    p.srcPtr = vol;
    p.dstPtr = make_cudaPitchedPtr(back, W * sizeof(int), W, H);
    p.extent = make_cudaExtent(W * sizeof(int), H, D);
    p.kind = cudaMemcpyDeviceToHost;
    CUDA_CHECK(cudaMemcpy3DAsync(&p, stream));
    memset(&p, 0, sizeof p);
    p.srcPtr = other;
    p.dstPtr = make_cudaPitchedPtr(moved, BW * sizeof(int), BW, BH);
    p.extent = make_cudaExtent(BW * sizeof(int), BH, BD);
    p.kind = cudaMemcpyDeviceToHost;
    CUDA_CHECK(cudaMemcpy3D(&p));  // the legacy stream waits for `stream`'s work
    CUDA_CHECK(cudaStreamSynchronize(stream));

    for (int z = 0; z < D; ++z)
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x) {
                int v = (z == 0 && y < 2) ? 0 : 0x01010101;
                if (z >= BZ && z < BZ + BD && y >= BY && y < BY + BH && x >= BX && x < BX + BW)
                    v = box[z - BZ][y - BY][x - BX];
                expect[z][y][x] = v * 3 + z;
            }
    int bad = 0;
    long long checksum = 0;
    for (int z = 0; z < D; ++z)
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x) {
                bad += back[z][y][x] != expect[z][y][x];
                checksum += (long long)back[z][y][x] * (1 + (x + y + z) % 7);
            }
    for (int z = 0; z < BD; ++z)
        for (int y = 0; y < BH; ++y)
            for (int x = 0; x < BW; ++x)
                bad += moved[z][y][x] != expect[z + BZ][y + BY][x + BX];
    CUDA_CHECK(cudaFree(vol.ptr));
    CUDA_CHECK(cudaFree(other.ptr));
    CUDA_CHECK(cudaStreamDestroy(stream));
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
