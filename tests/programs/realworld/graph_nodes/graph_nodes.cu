// A CUDA graph built node by node, as programs do that do not capture streams: memset, 1D copy,
// kernel, empty and host nodes joined by dependencies into a diamond; the graph's queries (nodes,
// roots, edges, node types, dependencies and dependents), edges added and removed, a node
// destroyed; the graph instantiated once and launched twice, the second launch reading input the
// host changed in between (a copy node copies from its pointer when it runs); node parameters read
// back, and changed in the instantiated graph only (cudaGraphExec*NodeSetParams). Then the graph is
// cloned, the original destroyed, and the clone runs as a child graph node of another graph with
// event record and wait nodes, instantiated with cudaGraphInstantiateWithParams and uploaded.
// Then 3D copy nodes (cudaMemcpy3DParms) between host memory and a CUDA array, at offsets; last,
// an instantiated captured graph updated from a second capture (cudaGraphExecUpdate).
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

__global__ void scaleAdd(const int *in, const int *bias, int *out, int n, int scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * scale + bias[i];
}

__global__ void square(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * v[i];
}

struct Tally {
    const int *values;
    int n;
    long long sum;
    int calls;
};

static void CUDART_CB tally(void *data)
{
    Tally *t = static_cast<Tally *>(data);
    long long s = 0;
    for (int i = 0; i < t->n; ++i)
        s += t->values[i];
    t->sum = s;
    t->calls++;
}

static size_t edgeCount(cudaGraph_t g)
{
    size_t n = 0;
    CUDA_CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &n));
    return n;
}

