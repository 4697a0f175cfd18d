// irregfix runtime: device memory as the cache sees it. See device_memory.h.
#include "device_memory.h"

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace irregfix {
namespace detail {
namespace {

// cuMemGetAddressRange, looked up through the runtime so that nothing links
// libcuda: binaries then load (and GPU tests skip) on machines without a driver.
using GetAddressRangeFn = CUresult (*)(CUdeviceptr *, std::size_t *, CUdeviceptr);

GetAddressRangeFn get_address_range() {
  static GetAddressRangeFn fn = [] {
    void *p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &p, 12000, cudaEnableDefault,
                                         &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess) {
      cudaGetLastError();
      p = nullptr;
    }
    return reinterpret_cast<GetAddressRangeFn>(p);
  }();
  return fn;
}

} // namespace

bool allocation_of(const void *p, Range *r, int *memory) {
  *r = Range{};
  if (memory)
    *memory = cudaMemoryTypeUnregistered;
  if (!p)
    return false;
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  if (memory)
    *memory = attr.type;
  if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
    return false;
  GetAddressRangeFn range = get_address_range();
  CUdeviceptr base = 0;
  std::size_t size = 0;
  if (!range || range(&base, &size, reinterpret_cast<CUdeviceptr>(p)) != CUDA_SUCCESS)
    return false;
  r->base = static_cast<std::uintptr_t>(base);
  r->size = size;
  return true;
}

void free_payload(Payload &p) {
  p.each_buffer([](DeviceBuffer &b) { free_buffer(b); });
  p.release();
}

void free_entry(Entry &e) {
  if (e.payload)
    free_payload(*e.payload);
  e.payload.reset();
  for (void *b : e.bufs)
    if (b)
      cudaFree(b);
  if (e.ready)
    cudaEventDestroy(e.ready);
  e.bufs.clear();
  e.buf_bytes.clear();
  e.ready = nullptr;
}

} // namespace detail
} // namespace irregfix
