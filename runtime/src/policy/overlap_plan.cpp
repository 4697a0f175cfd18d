// irregfix runtime: chunks and steps of launches that overlap their remap. See overlap_plan.h.
#include "overlap_plan.h"

#include "config.h"

#include <algorithm>
#include <cmath>

namespace irregfix {
namespace detail {

long long full_wave(int sms, unsigned block_threads) {
  if (sms <= 0 || block_threads == 0)
    return 1;
  const long long per_sm = std::max<long long>(1, std::min<long long>(32, 2048 / block_threads));
  return per_sm * sms;
}

int plan_chunks(double remap_ms, double compute_ms, double estimate_ms, long long blocks,
                long long wave, int forced) {
  if (blocks <= 1)
    return 1;
  const long long most = blocks < kMaxChunks ? blocks : kMaxChunks;
  if (forced > 0)
    return static_cast<int>(forced < most ? forced : most);
  if (remap_ms < 0 || compute_ms < 0)
    remap_ms = compute_ms = estimate_ms;
  const double shorter = remap_ms < compute_ms ? remap_ms : compute_ms;
  if (!(shorter > 0))
    return 1;
  long long k = std::llround(std::sqrt(shorter / kChunkCostMs));
  const long long waves = wave > 0 ? blocks / wave : blocks;
  k = std::min({k, waves, most});
  return static_cast<int>(k < 1 ? 1 : k);
}

HoistPlan plan_hoist(long long width, int group) {
  HoistPlan p;
  p.width = width > 0 ? width : 0;
  long long g = group > 0 ? group : (p.width + kHoistDefaultSteps - 1) / kHoistDefaultSteps;
  p.group = static_cast<int>(g > 0 ? g : 1);
  p.steps = static_cast<int>((p.width + p.group - 1) / p.group);
  return p;
}

} // namespace detail
} // namespace irregfix
