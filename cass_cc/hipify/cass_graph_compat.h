/* cass_graph_compat.h: CUDA 12-13's graph API where HIP 5.2 has an older form or none, over what
 * ROCm 5.2's libamdhip64 has: the edge-data forms of the dependency calls (CUDA 12.3's _v2, CUDA
 * 13's only form), cudaGraphExecUpdate with a result-info struct, cudaGraphInstantiateWithParams,
 * cudaGraphUpload and cudaGraphDebugDotPrint. Included by cass_hip_compat.h.
 *
 * HIP 5.2's graphs have only default edges (no ports, no programmatic edges): edge data read back
 * is all zeros, and edge data that asks for anything else fails with hipErrorNotSupported. */
#ifndef CASS_GRAPH_COMPAT_H
#define CASS_GRAPH_COMPAT_H

#include <cstdio>
#include <vector>

/* cudaGraphEdgeData */
struct cass_hipGraphEdgeData {
  unsigned char from_port;
  unsigned char to_port;
  unsigned char type;
  unsigned char reserved[5];
};

namespace cass_graph_compat {
inline bool all_default(const cass_hipGraphEdgeData* data, size_t count) {
  for (size_t i = 0; data && i < count; ++i)
    if (data[i].from_port || data[i].to_port || data[i].type) return false;
  return true;
}
/* The edge data of the `room` entries a listing filled, when the caller asked for it. */
inline void fill_default(cass_hipGraphEdgeData* data, bool listed, size_t room, size_t found) {
  if (data && listed)
    for (size_t i = 0; i < room && i < found; ++i) data[i] = cass_hipGraphEdgeData{};
}
inline const char* kind(hipGraphNodeType type) {
  switch (type) {
    case hipGraphNodeTypeKernel: return "kernel";
    case hipGraphNodeTypeMemcpy: case hipGraphNodeTypeMemcpy1D: case hipGraphNodeTypeMemcpyFromSymbol:
    case hipGraphNodeTypeMemcpyToSymbol: return "memcpy";
    case hipGraphNodeTypeMemset: return "memset";
    case hipGraphNodeTypeHost: return "host";
    case hipGraphNodeTypeGraph: return "graph";
    case hipGraphNodeTypeEmpty: return "empty";
    case hipGraphNodeTypeWaitEvent: return "wait_event";
    case hipGraphNodeTypeEventRecord: return "event_record";
    default: return "node";
  }
}
}  // namespace cass_graph_compat

inline hipError_t cass_hipGraphGetEdges(hipGraph_t graph, hipGraphNode_t* from, hipGraphNode_t* to,
                                        cass_hipGraphEdgeData* edgeData, size_t* numEdges) {
  if (numEdges == nullptr) return hipErrorInvalidValue;
  size_t room = *numEdges;
  hipError_t e = hipGraphGetEdges(graph, from, to, numEdges);
  if (e == hipSuccess) cass_graph_compat::fill_default(edgeData, from != nullptr, room, *numEdges);
  return e;
}

inline hipError_t cass_hipGraphNodeGetDependencies(hipGraphNode_t node, hipGraphNode_t* nodes,
                                                   cass_hipGraphEdgeData* edgeData, size_t* count) {
  if (count == nullptr) return hipErrorInvalidValue;
  size_t room = *count;
  hipError_t e = hipGraphNodeGetDependencies(node, nodes, count);
  if (e == hipSuccess) cass_graph_compat::fill_default(edgeData, nodes != nullptr, room, *count);
  return e;
}

inline hipError_t cass_hipGraphNodeGetDependentNodes(hipGraphNode_t node, hipGraphNode_t* nodes,
                                                     cass_hipGraphEdgeData* edgeData, size_t* count) {
  if (count == nullptr) return hipErrorInvalidValue;
  size_t room = *count;
  hipError_t e = hipGraphNodeGetDependentNodes(node, nodes, count);
  if (e == hipSuccess) cass_graph_compat::fill_default(edgeData, nodes != nullptr, room, *count);
  return e;
}

inline hipError_t cass_hipGraphAddDependencies(hipGraph_t graph, const hipGraphNode_t* from, const hipGraphNode_t* to,
                                               const cass_hipGraphEdgeData* edgeData, size_t count) {
  if (!cass_graph_compat::all_default(edgeData, count)) return hipErrorNotSupported;
  return hipGraphAddDependencies(graph, from, to, count);
}

