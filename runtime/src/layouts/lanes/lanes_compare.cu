// irregfix runtime: IRREGFIX_VERIFY's measure of a lanes variant. See lanes_compare.h.
#include "lanes_compare.h"

#include <cmath>
#include <cstring>

namespace irregfix {
namespace detail {
namespace {

// Where the comparison's result goes, after the elements (8-byte aligned).
std::size_t result_offset(std::size_t elem_size, long long count) {
  return (static_cast<std::size_t>(count) * elem_size + 7) / 8 * 8;
}

template <class T> __device__ double relative(const unsigned char *a, const unsigned char *b) {
  T x, y;
  memcpy(&x, a, sizeof x);
  memcpy(&y, b, sizeof y);
  if (isnan(static_cast<double>(x)) || isnan(static_cast<double>(y)))
    return isnan(static_cast<double>(x)) && isnan(static_cast<double>(y)) ? 0.0 : INFINITY;
  const double d = fabs(static_cast<double>(x) - static_cast<double>(y));
  const double m = fmax(fabs(static_cast<double>(x)), fabs(static_cast<double>(y)));
  return d == 0 ? 0.0 : d / m;
}

// result[0]: the largest relative difference's bits (non-negative doubles
// order as their bits do); result[1]: the elements whose bits differ.
__global__ void compare_stores(const unsigned char *a, const unsigned char *b, int kind, unsigned elem_size,
                               long long count, unsigned long long *result) {
  double worst = 0;
  unsigned long long differing = 0;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const unsigned char *x = a + i * elem_size, *y = b + i * elem_size;
    bool same = true;
    for (unsigned j = 0; j < elem_size; ++j)
      same &= x[j] == y[j];
    if (same)
      continue;
    ++differing;
    const double r = kind == kValueF32 ? relative<float>(x, y) : kind == kValueF64 ? relative<double>(x, y) : 0.0;
    worst = fmax(worst, r);
  }
  if (differing) {
    atomicAdd(result + 1, differing);
    atomicMax(result, static_cast<unsigned long long>(__double_as_longlong(worst)));
  }
}

} // namespace

std::string take_reference(const Config &cfg, const SiteInfo &site, StoredReference &r, const void *stored,
                           std::size_t elem_size, int kind, long long count, cudaStream_t stream) {
  const std::size_t bytes = result_offset(elem_size, count) + 2 * sizeof(unsigned long long);
  if (std::string why = ensure_buffer(cfg, site, r.copy, bytes); !why.empty())
    return why;
  IRREGFIX_TRY(cudaMemcpyAsync(r.copy.ptr, stored, static_cast<std::size_t>(count) * elem_size,
                               cudaMemcpyDeviceToDevice, stream));
  r.stored = stored;
  r.elem_size = elem_size;
  r.kind = kind;
  r.count = count;
  return "";
}

std::string compare_reference(const SiteInfo &site, const StoredReference &r, cudaStream_t stream, Difference *out) {
  auto *result = reinterpret_cast<unsigned long long *>(static_cast<unsigned char *>(r.copy.ptr) +
                                                        result_offset(r.elem_size, r.count));
  IRREGFIX_TRY(cudaMemsetAsync(result, 0, 2 * sizeof(unsigned long long), stream));
  const long long blocks = (r.count + 255) / 256;
  compare_stores<<<static_cast<unsigned>(blocks < 1024 ? (blocks > 0 ? blocks : 1) : 1024), 256, 0, stream>>>(
      static_cast<const unsigned char *>(r.stored), static_cast<const unsigned char *>(r.copy.ptr), r.kind,
      static_cast<unsigned>(r.elem_size), r.count, result);
  IRREGFIX_TRY(cudaGetLastError());
  unsigned long long host[2] = {};
  IRREGFIX_TRY(cudaMemcpyAsync(host, result, sizeof host, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  double worst = 0;
  static_assert(sizeof worst == sizeof host[0], "a double's bits");
  std::memcpy(&worst, &host[0], sizeof worst);
  out->max_relative = worst;
  out->differing = host[1];
  return "";
}

} // namespace detail
} // namespace irregfix
