// Emit, the host's part: keeping the cache sound once launches use it
// (Transform/Invalidation.h). Every host call that writes device memory gets
// an invalidation, every call of code the tool cannot see a bracket, and every
// function that reaches a rewritten launch an entry guard; remarks say where
// copies are dropped, warnings where a write cannot be instrumented. Where a
// file may keep a domain renumbered, its launches and copies also tell the
// runtime (Analysis/DomainLaunches.h).
#pragma once

#include "Analysis/DeviceOnlyCode.h"
#include "Analysis/DomainLaunches.h"
#include "Decide/KernelDecision.h"
#include "Frontend/FileEdits.h"
#include "Frontend/MainFile.h"
#include "Frontend/FileResult.h"
#include "Frontend/StrategyEdits.h"

#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Core/Replacement.h"

#include <map>
#include <string>

namespace irregfix {

// The edits of the reductions read through the order: each variant, after
// its kernel, and each launch calling it; written once, where the kernel is
// settled, and applied once the file's domain forms.
struct ThroughOrderText {
  std::map<const clang::FunctionDecl *, clang::tooling::Replacement> Variants; // by the kernel's canonical declaration
  std::map<const clang::CUDAKernelCallExpr *, std::vector<clang::tooling::Replacement>> Launches;
};

// Program-wide renumbering, settled once the kernels are decided and before
// anything is said: whether the file's launches may keep a domain renumbered
// (Analysis/DomainLaunches.h), and the variants its reductions need.
// Decisions: every kernel of File, in its order.
struct SettledDomain {
  FileDomain Domain;
  ThroughOrderText Through;
};
SettledDomain settleDomain(const MainFile &File, const std::vector<KernelDecision> &Decisions,
                           const RewritableFiles &Files, bool Reassociate, clang::ASTContext &Ctx);

// The indirect reads a formed domain serves as they are written, with what
// the report says of each: those of a kernel that runs a group of lanes a
// row (no site of it is rewritten) on the arrays the domain moves.
std::map<const clang::Expr *, std::string> renumberedReads(const FileDomain &D,
                                                           const std::vector<KernelDecision> &Decisions);

// False when an edit fails. The domain's hooks ride on the same placement.
// DomainOnly: no kernel of the file is rewritten: nothing unless its domain
// forms (then the same hooks and invalidations as a rewritten file's, whose
// calls of unseen code restore the domain's arrays too).
bool addCacheEdits(const MainFile &File, const SettledDomain &Settled, const RewrittenLaunches &Launches,
                   const DeviceOnlyCode &DeviceOnly, bool DomainOnly, clang::ASTContext &Ctx, FileEdits &Edits,
                   Messages &Msg, FileResult &Result);

} // namespace irregfix
