// A program split over three .cu files sharing kernels from a header; the test also builds it
// Makefile-style (-c each file, then link the objects).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "kernels.cuh"

int main()
{
    const int n = 200;
    std::vector<float> h(n), sq(n), sm(n);
    for (int i = 0; i < n; ++i)
        h[i] = (i % 23) * 0.125f - 1.0f;
    float *dIn, *dA, *dB;
    CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dA, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dB, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dIn, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    runSquare(dIn, dA, n);
    runSmooth(dIn, dB, n, 0.25f);
    double mean = deviceMean(dIn, n);
    CUDA_CHECK(cudaMemcpy(sq.data(), dA, n * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sm.data(), dB, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    double ref = 0, checksum = 0;
    for (int i = 0; i < n; ++i) {
        if (sq[i] != h[i] * h[i])
            bad++;
        if (std::fabs(sm[i] - (h[i] + 0.25f * (1.0f - h[i]))) > 1e-6f)
            bad++;
        ref += (double)(h[i] * h[i]);
        checksum += sq[i] + sm[i];
    }
    if (std::fabs(mean - ref / n) > 1e-9)
        bad++;
    checksum += mean;
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
