// libcurand.so.10 for AMD GPUs: cuRAND's host API (curand.h), built by cass-nvcc's binary route
// like any program's kernels. The generators produce NVIDIA's sequences by calling the device
// API of curand_kernel.h (the same algorithms, seeding and skip-ahead), in the order NVIDIA's
// host library hands the values out (measured on an H200):
//   XORWOW: value g is position g / 4096 of subsequence g % 4096 (seed as curand_init's; normals
//   in pairs, see xorwow_kernel);
//   PHILOX4_32_10: value g is element g % 4 of the first curand4() of subsequence g / 4.
// A generator's offset shifts g. Functions of curand.h that are not defined here are made at build
// time from the header (build.py): they print their name once and fail.
#include <curand.h>
#include <curand_kernel.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

// NVIDIA's XORWOW host generator runs this many subsequences side by side.
#define XORWOW_STREAMS 4096ull

struct curandGenerator_st {
    curandRngType_t type;
    bool host;                  // curandCreateGeneratorHost: outputs are host memory
    unsigned long long seed;
    unsigned long long offset;
    cudaStream_t stream;
};

// What one generate call makes of the raw sequence; the Box-Muller pairs of the normal kinds
// (curand_normal's cached second value) are why position and pairing matter.
enum Kind { BITS, UNIFORM, UNIFORM_DOUBLE, NORMAL, NORMAL_DOUBLE };

template <typename T> struct Shape { T mean, stddev; bool log; };

__device__ static float shaped(float z, Shape<float> s)
{
    float v = s.mean + s.stddev * z;
    return s.log ? expf(v) : v;
}

__device__ static double shaped(double z, Shape<double> s)
{
    double v = s.mean + s.stddev * z;
    return s.log ? exp(v) : v;
}

// Raw bits are never shaped; the kernels' templates only name this.
__device__ static unsigned int shaped(unsigned int z, Shape<unsigned int>)
{
    return z;
}

// XORWOW hands out units: single values, or the Box-Muller pairs of the normal kinds. Unit u comes
// from subsequence u % 4096 at unit position u / 4096 (a pair's two values are adjacent in the
// output), as NVIDIA's library does: a published run of curandGenerateNormalDouble (seed 1234)
// has value 2t and 2t+1 from subsequence t. A unit consumes this many 32-bit draws.
__host__ __device__ static unsigned draws_per_unit(Kind kind)
{
    return kind == NORMAL_DOUBLE ? 4 : (kind == UNIFORM_DOUBLE || kind == NORMAL) ? 2 : 1;
}

template <typename T, Kind kind>
__global__ void xorwow_kernel(T *out, unsigned long long n, unsigned long long seed,
                              unsigned long long offset, Shape<T> shape)
{
    unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    const unsigned per_unit = (kind == NORMAL || kind == NORMAL_DOUBLE) ? 2 : 1;
    unsigned long long begin = offset / per_unit, end = (offset + n + per_unit - 1) / per_unit;
    // The first unit at or after `begin` that subsequence t serves.
    unsigned long long first = begin + ((t + XORWOW_STREAMS - begin % XORWOW_STREAMS) % XORWOW_STREAMS);
    if (t >= XORWOW_STREAMS || first >= end)
        return;
    curandStateXORWOW_t state;
    curand_init(seed, t, 0, &state);
    skipahead(first / XORWOW_STREAMS * draws_per_unit(kind), &state);
    for (unsigned long long u = first; u < end; u += XORWOW_STREAMS) {
        T v[2];
        if (kind == BITS) v[0] = (T)curand(&state);
        else if (kind == UNIFORM) v[0] = (T)curand_uniform(&state);
        else if (kind == UNIFORM_DOUBLE) v[0] = (T)curand_uniform_double(&state);
        else if (kind == NORMAL) { float2 r = curand_normal2(&state); v[0] = (T)r.x; v[1] = (T)r.y; }
        else { double2 r = curand_normal2_double(&state); v[0] = (T)r.x; v[1] = (T)r.y; }
        for (unsigned i = 0; i < per_unit; i++) {
            unsigned long long g = u * per_unit + i;
            if (g >= offset && g < offset + n)
                out[g - offset] = per_unit == 2 ? shaped(v[i], shape) : v[i];
        }
    }
}

