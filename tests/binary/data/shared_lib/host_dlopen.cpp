// Loads libsaxpy.so (built by cass-nvcc) with dlopen, uses it, unloads it, and does it again:
// the second load registers its kernels afresh.
#include <cstdio>
#include <dlfcn.h>

typedef int (*saxpy_fn)(float, const float *, float *, int);

static bool round_trip(const char *path, float a, double *sum)
{
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("dlopen: %s\n", dlerror());
        return false;
    }
    saxpy_fn saxpy = (saxpy_fn)dlsym(lib, "saxpy_host");
    const int n = 100;
    float x[n], y[n];
    for (int i = 0; i < n; i++) {
        x[i] = i;
        y[i] = 1.0f;
    }
    bool ok = saxpy && saxpy(a, x, y, n) == 0;
    for (int i = 0; i < n; i++) {
        ok &= y[i] == a * i + 1.0f;
        *sum += y[i];
    }
    dlclose(lib);
    return ok;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "./libsaxpy.so";
    double sum = 0;
    bool ok = round_trip(path, 2.0f, &sum) && round_trip(path, 3.0f, &sum);
    printf("checksum: %.6e\n", sum);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
