// irregfix runtime: forgetting everything the runtime holds on the GPU. A
// device reset (cudaDeviceReset, cudaThreadExit, the driver's context resets)
// destroys every allocation, stream and event of the device, the runtime's
// included, and later allocations may come back at the same addresses. Before
// the reset runs, the runtime reads the timings it is waiting for, frees its
// copies, orders, scratch, streams and hoisting buffers, and forgets the
// allocation ranges it looked up; it starts afresh at the next launch.
// testing::reset forgets the same, plus the statistics.
#include <irregfix/irregfix.cuh>

#include "launch.h"
#include "state.h"

#include <mutex>

namespace irregfix {
namespace detail {

int forget_device_state(State &st) {
  int dev = 0;
  const bool have_dev = cudaGetDevice(&dev) == cudaSuccess;
  auto on_device = [&](int d) {
    if (have_dev)
      cudaSetDevice(d);
  };
  // The events of pending timings die with the context: read them first.
  for (auto &kv : st.devices.queues) {
    on_device(kv.first);
    cudaDeviceSynchronize();
  }
  on_device(dev);
  cudaDeviceSynchronize();
  resolve_all_timings(st);
  clear_launch_records(st);
  st.sites.clear(); // they point at the entries freed next
  int dropped = 0;
  for (auto &e : st.cache.clear()) {
    on_device(e->key.device);
    free_entry(*e);
    ++dropped;
  }
  forget_orders(st.orders, nullptr);
  domain_free(st.domain); // the reset takes the memory, renumbered or not
  st.domain.status = Domain::kUndecided;
  st.domain_formed.store(false);
  st.domain.graph = 0;
  free_hoist_buffers();
  free_lanes_references();
  for (auto &kv : st.devices.scratch) {
    on_device(kv.first);
    for (void *p : {kv.second.temp, kv.second.summary, kv.second.fingerprints, static_cast<void *>(kv.second.zero)})
      if (p)
        cudaFree(p);
  }
  st.devices.scratch.clear();
  for (auto &kv : st.devices.queues) {
    on_device(kv.first);
    for (cudaStream_t s : kv.second.remap)
      if (s)
        cudaStreamDestroy(s);
  }
  st.devices.queues.clear();
  st.allocations.clear();
  st.symbols.clear();
  ++st.epoch;                 // records of launches under way are gone
  st.generation.fetch_add(1); // launchers' fast paths point at the records gone
  on_device(dev);
  cudaGetLastError();
  return dropped;
}

} // namespace detail
} // namespace irregfix

extern "C" void irregfix_forget_device(const char *where) {
  using namespace irregfix::detail;
  State &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  ensure_loaded(st);
  const int dropped = forget_device_state(st);
  st.invalidations.note_all(IRREGFIX_CAUSE_DEVICE_RESET, where, dropped);
}
