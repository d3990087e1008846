#pragma once
#include <cuda_runtime.h>
#ifdef __cplusplus
extern "C" {
#endif
cudaError_t launchAddScaled(const double *a, const double *b, double *c, double s, int n, cudaStream_t stream);
cudaError_t launchDotPartial(const double *a, const double *b, double *partial, int blocks, int n,
                             cudaStream_t stream);
#ifdef __cplusplus
}
#endif
