// irregfix runtime: planning of hoisted launches (host only, testable without a GPU).
#pragma once

#include <irregfix/irregfix.cuh>

namespace irregfix {
namespace detail {

// Steps of a hoisted launch when IRREGFIX_HOIST_GROUP is unset. Each step costs
// a launch, a recomputation of the code before the loop and a load and store of
// the live values per thread; one iteration a step (the paper's form) pays that
// width times, which made a hand-written hoisted SpMV 2-4x slower than the
// in-kernel loop. Four steps pay it four times while still giving the remap
// pipeline four slices of iterations to overlap with computation.
constexpr int kHoistDefaultSteps = 4;

// IRREGFIX_HOIST_GROUP: iterations a step, a positive integer (at most 2^30).
// Null or "" -> 0 (the default); anything else -> -1 (the caller warns).
int parse_hoist_group(const char *text);

// IRREGFIX_HOIST_ALWAYS: "1" -> true; null, "", "0" or anything else -> false
// (the caller warns about anything else).
bool parse_hoist_always(const char *text);

// The plan for a loop whose longest thread runs `width` iterations, `group`
// iterations a step (0: the default, ceil(width / kHoistDefaultSteps)).
HoistPlan plan_hoist(long long width, int group);

} // namespace detail
} // namespace irregfix
