// Runtime API without kernels running: device queries, errors and the last error, memory of
// every kind (device, pinned, registered, managed, pitched), fills, 2D and device copies,
// pointer attributes, and kernel attributes and occupancy.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstring>
#include <cstdlib>

#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
    printf("%s failed: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)
#define EXPECT(c) do { if (!(c)) { printf("line %d: %s\n", __LINE__, #c); bad++; } } while (0)

__global__ void busy(float* v) {
    __shared__ float tile[256];
    tile[threadIdx.x] = v[threadIdx.x];
    __syncthreads();
    v[threadIdx.x] = tile[255 - threadIdx.x];
}

int main() {
    int bad = 0, count = 0, device = -1, version = 0, value = 0;
    CHECK(hipGetDeviceCount(&count));
    CHECK(hipSetDevice(0));
    CHECK(hipGetDevice(&device));
    EXPECT(count == 1 && device == 0);
    EXPECT(hipSetDevice(1) == hipErrorInvalidDevice);
    EXPECT(hipGetLastError() == hipErrorInvalidDevice);
    EXPECT(hipGetLastError() == hipSuccess);
    hipDeviceProp_t p;
    CHECK(hipGetDeviceProperties(&p, 0));
    EXPECT(strcmp(p.gcnArchName, "gfx1100") == 0 && p.warpSize == 32 && p.maxThreadsPerBlock == 1024);
    EXPECT(p.sharedMemPerBlock == 65536 && p.multiProcessorCount > 0 && p.totalGlobalMem > (1ull << 30));
    EXPECT(p.major == 11 && p.arch.hasDoubles && p.arch.hasWarpShuffle && p.gcnArch == 1100);
    CHECK(hipDeviceGetAttribute(&value, hipDeviceAttributeWarpSize, 0));
    EXPECT(value == 32);
    CHECK(hipDeviceGetAttribute(&value, hipDeviceAttributeMaxSharedMemoryPerBlock, 0));
    EXPECT(value == 65536);
    CHECK(hipDeviceGetAttribute(&value, hipDeviceAttributeMultiprocessorCount, 0));
    EXPECT(value == p.multiProcessorCount);
    CHECK(hipDeviceGetAttribute(&value, hipDeviceAttributeComputeCapabilityMajor, 0));
    EXPECT(value == 11);
    CHECK(hipRuntimeGetVersion(&version));
    EXPECT(version == HIP_VERSION);
    CHECK(hipDriverGetVersion(&version));
    EXPECT(version > 0);
    EXPECT(strcmp(hipGetErrorName(hipErrorInvalidValue), "hipErrorInvalidValue") == 0);
    EXPECT(strcmp(hipGetErrorString(hipErrorOutOfMemory), "out of memory") == 0);
    EXPECT(strcmp(hipGetErrorName(hipSuccess), "hipSuccess") == 0);

    size_t free0, total;
    CHECK(hipMemGetInfo(&free0, &total));
    char* d;
    CHECK(hipMalloc(&d, 1 << 20));
    size_t free1;
    CHECK(hipMemGetInfo(&free1, &total));
    EXPECT(free0 - free1 >= (1 << 20) && total == p.totalGlobalMem);
    void* huge;
    EXPECT(hipMalloc(&huge, total * 2) == hipErrorOutOfMemory);
    EXPECT(hipPeekAtLastError() == hipErrorOutOfMemory);
    EXPECT(hipGetLastError() == hipErrorOutOfMemory);

    unsigned char host[4096];
    CHECK(hipMemset(d, 0xAB, 4096));
    CHECK(hipMemsetD32(d + 16, 0x01020304, 2));
    CHECK(hipMemsetD16(d + 32, 0xBEEF, 3));
    CHECK(hipMemsetD8(d + 64, 7, 5));
    CHECK(hipMemcpyDtoH(host, d, 4096));
    EXPECT(host[0] == 0xAB && host[4095] == 0xAB && host[16] == 4 && host[19] == 1 && host[23] == 1);
    EXPECT(host[32] == 0xEF && host[33] == 0xBE && host[37] == 0xBE && host[38] == 0xAB);
    EXPECT(host[64] == 7 && host[68] == 7 && host[69] == 0xAB);
    CHECK(hipMemcpyDtoD(d + 8192, d, 4096));
    CHECK(hipMemcpy(host, d + 8192 + 16, 4, hipMemcpyDeviceToHost));
    EXPECT(host[0] == 4 && host[3] == 1);
    EXPECT(hipMemcpy(host, (void*)64, 4, hipMemcpyDeviceToHost) == hipErrorInvalidValue);
    EXPECT(hipFree((void*)0x1234) != hipSuccess);
    hipGetLastError();
    CHECK(hipFree(nullptr));

    // pitched 2D: a 5x3 block of bytes
    char* pitched;
    size_t pitch = 0;
    CHECK(hipMallocPitch((void**)&pitched, &pitch, 5, 3));
    EXPECT(pitch >= 5 && pitch % 256 == 0);
    CHECK(hipMemset2D(pitched, pitch, 9, 5, 3));
    char src[15], back[15];
    for (int i = 0; i < 15; i++) src[i] = i;
    CHECK(hipMemcpy2D(pitched, pitch, src, 5, 4, 3, hipMemcpyHostToDevice));
    CHECK(hipMemcpy2D(back, 5, pitched, pitch, 5, 3, hipMemcpyDeviceToHost));
    EXPECT(back[0] == 0 && back[3] == 3 && back[4] == 9 && back[5] == 5 && back[14] == 9);

    // pinned, registered and managed memory, and what hipPointerGetAttributes says of them
    float* pinned;
    CHECK(hipHostMalloc((void**)&pinned, 256, hipHostMallocDefault));
    static float registered[64];
    CHECK(hipHostRegister(registered, sizeof registered, 0));
    EXPECT(hipHostRegister(registered, sizeof registered, 0) == hipErrorHostMemoryAlreadyRegistered);
    int* managed;
    CHECK(hipMallocManaged((void**)&managed, 64 * sizeof(int), hipMemAttachGlobal));
    for (int i = 0; i < 64; i++) managed[i] = i;
    CHECK(hipMemcpy(pinned, d, 16, hipMemcpyDeviceToHost));
    hipPointerAttribute_t attr;
    CHECK(hipPointerGetAttributes(&attr, d + 100));
    EXPECT(attr.memoryType == hipMemoryTypeDevice && attr.devicePointer == d + 100);
    CHECK(hipPointerGetAttributes(&attr, pinned));
    EXPECT(attr.memoryType == hipMemoryTypeHost);
    CHECK(hipPointerGetAttributes(&attr, managed));
    EXPECT(attr.isManaged == 1);
    void* mapped = nullptr;
    CHECK(hipHostGetDevicePointer(&mapped, registered, 0));
    EXPECT(mapped == registered);
    CHECK(hipHostUnregister(registered));
    EXPECT(hipHostUnregister(registered) == hipErrorHostMemoryNotRegistered);
    hipGetLastError();
    CHECK(hipHostFree(pinned));
    CHECK(hipFree(managed));

    // kernel attributes and occupancy (no launch)
    hipFuncAttributes fa;
    CHECK(hipFuncGetAttributes(&fa, reinterpret_cast<const void*>(busy)));
    EXPECT(fa.sharedSizeBytes == 256 * sizeof(float) && fa.maxThreadsPerBlock >= 256 && fa.numRegs > 0);
    int blocks = 0, grid = 0, block = 0;
    CHECK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, busy, 256, 0));
    EXPECT(blocks >= 1 && blocks <= 8);
    CHECK(hipOccupancyMaxPotentialBlockSize(&grid, &block, busy, 0, 0));
    EXPECT(block >= 32 && block <= 1024 && block % 32 == 0 && grid >= p.multiProcessorCount);
    CHECK(hipDeviceSynchronize());

    // peer copies within the one device; deprecated host allocators; a reset frees everything
    CHECK(hipMemcpyPeer(d + 4096, 0, d, 0, 32));
    CHECK(hipMemcpyDtoH(host, d + 4096 + 16, 4));
    EXPECT(host[0] == 4);
    EXPECT(hipMemcpyPeer(d, 1, d, 0, 4) == hipErrorInvalidDevice);
    hipGetLastError();
    void *old_style, *alloc_style;
    CHECK(hipMallocHost(&old_style, 64));
    CHECK(hipHostAlloc(&alloc_style, 64, 0));
    CHECK(hipFreeHost(old_style));
    CHECK(hipHostFree(alloc_style));
    CHECK(hipDeviceReset());
    size_t free2;
    CHECK(hipMemGetInfo(&free2, &total));
    EXPECT(free2 == free0);
    EXPECT(hipFree(d) == hipErrorInvalidValue);
    hipGetLastError();
    printf("checksum: %d\n", value + (int)pitch);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
