// Host side of the in-kernel strategy: a generated launcher per kernel that
// asks the runtime for the remapped copies and launches `<kernel>_irregfix`,
// or the original kernel when the runtime declines; and the rewrite of each
// `kernel<<<...>>>(...)` into a call of that launcher (every strategy's
// launcher has its name and parameters).
#pragma once

#include "Analysis/Site.h"
#include "Transform/Launcher.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"

#include <string>

namespace irregfix::inkernel {

// `::ns::` when a parameter of the launcher hides a kernel it launches (a
// parameter named like the kernel), else "": put before those kernels' names.
std::string kernelQualifier(const clang::FunctionDecl *K);

// The launcher's model (Transform/Launcher.h), to follow the transformed
// kernel. Whole: the transformed kernel is launched whole (no chunks, no
// staged copy), as another strategy's fallback (the hoisted loop's).
Launcher launcher(const KernelInfo &Info, clang::ASTContext &Ctx, bool Whole);

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
