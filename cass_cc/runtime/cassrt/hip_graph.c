/* Graphs built node by node (cuda_graph.c): HIP's graph functions, with HIP's node parameter
 * structures rebuilt from the plain values cassrt.h passes. */
#include <string.h>

#include <hip/hip_runtime_api.h>

#include "cassrt.h"
#include "hip_internal.h"

/* HIP's parameters of a kernel node, as cassrt_launch launches the kernel: a kernel run one warp
 * per wave gets its lanes and CUDA's blockDim among its arguments (HIP copies the arguments when
 * the node is made or changed, so `l` may go after). */
static hipError_t kernel_params(struct cassrt_kernel *kernel, struct cassrt_dim grid, struct cassrt_dim block,
                                unsigned shared_mem, void **params, void **extra, hipKernelNodeParams *p,
                                struct cassrt_wave_launch *l)
{
    memset(p, 0, sizeof *p);
    memset(l, 0, sizeof *l);
    hipFunction_t fn;
    hipError_t e = cassrt_kernel_function(kernel, &fn);
    if (e != hipSuccess)
        return e;
    p->func = fn;
    p->gridDim = (dim3){grid.x, grid.y, grid.z};
    p->blockDim = (dim3){block.x, block.y, block.z};
    p->sharedMemBytes = shared_mem;
    p->kernelParams = params;
    p->extra = extra;
    const struct cassrt_wave_per_warp *w = cassrt_kernel_wave_per_warp(kernel);
    if (!w->wave_per_warp)
        return hipSuccess;
    e = cassrt_wave_per_warp_prepare(w, cassrt_kernel_name(kernel), block, params, extra, l);
    p->blockDim = (dim3){l->lanes, 1, 1};
    p->kernelParams = l->args;
    p->extra = l->args ? NULL : l->extra;
    return e;
}

static hipMemsetParams memset_params(void *dst, size_t pitch, unsigned value, unsigned element_size, size_t width,
                                     size_t height)
{
    hipMemsetParams p = {0};
    p.dst = dst;
    p.pitch = pitch;
    p.value = value;
    p.elementSize = element_size;
    p.width = width;
    p.height = height;
    return p;
}

int cassrt_graph_add_kernel(void **node, void *graph, void *const *deps, size_t count, struct cassrt_kernel *kernel,
                            struct cassrt_dim grid, struct cassrt_dim block, unsigned shared_mem, void **params,
                            void **extra)
{
    hipKernelNodeParams p;
    struct cassrt_wave_launch l;
    hipError_t e = kernel_params(kernel, grid, block, shared_mem, params, extra, &p, &l);
    if (e == hipSuccess)
        e = hipGraphAddKernelNode((hipGraphNode_t *)node, graph, (const hipGraphNode_t *)deps, count, &p);
    cassrt_wave_per_warp_release(&l);
    return e;
}

int cassrt_graph_kernel_params(void *exec, void *node, struct cassrt_kernel *kernel, struct cassrt_dim grid,
                               struct cassrt_dim block, unsigned shared_mem, void **params, void **extra)
{
    hipKernelNodeParams p;
    struct cassrt_wave_launch l;
    hipError_t e = kernel_params(kernel, grid, block, shared_mem, params, extra, &p, &l);
    if (e == hipSuccess)
        e = exec ? hipGraphExecKernelNodeSetParams(exec, node, &p) : hipGraphKernelNodeSetParams(node, &p);
    cassrt_wave_per_warp_release(&l);
    return e;
}

int cassrt_graph_add_memset(void **node, void *graph, void *const *deps, size_t count, void *dst, size_t pitch,
                            unsigned value, unsigned element_size, size_t width, size_t height)
{
    hipMemsetParams p = memset_params(dst, pitch, value, element_size, width, height);
    return hipGraphAddMemsetNode((hipGraphNode_t *)node, graph, (const hipGraphNode_t *)deps, count, &p);
}

int cassrt_graph_memset_params(void *exec, void *node, void *dst, size_t pitch, unsigned value, unsigned element_size,
                               size_t width, size_t height)
{
    hipMemsetParams p = memset_params(dst, pitch, value, element_size, width, height);
    return exec ? hipGraphExecMemsetNodeSetParams(exec, node, &p) : hipGraphMemsetNodeSetParams(node, &p);
}

