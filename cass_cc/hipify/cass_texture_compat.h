/* cass_texture_compat.h: CUDA's texture behaviour where HIP 5.2 differs from it, for
 * cass_hip_compat.h (hipify renames the CUDA calls below to these cass_ forms).
 *   - cudaCreateChannelDesc<uchar1..uchar4>(): HIP 5.2 reports them as signed;
 *   - cudaCreateTextureObject: CUDA returns the border colour of a normalised-integer texture
 *     as a texel value (the H200: 0.5 on 8-bit unorm reads 127/255), AMD's sampler returns
 *     the float it was given;
 *   - linear filtering: AMD's sampler weighs the texels with other fractions and sums in float;
 *     a linearly filtering fetch samples each corner texel by point and weighs them by CUDA's
 *     rule (cass_image_linear below), and a layered fetch reads a negative layer as CUDA does;
 *   - tex2Dgather: HIP 5.2 gathers component 0 from alpha, 1 from red, 2 from green, 3 from
 *     blue (CUDA's comp is x, y, z, w), and at a moved coordinate under point filtering;
 *   - surface objects: HIP 5.2's libamdhip64 lacks the hipCreateSurfaceObject its headers
 *     declare, its surf*read have no value-returning forms and its surf* functions convert
 *     integer texels to float by value (see below). A surface object here is a
 *     texture object of the array (its image descriptor is what HIP's surf* functions read).
 *     Out-of-range accesses behave as cudaBoundaryModeZero whatever the mode: AMD's image
 *     loads return zero and its stores are dropped; CUDA's default mode would trap.
 * On a device without image instructions, and on gfx90a, every object, fetch and surface access
 * is cass_texture_software.h's (the host asks the device; device code for such a target is
 * compiled with CASS_SOFTWARE_TEXTURES).
 */
#ifndef CASS_TEXTURE_COMPAT_H
#define CASS_TEXTURE_COMPAT_H

#include <hip/hip_runtime.h>

#include <map>
#include <mutex>

#include "cass_texture_software.h"

template <typename _CassT>
struct cass_unsigned_bytes { static constexpr bool value = false; };
template <> struct cass_unsigned_bytes<uchar1> { static constexpr bool value = true; };
template <> struct cass_unsigned_bytes<uchar2> { static constexpr bool value = true; };
template <> struct cass_unsigned_bytes<uchar3> { static constexpr bool value = true; };
template <> struct cass_unsigned_bytes<uchar4> { static constexpr bool value = true; };

template <typename _CassT>
inline hipChannelFormatDesc cass_hipCreateChannelDesc() {
  hipChannelFormatDesc d = hipCreateChannelDesc<_CassT>();
  if (cass_unsigned_bytes<_CassT>::value) d.f = hipChannelFormatKindUnsigned;
  return d;
}

inline hipChannelFormatDesc cass_hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f) {
  return hipCreateChannelDesc(x, y, z, w, f);
}

/* What every texture and surface object was made from (cudaGetTextureObject*Desc and
 * cudaGetSurfaceObjectResourceDesc give it back; the emulated runtime has no such query) and
 * whether it is a software one (cass_texture_software.h). */
struct cass_texture_record {
  hipResourceDesc resource;
  hipTextureDesc texture;
  bool software;
};

inline std::map<uintptr_t, cass_texture_record>& cass_texture_records() {
  static std::map<uintptr_t, cass_texture_record> records;
  return records;
}

inline std::mutex& cass_texture_records_lock() {
  static std::mutex lock;
  return lock;
}

inline void cass_texture_record_keep(uintptr_t object, const hipResourceDesc& resource, const hipTextureDesc& desc,
                                     bool software) {
  std::lock_guard<std::mutex> hold(cass_texture_records_lock());
  cass_texture_records()[object] = cass_texture_record{resource, desc, software};
}

inline bool cass_texture_record_find(uintptr_t object, cass_texture_record* found) {
  std::lock_guard<std::mutex> hold(cass_texture_records_lock());
  auto at = cass_texture_records().find(object);
  if (at == cass_texture_records().end()) return false;
  *found = at->second;
  return true;
}

/* Forgets the object; whether it was a software one. */
inline bool cass_texture_record_forget(uintptr_t object) {
  std::lock_guard<std::mutex> hold(cass_texture_records_lock());
  auto at = cass_texture_records().find(object);
  bool software = at != cass_texture_records().end() && at->second.software;
  if (at != cass_texture_records().end()) cass_texture_records().erase(at);
  return software;
}

