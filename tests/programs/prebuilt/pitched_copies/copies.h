// The body of pitched_copies, compiled twice: main.cpp includes it as it is (calls on the legacy
// default stream), per_thread.cpp with CUDA_API_PER_THREAD_DEFAULT_STREAM defined first, so that
// cuda.h renames its calls to the per-thread forms (cuMemcpy2D_v2_ptds, cuMemcpy2DAsync_v2_ptsz, ...).
//
// Every memory the copies touch (host, device, arrays) has a byte-for-byte model on the host; each
// step does the copy or set on the device and on the model, and every memory is then read back
// whole and compared with its model, byte by byte (rows beyond a copy's box, pitch padding and the
// gaps a readback leaves included). The checksums printed are of the models' logical contents
// (never of pitch padding, whose size is the GPU's), so the output follows from this file alone.
// Only functions of the 2D/3D copies and sets, and ones without per-thread forms (allocations,
// arrays, cuCtxSynchronize), are called here.

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

void check(CUresult result, const char *call, int line)
{
    if (result == CUDA_SUCCESS) return;
    const char *name = nullptr;
    if (cuGetErrorName(result, &name) != CUDA_SUCCESS || name == nullptr) name = "(unknown error)";
    std::printf("FAIL: line %d: %s returned %s (%d)\n", line, call, name, static_cast<int>(result));
    std::exit(1);
}
#define CHECK(call) check((call), #call, __LINE__)

void expect(bool ok, const char *what, int line)
{
    if (ok) return;
    std::printf("FAIL: line %d: %s\n", line, what);
    std::exit(1);
}
#define EXPECT(cond) expect((cond), #cond, __LINE__)

typedef std::vector<uint8_t> Bytes;

// A byte of test data: a hash of its index and a seed (32-bit arithmetic, the same everywhere).
uint8_t pattern(size_t i, uint32_t seed)
{
    uint32_t x = static_cast<uint32_t>(i) * 2654435761u + seed * 40503u + 1u;
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    return static_cast<uint8_t>(x);
}

// A memory that copies read or write: `slices` slices of `rows` rows of `pitch` bytes, of which
// the first `width` bytes of a row are its content (the rest: padding of a pitched allocation).
struct Memory {
    const char *name;
    CUmemorytype type;
    Bytes *host;            // CU_MEMORYTYPE_HOST
    CUdeviceptr device;     // CU_MEMORYTYPE_DEVICE and _UNIFIED
    CUarray array;          // CU_MEMORYTYPE_ARRAY: pitch is its packed row, width * element size
    size_t pitch, rows, slices, width;
    Bytes model;
};

// A position in a memory: x in bytes, y in rows of a slice, z in slices.
struct At {
    size_t x, y, z;
};

size_t offset(const Memory &m, At a) { return (a.z * m.rows + a.y) * m.pitch + a.x; }

void model_copy(Memory &dst, At d, const Memory &src, At s, size_t width, size_t height, size_t depth)
{
    for (size_t z = 0; z < depth; ++z)
        for (size_t y = 0; y < height; ++y)
            std::memmove(&dst.model[offset(dst, {d.x, d.y + y, d.z + z})],
                         &src.model[offset(src, {s.x, s.y + y, s.z + z})], width);
}

// FNV-1a of a memory's content (rows cut to `width`, no padding).
unsigned long long checksum(const Memory &m)
{
    unsigned long long h = 1469598103934665603ull;
    for (size_t row = 0; row < m.rows * m.slices; ++row)
        for (size_t x = 0; x < m.width; ++x) {
            h ^= m.model[row * m.pitch + x];
            h *= 1099511628211ull;
        }
    return h;
}

