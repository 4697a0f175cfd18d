// irregfix runtime: IRREGFIX_VERIFY's fingerprints of an entry's sources, taken
// at builds and compared at hits. See verify.h.
#include "verify.h"

#include "verify_logic.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace irregfix {
namespace detail {
namespace {

// The fingerprint of each of e's source extents, on `stream`, read back.
std::string take_fingerprints(const Config &cfg, Devices &devices, const SiteInfo &site, int dev, const Entry &e,
                              cudaStream_t stream, std::vector<unsigned long long> *out) {
  const std::size_t count = e.sources.size();
  out->assign(count, 0);
  if (count == 0)
    return "";
  Scratch &sc = devices.scratch[dev];
  const std::string why =
      ensure_buffer(cfg, site, &sc.fingerprints, &sc.fingerprint_bytes, count * sizeof(unsigned long long));
  if (!why.empty())
    return why;
  auto *sums = static_cast<unsigned long long *>(sc.fingerprints);
  IRREGFIX_TRY(cudaMemsetAsync(sums, 0, count * sizeof(unsigned long long), stream));
  for (std::size_t i = 0; i < count; ++i) {
    const Range &extent = e.sources[i].extent;
    IRREGFIX_TRY(add_fingerprint(reinterpret_cast<const void *>(extent.base), extent.size, sums + i, stream));
  }
  IRREGFIX_TRY(cudaMemcpyAsync(out->data(), sums, count * sizeof(unsigned long long),
                               cudaMemcpyDeviceToHost, stream));
  IRREGFIX_TRY(cudaStreamSynchronize(stream));
  return "";
}

} // namespace

std::string remember_fingerprints(const Config &cfg, Devices &devices, SiteStats &ss, const SiteInfo &site, int dev,
                                  Entry &e, cudaStream_t stream) {
  e.built_by = ss.prepares;
  const std::string why = take_fingerprints(cfg, devices, site, dev, e, stream, &e.fingerprints);
  if (!why.empty())
    e.fingerprints.clear();
  return why;
}

std::string verify_hit(const Config &cfg, Devices &devices, SiteStats &ss, const SiteInfo &site, int dev, Entry &e,
                       cudaStream_t stream) {
  std::vector<unsigned long long> now;
  const std::string why = take_fingerprints(cfg, devices, site, dev, e, stream, &now);
  if (!why.empty())
    return why;
  if (e.fingerprints.empty()) { // built before checking was turned on: from here on
    e.fingerprints = std::move(now);
    e.built_by = ss.prepares;
    return "";
  }
  const int changed = first_changed(e.fingerprints, now);
  if (changed >= 0) {
    const std::string line = stale_copy_message(site.id, site.kernel, source_name(site.sources, changed),
                                                e.built_by, ss.prepares);
    std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
    std::abort();
  }
  ++ss.verified;
  return "";
}

} // namespace detail
} // namespace irregfix