inline hipError_t cass_hipCreateTextureObject(hipTextureObject_t* texture, const hipResourceDesc* resource,
                                              const hipTextureDesc* desc, const hipResourceViewDesc* view) {
  if (!resource || !desc) return hipCreateTextureObject(texture, resource, desc, view);
  bool software = false;
  hipError_t asked = cass_device_textures_in_software(&software);
  if (asked != hipSuccess) return asked;
  if (software) {
    if (!texture) return hipErrorInvalidValue;
    if (view) return cass_software_refuse("a resource view");
    uintptr_t object = 0;
    hipError_t e = cass_software_object_create(&object, resource, desc, true);
    if (e != hipSuccess) return e;
    cass_texture_record_keep(object, *resource, *desc, true);
    *texture = reinterpret_cast<hipTextureObject_t>(object);
    return hipSuccess;
  }
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
  hipError_t e = hipCreateTextureObject(texture, resource, &quantised, view);
  if (e == hipSuccess) cass_texture_record_keep(reinterpret_cast<uintptr_t>(*texture), *resource, *desc, false);
  return e;
}

inline hipError_t cass_hipDestroyTextureObject(hipTextureObject_t texture) {
  if (cass_texture_record_forget(reinterpret_cast<uintptr_t>(texture)))
    return cass_software_object_destroy(reinterpret_cast<uintptr_t>(texture));
  return hipDestroyTextureObject(texture);
}

inline hipError_t cass_hipGetTextureObjectResourceDesc(hipResourceDesc* resource, hipTextureObject_t texture) {
  cass_texture_record found;
  if (!resource || !cass_texture_record_find(reinterpret_cast<uintptr_t>(texture), &found)) return hipErrorInvalidValue;
  *resource = found.resource;
  return hipSuccess;
}

inline hipError_t cass_hipGetTextureObjectTextureDesc(hipTextureDesc* desc, hipTextureObject_t texture) {
  cass_texture_record found;
  if (!desc || !cass_texture_record_find(reinterpret_cast<uintptr_t>(texture), &found)) return hipErrorInvalidValue;
  *desc = found.texture;
  return hipSuccess;
}

/* ---- CUDA's linear filter on image instructions ----------------------------------------------
 * AMD's sampler filters with its own fractions and sums the weighted texels in float (the
 * emulator models it: cass_cc/emu/image.py), an ulp or more from CUDA's answer. A fetch whose
 * sampler filters linearly therefore point-samples each corner texel and weighs the texels by
 * CUDA's rule (cass_sw_filter, the software textures' weights). HIP's fetch is made in either
 * case and a linear one's result replaced: a point fetch then costs one scalar branch more, its
 * loop-invariant work still hoisted out of loops (branching around HIP's fetch cost a loop of
 * point fetches 2.2x its instructions), and the linear path stays out of line. Texture and
 * sampler words are as ROCm lays
 * them out: T#, then the extents ROCm's device library reads (__ockl_image_width_*), S# at
 * HIP_SAMPLER_OBJECT_OFFSET_DWORD. */
typedef unsigned cass_image_words __attribute__((ext_vector_type(8)));
typedef unsigned cass_sampler_words __attribute__((ext_vector_type(4)));
enum { CASS_IMG_1D, CASS_IMG_2D, CASS_IMG_3D, CASS_IMG_1DA, CASS_IMG_2DA };

