// libcublas.so.13 for AMD GPUs: the common part of cuBLAS's API (cublas_v2.h), built by cass-nvcc's
// binary route like any program's kernels. Straightforward kernels (one thread per output element,
// one block per reduction), so fp32/fp64 results match a host reference up to summation order,
// exactly where inputs are integers. Functions of the header that are not defined here are made at
// build time from the header (build.py): they print their name once and fail.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

// cublas_v2.h declares the API __host__ __device__ (for the device-side cuBLAS of old CUDA); the
// definitions here are host code, never called from a kernel, so their calls to host functions
// are what they should be.
#pragma nv_diag_suppress 20011

struct cublasContext {
    cudaStream_t stream;
    cublasPointerMode_t pointer_mode;
    cublasMath_t math_mode;
};

// A scalar argument: its value, or where it is in device memory (CUBLAS_POINTER_MODE_DEVICE).
template <typename T> struct Scalar {
    T value;
    const T *device;
    __device__ T get() const { return device ? *device : value; }
};

template <typename T>
static Scalar<T> scalar(cublasHandle_t h, const T *p)
{
    Scalar<T> s = {T(0), nullptr};
    if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE) s.device = p; else s.value = *p;
    return s;
}

static cublasStatus_t launched(void)
{
    return cudaGetLastError() == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

// Element i of a strided vector; BLAS walks a vector with a negative increment from its end.
__host__ __device__ static inline long long at(long long i, int n, int inc)
{
    return inc >= 0 ? i * inc : (long long)(n - 1 - i) * -inc;
}

static unsigned blocks_for(long long n, unsigned threads)
{
    return (unsigned)((n + threads - 1) / threads);
}

// ---- Level 3: C = alpha op(A) op(B) + beta C, column-major, one thread per element of C --------

template <typename T>
__global__ void gemm_kernel(bool ta, bool tb, int m, int n, int k, Scalar<T> alpha, const T *A, int lda,
                            long long sa, const T *B, int ldb, long long sb, Scalar<T> beta, T *C, int ldc,
                            long long sc)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y;
    if (i >= m) return;
    A += blockIdx.z * sa; B += blockIdx.z * sb; C += blockIdx.z * sc;
    T sum = 0;
    for (int l = 0; l < k; l++) {
        T a = ta ? A[l + (long long)i * lda] : A[i + (long long)l * lda];
        T b = tb ? B[j + (long long)l * ldb] : B[l + (long long)j * ldb];
        sum += a * b;
    }
    T bv = beta.get();
    T *c = &C[i + (long long)j * ldc];
    // beta = 0: C is not read (it may hold NaN), as BLAS says.
    *c = bv == T(0) ? alpha.get() * sum : alpha.get() * sum + bv * *c;
}

template <typename T>
static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                           const T *alpha, const T *A, int lda, long long sa, const T *B, int ldb, long long sb,
                           const T *beta, T *C, int ldc, long long sc, int batches)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    bool at_ = ta != CUBLAS_OP_N, bt = tb != CUBLAS_OP_N;
    if (m < 0 || n < 0 || k < 0 || batches < 0 || ldc < (m > 1 ? m : 1) ||
        lda < ((at_ ? k : m) > 1 ? (at_ ? k : m) : 1) || ldb < ((bt ? n : k) > 1 ? (bt ? n : k) : 1))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0 || batches == 0) return CUBLAS_STATUS_SUCCESS;
    dim3 grid(blocks_for(m, 128), n, batches);
    gemm_kernel<T><<<grid, 128, 0, h->stream>>>(at_, bt, m, n, k, scalar(h, alpha), A, lda, sa, B, ldb, sb,
                                                  scalar(h, beta), C, ldc, sc);
    return launched();
}

// ---- Level 2: y = alpha op(A) x + beta y ---------------------------------------------------------

