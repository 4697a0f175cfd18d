// irregfix runtime: its own CUDA work, checked. A failed call is reported on
// stderr and cleared, and becomes the reason a launch falls back to the
// original kernel (cuda_failure, IRREGFIX_TRY); device memory is allocated
// through dev_alloc (which IRREGFIX_FAIL_ALLOC makes fail) and grown through
// ensure_buffer; each device's scratch and attributes, shared by builds and
// pipelined launches, are kept in Devices.
#pragma once

#include "config.h"

#include <irregfix/irregfix.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <string>

// Returns the fallback reason for a failed CUDA call, from a function with `site` in scope.
#define IRREGFIX_TRY(call)                                                                         \
  do {                                                                                             \
    cudaError_t irregfix_e_ = (call);                                                              \
    if (irregfix_e_ != cudaSuccess)                                                                \
      return ::irregfix::detail::cuda_failure(#call, site, irregfix_e_);                           \
  } while (0)

namespace irregfix {
namespace detail {

// Reports a failed CUDA call on stderr, clears it, and gives the fallback reason.
std::string cuda_failure(const char *call, const SiteInfo &site, cudaError_t e);

// A device allocation the runtime owns, and its size.
struct DeviceBuffer {
  void *ptr = nullptr;
  std::size_t bytes = 0;
  template <class T> T *as() const { return static_cast<T *>(ptr); }
};

// Device allocation of the runtime; IRREGFIX_FAIL_ALLOC makes it fail.
cudaError_t dev_alloc(const Config &cfg, void **p, std::size_t bytes);
// Makes sure *buf holds at least `bytes` (*have of them now), reusing it when
// it is big enough; "" or why not ("allocation failed", reported).
std::string ensure_buffer(const Config &cfg, const SiteInfo &site, void **buf, std::size_t *have,
                          std::size_t bytes);
inline std::string ensure_buffer(const Config &cfg, const SiteInfo &site, DeviceBuffer &b, std::size_t bytes) {
  return ensure_buffer(cfg, site, &b.ptr, &b.bytes, bytes);
}
// Frees b (when it holds memory) and empties it.
void free_buffer(DeviceBuffer &b);

// A device's scratch: CUB temporaries, the summary builds read back, and
// IRREGFIX_VERIFY's fingerprints.
struct Scratch {
  void *temp = nullptr;     // CUB temporary storage
  std::size_t temp_bytes = 0;
  void *summary = nullptr;  // 64 bytes: reductions and bounds read back on a miss
  void *fingerprints = nullptr; // IRREGFIX_VERIFY: one sum per source of the entry checked
  std::size_t fingerprint_bytes = 0;
  long long *zero = nullptr; // one cell holding 0: View::slice_start of the layouts without slices
};

// Per device: the streams pipelined launches copy on (created on first use,
// taken in turn so that launches on different streams do not queue behind one
// another), and the attributes the chunk model and the locality order need.
struct DeviceQueues {
  static constexpr int kRemapStreams = 2;
  cudaStream_t remap[kRemapStreams] = {};
  unsigned next = 0;
  int sms = 0;
  int l2_bytes = 0;
  int threads_per_sm = 0;
};

struct Devices {
  std::map<int, Scratch> scratch;
  std::map<int, DeviceQueues> queues;
};

// Device dev's cell holding 0 (Scratch::zero), made at its first use; "" or why not.
std::string ensure_zero_cell(const Config &cfg, Devices &d, const SiteInfo &site, int dev, const long long **out);

// The multiprocessor count of device dev (asked of CUDA once, then kept).
cudaError_t device_sms(Devices &d, int dev, int *sms);
// Its L2 size in bytes, likewise.
cudaError_t device_l2_bytes(Devices &d, int dev, int *bytes);
// The threads it holds at once (multiprocessors times threads a multiprocessor), likewise.
cudaError_t device_resident_threads(Devices &d, int dev, long long *threads);
// Device dev's scratch, with at least temp_bytes of temporary storage.
std::string ensure_scratch(const Config &cfg, Devices &d, const SiteInfo &site, int dev, std::size_t temp_bytes,
                           Scratch **out);

} // namespace detail
} // namespace irregfix
