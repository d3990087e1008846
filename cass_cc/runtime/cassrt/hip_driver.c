/* The HIP calls behind the driver functions of driver.def. */
#include <hip/hip_runtime_api.h>

#include "cassrt.h"
#include "hip_internal.h"

#define T_DPTR unsigned long long
#define T_STREAM hipStream_t
#define STREAM(s) cassrt_hip_stream(s)

#define DRV(name, params, args, hip_call) \
    int cassrt_##name params;             \
    int cassrt_##name params { return (int)hip_call; }
#include "driver.def"
