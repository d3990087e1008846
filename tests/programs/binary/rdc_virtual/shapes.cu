#include "shapes.h"

__device__ float Square::area() const { return s * s; }
__device__ int Square::sides() const { return 4; }
__device__ float Disc::area() const { return 3.0f * r * r; }

__device__ unsigned twice(unsigned x) { return 2 * x; }
__device__ unsigned square(unsigned x) { return x * x; }
__device__ unsigned collatz(unsigned x) { return x & 1 ? 3 * x + 1 : x / 2; }
__device__ step_fn steps[3] = {twice, square, collatz};