template <typename T>
__global__ void gemv_kernel(bool t, int m, int n, Scalar<T> alpha, const T *A, int lda, const T *x, int incx,
                            Scalar<T> beta, T *y, int incy)
{
    int rows = t ? n : m, cols = t ? m : n;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows) return;
    T sum = 0;
    for (int l = 0; l < cols; l++) {
        T a = t ? A[l + (long long)i * lda] : A[i + (long long)l * lda];
        sum += a * x[at(l, cols, incx)];
    }
    T bv = beta.get();
    T *out = &y[at(i, rows, incy)];
    *out = bv == T(0) ? alpha.get() * sum : alpha.get() * sum + bv * *out;
}

template <typename T>
static cublasStatus_t gemv(cublasHandle_t h, cublasOperation_t trans, int m, int n, const T *alpha, const T *A,
                           int lda, const T *x, int incx, const T *beta, T *y, int incy)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx == 0 || incy == 0) return CUBLAS_STATUS_INVALID_VALUE;
    bool t = trans != CUBLAS_OP_N;
    int rows = t ? n : m;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    gemv_kernel<T><<<blocks_for(rows, 128), 128, 0, h->stream>>>(t, m, n, scalar(h, alpha), A, lda, x, incx,
                                                                scalar(h, beta), y, incy);
    return launched();
}

// ---- Level 1 --------------------------------------------------------------------------------

template <typename T>
__global__ void axpy_kernel(int n, Scalar<T> alpha, const T *x, int incx, T *y, int incy)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[at(i, n, incy)] += alpha.get() * x[at(i, n, incx)];
}

template <typename T>
__global__ void scal_kernel(int n, Scalar<T> alpha, T *x, int incx)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[(long long)i * incx] *= alpha.get();
}

template <typename T>
__global__ void copy_kernel(int n, const T *x, int incx, T *y, int incy)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[at(i, n, incy)] = x[at(i, n, incx)];
}

template <typename T>
__global__ void swap_kernel(int n, T *x, int incx, T *y, int incy)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        T t = x[at(i, n, incx)];
        x[at(i, n, incx)] = y[at(i, n, incy)];
        y[at(i, n, incy)] = t;
    }
}

// Reductions: one block of REDUCE_THREADS, each thread a strided partial, then a tree in shared memory.
#define REDUCE_THREADS 256
enum Reduction { DOT, NRM2, ASUM };

template <typename T, Reduction r>
__global__ void reduce_kernel(int n, const T *x, int incx, const T *y, int incy, T *result)
{
    __shared__ T part[REDUCE_THREADS];
    T sum = 0;
    for (int i = threadIdx.x; i < n; i += REDUCE_THREADS) {
        T v = x[at(i, n, incx)];
        if (r == DOT) sum += v * y[at(i, n, incy)];
        else if (r == NRM2) sum += v * v;
        else sum += v < T(0) ? -v : v;
    }
    part[threadIdx.x] = sum;
    __syncthreads();
    for (int s = REDUCE_THREADS / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) *result = r == NRM2 ? sqrt(part[0]) : part[0];
}

// iamax/iamin: the 1-based index of the first element of largest (smallest) magnitude.
template <typename T, bool largest>
__global__ void iamax_kernel(int n, const T *x, int incx, int *result)
{
    __shared__ T best[REDUCE_THREADS];
    __shared__ int where[REDUCE_THREADS];
    T b = 0;
    int w = -1;
    for (int i = threadIdx.x; i < n; i += REDUCE_THREADS) {
        T v = x[(long long)i * incx];
        v = v < T(0) ? -v : v;
        if (w < 0 || (largest ? v > b : v < b)) { b = v; w = i; }
    }
    best[threadIdx.x] = b;
    where[threadIdx.x] = w;
    __syncthreads();
    for (int s = REDUCE_THREADS / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            T ob = best[threadIdx.x + s];
            int ow = where[threadIdx.x + s];
            int mw = where[threadIdx.x];
            bool better = ow >= 0 && (mw < 0 || (largest ? ob > best[threadIdx.x] : ob < best[threadIdx.x]) ||
                                      (ob == best[threadIdx.x] && ow < mw));
            if (better) { best[threadIdx.x] = ob; where[threadIdx.x] = ow; }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) *result = where[0] + 1;
}

