// array_copies: a host-only program on the CUDA driver API (g++ and -lcuda) that copies into, out
// of and between 1D arrays with cuMemcpyHtoA, cuMemcpyAtoH, cuMemcpyAtoD, cuMemcpyDtoA,
// cuMemcpyAtoA, cuMemcpyHtoAAsync and cuMemcpyAtoHAsync at byte offsets, checks every byte
// against a host model, and tries copies that run past an array's end (each must be refused with
// CUDA_ERROR_INVALID_VALUE and change nothing). It does everything twice: with the functions it
// links (the legacy default stream; the async ones on a created stream) and with the per-thread
// default stream forms that cuGetProcAddress hands out for CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
// (the async ones on stream 0, which is then the thread's own stream). The linear copies and the
// set that fill and read device memory come the same two ways.
//
// usage: array_copies
//
// Prints deterministic lines (lookup results, checksums of the models, error names; never
// addresses) and PASS; exits 1 at the first failed call or check.

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

const char *error_name(CUresult e)
{
    const char *name = nullptr;
    return cuGetErrorName(e, &name) == CUDA_SUCCESS && name ? name : "(unknown error)";
}

void check(CUresult result, const char *call, int line)
{
    if (result == CUDA_SUCCESS) return;
    std::printf("FAIL: line %d: %s returned %s (%d)\n", line, call, error_name(result), static_cast<int>(result));
    std::exit(1);
}
#define CHECK(call) check((call), #call, __LINE__)

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

// FNV-1a of a model.
unsigned long long checksum(const Bytes &b)
{
    unsigned long long h = 1469598103934665603ull;
    for (uint8_t v : b) {
        h ^= v;
        h *= 1099511628211ull;
    }
    return h;
}

// The seven 1D array copies, as cuda.h declares them after its macros.
struct Copies {
    const char *label;
    decltype(&cuMemcpyHtoA) htoa;
    decltype(&cuMemcpyAtoH) atoh;
    decltype(&cuMemcpyAtoD) atod;
    decltype(&cuMemcpyDtoA) dtoa;
    decltype(&cuMemcpyAtoA) atoa;
    decltype(&cuMemcpyHtoAAsync) htoa_async;
    decltype(&cuMemcpyAtoHAsync) atoh_async;
    decltype(&cuMemcpyHtoD) htod;
    decltype(&cuMemcpyDtoH) dtoh;
    decltype(&cuMemsetD32) memset_d32;
    CUstream stream;    // the async copies' stream
    CUstream waited;    // what that stream is: the one to synchronise with
};

// The per-thread default stream forms, by the names a program asks cuGetProcAddress for.
Copies per_thread_copies()
{
    // stream 0 given to the per-thread forms is the thread's own stream
    Copies c = {"per-thread stream", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                nullptr, nullptr, nullptr, nullptr, nullptr, CU_STREAM_PER_THREAD};
    const struct { const char *name; void **fn; } wanted[] = {
        {"cuMemcpyHtoA", reinterpret_cast<void **>(&c.htoa)},
        {"cuMemcpyAtoH", reinterpret_cast<void **>(&c.atoh)},
        {"cuMemcpyAtoD", reinterpret_cast<void **>(&c.atod)},
        {"cuMemcpyDtoA", reinterpret_cast<void **>(&c.dtoa)},
        {"cuMemcpyAtoA", reinterpret_cast<void **>(&c.atoa)},
        {"cuMemcpyHtoAAsync", reinterpret_cast<void **>(&c.htoa_async)},
        {"cuMemcpyAtoHAsync", reinterpret_cast<void **>(&c.atoh_async)},
        {"cuMemcpyHtoD", reinterpret_cast<void **>(&c.htod)},
        {"cuMemcpyDtoH", reinterpret_cast<void **>(&c.dtoh)},
        {"cuMemsetD32", reinterpret_cast<void **>(&c.memset_d32)},
    };
    for (const auto &w : wanted) {
        CUdriverProcAddressQueryResult status;
        CHECK(cuGetProcAddress(w.name, w.fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &status));
        std::printf("cuGetProcAddress %s, per-thread default stream: %s\n", w.name,
                    status == CU_GET_PROC_ADDRESS_SUCCESS && *w.fn ? "found" : "NOT FOUND");
        if (status != CU_GET_PROC_ADDRESS_SUCCESS || !*w.fn) std::exit(1);
    }
    return c;
}

// The arrays, the device memory and their models.
struct State {
    CUarray a, b, c;        // 64 x u32, 32 x ushort2 (4-byte elements), 48 x half4 (8-byte elements)
    CUdeviceptr d;          // 512 bytes
    Bytes ma, mb, mc, md;
};

