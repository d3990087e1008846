// The CUDA twin of main.hip: run on NVIDIA hardware, its output is the reference the
// emulated AMD run must match.
// One templated kernel (with a functor parameter) instantiated for int, float and double.
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

template <typename T> struct Axpy {
    T a;
    __device__ __host__ T operator()(T x, T y) const { return a * x + y; }
};

template <typename T, typename Op>
__global__ void apply(const T* x, T* y, int n, Op op) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = op(x[i], y[i]);
}

template <typename T>
static int run(T a, double* checksum) {
    const int n = 100;
    T hx[n], hy[n], got[n];
    for (int i = 0; i < n; i++) { hx[i] = (T)(i % 9); hy[i] = (T)(i % 4); }
    T *x, *y;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&y, sizeof hy));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
    Axpy<T> op{a};
    apply<<<2, 64>>>(x, y, n, op);
    CHECK(cudaMemcpy(got, y, sizeof got, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) { bad += got[i] != op(hx[i], hy[i]); *checksum += (double)got[i]; }
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    return bad;
}

int main() {
    double sum = 0;
    int bad = run<int>(3, &sum) + run<float>(0.5f, &sum) + run<double>(-1.25, &sum);
    printf("checksum: %.6e\n", sum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad != 0;
}
