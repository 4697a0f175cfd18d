// irregfix runtime: IRREGFIX_VERIFY with a lanes variant (lanes_reference,
// lanes_compare): the references its launcher's original kernel writes, kept
// per site and device, and what the comparisons found, in the site's
// statistics and once on stderr.
#include <irregfix/irregfix.cuh>

#include "device_memory.h"
#include "lanes_compare.h"
#include "launch.h"
#include "state.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <vector>

namespace irregfix {
namespace detail {
namespace {

// Guarded by State::mu; freed by forget_device_state.
std::map<RecordKey, std::vector<StoredReference>> &references() {
  static std::map<RecordKey, std::vector<StoredReference>> refs;
  return refs;
}

} // namespace

void free_lanes_references() {
  int dev = 0;
  const bool have_dev = cudaGetDevice(&dev) == cudaSuccess;
  for (auto &kv : references()) {
    if (have_dev)
      cudaSetDevice(kv.first.second);
    for (StoredReference &r : kv.second)
      free_buffer(r.copy);
  }
  references().clear();
  if (have_dev)
    cudaSetDevice(dev);
  cudaGetLastError();
}

} // namespace detail

bool lanes_reference(const SiteInfo &site, int which, const void *stored, size_t elem_size, int value_kind,
                     long long count, void **reference, cudaStream_t stream) {
  using namespace detail;
  *reference = nullptr;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  ensure_loaded(st);
  int dev = 0;
  if (!st.cfg.verify || which < 0 || count <= 0 || !stored || elem_size == 0)
    return false;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  // The original may store at every thread of its launch, not only below the
  // kernel's guard: the reference spans the launch's threads, cut where the
  // stored array's allocation ends (the original stores no further).
  const LaunchShape shape = launch_shape(this_thread_launch(st));
  if (shape.open)
    count = std::max(count, static_cast<long long>(shape.grid.x) * shape.grid.y * shape.grid.z * shape.block.x *
                                shape.block.y * shape.block.z);
  Range alloc;
  const auto at = reinterpret_cast<std::uintptr_t>(stored);
  if (!allocation_of(stored, &alloc) || !alloc.contains(at)) {
    cudaGetLastError();
    record_fallback(site_stats(st, site),
                    "IRREGFIX_VERIFY could not compare the lanes variant: a stored array is not device memory");
    return false;
  }
  count = std::min(count, static_cast<long long>((alloc.base + alloc.size - at) / elem_size));
  if (count <= 0)
    return false;
  std::vector<StoredReference> &refs = references()[RecordKey(&site, dev)];
  if (which == 0) // a new launch: the last one's references are not compared
    for (StoredReference &r : refs)
      r.taken = false;
  if (refs.size() <= static_cast<std::size_t>(which))
    refs.resize(static_cast<std::size_t>(which) + 1);
  StoredReference &r = refs[static_cast<std::size_t>(which)];
  if (const std::string why = take_reference(st.cfg, site, r, stored, elem_size, value_kind, count, stream);
      !why.empty()) {
    record_fallback(site_stats(st, site), "IRREGFIX_VERIFY could not compare the lanes variant: " + why);
    return false;
  }
  r.taken = true;
  *reference = r.copy.ptr;
  return true;
}

void lanes_compare(const SiteInfo &site, cudaStream_t stream) {
  using namespace detail;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  ensure_loaded(st);
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  SiteStats &ss = site_stats(st, site);
  Difference found;
  bool compared = false;
  for (StoredReference &r : references()[RecordKey(&site, dev)]) {
    if (!r.taken)
      continue;
    r.taken = false;
    Difference d;
    if (const std::string why = compare_reference(site, r, stream, &d); !why.empty()) {
      record_fallback(ss, "IRREGFIX_VERIFY could not compare the lanes variant: " + why);
      return;
    }
    found.max_relative = std::max(found.max_relative, d.max_relative);
    found.differing += d.differing;
    compared = true;
  }
  if (!compared)
    return;
  const bool reassociates = (site.flags & kSiteReassociates) != 0;
  const bool first = ss.lanes_compared == 0;
  ++ss.lanes_compared;
  ss.lanes_reassociates = reassociates;
  ss.lanes_max_relative = std::max(ss.lanes_max_relative, found.max_relative);
  ss.lanes_differing += found.differing;
  if (reassociates && first)
    std::fprintf(stderr,
                 "irregfix: IRREGFIX_VERIFY: %s (%s) runs its rows with several lanes, its floating-point sums "
                 "reassociated (--reassociate): largest relative difference from the original %.3g "
                 "(IRREGFIX_STATS=1 reports the largest over the run)\n",
                 site.kernel ? site.kernel : "?", site.id ? site.id : "?", found.max_relative);
  else if (!reassociates && found.differing > 0)
    std::fprintf(stderr,
                 "irregfix: IRREGFIX_VERIFY: the lanes variant of %s (%s) differs from the original kernel in "
                 "%llu elements\n",
                 site.kernel ? site.kernel : "?", site.id ? site.id : "?", found.differing);
}

} // namespace irregfix