// One thread per block of values that one Philox call makes (4 floats or bits, 2 doubles).
template <typename T, Kind kind>
__global__ void philox_kernel(T *out, unsigned long long n, unsigned long long seed,
                              unsigned long long offset, Shape<T> shape)
{
    unsigned per_call = (kind == UNIFORM_DOUBLE || kind == NORMAL_DOUBLE) ? 2 : 4;
    unsigned long long block = offset / per_call + blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    curandStatePhilox4_32_10_t state;
    curand_init(seed, block, 0, &state);
    T v[4];
    if (kind == BITS) { uint4 r = curand4(&state); v[0] = r.x; v[1] = r.y; v[2] = r.z; v[3] = r.w; }
    else if (kind == UNIFORM) { float4 r = curand_uniform4(&state); v[0] = r.x; v[1] = r.y; v[2] = r.z; v[3] = r.w; }
    else if (kind == NORMAL) { float4 r = curand_normal4(&state); v[0] = r.x; v[1] = r.y; v[2] = r.z; v[3] = r.w; }
    else if (kind == UNIFORM_DOUBLE) { double2 r = curand_uniform2_double(&state); v[0] = (T)r.x; v[1] = (T)r.y; }
    else { double2 r = curand_normal2_double(&state); v[0] = (T)r.x; v[1] = (T)r.y; }
    for (unsigned i = 0; i < per_call; i++) {
        unsigned long long g = block * per_call + i;
        if (g >= offset && g < offset + n)
            out[g - offset] = (kind == NORMAL || kind == NORMAL_DOUBLE) ? shaped(v[i], shape) : v[i];
    }
}

static curandStatus_t launch_status(void)
{
    return cudaGetLastError() == cudaSuccess ? CURAND_STATUS_SUCCESS : CURAND_STATUS_LAUNCH_FAILURE;
}

template <typename T, Kind kind>
static curandStatus_t generate(curandGenerator_t g, T *out, size_t n, Shape<T> shape)
{
    if (!g)
        return CURAND_STATUS_NOT_INITIALIZED;
    if (n == 0)
        return CURAND_STATUS_SUCCESS;
    T *target = out;
    if (g->host && cudaMalloc((void **)&target, n * sizeof(T)) != cudaSuccess)
        return CURAND_STATUS_ALLOCATION_FAILED;
    const unsigned threads = 256;
    if (g->type == CURAND_RNG_PSEUDO_PHILOX4_32_10) {
        unsigned per_call = (kind == UNIFORM_DOUBLE || kind == NORMAL_DOUBLE) ? 2 : 4;
        unsigned long long blocks = (g->offset + n + per_call - 1) / per_call - g->offset / per_call;
        philox_kernel<T, kind><<<(unsigned)((blocks + threads - 1) / threads), threads, 0, g->stream>>>(
            target, n, g->seed, g->offset, shape);
    } else {
        xorwow_kernel<T, kind><<<(unsigned)(XORWOW_STREAMS / threads), threads, 0, g->stream>>>(
            target, n, g->seed, g->offset, shape);
    }
    curandStatus_t status = launch_status();
    if (g->host) {
        if (status == CURAND_STATUS_SUCCESS &&
            cudaMemcpyAsync(out, target, n * sizeof(T), cudaMemcpyDeviceToHost, g->stream) != cudaSuccess)
            status = CURAND_STATUS_LAUNCH_FAILURE;
        if (status == CURAND_STATUS_SUCCESS && cudaStreamSynchronize(g->stream) != cudaSuccess)
            status = CURAND_STATUS_LAUNCH_FAILURE;
        cudaFree(target);
    }
    return status;
}

static curandStatus_t create(curandGenerator_t *generator, curandRngType_t rng_type, bool host)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    if (rng_type == CURAND_RNG_PSEUDO_DEFAULT)
        rng_type = CURAND_RNG_PSEUDO_XORWOW;
    if (rng_type != CURAND_RNG_PSEUDO_XORWOW && rng_type != CURAND_RNG_PSEUDO_PHILOX4_32_10) {
        fprintf(stderr, "cass-cc: libcurand: generator type %d is not supported "
                "(XORWOW and PHILOX4_32_10 are)\n", (int)rng_type);
        return CURAND_STATUS_TYPE_ERROR;
    }
    curandGenerator_t g = (curandGenerator_t)calloc(1, sizeof(*g));
    if (!g)
        return CURAND_STATUS_ALLOCATION_FAILED;
    g->type = rng_type;
    g->host = host;
    g->seed = 0;     // NVIDIA's default seed
    *generator = g;
    return CURAND_STATUS_SUCCESS;
}

