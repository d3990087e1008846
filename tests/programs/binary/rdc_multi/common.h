#pragma once
// Shared between the three translation units of this -rdc program.
extern __device__ unsigned g_hits;          // defined in lib.cu, bumped by kernels in two TUs
extern __device__ float g_scale[4];         // defined (and initialised) in lib.cu
__device__ float weighted(const float *v, int n);   // lib.cu: a loop over a local array
__device__ unsigned mix(unsigned x);                // lib.cu: calls a second device function
