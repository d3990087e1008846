// CUDA graphs by stream capture: two kernels and a copy captured into a graph, instantiated,
// launched three times on a stream, then the node count is read back.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int N = 256;

__global__ void fill(float *y, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = v + i;
}

__global__ void add_scaled(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("%s failed: %s\n", #call, cudaGetErrorString(e)); printf("FAIL\n"); return 1; } } while (0)

int main()
{
    float h_x[N], h_z[N], *d_x, *d_z, *d_acc;
    for (int i = 0; i < N; i++) h_x[i] = (float)(i % 17);
    CHECK(cudaMalloc(&d_x, sizeof h_x));
    CHECK(cudaMalloc(&d_z, sizeof h_z));
    CHECK(cudaMalloc(&d_acc, sizeof h_z));
    CHECK(cudaMemcpy(d_x, h_x, sizeof h_x, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_acc, 0, sizeof h_z));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    // Each launch: z = i, z += 3x, acc += z (so acc counts the launches).
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    fill<<<N / 64, 64, 0, s>>>(d_z, 0.0f, N);
    add_scaled<<<N / 64, 64, 0, s>>>(d_z, d_x, 3.0f, N);
    add_scaled<<<N / 64, 64, 0, s>>>(d_acc, d_z, 1.0f, N);
    CHECK(cudaStreamEndCapture(s, &graph));
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int k = 0; k < 3; k++) CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(h_z, d_acc, sizeof h_z, cudaMemcpyDeviceToHost));
    int bad = nodes != 3;
    if (bad) printf("graph has %zu nodes, want 3\n", nodes);
    double checksum = 0;
    for (int i = 0; i < N; i++) {
        float want = 3 * ((float)i + 3.0f * (i % 17));
        if (h_z[i] != want) {
            if (bad < 5) printf("mismatch %d: %g want %g\n", i, h_z[i], want);
            bad++;
        }
        checksum += h_z[i];
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_z));
    CHECK(cudaFree(d_acc));
    printf("checksum: %.6e\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
