// irregfix runtime: the API of scatter sites (prepare_scatter,
// execute_scatter; irregfix.cuh): the inspector's segments served from the
// cache or built (scatter_build.h), and each launch's own contributions.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "launch.h"
#include "prepare.h"
#include "scatter.h"
#include "scatter_build.h"
#include "state.h"

#include <mutex>
#include <string>

namespace irregfix {
namespace detail {
namespace {

// Whether prepares of this configuration decline: IRREGFIX_DISABLE, or
// IRREGFIX_LAYOUT=none unless IRREGFIX_DETERMINISTIC asks for the executor.
const char *scatter_declined(const Config &cfg) {
  if (cfg.disabled)
    return "disabled by IRREGFIX_DISABLE";
  return cfg.layout == kLayoutChoiceNone && !cfg.deterministic ? "IRREGFIX_LAYOUT=none" : nullptr;
}

// prepare_scatter and prepare_scatter_assign.
bool prepare(const SiteInfo &site, const ScatterIndices &f, long long n, void *A, ScatterKind kind, bool assign,
             ScatterPlan *plan, cudaStream_t stream) {
  int dev = 0;
  const cudaError_t err = cudaGetDevice(&dev);
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  SiteRecord *opened = open_prepare(st, site, err, dev);
  if (!opened)
    return false;
  SiteRecord &rec = *opened;
  SiteStats &ss = *rec.stats;
  ss.pattern = pattern_name(kPatternScatter);
  if (const char *no = scatter_declined(st.cfg)) {
    record_fallback(ss, no);
    return false;
  }
  bool indices = f.count >= 1 && f.count <= ScatterIndices::kMax;
  for (int k = 0; indices && k < f.count; ++k)
    indices = f.f[k] != nullptr;
  if (n <= 0 || !indices || !A) {
    record_fallback(ss, "no threads, no index array or no updated array");
    return false;
  }
  if (kind != kScatterF32 && kind != kScatterF64 && kind != kScatterI32) {
    record_fallback(ss, "scatter: unknown element type");
    return false;
  }
  // The executor's grid for long segments: the device's multiprocessors, asked once.
  if (const cudaError_t m = device_sms(st.devices, dev, &plan->sms); m != cudaSuccess) {
    record_fallback(ss, cuda_failure("cudaDeviceGetAttribute", site, m));
    return false;
  }
  Launch *launch = this_thread_launch(st);
  const CacheKey key = scatter_key(site, f, n, A, kind, assign, dev);
  Entry *e = nullptr;
  const Cache::Lookup found = st.cache.lookup(key, &e);
  View view{};
  const void *copies[1] = {}; // (an inspector's entry holds no copies)
  if (found == Cache::kHit && servable(*e)) {
    if (!serve_hit(st, site, rec, launch, dev, *e, &view, copies, stream))
      return false;
  } else {
    if (!(e = entry_to_build(st, site, ss, key, e)))
      return false;
    bool inspected = false;
    BuildContext cx = st.build_context();
    const std::string why = build_scatter(cx, ss, site, *e, dev, f, n, A, kind, stream, &inspected);
    if (!why.empty())
      return build_failed(st, ss, key, why);
    if (!serve_built(st, site, rec, launch, dev, *e, &view, copies, stream))
      return false;
  }
  // Each launch writes its own contributions, from the stream-ordered pool:
  // launches of this site on other streams may run at the same time.
  const std::size_t bytes = launch_contributions_bytes(*e, kind, assign);
  void *contrib = nullptr;
  cudaError_t a = st.cfg.fail_alloc ? cudaErrorMemoryAllocation : cudaMallocAsync(&contrib, bytes, stream);
  if (a != cudaSuccess) {
    record_fallback(ss, cuda_failure("cudaMallocAsync (scatter contributions)", site, a));
    return false;
  }
  // Threads that do not reach the update (a condition inside the guard) add nothing.
  if (const cudaError_t z = cudaMemsetAsync(contrib, 0, bytes, stream); z != cudaSuccess) {
    record_fallback(ss, cuda_failure("cudaMemsetAsync", site, z));
    cudaFreeAsync(contrib, stream);
    cudaGetLastError();
    return false;
  }
  fill_scatter_plan(*e, kind, plan);
  plan->contrib = contrib;
  plan->written =
      assign ? static_cast<unsigned char *>(contrib) + launch_written_offset(*e, kind) : nullptr;
  return true;
}

} // namespace
} // namespace detail

bool prepare_scatter(const SiteInfo &site, const ScatterIndices &f, long long n, void *A, ScatterKind kind,
                     ScatterPlan *plan, cudaStream_t stream) {
  return detail::prepare(site, f, n, A, kind, false, plan, stream);
}

bool prepare_scatter_assign(const SiteInfo &site, const ScatterIndices &f, long long n, void *A, ScatterKind kind,
                            ScatterPlan *plan, cudaStream_t stream) {
  return detail::prepare(site, f, n, A, kind, true, plan, stream);
}

bool execute_scatter(const SiteInfo &site, const ScatterPlan &plan, cudaStream_t stream) {
  using namespace detail;
  // The variant's launch failed: the executor would add nothing the variant wrote.
  cudaError_t e = cudaPeekAtLastError();
  if (e == cudaSuccess)
    e = launch_executor(plan, stream);
  // The contributions go back to the pool once the executor has read them.
  if (const cudaError_t f = cudaFreeAsync(plan.contrib, stream); e == cudaSuccess)
    e = f;
  if (e == cudaSuccess)
    return true;
  const std::string why = cuda_failure("the scatter variant or its executor", site, e);
  note_fallback(site, why.c_str());
  return false;
}

namespace testing {

ScatterSegments scatter_segments(const char *site_id) {
  using namespace detail;
  ScatterSegments out;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return out;
  }
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  for (auto &kv : st.sites) {
    const SiteRecord &r = kv.second;
    if (kv.first.second == dev && r.stats && r.stats->id == site_id && r.last && read_segments(*r.last, &out))
      return out;
  }
  return out;
}

} // namespace testing
} // namespace irregfix
