/* cass_texture_software.h: CUDA's texture and surface objects in software, for devices without
 * image instructions (gfx940 and later CDNA: MI300). There ROCm reports no image support
 * (hipDeviceAttributeImageSupport 0), its hipCreateTextureObject and hipCreateSurfaceObject
 * return hipErrorNotSupported and clang marks HIP's tex* functions unavailable
 * (__HIP_NO_IMAGE_SUPPORT). cass_texture_compat.h sends the source route there when the device
 * has no images or is a processor of CASS_SOFTWARE_TEXTURE_PROCESSORS (host), and where the
 * compiler defines CASS_SOFTWARE_TEXTURES (device code for a target whose facts say so,
 * cass_cc/targets.py: gfx90a too, whose sampler lacks what CUDA programs use).
 *
 * An object is the device address of the binary route's descriptor (struct cass_texture of
 * runtime/cassrt/cuda_texture.c, read by passes/lift/texture.py and surface.py: the three
 * layouts must agree), and fetches follow the same rules as the lifter's: CUDA's addressing,
 * point and linear filtering with 9-bit fixed-point weights (8 fractional bits, rounded half
 * up), each corner's weight rounded to 1/256 with the H200's tie rule, the weighted texels summed
 * exactly, the border colour of a normalised-integer texture as a texel value. Resources: linear
 * and pitched memory (the program's own allocations) and arrays, whose hipArray's data is read
 * as packed rows (the emulated runtime's layout; ROCm makes no arrays on such a device).
 * Mipmapped and cubemap resources are refused (hipErrorNotSupported).
 */
#ifndef CASS_TEXTURE_SOFTWARE_H
#define CASS_TEXTURE_SOFTWARE_H

#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <utility>

struct cass_texture {
  uint64_t base;               /*  0: device address of texel (0, 0, 0) */
  uint32_t pitch;              /*  8: bytes from one row to the next */
  uint32_t width, height, depth; /* 12: extents in texels (1 when absent; depth counts layers) */
  uint32_t slice_pitch;        /* 24 */
  uint8_t channels, bits, kind; /* 28: 1, 2 or 4 channels of 8, 16 or 32 bits; hipChannelFormatKind */
  uint8_t read_normalized;     /* 31 */
  uint8_t filter_linear;       /* 32 */
  uint8_t normalized_coords;   /* 33 */
  uint8_t address[3];          /* 34: hipTextureAddressMode per dimension */
  uint8_t linear_resource;     /* 37 */
  uint8_t dims;                /* 38: the resource's dimensions */
  uint8_t reserved;
  float border[4];             /* 40 */
  float min_lod, max_lod;      /* 56 */
  uint8_t levels;              /* 64: always 1 here */
  uint8_t mipmap_linear;
  uint8_t padding[2];
  uint32_t level_offset[16];   /* 68 */
};
static_assert(sizeof(cass_texture) == 136, "struct cass_texture of cassrt/cuda_texture.c");
static_assert(offsetof(cass_texture, border) == 40, "struct cass_texture of cassrt/cuda_texture.c");
static_assert(offsetof(cass_texture, level_offset) == 68, "struct cass_texture of cassrt/cuda_texture.c");

enum { CASS_SW_SIGNED = 0, CASS_SW_UNSIGNED = 1, CASS_SW_FLOAT = 2 };
enum { CASS_SW_WRAP = 0, CASS_SW_CLAMP = 1, CASS_SW_MIRROR = 2, CASS_SW_BORDER = 3 };

/* ---- host: making and forgetting objects ---------------------------------------------------- */

#define CASS_SOFTWARE_TEXTURE_STRING_(...) #__VA_ARGS__
#define CASS_SOFTWARE_TEXTURE_STRING(...) CASS_SOFTWARE_TEXTURE_STRING_(__VA_ARGS__)

/* Whether the current device's textures are software ones: it has no images, or it is one of
 * the processors whose device code the compiler builds with CASS_SOFTWARE_TEXTURES (the list
 * cass-cc passes, from cass_cc/targets.py); an error where the device cannot be asked. */
