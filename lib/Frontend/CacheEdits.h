// Emit, the host's part: keeping the cache sound once launches use it
// (Transform/Invalidation.h). Every host call that writes device memory gets
// an invalidation, every call of code the tool cannot see a bracket, and every
// function that reaches a rewritten launch an entry guard; remarks say where
// copies are dropped, warnings where a write cannot be instrumented. Where a
// file may keep a domain renumbered, its launches and copies also tell the
// runtime (Analysis/DomainLaunches.h).
#pragma once

#include "Analysis/DeviceOnlyCode.h"
#include "Decide/KernelDecision.h"
#include "Frontend/FileEdits.h"
#include "Frontend/MainFile.h"
#include "Frontend/FileResult.h"
#include "Frontend/StrategyEdits.h"

#include "clang/AST/ASTContext.h"

namespace irregfix {

// False when an edit fails. Decisions: every kernel of File, in its order (for
// program-wide renumbering's hooks, which ride on the same placement).
// DomainOnly: no kernel of the file is rewritten: nothing unless its domain
// forms (then the same hooks and invalidations as a rewritten file's, whose
// calls of unseen code restore the domain's arrays too).
bool addCacheEdits(const MainFile &File, const std::vector<KernelDecision> &Decisions,
                   const RewrittenLaunches &Launches, const DeviceOnlyCode &DeviceOnly, bool Reassociate,
                   bool DomainOnly, clang::ASTContext &Ctx, FileEdits &Edits, Messages &Msg, FileResult &Result);

} // namespace irregfix
