/* Included first into every .cu that cass-nvcc compiles with hipcc.
 *
 * The HIP runtime header comes first, so HIP picks the AMD platform (hip_common.h reads
 * __NVCC__ once to decide); then the macros nvcc defines are set, so code written for nvcc sees
 * the compiler it was written for (CMake's compiler identification reads them too). The
 * __CUDACC_VER_*__ values come from the command line. */
#ifndef CASS_NVCC_PRELUDE_H
#define CASS_NVCC_PRELUDE_H
/* ROCm's device assert() traps, which ends the process; CUDA reports it to the host instead
 * (cass_device_assert.h, which also stands in for ROCm's while its headers are read). */
#define __assert_fail cass_rocm_assert_fail
#include <hip/hip_runtime.h>
#undef __assert_fail
#include "../hipify/cass_device_assert.h"
#ifndef __NVCC__
#define __NVCC__ 1
#endif
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#endif
