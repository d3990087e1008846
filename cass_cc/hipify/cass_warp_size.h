/* cass_warp_size.h: a CUDA warp is 32 threads on every target. HIP's warpSize and the device's
 * warp size are the wave's width, 64 on gfx9 (gfx942, gfx90a), where cass_wave64.h runs two
 * CUDA warps in each wave; CUDA code sizes its shared arrays, loops and launches by 32.
 * Included by cass_hip_compat.h in host and device compiles. */
#ifndef CASS_WARP_SIZE_H
#define CASS_WARP_SIZE_H

/* What hipify writes for warpSize. */
static constexpr int cass_warpSize = 32;

/* cudaGetDeviceProperties and cudaDeviceGetAttribute(cudaDevAttrWarpSize) say 32. */
inline hipError_t cass_hipGetDeviceProperties(hipDeviceProp_t* prop, int device) {
  hipError_t err = hipGetDeviceProperties(prop, device);
  if (err == hipSuccess) prop->warpSize = cass_warpSize;
  return err;
}
inline hipError_t cass_hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attr, int device) {
  hipError_t err = hipDeviceGetAttribute(value, attr, device);
  if (err == hipSuccess && attr == hipDeviceAttributeWarpSize) *value = cass_warpSize;
  return err;
}

#endif  // CASS_WARP_SIZE_H