inline hipError_t cass_device_textures_in_software(bool* software) {
  int device = 0, images = 0;
  hipError_t e = hipGetDevice(&device);
  if (e == hipSuccess) e = hipDeviceGetAttribute(&images, hipDeviceAttributeImageSupport, device);
  hipDeviceProp_t properties;
  if (e == hipSuccess) e = hipGetDeviceProperties(&properties, device);
  *software = !images;
#ifdef CASS_SOFTWARE_TEXTURE_PROCESSORS
  if (e == hipSuccess) {
    const char* list = CASS_SOFTWARE_TEXTURE_STRING(CASS_SOFTWARE_TEXTURE_PROCESSORS);
    size_t n = std::strcspn(properties.gcnArchName, ":");   /* gfx90a:sramecc+:xnack- */
    for (const char* at = list; *at;) {
      size_t m = std::strcspn(at, ",");
      if (m == n && std::strncmp(at, properties.gcnArchName, n) == 0) *software = true;
      at += m + (at[m] == ',');
    }
  }
#endif
  return e;
}

/* Channels and bits of a format CUDA textures can hold; false for another. */
inline bool cass_software_format(const hipChannelFormatDesc& d, int* channels, int* bits) {
  int sizes[4] = {d.x, d.y, d.z, d.w}, n = 0;
  while (n < 4 && sizes[n]) ++n;
  for (int i = n; i < 4; ++i)
    if (sizes[i]) return false;
  if (n == 0 || n == 3) return false;
  for (int i = 1; i < n; ++i)
    if (sizes[i] != sizes[0]) return false;
  if (sizes[0] != 8 && sizes[0] != 16 && sizes[0] != 32) return false;
  if (d.f != hipChannelFormatKindSigned && d.f != hipChannelFormatKindUnsigned && d.f != hipChannelFormatKindFloat)
    return false;
  if (d.f == hipChannelFormatKindFloat && sizes[0] == 8) return false;
  *channels = n;
  *bits = sizes[0];
  return true;
}

inline hipError_t cass_software_refuse(const char* what) {
  std::fprintf(stderr, "cass-cc: %s is not supported by the software textures of devices without "
               "image instructions\n", what);
  return hipErrorNotSupported;
}

