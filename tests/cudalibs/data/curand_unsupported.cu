// A cuRAND function cass-cc does not implement: it fails with CURAND_STATUS_NOT_INITIALIZED (101)
// and names itself on stderr once, however often it is called.
#include <cstdio>
#include <curand.h>

int main()
{
    curandDiscreteDistribution_t d;
    int first = curandCreatePoissonDistribution(4.0, &d);
    int second = curandCreatePoissonDistribution(4.0, &d);
    curandGenerator_t gen;
    int sobol = curandCreateGenerator(&gen, CURAND_RNG_QUASI_SOBOL32);
    printf("poisson distribution: %d %d; sobol32: %d\n", first, second, sobol);
    return 0;
}
