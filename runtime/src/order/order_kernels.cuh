// irregfix runtime: what the locality order's translation units share (their
// kernels' block size, the scratch pieces' alignment). Each unit is a module of
// its own, loaded at its first launch: forming a domain loads the order and the
// checks, not the measure's sort or the layouts' gathers.
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