extern "C" {
__device__ float4::Native_vec_ cass_llvm_sample_lz_1d(int dmask, float x, cass_image_words image,
    cass_sampler_words sampler, bool unorm, int tfe, int cache) __asm("llvm.amdgcn.image.sample.lz.1d.v4f32.f32");
__device__ float4::Native_vec_ cass_llvm_sample_lz_2d(int dmask, float x, float y, cass_image_words image,
    cass_sampler_words sampler, bool unorm, int tfe, int cache) __asm("llvm.amdgcn.image.sample.lz.2d.v4f32.f32");
__device__ float4::Native_vec_ cass_llvm_sample_lz_3d(int dmask, float x, float y, float z, cass_image_words image,
    cass_sampler_words sampler, bool unorm, int tfe, int cache) __asm("llvm.amdgcn.image.sample.lz.3d.v4f32.f32");
__device__ float4::Native_vec_ cass_llvm_sample_lz_1darray(int dmask, float x, float layer, cass_image_words image,
    cass_sampler_words sampler, bool unorm, int tfe, int cache) __asm("llvm.amdgcn.image.sample.lz.1darray.v4f32.f32");
__device__ float4::Native_vec_ cass_llvm_sample_lz_2darray(int dmask, float x, float y, float layer,
    cass_image_words image, cass_sampler_words sampler, bool unorm, int tfe, int cache)
    __asm("llvm.amdgcn.image.sample.lz.2darray.v4f32.f32");
__device__ int __ockl_image_width_1D(unsigned int ADDRESS_SPACE_CONSTANT* i);
__device__ int __ockl_image_width_1Da(unsigned int ADDRESS_SPACE_CONSTANT* i);
__device__ int __ockl_image_width_2D(unsigned int ADDRESS_SPACE_CONSTANT* i);
__device__ int __ockl_image_width_2Da(unsigned int ADDRESS_SPACE_CONSTANT* i);
__device__ int __ockl_image_width_3D(unsigned int ADDRESS_SPACE_CONSTANT* i);
__device__ int __ockl_image_height_2D(unsigned int ADDRESS_SPACE_CONSTANT* i);
__device__ int __ockl_image_height_2Da(unsigned int ADDRESS_SPACE_CONSTANT* i);
__device__ int __ockl_image_height_3D(unsigned int ADDRESS_SPACE_CONSTANT* i);
__device__ int __ockl_image_depth_3D(unsigned int ADDRESS_SPACE_CONSTANT* i);
__device__ int __ockl_image_array_size_1Da(unsigned int ADDRESS_SPACE_CONSTANT* i);
__device__ int __ockl_image_array_size_2Da(unsigned int ADDRESS_SPACE_CONSTANT* i);
}

/* Whether a fetch of T from the texture is CUDA's linear filter here: T's components are
 * floats (CUDA filters nothing else), the S#'s XY_MAG_FILTER is not point, and the image has one
 * level (T# BASE_LEVEL == LAST_LEVEL, dword 3 [15:12] and [19:16]): the corner texels are read
 * from level 0, so a mipmapped texture, whose sampler picks the level, keeps the sampler's
 * filter. */
template <typename _CassT>
static __device__ inline bool cass_image_filters_linearly(hipTextureObject_t texture) {
  if (!std::is_floating_point<typename cass_sw_component<_CassT>::type>::value) return false;
  const unsigned ADDRESS_SPACE_CONSTANT* words = (const unsigned ADDRESS_SPACE_CONSTANT*)texture;
  bool one_level = (words[3] >> 12 & 15) == (words[3] >> 16 & 15);
  return one_level && (words[HIP_SAMPLER_OBJECT_OFFSET_DWORD + 2] >> 20 & 3) != 0;
}

template <int _CassShape>
static __device__ inline void cass_image_extents(unsigned int ADDRESS_SPACE_CONSTANT* words, int* sizes) {
  switch (_CassShape) {
  case CASS_IMG_1D: sizes[0] = __ockl_image_width_1D(words); break;
  case CASS_IMG_1DA: sizes[0] = __ockl_image_width_1Da(words); break;
  case CASS_IMG_2D: sizes[0] = __ockl_image_width_2D(words); sizes[1] = __ockl_image_height_2D(words); break;
  case CASS_IMG_2DA: sizes[0] = __ockl_image_width_2Da(words); sizes[1] = __ockl_image_height_2Da(words); break;
  default:
    sizes[0] = __ockl_image_width_3D(words);
    sizes[1] = __ockl_image_height_3D(words);
    sizes[2] = __ockl_image_depth_3D(words);
  }
}

template <int _CassShape>
static __device__ inline float4::Native_vec_ cass_image_point(cass_image_words image, cass_sampler_words sampler,
                                                             const float* at, float layer) {
  switch (_CassShape) {
  case CASS_IMG_1D: return cass_llvm_sample_lz_1d(15, at[0], image, sampler, false, 0, 0);
  case CASS_IMG_1DA: return cass_llvm_sample_lz_1darray(15, at[0], layer, image, sampler, false, 0, 0);
  case CASS_IMG_2D: return cass_llvm_sample_lz_2d(15, at[0], at[1], image, sampler, false, 0, 0);
  case CASS_IMG_2DA: return cass_llvm_sample_lz_2darray(15, at[0], at[1], layer, image, sampler, false, 0, 0);
  default: return cass_llvm_sample_lz_3d(15, at[0], at[1], at[2], image, sampler, false, 0, 0);
  }
}

/* CUDA reads the layer as unsigned, clamped to the last (the H200 reads layer -1 as the last:
 * tests/hipify/textures/sampler_corners.cu); AMD's sampler clamps a negative layer to 0. */
static __device__ inline int cass_image_layer(int layers, int layer) {
  return layer < 0 ? layers - 1 : layer;
}

