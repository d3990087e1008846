/* Graph nodes with parameter structures: kernel, 3D copy, memset and host nodes, added, changed in
 * the graph (cudaGraph*NodeSetParams) or in one instantiated graph (cudaGraphExec*NodeSetParams),
 * and, for memset and host nodes, read back. The structures cross to hip_graph.c as plain values.
 * A kernel node's parameters cannot be read back yet (HIP's name the kernel's module function). */
#include <cuda_runtime_api.h>

#include "cassrt.h"

static cudaError_t result(int e) { return (cudaError_t)cassrt_result(e); }

/* What a kernel node launches: the kernel (its image given the device heap, as a launch does
 * first), and the geometry. */
struct launch { struct cassrt_kernel *kernel; struct cassrt_dim grid, block; };

static int launch_of(const struct cudaKernelNodeParams *p, struct launch *l)
{
    if (!p)
        return cudaErrorInvalidValue;
    l->kernel = cassrt_kernel_of(p->func);
    if (!l->kernel)    /* what an H200 answers for a host function */
        return cudaErrorInvalidResourceHandle;
    l->grid = (struct cassrt_dim){p->gridDim.x, p->gridDim.y, p->gridDim.z};
    l->block = (struct cassrt_dim){p->blockDim.x, p->blockDim.y, p->blockDim.z};
    return cassrt_bind_heap(l->kernel);
}

cudaError_t CUDARTAPI cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaKernelNodeParams *pNodeParams)
{
    struct launch l;
    int e = launch_of(pNodeParams, &l);
    if (e == cudaSuccess)
        e = cassrt_graph_add_kernel((void **)pGraphNode, graph, (void *const *)pDependencies, numDependencies,
                                    l.kernel, l.grid, l.block, pNodeParams->sharedMemBytes,
                                    pNodeParams->kernelParams, pNodeParams->extra);
    return result(e);
}

static cudaError_t kernel_params(cudaGraphExec_t exec, cudaGraphNode_t node, const struct cudaKernelNodeParams *p)
{
    struct launch l;
    int e = launch_of(p, &l);
    if (e == cudaSuccess)
        e = cassrt_graph_kernel_params(exec, node, l.kernel, l.grid, l.block, p->sharedMemBytes, p->kernelParams,
                                       p->extra);
    return result(e);
}

cudaError_t CUDARTAPI cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams)
{
    return kernel_params(NULL, node, pNodeParams);
}

cudaError_t CUDARTAPI cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                       const struct cudaKernelNodeParams *pNodeParams)
{
    return kernel_params(hGraphExec, node, pNodeParams);
}

/* A copy node of cudaMemcpy3D's parameters (arrays, pitched pointers, positions, extent). */
cudaError_t CUDARTAPI cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaMemcpy3DParms *pCopyParams)
{
    struct cassrt_copy_3d copy;
    int e = cassrt_copy_3d_of(pCopyParams, &copy);
    if (e == cudaSuccess)
        e = cassrt_graph_add_memcpy_3d((void **)pGraphNode, graph, (void *const *)pDependencies, numDependencies,
                                       &copy);
    return result(e);
}

cudaError_t CUDARTAPI cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                             const struct cudaMemsetParams *pMemsetParams)
{
    const struct cudaMemsetParams *p = pMemsetParams;
    if (!p)
        return result(cudaErrorInvalidValue);
    return result(cassrt_graph_add_memset((void **)pGraphNode, graph, (void *const *)pDependencies,
                                          numDependencies, p->dst, p->pitch, p->value, p->elementSize, p->width,
                                          p->height));
}

static cudaError_t memset_params(cudaGraphExec_t exec, cudaGraphNode_t node, const struct cudaMemsetParams *p)
{
    if (!p)
        return result(cudaErrorInvalidValue);
    return result(cassrt_graph_memset_params(exec, node, p->dst, p->pitch, p->value, p->elementSize, p->width,
                                             p->height));
}

cudaError_t CUDARTAPI cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *pNodeParams)
{
    return memset_params(NULL, node, pNodeParams);
}

cudaError_t CUDARTAPI cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                       const struct cudaMemsetParams *pNodeParams)
{
    return memset_params(hGraphExec, node, pNodeParams);
}

cudaError_t CUDARTAPI cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *pNodeParams)
{
    struct cudaMemsetParams *p = pNodeParams;
    if (!p)
        return result(cudaErrorInvalidValue);
    return result(cassrt_graph_memset_get(node, &p->dst, &p->pitch, &p->value, &p->elementSize, &p->width,
                                          &p->height));
}

cudaError_t CUDARTAPI cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                           const struct cudaHostNodeParams *pNodeParams)
{
    if (!pNodeParams)
        return result(cudaErrorInvalidValue);
    return result(cassrt_graph_add_host((void **)pGraphNode, graph, (void *const *)pDependencies, numDependencies,
                                        pNodeParams->fn, pNodeParams->userData));
}

cudaError_t CUDARTAPI cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams)
{
    if (!pNodeParams)
        return result(cudaErrorInvalidValue);
    return result(cassrt_graph_host_params(NULL, node, pNodeParams->fn, pNodeParams->userData));
}

cudaError_t CUDARTAPI cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                     const struct cudaHostNodeParams *pNodeParams)
{
    if (!pNodeParams)
        return result(cudaErrorInvalidValue);
    return result(cassrt_graph_host_params(hGraphExec, node, pNodeParams->fn, pNodeParams->userData));
}

cudaError_t CUDARTAPI cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *pNodeParams)
{
    if (!pNodeParams)
        return result(cudaErrorInvalidValue);
    return result(cassrt_graph_host_get(node, &pNodeParams->fn, &pNodeParams->userData));
}
