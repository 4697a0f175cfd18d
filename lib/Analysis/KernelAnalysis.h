// A kernel's analysis: its sites and indirect reads, each with its verdict, and
// what it writes, as one KernelInfo. Its steps (SiteFinder.h, IndexedSites.h,
// FieldUse.h) each add their part to the result being built; the decision step
// (Decide/) takes it from there.
#pragma once

#include "Analysis/DeviceOnlyCode.h"
#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"

namespace irregfix {

// DeviceOnly: the file's code only the device compilation sees, null when not recorded.
KernelInfo analyzeKernel(const clang::FunctionDecl *Kernel, clang::ASTContext &Ctx,
                         const DeviceOnlyCode *DeviceOnly);

} // namespace irregfix
