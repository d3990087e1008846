/* cudaGraphDebugDotPrint: a graph as a Graphviz file, one vertex per node (labelled with its
 * type) and one edge per dependency. The flags choose how much of each node's parameters NVIDIA
 * prints; the file here names the types only, whatever they ask. */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "cassrt.h"

static cudaError_t result(int e) { return (cudaError_t)cassrt_result(e); }

static const char *type_name(cudaGraphNode_t node)
{
    static const char *const names[] = {"kernel", "memcpy", "memset", "host", "graph", "empty", "wait event",
                                        "event record"};
    enum cudaGraphNodeType type;
    if (cudaGraphNodeGetType(node, &type) != cudaSuccess) {
        cudaGetLastError();   /* a node made by capture under cass-run keeps no type: not the caller's error */
        return "node";
    }
    return (unsigned)type < sizeof names / sizeof names[0] ? names[type] : "node";
}

static size_t index_of(cudaGraphNode_t node, const cudaGraphNode_t *nodes, size_t count)
{
    size_t i = 0;
    while (i < count && nodes[i] != node)
        i++;
    return i;
}

static cudaError_t write_dot(FILE *out, const cudaGraphNode_t *nodes, size_t count, const cudaGraphNode_t *from,
                             const cudaGraphNode_t *to, size_t edges)
{
    fprintf(out, "digraph cass_graph {\n");
    for (size_t i = 0; i < count; i++)
        fprintf(out, "    node_%zu [label=\"%zu: %s\"];\n", i, i, type_name(nodes[i]));
    for (size_t i = 0; i < edges; i++)
        fprintf(out, "    node_%zu -> node_%zu;\n", index_of(from[i], nodes, count), index_of(to[i], nodes, count));
    fprintf(out, "}\n");
    return ferror(out) ? cudaErrorOperatingSystem : cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags)
{
    (void)flags;
    size_t count = 0, edges = 0;
    if (!path)
        return result(cudaErrorInvalidValue);
    cudaError_t e = cudaGraphGetNodes(graph, NULL, &count);
    if (e == cudaSuccess)
        e = cudaGraphGetEdges(graph, NULL, NULL, NULL, &edges);
    if (e != cudaSuccess)
        return e;
    cudaGraphNode_t *nodes = calloc(count + 2 * edges + 1, sizeof *nodes);
    if (!nodes)
        return result(cudaErrorMemoryAllocation);
    cudaGraphNode_t *from = nodes + count, *to = from + edges;
    e = cudaGraphGetNodes(graph, nodes, &count);
    if (e == cudaSuccess && edges)
        e = cudaGraphGetEdges(graph, from, to, NULL, &edges);
    if (e == cudaSuccess) {
        FILE *out = fopen(path, "w");
        if (!out) {
            e = result(cudaErrorOperatingSystem);
        } else {
            e = write_dot(out, nodes, count, from, to, edges);
            if (fclose(out) != 0 && e == cudaSuccess)
                e = cudaErrorOperatingSystem;
            if (e != cudaSuccess)
                e = result(e);
        }
    }
    free(nodes);
    return e;
}