// A result for the host (CUBLAS_POINTER_MODE_HOST: the call waits for it) or device memory.
template <typename R>
static cublasStatus_t deliver(cublasHandle_t h, R *device_result, R *result)
{
    cublasStatus_t s = launched();
    if (h->pointer_mode == CUBLAS_POINTER_MODE_HOST) {
        if (s == CUBLAS_STATUS_SUCCESS &&
            (cudaMemcpyAsync(result, device_result, sizeof(R), cudaMemcpyDeviceToHost, h->stream) != cudaSuccess ||
             cudaStreamSynchronize(h->stream) != cudaSuccess))
            s = CUBLAS_STATUS_EXECUTION_FAILED;
        cudaFree(device_result);
    }
    return s;
}

template <typename R>
static cublasStatus_t result_slot(cublasHandle_t h, R *result, R **slot)
{
    if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE) { *slot = result; return CUBLAS_STATUS_SUCCESS; }
    return cudaMalloc((void **)slot, sizeof(R)) == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

template <typename T, Reduction r>
static cublasStatus_t reduce(cublasHandle_t h, int n, const T *x, int incx, const T *y, int incy, T *result)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    T *slot;
    cublasStatus_t s = result_slot(h, result, &slot);
    if (s != CUBLAS_STATUS_SUCCESS) return s;
    // nrm2/asum of n <= 0 or incx <= 0 is 0, as BLAS says (the loop does not run).
    if (r != DOT && incx <= 0) n = 0;
    reduce_kernel<T, r><<<1, REDUCE_THREADS, 0, h->stream>>>(n < 0 ? 0 : n, x, incx, y, incy, slot);
    return deliver(h, slot, result);
}

template <typename T, bool largest>
static cublasStatus_t iamax(cublasHandle_t h, int n, const T *x, int incx, int *result)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    int *slot;
    cublasStatus_t s = result_slot(h, result, &slot);
    if (s != CUBLAS_STATUS_SUCCESS) return s;
    iamax_kernel<T, largest><<<1, REDUCE_THREADS, 0, h->stream>>>(incx <= 0 || n < 0 ? 0 : n, x, incx, slot);
    return deliver(h, slot, result);
}

template <typename T>
static cublasStatus_t axpy(cublasHandle_t h, int n, const T *alpha, const T *x, int incx, T *y, int incy)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    axpy_kernel<T><<<blocks_for(n, 256), 256, 0, h->stream>>>(n, scalar(h, alpha), x, incx, y, incy);
    return launched();
}

template <typename T>
static cublasStatus_t scal(cublasHandle_t h, int n, const T *alpha, T *x, int incx)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0 || incx <= 0) return CUBLAS_STATUS_SUCCESS;
    scal_kernel<T><<<blocks_for(n, 256), 256, 0, h->stream>>>(n, scalar(h, alpha), x, incx);
    return launched();
}

template <typename T>
static cublasStatus_t copy(cublasHandle_t h, int n, const T *x, int incx, T *y, int incy)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    copy_kernel<T><<<blocks_for(n, 256), 256, 0, h->stream>>>(n, x, incx, y, incy);
    return launched();
}

template <typename T>
static cublasStatus_t swap(cublasHandle_t h, int n, T *x, int incx, T *y, int incy)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    swap_kernel<T><<<blocks_for(n, 256), 256, 0, h->stream>>>(n, x, incx, y, incy);
    return launched();
}

// Strided host/device copies of vectors and column-major matrices.
static cublasStatus_t copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t rows,
                             cudaMemcpyKind kind, cudaStream_t stream, bool async)
{
    cudaError_t e = async ? cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, rows, kind, stream)
                          : cudaMemcpy2D(dst, dpitch, src, spitch, width, rows, kind);
    return e == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_MAPPING_ERROR;
}