void side_3d(const Memory &m, At a, CUmemorytype &type, const void *&host, CUdeviceptr &device, CUarray &array,
             size_t &x, size_t &y, size_t &z, size_t &pitch, size_t &height)
{
    type = m.type;
    host = m.type == CU_MEMORYTYPE_HOST ? m.host->data() : nullptr;
    device = m.type == CU_MEMORYTYPE_DEVICE || m.type == CU_MEMORYTYPE_UNIFIED ? m.device : 0;
    array = m.type == CU_MEMORYTYPE_ARRAY ? m.array : nullptr;
    x = a.x, y = a.y, z = a.z;
    pitch = m.type == CU_MEMORYTYPE_ARRAY ? 0 : m.pitch;
    height = m.type == CU_MEMORYTYPE_ARRAY ? 0 : m.rows;
}

CUDA_MEMCPY3D params_3d(Memory &dst, At d, const Memory &src, At s, size_t width, size_t height, size_t depth)
{
    CUDA_MEMCPY3D p;
    std::memset(&p, 0, sizeof p);
    const void *dst_host;
    side_3d(src, s, p.srcMemoryType, p.srcHost, p.srcDevice, p.srcArray, p.srcXInBytes, p.srcY, p.srcZ, p.srcPitch,
            p.srcHeight);
    side_3d(dst, d, p.dstMemoryType, dst_host, p.dstDevice, p.dstArray, p.dstXInBytes, p.dstY, p.dstZ, p.dstPitch,
            p.dstHeight);
    p.dstHost = const_cast<void *>(dst_host);
    p.WidthInBytes = width, p.Height = height, p.Depth = depth;
    return p;
}

// A 2D copy takes rows of a memory as one stack (no slices): row y of slice z is row z * rows + y.
CUDA_MEMCPY2D params_2d(Memory &dst, At d, const Memory &src, At s, size_t width, size_t height)
{
    CUDA_MEMCPY3D q = params_3d(dst, d, src, s, width, height, 1);
    CUDA_MEMCPY2D p;
    std::memset(&p, 0, sizeof p);
    p.srcXInBytes = q.srcXInBytes, p.srcY = s.z * src.rows + s.y, p.srcMemoryType = q.srcMemoryType;
    p.srcHost = q.srcHost, p.srcDevice = q.srcDevice, p.srcArray = q.srcArray, p.srcPitch = q.srcPitch;
    p.dstXInBytes = q.dstXInBytes, p.dstY = d.z * dst.rows + d.y, p.dstMemoryType = q.dstMemoryType;
    p.dstHost = q.dstHost, p.dstDevice = q.dstDevice, p.dstArray = q.dstArray, p.dstPitch = q.dstPitch;
    p.WidthInBytes = width, p.Height = height;
    return p;
}

enum How { SYNC, UNALIGNED, ASYNC };

void copy_2d(Memory &dst, At d, const Memory &src, At s, size_t width, size_t height, How how, CUstream stream)
{
    CUDA_MEMCPY2D p = params_2d(dst, {d.x, d.y, 0}, src, {s.x, s.y, 0}, width, height);
    if (how == SYNC) CHECK(cuMemcpy2D(&p));
    if (how == UNALIGNED) CHECK(cuMemcpy2DUnaligned(&p));
    if (how == ASYNC) {
        CHECK(cuMemcpy2DAsync(&p, stream));
        CHECK(cuCtxSynchronize());
    }
    // the 2D copy's rows run on through the slices of the model
    for (size_t y = 0; y < height; ++y)
        std::memmove(&dst.model[(d.y + y) * dst.pitch + d.x], &src.model[(s.y + y) * src.pitch + s.x], width);
}

void copy_3d(Memory &dst, At d, const Memory &src, At s, size_t width, size_t height, size_t depth, How how,
             CUstream stream)
{
    CUDA_MEMCPY3D p = params_3d(dst, d, src, s, width, height, depth);
    if (how == SYNC) CHECK(cuMemcpy3D(&p));
    if (how == ASYNC) {
        CHECK(cuMemcpy3DAsync(&p, stream));
        CHECK(cuCtxSynchronize());
    }
    model_copy(dst, d, src, s, width, height, depth);
}

