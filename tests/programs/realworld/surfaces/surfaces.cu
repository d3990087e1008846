// Surface objects on CUDA arrays: surf2Dread/surf2Dwrite (float, and uchar4 with a zero
// boundary), surf1Dwrite/surf1Dread of float2, and a 3D array filled by surf3Dwrite, then read
// by tex3D with point and linear filtering. A CPU model checks every value.
#include <cstdio>
#include <cmath>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s: %s\nFAIL\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

const int W = 32, H = 4;              // 2D surfaces
const int VX = 8, VY = 4, VZ = 4;     // the 3D volume
const int SAMPLES = 64;

__host__ __device__ float voxel(int x, int y, int z) { return (float)((x * 7 + y * 3 + z * 11) % 13) - 6.0f; }
__host__ __device__ float sample_x(int i) { return (i % 16) * 0.5f - 0.75f; }
__host__ __device__ float sample_y(int i) { return (i / 16) * 1.25f + 0.25f; }
__host__ __device__ float sample_z(int i) { return (i % 5) * 0.75f + 0.5f; }

__global__ void update(cudaSurfaceObject_t grid, cudaSurfaceObject_t colours, cudaSurfaceObject_t line)
{
    int x = threadIdx.x, y = blockIdx.x;
    float v = surf2Dread<float>(grid, x * 4, y);
    uchar4 beyond = surf2Dread<uchar4>(colours, x * 4, y + H, cudaBoundaryModeZero);
    uchar4 c = surf2Dread<uchar4>(colours, x * 4, y);
    surf2Dwrite(v * 2.0f + 1.0f + beyond.x, grid, x * 4, y);
    surf2Dwrite(make_uchar4(c.w, c.z, c.y, c.x), colours, x * 4, y);
    if (y == 0) surf1Dwrite(make_float2(x * 0.5f, -x), line, x * 8);
}

__global__ void read_line(cudaSurfaceObject_t line, float2 *out)
{
    int x = threadIdx.x;
    out[x] = surf1Dread<float2>(line, (W - 1 - x) * 8);
}

__global__ void fill(cudaSurfaceObject_t volume)
{
    int x = threadIdx.x % VX, y = threadIdx.x / VX, z = blockIdx.x;
    surf3Dwrite(voxel(x, y, z), volume, x * 4, y, z);
}

__global__ void sample(cudaTextureObject_t point, cudaTextureObject_t linear, float *out)
{
    int i = threadIdx.x;
    out[i] = tex3D<float>(point, sample_x(i), sample_y(i), sample_z(i));
    out[SAMPLES + i] = tex3D<float>(linear, sample_x(i), sample_y(i), sample_z(i));
}

static float fetch(int x, int y, int z)
{
    x = x < 0 ? 0 : x >= VX ? VX - 1 : x;
    y = y < 0 ? 0 : y >= VY ? VY - 1 : y;
    z = z < 0 ? 0 : z >= VZ ? VZ - 1 : z;
    return voxel(x, y, z);
}

static float linear_model(float x, float y, float z)
{
    float xb = x - 0.5f, yb = y - 0.5f, zb = z - 0.5f;
    int i = (int)floorf(xb), j = (int)floorf(yb), k = (int)floorf(zb);
    float a = xb - i, b = yb - j, c = zb - k, sum = 0.0f;
    for (int corner = 0; corner < 8; ++corner) {
        int dx = corner & 1, dy = corner >> 1 & 1, dz = corner >> 2 & 1;
        float w = (dx ? a : 1 - a) * (dy ? b : 1 - b) * (dz ? c : 1 - c);
        sum += w * fetch(i + dx, j + dy, k + dz);
    }
    return sum;
}

static cudaSurfaceObject_t surface(cudaArray_t a)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t s = 0;
    return cudaCreateSurfaceObject(&s, &rd) == cudaSuccess ? s : 0;
}