/* The S#'s CLAMP_X/Y/Z code as CUDA's address mode (HIP makes only these four). */
static __device__ inline int cass_image_address_mode(unsigned clamp) {
  return clamp == 0 ? CASS_SW_WRAP : clamp == 1 ? CASS_SW_MIRROR : clamp == 6 ? CASS_SW_BORDER : CASS_SW_CLAMP;
}

/* The corners are sampled by texel index (FORCE_UNNORMALIZED, point filter) at their centres,
 * wrap and mirror folded here as CUDA folds them, so no coordinate is rounded on the way; an
 * index outside a border-mode axis stays outside and reads the sampler's border colour. */
template <int _CassShape>
__attribute__((noinline, pure)) static __device__ cass_sw_words cass_image_linear(hipTextureObject_t texture,
                                                                                 const float* coords, int layer = 0) {
#pragma clang fp contract(off)
  constexpr int n = _CassShape == CASS_IMG_3D ? 3 : _CassShape == CASS_IMG_2D || _CassShape == CASS_IMG_2DA ? 2 : 1;
  unsigned int ADDRESS_SPACE_CONSTANT* words = (unsigned int ADDRESS_SPACE_CONSTANT*)texture;
  cass_image_words image = *(const cass_image_words ADDRESS_SPACE_CONSTANT*)words;
  cass_sampler_words sampler =
      *(const cass_sampler_words ADDRESS_SPACE_CONSTANT*)(words + HIP_SAMPLER_OBJECT_OFFSET_DWORD);
  bool normalized = !(sampler[0] >> 15 & 1);
  int sizes[3] = {1, 1, 1};
  cass_image_extents<_CassShape>(words, sizes);
  float scaled[3];
  bool active[3] = {true, true, true};
  for (int a = 0; a < n; ++a) scaled[a] = normalized ? coords[a] * static_cast<float>(sizes[a]) : coords[a];
  cass_sampler_words point = sampler;
  point[0] |= 1u << 15;            /* FORCE_UNNORMALIZED */
  point[2] &= ~(0x3Fu << 20);      /* XY_MAG_FILTER, XY_MIN_FILTER, Z_FILTER: point */
  return cass_sw_filter(scaled, active, n, [&](const int* corner) {
    float at[3];
    for (int a = 0; a < n; ++a) {
      bool inside = true;
      int i = cass_sw_fold(corner[a], sizes[a], cass_image_address_mode(sampler[0] >> (3 * a) & 7), normalized, &inside);
      at[a] = static_cast<float>(inside ? i : corner[a]) + 0.5f;
    }
    float4::Native_vec_ texel = cass_image_point<_CassShape>(image, point, at, static_cast<float>(layer));
    cass_sw_words out;
    for (int c = 0; c < 4; ++c) out.w[c] = __builtin_bit_cast(unsigned, static_cast<float>(texel[c]));
    return out;
  });
}

/* CUDA's fetches by name: HIP's where the device samples images, else the software ones. */
template <typename _CassT>
static __device__ _CassT cass_tex1Dfetch(hipTextureObject_t texture, int x) {
#ifdef CASS_SOFTWARE_TEXTURES
  return cass_sw_value<_CassT>(cass_sw_fetch(cass_sw_descriptor(texture), x));
#else
  return tex1Dfetch<_CassT>(texture, x);
#endif
}
template <typename _CassT>
static __device__ void cass_tex1Dfetch(_CassT* value, hipTextureObject_t texture, int x) {
  *value = cass_tex1Dfetch<_CassT>(texture, x);
}

template <typename _CassT>
static __device__ _CassT cass_tex1D(hipTextureObject_t texture, float x) {
#ifdef CASS_SOFTWARE_TEXTURES
  const float coords[1] = {x};
  return cass_sw_value<_CassT>(cass_sw_sample(cass_sw_descriptor(texture), coords, 1));
#else
  _CassT value = tex1D<_CassT>(texture, x);
  if (cass_image_filters_linearly<_CassT>(texture)) {
    const float coords[1] = {x};
    value = cass_sw_value<_CassT>(cass_image_linear<CASS_IMG_1D>(texture, coords));
  }
  return value;
#endif
}
template <typename _CassT>
static __device__ void cass_tex1D(_CassT* value, hipTextureObject_t texture, float x) {
  *value = cass_tex1D<_CassT>(texture, x);
}

