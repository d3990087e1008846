// cuBLAS through cass-cc's libcublas, against a host reference: integer-valued inputs give exact
// results (compared exactly); non-integer fp32 GEMM is compared within 1e-5 relative (summation order
// differs from any other BLAS's; atol 1e-4 covers the cancellation in sums of 40 products of
// magnitude <= 1, k * 2^-24 * 40). Prints one line per check and "ALL OK" when all pass.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cublas_v2.h>

#define CHECK(call) do { int s_ = (int)(call); if (s_) { printf("%s failed: %d\n", #call, s_); return 1; } } while (0)

static int failures = 0;

template <typename T>
static void report(const char *what, const std::vector<T> &got, const std::vector<T> &want, double rtol,
                   double atol = 0)
{
    int bad = 0;
    for (size_t i = 0; i < want.size(); i++) {
        double d = fabs((double)got[i] - (double)want[i]);
        if (rtol == 0 ? got[i] != want[i] : d > rtol * fabs((double)want[i]) + atol) {
            if (bad++ < 3) printf("  %s[%zu]: %.9g, expected %.9g\n", what, i, (double)got[i], (double)want[i]);
        }
    }
    printf("%s: %s\n", what, bad ? "FAILED" : "OK");
    failures += bad != 0;
}

// Column-major reference: C = alpha op(A) op(B) + beta C.
template <typename T>
static void gemm_ref(bool ta, bool tb, int m, int n, int k, T alpha, const std::vector<T> &A, int lda,
                     const std::vector<T> &B, int ldb, T beta, std::vector<T> &C, int ldc)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int l = 0; l < k; l++)
                s += (double)(ta ? A[l + i * lda] : A[i + l * lda]) * (double)(tb ? B[j + l * ldb] : B[l + j * ldb]);
            C[i + j * ldc] = (T)(alpha * s + beta * C[i + j * ldc]);
        }
}

template <typename T>
static T *device(const std::vector<T> &h)
{
    T *d;
    cudaMalloc(&d, h.size() * sizeof(T));
    cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
    return d;
}

template <typename T>
static std::vector<T> host(const T *d, size_t n)
{
    std::vector<T> h(n);
    cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
    return h;
}

template <typename T>
static std::vector<T> integers(size_t n, int seed)
{
    std::vector<T> v(n);
    for (size_t i = 0; i < n; i++) v[i] = (T)((int)((i * 7 + seed * 13) % 11) - 5);
    return v;
}

template <typename T, typename Gemm>
static int gemms(cublasHandle_t h, const char *name, Gemm gemm)
{
    const int m = 5, n = 7, k = 9, lda = 12, ldb = 11, ldc = 8;
    const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T};
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            std::vector<T> A = integers<T>(lda * 12, 1), B = integers<T>(ldb * 12, 2), C = integers<T>(ldc * n, 3);
            T *dA = device(A), *dB = device(B), *dC = device(C);
            T alpha = 2, beta = -1;
            CHECK(gemm(h, ops[a], ops[b], m, n, k, &alpha, dA, lda, dB, ldb, &beta, dC, ldc));
            gemm_ref<T>(a, b, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
            char what[64];
            snprintf(what, sizeof what, "%s %c%c", name, "NT"[a], "NT"[b]);
            report(what, host(dC, C.size()), C, 0);
            cudaFree(dA); cudaFree(dB); cudaFree(dC);
        }
    return 0;
}

