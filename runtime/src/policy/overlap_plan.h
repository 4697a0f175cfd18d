// irregfix runtime: how a launch that remaps is cut so that its copies overlap
// its kernel: chunks of thread blocks (pipelined launches) and steps of
// iterations (hoisted loops). Host-only: test/unit/runtime checks the plans
// without a GPU.
#pragma once

#include "config.h"

#include <irregfix/irregfix.cuh>

namespace irregfix {
namespace detail {

// ---- pipelined launches ----------------------------------------------------

// A launch that remaps is cut into chunks of thread blocks: the copy of chunk
// c+1 (on a remap stream) runs while chunk c computes (on the launch's stream).
// With r the remap's time, c the kernel's and o the cost of one more chunk
// (its launches and the cross-stream wait), k chunks take about
// max(r, c) + min(r, c) / k + k * o, least at k = sqrt(min(r, c) / o).
constexpr double kChunkCostMs = 0.005;
// The chunk count for a launch of `blocks` thread blocks, `wave` of which the
// device runs at once: `forced` when positive, else the model's (remap_ms or
// compute_ms negative: not measured yet; then both are taken as estimate_ms).
// Never more chunks than blocks (nor kMaxChunks), nor (unforced) chunks of less
// than a wave: a chunk that cannot fill the device runs at a fraction of its
// bandwidth, and the remap beside it (memory-bound as well) does not make up for that.
int plan_chunks(double remap_ms, double compute_ms, double estimate_ms, long long blocks,
                long long wave, int forced);
// Blocks of `block_threads` threads resident at once on `sms` multiprocessors
// of 2048 threads (at most 32 blocks each): the kernel's occupancy is unknown
// to the runtime, so this is the most a wave can be.
long long full_wave(int sms, unsigned block_threads);

// ---- hoisted loops ---------------------------------------------------------

// (Steps of a hoisted launch when IRREGFIX_HOIST_GROUP is unset:
// kHoistDefaultSteps, config.h.)

// The plan for a loop whose longest thread runs `width` iterations, `group`
// iterations a step (0: the default, ceil(width / kHoistDefaultSteps)).
HoistPlan plan_hoist(long long width, int group);

} // namespace detail
} // namespace irregfix