/* The resource part of a descriptor, as cassrt's describe_resource fills it. */
inline hipError_t cass_software_resource(cass_texture* t, const hipResourceDesc* r) {
  hipChannelFormatDesc format = {};
  switch (r->resType) {
  case hipResourceTypeArray: {
    const hipArray* a = r->res.array.array;
    if (!a) return hipErrorInvalidValue;
    if (a->textureType == hipTextureTypeCubemap) return cass_software_refuse("a cubemap array");
    format = a->desc;
    int channels = 0, bits = 0;
    if (!cass_software_format(format, &channels, &bits)) return hipErrorInvalidValue;
    bool layered = a->textureType == hipTextureType1DLayered || a->textureType == hipTextureType2DLayered;
    t->base = reinterpret_cast<uintptr_t>(a->data);
    t->width = a->width;
    t->height = a->height ? a->height : 1;
    t->depth = a->depth ? a->depth : 1;
    t->pitch = a->width * channels * bits / 8;
    t->slice_pitch = t->pitch * t->height;
    t->dims = a->depth && !layered ? 3 : a->height ? 2 : 1;
    break;
  }
  case hipResourceTypeLinear: {
    format = r->res.linear.desc;
    int channels = 0, bits = 0;
    if (!r->res.linear.devPtr) return hipErrorInvalidValue;
    if (!cass_software_format(format, &channels, &bits)) return hipErrorInvalidValue;
    t->base = reinterpret_cast<uintptr_t>(r->res.linear.devPtr);
    t->width = static_cast<uint32_t>(r->res.linear.sizeInBytes / (channels * bits / 8));
    t->height = t->depth = 1;
    t->pitch = t->slice_pitch = static_cast<uint32_t>(r->res.linear.sizeInBytes);
    t->linear_resource = 1;
    t->dims = 1;
    break;
  }
  case hipResourceTypePitch2D: {
    format = r->res.pitch2D.desc;
    int channels = 0, bits = 0;
    if (!cass_software_format(format, &channels, &bits)) return hipErrorInvalidValue;
    if (!r->res.pitch2D.devPtr || r->res.pitch2D.pitchInBytes < r->res.pitch2D.width * channels * bits / 8)
      return hipErrorInvalidValue;
    t->base = reinterpret_cast<uintptr_t>(r->res.pitch2D.devPtr);
    t->pitch = static_cast<uint32_t>(r->res.pitch2D.pitchInBytes);
    t->width = static_cast<uint32_t>(r->res.pitch2D.width);
    t->height = static_cast<uint32_t>(r->res.pitch2D.height);
    t->depth = 1;
    t->slice_pitch = t->pitch * t->height;
    t->dims = 2;
    break;
  }
  case hipResourceTypeMipmappedArray:
    return cass_software_refuse("a mipmapped array");
  default:
    return hipErrorInvalidValue;
  }
  int channels = 0, bits = 0;
  cass_software_format(format, &channels, &bits);
  t->channels = static_cast<uint8_t>(channels);
  t->bits = static_cast<uint8_t>(bits);
  t->kind = static_cast<uint8_t>(format.f);
  t->levels = 1;
  return hipSuccess;
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

/* A texture object or (sampled false: its sampling fields unused) a surface object. */
inline hipError_t cass_software_object_create(uintptr_t* object, const hipResourceDesc* resource,
                                              const hipTextureDesc* desc, bool sampled) {
  cass_texture t;
  std::memset(&t, 0, sizeof t);
  hipError_t e = cass_software_resource(&t, resource);
  if (e != hipSuccess) return e;
  bool integer = t.kind != CASS_SW_FLOAT;
  t.read_normalized = integer && t.bits < 32 && desc->readMode == hipReadModeNormalizedFloat;
  t.filter_linear = sampled && desc->filterMode == hipFilterModeLinear;
  if (t.filter_linear && integer && !t.read_normalized)
    return hipErrorInvalidValue;     /* CUDA filters only values it returns as floats */
  t.normalized_coords = desc->normalizedCoords != 0;
  for (int i = 0; i < 3; ++i) t.address[i] = static_cast<uint8_t>(desc->addressMode[i]);
  std::memcpy(t.border, desc->borderColor, sizeof t.border);
  if (t.read_normalized)
    for (int c = 0; c < 4; ++c) t.border[c] = cass_border_in_format(t.border[c], t.bits, t.kind == CASS_SW_SIGNED);
  void* device = nullptr;
  e = hipMalloc(&device, sizeof t);
  if (e != hipSuccess) return e;
  e = hipMemcpy(device, &t, sizeof t, hipMemcpyHostToDevice);
  if (e != hipSuccess) {
    (void)hipFree(device);
    return e;
  }
  *object = reinterpret_cast<uintptr_t>(device);
  return hipSuccess;
}

inline hipError_t cass_software_object_destroy(uintptr_t object) {
  return hipFree(reinterpret_cast<void*>(object));
}

/* ---- device: fetching ------------------------------------------------------------------------- */
/* Four result words: float bits, or the integers of an element read of an integer texture. */
struct cass_sw_words {
  unsigned w[4];
};

/* One channel's bits -> its result word (see passes/lift/texture.py, _convert). */
static __device__ inline unsigned cass_sw_convert(unsigned raw, int bits, int kind, bool normalized) {
  int width = 32 - bits;
  unsigned u = width ? (raw << width) >> width : raw;
  int s = width ? static_cast<int>(raw << width) >> width : static_cast<int>(raw);
  if (normalized) {
    unsigned top = (bits == 32 ? 0u : (1u << bits)) - 1u;
    float n = kind == CASS_SW_SIGNED ? static_cast<float>(s) / static_cast<float>(top >> 1)
                                     : static_cast<float>(u) / static_cast<float>(top);
    if (n < -1.0f) n = -1.0f;
    return __builtin_bit_cast(unsigned, n);
  }
  if (kind == CASS_SW_FLOAT)
    return bits == 16 ? __builtin_bit_cast(unsigned, static_cast<float>(__builtin_bit_cast(_Float16, static_cast<unsigned short>(raw))))
                      : raw;
  return kind == CASS_SW_SIGNED ? static_cast<unsigned>(s) : u;
}

/* floor(u) as an int, clamped far outside any texture; NaN reads texel 0. */
static __device__ inline int cass_sw_floor_int(float u) {
  float f = __builtin_floorf(u);
  if (f > 1073741824.0f) f = 1073741824.0f;
  if (f < -1073741824.0f) f = -1073741824.0f;
  if (f != f) f = 0.0f;
  return static_cast<int>(f);
}

/* Texel index i along an axis of n texels under address mode `mode` (hipTextureAddressMode)
 * -> index inside; *inside says whether it exists (only the border mode has texels that do
 * not). Wrap and mirror fold normalised coordinates only; otherwise the mode is clamp (CUDA's
 * rule). */
static __device__ inline int cass_sw_fold(int i, int n, int mode, bool normalized_coords, bool* inside) {
  *inside = mode != CASS_SW_BORDER || static_cast<unsigned>(i) < static_cast<unsigned>(n);
  if (normalized_coords && (mode == CASS_SW_WRAP || mode == CASS_SW_MIRROR)) {
    if (mode == CASS_SW_WRAP) {
      int w = i % n;
      return w < 0 ? w + n : w;
    }
    int period = n + n, f = i % period;
    if (f < 0) f += period;
    return f < n ? f : period - 1 - f;
  }
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

static __device__ inline int cass_sw_address(const cass_texture* t, int i, int n, int axis, bool* inside) {
  return cass_sw_fold(i, n, t->address[axis], t->normalized_coords, inside);
}

/* The texel at (ix, iy, iz); outside (any axis not inside) the border colour, or zero. */
static __device__ inline cass_sw_words cass_sw_texel(const cass_texture* t, const int* index, const bool* inside,
                                                     bool zero_outside) {
  bool exists = inside[0] && inside[1] && inside[2];
  int channels = t->channels, bits = t->bits, kind = t->kind;
  bool normalized = t->read_normalized;
  unsigned element[4] = {0, 0, 0, 0};
  if (exists) {
    unsigned size = channels * bits / 8;
    const unsigned char* at = reinterpret_cast<const unsigned char*>(t->base) + static_cast<uint64_t>(index[0]) * size +
                              static_cast<uint64_t>(index[1]) * t->pitch + static_cast<uint64_t>(index[2]) * t->slice_pitch;
    __builtin_memcpy(element, at, size);
  }
  bool floating = kind == CASS_SW_FLOAT || normalized;
  cass_sw_words out;
  for (int c = 0; c < 4; ++c) {
    unsigned raw = bits == 32 ? element[c & 3] : bits == 16 ? element[c >> 1] >> (16 * (c & 1)) & 0xFFFFu
                                                           : element[0] >> (8 * c) & 0xFFu;
    unsigned value = c < channels ? cass_sw_convert(raw, bits, kind, normalized)
                                  : c == 3 ? (floating ? 0x3F800000u : 1u) : 0u;
    /* An element read of an integer texture returns the border colour's float bits cut to
     * the channel (H200: 2.7f = 0x402CCCCD reads 205 from a uchar4 texture). */
    unsigned border = __builtin_bit_cast(unsigned, t->border[c]);
    if (!floating) border = cass_sw_convert(border, bits, kind, false);
    out.w[c] = exists ? value : zero_outside ? 0u : border;
  }
  return out;
}

/* A corner's weight: the product of its factors (0..256 each, 1/256 steps) rounded to 1/256; a
 * tie rounds up at corners with an even number of high sides, down at the others. */
static __device__ inline double cass_sw_corner_weight(const unsigned* factors, int n, int highs) {
  uint64_t product = 256;            /* the level's share: one level, all of it */
  for (int i = 0; i < n; ++i) product *= factors[i];
  int shift = 8 * n;
  uint64_t units = product >> shift, rest = product & ((uint64_t(1) << shift) - 1), half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (highs & 1) == 0)) ++units;
  return static_cast<double>(units) / 256.0;
}

