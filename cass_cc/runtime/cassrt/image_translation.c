/* NVIDIA device code that reaches the library at run time, as an AMD code object.
 *
 * A program built by NVIDIA's tools hands the driver a fatbin (or the wrapper nvcc puts around
 * one), a cubin or PTX text. Each image is translated whole, once: its key is the SHA-256 of
 * "cass-image-v1\0" <translator version> "\0" <offload arch> "\0" <image bytes> (the layout
 * cass_cc/images.py's image_key uses), and the code object lives in
 * <cache root>/images/<key>.hsaco. A hit costs a hash and a file read; a miss runs the translator
 * (`cass-cc translate-image`, in the Python installation the library was built by), which fills
 * the cache or says on stderr why it cannot. An AMD code object is used as it is.
 *
 * What goes wrong is said on stderr and kept in a log for the program's JIT log buffers
 * (driver_module.c); CASS_IMAGE_STATS_FILE gets one line per image, for `cass-cc bench`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cassrt.h"

extern char **environ;

/* The CUresult codes this file returns (it sees neither CUDA's headers nor HIP's). */
enum { SUCCESS = 0, OUT_OF_MEMORY = 2, INVALID_IMAGE = 200, NO_BINARY_FOR_GPU = 209,
       INVALID_PTX = 218 };

#define FATBIN_WRAPPER_MAGIC 0x466243b1u
#define FATBIN_MAGIC 0xba55ed50u
#define EM_CUDA 190
#define EM_AMDGPU 224
#define TRANSLATOR_EXIT_INVALID_IMAGE 4

/* --- SHA-256 (FIPS 180-4) ----------------------------------------------------------------- */

struct sha256 { uint32_t h[8]; unsigned char block[64]; size_t used; uint64_t bytes; };

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void sha256_block(struct sha256 *s, const unsigned char *p)
{
    uint32_t w[64], v[8];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    memcpy(v, s->h, sizeof v);
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) + K[i] + w[i];
        uint32_t t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
        memmove(v + 1, v, 7 * sizeof v[0]);
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++)
        s->h[i] += v[i];
}

static void sha256_init(struct sha256 *s)
{
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, h0, sizeof h0);
    s->used = 0;
    s->bytes = 0;
}

static void sha256_update(struct sha256 *s, const void *data, size_t n)
{
    const unsigned char *p = data;
    s->bytes += n;
    while (n) {
        size_t take = 64 - s->used < n ? 64 - s->used : n;
        memcpy(s->block + s->used, p, take);
        s->used += take;
        p += take;
        n -= take;
        if (s->used == 64) {
            sha256_block(s, s->block);
            s->used = 0;
        }
    }
}

static void sha256_hex(struct sha256 *s, char out[65])
{
    uint64_t bits = s->bytes * 8;
    unsigned char pad = 0x80, len[8];
    sha256_update(s, &pad, 1);
    pad = 0;
    while (s->used != 56)
        sha256_update(s, &pad, 1);
    for (int i = 0; i < 8; i++)
        len[i] = (unsigned char)(bits >> (56 - 8 * i));
    sha256_update(s, len, 8);
    for (int i = 0; i < 8; i++)
        snprintf(out + 8 * i, 9, "%08x", s->h[i]);
}

/* --- what an image is, and how long ----------------------------------------------------------- */

