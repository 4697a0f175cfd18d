// irregfix runtime: the host logic of indexed copies. See indexed_plan.h.
#include "indexed_plan.h"

#include <irregfix/pattern.h>

#include <cstdint>

namespace irregfix {
namespace detail {

std::string check_indexed_site(const IndexedSite &s) {
  if (s.count <= 0 || !s.arrays || !s.elem_sizes)
    return "no arrays to remap";
  if (s.n <= 0)
    return "no threads";
  for (int a = 0; a < s.count; ++a) {
    if (!s.arrays[a])
      return "null source array";
    if (s.elem_sizes[a] == 0)
      return "an element size of zero";
  }
  if (s.index_count < 0 || (s.index_count > 0 && !s.index_arrays) || s.scalar_count < 0 ||
      (s.scalar_count > 0 && !s.scalars))
    return "bad indexed site: index arrays or scalars missing";
  return "";
}

CacheKey indexed_key(const char *site_id, int device, const IndexedSite &s, int layout) {
  CacheKey k;
  k.device = device;
  k.site = site_id ? site_id : "?";
  k.pattern = kPatternIndexed;
  k.sources.assign(s.arrays, s.arrays + s.count);
  k.elem_sizes.assign(s.elem_sizes, s.elem_sizes + s.count);
  if (s.index_count > 0)
    k.index_arrays.assign(s.index_arrays, s.index_arrays + s.index_count);
  k.params.reserve(static_cast<std::size_t>(s.scalar_count) + 1);
  k.params.push_back(s.loop ? 1 : 0);
  if (s.scalar_count > 0)
    k.params.insert(k.params.end(), s.scalars, s.scalars + s.scalar_count);
  k.n = s.n;
  k.layout = layout;
  return k;
}

bool same_indexed_call(const CacheKey &k, const IndexedSite &s, int device, int layout) {
  if (k.device != device || k.pattern != kPatternIndexed || k.n != s.n || k.layout != layout ||
      k.sources.size() != static_cast<std::size_t>(s.count) ||
      k.index_arrays.size() != static_cast<std::size_t>(s.index_count > 0 ? s.index_count : 0) ||
      k.params.size() != static_cast<std::size_t>(s.scalar_count > 0 ? s.scalar_count : 0) + 1 ||
      k.params[0] != (s.loop ? 1 : 0))
    return false;
  for (int a = 0; a < s.count; ++a)
    if (k.sources[a] != s.arrays[a] || k.elem_sizes[a] != s.elem_sizes[a])
      return false;
  for (int i = 0; i < s.index_count; ++i)
    if (k.index_arrays[i] != s.index_arrays[i])
      return false;
  for (int i = 0; i < s.scalar_count; ++i)
    if (k.params[i + 1] != s.scalars[i])
      return false;
  return true;
}

bool indexed_loop(const CacheKey &k) { return !k.params.empty() && k.params[0] != 0; }

IndexedStep indexed_first_step(const Entry &e, bool loop) {
  const std::size_t count = e.key.sources.size();
  const IndexedPayload *p = payload_of<IndexedPayload>(e);
  if (e.shape_valid && p && p->indices.ptr && e.bufs.size() == count && p->index_ptrs.size() == count)
    return kIndexedReady;
  return loop ? kIndexedLengths : kIndexedIndices;
}

std::string indexed_bytes(unsigned long long cells, const std::vector<std::size_t> &elem_sizes,
                          std::size_t *index_bytes, std::vector<std::size_t> *copy_bytes) {
  unsigned long long slots = 0, bytes = 0;
  if (__builtin_mul_overflow(cells, static_cast<unsigned long long>(elem_sizes.size()), &slots) ||
      __builtin_mul_overflow(slots, static_cast<unsigned long long>(sizeof(long long)), &bytes) ||
      bytes > SIZE_MAX)
    return "remapped copy too large";
  *index_bytes = static_cast<std::size_t>(bytes);
  copy_bytes->assign(elem_sizes.size(), 0);
  for (std::size_t a = 0; a < elem_sizes.size(); ++a) {
    if (__builtin_mul_overflow(cells, static_cast<unsigned long long>(elem_sizes[a]), &bytes) ||
        bytes > SIZE_MAX)
      return "remapped copy too large";
    (*copy_bytes)[a] = static_cast<std::size_t>(bytes);
  }
  return "";
}

unsigned long long indexed_moved(unsigned long long elements, const std::vector<std::size_t> &elem_sizes) {
  unsigned long long total = 0;
  for (std::size_t esz : elem_sizes)
    total += elements * esz;
  return total;
}

Range index_extent_range(std::uintptr_t ptr, std::size_t esz, long long lo, long long hi) {
  if (lo > hi)
    return Range{ptr, 0};
  const long long s = static_cast<long long>(esz);
  return Range{static_cast<std::uintptr_t>(static_cast<std::intptr_t>(ptr) + lo * s),
               static_cast<std::size_t>((hi - lo + 1) * s)};
}

} // namespace detail
} // namespace irregfix