extern "C" {

curandStatus_t CURANDAPI curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type)
{
    return create(generator, rng_type, false);
}

curandStatus_t CURANDAPI curandCreateGeneratorHost(curandGenerator_t *generator, curandRngType_t rng_type)
{
    return create(generator, rng_type, true);
}

curandStatus_t CURANDAPI curandDestroyGenerator(curandGenerator_t generator)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    free(generator);
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandGetVersion(int *version)
{
    if (!version)
        return CURAND_STATUS_OUT_OF_RANGE;
    *version = CURAND_VERSION;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandGetProperty(libraryPropertyType type, int *value)
{
    if (!value)
        return CURAND_STATUS_OUT_OF_RANGE;
    switch (type) {
    case MAJOR_VERSION: *value = CURAND_VER_MAJOR; return CURAND_STATUS_SUCCESS;
    case MINOR_VERSION: *value = CURAND_VER_MINOR; return CURAND_STATUS_SUCCESS;
    case PATCH_LEVEL: *value = CURAND_VER_PATCH; return CURAND_STATUS_SUCCESS;
    default: return CURAND_STATUS_OUT_OF_RANGE;
    }
}

curandStatus_t CURANDAPI curandSetStream(curandGenerator_t generator, cudaStream_t stream)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    generator->stream = stream;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    generator->seed = seed;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    generator->offset = offset;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    if (order != CURAND_ORDERING_PSEUDO_DEFAULT) {
        fprintf(stderr, "cass-cc: libcurand: ordering %d is not supported (CURAND_ORDERING_PSEUDO_DEFAULT is)\n",
                (int)order);
        return CURAND_STATUS_OUT_OF_RANGE;
    }
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t CURANDAPI curandGenerateSeeds(curandGenerator_t generator)
{
    return generator ? CURAND_STATUS_SUCCESS : CURAND_STATUS_NOT_INITIALIZED;   // seeding is lazy
}

curandStatus_t CURANDAPI curandGenerate(curandGenerator_t generator, unsigned int *outputPtr, size_t num)
{
    return generate<unsigned int, BITS>(generator, outputPtr, num, Shape<unsigned int>());
}

curandStatus_t CURANDAPI curandGenerateUniform(curandGenerator_t generator, float *outputPtr, size_t num)
{
    return generate<float, UNIFORM>(generator, outputPtr, num, Shape<float>());
}

curandStatus_t CURANDAPI curandGenerateUniformDouble(curandGenerator_t generator, double *outputPtr, size_t num)
{
    return generate<double, UNIFORM_DOUBLE>(generator, outputPtr, num, Shape<double>());
}

// Normals come in Box-Muller pairs: cuRAND asks for an even count.
curandStatus_t CURANDAPI curandGenerateNormal(curandGenerator_t generator, float *outputPtr,
                                              size_t n, float mean, float stddev)
{
    if (n % 2)
        return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
    return generate<float, NORMAL>(generator, outputPtr, n, Shape<float>{mean, stddev, false});
}

curandStatus_t CURANDAPI curandGenerateNormalDouble(curandGenerator_t generator, double *outputPtr,
                                                    size_t n, double mean, double stddev)
{
    if (n % 2)
        return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
    return generate<double, NORMAL_DOUBLE>(generator, outputPtr, n, Shape<double>{mean, stddev, false});
}

curandStatus_t CURANDAPI curandGenerateLogNormal(curandGenerator_t generator, float *outputPtr,
                                                 size_t n, float mean, float stddev)
{
    if (n % 2)
        return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
    return generate<float, NORMAL>(generator, outputPtr, n, Shape<float>{mean, stddev, true});
}

curandStatus_t CURANDAPI curandGenerateLogNormalDouble(curandGenerator_t generator, double *outputPtr,
                                                       size_t n, double mean, double stddev)
{
    if (n % 2)
        return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
    return generate<double, NORMAL_DOUBLE>(generator, outputPtr, n, Shape<double>{mean, stddev, true});
}

}  // extern "C"
