// Kernel side of a reduction read through the domain's order: derives
// `<kernel>_irregfix_at` from the original, which takes each element's
// position in the order and reads `a[i]` as `a[irregfix::element_at(at, i)]`.
// Its threads take the same element numbers, in the same order, as the
// original's: every partial sum, and so the result, is the original's bit for
// bit, wherever the runtime keeps the arrays.
#pragma once

#include "Analysis/ElementNumbering.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

#include <string>

namespace irregfix::positions {

// The variant's definition, to follow the kernel's; K.ThroughOrder must hold.
llvm::Expected<std::string> rewriteKernel(const KernelNumbering &K, clang::ASTContext &Ctx);

} // namespace irregfix::positions
