// Adds two vectors on the GPU and checks the sum against the CPU.
// Prints "checksum: <sum of c>" and PASS/FAIL; exits 0 only on PASS.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t err_ = (call);                                               \
        if (err_ != cudaSuccess) {                                               \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            return 1;                                                            \
        }                                                                        \
    } while (0)

__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

int main(int argc, char** argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    size_t bytes = n * sizeof(float);
    float* a = (float*)malloc(bytes);
    float* b = (float*)malloc(bytes);
    float* c = (float*)malloc(bytes);
    for (int i = 0; i < n; ++i) {
        a[i] = 0.5f * i;
        b[i] = 2.0f * (n - i);
    }

    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMalloc(&dc, bytes));
    CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));

    int threads = 128;
    int blocks = (n + threads - 1) / threads;
    vector_add<<<blocks, threads>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));

    int bad = 0;
    double checksum = 0.0;
    for (int i = 0; i < n; ++i) {
        if (c[i] != a[i] + b[i]) {
            ++bad;
        }
        checksum += c[i];
    }
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");

    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    free(a);
    free(b);
    free(c);
    return bad ? 1 : 0;
}
