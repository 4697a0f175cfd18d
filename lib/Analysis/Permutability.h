// Whether a kernel's threads may be permuted: SELL-32-sigma gives each warp
// rows of similar length by running logical thread perm[p] on physical thread
// p. That keeps every thread's work and results only when threads do not
// cooperate and the thread index is computed in one place.
#pragma once

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"

#include <string>

namespace irregfix {

// (Permutability itself is declared in Site.h, as part of KernelInfo.)
// A kernel is permutable when it has exactly one transformable site, a
// one-level range; it is not a template; its thread index is a local
// initialised with blockIdx.x * blockDim.x + threadIdx.x and never written
// (no grid-stride loop), and no other code reads threadIdx or blockIdx; and
// neither it nor a function it calls uses shared memory, barriers, warp or
// cooperative-group operations, fences, atomics or inline assembly.
Permutability analyzePermutability(const KernelInfo &Info, clang::ASTContext &Ctx);

} // namespace irregfix