// Reads an array back whole with cuMemcpy2D (no function under test) and compares it.
bool same_array(CUarray array, const Bytes &model, const char *what)
{
    Bytes back(model.size() + 7, 0xee);
    CUDA_MEMCPY2D p;
    std::memset(&p, 0, sizeof p);
    p.srcMemoryType = CU_MEMORYTYPE_ARRAY, p.srcArray = array;
    p.dstMemoryType = CU_MEMORYTYPE_HOST, p.dstHost = back.data(), p.dstPitch = back.size();
    p.WidthInBytes = model.size(), p.Height = 1;
    CHECK(cuMemcpy2D(&p));
    for (size_t i = 0; i < back.size(); ++i)
        if (back[i] != (i < model.size() ? model[i] : 0xee)) {
            std::printf("FAIL: %s differs from its model at byte %zu\n", what, i);
            return false;
        }
    return true;
}

void verify(const State &s)
{
    Bytes back(s.md.size());
    CHECK(cuMemcpyDtoH(back.data(), s.d, back.size()));
    bool good = same_array(s.a, s.ma, "array a") && same_array(s.b, s.mb, "array b") &&
                same_array(s.c, s.mc, "array c");
    if (good && back != s.md) {
        std::printf("FAIL: device memory differs from its model\n");
        good = false;
    }
    if (!good) std::exit(1);
}

void expect_bytes(const uint8_t *got, const uint8_t *want, size_t n, const char *what)
{
    if (std::memcmp(got, want, n) == 0) return;
    std::printf("FAIL: %s differs from its model\n", what);
    std::exit(1);
}

void wait(const Copies &c) { CHECK(cuStreamSynchronize(c.waited)); }

// One round of copies with `c`; `seed` makes each round's data its own.
void round_of_copies(const Copies &c, State &s, uint8_t *pinned, uint32_t seed)
{
    // Whole arrays from pageable host memory, device memory from the host.
    Bytes data(512);
    for (size_t i = 0; i < data.size(); ++i) data[i] = pattern(i, seed);
    CHECK(c.htoa(s.a, 0, data.data(), s.ma.size()));
    std::memcpy(s.ma.data(), data.data(), s.ma.size());
    CHECK(c.htoa(s.b, 0, data.data() + 100, s.mb.size()));
    std::memcpy(s.mb.data(), data.data() + 100, s.mb.size());
    CHECK(c.htoa(s.c, 0, data.data() + 50, s.mc.size()));
    std::memcpy(s.mc.data(), data.data() + 50, s.mc.size());
    for (size_t i = 0; i < data.size(); ++i) data[i] = pattern(i, seed + 1);
    CHECK(c.htod(s.d, data.data(), data.size()));
    s.md = data;
    CHECK(c.memset_d32(s.d + 64, 0xa1b2c3d4u, 8));
    for (size_t i = 0; i < 32; ++i) s.md[64 + i] = static_cast<uint8_t>(0xa1b2c3d4u >> (8 * (i % 4)));
    Bytes head(100);
    CHECK(c.dtoh(head.data(), s.d + 20, head.size()));
    expect_bytes(head.data(), &s.md[20], head.size(), "device memory read back");
    verify(s);
    std::printf("%s: filled: a %016llx, b %016llx, c %016llx, d %016llx\n", c.label, checksum(s.ma),
                checksum(s.mb), checksum(s.mc), checksum(s.md));

    // Device to array, array to device, array to array (4-byte elements on both sides), array to
    // pageable host memory: offsets and sizes in whole elements.
    CHECK(c.dtoa(s.a, 8, s.d + 17, 40));
    std::memcpy(&s.ma[8], &s.md[17], 40);
    CHECK(c.atod(s.d + 300, s.b, 12, 60));
    std::memcpy(&s.md[300], &s.mb[12], 60);
    CHECK(c.atoa(s.b, 20, s.a, 100, 64));
    std::memcpy(&s.mb[20], &s.ma[100], 64);
    CHECK(c.atoa(s.a, 200, s.b, 0, 32));
    std::memcpy(&s.ma[200], &s.mb[0], 32);
    Bytes out(120, 0x11), out_model(120, 0x11);
    CHECK(c.atoh(out.data() + 5, s.c, 24, 96));
    std::memcpy(&out_model[5], &s.mc[24], 96);
    expect_bytes(out.data(), out_model.data(), out.size(), "host copy of array c");

    // Async copies through pinned memory, each waited for.
    for (size_t i = 0; i < 80; ++i) pinned[i] = pattern(i, seed + 2);
    CHECK(c.htoa_async(s.c, 200, pinned, 80, c.stream));
    wait(c);
    std::memcpy(&s.mc[200], pinned, 80);
    std::memset(pinned + 256, 0x22, 256);
    CHECK(c.atoh_async(pinned + 300, s.a, 40, 96, c.stream));
    wait(c);
    Bytes pinned_model(256, 0x22);
    std::memcpy(&pinned_model[44], &s.ma[40], 96);
    expect_bytes(pinned + 256, pinned_model.data(), pinned_model.size(), "pinned copy of array a");
    verify(s);
    std::printf("%s: copies: a %016llx, b %016llx, c %016llx, d %016llx, host %016llx %016llx\n", c.label,
                checksum(s.ma), checksum(s.mb), checksum(s.mc), checksum(s.md), checksum(out_model),
                checksum(pinned_model));

    // Byte offsets inside an element (the 2D copies take them on NVIDIA's driver): the result is
    // printed, and the bytes are checked when the copy was made.
    CUresult into = c.htoa(s.a, 6, data.data() + 3, 10);
    std::printf("%s: 1D copy into an array at a byte inside an element: %s\n", c.label, error_name(into));
    if (into == CUDA_SUCCESS) std::memcpy(&s.ma[6], &data[3], 10);
    Bytes part(13, 0x33), part_model(13, 0x33);
    CUresult from = c.atoh(part.data(), s.c, 3, 13);
    std::printf("%s: 1D copy from an array at a byte inside an element: %s\n", c.label, error_name(from));
    if (from == CUDA_SUCCESS) std::memcpy(part_model.data(), &s.mc[3], 13);
    expect_bytes(part.data(), part_model.data(), part.size(), "bytes from inside an element");
    verify(s);
    std::printf("%s: inside elements: a %016llx, host %016llx\n", c.label, checksum(s.ma), checksum(part_model));
}

