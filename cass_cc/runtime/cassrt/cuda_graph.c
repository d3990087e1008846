/* CUDA graphs: the edges between nodes and the node queries, the instantiation and upload calls
 * HIP 5.2 lacks, and what a capturing stream says about its capture. The nodes with parameter
 * structures are cuda_graph_nodes.c's; empty, 1D copy, child graph and event nodes, root nodes,
 * clones and node destruction are one HIP call each (passthrough.def).
 *
 * CUDA 12.3 added data to edges (cudaGraphEdgeData: ports of programmatic dependent launch);
 * HIP's edges carry none, so every edge here is the default one (all zero): a program may pass
 * default edge data and reads it back as such, and other edge data is refused. */
#include <string.h>

#include <cuda_runtime_api.h>

#include "cassrt.h"
#include "passthrough_cuda.h"

static cudaError_t result(int e) { return (cudaError_t)cassrt_result(e); }

/* Whether every given edge is the default one; a note on stderr where not. */
static int default_edges(const cudaGraphEdgeData *edgeData, size_t count)
{
    static const cudaGraphEdgeData none;
    for (size_t i = 0; edgeData && i < count; i++)
        if (memcmp(&edgeData[i], &none, sizeof none) != 0) {
            cassrt_note_once("graph edges with data (programmatic dependent launch ports) are not supported");
            return 0;
        }
    return 1;
}

static void clear_edges(cudaGraphEdgeData *edgeData, size_t count)
{
    if (edgeData)
        memset(edgeData, 0, count * sizeof *edgeData);
}

static cudaError_t change_edges(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                const cudaGraphEdgeData *edgeData, size_t numDependencies, int remove)
{
    if (!default_edges(edgeData, numDependencies))
        return result(cudaErrorNotSupported);
    return result(cassrt_graph_edges_change(graph, (void *const *)from, (void *const *)to, numDependencies, remove));
}

cudaError_t CUDARTAPI cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                               const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                               size_t numDependencies)
{
    return change_edges(graph, from, to, edgeData, numDependencies, 0);
}

cudaError_t CUDARTAPI cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                                  const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData,
                                                  size_t numDependencies)
{
    return change_edges(graph, from, to, edgeData, numDependencies, 1);
}

cudaError_t CUDARTAPI cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                                        cudaGraphEdgeData *edgeData, size_t *numEdges)
{
    size_t room = numEdges ? *numEdges : 0;
    int e = cassrt_graph_edges(graph, (void **)from, (void **)to, numEdges);
    if (e == cudaSuccess && from)
        clear_edges(edgeData, room);
    return result(e);
}

static cudaError_t node_links(cudaGraphNode_t node, cudaGraphNode_t *nodes, cudaGraphEdgeData *edgeData,
                              size_t *count, int dependents)
{
    size_t room = count ? *count : 0;
    int e = cassrt_graph_node_links(node, (void **)nodes, count, dependents);
    if (e == cudaSuccess && nodes)
        clear_edges(edgeData, room);
    return result(e);
}

cudaError_t CUDARTAPI cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                                   cudaGraphEdgeData *edgeData, size_t *pNumDependencies)
{
    return node_links(node, pDependencies, edgeData, pNumDependencies, 0);
}

cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                                     cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes)
{
    return node_links(node, pDependentNodes, edgeData, pNumDependentNodes, 1);
}

/* HIP numbers node types from 1 (hipGraphNodeTypeKernel) in CUDA's order, and adds 1D and symbol
 * copies (9 to 11), which are CUDA's memcpy nodes. */
cudaError_t CUDARTAPI cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
    int type;
    int e = pType ? cassrt_graph_node_type(node, &type) : cudaErrorInvalidValue;
    if (e == cudaSuccess)
        *pType = type >= 9 ? cudaGraphNodeTypeMemcpy : (enum cudaGraphNodeType)(type - 1);
    return result(e);
}

/* Instantiation with CUDA 12's parameter block. An upload (cudaGraphInstantiateFlagUpload) has
 * nothing to do: an instantiated graph is ready to launch on any stream. */
