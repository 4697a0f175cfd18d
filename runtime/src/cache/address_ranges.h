// irregfix runtime: address ranges of device memory (allocations, the extents
// a copy was built from) and the arithmetic on them that invalidation and the
// builders' bounds checks need. Host-only: test/unit/runtime checks it without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>

namespace irregfix {
namespace detail {

struct Range {
  std::uintptr_t base = 0;
  std::size_t size = 0;
  bool empty() const { return size == 0; }
  bool contains(std::uintptr_t p) const { return p >= base && p - base < size; }
};

// Element indices i for which [p + i*esz, p + (i+1)*esz) lies inside the
// allocation [base, base+size) that holds p: lo <= i < hi. False when p is
// outside the allocation or esz is 0.
bool element_bounds(std::uintptr_t base, std::size_t size, std::uintptr_t p, std::size_t esz,
                    long long *lo, long long *hi);

// Whether a write at `written` (in the device allocation `written_allocation`,
// empty when unknown) may have changed the bytes a copy read from `ptr`: its
// own allocation `allocation` (empty when unknown) and the extent it read,
// `extent`. With the written allocation known, anything in it matches; else
// what was read, or the allocation that holds it, must contain the address.
// Inline: every invalidation asks it of every source of every entry.
inline bool write_reaches(std::uintptr_t written, const Range &written_allocation, std::uintptr_t ptr,
                          const Range &allocation, const Range &extent) {
  if (!written_allocation.empty())
    // p lies in a known device allocation: any source inside it matches,
    // as does a source whose own allocation contains p.
    return written_allocation.contains(ptr) || allocation.contains(written) ||
           (!extent.empty() && written_allocation.contains(extent.base));
  return extent.contains(written) || allocation.contains(written) || ptr == written;
}

} // namespace detail
} // namespace irregfix
