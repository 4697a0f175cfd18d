// Kernel side of the hoisted strategy: derives `<kernel>_irregfix_hoisted`, the
// in-kernel transformed kernel whose loop runs only the iterations
// [step.begin, step.end) of an irregfix::HoistStep, carrying the locals the loop
// modifies in per-thread buffers between launches; a launch with
// step.epilogue set skips the loop and runs the code after it.
#pragma once

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

#include <string>

namespace irregfix::hoisted {

// The hoisted kernel's source text; Info.Hoist.Hoistable must hold.
llvm::Expected<std::string> rewriteKernel(const KernelInfo &Info, clang::ASTContext &Ctx);

} // namespace irregfix::hoisted