int main()
{
    cublasHandle_t h;
    CHECK(cublasCreate(&h));
    int version;
    CHECK(cublasGetVersion(h, &version));
    printf("version %d\n", version);

    // Handle state.
    cudaStream_t stream, got_stream;
    CHECK(cudaStreamCreate(&stream));
    CHECK(cublasSetStream(h, stream));
    CHECK(cublasGetStream(h, &got_stream));
    cublasPointerMode_t pm;
    CHECK(cublasGetPointerMode(h, &pm));
    cublasMath_t mm;
    CHECK(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
    CHECK(cublasGetMathMode(h, &mm));
    printf("stream %s, pointer mode %d, math mode %d\n", got_stream == stream ? "kept" : "lost", (int)pm, (int)mm);
    CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));

    if (gemms<float>(h, "sgemm", cublasSgemm) || gemms<double>(h, "dgemm", cublasDgemm)) return 1;

    // Non-integer fp32 GEMM: a tolerance, as the summation order is ours.
    {
        const int m = 33, n = 17, k = 40;
        std::vector<float> A(m * k), B(k * n), C(m * n, 0.5f);
        for (int i = 0; i < m * k; i++) A[i] = sinf(0.37f * i);
        for (int i = 0; i < k * n; i++) B[i] = cosf(0.11f * i);
        float *dA = device(A), *dB = device(B), *dC = device(C);
        float alpha = 1.25f, beta = 0.5f;
        CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, m, dB, k, &beta, dC, m));
        gemm_ref<float>(false, false, m, n, k, alpha, A, m, B, k, beta, C, m);
        report("sgemm fp32 (rtol 1e-5, atol 1e-4)", host(dC, C.size()), C, 1e-5, 1e-4);
        cudaFree(dA); cudaFree(dB); cudaFree(dC);
    }

    // alpha and beta in device memory; beta = 0 ignores C's NaNs.
    {
        const int m = 4, n = 3, k = 6;
        std::vector<double> A = integers<double>(m * k, 4), B = integers<double>(k * n, 5), C(m * n, NAN);
        double *dA = device(A), *dB = device(B), *dC = device(C);
        double *dScalars = device(std::vector<double>{3.0, 0.0});
        CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
        CHECK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, dScalars, dA, m, dB, k, dScalars + 1, dC, m));
        CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
        std::fill(C.begin(), C.end(), 0.0);
        gemm_ref<double>(false, false, m, n, k, 3.0, A, m, B, k, 0.0, C, m);
        report("dgemm device scalars, beta 0", host(dC, C.size()), C, 0);
    }

    // Strided batched and GemmEx.
    {
        const int m = 3, n = 4, k = 5, batches = 3, sa = 20, sb = 24, sc = 13;
        std::vector<float> A = integers<float>(sa * batches, 6), B = integers<float>(sb * batches, 7),
                           C = integers<float>(sc * batches, 8);
        float *dA = device(A), *dB = device(B), *dC = device(C);
        float alpha = 1, beta = 2;
        CHECK(cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, dA, k, sa, dB, k, sb, &beta,
                                        dC, m, sc, batches));
        for (int b = 0; b < batches; b++) {
            std::vector<float> Ab(A.begin() + b * sa, A.begin() + (b + 1) * sa);
            std::vector<float> Bb(B.begin() + b * sb, B.begin() + (b + 1) * sb);
            std::vector<float> Cb(C.begin() + b * sc, C.begin() + (b + 1) * sc);
            gemm_ref<float>(true, false, m, n, k, alpha, Ab, k, Bb, k, beta, Cb, m);
            std::copy(Cb.begin(), Cb.end(), C.begin() + b * sc);
        }
        report("sgemm strided batched", host(dC, C.size()), C, 0);
        std::vector<double> dAh = integers<double>(m * k, 9), dBh = integers<double>(k * n, 10), dCh(m * n, 0.0);
        double *eA = device(dAh), *eB = device(dBh), *eC = device(dCh);
        double one = 1, zero = 0;
        CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, eA, CUDA_R_64F, m, eB, CUDA_R_64F, k, &zero,
                           eC, CUDA_R_64F, m, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT));
        gemm_ref<double>(false, false, m, n, k, 1.0, dAh, m, dBh, k, 0.0, dCh, m);
        report("gemmex double", host(eC, dCh.size()), dCh, 0);
    }

    // gemv, both transposes, strided x.
    for (int t = 0; t < 2; t++) {
        const int m = 6, n = 4, lda = 7, incx = 2;
        int rows = t ? n : m, cols = t ? m : n;
        std::vector<float> A = integers<float>(lda * n, 11), x = integers<float>(cols * incx, 12),
                           y = integers<float>(rows, 13);
        float *dA = device(A), *dx = device(x), *dy = device(y);
        float alpha = 3, beta = 1;
        CHECK(cublasSgemv(h, t ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, &alpha, dA, lda, dx, incx, &beta, dy, 1));
        for (int i = 0; i < rows; i++) {
            float s = 0;
            for (int l = 0; l < cols; l++) s += (t ? A[l + i * lda] : A[i + l * lda]) * x[l * incx];
            y[i] = alpha * s + beta * y[i];
        }
        report(t ? "sgemv T" : "sgemv N", host(dy, y.size()), y, 0);
    }

    // Level 1 on doubles.
    {
        const int n = 300;
        std::vector<double> x = integers<double>(n, 14), y = integers<double>(n, 15);
        double *dx = device(x), *dy = device(y);
        double alpha = -2, dot, nrm, asum;
        int imax, imin;
        CHECK(cublasDaxpy(h, n, &alpha, dx, 1, dy, 1));
        for (int i = 0; i < n; i++) y[i] += alpha * x[i];
        report("daxpy", host(dy, n), y, 0);
        CHECK(cublasDdot(h, n, dx, 1, dy, 1, &dot));
        double want_dot = 0, want_sq = 0, want_asum = 0;
        for (int i = 0; i < n; i++) want_dot += x[i] * y[i], want_sq += x[i] * x[i], want_asum += fabs(x[i]);
        CHECK(cublasDnrm2(h, n, dx, 1, &nrm));
        CHECK(cublasDasum(h, n, dx, 1, &asum));
        report("ddot nrm2 asum", std::vector<double>{dot, nrm * nrm, asum},
               std::vector<double>{want_dot, want_sq, want_asum}, 1e-12);
        x[123] = 9; x[200] = -9; x[7] = 0.5;
        double *dz = device(x);
        CHECK(cublasIdamax(h, n, dz, 1, &imax));
        CHECK(cublasIdamin(h, n, dz, 1, &imin));
        int want_min = 0;   // the first of smallest magnitude, 1-based
        for (int i = 1; i < n; i++) if (fabs(x[i]) < fabs(x[want_min])) want_min = i;
        report("idamax idamin", std::vector<int>{imax, imin}, std::vector<int>{124, want_min + 1}, 0);
        double half = 0.5;
        CHECK(cublasDscal(h, n, &half, dx, 1));
        CHECK(cublasDswap(h, n, dx, 1, dy, 1));
        CHECK(cublasDcopy(h, n / 2, dx, 2, dz, 1));
        std::vector<double> want_z(x), half_x(n);
        for (int i = 0; i < n; i++) half_x[i] = integers<double>(n, 14)[i] * 0.5;
        for (int i = 0; i < n / 2; i++) want_z[i] = y[2 * i];
        report("dscal dswap dcopy", host(dz, n), want_z, 0);
        report("dswap other side", host(dy, n), half_x, 0);
    }

    // Set/Get vector and matrix with strides and leading dimensions.
    {
        std::vector<float> hv = integers<float>(20, 16), back(20, 0);
        float *dv;
        CHECK(cudaMalloc(&dv, 40 * sizeof(float)));
        CHECK(cublasSetVector(10, sizeof(float), hv.data(), 2, dv, 3));
        CHECK(cublasGetVector(10, sizeof(float), dv, 3, back.data(), 2));
        std::vector<float> want(20, 0);
        for (int i = 0; i < 10; i++) want[2 * i] = hv[2 * i];
        report("set/get vector", back, want, 0);
        std::vector<float> hm = integers<float>(5 * 4, 17), hb(6 * 4, 0);
        CHECK(cublasSetMatrixAsync(3, 4, sizeof(float), hm.data(), 5, dv, 3, stream));
        CHECK(cublasGetMatrixAsync(3, 4, sizeof(float), dv, 3, hb.data(), 6, stream));
        CHECK(cudaStreamSynchronize(stream));
        std::vector<float> wm(6 * 4, 0);
        for (int j = 0; j < 4; j++) for (int i = 0; i < 3; i++) wm[i + 6 * j] = hm[i + 5 * j];
        report("set/get matrix", hb, wm, 0);
    }

    CHECK(cublasDestroy(h));
    printf(failures ? "FAILED\n" : "ALL OK\n");
    return failures != 0;
}