int cassrt_graph_memset_get(void *node, void **dst, size_t *pitch, unsigned *value, unsigned *element_size,
                            size_t *width, size_t *height)
{
    hipMemsetParams p;
    hipError_t e = hipGraphMemsetNodeGetParams(node, &p);
    if (e == hipSuccess) {
        *dst = p.dst;
        *pitch = p.pitch;
        *value = p.value;
        *element_size = p.elementSize;
        *width = p.width;
        *height = p.height;
    }
    return e;
}

int cassrt_graph_add_memcpy_3d(void **node, void *graph, void *const *deps, size_t count,
                               const struct cassrt_copy_3d *c)
{
    hipMemcpy3DParms p = {0};
    p.srcPtr = make_hipPitchedPtr((void *)c->src, c->src_pitch, c->src_xsize, c->src_ysize);
    p.srcPos = make_hipPos(c->src_pos[0], c->src_pos[1], c->src_pos[2]);
    p.dstPtr = make_hipPitchedPtr(c->dst, c->dst_pitch, c->dst_xsize, c->dst_ysize);
    p.dstPos = make_hipPos(c->dst_pos[0], c->dst_pos[1], c->dst_pos[2]);
    p.extent = make_hipExtent(c->extent[0], c->extent[1], c->extent[2]);
    p.kind = (hipMemcpyKind)c->kind;
    return hipGraphAddMemcpyNode((hipGraphNode_t *)node, graph, (const hipGraphNode_t *)deps, count, &p);
}

int cassrt_graph_add_host(void **node, void *graph, void *const *deps, size_t count, void (*fn)(void *),
                          void *data)
{
    hipHostNodeParams p = {fn, data};
    return hipGraphAddHostNode((hipGraphNode_t *)node, graph, (const hipGraphNode_t *)deps, count, &p);
}

int cassrt_graph_host_params(void *exec, void *node, void (*fn)(void *), void *data)
{
    hipHostNodeParams p = {fn, data};
    return exec ? hipGraphExecHostNodeSetParams(exec, node, &p) : hipGraphHostNodeSetParams(node, &p);
}

int cassrt_graph_host_get(void *node, void (**fn)(void *), void **data)
{
    hipHostNodeParams p;
    hipError_t e = hipGraphHostNodeGetParams(node, &p);
    if (e == hipSuccess) {
        *fn = p.fn;
        *data = p.userData;
    }
    return e;
}

int cassrt_graph_edges_change(void *graph, void *const *from, void *const *to, size_t count, int remove)
{
    const hipGraphNode_t *f = (const hipGraphNode_t *)from, *t = (const hipGraphNode_t *)to;
    return remove ? hipGraphRemoveDependencies(graph, f, t, count) : hipGraphAddDependencies(graph, f, t, count);
}

int cassrt_graph_edges(void *graph, void **from, void **to, size_t *count)
{
    return hipGraphGetEdges(graph, (hipGraphNode_t *)from, (hipGraphNode_t *)to, count);
}

int cassrt_graph_node_links(void *node, void **nodes, size_t *count, int dependents)
{
    hipGraphNode_t *out = (hipGraphNode_t *)nodes;
    return dependents ? hipGraphNodeGetDependentNodes(node, out, count) : hipGraphNodeGetDependencies(node, out, count);
}

int cassrt_graph_node_type(void *node, int *type)
{
    hipGraphNodeType t;
    hipError_t e = hipGraphNodeGetType(node, &t);
    if (e == hipSuccess)
        *type = (int)t;
    return e;
}

int cassrt_capture_info(void *stream, int *status, unsigned long long *id)
{
    hipStreamCaptureStatus s;
    hipError_t e = hipStreamGetCaptureInfo(cassrt_hip_stream(stream), &s, id);
    if (e == hipSuccess)
        *status = (int)s;
    return e;
}

int cassrt_graph_exec_update(void *exec, void *graph, void **error_node, int *update_result)
{
    hipGraphExecUpdateResult r = hipGraphExecUpdateError;
    hipError_t e = hipGraphExecUpdate(exec, graph, (hipGraphNode_t *)error_node, &r);
    *update_result = (int)r;
    return e;
}
