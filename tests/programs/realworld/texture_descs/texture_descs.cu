// Texture and surface objects read back: cudaGetTextureObjectResourceDesc and
// cudaGetTextureObjectTextureDesc for an array texture and a pitched 2D one,
// cudaGetSurfaceObjectResourceDesc for a surface, each compared with what the object was made
// from; the textures are sampled (point filtering, clamped) to show they are the ones described.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        cudaError_t err__ = (call);                                                         \
        if (err__ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,            \
                    cudaGetErrorString(err__));                                             \
            printf("FAIL\n");                                                               \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

const int W = 8, H = 4;

__global__ void sample(cudaTextureObject_t t, float *out)
{
    int x = threadIdx.x, y = threadIdx.y; // two texels past each edge: clamped
    out[y * (W + 4) + x] = tex2D<float>(t, x - 2 + 0.5f, y - 2 + 0.5f);
}

static int check(cudaTextureObject_t t, float *dOut, const float *img)
{
    float out[(H + 4) * (W + 4)];
    sample<<<1, dim3(W + 4, H + 4)>>>(t, dOut);
    CUDA_CHECK(cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int y = 0; y < H + 4; ++y)
        for (int x = 0; x < W + 4; ++x) {
            int cx = x - 2 < 0 ? 0 : x - 2 >= W ? W - 1 : x - 2, cy = y - 2 < 0 ? 0 : y - 2 >= H ? H - 1 : y - 2;
            bad += out[y * (W + 4) + x] != img[cy * W + cx];
        }
    return bad;
}

// The border colour counts only where an address mode uses it: with clamped addressing the H200's
// runtime (driver 580) hands back a value other than the one given.
static bool sameTextureDesc(const cudaTextureDesc &a, const cudaTextureDesc &b)
{
    bool border = b.addressMode[0] == cudaAddressModeBorder || b.addressMode[1] == cudaAddressModeBorder;
    return a.addressMode[0] == b.addressMode[0] && a.addressMode[1] == b.addressMode[1] &&
           a.filterMode == b.filterMode && a.readMode == b.readMode && a.normalizedCoords == b.normalizedCoords &&
           (!border || memcmp(a.borderColor, b.borderColor, sizeof a.borderColor) == 0);
}

int main()
{
    int bad = 0;
    float img[W * H];
    for (int i = 0; i < W * H; ++i)
        img[i] = i * 0.25f - 3.0f;
    float *dOut;
    CUDA_CHECK(cudaMalloc(&dOut, (W + 4) * (H + 4) * sizeof(float)));

    cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
    cudaArray_t array;
    CUDA_CHECK(cudaMallocArray(&array, &fmt, W, H, cudaArraySurfaceLoadStore));
    CUDA_CHECK(cudaMemcpy2DToArray(array, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    float *pitched;
    size_t pitch;
    CUDA_CHECK(cudaMallocPitch(&pitched, &pitch, W * sizeof(float), H));
    CUDA_CHECK(cudaMemcpy2D(pitched, pitch, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));

    cudaTextureDesc td = {};
    td.addressMode[0] = cudaAddressModeClamp;
    td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.borderColor[0] = 0.5f;
    td.normalizedCoords = 0;

    cudaResourceDesc ra = {};
    ra.resType = cudaResourceTypeArray;
    ra.res.array.array = array;
    cudaResourceDesc rp = {};
    rp.resType = cudaResourceTypePitch2D;
    rp.res.pitch2D.devPtr = pitched;
    rp.res.pitch2D.desc = fmt;
    rp.res.pitch2D.width = W;
    rp.res.pitch2D.height = H;
    rp.res.pitch2D.pitchInBytes = pitch;
    cudaTextureObject_t ta, tp;
    CUDA_CHECK(cudaCreateTextureObject(&ta, &ra, &td, nullptr));
    CUDA_CHECK(cudaCreateTextureObject(&tp, &rp, &td, nullptr));
    cudaSurfaceObject_t surface;
    CUDA_CHECK(cudaCreateSurfaceObject(&surface, &ra));

    cudaResourceDesc backA, backP, backS;
    cudaTextureDesc backTd;
    CUDA_CHECK(cudaGetTextureObjectResourceDesc(&backA, ta));
    CUDA_CHECK(cudaGetTextureObjectResourceDesc(&backP, tp));
    CUDA_CHECK(cudaGetSurfaceObjectResourceDesc(&backS, surface));
    CUDA_CHECK(cudaGetTextureObjectTextureDesc(&backTd, tp));
    bool arrayOk = backA.resType == cudaResourceTypeArray && backA.res.array.array == array;
    bool pitchOk = backP.resType == cudaResourceTypePitch2D && backP.res.pitch2D.devPtr == pitched &&
                   backP.res.pitch2D.width == W && backP.res.pitch2D.height == H &&
                   backP.res.pitch2D.pitchInBytes == pitch && backP.res.pitch2D.desc.x == 32 &&
                   backP.res.pitch2D.desc.f == cudaChannelFormatKindFloat;
    bool surfaceOk = backS.resType == cudaResourceTypeArray && backS.res.array.array == array;
    cudaTextureDesc bd = td, backBd;    // border addressing: the colour comes back as given
    bd.addressMode[0] = bd.addressMode[1] = cudaAddressModeBorder;
    bd.borderColor[1] = 0.25f;
    bd.borderColor[3] = 1.0f;
    cudaTextureObject_t tb;
    CUDA_CHECK(cudaCreateTextureObject(&tb, &ra, &bd, nullptr));
    CUDA_CHECK(cudaGetTextureObjectTextureDesc(&backBd, tb));
    CUDA_CHECK(cudaDestroyTextureObject(tb));
    bool texOk = sameTextureDesc(backTd, td) && sameTextureDesc(backBd, bd);
    printf("array resource %s, pitched resource %s, surface resource %s, texture description %s\n",
           arrayOk ? "same" : "differs", pitchOk ? "same" : "differs", surfaceOk ? "same" : "differs",
           texOk ? "same" : "differs");
    bad += !arrayOk + !pitchOk + !surfaceOk + !texOk;

    int wrong = check(ta, dOut, img) + check(tp, dOut, img);
    printf("samples: %s\n", wrong ? "wrong" : "ok");
    bad += wrong;

    CUDA_CHECK(cudaDestroyTextureObject(ta));
    CUDA_CHECK(cudaDestroyTextureObject(tp));
    CUDA_CHECK(cudaDestroySurfaceObject(surface));
    CUDA_CHECK(cudaFreeArray(array));
    CUDA_CHECK(cudaFree(pitched));
    CUDA_CHECK(cudaFree(dOut));
    long long checksum = 0;
    for (int i = 0; i < W * H; ++i)
        checksum = (checksum * 7 + (long long)(img[i] * 4)) % 1000000007LL;
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