static cublasStatus_t vector(int n, int elem, const void *x, int incx, void *y, int incy, cudaMemcpyKind kind,
                             cudaStream_t stream, bool async)
{
    if (n < 0 || elem <= 0 || incx <= 0 || incy <= 0) return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0) return CUBLAS_STATUS_SUCCESS;
    return copy2d(y, (size_t)incy * elem, x, (size_t)incx * elem, elem, n, kind, stream, async);
}

static cublasStatus_t matrix(int rows, int cols, int elem, const void *A, int lda, void *B, int ldb,
                             cudaMemcpyKind kind, cudaStream_t stream, bool async)
{
    if (rows < 0 || cols < 0 || elem <= 0 || lda < rows || ldb < rows || lda <= 0 || ldb <= 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (rows == 0 || cols == 0) return CUBLAS_STATUS_SUCCESS;
    return copy2d(B, (size_t)ldb * elem, A, (size_t)lda * elem, (size_t)rows * elem, cols, kind, stream, async);
}

static cublasStatus_t unsupported_gemm_types(cudaDataType a, cudaDataType b, cudaDataType c,
                                             cublasComputeType_t compute)
{
    fprintf(stderr, "cass-cc: libcublas: cublasGemmEx with types %d/%d/%d and compute type %d is not supported "
            "(all CUDA_R_32F with CUBLAS_COMPUTE_32F, or all CUDA_R_64F with CUBLAS_COMPUTE_64F, are)\n",
            (int)a, (int)b, (int)c, (int)compute);
    return CUBLAS_STATUS_NOT_SUPPORTED;
}

static void xerbla(const char *name, int info)
{
    fprintf(stderr, " ** On entry to %s parameter number %d had an illegal value\n", name, info);
}

extern "C" {

cublasStatus_t CUBLASWINAPI cublasCreate(cublasHandle_t *handle)
{
    if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
    cublasHandle_t h = (cublasHandle_t)calloc(1, sizeof(*h));
    if (!h) return CUBLAS_STATUS_ALLOC_FAILED;
    h->pointer_mode = CUBLAS_POINTER_MODE_HOST;
    h->math_mode = CUBLAS_DEFAULT_MATH;
    *handle = h;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasDestroy(cublasHandle_t handle)
{
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    free(handle);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetVersion(cublasHandle_t handle, int *version)
{
    if (!version) return CUBLAS_STATUS_INVALID_VALUE;
    (void)handle;
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetProperty(libraryPropertyType type, int *value)
{
    if (!value) return CUBLAS_STATUS_INVALID_VALUE;
    switch (type) {
    case MAJOR_VERSION: *value = CUBLAS_VER_MAJOR; return CUBLAS_STATUS_SUCCESS;
    case MINOR_VERSION: *value = CUBLAS_VER_MINOR; return CUBLAS_STATUS_SUCCESS;
    case PATCH_LEVEL: *value = CUBLAS_VER_PATCH; return CUBLAS_STATUS_SUCCESS;
    default: return CUBLAS_STATUS_INVALID_VALUE;
    }
}

size_t CUBLASWINAPI cublasGetCudartVersion(void)
{
    return CUDART_VERSION;
}

const char *CUBLASWINAPI cublasGetStatusName(cublasStatus_t status)
{
    switch (status) {
#define NAME(s) case s: return #s;
    NAME(CUBLAS_STATUS_SUCCESS) NAME(CUBLAS_STATUS_NOT_INITIALIZED) NAME(CUBLAS_STATUS_ALLOC_FAILED)
    NAME(CUBLAS_STATUS_INVALID_VALUE) NAME(CUBLAS_STATUS_ARCH_MISMATCH) NAME(CUBLAS_STATUS_MAPPING_ERROR)
    NAME(CUBLAS_STATUS_EXECUTION_FAILED) NAME(CUBLAS_STATUS_INTERNAL_ERROR) NAME(CUBLAS_STATUS_NOT_SUPPORTED)
    NAME(CUBLAS_STATUS_LICENSE_ERROR)
#undef NAME
    default: return "<unknown>";
    }
}

const char *CUBLASWINAPI cublasGetStatusString(cublasStatus_t status)
{
    switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
    case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    case CUBLAS_STATUS_LICENSE_ERROR: return "error detected trying to check the license";
    default: return "unknown error";
    }
}

void CUBLASWINAPI cublasXerbla(const char *srName, int info)
{
    xerbla(srName, info);
}

cublasStatus_t CUBLASWINAPI cublasSetStream(cublasHandle_t handle, cudaStream_t streamId)
{
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->stream = streamId;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetStream(cublasHandle_t handle, cudaStream_t *streamId)
{
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!streamId) return CUBLAS_STATUS_INVALID_VALUE;
    *streamId = handle->stream;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetPointerMode(cublasHandle_t handle, cublasPointerMode_t mode)
{
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE) return CUBLAS_STATUS_INVALID_VALUE;
    handle->pointer_mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetPointerMode(cublasHandle_t handle, cublasPointerMode_t *mode)
{
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->pointer_mode;
    return CUBLAS_STATUS_SUCCESS;
}

// The math mode is recorded; every mode computes in the data's own precision here.
cublasStatus_t CUBLASWINAPI cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode)
{
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->math_mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode)
{
    if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->math_mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetVector(int n, int elemSize, const void *x, int incx, void *devicePtr, int incy)
{
    return vector(n, elemSize, x, incx, devicePtr, incy, cudaMemcpyHostToDevice, 0, false);
}

cublasStatus_t CUBLASWINAPI cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy)
{
    return vector(n, elemSize, x, incx, y, incy, cudaMemcpyDeviceToHost, 0, false);
}

cublasStatus_t CUBLASWINAPI cublasSetVectorAsync(int n, int elemSize, const void *hostPtr, int incx, void *devicePtr,
                                                 int incy, cudaStream_t stream)
{
    return vector(n, elemSize, hostPtr, incx, devicePtr, incy, cudaMemcpyHostToDevice, stream, true);
}

cublasStatus_t CUBLASWINAPI cublasGetVectorAsync(int n, int elemSize, const void *devicePtr, int incx, void *hostPtr,
                                                 int incy, cudaStream_t stream)
{
    return vector(n, elemSize, devicePtr, incx, hostPtr, incy, cudaMemcpyDeviceToHost, stream, true);
}

cublasStatus_t CUBLASWINAPI cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb)
{
    return matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyHostToDevice, 0, false);
}

cublasStatus_t CUBLASWINAPI cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb)
{
    return matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyDeviceToHost, 0, false);
}

