// 3D pitched memory as volume codes use it: cudaMalloc3D, cudaMemset3D, cudaMemcpy3D host->device,
// a sub-box device->device copy with source and destination positions, device->host; a kernel
// that walks the pitched volume.
#include <cstdio>
#include <cstdlib>
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

const int W = 10, H = 4, D = 3;

__global__ void addOne(cudaPitchedPtr p, int w, int h)
{
    int x = threadIdx.x, y = blockIdx.x % h, z = blockIdx.x / h;
    char *slice = (char *)p.ptr + z * p.pitch * h;
    float *row = (float *)(slice + y * p.pitch);
    if (x < w)
        row[x] += 1.0f;
}

int main()
{
    static float host[D][H][W], back[D][H][W], box[2][2][3];
    for (int z = 0; z < D; ++z)
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x)
                host[z][y][x] = z * 100 + y * 10 + x;
    cudaExtent extent = make_cudaExtent(W * sizeof(float), H, D);
    cudaPitchedPtr vol, sub;
    CUDA_CHECK(cudaMalloc3D(&vol, extent));
    CUDA_CHECK(cudaMalloc3D(&sub, make_cudaExtent(3 * sizeof(float), 2, 2)));
    if (vol.pitch < W * sizeof(float) || vol.xsize != W * sizeof(float) || vol.ysize != H) {
        printf("bad pitched pointer\nFAIL\n");
        return 1;
    }
    CUDA_CHECK(cudaMemset3D(vol, 0xff, extent));

    cudaMemcpy3DParms up = {};
    up.srcPtr = make_cudaPitchedPtr(host, W * sizeof(float), W, H);
    up.dstPtr = vol;
    up.extent = extent;
    up.kind = cudaMemcpyHostToDevice;
    CUDA_CHECK(cudaMemcpy3D(&up));
    addOne<<<H * D, 32>>>(vol, W, H);
    CUDA_CHECK(cudaGetLastError());

    // The box x in [4, 7), y in [1, 3), z in [1, 3) of the volume.
    cudaMemcpy3DParms cut = {};
    cut.srcPtr = vol;
    cut.srcPos = make_cudaPos(4 * sizeof(float), 1, 1);
    cut.dstPtr = sub;
    cut.extent = make_cudaExtent(3 * sizeof(float), 2, 2);
    cut.kind = cudaMemcpyDeviceToDevice;
    CUDA_CHECK(cudaMemcpy3D(&cut));

    cudaMemcpy3DParms down = {};
    down.srcPtr = vol;
    down.dstPtr = make_cudaPitchedPtr(back, W * sizeof(float), W, H);
    down.extent = extent;
    down.kind = cudaMemcpyDeviceToHost;
    CUDA_CHECK(cudaMemcpy3D(&down));
    cudaMemcpy3DParms boxDown = {};
    boxDown.srcPtr = sub;
    boxDown.dstPtr = make_cudaPitchedPtr(box, 3 * sizeof(float), 3, 2);
    boxDown.extent = make_cudaExtent(3 * sizeof(float), 2, 2);
    boxDown.kind = cudaMemcpyDeviceToHost;
    CUDA_CHECK(cudaMemcpy3D(&boxDown));

    int bad = 0;
    double checksum = 0;
    for (int z = 0; z < D; ++z)
        for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x) {
                if (back[z][y][x] != host[z][y][x] + 1)
                    bad++;
                checksum += back[z][y][x];
            }
    for (int z = 0; z < 2; ++z)
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 3; ++x)
                if (box[z][y][x] != host[z + 1][y + 1][x + 4] + 1)
                    bad++;
    CUDA_CHECK(cudaFree(vol.ptr));
    CUDA_CHECK(cudaFree(sub.ptr));
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
