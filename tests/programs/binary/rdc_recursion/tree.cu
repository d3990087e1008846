// Recursive device functions in their own translation unit: after the device link they are
// CALL.ABS targets that call themselves (nvlink cannot bound the stack statically).
#include "tree.h"

__device__ unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__device__ int depth(const int *left, const int *right, int node)
{
    if (node < 0)
        return 0;
    int l = depth(left, right, left[node]), r = depth(left, right, right[node]);
    return 1 + (l > r ? l : r);
}
