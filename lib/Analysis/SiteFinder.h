// Finds the indirect-read sites of a kernel and decides, for each, whether it
// can be transformed safely, or why not.
#pragma once

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"

namespace irregfix {

KernelInfo analyzeKernel(const clang::FunctionDecl *Kernel, clang::ASTContext &Ctx);

} // namespace irregfix