cudaError_t CUDARTAPI cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                     cudaGraphInstantiateParams *instantiateParams)
{
    if (!instantiateParams)
        return result(cudaErrorInvalidValue);
    unsigned long long flags = instantiateParams->flags & ~(unsigned long long)cudaGraphInstantiateFlagUpload;
    int e = cassrt_cudaGraphInstantiateWithFlags(pGraphExec, graph, flags);
    instantiateParams->errNode_out = NULL;
    instantiateParams->result_out = e == cudaSuccess ? cudaGraphInstantiateSuccess : cudaGraphInstantiateError;
    return result(e);
}

/* The instantiated graph takes the parameters of a graph of the same shape. */
cudaError_t CUDARTAPI cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                          cudaGraphExecUpdateResultInfo *resultInfo)
{
    void *error_node = NULL;
    int update_result = cudaGraphExecUpdateError;
    int e = cassrt_graph_exec_update(hGraphExec, hGraph, &error_node, &update_result);
    if (resultInfo) {
        resultInfo->result = (enum cudaGraphExecUpdateResult)update_result;
        resultInfo->errorNode = error_node;
        resultInfo->errorFromNode = NULL;
    }
    return result(e);
}

/* Uploading makes a later launch start sooner, nothing else; HIP 5.2 has no upload, and the
 * launch does all the work. */
cudaError_t CUDARTAPI cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    (void)stream;
    return graphExec ? cudaSuccess : result(cudaErrorInvalidValue);
}

/* The per-thread default stream forms (nvcc -default-stream per-thread renames the calls): the
 * stream plays no part in either. */
cudaError_t CUDARTAPI cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                          cudaGraphInstantiateParams *instantiateParams);
cudaError_t CUDARTAPI cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);

cudaError_t CUDARTAPI cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                          cudaGraphInstantiateParams *instantiateParams)
{
    return cudaGraphInstantiateWithParams(pGraphExec, graph, instantiateParams);
}

cudaError_t CUDARTAPI cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    return cudaGraphUpload(graphExec, stream);
}

/* The capture's status and id. The graph being captured and the nodes the next operation will
 * depend on are not available while capturing (the emulated runtime records operations, not a
 * graph, until the capture ends): asking for them then is refused. */
static cudaError_t capture_info(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                unsigned long long *id_out, cudaGraph_t *graph_out,
                                const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out,
                                size_t *numDependencies_out)
{
    int status = 0;
    unsigned long long id = 0;
    if (!captureStatus_out)
        return result(cudaErrorInvalidValue);
    int e = cassrt_capture_info(stream, &status, &id);
    if (e != cudaSuccess)
        return result(e);
    *captureStatus_out = (enum cudaStreamCaptureStatus)status;
    if (status != cudaStreamCaptureStatusActive)
        return cudaSuccess;
    if (graph_out || dependencies_out || edgeData_out || numDependencies_out) {
        cassrt_note_once("cudaStreamGetCaptureInfo: the graph and dependencies of a capture in progress "
                         "are not supported");
        return result(cudaErrorNotSupported);
    }
    if (id_out)
        *id_out = id;
    return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                               unsigned long long *id_out, cudaGraph_t *graph_out,
                                               const cudaGraphNode_t **dependencies_out,
                                               const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    return capture_info(stream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                        numDependencies_out);
}

cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                    enum cudaStreamCaptureStatus *captureStatus_out,
                                                    unsigned long long *id_out, cudaGraph_t *graph_out,
                                                    const cudaGraphNode_t **dependencies_out,
                                                    const cudaGraphEdgeData **edgeData_out,
                                                    size_t *numDependencies_out);

cudaError_t CUDARTAPI cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                    enum cudaStreamCaptureStatus *captureStatus_out,
                                                    unsigned long long *id_out, cudaGraph_t *graph_out,
                                                    const cudaGraphNode_t **dependencies_out,
                                                    const cudaGraphEdgeData **edgeData_out,
                                                    size_t *numDependencies_out)
{
    return capture_info(stream ? stream : cudaStreamPerThread, captureStatus_out, id_out, graph_out,
                        dependencies_out, edgeData_out, numDependencies_out);
}
