// irregfix runtime: device memory as the cache sees it: the allocation a
// pointer lies in (for a source's extent, invalidation and the alias checks),
// and an entry's device memory freed when it goes.
#pragma once

#include "address_ranges.h"
#include "cache.h"

namespace irregfix {
namespace detail {

// The device allocation holding p, if p is device (or managed) memory; and in
// *memory (when given) the kind of memory p is (a cudaMemoryType).
bool allocation_of(const void *p, Range *r, int *memory = nullptr);

// Frees a payload's device buffers (each_buffer) and what else it owns.
void free_payload(Payload &p);
// Frees everything an entry holds on the device: its copies, its payload, its
// ready event.
void free_entry(Entry &e);

} // namespace detail
} // namespace irregfix
