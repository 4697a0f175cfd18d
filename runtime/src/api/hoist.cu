// irregfix runtime: hoisted loops (--hoist). The generated launcher calls
// begin_hoisted() once its prepare_* succeeded: this file decides whether the
// launch runs hoisted (it remaps, so slices of the copy can overlap the steps)
// or in-kernel, keeps the per-thread buffers that carry a hoisted loop's live
// variables between launches (per site, device and stream, so concurrent
// launches on two streams never share one), plans the steps, starts the sliced
// copies (launch.cu, pipeline.cu), and counts it all in the statistics.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include "launch.h"
#include "overlap_plan.h"
#include "state.h"

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace irregfix {
namespace detail {
namespace {

struct LiveBuffer {
  void *ptr = nullptr;
  std::size_t bytes = 0;
};

using HoistKey = std::tuple<const SiteInfo *, int, cudaStream_t>; // (site, device, stream)

// Guarded by State::mu; freed by forget_device_state.
struct HoistState {
  std::map<HoistKey, std::vector<LiveBuffer>> buffers;
};

HoistState &hoist_state() {
  static HoistState hs;
  return hs;
}

void free_buffers(HoistState &hs) {
  int dev = 0;
  const bool have_dev = cudaGetDevice(&dev) == cudaSuccess;
  for (auto &kv : hs.buffers) {
    if (have_dev)
      cudaSetDevice(std::get<1>(kv.first));
    for (LiveBuffer &b : kv.second)
      cudaFree(b.ptr);
  }
  hs.buffers.clear();
  if (have_dev)
    cudaSetDevice(dev);
  cudaGetLastError();
}

// Makes b hold at least `bytes`; a reason on failure ("" on success).
std::string ensure_live_buffer(const Config &cfg, const SiteInfo &site, LiveBuffer &b, std::size_t bytes) {
  if (b.ptr && b.bytes >= bytes)
    return "";
  if (b.ptr) {
    cudaError_t e = cudaFree(b.ptr); // waits for launches still reading it
    b = LiveBuffer{};
    if (e != cudaSuccess)
      return cuda_failure("cudaFree", site, e);
  }
  cudaError_t e = dev_alloc(cfg, &b.ptr, bytes);
  if (e != cudaSuccess) {
    b = LiveBuffer{};
    return cuda_failure("cudaMalloc (hoisted loop's live variables)", site, e);
  }
  b.bytes = bytes;
  return "";
}

} // namespace

void free_hoist_buffers() { free_buffers(hoist_state()); }

} // namespace detail

bool begin_hoisted(const SiteInfo &site, const View &view, int live_count, const size_t *live_sizes,
                   void **live_buffers, HoistPlan *plan, cudaStream_t stream) {
  using namespace detail;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  ensure_loaded(st);
  HoistState &hs = hoist_state();
  SiteStats &stats = site_stats(st, site);
  if (!plan)
    return false;
  *plan = plan_hoist(view.width, st.cfg.hoist_group);
  Launch *launch = this_thread_launch(st);
  // The launch runs the in-kernel loop: its copies (if it made any) go whole.
  auto in_kernel = [&]() {
    plan->hoisted = 0;
    std::string why;
    if (start_hoisted_slices(st, launch, site, 1, 0, stream, &why) == 0) {
      record_fallback(stats, why);
      return false;
    }
    return true;
  };
  auto decline = [&](const std::string &why) {
    ++stats.hoist_declined;
    stats.hoist_last_decline = why;
    return in_kernel();
  };
  if (live_count < 0 || (live_count > 0 && (!live_sizes || !live_buffers)) || view.n < 0)
    return decline("bad arguments to begin_hoisted");
  // Steps pay a launch each, and a load and store of the live values: worth it
  // only to overlap a remap, which takes two steps or more.
  if (!st.cfg.hoist_always && !(hoisted_copies_pending(launch) && plan->steps >= 2)) {
    ++stats.hoist_in_kernel;
    return in_kernel();
  }
  int dev = 0;
  if (cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess)
    return decline(cuda_failure("cudaGetDevice", site, e));
  std::vector<LiveBuffer> &bufs = hs.buffers[HoistKey(&site, dev, stream)];
  if (bufs.size() < static_cast<std::size_t>(live_count))
    bufs.resize(live_count);
  const std::size_t n = static_cast<std::size_t>(view.n);
  for (int i = 0; i < live_count; ++i) {
    if (std::string why = ensure_live_buffer(st.cfg, site, bufs[i], n * live_sizes[i]); !why.empty())
      return decline(why);
    live_buffers[i] = bufs[i].ptr;
  }
  std::string why;
  if (start_hoisted_slices(st, launch, site, plan->steps, plan->group, stream, &why) == 0) {
    record_fallback(stats, why);
    return false;
  }
  plan->hoisted = 1;
  ++stats.hoisted_launches;
  stats.hoisted_steps += plan->steps;
  stats.hoist_group = plan->group;
  return true;
}

void hoisted_step(const SiteInfo &, int step, cudaStream_t stream) {
  using namespace detail;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  wait_hoisted_slice(st, this_thread_launch(st), step, stream);
}

// Testing hooks over this file's state (declared in irregfix/testing.h).
namespace testing {

HoistCounters hoist_counters(const char *site_id) {
  using namespace detail;
  return locked([&](State &st) {
    HoistCounters c;
    if (const SiteStats *s = find_stats(st, site_id)) {
      c.launches = s->hoisted_launches;
      c.steps = s->hoisted_steps;
      c.group = s->hoist_group;
      c.declined = s->hoist_declined;
      c.in_kernel = s->hoist_in_kernel;
    }
    for (const auto &kv : hoist_state().buffers)
      if (std::get<0>(kv.first)->id && site_id && std::string(std::get<0>(kv.first)->id) == site_id)
        for (const LiveBuffer &b : kv.second)
          c.buffer_bytes += b.bytes;
    return c;
  });
}

void set_hoist_group(int group) {
  detail::change_config([&](detail::Config &c) { c.hoist_group = group > 0 ? group : 0; });
}

void set_hoist_always(bool always) {
  detail::change_config([&](detail::Config &c) { c.hoist_always = always; });
}

} // namespace testing
} // namespace irregfix
