// Names shared by the kernel-side and host-side rewriters of a reduction that
// reads its elements through the domain's order (ElementNumbering.h,
// KernelNumbering::ThroughOrder).
#pragma once

#include "clang/AST/Decl.h"

#include <string>

namespace irregfix::positions {

// The suffix that makes the variant's name from the kernel's.
inline const char *variantSuffix() { return "_irregfix_at"; }
inline std::string variantName(const clang::FunctionDecl *K) { return K->getNameAsString() + variantSuffix(); }
// The variant's parameter: each element's position in the order (null: the
// arrays are as the program numbers them).
inline const char *positionsParam() { return "__irregfix_at"; }

} // namespace irregfix::positions
