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

void free_entry(Entry &e) {
  auto free_buffer = [](void *&p, std::size_t &bytes) {
    if (p)
      cudaFree(p);
    p = nullptr;
    bytes = 0;
  };
  free_buffer(e.len, e.len_bytes);
  free_buffer(e.aux, e.aux_bytes);
  free_buffer(e.perm, e.perm_bytes);
  free_buffer(e.uniq, e.uniq_bytes);
  free_buffer(e.block_first, e.block_first_bytes);
  free_buffer(e.local, e.local_bytes);
  free_buffer(e.indices, e.indices_bytes);
  free_buffer(e.order_index, e.order_index_bytes);
  free_buffer(e.renumber, e.renumber_bytes);
  for (std::size_t i = 0; i < e.renumbered_copies.size(); ++i)
    free_buffer(e.renumbered_copies[i], e.renumbered_copy_bytes[i]);
  e.renumbered_copies.clear();
  e.renumbered_copy_bytes.clear();
  e.renumbered = false;
  if (e.renumbered_read)
    cudaEventDestroy(e.renumbered_read);
  e.renumbered_read = nullptr;
  for (int k = 0; k < kScatterTables; ++k)
    free_buffer(e.scatter[k], e.scatter_bytes[k]);
  e.index_ptrs.clear();
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
