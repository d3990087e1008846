// Shared by the selftest suite's programs (copied through [suite] files): a CUDA error is fatal.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                    \
    do {                                                                               \
        cudaError_t err_ = (call);                                                     \
        if (err_ != cudaSuccess) {                                                     \
            std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                         __FILE__, __LINE__);                                          \
            std::exit(2);                                                              \
        }                                                                              \
    } while (0)
