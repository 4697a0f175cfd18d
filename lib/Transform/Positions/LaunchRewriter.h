// Host side of a reduction read through the domain's order: its launch calls
// the variant (KernelRewriter.h) with the positions the runtime gives the
// launch, `irregfix::numbered_positions()`, which the launch's
// irregfix::numbered_launch just before it decided, and the original kernel
// where there are none (the arrays as numbered).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace irregfix::positions {

// The edit of one launch: the variant or the original, as the positions say.
llvm::Expected<std::vector<clang::tooling::Replacement>> rewriteLaunch(const clang::CUDAKernelCallExpr *Call,
                                                                       clang::ASTContext &Ctx);

} // namespace irregfix::positions
