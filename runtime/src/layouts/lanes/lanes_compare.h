// irregfix runtime: IRREGFIX_VERIFY's measure of a lanes variant. Before the
// variant runs, a copy of each array the kernel stores at its thread index is
// taken (its reference); the original kernel, launched after the variant,
// writes the reference instead; then the variant's stores and the reference
// are compared on the GPU: floats and doubles by their largest relative
// difference, anything else bit for bit.
#pragma once

#include "config.h"
#include "device.h"

#include <irregfix/irregfix.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

namespace irregfix {
namespace detail {

// One array a lanes variant stores, and its reference.
struct StoredReference {
  const void *stored = nullptr; // what the variant writes
  DeviceBuffer copy;            // count elements the original writes, then the comparison's result
  std::size_t elem_size = 0;
  int kind = kValueBits;        // a ValueKind
  long long count = 0;
  bool taken = false;           // taken for the launch under way
};

// How far the variant's stores are from the original's.
struct Difference {
  double max_relative = 0;         // floats and doubles: |a - b| / max(|a|, |b|); inf for a NaN against a number
  unsigned long long differing = 0; // elements whose bits differ
};

// Copies stored[0, count) into r's reference on `stream` (r's buffer kept
// between launches). "" or why not.
std::string take_reference(const Config &cfg, const SiteInfo &site, StoredReference &r, const void *stored,
                           std::size_t elem_size, int kind, long long count, cudaStream_t stream);

// Compares r.stored with its reference, on `stream` (synchronised). "" or why not.
std::string compare_reference(const SiteInfo &site, const StoredReference &r, cudaStream_t stream, Difference *out);

} // namespace detail
} // namespace irregfix