/* CUDA's linear filter over n axes (1..3) at texel-space coordinates `scaled` (an axis not
 * active reads texel 0): per axis the texels i0 = floor(u - 0.5) and i0 + 1 with 9-bit weights
 * (8 fractional bits; the H200 rounds half up: texture_modes' probe, 256 * 1/512 -> 1), each
 * corner's weight rounded to 1/256 (cass_sw_corner_weight), the weighted texels summed exactly
 * and rounded once. texel(index) gives the words of the texel at the (unaddressed) indices. */
template <typename _CassTexel>
static __device__ inline cass_sw_words cass_sw_filter(const float* scaled, const bool* active, int n,
                                                      _CassTexel texel) {
#pragma clang fp contract(off)
  int low[3];
  unsigned weight_low[3], weight_high[3];
  for (int a = 0; a < n; ++a) {
    float shifted = scaled[a] - 0.5f;
    float below = __builtin_floorf(shifted);
    float frac = shifted - below;
    int alpha = active[a] ? static_cast<int>(__builtin_floorf(frac * 256.0f + 0.5f)) : 0;
    low[a] = active[a] ? cass_sw_floor_int(below) : 0;
    weight_low[a] = 256 - alpha;
    weight_high[a] = alpha;
  }
  double sums[4] = {0.0, 0.0, 0.0, 0.0};
  for (int corner = 0; corner < (1 << n); ++corner) {     /* CUDA's order: x fastest */
    int index[3] = {0, 0, 0};
    unsigned factors[3];
    for (int a = 0; a < n; ++a) {
      bool hi = corner >> a & 1;
      index[a] = active[a] ? low[a] + hi : 0;
      factors[a] = hi ? weight_high[a] : weight_low[a];
    }
    double weight = cass_sw_corner_weight(factors, n, __builtin_popcount(corner));
    cass_sw_words words = texel(index);
    for (int c = 0; c < 4; ++c) sums[c] = sums[c] + weight * static_cast<double>(__builtin_bit_cast(float, words.w[c]));
  }
  cass_sw_words out;
  for (int c = 0; c < 4; ++c) out.w[c] = __builtin_bit_cast(unsigned, static_cast<float>(sums[c]));
  return out;
}

