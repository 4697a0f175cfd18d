// Whether a kernel's threads may be permuted: SELL-32-sigma gives each warp
// rows of similar length, and the locality order gives each block threads that
// read the same elements, by running logical thread perm[p] on physical thread
// p. That keeps every thread's work and results only when threads do not
// cooperate and the thread index is computed in one place.
#pragma once

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"

#include <string>

namespace irregfix {

// (Permutability itself is declared in Site.h, as part of KernelInfo.)
// A kernel is permutable when it has exactly one transformable site, a
// one-level range or a neighbour list; it is not a template; its thread index
// is a local initialised with blockIdx.x * blockDim.x + threadIdx.x and never
// written (no grid-stride loop), and no other code reads threadIdx or
// blockIdx; and neither it nor a function it calls uses shared memory,
// barriers, warp or cooperative-group operations, fences, atomics or inline
// assembly. Integer atomics that only count or flag are allowed: atomicAdd,
// Sub, Min, Max, And, Or or Xor whose result is discarded, on a variable the
// kernel uses nowhere else (no thread reads what another updated).
Permutability analyzePermutability(const KernelInfo &Info, clang::ASTContext &Ctx);

// The same conditions for a kernel without a transformable site, whose thread
// index is its one local initialised with blockIdx.x * blockDim.x +
// threadIdx.x (OrderedLaunches.h).
Permutability analyzeThreadPermutability(const KernelInfo &Info, clang::ASTContext &Ctx);

} // namespace irregfix
