/* The driver API's error codes and strings (cuGetErrorName/String), and HIP's codes as CUresult.
 *
 * Driver calls return their code and leave the runtime's last error alone, as CUDA's libcuda does
 * (cudaGetLastError reports only runtime calls). */
#include <stddef.h>

#include <cuda.h>

#include "cassrt.h"

#define DRV_ERR(name, value, message) _Static_assert(name == value, "driver_errors.def is out of date: " #name);
#include "driver_errors.def"
#undef DRV_ERR

static const struct cassrt_error errors[] = {
#define DRV_ERR(name, value, message) {value, #name, message},
#include "driver_errors.def"
#undef DRV_ERR
};

static const struct cassrt_error *find_error(int code)
{
    return cassrt_find_error(errors, sizeof errors / sizeof errors[0], code);
}

/* HIP's codes have the CUDA runtime's values (hip_errors.c checks them), and the runtime's codes
 * are the driver's where both have one; the runtime-only codes HIP returns become the driver code
 * for the same fault. */
int cassrt_driver_result(int hip_error)
{
    switch (hip_error) {
    case 9:   /* invalid configuration */
    case 12:  /* invalid pitch */
    case 17:  /* invalid device pointer */
    case 21:  /* invalid copy direction */
        return CUDA_ERROR_INVALID_VALUE;
    case 13:  /* invalid symbol */
        return CUDA_ERROR_NOT_FOUND;
    case 98:  /* invalid device function */
        return CUDA_ERROR_INVALID_HANDLE;
    default:
        return find_error(hip_error) ? hip_error : CUDA_ERROR_UNKNOWN;
    }
}

CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr)
{
    const struct cassrt_error *e = find_error(error);
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    *pStr = e ? e->name : NULL;
    return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pStr)
{
    const struct cassrt_error *e = find_error(error);
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    *pStr = e ? e->message : NULL;
    return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
