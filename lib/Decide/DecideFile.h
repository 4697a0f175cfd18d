// The decision step: every kernel of a file, analysed, then each finding given
// its say over the others in one fixed order, into final verdicts. The tool
// (Frontend/) and the clang-tidy check (tidy/) both call it; the rewriters and
// the reports only read what it returns.
#pragma once

#include "Decide/KernelDecision.h"

#include "clang/AST/ASTContext.h"

#include <vector>

namespace irregfix {

// The verdicts on Kernels (those of one file, as written: a template once), in
// their order. DeviceOnly: the file's code only the device compilation sees,
// null when not recorded.
std::vector<KernelDecision> decideFile(const std::vector<const clang::FunctionDecl *> &Kernels,
                                       clang::ASTContext &Ctx, const DeviceOnlyCode *DeviceOnly,
                                       const HoistSelection &Hoist);

} // namespace irregfix
