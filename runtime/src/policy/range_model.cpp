// irregfix runtime: the cost model of a range site's layouts. See range_model.h.
#include "range_model.h"

#include <algorithm>
#include <cmath>

namespace irregfix {
namespace detail {
namespace {

// Waves of the device's resident threads a launch of `threads` threads needs.
double waves(long long threads, long long resident) {
  if (resident <= 0 || threads <= resident)
    return 1.0;
  return std::ceil(static_cast<double>(threads) / static_cast<double>(resident));
}

// The steps a launch waits for: the longest chain, or the bulk's chains one
// wave after another.
double chain_steps(double longest, double mean, double waves) { return std::max(longest, waves * mean); }

double longest_row(const RangeShape &s) { return s.max_len >= 0 ? static_cast<double>(s.max_len) : s.mean(); }

double traffic_ns(unsigned long long elements, std::size_t element_bytes) {
  return static_cast<double>(elements) * static_cast<double>(element_bytes) / kBytesPerNs;
}

} // namespace

double original_ns(const RangeShape &s) {
  const double steps = chain_steps(longest_row(s), s.mean(), waves(s.rows, s.resident_threads));
  return std::max(kStepInPlaceNs * steps, traffic_ns(s.nnz, s.element_bytes));
}

double padded_ns(const RangeShape &s, unsigned long long cells) {
  const double per_row = s.rows > 0 ? static_cast<double>(cells) / static_cast<double>(s.rows) : 0.0;
  const double steps = chain_steps(std::max(longest_row(s), per_row), per_row, waves(s.rows, s.resident_threads));
  return std::max(kStepCopyNs * steps, traffic_ns(cells, s.element_bytes));
}

double lanes_ns(const RangeShape &s, int lanes) {
  const int l = std::max(1, lanes);
  const double steps = chain_steps(std::ceil(longest_row(s) / l), std::ceil(s.mean() / l),
                                   waves(s.rows * l, s.resident_threads));
  const double tree = kShuffleStepNs * std::log2(static_cast<double>(l));
  return std::max(kStepCopyNs * steps + tree, traffic_ns(s.nnz, s.element_bytes));
}

double lanes_in_order_ns(const RangeShape &s, int lanes) {
  const int l = std::max(1, lanes);
  const double steps = chain_steps(std::ceil(longest_row(s) / l), std::ceil(s.mean() / l),
                                   waves(s.rows * l, s.resident_threads));
  const double issued = static_cast<double>(s.nnz) * l / 32.0 * kInOrderElementNs;
  return std::max(kStepCopyNs * steps + issued, traffic_ns(s.nnz, s.element_bytes));
}

int in_order_lanes(const RangeShape &s) {
  int best = 32;
  for (int l = 16; l >= 2; l /= 2)
    if (lanes_in_order_ns(s, l) < lanes_in_order_ns(s, best))
      best = l;
  return best;
}

bool model_applies(const RangeShape &s) { return s.rows > 0 && s.mean() >= kModelMinMeanRow; }

bool expected_to_lose(const RangeShape &s, double candidate_ns) {
  return model_applies(s) && candidate_ns >= kExpectedLoss * original_ns(s);
}

bool padding_expected_to_lose(const RangeShape &s) { return expected_to_lose(s, padded_ns(s, s.nnz)); }

double expected_probe_ms(unsigned long long bytes) {
  return kProbeFixedMs + static_cast<double>(bytes) / kProbeBytesPerMs;
}

double probe_paid_after_ms(unsigned long long bytes) { return expected_probe_ms(bytes) / kProbeShare; }

} // namespace detail
} // namespace irregfix
