// irregfix runtime: address ranges. See address_ranges.h.
#include "address_ranges.h"

#include <limits>

namespace irregfix {
namespace detail {

bool element_bounds(std::uintptr_t base, std::size_t size, std::uintptr_t p, std::size_t esz,
                    long long *lo, long long *hi) {
  if (esz == 0 || p < base || p - base > size)
    return false;
  const unsigned long long before = (p - base) / esz;
  const unsigned long long after = (base + size - p) / esz;
  const unsigned long long cap = static_cast<unsigned long long>(std::numeric_limits<long long>::max());
  *lo = -static_cast<long long>(before > cap ? cap : before);
  *hi = static_cast<long long>(after > cap ? cap : after);
  return true;
}

} // namespace detail
} // namespace irregfix
