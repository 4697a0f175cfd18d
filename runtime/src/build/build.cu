// irregfix runtime: what every builder shares. See build.h.
#include "build.h"

#include <climits>
#include <cstring>
#include <cstdint>

namespace irregfix {
namespace detail {
std::size_t index_size(int kind) { return kind == kIndexI64 || kind == kIndexU64 ? 8 : 4; }

bool index_value(const unsigned char *p, int kind, long long *out) {
  switch (kind) {
  case kIndexI32: {
    int v;
    std::memcpy(&v, p, sizeof v);
    *out = v;
    return true;
  }
  case kIndexU32: {
    unsigned v;
    std::memcpy(&v, p, sizeof v);
    *out = v;
    return true;
  }
  case kIndexI64:
    std::memcpy(out, p, sizeof *out);
    return true;
  default: {
    unsigned long long v;
    std::memcpy(&v, p, sizeof v);
    *out = static_cast<long long>(v);
    return v <= static_cast<unsigned long long>(LLONG_MAX);
  }
  }
}

// Bytes of a copy of `cells` elements of `esz` bytes; "" or why it cannot be.
std::string copy_bytes(unsigned long long cells, std::size_t esz, std::size_t *bytes) {
  unsigned long long b = 0;
  if (__builtin_mul_overflow(cells, static_cast<unsigned long long>(esz), &b) || b > SIZE_MAX)
    return "remapped copy too large";
  *bytes = static_cast<std::size_t>(b);
  return "";
}

// One device buffer per remapped array, at least need[i] bytes each (reused
// when big enough). The caller has checked the byte cap.
std::string ensure_copies(const BuildContext &cx, const SiteInfo &site, Entry &e,
                          const std::vector<std::size_t> &need) {
  e.bufs.resize(need.size(), nullptr);
  e.buf_bytes.resize(need.size(), 0);
  for (std::size_t i = 0; i < need.size(); ++i)
    if (std::string why = ensure_buffer(cx.cfg, site, &e.bufs[i], &e.buf_bytes[i], need[i]); !why.empty())
      return why;
  return "";
}

std::string minmax_to_summary(BuildContext &cx, const SiteInfo &site, int dev, const void *p, int kind,
                              long long n, cudaStream_t stream, Scratch **out) {
  std::size_t temp_bytes = 0;
  IRREGFIX_TRY(minmax_indices(p, kind, n, nullptr, nullptr, &temp_bytes, stream));
  std::string why = ensure_scratch(cx.cfg, cx.devices, site, dev, temp_bytes, out);
  if (!why.empty())
    return why;
  IRREGFIX_TRY(minmax_indices(p, kind, n, (*out)->summary, (*out)->temp, &temp_bytes, stream));
  return "";
}

std::string read_index_minmax(BuildContext &cx, SiteStats &ss, const SiteInfo &site, int dev, const void *p,
                              int kind, long long n, cudaStream_t stream, long long *min,
                              long long *max, bool *fits) {
  Scratch *sc = nullptr;
  std::string why = minmax_to_summary(cx, site, dev, p, kind, n, stream, &sc);
  if (!why.empty())
    return why;
  unsigned char h[16];
  IRREGFIX_TRY(cudaMemcpyAsync(h, sc->summary, sizeof h, cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  resolve_timings(ss, false);
  *fits = index_to_ll(h, kind, min) && index_to_ll(h + 8, kind, max);
  return "";
}

// Extent [p + lo*esz, p + hi*esz) must lie in p's device allocation.
std::string check_extent(const void *p, std::size_t esz, long long lo, long long hi,
                         SourceRange *src) {
  src->ptr = reinterpret_cast<std::uintptr_t>(p);
  if (!allocation_of(p, &src->allocation, &src->memory))
    return "a remapped array is not device memory";
  if (hi <= lo) {
    src->extent = Range{src->ptr, 0};
    return "";
  }
  const long long s = static_cast<long long>(esz);
  const std::intptr_t begin = static_cast<std::intptr_t>(src->ptr) + lo * s;
  const std::intptr_t end = static_cast<std::intptr_t>(src->ptr) + hi * s;
  const Range &a = src->allocation;
  if (begin < static_cast<std::intptr_t>(a.base) ||
      end > static_cast<std::intptr_t>(a.base + a.size))
    return "index data reaches outside a remapped array's allocation";
  src->extent = Range{static_cast<std::uintptr_t>(begin), static_cast<std::size_t>(end - begin)};
  return "";
}

std::string copies_enqueued(SiteStats &ss, const SiteInfo &site, Entry &e,
                            unsigned long long bytes, cudaStream_t stream) {
  IRREGFIX_TRY(cudaEventRecord(e.ready, stream));
  ++ss.remaps;
  ss.bytes_remapped += bytes;
  e.built_on = stream;
  e.valid = true;
  return "";
}

// A data array read by a gather: its allocation (the extent, for invalidation)
// and the element indices that lie inside it. Indices outside are sentinels.
std::string gather_source(const void *A, std::size_t esz, SourceRange *src, long long *lo,
                          long long *hi) {
  src->ptr = reinterpret_cast<std::uintptr_t>(A);
  if (!allocation_of(A, &src->allocation, &src->memory))
    return "a remapped array is not device memory";
  src->extent = src->allocation;
  if (!element_bounds(src->allocation.base, src->allocation.size, src->ptr, esz, lo, hi))
    return "a remapped array is not device memory";
  return "";
}

// An index array read by the remap itself: device memory, and the valid element
// indices of its allocation.
std::string whole_index_source(const void *p, int kind, long long n, const char *name,
                               SourceRange *src) {
  long long lo = 0, hi = 0;
  std::string why = index_source(p, kind, 0, n, src, &lo, &hi);
  if (why.empty() && (lo > 0 || hi < n))
    why = std::string("bad index data: ") + name + "[0..n) reaches outside its allocation";
  return why;
}

std::string index_source(const void *p, int kind, long long lo, long long hi, SourceRange *src,
                         long long *alo, long long *ahi) {
  src->ptr = reinterpret_cast<std::uintptr_t>(p);
  if (!allocation_of(p, &src->allocation, &src->memory))
    return "the index array is not device memory";
  const std::size_t isz = index_size(kind);
  if (!element_bounds(src->allocation.base, src->allocation.size, src->ptr, isz, alo, ahi))
    return "the index array is not device memory";
  src->extent = hi > lo ? Range{src->ptr + static_cast<std::uintptr_t>(lo * static_cast<long long>(isz)),
                                static_cast<std::size_t>(hi - lo) * isz}
                        : Range{src->ptr, 0};
  return "";
}

} // namespace detail
} // namespace irregfix