void copy_3d_peer(Memory &dst, At d, const Memory &src, At s, size_t width, size_t height, size_t depth, How how,
                  CUstream stream, CUcontext context)
{
    CUDA_MEMCPY3D q = params_3d(dst, d, src, s, width, height, depth);
    CUDA_MEMCPY3D_PEER p;
    std::memset(&p, 0, sizeof p);
    p.srcXInBytes = q.srcXInBytes, p.srcY = q.srcY, p.srcZ = q.srcZ, p.srcMemoryType = q.srcMemoryType;
    p.srcHost = q.srcHost, p.srcDevice = q.srcDevice, p.srcArray = q.srcArray, p.srcContext = context;
    p.srcPitch = q.srcPitch, p.srcHeight = q.srcHeight;
    p.dstXInBytes = q.dstXInBytes, p.dstY = q.dstY, p.dstZ = q.dstZ, p.dstMemoryType = q.dstMemoryType;
    p.dstHost = q.dstHost, p.dstDevice = q.dstDevice, p.dstArray = q.dstArray, p.dstContext = context;
    p.dstPitch = q.dstPitch, p.dstHeight = q.dstHeight;
    p.WidthInBytes = width, p.Height = height, p.Depth = depth;
    if (how == SYNC) CHECK(cuMemcpy3DPeer(&p));
    if (how == ASYNC) {
        CHECK(cuMemcpy3DPeerAsync(&p, stream));
        CHECK(cuCtxSynchronize());
    }
    model_copy(dst, d, src, s, width, height, depth);
}

// Sets `width` values of `size` bytes in `height` rows of m, from byte x of row y on.
void model_set(Memory &m, size_t x, size_t y, uint32_t value, size_t size, size_t width, size_t height)
{
    for (size_t r = 0; r < height; ++r)
        for (size_t i = 0; i < width; ++i)
            for (size_t b = 0; b < size; ++b)
                m.model[(y + r) * m.pitch + x + i * size + b] = static_cast<uint8_t>(value >> (8 * b));
}

// Reads m back whole, by a 3D copy into host rows wider and slices taller than m's (the gaps must
// stay as they were), and device memory also by a linear copy; both must equal the model.
void verify(const Memory &m)
{
    if (m.type == CU_MEMORYTYPE_HOST) {
        EXPECT(*m.host == m.model);
        return;
    }
    const size_t pitch = m.pitch + 5, rows = m.rows + 1;
    Bytes back(pitch * rows * m.slices, 0xee);
    Memory host = {"readback", CU_MEMORYTYPE_HOST, &back, 0, nullptr, pitch, rows, m.slices, m.pitch, back};
    CUDA_MEMCPY3D p = params_3d(host, {0, 0, 0}, m, {0, 0, 0}, m.pitch, m.rows, m.slices);
    CHECK(cuMemcpy3D(&p));
    for (size_t z = 0; z < m.slices; ++z)
        for (size_t y = 0; y < rows; ++y)
            for (size_t x = 0; x < pitch; ++x) {
                uint8_t want = x < m.pitch && y < m.rows ? m.model[offset(m, {x, y, z})] : 0xee;
                if (back[offset(host, {x, y, z})] != want) {
                    std::printf("FAIL: %s differs from its model at byte %zu of row %zu of slice %zu\n", m.name,
                                x, y, z);
                    std::exit(1);
                }
            }
}

const char *error_name(CUresult e)
{
    const char *name = nullptr;
    return cuGetErrorName(e, &name) == CUDA_SUCCESS && name ? name : "(unknown error)";
}

// A call that must fail with CUDA_ERROR_INVALID_VALUE and change nothing.
int refused(const char *label, const char *what, CUresult e)
{
    std::printf("%s: bad argument, %s: %s\n", label, what, error_name(e));
    return e == CUDA_ERROR_INVALID_VALUE;
}

