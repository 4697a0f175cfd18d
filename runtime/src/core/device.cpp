// irregfix runtime: its own CUDA work, checked. See device.h.
#include "device.h"

#include <cstdio>

namespace irregfix {
namespace detail {

std::string cuda_failure(const char *call, const SiteInfo &site, cudaError_t e) {
  std::fprintf(stderr, "irregfix: %s failed at %s: %s\n", call, site.id ? site.id : "?",
               cudaGetErrorString(e));
  cudaGetLastError(); // a failed allocation must not surface in the program's own checks
  return std::string("CUDA error in ") + call + ": " + cudaGetErrorString(e);
}

cudaError_t dev_alloc(const Config &cfg, void **p, std::size_t bytes) {
  *p = nullptr;
  if (cfg.fail_alloc)
    return cudaErrorMemoryAllocation;
  return cudaMalloc(p, bytes ? bytes : 1);
}

std::string ensure_buffer(const Config &cfg, const SiteInfo &site, void **buf, std::size_t *have,
                          std::size_t bytes) {
  if (*buf && *have >= bytes)
    return "";
  if (*buf) {
    IRREGFIX_TRY(cudaFree(*buf));
    *buf = nullptr;
    *have = 0;
  }
  cudaError_t e = dev_alloc(cfg, buf, bytes);
  if (e != cudaSuccess) {
    *buf = nullptr;
    std::fprintf(stderr, "irregfix: cudaMalloc(%zu bytes) failed at %s: %s\n", bytes,
                 site.id ? site.id : "?", cudaGetErrorString(e));
    cudaGetLastError();
    return "allocation failed";
  }
  *have = bytes;
  return "";
}

void free_buffer(DeviceBuffer &b) {
  if (b.ptr)
    cudaFree(b.ptr);
  b = DeviceBuffer{};
}

namespace {
// A device attribute, asked of CUDA once and kept in *kept (0: not asked yet).
cudaError_t kept_attribute(int *kept, cudaDeviceAttr attr, int dev, int *value) {
  const cudaError_t e = *kept ? cudaSuccess : cudaDeviceGetAttribute(kept, attr, dev);
  *value = *kept;
  return e;
}
} // namespace

cudaError_t device_sms(Devices &d, int dev, int *sms) {
  return kept_attribute(&d.queues[dev].sms, cudaDevAttrMultiProcessorCount, dev, sms);
}

cudaError_t device_l2_bytes(Devices &d, int dev, int *bytes) {
  return kept_attribute(&d.queues[dev].l2_bytes, cudaDevAttrL2CacheSize, dev, bytes);
}

cudaError_t device_resident_threads(Devices &d, int dev, long long *threads) {
  int sms = 0, per_sm = 0;
  cudaError_t e = device_sms(d, dev, &sms);
  if (e == cudaSuccess)
    e = kept_attribute(&d.queues[dev].threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev, &per_sm);
  *threads = e == cudaSuccess ? static_cast<long long>(sms) * per_sm : 0;
  return e;
}

std::string ensure_zero_cell(const Config &cfg, Devices &d, const SiteInfo &site, int dev, const long long **out) {
  Scratch &s = d.scratch[dev];
  if (!s.zero) {
    void *p = nullptr;
    std::size_t have = 0;
    if (std::string why = ensure_buffer(cfg, site, &p, &have, sizeof(long long)); !why.empty())
      return why;
    if (const cudaError_t e = cudaMemset(p, 0, sizeof(long long)); e != cudaSuccess) {
      cudaFree(p);
      return cuda_failure("cudaMemset(zero cell)", site, e);
    }
    s.zero = static_cast<long long *>(p);
  }
  *out = s.zero;
  return "";
}

std::string ensure_scratch(const Config &cfg, Devices &d, const SiteInfo &site, int dev, std::size_t temp_bytes,
                           Scratch **out) {
  Scratch &s = d.scratch[dev];
  if (!s.summary) {
    std::size_t have = 0;
    std::string why = ensure_buffer(cfg, site, &s.summary, &have, 64);
    if (!why.empty())
      return why;
  }
  if (s.temp_bytes < temp_bytes) {
    std::string why = ensure_buffer(cfg, site, &s.temp, &s.temp_bytes, temp_bytes);
    if (!why.empty())
      return why;
  }
  *out = &s;
  return "";
}

} // namespace detail
} // namespace irregfix
