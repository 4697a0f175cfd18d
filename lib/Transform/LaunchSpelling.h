// How a launcher (host code) names a kernel array. Most arrays are spelled as
// the kernel spells them (`A`, `g.offsets`); an array member of the struct a
// pointer parameter points to is the pointer plus the member's offset, so that
// host code never forms `*tab` of a device pointer:
//   reinterpret_cast<const int *>(reinterpret_cast<const char *>(tab) + __builtin_offsetof(Table, perm))
#pragma once

#include "Analysis/ArrayRef.h"

#include "clang/AST/ASTContext.h"

#include <string>

namespace irregfix {

std::string launchSpelling(const ArrayRef &A, const clang::ASTContext &Ctx);

} // namespace irregfix
