// irregfix runtime: what the locality order's translation units share (their
// kernels' block size, the scratch pieces' alignment). Each unit is a module of
// its own, loaded at the first launch of one of its kernels with the device
// idle, at a cost per module (0.2 ms and more on an H100) more than per byte:
// forming a domain loads the order's (the pass over the rows among its
// kernels), the measure's bitmaps and the domain's (its own gathers), not the
// measure's sort, the other checks or the layouts' gathers.
#pragma once

#include <cstddef>

namespace irregfix {
namespace detail {
namespace order_kernels {

constexpr int kThreads = 256;

// Scratch pieces, each aligned to 256 bytes.
inline std::size_t aligned(std::size_t b) { return (b + 255) / 256 * 256; }

} // namespace order_kernels
} // namespace detail
} // namespace irregfix