inline hipError_t cass_hipGraphRemoveDependencies(hipGraph_t graph, const hipGraphNode_t* from,
                                                  const hipGraphNode_t* to, const cass_hipGraphEdgeData* edgeData,
                                                  size_t count) {
  if (!cass_graph_compat::all_default(edgeData, count)) return hipErrorNotSupported;
  return hipGraphRemoveDependencies(graph, from, to, count);
}

/* cudaGraphNodeType: CUDA's numbers (HIP 5.2's start at 1). */
enum cass_hipGraphNodeType {
  cass_hipGraphNodeTypeKernel = 0,
  cass_hipGraphNodeTypeMemcpy = 1,
  cass_hipGraphNodeTypeMemset = 2,
  cass_hipGraphNodeTypeHost = 3,
  cass_hipGraphNodeTypeGraph = 4,
  cass_hipGraphNodeTypeEmpty = 5,
  cass_hipGraphNodeTypeWaitEvent = 6,
  cass_hipGraphNodeTypeEventRecord = 7,
  cass_hipGraphNodeTypeExtSemaphoreSignal = 8,
  cass_hipGraphNodeTypeExtSemaphoreWait = 9,
  cass_hipGraphNodeTypeMemAlloc = 10,
  cass_hipGraphNodeTypeMemFree = 11,
  cass_hipGraphNodeTypeConditional = 13,
  cass_hipGraphNodeTypeCount = 14
};

inline hipError_t cass_hipGraphNodeGetType(hipGraphNode_t node, cass_hipGraphNodeType* type) {
  if (type == nullptr) return hipErrorInvalidValue;
  hipGraphNodeType hip;
  hipError_t e = hipGraphNodeGetType(node, &hip);
  if (e != hipSuccess) return e;
  switch (hip) {
    case hipGraphNodeTypeKernel: *type = cass_hipGraphNodeTypeKernel; break;
    case hipGraphNodeTypeMemcpy: case hipGraphNodeTypeMemcpy1D: case hipGraphNodeTypeMemcpyFromSymbol:
    case hipGraphNodeTypeMemcpyToSymbol: *type = cass_hipGraphNodeTypeMemcpy; break;
    case hipGraphNodeTypeMemset: *type = cass_hipGraphNodeTypeMemset; break;
    case hipGraphNodeTypeHost: *type = cass_hipGraphNodeTypeHost; break;
    case hipGraphNodeTypeGraph: *type = cass_hipGraphNodeTypeGraph; break;
    case hipGraphNodeTypeEmpty: *type = cass_hipGraphNodeTypeEmpty; break;
    case hipGraphNodeTypeWaitEvent: *type = cass_hipGraphNodeTypeWaitEvent; break;
    case hipGraphNodeTypeEventRecord: *type = cass_hipGraphNodeTypeEventRecord; break;
    default: return hipErrorUnknown;   /* a kind of node that CUDA has no number for */
  }
  return hipSuccess;
}

/* cudaGraphExecUpdateResultInfo (CUDA 12) */
struct cass_hipGraphExecUpdateResultInfo {
  hipGraphExecUpdateResult result;
  hipGraphNode_t errorNode;
  hipGraphNode_t errorFromNode;
};

inline hipError_t cass_hipGraphExecUpdate(hipGraphExec_t exec, hipGraph_t graph,
                                          cass_hipGraphExecUpdateResultInfo* info) {
  if (info == nullptr) return hipErrorInvalidValue;
  hipGraphNode_t error_node = nullptr;
  hipGraphExecUpdateResult result = hipGraphExecUpdateSuccess;
  hipError_t e = hipGraphExecUpdate(exec, graph, &error_node, &result);
  *info = cass_hipGraphExecUpdateResultInfo{result, error_node, nullptr};
  return e;
}

/* cudaGraphInstantiateFlags beyond HIP 5.2's AutoFreeOnLaunch, cudaGraphInstantiateResult and
 * cudaGraphInstantiateParams. */
#define cass_hipGraphInstantiateFlagUpload 2
#define cass_hipGraphInstantiateFlagDeviceLaunch 4
#define cass_hipGraphInstantiateFlagUseNodePriority 8
enum cass_hipGraphInstantiateResult {
  cass_hipGraphInstantiateSuccess = 0,
  cass_hipGraphInstantiateError = 1,
  cass_hipGraphInstantiateInvalidStructure = 2,
  cass_hipGraphInstantiateNodeOperationNotSupported = 3,
  cass_hipGraphInstantiateMultipleDevicesNotSupported = 4
};
struct cass_hipGraphInstantiateParams {
  unsigned long long flags;
  hipStream_t uploadStream;
  hipGraphNode_t errNode_out;
  cass_hipGraphInstantiateResult result_out;
};