static uint16_t u16(const unsigned char *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t u32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t u64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* Text added to the end of a log array, cut at its size. */
static void append(char *buffer, size_t size, const char *text, size_t n)
{
    size_t used = strnlen(buffer, size);
    if (used + 1 >= size)
        return;
    if (n > size - used - 1)
        n = size - used - 1;
    memcpy(buffer + used, text, n);
    buffer[used + n] = '\0';
}

/* Why an image cannot be loaded: on stderr (once per text) and in the log (each time). */
static void report(struct cassrt_image_log *log, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void report(struct cassrt_image_log *log, const char *format, ...)
{
    char text[8192];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    cassrt_note_once(text);
    if (log) {
        append(log->error, sizeof log->error, "libcassrt: ", 11);
        append(log->error, sizeof log->error, text, strlen(text));
        append(log->error, sizeof log->error, "\n", 1);
    }
}

/* An ELF image's extent: its headers and every section's contents. With `file_size` (a file
 * loaded by name) every part must lie inside it, or the file is truncated. */
static int elf_extent(const unsigned char *p, size_t file_size, size_t *size)
{
    if (file_size && file_size < 64)
        return INVALID_IMAGE;
    if (p[4] != 2) /* ELFCLASS64: nvcc and the AMD tools write nothing else */
        return INVALID_IMAGE;
    uint64_t shoff = u64(p + 0x28), phoff = u64(p + 0x20);
    uint64_t shnum = u16(p + 0x3c), shentsize = u16(p + 0x3a), phnum = u16(p + 0x38), phentsize = u16(p + 0x36);
    if ((shnum && shentsize < 64) || shoff > (1ull << 40) || phoff > (1ull << 40))
        return INVALID_IMAGE;
    uint64_t end = 64;
    if (shoff + shnum * shentsize > end)
        end = shoff + shnum * shentsize;
    if (phoff + phnum * phentsize > end)
        end = phoff + phnum * phentsize;
    if (file_size && end > file_size)
        return INVALID_IMAGE;
    for (uint64_t i = 0; i < shnum; i++) {
        const unsigned char *sh = p + shoff + i * shentsize;
        uint32_t type = u32(sh + 4);
        uint64_t offset = u64(sh + 0x18), bytes = u64(sh + 0x20);
        if (type != 8 /* SHT_NOBITS */ && offset + bytes > end) {
            if (offset > (1ull << 40) || bytes > (1ull << 40))
                return INVALID_IMAGE;
            end = offset + bytes;
        }
    }
    if (file_size && end > file_size)
        return INVALID_IMAGE;
    *size = file_size ? file_size : (size_t)end;
    return SUCCESS;
}

enum kind { FATBIN, CUBIN, PTX, AMD_CODE_OBJECT };
static const char *const KIND_NAMES[] = {"fatbin", "cubin", "PTX", "AMD code object"};

/* The image's start, kind and size; INVALID_IMAGE (with a note) for anything else. */
static int classify(const void *image, size_t file_size, const unsigned char **start, enum kind *kind,
                    size_t *size, struct cassrt_image_log *log)
{
    const unsigned char *p = image;
    if (!p)
        return INVALID_IMAGE;
    if (!file_size && u32(p) == FATBIN_WRAPPER_MAGIC) {  /* only in memory: it holds a pointer */
        const unsigned char *data;
        memcpy(&data, p + 8, sizeof data);
        if (!data) {
            report(log, "a fatbin wrapper without a fatbin");
            return INVALID_IMAGE;
        }
        p = data;
    }
    *start = p;
    if ((!file_size || file_size >= 16) && u32(p) == FATBIN_MAGIC) {
        uint64_t total = u16(p + 6) + u64(p + 8);
        if (u16(p + 6) < 16 || (file_size && total > file_size) || total > (1ull << 34)) {
            report(log, "a fatbin whose header gives a size it does not have (truncated or corrupt)");
            return INVALID_IMAGE;
        }
        *kind = FATBIN;
        *size = (size_t)total;
        return SUCCESS;
    }
    if ((!file_size || file_size >= 20) && memcmp(p, "\177ELF", 4) == 0) {
        uint16_t machine = u16(p + 18);
        if (machine != EM_CUDA && machine != EM_AMDGPU) {
            report(log, "an ELF image that is neither a cubin nor an AMD code object");
            return INVALID_IMAGE;
        }
        if (elf_extent(p, file_size, size) != SUCCESS) {
            report(log, "%s", machine == EM_CUDA ? "a cubin whose headers point past its end (truncated or corrupt)"
                                                 : "an AMD code object whose headers point past its end");
            return INVALID_IMAGE;
        }
        *kind = machine == EM_CUDA ? CUBIN : AMD_CODE_OBJECT;
        return SUCCESS;
    }
    size_t n = file_size ? strnlen((const char *)p, file_size) : strlen((const char *)p);
    if (n && memmem(p, n, ".version", 8)) {
        *kind = PTX;
        *size = n;
        return SUCCESS;
    }
    report(log, "an image that is not a fatbin, a cubin or PTX text (its first bytes match none of them)");
    return INVALID_IMAGE;
}

/* --- the cache and the translator ----------------------------------------------------------- */

/* <cache root>/images, as cass_cc.toolchain.cache_root() finds the root. */
static int images_dir(char *out, size_t n)
{
    const char *root = getenv("CASS_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int w;
    if (root && *root)
        w = snprintf(out, n, "%s/images", root);
    else if (xdg && *xdg)
        w = snprintf(out, n, "%s/cass-cc/images", xdg);
    else if (home && *home)
        w = snprintf(out, n, "%s/.cache/cass-cc/images", home);
    else
        return -1;
    return w > 0 && (size_t)w < n ? 0 : -1;
}

static int make_dirs(char *path)
{
    for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        int bad = mkdir(path, 0777) != 0 && errno != EEXIST;
        *slash = '/';
        if (bad)
            return -1;
    }
    return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

static int read_file(const char *path, void **data, size_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    unsigned char *buf = NULL;
    size_t done = 0;
    if (fstat(fd, &st) == 0 && st.st_size > 0 && (buf = malloc((size_t)st.st_size))) {
        while (done < (size_t)st.st_size) {
            ssize_t got = read(fd, buf + done, (size_t)st.st_size - done);
            if (got <= 0)
                break;
            done += (size_t)got;
        }
    }
    close(fd);
    if (!buf || done != (size_t)st.st_size) {
        free(buf);
        return -1;
    }
    *data = buf;
    *size = done;
    return 0;
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t put = write(fd, p, n);
        if (put <= 0)
            return -1;
        p += put;
        n -= (size_t)put;
    }
    return 0;
}

/* The environment without LD_PRELOAD: cass-run may preload the emulated HIP runtime into the
 * program, and the translator is a plain Python process. */
static char **translator_environment(void)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 1, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
            env[k++] = environ[i];
    return env;
}

/* Runs `cass-cc translate-image FILE --cass-offload-arch ARCH --name NAME`; its exit status, or -1
 * when it could not run or was killed. Its stdout goes to /dev/null (the program's own output stays
 * clean); what it says on stderr is passed on to the program's stderr as it comes, so a refusal
 * is read where the program's errors are, and kept in the log. */
static int run_translator(const char *image_file, const char *name, const char *offload_arch,
                          struct cassrt_image_log *log)
{
    static const char start[] = "import sys; sys.path.insert(0, sys.argv.pop(1)); "
                                "from cass_cc.cli import main; sys.exit(main(sys.argv[1:]))";
    char *argv[] = {(char *)CASS_PYTHON, "-c", (char *)start, (char *)CASS_PACKAGE_ROOT,
                    "translate-image", (char *)image_file, "--cass-offload-arch",
                    (char *)offload_arch, "--name", (char *)name, NULL};
    posix_spawn_file_actions_t actions;
    char **env = translator_environment();
    int err[2];
    pid_t pid;
    int status = -1;
    if (!env || pipe2(err, O_CLOEXEC) != 0) {
        free(env);
        return -1;
    }
    if (posix_spawn_file_actions_init(&actions) != 0) {
        free(env);
        close(err[0]);
        close(err[1]);
        return -1;
    }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    int e = posix_spawn(&pid, CASS_PYTHON, &actions, NULL, argv, env);
    posix_spawn_file_actions_destroy(&actions);
    free(env);
    close(err[1]);
    if (e != 0) {
        close(err[0]);
        report(log, "cannot start the translator %s: %s", CASS_PYTHON, strerror(e));
        return -1;
    }
    char chunk[4096];
    for (;;) {
        ssize_t got = read(err[0], chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        (void)write_all(2, (const unsigned char *)chunk, (size_t)got);
        if (log)
            append(log->error, sizeof log->error, chunk, (size_t)got);
    }
    close(err[0]);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int translate_missing(const unsigned char *image, size_t size, enum kind kind, const char *dir,
                             const char *cached, const char *offload_arch, struct cassrt_image_log *log)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s/.image-XXXXXX", dir);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        report(log, "cannot write into the image cache %s: %s", dir, strerror(errno));
        return NO_BINARY_FOR_GPU;
    }
    char name[64];
    snprintf(name, sizeof name, "the program's %s (%zu bytes)", KIND_NAMES[kind], size);
    int bad = write_all(fd, image, size);
    bad |= close(fd);
    int status = bad ? -1 : run_translator(tmp, name, offload_arch, log);
    unlink(tmp);
    if (bad) {
        report(log, "cannot write into the image cache %s", dir);
        return NO_BINARY_FOR_GPU;
    }
    if (status == TRANSLATOR_EXIT_INVALID_IMAGE)
        return kind == PTX ? INVALID_PTX : INVALID_IMAGE;
    if (status != 0) {
        report(log, "NVIDIA device code could not be translated (the translator's message is above)");
        return NO_BINARY_FOR_GPU;
    }
    if (access(cached, R_OK) != 0) {
        report(log, "the translator did not write %s", cached);
        return NO_BINARY_FOR_GPU;
    }
    return SUCCESS;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One JSON line per image in $CASS_IMAGE_STATS_FILE (appended whole: O_APPEND, one write). */
static void record_stats(enum kind kind, size_t bytes, int cached, int result, double seconds)
{
    const char *path = getenv("CASS_IMAGE_STATS_FILE");
    if (!path || !*path)
        return;
    char line[256];
    int n = snprintf(line, sizeof line, "{\"kind\": \"%s\", \"bytes\": %zu, \"cached\": %s, \"result\": %d, "
                     "\"seconds\": %.6f}\n", KIND_NAMES[kind], bytes, cached ? "true" : "false", result, seconds);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
        (void)write_all(fd, (const unsigned char *)line, (size_t)n);
        close(fd);
    }
}

static int lookup_or_translate(const unsigned char *start, size_t n, enum kind kind, const char *offload_arch,
                               void **code_object, size_t *size, int *cached, struct cassrt_image_log *log)
{
    static const char prefix[] = "cass-image-v1";
    struct sha256 h;
    char key[65], dir[4096], path[4200];
    sha256_init(&h);
    sha256_update(&h, prefix, sizeof prefix);  /* with its NUL */
    sha256_update(&h, CASS_TRANSLATOR_VERSION, sizeof CASS_TRANSLATOR_VERSION);
    sha256_update(&h, offload_arch, strlen(offload_arch) + 1);
    sha256_update(&h, start, n);
    sha256_hex(&h, key);
    if (images_dir(dir, sizeof dir) != 0 || make_dirs(dir) != 0) {
        report(log, "no image cache folder (set CASS_CACHE_DIR): %s", dir);
        return NO_BINARY_FOR_GPU;
    }
    snprintf(path, sizeof path, "%s/%s.hsaco", dir, key);
    int e;
    *cached = access(path, R_OK) == 0;
    if (!*cached && (e = translate_missing(start, n, kind, dir, path, offload_arch, log)) != SUCCESS)
        return e;
    if (read_file(path, code_object, size) != 0) {
        report(log, "cannot read the translated image %s", path);
        return NO_BINARY_FOR_GPU;
    }
    if (log)
        snprintf(log->info, sizeof log->info, "libcassrt: %s image of %zu bytes %s for %.64s: %.800s\n",
                 KIND_NAMES[kind], n, *cached ? "found in the image cache" : "translated by cass-cc",
                 offload_arch, path);
    return SUCCESS;
}

int cassrt_translate_image(const void *image, size_t file_size, const char *offload_arch,
                           void **code_object, size_t *size, struct cassrt_image_log *log)
{
    const unsigned char *start;
    enum kind kind;
    size_t n;
    double began = now();
    int cached = 1;
    if (log) {
        log->error[0] = log->info[0] = '\0';
        log->seconds = 0;
    }
    int e = classify(image, file_size, &start, &kind, &n, log);
    if (e != SUCCESS)
        return e;
    if (kind == AMD_CODE_OBJECT) {
        if (!(*code_object = malloc(n)))
            return OUT_OF_MEMORY;
        memcpy(*code_object, start, n);
        *size = n;
        if (log)
            snprintf(log->info, sizeof log->info, "libcassrt: an AMD code object of %zu bytes, loaded as it is\n", n);
    } else {
        e = lookup_or_translate(start, n, kind, offload_arch, code_object, size, &cached, log);
    }
    double seconds = now() - began;
    if (log)
        log->seconds = seconds;
    record_stats(kind, n, cached, e, seconds);
    return e;
}
