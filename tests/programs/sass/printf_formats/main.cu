// SASS family: device printf (CALL.ABS.NOINC to vprintf with the arguments packed in the local
// frame). One thread prints, so the order is deterministic: integers of every width and sign,
// hex/octal/char, floats and doubles in %f/%e/%g with widths and precisions, strings, %%.
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void kernel(const int *in, const double *d, int *out)
{
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    int a = in[0], b = in[1];
    long long big = (long long)a * 1000003ll * b;
    unsigned u = (unsigned)b * 2654435761u;
    float f = (float)a / 7.0f;
    double x = d[0], y = d[1];
    printf("ints: %d %i %u %5d|%-5d|%05d\n", a, b, u, a % 1000, b % 100, a % 77);
    printf("long: %lld %llu %ld\n", big, (unsigned long long)big ^ 0xFFFF, (long)(b - a));
    printf("hex: %x %X %#x %o %c%c\n", u, a, b & 0xFFF, a & 0777, 'A' + (a & 7), 'z');
    printf("float: %f %.3f %e %g %10.4f\n", f, f * 100.0f, f * 1e10f, f / 1000.0f, -f);
    printf("double: %.12f %.15e %g %G\n", x, y, x * y, 1.0 / x);
    printf("mixed: %d %.2f %lld %.5e %% done\n", a + b, (double)f, big >> 3, y);
    const char *names[3] = {"alpha", "be", "gamma-delta"};
    printf("strings: [%s] [%8s] [%-6s|] %d\n", names[a & 1], names[1], names[(b & 1) + 1], a & 3);
    for (int k = 0; k < 3; k++) printf("loop %d: %d\n", k, in[k] * (k + 1));
    out[0] = a + b;
}

int main()
{
    int in[3] = {123457, -98765, 42};
    double d[2] = {3.14159265358979, -2.718281828459045e-5};
    int *d_in, *d_out; double *d_d;
    CHECK(cudaMalloc(&d_in, sizeof in));
    CHECK(cudaMalloc(&d_d, sizeof d));
    CHECK(cudaMalloc(&d_out, 4));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_d, d, sizeof d, cudaMemcpyHostToDevice));
    kernel<<<2, 32>>>(d_in, d_d, d_out);
    CHECK(cudaDeviceSynchronize());
    int out = 0;
    CHECK(cudaMemcpy(&out, d_out, 4, cudaMemcpyDeviceToHost));
    printf("checksum: %d\n", out);
    bool ok = out == in[0] + in[1];
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
