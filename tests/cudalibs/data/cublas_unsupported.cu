// A cuBLAS function cass-cc does not implement: CUBLAS_STATUS_NOT_SUPPORTED (15), its name once on stderr.
#include <cstdio>
#include <cublas_v2.h>

int main()
{
    cublasHandle_t h;
    if (cublasCreate(&h)) return 1;
    cuComplex one = {1, 0};
    int first = cublasCscal(h, 0, &one, nullptr, 1);
    int second = cublasCscal(h, 0, &one, nullptr, 1);
    printf("cscal: %d %d; %s\n", first, second, cublasGetStatusName((cublasStatus_t)first));
    cublasDestroy(h);
    return 0;
}
