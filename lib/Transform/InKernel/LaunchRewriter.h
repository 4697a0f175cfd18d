// Host side of the in-kernel strategy: a generated launcher per kernel that
// asks the runtime for the remapped copies and launches `<kernel>_irregfix`,
// or the original kernel when the runtime declines; and the rewrite of each
// `kernel<<<...>>>(...)` into a call of that launcher.
#pragma once

#include <functional>

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"

#include <string>

namespace irregfix::inkernel {

// What another strategy adds to the launcher (the hoisted loop's, for one).
struct OtherStrategy {
  std::string SiteFlag;     // added to every SiteInfo's flags
  std::string Declarations; // statements before the runtime's conditions
  std::string Condition;    // the last condition of the transformed branch
  // The branch's statements, given the launch configuration `<<<...>>>`, the
  // transformed kernel's arguments and the in-kernel launch statement.
  std::function<std::string(const std::string &Config, const std::string &Args,
                            const std::string &InKernelLaunch)>
      Branch;
};

// `::ns::` when a parameter of the launcher hides a kernel it launches (a
// parameter named like the kernel), else "": put before those kernels' names.
std::string kernelQualifier(const clang::FunctionDecl *K);

// The site descriptions and the launcher definition, to follow the transformed
// kernel; with Other, that strategy's launcher (its in-kernel kernel launched whole).
std::string launcherDefinition(const KernelInfo &Info, clang::ASTContext &Ctx,
                               const OtherStrategy *Other = nullptr);

// `static void k_irregfix_launch(dim3 __irregfix_grid, ..., <the kernel's parameters>)`:
// the launcher's head, which every strategy's launcher shares.
std::string launcherSignature(const KernelInfo &Info, clang::ASTContext &Ctx);

// `<T, N>`: a kernel template's parameters as explicit template arguments, for
// the calls inside the launcher ("" for a plain kernel).
std::string templateArguments(const KernelInfo &Info);

// "file.cu:LINE:COL" of a site at Loc: its SiteInfo::id.
std::string siteId(clang::SourceLocation Loc, clang::ASTContext &Ctx);

// A prototype of the launcher, for launches that come before the kernel's definition.
std::string launcherDeclaration(const KernelInfo &Info, clang::ASTContext &Ctx);

// Replaces `kernel<<<g, b, s, st>>>(args)` by `kernel_irregfix_launch(g, b, s, st, args)`.
llvm::Expected<clang::tooling::Replacement> rewriteLaunch(const clang::CUDAKernelCallExpr *Launch,
                                                          const KernelInfo &Info,
                                                          clang::ASTContext &Ctx);

} // namespace irregfix::inkernel