/* Point or linear filtering of n coordinates (1..3); a layered array's layer (as unsigned,
 * clamped to the last layer) is a fixed slice. */
static __device__ inline cass_sw_words cass_sw_sample(const cass_texture* t, const float* coords, int n,
                                                      bool layered = false, int layer = 0) {
#pragma clang fp contract(off)
  const int sizes[3] = {static_cast<int>(t->width), static_cast<int>(t->height), static_cast<int>(t->depth)};
  int fixed_index[3] = {0, 0, 0};
  if (layered) {            /* unsigned: the H200 reads layer -1 as the last (sampler_corners) */
    unsigned last = t->depth - 1;
    fixed_index[2] = static_cast<int>(static_cast<unsigned>(layer) > last ? last : static_cast<unsigned>(layer));
  }
  float scaled[3];
  bool active[3];
  for (int a = 0; a < n; ++a) {
    scaled[a] = t->normalized_coords ? coords[a] * static_cast<float>(sizes[a]) : coords[a];
    active[a] = a < t->dims;
  }
  if (!t->filter_linear) {
    int index[3] = {fixed_index[0], fixed_index[1], fixed_index[2]};
    bool inside[3] = {true, true, true};
    for (int a = 0; a < n; ++a)
      index[a] = cass_sw_address(t, active[a] ? cass_sw_floor_int(scaled[a]) : 0, sizes[a], a, &inside[a]);
    return cass_sw_texel(t, index, inside, false);
  }
  return cass_sw_filter(scaled, active, n, [&](const int* corner) {
    int index[3] = {fixed_index[0], fixed_index[1], fixed_index[2]};
    bool inside[3] = {true, true, true};
    for (int a = 0; a < n; ++a) index[a] = cass_sw_address(t, corner[a], sizes[a], a, &inside[a]);
    return cass_sw_texel(t, index, inside, false);
  });
}

/* tex1Dfetch: texel x of a linear resource, zero outside it. */
static __device__ inline cass_sw_words cass_sw_fetch(const cass_texture* t, int x) {
  int index[3] = {x, 0, 0};
  bool inside[3] = {static_cast<unsigned>(x) < t->width, true, true};
  return cass_sw_texel(t, index, inside, true);
}

/* tex2Dgather: component comp of the texels (i, j+1), (i+1, j+1), (i+1, j), (i, j) around
 * (x - 0.5, y - 0.5), Direct3D's Gather4 order. */