// A call that must fail with CUDA_ERROR_INVALID_VALUE.
bool refused(const Copies &c, const char *what, CUresult e)
{
    std::printf("%s: out of range, %s: %s\n", c.label, what, error_name(e));
    return e == CUDA_ERROR_INVALID_VALUE;
}

// Copies that run past an array's end (a: 256 bytes, b: 128, c: 384); nothing may change.
bool out_of_range(const Copies &c, State &s, uint8_t *pinned)
{
    Bytes host(512, 0x44);
    bool good = true;
    good &= refused(c, "host to array past its end", c.htoa(s.a, 250, host.data(), 8));
    good &= refused(c, "array to host, one byte more than the array", c.atoh(host.data(), s.b, 0, 129));
    good &= refused(c, "array to device from the array's end", c.atod(s.d, s.c, 384, 1));
    good &= refused(c, "device to array, offset wrapping around", c.dtoa(s.a, SIZE_MAX - 3, s.d, 8));
    good &= refused(c, "array to array, source past its end", c.atoa(s.a, 0, s.b, 100, 32));
    good &= refused(c, "array to array, destination past its end", c.atoa(s.b, 120, s.a, 0, 16));
    good &= refused(c, "async host to array past its end", c.htoa_async(s.c, 380, pinned, 8, c.stream));
    good &= refused(c, "async array to host past its end", c.atoh_async(pinned, s.a, 0, 260, c.stream));
    wait(c);
    if (host != Bytes(512, 0x44)) {
        std::printf("FAIL: a refused copy wrote host memory\n");
        std::exit(1);
    }
    verify(s);
    return good;
}

CUarray make_array(size_t width, CUarray_format format, unsigned channels)
{
    CUDA_ARRAY_DESCRIPTOR d = {width, 0, format, channels};
    CUarray a;
    CHECK(cuArrayCreate(&a, &d));
    return a;
}

}  // namespace

int main()
{
    CHECK(cuInit(0));
    CUdevice dev;
    CHECK(cuDeviceGet(&dev, 0));
    CUcontext primary;
    CHECK(cuDevicePrimaryCtxRetain(&primary, dev));
    CHECK(cuCtxSetCurrent(primary));

    State s;
    s.a = make_array(64, CU_AD_FORMAT_UNSIGNED_INT32, 1);
    s.b = make_array(32, CU_AD_FORMAT_UNSIGNED_INT16, 2);
    s.c = make_array(48, CU_AD_FORMAT_HALF, 4);
    s.ma = Bytes(256), s.mb = Bytes(128), s.mc = Bytes(384), s.md = Bytes(512);
    CHECK(cuMemAlloc(&s.d, 512));
    uint8_t *pinned;
    CHECK(cuMemAllocHost(reinterpret_cast<void **>(&pinned), 512));
    CUstream stream;
    CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

    Copies legacy = {"legacy stream", &cuMemcpyHtoA, &cuMemcpyAtoH, &cuMemcpyAtoD, &cuMemcpyDtoA, &cuMemcpyAtoA,
                     &cuMemcpyHtoAAsync, &cuMemcpyAtoHAsync, &cuMemcpyHtoD, &cuMemcpyDtoH, &cuMemsetD32,
                     stream, stream};
    Copies per_thread = per_thread_copies();
    bool good = true;
    round_of_copies(legacy, s, pinned, 1);
    good &= out_of_range(legacy, s, pinned);
    round_of_copies(per_thread, s, pinned, 7);
    good &= out_of_range(per_thread, s, pinned);

    CHECK(cuStreamDestroy(stream));
    CHECK(cuMemFreeHost(pinned));
    CHECK(cuMemFree(s.d));
    CHECK(cuArrayDestroy(s.a));
    CHECK(cuArrayDestroy(s.b));
    CHECK(cuArrayDestroy(s.c));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    std::printf("%s\n", good ? "PASS" : "FAIL");
    return good ? 0 : 1;
}
