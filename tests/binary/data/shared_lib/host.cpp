// Plain C++ (no CUDA): uses the shared library libsaxpy.so built by cass-nvcc.
#include <cstdio>

extern "C" int saxpy_host(float a, const float *x, float *y, int n);

int main()
{
    const int n = 200;
    float x[n], y[n];
    for (int i = 0; i < n; i++) {
        x[i] = i;
        y[i] = 1.0f;
    }
    int err = saxpy_host(2.0f, x, y, n);
    bool ok = err == 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        ok &= y[i] == 2.0f * i + 1.0f;
        sum += y[i];
    }
    printf("checksum: %.6e\n", sum);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