template <typename _CassT>
static __device__ _CassT cass_tex2D(hipTextureObject_t texture, float x, float y) {
#ifdef CASS_SOFTWARE_TEXTURES
  const float coords[2] = {x, y};
  return cass_sw_value<_CassT>(cass_sw_sample(cass_sw_descriptor(texture), coords, 2));
#else
  _CassT value = tex2D<_CassT>(texture, x, y);
  if (cass_image_filters_linearly<_CassT>(texture)) {
    const float coords[2] = {x, y};
    value = cass_sw_value<_CassT>(cass_image_linear<CASS_IMG_2D>(texture, coords));
  }
  return value;
#endif
}
template <typename _CassT>
static __device__ void cass_tex2D(_CassT* value, hipTextureObject_t texture, float x, float y) {
  *value = cass_tex2D<_CassT>(texture, x, y);
}

template <typename _CassT>
static __device__ _CassT cass_tex3D(hipTextureObject_t texture, float x, float y, float z) {
#ifdef CASS_SOFTWARE_TEXTURES
  const float coords[3] = {x, y, z};
  return cass_sw_value<_CassT>(cass_sw_sample(cass_sw_descriptor(texture), coords, 3));
#else
  _CassT value = tex3D<_CassT>(texture, x, y, z);
  if (cass_image_filters_linearly<_CassT>(texture)) {
    const float coords[3] = {x, y, z};
    value = cass_sw_value<_CassT>(cass_image_linear<CASS_IMG_3D>(texture, coords));
  }
  return value;
#endif
}
template <typename _CassT>
static __device__ void cass_tex3D(_CassT* value, hipTextureObject_t texture, float x, float y, float z) {
  *value = cass_tex3D<_CassT>(texture, x, y, z);
}

template <typename _CassT>
static __device__ _CassT cass_tex1DLayered(hipTextureObject_t texture, float x, int layer) {
#ifdef CASS_SOFTWARE_TEXTURES
  const float coords[1] = {x};
  return cass_sw_value<_CassT>(cass_sw_sample(cass_sw_descriptor(texture), coords, 1, true, layer));
#else
  layer = cass_image_layer(__ockl_image_array_size_1Da((unsigned int ADDRESS_SPACE_CONSTANT*)texture), layer);
  _CassT value = tex1DLayered<_CassT>(texture, x, layer);
  if (cass_image_filters_linearly<_CassT>(texture)) {
    const float coords[1] = {x};
    value = cass_sw_value<_CassT>(cass_image_linear<CASS_IMG_1DA>(texture, coords, layer));
  }
  return value;
#endif
}
template <typename _CassT>
static __device__ void cass_tex1DLayered(_CassT* value, hipTextureObject_t texture, float x, int layer) {
  *value = cass_tex1DLayered<_CassT>(texture, x, layer);
}

template <typename _CassT>
static __device__ _CassT cass_tex2DLayered(hipTextureObject_t texture, float x, float y, int layer) {
#ifdef CASS_SOFTWARE_TEXTURES
  const float coords[2] = {x, y};
  return cass_sw_value<_CassT>(cass_sw_sample(cass_sw_descriptor(texture), coords, 2, true, layer));
#else
  layer = cass_image_layer(__ockl_image_array_size_2Da((unsigned int ADDRESS_SPACE_CONSTANT*)texture), layer);
  _CassT value = tex2DLayered<_CassT>(texture, x, y, layer);
  if (cass_image_filters_linearly<_CassT>(texture)) {
    const float coords[2] = {x, y};
    value = cass_sw_value<_CassT>(cass_image_linear<CASS_IMG_2DA>(texture, coords, layer));
  }
  return value;
#endif
}
template <typename _CassT>
static __device__ void cass_tex2DLayered(_CassT* value, hipTextureObject_t texture, float x, float y, int layer) {
  *value = cass_tex2DLayered<_CassT>(texture, x, y, layer);
}

/* CUDA's gather ignores the filter mode; ROCm's __ockl_image_gather4* move the coordinate to a
 * texel corner when the sampler filters by point (texture_gather then reads one texel left and
 * up), so the LLVM intrinsic they wrap is called here directly (LLVM loops over the distinct
 * descriptors of a wavefront when the texture object is divergent). */
extern "C" __device__ float4::Native_vec_ cass_llvm_gather4_lz_2d(
    int dmask, float x, float y, cass_image_words image, cass_sampler_words sampler, bool unorm, int tfe,
    int cache) __asm("llvm.amdgcn.image.gather4.lz.2d.v4f32.f32");

