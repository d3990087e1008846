/* What an AMD code object holds that HIP's module API does not tell: the names of its kernels.
 *
 * A kernel of a code object (ld.lld's output, an ELF64 shared object) is a dynamic symbol
 * "<name>.kd" (its kernel descriptor, an OBJECT) beside the FUNC "<name>"; the descriptors are
 * what HIP launches, so they are what the driver API's enumerations list.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cassrt.h"

#define SHT_DYNSYM 11
#define STT_OBJECT 1

static uint16_t u16(const unsigned char *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t u32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t u64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }

static int inside(uint64_t offset, uint64_t bytes, size_t size) { return offset <= size && bytes <= size - offset; }

int cassrt_code_object_kernels(const void *code_object, size_t size, char ***names, unsigned *count)
{
    static const char suffix[] = ".kd";
    const unsigned char *p = code_object;
    *names = NULL;
    *count = 0;
    if (size < 64 || memcmp(p, "\177ELF", 4) != 0 || p[4] != 2)
        return -1;
    uint64_t shoff = u64(p + 0x28), shentsize = u16(p + 0x3a), shnum = u16(p + 0x3c);
    if (shentsize < 64 || !inside(shoff, shnum * shentsize, size))
        return -1;
    for (uint64_t i = 0; i < shnum; i++) {
        const unsigned char *sh = p + shoff + i * shentsize;
        if (u32(sh + 4) != SHT_DYNSYM)
            continue;
        uint64_t offset = u64(sh + 0x18), bytes = u64(sh + 0x20), entsize = u64(sh + 0x38), link = u32(sh + 0x28);
        if (entsize < 24 || link >= shnum || !inside(offset, bytes, size))
            return -1;
        const unsigned char *strings = p + shoff + link * shentsize;
        uint64_t str_offset = u64(strings + 0x18), str_bytes = u64(strings + 0x20);
        if (!inside(str_offset, str_bytes, size))
            return -1;
        char **list = calloc(bytes / entsize + 1, sizeof *list);
        if (!list)
            return -1;
        unsigned n = 0;
        for (uint64_t s = 0; s < bytes / entsize; s++) {
            const unsigned char *sym = p + offset + s * entsize;
            uint32_t name = u32(sym);
            if ((sym[4] & 0xf) != STT_OBJECT || name >= str_bytes)
                continue;
            const char *text = (const char *)p + str_offset + name;
            size_t len = strnlen(text, str_bytes - name);
            if (len <= strlen(suffix) || name + len == str_bytes || strcmp(text + len - strlen(suffix), suffix) != 0)
                continue;
            if (!(list[n] = strndup(text, len - strlen(suffix)))) {
                cassrt_free_names(list, n);
                return -1;
            }
            n++;
        }
        *names = list;
        *count = n;
        return 0;
    }
    return 0;   /* no dynamic symbols: no kernels */
}

void cassrt_free_names(char **names, unsigned count)
{
    for (unsigned i = 0; i < count; i++)
        free(names[i]);
    free(names);
}
