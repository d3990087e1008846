// An image with a kernel cass-cc's lifter refuses (tex2DGrad is SASS TXD, a refusal README's
// Limits names) beside one it translates: the module must not load in part.
extern "C" __global__ void sample_grad(cudaTextureObject_t tex, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DGrad<float>(tex, i + 0.5f, 0.5f, make_float2(1.0f, 0.0f), make_float2(0.0f, 1.0f));
}

extern "C" __global__ void doubled(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * i;
}
