// irregfix runtime: the run-time alias checks of generated launchers
// (irregfix.cuh): whether a pointer, or a __device__ variable, the kernel
// writes lies in another device allocation than an array it reads through a
// site. Allocation ranges are asked of the driver once per pointer and
// remembered (until irregfix_release), so that a cached launch asks nothing.
#include <irregfix/irregfix.cuh>

#include "device_memory.h"
#include "state.h"

#include <cstdint>
#include <mutex>
#include <string>

namespace irregfix {
namespace detail {

bool known_allocation(State &st, const void *p, Range *r) {
  auto it = st.allocations.find(p);
  if (it == st.allocations.end()) {
    if (st.allocations.size() > 4096) // a program that allocates without end
      st.allocations.clear();
    Range found;
    it = st.allocations.emplace(p, allocation_of(p, &found) ? found : Range{}).first;
  }
  *r = it->second;
  return !r->empty();
}

namespace {

// The launch falls back: record why.
bool aliased(State &st, const SiteInfo &site, const std::string &why) {
  ensure_loaded(st);
  record_fallback(site_stats(st, site), why);
  return false;
}

} // namespace
} // namespace detail

bool disjoint(const SiteInfo &site, const void *written, const void *read) {
  using namespace detail;
  if (!written || !read)
    return true;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  Range w, r;
  const bool wk = known_allocation(st, written, &w);
  const bool rk = known_allocation(st, read, &r);
  if (wk && rk) {
    if (w.base != r.base)
      return true;
    return aliased(st, site, "written pointer may alias a read array (same device allocation)");
  }
  if (wk != rk)
    return true; // one device allocation, one not: different memory
  return aliased(st, site, "written pointer may alias a read array (not device allocations)");
}

bool disjoint_symbol(const SiteInfo &site, const void *symbol, const void *read) {
  using namespace detail;
  if (!read)
    return true;
  int dev = 0;
  const cudaError_t err = cudaGetDevice(&dev);
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  if (err != cudaSuccess)
    return aliased(st, site, cuda_failure("cudaGetDevice", site, err));
  Range var;
  if (!symbol || !symbol_range(st, symbol, dev, &var))
    return aliased(st, site, "written __device__ variable: its device address cannot be found");
  Range va, ra;
  const bool vk = known_allocation(st, reinterpret_cast<const void *>(var.base), &va);
  const bool rk = known_allocation(st, read, &ra);
  const auto p = reinterpret_cast<std::uintptr_t>(read);
  // Without both allocations, what is known of either must not hold the other.
  const bool same = vk && rk ? va.base == ra.base
                             : var.contains(p) || (vk && va.contains(p)) || (rk && ra.contains(var.base));
  if (!same)
    return true;
  return aliased(st, site, "written __device__ variable may alias a read array (same device allocation)");
}

} // namespace irregfix

namespace irregfix {

// The index kernels' bounds: the allocations the alias checks already know.
bool index_extents(const SiteInfo &site, const void *const *arrays, int count, IndexExtents *out) {
  using namespace detail;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  if (count < 0 || count > IndexExtents::kMax)
    return aliased(st, site, "an index reads more arrays than the index kernels can check");
  for (int k = 0; k < IndexExtents::kMax; ++k)
    out->lo[k] = out->hi[k] = 0;
  for (int k = 0; k < count; ++k) {
    Range r;
    if (!arrays[k] || !known_allocation(st, arrays[k], &r))
      return aliased(st, site, "an array an index reads is not device memory the runtime can find");
    out->lo[k] = r.base;
    out->hi[k] = r.base + r.size;
  }
  return true;
}

} // namespace irregfix

namespace irregfix {

bool block_size_is(const SiteInfo &site, dim3 block, unsigned threads) {
  if (block.x == threads && block.y == 1 && block.z == 1)
    return true;
  using namespace detail;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  return aliased(st, site, "the kernel's thread index assumes blocks of " + std::to_string(threads) +
                               " threads; this launch's differ");
}

} // namespace irregfix