template <unsigned channel>
static __device__ float4::Native_vec_ cass_gather4(hipTextureObject_t texture, float x, float y) {
  const unsigned ADDRESS_SPACE_CONSTANT* words = (const unsigned ADDRESS_SPACE_CONSTANT*)texture;
  cass_image_words image = *(const cass_image_words ADDRESS_SPACE_CONSTANT*)words;
  cass_sampler_words sampler =
      *(const cass_sampler_words ADDRESS_SPACE_CONSTANT*)(words + HIP_SAMPLER_OBJECT_OFFSET_DWORD);
  return cass_llvm_gather4_lz_2d(1 << channel, x, y, image, sampler, false, 0, 0);
}

template <typename _CassT>
static __device__ _CassT cass_tex2Dgather(hipTextureObject_t texture, float x, float y, int comp = 0) {
#ifdef CASS_SOFTWARE_TEXTURES
  return cass_sw_value<_CassT>(cass_sw_gather(cass_sw_descriptor(texture), x, y, comp));
#else
  switch (comp) {
  case 1: return mapFrom<_CassT>(cass_gather4<1>(texture, x, y));
  case 2: return mapFrom<_CassT>(cass_gather4<2>(texture, x, y));
  case 3: return mapFrom<_CassT>(cass_gather4<3>(texture, x, y));
  default: return mapFrom<_CassT>(cass_gather4<0>(texture, x, y));
  }
#endif
}

template <typename _CassT>
static __device__ void cass_tex2Dgather(_CassT* value, hipTextureObject_t texture, float x, float y,
                                        int comp = 0) {
  *value = cass_tex2Dgather<_CassT>(texture, x, y, comp);
}

inline hipError_t cass_hipCreateSurfaceObject(hipSurfaceObject_t* surface, const hipResourceDesc* resource) {
  if (!surface || !resource || resource->resType != hipResourceTypeArray) return hipErrorInvalidValue;
  hipTextureDesc elements = {};
  elements.readMode = hipReadModeElementType;
  bool software = false;
  hipError_t asked = cass_device_textures_in_software(&software);
  if (asked != hipSuccess) return asked;
  uintptr_t object = 0;
  hipError_t e = hipSuccess;
  if (software) {
    e = cass_software_object_create(&object, resource, &elements, false);
  } else {
    hipTextureObject_t texture = 0;
    e = hipCreateTextureObject(&texture, resource, &elements, nullptr);
    object = reinterpret_cast<uintptr_t>(texture);
  }
  if (e != hipSuccess) return e;
  cass_texture_record_keep(object, *resource, elements, software);
  *surface = reinterpret_cast<hipSurfaceObject_t>(object);
  return hipSuccess;
}

/* A surface object here is a texture object of its array (above), or a software one. */
inline hipError_t cass_hipGetSurfaceObjectResourceDesc(hipResourceDesc* resource, hipSurfaceObject_t surface) {
  return cass_hipGetTextureObjectResourceDesc(resource, reinterpret_cast<hipTextureObject_t>(surface));
}

inline hipError_t cass_hipDestroySurfaceObject(hipSurfaceObject_t surface) {
  if (cass_texture_record_forget(reinterpret_cast<uintptr_t>(surface)))
    return cass_software_object_destroy(reinterpret_cast<uintptr_t>(surface));
  return hipDestroyTextureObject(reinterpret_cast<hipTextureObject_t>(surface));
}

/* CUDA's surface functions. HIP 5.2's convert each component to and from float by value, so
 * integer texels (uchar4 200 -> 200.0f) reach the image as float bits; here integer components
 * travel as their bits and float ones as floats. CUDA's x is in bytes: HIP's __hipGetPixelAddr
 * turns it into a texel index from the descriptor's channel type and order. */
template <typename _CassT> struct cass_surface_component { typedef _CassT type; };
template <typename _CassT, unsigned n> struct cass_surface_component<HIP_vector_type<_CassT, n>> { typedef _CassT type; };

template <typename _CassT>
static __device__ float cass_surface_word(_CassT v) {
  if (std::is_floating_point<_CassT>::value) return static_cast<float>(v);
  return __builtin_bit_cast(float, static_cast<int>(v));
}

template <typename _CassT>
static __device__ _CassT cass_surface_value(float word) {
  if (std::is_floating_point<_CassT>::value) return static_cast<_CassT>(word);
  return static_cast<_CassT>(__builtin_bit_cast(int, word));
}

template <typename _CassT>
static __device__ _CassT cass_surface_from(float4::Native_vec_ words) {
  typedef typename cass_surface_component<_CassT>::type C;
  _CassT v;
  C* c = reinterpret_cast<C*>(&v);
  for (unsigned k = 0; k < sizeof(_CassT) / sizeof(C); ++k) c[k] = cass_surface_value<C>(words[k]);
  return v;
}

