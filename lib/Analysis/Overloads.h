// Kernels that share a name in one scope (overloads): the names generated for
// one of them must not collide with the other's.
#pragma once

#include "clang/AST/Decl.h"

namespace irregfix {

// K's position (0, 1, ...) among the kernels named like it that one
// unqualified lookup from its scope sees (its namespace's, and those of
// anonymous and inline namespaces in it), in declaration order; -1 when no
// other kernel has its name there. A template's instantiation counts as its
// template.
int kernelOverloadIndex(const clang::FunctionDecl *K);

} // namespace irregfix