cublasStatus_t CUBLASWINAPI cublasSetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                                                 int ldb, cudaStream_t stream)
{
    return matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyHostToDevice, stream, true);
}

cublasStatus_t CUBLASWINAPI cublasGetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                                                 int ldb, cudaStream_t stream)
{
    return matrix(rows, cols, elemSize, A, lda, B, ldb, cudaMemcpyDeviceToHost, stream, true);
}

#define LEVEL1(S, s, T)                                                                                     \
cublasStatus_t CUBLASWINAPI cublas##S##axpy(cublasHandle_t h, int n, const T *alpha, const T *x, int incx,   \
                                            T *y, int incy)                                                 \
{ return axpy<T>(h, n, alpha, x, incx, y, incy); }                                                         \
cublasStatus_t CUBLASWINAPI cublas##S##scal(cublasHandle_t h, int n, const T *alpha, T *x, int incx)         \
{ return scal<T>(h, n, alpha, x, incx); }                                                                  \
cublasStatus_t CUBLASWINAPI cublas##S##copy(cublasHandle_t h, int n, const T *x, int incx, T *y, int incy)   \
{ return copy<T>(h, n, x, incx, y, incy); }                                                                \
cublasStatus_t CUBLASWINAPI cublas##S##swap(cublasHandle_t h, int n, T *x, int incx, T *y, int incy)         \
{ return swap<T>(h, n, x, incx, y, incy); }                                                                \
cublasStatus_t CUBLASWINAPI cublas##S##dot(cublasHandle_t h, int n, const T *x, int incx, const T *y,        \
                                           int incy, T *result)                                            \
{ return reduce<T, DOT>(h, n, x, incx, y, incy, result); }                                                 \
cublasStatus_t CUBLASWINAPI cublas##S##nrm2(cublasHandle_t h, int n, const T *x, int incx, T *result)        \
{ return reduce<T, NRM2>(h, n, x, incx, x, incx, result); }                                                \
cublasStatus_t CUBLASWINAPI cublas##S##asum(cublasHandle_t h, int n, const T *x, int incx, T *result)        \
{ return reduce<T, ASUM>(h, n, x, incx, x, incx, result); }                                                \
cublasStatus_t CUBLASWINAPI cublasI##s##amax(cublasHandle_t h, int n, const T *x, int incx, int *result)     \
{ return iamax<T, true>(h, n, x, incx, result); }                                                          \
cublasStatus_t CUBLASWINAPI cublasI##s##amin(cublasHandle_t h, int n, const T *x, int incx, int *result)     \
{ return iamax<T, false>(h, n, x, incx, result); }                                                         \
cublasStatus_t CUBLASWINAPI cublas##S##gemv(cublasHandle_t h, cublasOperation_t trans, int m, int n,         \
                                            const T *alpha, const T *A, int lda, const T *x, int incx,      \
                                            const T *beta, T *y, int incy)                                  \
{ return gemv<T>(h, trans, m, n, alpha, A, lda, x, incx, beta, y, incy); }                                 \
cublasStatus_t CUBLASWINAPI cublas##S##gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,    \
                                            int m, int n, int k, const T *alpha, const T *A, int lda,       \
                                            const T *B, int ldb, const T *beta, T *C, int ldc)              \
{ return gemm<T>(h, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1); }                   \
cublasStatus_t CUBLASWINAPI cublas##S##gemmStridedBatched(                                                   \
    cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T *alpha,      \
    const T *A, int lda, long long int strideA, const T *B, int ldb, long long int strideB, const T *beta,  \
    T *C, int ldc, long long int strideC, int batchCount)                                                   \
{ return gemm<T>(h, ta, tb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC,       \
                 batchCount); }

