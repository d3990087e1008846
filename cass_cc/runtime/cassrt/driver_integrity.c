/* The INTEGRITY_CHECK export table: NVIDIA's runtime checks that the driver it talks to answers
 * a challenge as NVIDIA's does.
 *
 * What is answered (facts from ../shared/notes/cuda-driver-interface.md, which cites ZLUDA's
 * dark_api crate): for a runtime version ending in 0 or 1, two fixed words; otherwise HMAC-MD2
 * (RFC 1319's MD2, RFC 2104's construction with MD2's 16-byte block) under a fixed key, over the
 * driver's version, the runtime's, the process and thread ids, the addresses of the
 * CUDART_INTERFACE and INTEGRITY_CHECK tables and of the check function, the time the runtime
 * gives, and each device's UUID and PCI domain, bus and device. The runtime computes the same
 * from what this library told it (cuDriverGetVersion, cuDeviceGetUuid, cuDeviceGetAttribute),
 * so the inputs come from those same functions.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cuda.h>

#include "cassrt.h"

/* MD2's substitution table: the digits of pi, as RFC 1319 gives it. */
static const unsigned char PI_SUBST[256] = {
    41, 46, 67, 201, 162, 216, 124, 1, 61, 54, 84, 161, 236, 240, 6, 19, 98, 167, 5, 243, 192, 199,
    115, 140, 152, 147, 43, 217, 188, 76, 130, 202, 30, 155, 87, 60, 253, 212, 224, 22, 103, 66, 111,
    24, 138, 23, 229, 18, 190, 78, 196, 214, 218, 158, 222, 73, 160, 251, 245, 142, 187, 47, 238, 122,
    169, 104, 121, 145, 21, 178, 7, 63, 148, 194, 16, 137, 11, 34, 95, 33, 128, 127, 93, 154, 90, 144,
    50, 39, 53, 62, 204, 231, 191, 247, 151, 3, 255, 25, 48, 179, 72, 165, 181, 209, 215, 94, 146, 42,
    172, 86, 170, 198, 79, 184, 56, 210, 150, 164, 125, 182, 118, 252, 107, 226, 156, 116, 4, 241, 69,
    157, 112, 89, 100, 113, 135, 32, 134, 91, 207, 101, 230, 45, 168, 2, 27, 96, 37, 173, 174, 176, 185,
    246, 28, 70, 97, 105, 52, 64, 126, 15, 85, 71, 163, 35, 221, 81, 175, 58, 195, 92, 249, 206, 186,
    197, 234, 38, 44, 83, 13, 110, 133, 40, 132, 9, 211, 223, 205, 244, 65, 129, 77, 82, 106, 220, 55,
    200, 108, 193, 171, 250, 36, 225, 123, 8, 12, 189, 177, 74, 120, 136, 149, 139, 227, 99, 232, 109,
    233, 203, 213, 254, 59, 0, 29, 57, 242, 239, 183, 14, 102, 88, 208, 228, 166, 119, 114, 248, 235,
    117, 75, 10, 49, 68, 80, 180, 143, 237, 31, 26, 219, 153, 141, 51, 159, 17, 131, 20,
};

struct md2 { unsigned char state[48], checksum[16], block[16]; unsigned used; };

static void md2_compress(struct md2 *m)
{
    for (int j = 0; j < 16; j++) {
        m->state[16 + j] = m->block[j];
        m->state[32 + j] = (unsigned char)(m->block[j] ^ m->state[j]);
    }
    unsigned char last = m->checksum[15];
    for (int j = 0; j < 16; j++)
        last = m->checksum[j] ^= PI_SUBST[m->block[j] ^ last];
    unsigned t = 0;
    for (int round = 0; round < 18; round++) {
        for (int k = 0; k < 48; k++)
            t = m->state[k] ^= PI_SUBST[t];
        t = (t + (unsigned)round) & 0xff;
    }
}

static void md2_update(struct md2 *m, const void *data, size_t n, unsigned char mask)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        m->block[m->used++] = p[i] ^ mask;
        if (m->used == 16) {
            md2_compress(m);
            m->used = 0;
        }
    }
}

static void md2_final(struct md2 *m, unsigned char digest[16])
{
    unsigned char pad[16], checksum[16];
    unsigned n = 16 - m->used;
    memset(pad, (int)n, sizeof pad);
    md2_update(m, pad, n, 0);
    memcpy(checksum, m->checksum, sizeof checksum);
    md2_update(m, checksum, sizeof checksum, 0);
    memcpy(digest, m->state, 16);
}

static const unsigned char KEY[16] = {0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
                                      0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f};

/* The table layout the runtime hashes (field order and sizes as it lays them out). */
struct challenge {
    uint32_t driver_version, version, process, thread;
    const void *cudart_table, *integrity_table, *function;
    uint64_t unix_seconds;
};

struct device_facts { CUuuid uuid; int32_t pci_domain, pci_bus, pci_device; };

static CUresult integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t result[2]);

void *cassrt_integrity_table[3] = {(void *)(3 * sizeof(void *)), (void *)integrity_check, NULL};

static CUresult device_facts(CUdevice dev, struct device_facts *f)
{
    memset(f, 0, sizeof *f);
    CUresult e = cuDeviceGetUuid(&f->uuid, dev);
    if (e == CUDA_SUCCESS)
        e = cuDeviceGetAttribute(&f->pci_domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, dev);
    if (e == CUDA_SUCCESS)
        e = cuDeviceGetAttribute(&f->pci_bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, dev);
    if (e == CUDA_SUCCESS)
        e = cuDeviceGetAttribute(&f->pci_device, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, dev);
    return e;
}

static CUresult integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t result[2])
{
    if (version % 10 == 0 || version % 10 == 1) {
        result[0] = version % 10 == 0 ? 0x3341181c03cb675cull : 0x1841181c03cb675cull;
        result[1] = 0x8ed383aa1f4cd1e8ull;
        return CUDA_SUCCESS;
    }
    int driver_version = 0, devices = 0;
    const void *cudart_table = NULL;
    static const CUuuid cudart_interface = {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87,
                                             0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9}};
    CUresult e = cuDriverGetVersion(&driver_version);
    if (e == CUDA_SUCCESS)
        e = cuDeviceGetCount(&devices);
    if (e == CUDA_SUCCESS)
        e = cuGetExportTable(&cudart_table, &cudart_interface);
    if (e != CUDA_SUCCESS)
        return e;
    struct challenge c;
    memset(&c, 0, sizeof c);
    c.driver_version = (uint32_t)driver_version;
    c.version = version;
    c.process = (uint32_t)getpid();
    c.thread = (uint32_t)(uintptr_t)pthread_self();
    c.cudart_table = cudart_table;
    c.integrity_table = cassrt_integrity_table;
    c.function = (const void *)integrity_check;
    c.unix_seconds = unix_seconds;
    struct md2 inner, outer;
    unsigned char digest[16];
    memset(&inner, 0, sizeof inner);
    md2_update(&inner, KEY, sizeof KEY, 0x36);
    md2_update(&inner, &c, sizeof c, 0);
    for (int dev = 0; dev < devices; dev++) {
        struct device_facts f;
        if ((e = device_facts(dev, &f)) != CUDA_SUCCESS)
            return e;
        md2_update(&inner, &f, sizeof f, 0);
    }
    md2_final(&inner, digest);
    memset(&outer, 0, sizeof outer);
    md2_update(&outer, KEY, sizeof KEY, 0x5c);
    md2_update(&outer, digest, sizeof digest, 0);
    md2_final(&outer, digest);
    memcpy(result, digest, 16);
    return CUDA_SUCCESS;
}
