// The selftest suite's timeout: a correct kernel, then the host sleeps far past the manifest's
// timeout (the runner must kill the run and report the timeout, not wait).
#include <cstdio>
#include <unistd.h>
#include "selftest_check.h"

__global__ void one(int* p) { *p = 1; }

int main() {
    int* p;
    CHECK(cudaMallocManaged(&p, sizeof(int)));
    one<<<1, 1>>>(p);
    CHECK(cudaDeviceSynchronize());
    std::printf("kernel done, sleeping\n");
    std::fflush(stdout);
    sleep(600);
    std::printf("PASS\n");
    return 0;
}