template <typename _CassT>
static __device__ float4::Native_vec_ cass_surface_to(const _CassT& v) {
  typedef typename cass_surface_component<_CassT>::type C;
  float4::Native_vec_ words = {0.0f, 0.0f, 0.0f, 0.0f};
  const C* c = reinterpret_cast<const C*>(&v);
  for (unsigned k = 0; k < sizeof(_CassT) / sizeof(C); ++k) words[k] = cass_surface_word<C>(c[k]);
  return words;
}

static __device__ unsigned int ADDRESS_SPACE_CONSTANT* cass_surface_image(hipSurfaceObject_t surface) {
  return (unsigned int ADDRESS_SPACE_CONSTANT*)surface;
}

template <typename _CassT>
static __device__ _CassT cass_surf1Dread(hipSurfaceObject_t surface, int x, int mode = hipBoundaryModeTrap) {
#ifdef CASS_SOFTWARE_TEXTURES
  return cass_sw_surface_read<_CassT>(surface, x, 0, 0, 1, mode);
#else
  unsigned int ADDRESS_SPACE_CONSTANT* i = cass_surface_image(surface);
  int texel = __hipGetPixelAddr(x, __ockl_image_channel_data_type_1D(i), __ockl_image_channel_order_1D(i));
  return cass_surface_from<_CassT>(__ockl_image_load_1D(i, texel));
#endif
}
template <typename _CassT>
static __device__ void cass_surf1Dread(_CassT* value, hipSurfaceObject_t surface,
                                       int x, int mode = hipBoundaryModeTrap) {
  *value = cass_surf1Dread<_CassT>(surface, x, mode);
}
template <typename _CassT>
static __device__ void cass_surf1Dwrite(_CassT value, hipSurfaceObject_t surface,
                                        int x, int mode = hipBoundaryModeTrap) {
#ifdef CASS_SOFTWARE_TEXTURES
  return cass_sw_surface_write(value, surface, x, 0, 0, 1, mode);
#else
  unsigned int ADDRESS_SPACE_CONSTANT* i = cass_surface_image(surface);
  int texel = __hipGetPixelAddr(x, __ockl_image_channel_data_type_1D(i), __ockl_image_channel_order_1D(i));
  __ockl_image_store_1D(i, texel, cass_surface_to(value));
#endif
}

template <typename _CassT>
static __device__ _CassT cass_surf2Dread(hipSurfaceObject_t surface,
                                    int x, int y, int mode = hipBoundaryModeTrap) {
#ifdef CASS_SOFTWARE_TEXTURES
  return cass_sw_surface_read<_CassT>(surface, x, y, 0, 3, mode);
#else
  unsigned int ADDRESS_SPACE_CONSTANT* i = cass_surface_image(surface);
  int texel = __hipGetPixelAddr(x, __ockl_image_channel_data_type_2D(i), __ockl_image_channel_order_2D(i));
  return cass_surface_from<_CassT>(__ockl_image_load_2D(i, int2(texel, y).data));
#endif
}
template <typename _CassT>
static __device__ void cass_surf2Dread(_CassT* value, hipSurfaceObject_t surface,
                                       int x, int y, int mode = hipBoundaryModeTrap) {
  *value = cass_surf2Dread<_CassT>(surface, x, y, mode);
}
template <typename _CassT>
static __device__ void cass_surf2Dwrite(_CassT value, hipSurfaceObject_t surface,
                                        int x, int y, int mode = hipBoundaryModeTrap) {
#ifdef CASS_SOFTWARE_TEXTURES
  return cass_sw_surface_write(value, surface, x, y, 0, 3, mode);
#else
  unsigned int ADDRESS_SPACE_CONSTANT* i = cass_surface_image(surface);
  int texel = __hipGetPixelAddr(x, __ockl_image_channel_data_type_2D(i), __ockl_image_channel_order_2D(i));
  __ockl_image_store_2D(i, int2(texel, y).data, cass_surface_to(value));
#endif
}