// Returns 1 when every check passed (a failed call or check exits).
int pitched_copies(const char *label)
{
    CUcontext context;
    CHECK(cuCtxGetCurrent(&context));
    CUstream stream;
    CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

    // Arrays: a 1D array of bytes, two 2D arrays of ushort2 (4-byte elements), a 3D array of
    // half4 (8-byte elements); their descriptors read back.
    CUDA_ARRAY_DESCRIPTOR d1 = {50, 0, CU_AD_FORMAT_UNSIGNED_INT8, 1};
    CUDA_ARRAY_DESCRIPTOR d2 = {16, 10, CU_AD_FORMAT_UNSIGNED_INT16, 2};
    CUDA_ARRAY3D_DESCRIPTOR d3 = {6, 5, 4, CU_AD_FORMAT_HALF, 4, 0};
    CUarray a1, a2, a2b, a3;
    CHECK(cuArrayCreate(&a1, &d1));
    CHECK(cuArrayCreate(&a2, &d2));
    CHECK(cuArrayCreate(&a2b, &d2));
    CHECK(cuArray3DCreate(&a3, &d3));
    CUDA_ARRAY3D_DESCRIPTOR got[3];
    CHECK(cuArray3DGetDescriptor(&got[0], a1));
    CHECK(cuArray3DGetDescriptor(&got[1], a2));
    CHECK(cuArray3DGetDescriptor(&got[2], a3));
    for (const CUDA_ARRAY3D_DESCRIPTOR &g : got)
        std::printf("%s: array %zu x %zu x %zu, format 0x%x, %u channels, flags %u\n", label, g.Width, g.Height,
                    g.Depth, static_cast<unsigned>(g.Format), g.NumChannels, g.Flags);

    // Device memory: d1 pitched by the driver (80 bytes of content in each row, 2 slices of 12
    // rows in 3D copies), d2 linear with an odd pitch of 67 (3 slices of 10 rows), d3 linear.
    CUdeviceptr p1, p2, p3;
    size_t pitch1;
    CHECK(cuMemAllocPitch(&p1, &pitch1, 80, 24, 4));
    CHECK(cuMemAlloc(&p2, 67 * 30));
    CHECK(cuMemAlloc(&p3, 256));
    EXPECT(pitch1 >= 80);
    Bytes h0_bytes(100 * 14 * 5), out_bytes(90 * 12 * 2, 0x11);
    for (size_t i = 0; i < h0_bytes.size(); ++i) h0_bytes[i] = pattern(i, 1);
    Memory h0 = {"host source", CU_MEMORYTYPE_HOST, &h0_bytes, 0, nullptr, 100, 14, 5, 100, h0_bytes};
    Memory out = {"host destination", CU_MEMORYTYPE_HOST, &out_bytes, 0, nullptr, 90, 12, 2, 90, out_bytes};
    Memory m1 = {"d1", CU_MEMORYTYPE_DEVICE, nullptr, p1, nullptr, pitch1, 12, 2, 80, Bytes(pitch1 * 24)};
    Memory m2 = {"d2", CU_MEMORYTYPE_DEVICE, nullptr, p2, nullptr, 67, 10, 3, 67, Bytes(67 * 30)};
    Memory m3 = {"d3", CU_MEMORYTYPE_DEVICE, nullptr, p3, nullptr, 64, 4, 1, 64, Bytes(256)};
    Memory ma1 = {"1D array", CU_MEMORYTYPE_ARRAY, nullptr, 0, a1, 50, 1, 1, 50, Bytes(50)};
    Memory ma2 = {"2D array", CU_MEMORYTYPE_ARRAY, nullptr, 0, a2, 64, 10, 1, 64, Bytes(640)};
    Memory ma2b = {"second 2D array", CU_MEMORYTYPE_ARRAY, nullptr, 0, a2b, 64, 10, 1, 64, Bytes(640)};
    Memory ma3 = {"3D array", CU_MEMORYTYPE_ARRAY, nullptr, 0, a3, 48, 5, 4, 48, Bytes(960)};

    // Starting contents: device memory set bytewise (padding included), arrays copied whole from
    // host data of their own shape.
    CHECK(cuMemsetD2D8(p1, pitch1, 0xa5, pitch1, 24));
    model_set(m1, 0, 0, 0xa5, 1, pitch1, 24);
    CHECK(cuMemsetD2D8(p2, 67, 0x3c, 67, 30));
    model_set(m2, 0, 0, 0x3c, 1, 67, 30);
    CHECK(cuMemsetD2D8(p3, 64, 0x00, 64, 4));
    model_set(m3, 0, 0, 0x00, 1, 64, 4);
    Memory *arrays[] = {&ma1, &ma2, &ma2b, &ma3};
    uint32_t seed = 10;
    for (Memory *a : arrays) {
        Bytes data(a->model.size());
        for (size_t i = 0; i < data.size(); ++i) data[i] = pattern(i, seed);
        Memory src = {"array data", CU_MEMORYTYPE_HOST, &data, 0, nullptr, a->pitch, a->rows, a->slices, a->pitch,
                      data};
        if (a->slices == 1)
            copy_2d(*a, {0, 0, 0}, src, {0, 0, 0}, a->pitch, a->rows, SYNC, stream);
        else
            copy_3d(*a, {0, 0, 0}, src, {0, 0, 0}, a->pitch, a->rows, a->slices, SYNC, stream);
        ++seed;
    }
    Memory *all[] = {&m1, &m2, &m3, &ma1, &ma2, &ma2b, &ma3, &out};
    for (Memory *m : all) verify(*m);
    std::printf("%s: start: d1 %016llx, d2 %016llx, arrays %016llx %016llx %016llx %016llx\n", label,
                checksum(m1), checksum(m2), checksum(ma1), checksum(ma2), checksum(ma2b), checksum(ma3));

    // 2D copies with offsets on both sides: host to device, device to array, array to array,
    // array to unified memory (async), device to device (unaligned), host to the 1D array,
    // arrays and device memory to host, and array offsets that fall inside an element (NVIDIA
    // takes x in bytes there too).
    copy_2d(m1, {5, 1, 0}, h0, {3, 2, 0}, 61, 9, SYNC, stream);
    copy_2d(ma2, {12, 2, 0}, m1, {8, 3, 0}, 40, 6, SYNC, stream);
    copy_2d(ma2b, {20, 4, 0}, ma2, {8, 1, 0}, 36, 5, SYNC, stream);
    m2.type = CU_MEMORYTYPE_UNIFIED;            // d2 named as unified memory
    copy_2d(m2, {7, 11, 0}, ma2b, {0, 0, 0}, 60, 8, ASYNC, stream);
    m2.type = CU_MEMORYTYPE_DEVICE;
    copy_2d(m1, {33, 13, 0}, m2, {1, 3, 0}, 45, 10, UNALIGNED, stream);
    copy_2d(ma1, {5, 0, 0}, h0, {11, 4, 0}, 30, 1, SYNC, stream);
    copy_2d(out, {2, 3, 0}, ma2b, {16, 2, 0}, 44, 7, SYNC, stream);
    copy_2d(out, {40, 12, 0}, m1, {9, 14, 0}, 50, 9, ASYNC, stream);
    copy_2d(out, {0, 22, 0}, ma1, {0, 0, 0}, 50, 1, SYNC, stream);
    copy_2d(m2, {3, 20, 0}, ma2, {2, 1, 0}, 21, 2, SYNC, stream);     // x inside a 4-byte element
    copy_2d(ma2b, {5, 8, 0}, m1, {0, 6, 0}, 30, 2, ASYNC, stream);    // and writing from one
    for (Memory *m : all) verify(*m);
    std::printf("%s: 2D copies: d1 %016llx, d2 %016llx, arrays %016llx %016llx %016llx, host %016llx\n", label,
                checksum(m1), checksum(m2), checksum(ma1), checksum(ma2), checksum(ma2b), checksum(out));

    // 3D copies: host to device (slices of 14 rows read, of 10 written), device to the 3D array,
    // the 3D array to device (async), device to device between contexts (the current one on both
    // sides) and back (async), the 3D array and device memory to host.
    copy_3d(m2, {4, 2, 0}, h0, {2, 1, 1}, 50, 7, 3, SYNC, stream);
    copy_3d(ma3, {8, 1, 1}, m2, {6, 1, 0}, 32, 3, 3, SYNC, stream);
    copy_3d(m1, {16, 5, 0}, ma3, {0, 0, 2}, 48, 5, 2, ASYNC, stream);
    copy_3d_peer(m2, {0, 0, 1}, m1, {10, 2, 1}, 67, 10, 1, SYNC, stream, context);
    copy_3d_peer(m1, {0, 0, 0}, m2, {20, 4, 1}, 40, 6, 2, ASYNC, stream, context);
    copy_3d(out, {10, 1, 0}, ma3, {8, 0, 1}, 40, 4, 2, SYNC, stream);
    copy_3d(out, {51, 6, 0}, m2, {30, 3, 1}, 37, 5, 2, ASYNC, stream);
    for (Memory *m : all) verify(*m);
    std::printf("%s: 3D copies: d1 %016llx, d2 %016llx, 3D array %016llx, host %016llx\n", label, checksum(m1),
                checksum(m2), checksum(ma3), checksum(out));

    // 2D sets of each width, sync and async, with offsets; rows that follow each other without a
    // gap (d3), and one row whose pitch is unused (0).
    CHECK(cuMemsetD2D8(p1 + 3 * pitch1 + 1, pitch1, 0x5a, 20, 4));
    model_set(m1, 1, 3, 0x5a, 1, 20, 4);
    CHECK(cuMemsetD2D16(p1 + 8 * pitch1 + 22, pitch1, 0xbeef, 12, 5));
    model_set(m1, 22, 8, 0xbeef, 2, 12, 5);
    CHECK(cuMemsetD2D32(p1 + 14 * pitch1 + 40, pitch1, 0x12345678u, 9, 6));
    model_set(m1, 40, 14, 0x12345678u, 4, 9, 6);
    CHECK(cuMemsetD2D8Async(p2 + 20 * 67 + 3, 67, 0x77, 50, 7, stream));
    model_set(m2, 3, 20, 0x77, 1, 50, 7);
    CHECK(cuMemsetD2D16Async(p1 + 2 * pitch1 + 50, pitch1, 0x0102, 14, 3, stream));
    model_set(m1, 50, 2, 0x0102, 2, 14, 3);
    CHECK(cuMemsetD2D32Async(p1 + 20 * pitch1, pitch1, 0xcafef00du, 20, 4, stream));
    model_set(m1, 0, 20, 0xcafef00du, 4, 20, 4);
    CHECK(cuCtxSynchronize());
    CHECK(cuMemsetD2D16(p3 + 2, 40, 0x4321, 20, 3));
    model_set(m3, 2, 0, 0x4321, 2, 60, 1);     // three rows of 40 bytes: one run of 120 bytes
    CHECK(cuMemsetD2D32(p3 + 128, 0, 0xa1b2c3d4u, 5, 1));
    model_set(m3, 0, 2, 0xa1b2c3d4u, 4, 5, 1);
    CHECK(cuMemsetD2D8Async(p3 + 200, 9, 0xe1, 5, 6, stream));
    for (size_t r = 0; r < 6; ++r) model_set(m3, 8 + r * 9, 3, 0xe1, 1, 5, 1);   // rows 9 apart in d3's row 3
    CHECK(cuCtxSynchronize());
    for (Memory *m : all) verify(*m);
    std::printf("%s: 2D sets: d1 %016llx, d2 %016llx, d3 %016llx\n", label, checksum(m1), checksum(m2),
                checksum(m3));

    // Bad arguments: each is CUDA_ERROR_INVALID_VALUE and writes nothing.
    int good = 1;
    good &= refused(label, "no 2D copy", cuMemcpy2D(nullptr));
    good &= refused(label, "no 3D copy", cuMemcpy3D(nullptr));
    CUDA_MEMCPY2D p = params_2d(m2, {0, 0, 0}, h0, {0, 0, 0}, 20, 2);
    p.srcPitch = 10;
    good &= refused(label, "source pitch below the width", cuMemcpy2D(&p));
    p = params_2d(m2, {50, 0, 0}, h0, {0, 0, 0}, 20, 2);
    good &= refused(label, "destination pitch below x + width", cuMemcpy2D(&p));
    p = params_2d(m2, {0, 0, 0}, h0, {0, 0, 0}, 20, 2);
    p.srcMemoryType = static_cast<CUmemorytype>(0);
    good &= refused(label, "memory type 0", cuMemcpy2D(&p));
    p.srcMemoryType = static_cast<CUmemorytype>(5);
    good &= refused(label, "memory type 5", cuMemcpy2DAsync(&p, stream));
    p = params_2d(m2, {0, 0, 0}, h0, {0, 0, 0}, 20, 2);
    p.srcHost = nullptr;
    good &= refused(label, "no host pointer", cuMemcpy2D(&p));
    p = params_2d(m2, {0, 0, 0}, h0, {0, 0, 0}, 20, 2);
    p.dstDevice = 0;
    good &= refused(label, "no device pointer", cuMemcpy2D(&p));
    p = params_2d(m2, {0, 0, 0}, ma2, {0, 0, 0}, 20, 2);
    p.srcArray = nullptr;
    good &= refused(label, "no array", cuMemcpy2D(&p));
    p = params_2d(m2, {0, 0, 0}, ma2, {8, 0, 0}, 60, 2);
    good &= refused(label, "array row overrun", cuMemcpy2D(&p));
    p = params_2d(ma2, {0, 8, 0}, m2, {0, 0, 0}, 20, 3);
    good &= refused(label, "array rows overrun", cuMemcpy2D(&p));
    CUDA_MEMCPY3D q = params_3d(m2, {0, 0, 0}, h0, {0, 10, 0}, 20, 5, 2);
    good &= refused(label, "source height below y + height", cuMemcpy3D(&q));
    q = params_3d(m2, {0, 0, 0}, ma3, {0, 0, 2}, 16, 2, 3);
    good &= refused(label, "array slices overrun", cuMemcpy3DAsync(&q, stream));
    q = params_3d(m2, {0, 0, 0}, ma3, {0, 0, 0}, 16, 2, 2);
    q.srcLOD = 1;
    good &= refused(label, "level 1 of an array", cuMemcpy3D(&q));
    good &= refused(label, "32-bit set with a pitch below the width", cuMemsetD2D32(p1, 16, 1, 5, 2));
    good &= refused(label, "16-bit set at an odd address", cuMemsetD2D16(p1 + 1, pitch1, 1, 4, 2));
    good &= refused(label, "8-bit set of no pointer", cuMemsetD2D8(0, 64, 1, 4, 2));
    CHECK(cuCtxSynchronize());
    for (Memory *m : all) verify(*m);
    EXPECT(good);

    CHECK(cuArrayDestroy(a1));
    CHECK(cuArrayDestroy(a2));
    CHECK(cuArrayDestroy(a2b));
    CHECK(cuArrayDestroy(a3));
    CHECK(cuMemFree(p1));
    CHECK(cuMemFree(p2));
    CHECK(cuMemFree(p3));
    CHECK(cuStreamDestroy(stream));
    return 1;
}

}  // namespace