static __device__ inline cass_sw_words cass_sw_gather(const cass_texture* t, float x, float y, int comp) {
#pragma clang fp contract(off)
  const float coords[2] = {x, y};
  const int sizes[2] = {static_cast<int>(t->width), static_cast<int>(t->height)};
  int at[2][2];
  bool in[2][2];
  for (int a = 0; a < 2; ++a) {
    float u = t->normalized_coords ? coords[a] * static_cast<float>(sizes[a]) : coords[a];
    int i0 = cass_sw_floor_int(u - 0.5f);
    at[a][0] = cass_sw_address(t, i0, sizes[a], a, &in[a][0]);
    at[a][1] = cass_sw_address(t, i0 + 1, sizes[a], a, &in[a][1]);
  }
  const int order[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
  cass_sw_words out;
  for (int k = 0; k < 4; ++k) {
    int index[3] = {at[0][order[k][0]], at[1][order[k][1]], 0};
    bool inside[3] = {in[0][order[k][0]], in[1][order[k][1]], true};
    out.w[k] = cass_sw_texel(t, index, inside, false).w[comp & 3];
  }
  return out;
}

/* The result words as CUDA's T: float components take the bits, integer ones the value. */
template <typename _CassT> struct cass_sw_component { typedef _CassT type; static constexpr int count = 1; };
template <typename _CassT, unsigned _n> struct cass_sw_component<HIP_vector_type<_CassT, _n>> {
  typedef _CassT type;
  static constexpr int count = _n;
};

template <typename _CassT>
static __device__ inline _CassT cass_sw_value(const cass_sw_words& words) {
  typedef typename cass_sw_component<_CassT>::type _CassC;
  _CassT v;
  _CassC* c = reinterpret_cast<_CassC*>(&v);
  for (int k = 0; k < cass_sw_component<_CassT>::count; ++k) {
    if (std::is_floating_point<_CassC>::value)
      c[k] = static_cast<_CassC>(__builtin_bit_cast(float, words.w[k]));
    else
      c[k] = static_cast<_CassC>(static_cast<int>(words.w[k]));
  }
  return v;
}

static __device__ inline const cass_texture* cass_sw_descriptor(hipTextureObject_t object) {
  return reinterpret_cast<const cass_texture*>(object);
}

/* Surfaces: the element's bytes at byte x, row y, slice or layer z (`checked`: a bit per axis
 * the shape has). Out of range, cudaBoundaryModeTrap
 * (the default) ends the kernel, Zero reads zero and drops the store, Clamp moves to the edge. */
static __device__ inline unsigned char* cass_sw_surface_at(hipSurfaceObject_t surface, int x, int y, int z, int checked,
                                                          unsigned size, int mode) {
  const cass_texture* t = reinterpret_cast<const cass_texture*>(surface);
  int element = t->channels * t->bits / 8;
  const int limits[3] = {static_cast<int>(t->width) * element - static_cast<int>(size - 1), static_cast<int>(t->height),
                         static_cast<int>(t->depth)};
  int coords[3] = {x, y, z};
  for (int a = 0; a < 3; ++a) {
    if (!(checked >> a & 1)) continue;
    if (static_cast<unsigned>(coords[a]) < static_cast<unsigned>(limits[a])) continue;
    if (mode == hipBoundaryModeClamp)
      coords[a] = coords[a] < 0 ? 0 : limits[a] - 1;
    else if (mode == hipBoundaryModeZero)
      return nullptr;
    else
      __builtin_trap();
  }
  return reinterpret_cast<unsigned char*>(t->base) + coords[0] + static_cast<uint64_t>(coords[1]) * t->pitch +
         static_cast<uint64_t>(coords[2]) * t->slice_pitch;
}

template <typename _CassT>
static __device__ inline _CassT cass_sw_surface_read(hipSurfaceObject_t surface, int x, int y, int z, int checked, int mode) {
  _CassT v;
  __builtin_memset(static_cast<void*>(&v), 0, sizeof v);
  if (unsigned char* at = cass_sw_surface_at(surface, x, y, z, checked, sizeof(_CassT), mode))
    __builtin_memcpy(static_cast<void*>(&v), at, sizeof v);
  return v;
}

template <typename _CassT>
static __device__ inline void cass_sw_surface_write(const _CassT& v, hipSurfaceObject_t surface, int x, int y, int z,
                                                    int checked, int mode) {
  if (unsigned char* at = cass_sw_surface_at(surface, x, y, z, checked, sizeof(_CassT), mode))
    __builtin_memcpy(at, &v, sizeof v);
}

#endif
