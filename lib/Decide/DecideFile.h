// The decision step: every kernel of a file, analysed, then each finding given
// its say over the others in one fixed order, into final verdicts. The tool
// (Frontend/) and the clang-tidy check (tidy/) both call it; the rewriters and
// the reports only read what it returns.
//
// The order of say (DecideFile.cpp):
//  1. the kernel's analysis: its sites and reads, each with its verdict
//     (Analysis/KernelAnalysis.h);
//  2. what the kernel as a whole allows: permuted threads, chunks, sharing;
//  3. indexed sites: their copies are built whole, in thread order, and one
//     whose index kernels cannot be written is refused;
//  4. scatter updates: a rewritten update takes the kernel, whose reads then
//     stay in place;
//  5. --hoist: a hoisted loop keeps the threads in order, unstaged;
//  6. warp-cooperative rows, once the site and the hoisting are settled: a
//     range loop that reduces may also run with several lanes a row;
//  7. renumbered gathers, once the threads' order is known to be free;
//  8. ordered launches, once every kernel of the file has come this far: a
//     kernel without a site runs in the order another kernel's site computes.
// Steps 1-6 and a kernel's step 7 run within the kernel's budget of time
// (Analysis/AnalysisBudget.h); past it, the kernel keeps no verdict at all.
#pragma once

#include "Decide/KernelDecision.h"

#include "clang/AST/ASTContext.h"

#include <vector>

namespace irregfix {

// What the user asks of the decision step.
struct DecideOptions {
  HoistSelection Hoist; // --hoist
  // --reassociate: floating-point sums (and min, max) may run in another order,
  // with several lanes a row.
  bool Reassociate = false;
  // Each kernel's time: past it, the kernel is left as it is (none: no limit).
  KernelBudget Budget;
};

// The verdicts on Kernels (those of one file, as written: a template once), in
// their order. DeviceOnly: the file's code only the device compilation sees,
// null when not recorded. A kernel whose analysis runs past Options.Budget is
// left as it is (KernelDecision::LeftAsIs), and the others go on.
std::vector<KernelDecision> decideFile(const std::vector<const clang::FunctionDecl *> &Kernels,
                                       clang::ASTContext &Ctx, const DeviceOnlyCode *DeviceOnly,
                                       const DecideOptions &Options);

} // namespace irregfix
