// American put by a Cox-Ross-Rubinstein binomial tree in double precision: one block per option,
// the tree's current level in dynamic shared memory, backward induction with barriers.
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define STEPS 32

struct Contract {
    double spot, strike, years, rate, vol;
};

__global__ void american_put(const Contract *cs, double *out)
{
    extern __shared__ double v[];
    Contract c = cs[blockIdx.x];
    double dt = c.years / STEPS, u = exp(c.vol * sqrt(dt)), d = 1 / u;
    double p = (exp(c.rate * dt) - d) / (u - d), disc = exp(-c.rate * dt);
    for (int i = threadIdx.x; i <= STEPS; i += blockDim.x)
        v[i] = fmax(c.strike - c.spot * pow(u, 2.0 * i - STEPS), 0.0);
    __syncthreads();
    for (int n = STEPS - 1; n >= 0; n--) {
        double nv = 0;
        int i = threadIdx.x;
        if (i <= n) {
            double cont = disc * (p * v[i + 1] + (1 - p) * v[i]);
            nv = fmax(cont, c.strike - c.spot * pow(u, 2.0 * i - n));
        }
        __syncthreads();
        if (i <= n)
            v[i] = nv;
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = v[0];
}

static double host_put(Contract c)
{
    double v[STEPS + 1];
    double dt = c.years / STEPS, u = exp(c.vol * sqrt(dt)), d = 1 / u;
    double p = (exp(c.rate * dt) - d) / (u - d), disc = exp(-c.rate * dt);
    for (int i = 0; i <= STEPS; i++)
        v[i] = fmax(c.strike - c.spot * pow(u, 2.0 * i - STEPS), 0.0);
    for (int n = STEPS - 1; n >= 0; n--)
        for (int i = 0; i <= n; i++)
            v[i] = fmax(disc * (p * v[i + 1] + (1 - p) * v[i]), c.strike - c.spot * pow(u, 2.0 * i - n));
    return v[0];
}

int main()
{
    const int n = 4;
    Contract c[n];
    for (int i = 0; i < n; i++)
        c[i] = Contract{100.0, 90.0 + 5 * i, 1.0, 0.05, 0.2 + 0.02 * i};
    Contract *dc;
    double *dout, out[n];
    cudaMalloc(&dc, sizeof c);
    cudaMalloc(&dout, sizeof out);
    cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice);
    american_put<<<n, 64, (STEPS + 1) * sizeof(double)>>>(dc, dout);
    cudaError_t e = cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    bool ok = e == cudaSuccess;
    double cs = 0;
    for (int i = 0; i < n; i++) {
        double want = host_put(c[i]);
        ok = ok && fabs(out[i] - want) < 1e-9 * (1 + want);
        cs += out[i];
    }
    printf("checksum: %.6e\n", cs);
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
