// Finds the pattern sites of a kernel and decides, for each, whether it can be
// transformed safely, or why not: the first step of the kernel's analysis
// (KernelAnalysis.h).
#pragma once

#include "Analysis/Site.h"
#include "Analysis/DeviceOnlyCode.h"
#include "Analysis/WriteSet.h"

#include <vector>

#include "clang/AST/ASTContext.h"

namespace irregfix {

// The pattern sites (range, two-level range, gathers, neighbour lists) of
// Info.Kernel, added to Info.Sites with their verdicts.
void findPatternSites(KernelInfo &Info, clang::ASTContext &Ctx, const WriteSet &W);

// The range and gather sites of the device functions Info.Kernel calls
// (CallChains.h), each judged through its chain of calls: its arrays must be
// kernel arrays the calls pass on, its thread index the kernel's, its guard the
// kernel's at the call. Added to Info.Sites in the kernel's terms (Site::Callee).
void findCalleeSites(KernelInfo &Info, clang::ASTContext &Ctx, const WriteSet &KernelWrites,
                     const std::vector<BoundChain> &Chains);

// The launch-time checks before S's copies of Sources are served: each array
// the kernel writes against each source (unless both are __restrict__), each
// __device__ variable it writes likewise; refuses S when such a variable has
// no name the launch can use.
void addAliasChecks(Site &S, const std::vector<ArrayRef> &Sources, const WriteSet &W);

} // namespace irregfix
