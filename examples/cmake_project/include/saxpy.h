// Host interface of the saxpy library: plain C++, no CUDA types.
#pragma once

// y[i] = a * x[i] + y[i] for i < n, computed on the GPU; returns 0 or a CUDA error code.
int saxpy_on_gpu(int n, float a, const float* x, float* y);
