// thrust::sequence/transform/reduce/sort on a device_vector: the CUB kernels thrust instantiates
// (radix-sort onesweep, reduce) go through the lifter like any other kernel.
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>
#include <thrust/sequence.h>
#include <thrust/functional.h>
struct sq { __host__ __device__ int operator()(int x) const { return x * x % 1000; } };
int main() {
    const int n = 256;
    thrust::device_vector<int> d(n);
    thrust::sequence(d.begin(), d.end(), 7);
    thrust::transform(d.begin(), d.end(), d.begin(), sq());
    long long sum = thrust::reduce(d.begin(), d.end(), 0LL, thrust::plus<long long>());
    thrust::sort(d.begin(), d.end());
    thrust::host_vector<int> h = d;
    long long ref = 0; int bad = 0;
    for (int i = 0; i < n; ++i) ref += (long long)((i + 7) * (i + 7) % 1000);
    for (int i = 1; i < n; ++i) if (h[i - 1] > h[i]) bad++;
    if (sum != ref) bad++;
    printf("checksum: %lld\n%s\n", sum, bad ? "FAIL" : "PASS");
    return bad != 0;
}
