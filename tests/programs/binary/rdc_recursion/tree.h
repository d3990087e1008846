#pragma once
__device__ unsigned fib(unsigned n);
__device__ int depth(const int *left, const int *right, int node);
