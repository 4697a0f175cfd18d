// Kernel side of the in-kernel strategy: derives `<kernel>_irregfix`, a copy
// of the kernel that reads each remapped array through irregfix::slot(), with
// its range loops running iter < irregfix::length(view, t).
#pragma once

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

#include <string>

namespace irregfix::inkernel {

// The transformed kernel's source text, ready to be inserted after the original.
llvm::Expected<std::string> rewriteKernel(const KernelInfo &Info, clang::ASTContext &Ctx);

} // namespace irregfix::inkernel