int main()
{
    int bad_ = 0;
    const int n = 200;
    int *hIn, *hOut, *hSquares;
    CUDA_CHECK(cudaMallocHost(&hIn, n * sizeof(int)));
    CUDA_CHECK(cudaMallocHost(&hOut, n * sizeof(int)));
    CUDA_CHECK(cudaMallocHost(&hSquares, n * sizeof(int)));
    int *dIn, *dBias, *dOut, *dSq;
    CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dBias, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dSq, n * sizeof(int)));

    cudaGraph_t graph;
    CUDA_CHECK(cudaGraphCreate(&graph, 0));

    // Roots: the bias set to 7 (a memset node), the input copied in (a 1D copy node).
    cudaGraphNode_t setBias, copyIn;
    cudaMemsetParams ms = {};
    ms.dst = dBias;
    ms.value = 7;
    ms.elementSize = sizeof(int);
    ms.width = n;
    ms.height = 1;
    CUDA_CHECK(cudaGraphAddMemsetNode(&setBias, graph, nullptr, 0, &ms));
    CUDA_CHECK(cudaGraphAddMemcpyNode1D(&copyIn, graph, nullptr, 0, dIn, hIn, n * sizeof(int),
                                        cudaMemcpyHostToDevice));

    // out = in * 3 + bias after both roots; squares of the input (a copy) after the copy only.
    int scale = 3, count = n;
    void *scaleArgs[] = {&dIn, &dBias, &dOut, &count, &scale};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)scaleAdd;
    kp.gridDim = dim3((n + 63) / 64);
    kp.blockDim = dim3(64);
    kp.kernelParams = scaleArgs;
    cudaGraphNode_t compute, copySq, squares;
    cudaGraphNode_t both[] = {setBias, copyIn};
    CUDA_CHECK(cudaGraphAddKernelNode(&compute, graph, both, 2, &kp));
    scale = 100; // the node keeps the arguments as they were when it was added
    CUDA_CHECK(cudaGraphAddMemcpyNode1D(&copySq, graph, &copyIn, 1, dSq, dIn, n * sizeof(int),
                                        cudaMemcpyDeviceToDevice));
    void *squareArgs[] = {&dSq, &count};
    kp.func = (void *)square;
    kp.gridDim = dim3((n + 127) / 128);
    kp.blockDim = dim3(128);
    kp.kernelParams = squareArgs;
    CUDA_CHECK(cudaGraphAddKernelNode(&squares, graph, &copySq, 1, &kp));

    // Join, copy both results out, then tally on the host.
    cudaGraphNode_t join, outA, outB, host;
    cudaGraphNode_t ends[] = {compute, squares};
    CUDA_CHECK(cudaGraphAddEmptyNode(&join, graph, ends, 2));
    CUDA_CHECK(cudaGraphAddMemcpyNode1D(&outA, graph, &join, 1, hOut, dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaGraphAddMemcpyNode1D(&outB, graph, &join, 1, hSquares, dSq, n * sizeof(int),
                                        cudaMemcpyDeviceToHost));
    Tally t = {hOut, n, 0, 0};
    cudaHostNodeParams hp = {tally, &t};
    cudaGraphNode_t outs[] = {outA, outB};
    CUDA_CHECK(cudaGraphAddHostNode(&host, graph, outs, 2, &hp));

    // The graph's shape.
    size_t nodes = 0, roots = 0, deps = 0, dependents = 0;
    CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
    CUDA_CHECK(cudaGraphGetRootNodes(graph, nullptr, &roots));
    CUDA_CHECK(cudaGraphNodeGetDependencies(join, nullptr, nullptr, &deps));
    CUDA_CHECK(cudaGraphNodeGetDependentNodes(copyIn, nullptr, nullptr, &dependents));
    printf("nodes %zu roots %zu edges %zu join's dependencies %zu copy-in's dependents %zu\n", nodes, roots,
           edgeCount(graph), deps, dependents);
    cudaGraphNode_t rootList[4] = {};
    size_t rootRoom = 4;
    CUDA_CHECK(cudaGraphGetRootNodes(graph, rootList, &rootRoom));
    printf("roots listed %zu: %s %s, then %s\n", rootRoom, rootList[0] == setBias ? "memset" : "?",
           rootList[1] == copyIn ? "copy" : "?", rootList[2] == nullptr ? "null" : "?");
    cudaGraphNode_t from[16], to[16];
    size_t edges = 16;
    CUDA_CHECK(cudaGraphGetEdges(graph, from, to, nullptr, &edges));
    int edgeOk = 0;
    for (size_t i = 0; i < edges; ++i)
        edgeOk += (from[i] == join && to[i] == outA) || (from[i] == squares && to[i] == join);
    printf("edges listed %zu, the two checked found %d\n", edges, edgeOk);
    const char *typeNames[] = {"kernel", "memcpy", "memset", "host", "graph", "empty"};
    cudaGraphNode_t all[] = {setBias, copyIn, compute, join, host};
    printf("types:");
    for (cudaGraphNode_t node : all) {
        cudaGraphNodeType type;
        CUDA_CHECK(cudaGraphNodeGetType(node, &type));
        printf(" %s", type >= 0 && type <= 5 ? typeNames[type] : "other");
    }
    printf("\n");

    // The graph as a Graphviz file: NVIDIA's and cass-cc's differ in their details, both are a digraph.
    const char *dotPath = "graph_nodes.dot";
    CUDA_CHECK(cudaGraphDebugDotPrint(graph, dotPath, cudaGraphDebugDotFlagsVerbose));
    char head[8] = {};
    FILE *dot = fopen(dotPath, "r");
    bool isDot = dot && fread(head, 1, 7, dot) == 7 && strcmp(head, "digraph") == 0;
    if (dot)
        fclose(dot);
    remove(dotPath);
    printf("debug dot file: %s\n", isDot ? "a digraph" : "missing");
    bad_ += !isDot;

    // An edge added and removed again; one added twice is refused; a node destroyed.
    CUDA_CHECK(cudaGraphAddDependencies(graph, &setBias, &squares, nullptr, 1));
    size_t withExtra = edgeCount(graph);
    cudaError_t twice = cudaGraphAddDependencies(graph, &setBias, &squares, nullptr, 1);
    cudaGetLastError();
    CUDA_CHECK(cudaGraphRemoveDependencies(graph, &setBias, &squares, nullptr, 1));
    cudaGraphNode_t spare;
    CUDA_CHECK(cudaGraphAddEmptyNode(&spare, graph, &host, 1));
    CUDA_CHECK(cudaGraphDestroyNode(spare));
    CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
    printf("edges with the extra one %zu, after removing it %zu; adding it twice: %s; nodes %zu\n", withExtra,
           edgeCount(graph), cudaGetErrorName(twice), nodes);
    cudaKernelNodeParams notKernel = kp;
    notKernel.func = (void *)tally;
    cudaGraphNode_t bad;
    printf("a kernel node of a host function: %s\n",
           cudaGetErrorName(cudaGraphAddKernelNode(&bad, graph, nullptr, 0, &notKernel)));
    cudaGetLastError();

    // Instantiated once, launched twice; the host changes the input in between.
    cudaGraphExec_t exec;
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    long long checksum = 0;
    for (int round = 0; round < 2; ++round) {
        for (int i = 0; i < n; ++i)
            hIn[i] = (i % 17) - 8 + round * 5;
        CUDA_CHECK(cudaGraphLaunch(exec, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        long long sum = 0;
        for (int i = 0; i < n; ++i) {
            int want = hIn[i] * 3 + 7;
            bad_ += hOut[i] != want || hSquares[i] != hIn[i] * hIn[i];
            sum += want;
            checksum = (checksum * 31 + hOut[i] * 7 + hSquares[i]) % 1000000007LL;
        }
        printf("round %d: host node saw sum %lld (expected %lld), calls %d\n", round, t.sum, sum, t.calls);
        bad_ += t.sum != sum || t.calls != round + 1;
    }

    // Parameters read back, and changed in the instantiated graph only: scale 5, bias 9.
    cudaMemsetParams msBack = {};
    CUDA_CHECK(cudaGraphMemsetNodeGetParams(setBias, &msBack));
    cudaHostNodeParams hpBack = {};
    CUDA_CHECK(cudaGraphHostNodeGetParams(host, &hpBack));
    bool readBack = msBack.value == 7 && msBack.width == (size_t)n && msBack.elementSize == 4 && hpBack.fn == tally &&
                    hpBack.userData == &t;
    printf("memset node reads back value %u width %zu; host node reads back %s\n", msBack.value, msBack.width,
           hpBack.fn == tally && hpBack.userData == &t ? "the same" : "another");
    int scale5 = 5;
    void *args5[] = {&dIn, &dBias, &dOut, &count, &scale5};
    cudaKernelNodeParams kp5 = {};
    kp5.func = (void *)scaleAdd;
    kp5.gridDim = dim3((n + 63) / 64);
    kp5.blockDim = dim3(64);
    kp5.kernelParams = args5;
    CUDA_CHECK(cudaGraphExecKernelNodeSetParams(exec, compute, &kp5));
    ms.value = 9;
    CUDA_CHECK(cudaGraphExecMemsetNodeSetParams(exec, setBias, &ms));
    CUDA_CHECK(cudaGraphLaunch(exec, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    long long changed = 0;
    for (int i = 0; i < n; ++i) {
        bad_ += hOut[i] != hIn[i] * 5 + 9;
        changed += hIn[i] * 5 + 9;
        checksum = (checksum * 31 + hOut[i]) % 1000000007LL;
    }
    printf("after changing the instantiated graph: host node saw sum %lld (expected %lld), calls %d\n", t.sum,
           changed, t.calls);
    bad_ += !readBack || t.sum != changed || t.calls != 3;
    bad_ += nodes != 9 || roots != 2 || deps != 2 || dependents != 2 || edgeOk != 2 || withExtra != edgeCount(graph) + 1;

    CUDA_CHECK(cudaGraphExecDestroy(exec));

    // A clone, which outlives its original, as the child of a graph that records an event.
    cudaGraph_t clone, parent;
    CUDA_CHECK(cudaGraphClone(&clone, graph));
    cudaGraphNode_t hostInClone;
    CUDA_CHECK(cudaGraphNodeFindInClone(&hostInClone, host, clone));
    cudaGraphNodeType cloneType;
    CUDA_CHECK(cudaGraphNodeGetType(hostInClone, &cloneType));
    size_t cloneNodes = 0;
    CUDA_CHECK(cudaGraphGetNodes(clone, nullptr, &cloneNodes));
    CUDA_CHECK(cudaGraphDestroy(graph));
    cudaEvent_t done;
    CUDA_CHECK(cudaEventCreate(&done));
    CUDA_CHECK(cudaGraphCreate(&parent, 0));
    cudaGraphNode_t child, record, wait;
    CUDA_CHECK(cudaGraphAddChildGraphNode(&child, parent, nullptr, 0, clone));
    CUDA_CHECK(cudaGraphDestroy(clone)); // the node holds its own copy
    CUDA_CHECK(cudaGraphAddEventRecordNode(&record, parent, &child, 1, done));
    CUDA_CHECK(cudaGraphAddEventWaitNode(&wait, parent, &record, 1, done));
    cudaGraphNodeType childType, recordType, waitType;
    CUDA_CHECK(cudaGraphNodeGetType(child, &childType));
    CUDA_CHECK(cudaGraphNodeGetType(record, &recordType));
    CUDA_CHECK(cudaGraphNodeGetType(wait, &waitType));
    printf("clone: %zu nodes, the host node's copy is a %s node; parent node types %d %d %d\n", cloneNodes,
           cloneType == cudaGraphNodeTypeHost ? "host" : "other", (int)childType, (int)recordType, (int)waitType);
    cudaGraphInstantiateParams ip = {};
    ip.flags = cudaGraphInstantiateFlagUpload;
    ip.uploadStream = stream;
    ip.result_out = cudaGraphInstantiateError;
    CUDA_CHECK(cudaGraphInstantiateWithParams(&exec, parent, &ip));
    printf("instantiated with parameters: result %d, error node %s\n", (int)ip.result_out,
           ip.errNode_out ? "set" : "none");
    CUDA_CHECK(cudaGraphUpload(exec, stream));
    for (int i = 0; i < n; ++i)
        hIn[i] = 2 * i - n;
    CUDA_CHECK(cudaGraphLaunch(exec, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    long long sum = 0;
    for (int i = 0; i < n; ++i) {
        int want = hIn[i] * 3 + 7;
        bad_ += hOut[i] != want || hSquares[i] != hIn[i] * hIn[i];
        sum += want;
        checksum = (checksum * 31 + hOut[i] * 7 + hSquares[i]) % 1000000007LL;
    }
    printf("child graph: host node saw sum %lld (expected %lld), calls %d; event: %s\n", t.sum, sum, t.calls,
           cudaGetErrorName(cudaEventQuery(done)));
    bad_ += t.sum != sum || t.calls != 4 || cloneNodes != 9 || cloneType != cudaGraphNodeTypeHost ||
            childType != cudaGraphNodeTypeGraph || recordType != cudaGraphNodeTypeEventRecord ||
            waitType != cudaGraphNodeTypeWaitEvent || ip.result_out != cudaGraphInstantiateSuccess;
    CUDA_CHECK(cudaGraphExecDestroy(exec));
    CUDA_CHECK(cudaGraphDestroy(parent));
    CUDA_CHECK(cudaEventDestroy(done));

    // Copy nodes of cudaMemcpy3DParms: a 6 x 4 block of host rows into an array at (2, 1), then
    // the array's rows 1-4 back into host memory.
    {
        const int AW = 10, AH = 6, BW = 6, BH = 4;
        int block[BH][BW], back[AH][AW] = {};
        for (int y = 0; y < BH; ++y)
            for (int x = 0; x < BW; ++x)
                block[y][x] = 100 * y + x + 1;
        cudaChannelFormatDesc fmt = cudaCreateChannelDesc<int>();
        cudaArray_t array;
        CUDA_CHECK(cudaMallocArray(&array, &fmt, AW, AH));
        int zeros[AH][AW] = {};
        CUDA_CHECK(cudaMemcpy2DToArray(array, 0, 0, zeros, sizeof zeros[0], sizeof zeros[0], AH,
                                       cudaMemcpyHostToDevice));
        cudaGraph_t g3;
        CUDA_CHECK(cudaGraphCreate(&g3, 0));
        cudaMemcpy3DParms in = {};
        in.srcPtr = make_cudaPitchedPtr(block, BW * sizeof(int), BW, BH);
        in.dstArray = array;
        in.dstPos = make_cudaPos(2, 1, 0);
        in.extent = make_cudaExtent(BW, BH, 1);
        in.kind = cudaMemcpyHostToDevice;
        cudaMemcpy3DParms out = {};
        out.srcArray = array;
        out.dstPtr = make_cudaPitchedPtr(back, AW * sizeof(int), AW, AH);
        out.extent = make_cudaExtent(AW, AH, 1);
        out.kind = cudaMemcpyDeviceToHost;
        cudaGraphNode_t nIn, nOut;
        CUDA_CHECK(cudaGraphAddMemcpyNode(&nIn, g3, nullptr, 0, &in));
        CUDA_CHECK(cudaGraphAddMemcpyNode(&nOut, g3, &nIn, 1, &out));
        // A memset and a host node whose parameters change in the graph before it is instantiated.
        int *dFill;
        CUDA_CHECK(cudaMalloc(&dFill, 16 * sizeof(int)));
        cudaMemsetParams fill = {};
        fill.dst = dFill;
        fill.value = 1;
        fill.elementSize = sizeof(int);
        fill.width = 16;
        fill.height = 1;
        cudaGraphNode_t nFill, nTally;
        CUDA_CHECK(cudaGraphAddMemsetNode(&nFill, g3, nullptr, 0, &fill));
        fill.value = 0x01020304;
        CUDA_CHECK(cudaGraphMemsetNodeSetParams(nFill, &fill));
        int fills[16] = {};
        Tally other = {fills, 16, 0, 0}, unused = {fills, 16, 0, 0};
        cudaHostNodeParams hp3 = {tally, &unused};
        cudaGraphNode_t before[] = {nOut, nFill};
        CUDA_CHECK(cudaGraphAddHostNode(&nTally, g3, before, 2, &hp3));
        hp3.userData = &other;
        CUDA_CHECK(cudaGraphHostNodeSetParams(nTally, &hp3));
        cudaGraphNodeType copyType;
        CUDA_CHECK(cudaGraphNodeGetType(nIn, &copyType));
        cudaGraphExec_t e3;
        CUDA_CHECK(cudaGraphInstantiate(&e3, g3, 0));
        CUDA_CHECK(cudaGraphLaunch(e3, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        CUDA_CHECK(cudaMemcpy(fills, dFill, sizeof fills, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaFree(dFill));
        int wrong = copyType != cudaGraphNodeTypeMemcpy || other.calls != 1 || unused.calls != 0;
        for (int i = 0; i < 16; ++i)
            wrong += fills[i] != 0x01020304;
        printf("parameters changed in the graph: memset value %#x, host node's data %s\n", fills[0],
               other.calls == 1 && unused.calls == 0 ? "the new" : "the old");
        for (int y = 0; y < AH; ++y)
            for (int x = 0; x < AW; ++x) {
                bool inside = x >= 2 && x < 2 + BW && y >= 1 && y < 1 + BH;
                wrong += back[y][x] != (inside ? block[y - 1][x - 2] : 0);
                checksum = (checksum * 31 + back[y][x]) % 1000000007LL;
            }
        printf("3D copy nodes through an array: %s\n", wrong ? "wrong" : "ok");
        bad_ += wrong;
        CUDA_CHECK(cudaGraphExecDestroy(e3));
        CUDA_CHECK(cudaGraphDestroy(g3));
        CUDA_CHECK(cudaFreeArray(array));
    }

    // The pattern of programs that re-capture each step: the second capture (other arguments)
    // updates the instantiated first one; a capture of another shape is refused.
    {
        cudaStream_t cs;
        CUDA_CHECK(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
        cudaGraph_t first, second, third;
        CUDA_CHECK(cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal));
        scaleAdd<<<(n + 63) / 64, 64, 0, cs>>>(dIn, dBias, dOut, n, 2);
        CUDA_CHECK(cudaMemcpyAsync(hOut, dOut, n * sizeof(int), cudaMemcpyDeviceToHost, cs));
        CUDA_CHECK(cudaStreamEndCapture(cs, &first));
        CUDA_CHECK(cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal));
        scaleAdd<<<(n + 63) / 64, 64, 0, cs>>>(dIn, dBias, dOut, n, -4);
        CUDA_CHECK(cudaMemcpyAsync(hOut, dOut, n * sizeof(int), cudaMemcpyDeviceToHost, cs));
        CUDA_CHECK(cudaStreamEndCapture(cs, &second));
        CUDA_CHECK(cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal));
        scaleAdd<<<(n + 63) / 64, 64, 0, cs>>>(dIn, dBias, dOut, n, 1);
        CUDA_CHECK(cudaStreamEndCapture(cs, &third));
        cudaGraphExec_t ex;
        CUDA_CHECK(cudaGraphInstantiate(&ex, first, 0));
        cudaGraphExecUpdateResultInfo info = {};
        CUDA_CHECK(cudaGraphExecUpdate(ex, second, &info));
        int updated = info.result;
        CUDA_CHECK(cudaMemset(dBias, 0, n * sizeof(int)));
        CUDA_CHECK(cudaGraphLaunch(ex, cs));
        CUDA_CHECK(cudaStreamSynchronize(cs));
        int wrong = 0;
        for (int i = 0; i < n; ++i) {
            wrong += hOut[i] != hIn[i] * -4;
            checksum = (checksum * 31 + hOut[i]) % 1000000007LL;
        }
        info = {};
        cudaError_t refused = cudaGraphExecUpdate(ex, third, &info);
        cudaGetLastError();
        printf("update from a capture of the same shape: result %d, %s; of another shape: %s, result %d\n",
               updated, wrong ? "wrong" : "its arguments", cudaGetErrorName(refused), (int)info.result);
        bad_ += wrong || updated != cudaGraphExecUpdateSuccess || refused != cudaErrorGraphExecUpdateFailure ||
                info.result != cudaGraphExecUpdateErrorTopologyChanged;
        CUDA_CHECK(cudaGraphExecDestroy(ex));
        CUDA_CHECK(cudaGraphDestroy(first));
        CUDA_CHECK(cudaGraphDestroy(second));
        CUDA_CHECK(cudaGraphDestroy(third));
        CUDA_CHECK(cudaStreamDestroy(cs));
    }
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dBias));
    CUDA_CHECK(cudaFree(dOut));
    CUDA_CHECK(cudaFree(dSq));
    CUDA_CHECK(cudaFreeHost(hIn));
    CUDA_CHECK(cudaFreeHost(hOut));
    CUDA_CHECK(cudaFreeHost(hSquares));
    printf("checksum: %lld\n", checksum);
    printf(bad_ ? "FAIL\n" : "PASS\n");
    return bad_ ? 1 : 0;
}