LEVEL1(S, s, float)
LEVEL1(D, d, double)

// GemmEx for the all-float and all-double cases (compute in the data's precision).
cublasStatus_t CUBLASWINAPI cublasGemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                         int k, const void *alpha, const void *A, cudaDataType Atype, int lda,
                                         const void *B, cudaDataType Btype, int ldb, const void *beta, void *C,
                                         cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
                                         cublasGemmAlgo_t algo)
{
    (void)algo;   // every algorithm is the one kernel
    bool f32 = Atype == CUDA_R_32F && Btype == CUDA_R_32F && Ctype == CUDA_R_32F &&
               (computeType == CUBLAS_COMPUTE_32F || computeType == CUBLAS_COMPUTE_32F_PEDANTIC);
    bool f64 = Atype == CUDA_R_64F && Btype == CUDA_R_64F && Ctype == CUDA_R_64F &&
               (computeType == CUBLAS_COMPUTE_64F || computeType == CUBLAS_COMPUTE_64F_PEDANTIC);
    if (f32)
        return gemm<float>(h, ta, tb, m, n, k, (const float *)alpha, (const float *)A, lda, 0, (const float *)B, ldb,
                           0, (const float *)beta, (float *)C, ldc, 0, 1);
    if (f64)
        return gemm<double>(h, ta, tb, m, n, k, (const double *)alpha, (const double *)A, lda, 0, (const double *)B,
                            ldb, 0, (const double *)beta, (double *)C, ldc, 0, 1);
    return unsupported_gemm_types(Atype, Btype, Ctype, computeType);
}

}  // extern "C"
