// Runs saxpy on the GPU and checks it against the CPU; prints the checksum and PASS/FAIL.
#include <cstdio>
#include <vector>

#include "saxpy.h"

int main()
{
    const int n = 500;
    const float a = 3.0f;
    std::vector<float> x(n), y(n), expect(n);
    for (int i = 0; i < n; ++i) {
        x[i] = 0.25f * i;
        y[i] = 1.0f + (i % 7);
        expect[i] = a * x[i] + y[i];
    }
    int err = saxpy_on_gpu(n, a, x.data(), y.data());
    if (err != 0) {
        std::printf("saxpy_on_gpu failed: error %d\nFAIL\n", err);
        return 1;
    }
    int bad = 0;
    double checksum = 0.0;
    for (int i = 0; i < n; ++i) {
        bad += y[i] != expect[i];
        checksum += y[i];
    }
    std::printf("checksum: %.6e\n", checksum);
    std::printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