template <typename _CassT>
static __device__ _CassT cass_surf3Dread(hipSurfaceObject_t surface,
                                    int x, int y, int z, int mode = hipBoundaryModeTrap) {
#ifdef CASS_SOFTWARE_TEXTURES
  return cass_sw_surface_read<_CassT>(surface, x, y, z, 7, mode);
#else
  unsigned int ADDRESS_SPACE_CONSTANT* i = cass_surface_image(surface);
  int texel = __hipGetPixelAddr(x, __ockl_image_channel_data_type_3D(i), __ockl_image_channel_order_3D(i));
  return cass_surface_from<_CassT>(__ockl_image_load_3D(i, int4(texel, y, z, 0).data));
#endif
}
template <typename _CassT>
static __device__ void cass_surf3Dread(_CassT* value, hipSurfaceObject_t surface,
                                       int x, int y, int z, int mode = hipBoundaryModeTrap) {
  *value = cass_surf3Dread<_CassT>(surface, x, y, z, mode);
}
template <typename _CassT>
static __device__ void cass_surf3Dwrite(_CassT value, hipSurfaceObject_t surface,
                                        int x, int y, int z, int mode = hipBoundaryModeTrap) {
#ifdef CASS_SOFTWARE_TEXTURES
  return cass_sw_surface_write(value, surface, x, y, z, 7, mode);
#else
  unsigned int ADDRESS_SPACE_CONSTANT* i = cass_surface_image(surface);
  int texel = __hipGetPixelAddr(x, __ockl_image_channel_data_type_3D(i), __ockl_image_channel_order_3D(i));
  __ockl_image_store_3D(i, int4(texel, y, z, 0).data, cass_surface_to(value));
#endif
}

template <typename _CassT>
static __device__ _CassT cass_surf1DLayeredread(hipSurfaceObject_t surface,
                                           int x, int layer, int mode = hipBoundaryModeTrap) {
#ifdef CASS_SOFTWARE_TEXTURES
  return cass_sw_surface_read<_CassT>(surface, x, 0, layer, 5, mode);
#else
  unsigned int ADDRESS_SPACE_CONSTANT* i = cass_surface_image(surface);
  int texel = __hipGetPixelAddr(x, __ockl_image_channel_data_type_1Da(i), __ockl_image_channel_order_1Da(i));
  return cass_surface_from<_CassT>(__ockl_image_load_1Da(i, int2(texel, layer).data));
#endif
}
template <typename _CassT>
static __device__ void cass_surf1DLayeredread(_CassT* value, hipSurfaceObject_t surface,
                                              int x, int layer, int mode = hipBoundaryModeTrap) {
  *value = cass_surf1DLayeredread<_CassT>(surface, x, layer, mode);
}
template <typename _CassT>
static __device__ void cass_surf1DLayeredwrite(_CassT value, hipSurfaceObject_t surface,
                                               int x, int layer, int mode = hipBoundaryModeTrap) {
#ifdef CASS_SOFTWARE_TEXTURES
  return cass_sw_surface_write(value, surface, x, 0, layer, 5, mode);
#else
  unsigned int ADDRESS_SPACE_CONSTANT* i = cass_surface_image(surface);
  int texel = __hipGetPixelAddr(x, __ockl_image_channel_data_type_1Da(i), __ockl_image_channel_order_1Da(i));
  __ockl_image_store_1Da(i, int2(texel, layer).data, cass_surface_to(value));
#endif
}

template <typename _CassT>
static __device__ _CassT cass_surf2DLayeredread(hipSurfaceObject_t surface,
                                           int x, int y, int layer, int mode = hipBoundaryModeTrap) {
#ifdef CASS_SOFTWARE_TEXTURES
  return cass_sw_surface_read<_CassT>(surface, x, y, layer, 7, mode);
#else
  unsigned int ADDRESS_SPACE_CONSTANT* i = cass_surface_image(surface);
  int texel = __hipGetPixelAddr(x, __ockl_image_channel_data_type_2Da(i), __ockl_image_channel_order_2Da(i));
  return cass_surface_from<_CassT>(__ockl_image_load_2Da(i, int4(texel, y, layer, 0).data));
#endif
}
template <typename _CassT>
static __device__ void cass_surf2DLayeredread(_CassT* value, hipSurfaceObject_t surface,
                                              int x, int y, int layer, int mode = hipBoundaryModeTrap) {
  *value = cass_surf2DLayeredread<_CassT>(surface, x, y, layer, mode);
}
template <typename _CassT>
static __device__ void cass_surf2DLayeredwrite(_CassT value, hipSurfaceObject_t surface,
                                               int x, int y, int layer, int mode = hipBoundaryModeTrap) {
#ifdef CASS_SOFTWARE_TEXTURES
  return cass_sw_surface_write(value, surface, x, y, layer, 7, mode);
#else
  unsigned int ADDRESS_SPACE_CONSTANT* i = cass_surface_image(surface);
  int texel = __hipGetPixelAddr(x, __ockl_image_channel_data_type_2Da(i), __ockl_image_channel_order_2Da(i));
  __ockl_image_store_2Da(i, int4(texel, y, layer, 0).data, cass_surface_to(value));
#endif
}

#endif