/* A graph is made ready for the device when it is first launched (ROCm 5.2 has no separate
 * upload), so an upload asks nothing more of the runtime than a valid graph and stream. */
inline hipError_t cass_hipGraphUpload(hipGraphExec_t exec, hipStream_t stream) {
  if (exec == nullptr) return hipErrorInvalidValue;
  hipError_t e = hipStreamQuery(stream);
  return e == hipErrorNotReady ? hipSuccess : e;
}

inline hipError_t cass_hipGraphInstantiateWithParams(hipGraphExec_t* exec, hipGraph_t graph,
                                                     cass_hipGraphInstantiateParams* params) {
  if (params == nullptr) return hipErrorInvalidValue;
  params->errNode_out = nullptr;
  params->result_out = cass_hipGraphInstantiateError;
  /* Device-side graph launches and node priorities are CUDA features AMD's runtime lacks. */
  if (params->flags & (cass_hipGraphInstantiateFlagDeviceLaunch | cass_hipGraphInstantiateFlagUseNodePriority))
    return hipErrorNotSupported;
  hipError_t e = hipGraphInstantiateWithFlags(exec, graph, params->flags & hipGraphInstantiateFlagAutoFreeOnLaunch);
  if (e == hipSuccess && (params->flags & cass_hipGraphInstantiateFlagUpload))
    e = cass_hipGraphUpload(*exec, params->uploadStream);
  if (e == hipSuccess) params->result_out = cass_hipGraphInstantiateSuccess;
  return e;
}

/* cudaGraphDebugDotFlags: the details a dot file may show; every node's kind is always shown. */
#define cass_hipGraphDebugDotFlagsVerbose (1 << 0)
#define cass_hipGraphDebugDotFlagsKernelNodeParams (1 << 2)
#define cass_hipGraphDebugDotFlagsMemcpyNodeParams (1 << 3)
#define cass_hipGraphDebugDotFlagsMemsetNodeParams (1 << 4)
#define cass_hipGraphDebugDotFlagsHostNodeParams (1 << 5)
#define cass_hipGraphDebugDotFlagsEventNodeParams (1 << 6)
#define cass_hipGraphDebugDotFlagsKernelNodeAttributes (1 << 9)
#define cass_hipGraphDebugDotFlagsHandles (1 << 10)

/* The graph as a Graphviz digraph, from the graph's own queries: a node of each kind and the
 * edges (NVIDIA's file shows more detail; tools read both as a digraph). */
inline hipError_t cass_hipGraphDebugDotPrint(hipGraph_t graph, const char* path, unsigned int flags) {
  (void)flags;
  if (path == nullptr) return hipErrorInvalidValue;
  size_t count = 0, edges = 0;
  hipError_t e = hipGraphGetNodes(graph, nullptr, &count);
  if (e == hipSuccess) e = hipGraphGetEdges(graph, nullptr, nullptr, &edges);
  if (e != hipSuccess) return e;
  std::vector<hipGraphNode_t> nodes(count), from(edges), to(edges);
  if (count) e = hipGraphGetNodes(graph, nodes.data(), &count);
  if (e == hipSuccess && edges) e = hipGraphGetEdges(graph, from.data(), to.data(), &edges);
  if (e != hipSuccess) return e;
  FILE* out = std::fopen(path, "w");
  if (out == nullptr) return hipErrorOperatingSystem;
  std::fprintf(out, "digraph cudaGraph {\n");
  for (size_t i = 0; i < count; ++i) {
    hipGraphNodeType type;
    e = hipGraphNodeGetType(nodes[i], &type);
    if (e != hipSuccess) break;
    std::fprintf(out, "  \"%p\" [label=\"%s\"];\n", static_cast<void*>(nodes[i]), cass_graph_compat::kind(type));
  }
  for (size_t i = 0; e == hipSuccess && i < edges; ++i)
    std::fprintf(out, "  \"%p\" -> \"%p\";\n", static_cast<void*>(from[i]), static_cast<void*>(to[i]));
  std::fprintf(out, "}\n");
  bool written = std::fclose(out) == 0;
  return e != hipSuccess ? e : written ? hipSuccess : hipErrorOperatingSystem;
}

#endif  // CASS_GRAPH_COMPAT_H
