// The CUDA twin of main.hip: run on NVIDIA hardware, its output is the reference the
// emulated AMD run must match.
// 2D and 3D grids and blocks: every thread writes its linear id computed from all of
// threadIdx/blockIdx/blockDim/gridDim in x, y and z.
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void ids(int* out, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz)
        out[(z * ny + y) * nx + x] = x + 100 * y + 10000 * z + gridDim.x * 1000000;
}

static int check(const int* got, int nx, int ny, int nz, int gx) {
    int bad = 0;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++)
                bad += got[(z * ny + y) * nx + x] != x + 100 * y + 10000 * z + gx * 1000000;
    return bad;
}

int main() {
    const int nx = 10, ny = 6, nz = 5, total = nx * ny * nz;
    int* out;
    static int got[total];
    CHECK(cudaMalloc(&out, total * sizeof(int)));
    dim3 block3(4, 3, 2), grid3((nx + 3) / 4, (ny + 2) / 3, (nz + 1) / 2);
    ids<<<grid3, block3>>>(out, nx, ny, nz);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    int bad = check(got, nx, ny, nz, grid3.x);
    long sum = 0;
    for (int i = 0; i < total; i++) sum += got[i] % 1000000;
    dim3 block2(8, 4), grid2((nx + 7) / 8, (ny + 3) / 4);
    ids<<<grid2, block2>>>(out, nx, ny, 1);
    CHECK(cudaMemcpy(got, out, nx * ny * sizeof(int), cudaMemcpyDeviceToHost));
    bad += check(got, nx, ny, 1, grid2.x);
    printf("checksum: %ld\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