int main()
{
    float grid[H][W];
    unsigned char colours[H][W][4];
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            grid[y][x] = x * 0.25f - y;
            for (int c = 0; c < 4; ++c) colours[y][x][c] = (unsigned char)(x * 8 + y * 3 + c * 50);
        }
    cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>(), f2 = cudaCreateChannelDesc<float2>();
    cudaChannelFormatDesc u4 = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    cudaArray_t grid_array, colour_array, line_array, volume_array;
    CHECK(cudaMallocArray(&grid_array, &f1, W, H, cudaArraySurfaceLoadStore));
    CHECK(cudaMallocArray(&colour_array, &u4, W, H, cudaArraySurfaceLoadStore));
    CHECK(cudaMallocArray(&line_array, &f2, W, 0, cudaArraySurfaceLoadStore));
    CHECK(cudaMalloc3DArray(&volume_array, &f1, make_cudaExtent(VX, VY, VZ), cudaArraySurfaceLoadStore));
    CHECK(cudaMemcpy2DToArray(grid_array, 0, 0, grid, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DToArray(colour_array, 0, 0, colours, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    cudaSurfaceObject_t sg = surface(grid_array), sc = surface(colour_array), sl = surface(line_array);
    cudaSurfaceObject_t sv = surface(volume_array);
    if (!sg || !sc || !sl || !sv) { printf("cudaCreateSurfaceObject failed\nFAIL\n"); return 1; }

    float2 *line_out; float *samples;
    CHECK(cudaMalloc(&line_out, W * sizeof(float2)));
    CHECK(cudaMalloc(&samples, 2 * SAMPLES * sizeof(float)));
    update<<<H, W>>>(sg, sc, sl);
    CHECK(cudaGetLastError());
    read_line<<<1, W>>>(sl, line_out);
    fill<<<VZ, VX * VY>>>(sv);
    CHECK(cudaGetLastError());

    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = volume_array;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t point = 0, linear = 0;
    td.filterMode = cudaFilterModePoint;
    CHECK(cudaCreateTextureObject(&point, &rd, &td, nullptr));
    td.filterMode = cudaFilterModeLinear;
    CHECK(cudaCreateTextureObject(&linear, &rd, &td, nullptr));
    sample<<<1, SAMPLES>>>(point, linear, samples);
    CHECK(cudaGetLastError());

    float grid_out[H][W], sampled[2 * SAMPLES];
    unsigned char colours_out[H][W][4];
    float2 line[W];
    CHECK(cudaMemcpy2DFromArray(grid_out, W * 4, grid_array, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy2DFromArray(colours_out, W * 4, colour_array, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(line, line_out, sizeof line, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(sampled, samples, sizeof sampled, cudaMemcpyDeviceToHost));

    int bad = 0;
    long long checksum = 0;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            if (grid_out[y][x] != grid[y][x] * 2.0f + 1.0f) { if (bad++ < 5) printf("grid (%d, %d)\n", x, y); }
            for (int c = 0; c < 4; ++c)
                if (colours_out[y][x][c] != colours[y][x][3 - c]) { if (bad++ < 5) printf("colour (%d, %d)\n", x, y); }
            checksum += lroundf(grid_out[y][x] * 4) + colours_out[y][x][0] * (x + 1);
        }
    for (int x = 0; x < W; ++x) {
        int from = W - 1 - x;
        if (line[x].x != from * 0.5f || line[x].y != -from) { if (bad++ < 5) printf("line %d\n", x); }
        checksum += lroundf(line[x].x * 2) - lroundf(line[x].y);
    }
    for (int i = 0; i < SAMPLES; ++i) {
        float want_point = fetch((int)floorf(sample_x(i)), (int)floorf(sample_y(i)), (int)floorf(sample_z(i)));
        float want_linear = linear_model(sample_x(i), sample_y(i), sample_z(i));
        if (sampled[i] != want_point) { if (bad++ < 5) printf("point sample %d: %g, want %g\n", i, sampled[i], want_point); }
        if (fabsf(sampled[SAMPLES + i] - want_linear) > 1e-5f) {
            if (bad++ < 5) printf("linear sample %d: %g, want %g\n", i, sampled[SAMPLES + i], want_linear);
        }
        checksum += lroundf(sampled[i]) + lroundf(sampled[SAMPLES + i] * 64);
    }
    cudaDestroySurfaceObject(sg); cudaDestroySurfaceObject(sc); cudaDestroySurfaceObject(sl);
    cudaDestroySurfaceObject(sv); cudaDestroyTextureObject(point); cudaDestroyTextureObject(linear);
    cudaFreeArray(grid_array); cudaFreeArray(colour_array); cudaFreeArray(line_array); cudaFreeArray(volume_array);
    cudaFree(line_out); cudaFree(samples);
    printf("checksum: %lld\n%s\n", checksum, bad ? "FAIL" : "PASS");
    return bad != 0;
}
