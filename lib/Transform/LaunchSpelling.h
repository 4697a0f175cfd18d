// How a launcher (host code) names a kernel array. Most arrays are spelled as
// the kernel spells them (`A`, `g.offsets`); an array member of the struct a
// pointer parameter points to is the pointer plus the member's offset, so that
// host code never forms `*tab` of a device pointer:
//   reinterpret_cast<const int *>(reinterpret_cast<const char *>(tab) + __builtin_offsetof(Table, perm))
// A member of several dimensions (`int rows[16][8]`) is named the same way, as
// a pointer to its first scalar: the flat array of 128 a copy is made of.
#pragma once

#include "Analysis/ArrayRef.h"

#include "clang/AST/ASTContext.h"

#include <string>

namespace irregfix {

std::string launchSpelling(const ArrayRef &A, const clang::ASTContext &Ctx);

// How device code names a kernel array as a pointer to its first element: as
// the kernel spells it, or for a member of several dimensions, the address of
// its first scalar (`&tab->rows[0][0]`), whose flat index a copy is read at.
std::string firstElementSpelling(const ArrayRef &A);

} // namespace irregfix
