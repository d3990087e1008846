"""Math libraries: cuBLAS -> hipBLAS, cuRAND -> hipRAND, cuFFT -> hipFFT, cuSPARSE -> hipSPARSE,
NVRTC -> hipRTC, CUB -> hipCUB. The HIP libraries mirror the CUDA names with a new prefix, so
the tables are prefix rules; Thrust keeps its name (rocThrust), only its CUDA backend moves."""

FAMILY = "libraries"

PREFIXES = {
    "cublas": "hipblas",
    "CUBLAS_": "HIPBLAS_",
    "curand": "hiprand",
    "CURAND_": "HIPRAND_",
    "cufft": "hipfft",
    "CUFFT_": "HIPFFT_",
    "cusparse": "hipsparse",
    "CUSPARSE_": "HIPSPARSE_",
    "nvrtc": "hiprtc",
    "NVRTC_": "HIPRTC_",
}

# Prefixes of libraries without a HIP counterpart here: reported, never guessed.
UNSUPPORTED_PREFIXES = {
    "cublasLt": "cuBLASLt has no hipBLAS counterpart in ROCm 5.2",
    "cudnn": "cuDNN maps to MIOpen, whose API differs; port these calls by hand",
    "CUDNN_": "cuDNN maps to MIOpen, whose API differs; port these calls by hand",
    "cusolver": "cuSOLVER maps to hipSOLVER, which this translator does not cover",
    "nccl": "NCCL maps to RCCL (same API, link -lrccl); not rewritten here",
}

# `ns::` qualifiers: cub::X -> hipcub::X, thrust::cuda::par -> thrust::hip::par.
NAMESPACES = {"cub": "hipcub"}
QUALIFIED = {("thrust", "cuda"): "hip", ("thrust", "cuda_cub"): "hip_rocprim"}

# Facts from HIPIFY's published tables, checked by the tests against the prefix rules.
EXAMPLES = {
    "cublasHandle_t": "hipblasHandle_t",
    "cublasCreate": "hipblasCreate",
    "cublasSgemm": "hipblasSgemm",
    "CUBLAS_OP_N": "HIPBLAS_OP_N",
    "CUBLAS_STATUS_SUCCESS": "HIPBLAS_STATUS_SUCCESS",
    "curandState": "hiprandState",
    "curand_init": "hiprand_init",
    "curand_uniform": "hiprand_uniform",
    "curandCreateGenerator": "hiprandCreateGenerator",
    "CURAND_RNG_PSEUDO_DEFAULT": "HIPRAND_RNG_PSEUDO_DEFAULT",
    "cufftHandle": "hipfftHandle",
    "cufftExecC2C": "hipfftExecC2C",
    "CUFFT_FORWARD": "HIPFFT_FORWARD",
    "cusparseHandle_t": "hipsparseHandle_t",
    "CUSPARSE_INDEX_BASE_ZERO": "HIPSPARSE_INDEX_BASE_ZERO",
    "nvrtcCreateProgram": "hiprtcCreateProgram",
}
