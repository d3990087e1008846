/* cass_texture_compat.h: CUDA's texture behaviour where HIP 5.2 differs from it, for
 * cass_hip_compat.h (hipify renames the CUDA calls below to these cass_ forms).
 *   - cudaCreateChannelDesc<uchar1..uchar4>(): HIP 5.2 reports them as signed;
 *   - cudaCreateTextureObject: CUDA returns the border colour of a normalised-integer texture
 *     as a texel value (the H200: 0.5 on 8-bit unorm reads 127/255), AMD's sampler returns
 *     the float it was given;
 *   - tex2Dgather: HIP 5.2 gathers component 0 from alpha, 1 from red, 2 from green, 3 from
 *     blue (CUDA's comp is x, y, z, w), and at a moved coordinate under point filtering.
 */
#ifndef CASS_TEXTURE_COMPAT_H
#define CASS_TEXTURE_COMPAT_H

#include <hip/hip_runtime.h>

template <typename T>
struct cass_unsigned_bytes { static constexpr bool value = false; };
template <> struct cass_unsigned_bytes<uchar1> { static constexpr bool value = true; };
template <> struct cass_unsigned_bytes<uchar2> { static constexpr bool value = true; };
template <> struct cass_unsigned_bytes<uchar3> { static constexpr bool value = true; };
template <> struct cass_unsigned_bytes<uchar4> { static constexpr bool value = true; };

template <typename T>
inline hipChannelFormatDesc cass_hipCreateChannelDesc() {
  hipChannelFormatDesc d = hipCreateChannelDesc<T>();
  if (cass_unsigned_bytes<T>::value) d.f = hipChannelFormatKindUnsigned;
  return d;
}

inline hipChannelFormatDesc cass_hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f) {
  return hipCreateChannelDesc(x, y, z, w, f);
}

/* The nearest step of a `bits`-bit normalised integer, ties toward zero (see cuda_texture.c). */
inline float cass_border_in_format(float c, int bits, bool is_signed) {
  double top = is_signed ? (double)((1 << (bits - 1)) - 1) : (double)((1 << bits) - 1);
  double low = is_signed ? -1.0 : 0.0;
  double v = c != c ? 0.0 : c < low ? low : c > 1.0 ? 1.0 : c;
  double q = (v < 0 ? -v : v) * top;
  double steps = (double)(long)(q + 0.5);
  if (steps - q == 0.5) steps -= 1.0;
  return (float)((v < 0 ? -steps : steps) / top);
}

inline hipError_t cass_hipCreateTextureObject(hipTextureObject_t* texture, const hipResourceDesc* resource,
                                              const hipTextureDesc* desc, const hipResourceViewDesc* view) {
  if (!resource || !desc) return hipCreateTextureObject(texture, resource, desc, view);
  hipChannelFormatDesc format = {};
  if (resource->resType == hipResourceTypeArray && resource->res.array.array)
    format = resource->res.array.array->desc;
  else if (resource->resType == hipResourceTypeLinear)
    format = resource->res.linear.desc;
  else if (resource->resType == hipResourceTypePitch2D)
    format = resource->res.pitch2D.desc;
  hipTextureDesc quantised = *desc;
  bool integer = format.f == hipChannelFormatKindSigned || format.f == hipChannelFormatKindUnsigned;
  if (integer && format.x > 0 && format.x < 32 && desc->readMode == hipReadModeNormalizedFloat)
    for (int c = 0; c < 4; ++c)
      quantised.borderColor[c] = cass_border_in_format(desc->borderColor[c], format.x,
                                                       format.f == hipChannelFormatKindSigned);
  return hipCreateTextureObject(texture, resource, &quantised, view);
}

/* CUDA's gather ignores the filter mode; ROCm's __ockl_image_gather4* move the coordinate to a
 * texel corner when the sampler filters by point (texture_gather then reads one texel left and
 * up), so the instruction is issued here directly. The descriptors go in scalar registers: the
 * texture object must be uniform across the wavefront, as a kernel argument is. */
template <unsigned channel>
static __device__ float4::Native_vec_ cass_gather4(hipTextureObject_t texture, float x, float y) {
  typedef unsigned image_words __attribute__((ext_vector_type(8)));
  typedef unsigned sampler_words __attribute__((ext_vector_type(4)));
  const image_words ADDRESS_SPACE_CONSTANT* image = (const image_words ADDRESS_SPACE_CONSTANT*)texture;
  const sampler_words ADDRESS_SPACE_CONSTANT* sampler =
      (const sampler_words ADDRESS_SPACE_CONSTANT*)((const unsigned ADDRESS_SPACE_CONSTANT*)texture
                                                    + HIP_SAMPLER_OBJECT_OFFSET_DWORD);
  float4::Native_vec_ texels;
  float2::Native_vec_ at = {x, y};
  asm volatile("image_gather4_lz %0, %1, %2, %3 dmask:%4 dim:SQ_RSRC_IMG_2D\n\ts_waitcnt vmcnt(0)"
               : "=v"(texels) : "v"(at), "s"(*image), "s"(*sampler), "i"(1u << channel));
  return texels;
}

template <typename T>
static __device__ T cass_tex2Dgather(hipTextureObject_t texture, float x, float y, int comp = 0) {
  switch (comp) {
  case 1: return mapFrom<T>(cass_gather4<1>(texture, x, y));
  case 2: return mapFrom<T>(cass_gather4<2>(texture, x, y));
  case 3: return mapFrom<T>(cass_gather4<3>(texture, x, y));
  default: return mapFrom<T>(cass_gather4<0>(texture, x, y));
  }
}

template <typename T>
static __device__ void cass_tex2Dgather(T* value, hipTextureObject_t texture, float x, float y, int comp = 0) {
  *value = cass_tex2Dgather<T>(texture, x, y, comp);
}

#endif
