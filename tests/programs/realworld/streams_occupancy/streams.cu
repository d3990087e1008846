// Streams and occupancy: cudaStreamCreateWithFlags(NonBlocking), pinned memory with async copies
// split into chunks over several streams, cudaOccupancyMaxPotentialBlockSize,
// cudaOccupancyMaxActiveBlocksPerMultiprocessor, cudaFuncGetAttributes, stream events and
// cudaStreamWaitEvent, cudaStreamQuery, cudaLaunchKernel by hand.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        cudaError_t err__ = (call);                                                         \
        if (err__ != cudaSuccess) {                                                         \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,            \
                    cudaGetErrorString(err__));                                             \
            printf("FAIL\n");                                                               \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

__global__ void __launch_bounds__(256) scaleOffset(const int *in, int *out, int n, int scale, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * scale + offset;
}

__global__ void sumChunks(const int *v, int chunk, int nChunks, long long *sums)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= nChunks)
        return;
    long long s = 0;
    for (int i = 0; i < chunk; ++i)
        s += v[c * chunk + i];
    sums[c] = s;
}

int main()
{
    const int nStreams = 4, chunk = 200, n = nStreams * chunk;
    int minGridSize = 0, blockSize = 0;
    CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, scaleOffset, 0, 0));
    int activeBlocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&activeBlocks, scaleOffset, 128, 0));
    cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, scaleOffset));
    fprintf(stderr, "minGrid %d block %d active %d maxThreads %d regs %d shared %zu\n", minGridSize,
            blockSize, activeBlocks, attr.maxThreadsPerBlock, attr.numRegs, attr.sharedSizeBytes);
    if (blockSize <= 0 || blockSize > 256 || minGridSize <= 0 || activeBlocks <= 0 ||
        attr.maxThreadsPerBlock <= 0 || attr.maxThreadsPerBlock > 256) {
        printf("implausible occupancy results\nFAIL\n");
        return 1;
    }
    if (blockSize > 128)
        blockSize = 128; // keep the emulated run small

    int *hIn, *hOut;
    CUDA_CHECK(cudaMallocHost(&hIn, n * sizeof(int)));
    CUDA_CHECK(cudaHostAlloc(&hOut, n * sizeof(int), cudaHostAllocPortable));
    for (int i = 0; i < n; ++i)
        hIn[i] = (i * 7919) % 1000 - 500;
    int *dIn, *dOut;
    long long *dSums, hSums[nStreams];
    CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dSums, sizeof hSums));

    cudaStream_t streams[nStreams];
    cudaEvent_t done[nStreams];
    for (int s = 0; s < nStreams; ++s) {
        CUDA_CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming));
    }
    for (int s = 0; s < nStreams; ++s) {
        int off = s * chunk;
        CUDA_CHECK(cudaMemcpyAsync(dIn + off, hIn + off, chunk * sizeof(int), cudaMemcpyHostToDevice,
                                   streams[s]));
        int grid = (chunk + blockSize - 1) / blockSize;
        scaleOffset<<<grid, blockSize, 0, streams[s]>>>(dIn + off, dOut + off, chunk, s + 2, -s);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpyAsync(hOut + off, dOut + off, chunk * sizeof(int), cudaMemcpyDeviceToHost,
                                   streams[s]));
        CUDA_CHECK(cudaEventRecord(done[s], streams[s]));
    }
    // The last stream waits for all the others, then sums each chunk.
    for (int s = 0; s < nStreams - 1; ++s)
        CUDA_CHECK(cudaStreamWaitEvent(streams[nStreams - 1], done[s], 0));
    int nChunks = nStreams, chunkArg = chunk;
    const int *vArg = dOut;
    void *args[] = {(void *)&vArg, (void *)&chunkArg, (void *)&nChunks, (void *)&dSums};
    CUDA_CHECK(cudaLaunchKernel((const void *)sumChunks, dim3(1), dim3(32), args, 0, streams[nStreams - 1]));
    CUDA_CHECK(cudaMemcpyAsync(hSums, dSums, sizeof hSums, cudaMemcpyDeviceToHost, streams[nStreams - 1]));
    CUDA_CHECK(cudaStreamSynchronize(streams[nStreams - 1]));
    for (int s = 0; s < nStreams; ++s) {
        CUDA_CHECK(cudaStreamSynchronize(streams[s]));
        cudaError_t q = cudaStreamQuery(streams[s]);
        if (q != cudaSuccess) {
            printf("stream %d not idle: %s\nFAIL\n", s, cudaGetErrorName(q));
            return 1;
        }
    }

    int bad = 0;
    long long checksum = 0;
    for (int s = 0; s < nStreams; ++s) {
        long long ref = 0;
        for (int i = 0; i < chunk; ++i) {
            int k = s * chunk + i, v = hIn[k] * (s + 2) - s;
            if (hOut[k] != v)
                bad++;
            ref += v;
        }
        if (hSums[s] != ref)
            bad++;
        checksum += hSums[s] * (s + 1);
    }
    for (int s = 0; s < nStreams; ++s) {
        CUDA_CHECK(cudaStreamDestroy(streams[s]));
        CUDA_CHECK(cudaEventDestroy(done[s]));
    }
    CUDA_CHECK(cudaFreeHost(hIn));
    CUDA_CHECK(cudaFreeHost(hOut));
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dOut));
    CUDA_CHECK(cudaFree(dSums));
    printf("checksum: %lld\n", checksum);
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad ? 1 : 0;
}
