// The number of active threads n: the bound of the kernel's guard on the global
// thread index, `if (t < n) { ... }` or `if (t >= n) return;`.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace irregfix {

class WriteSet;

// The guard bound that holds wherever S runs, or null if S is not guarded.
const clang::Expr *findActiveThreads(const clang::Stmt *S, clang::ASTContext &Ctx,
                                     const WriteSet &Writes);

// True when N can be evaluated at the launch from the kernel's arguments:
// literals, unwritten by-value parameters, their fields, and arithmetic on those.
bool isLaunchEvaluable(const clang::Expr *N, const WriteSet &Writes);

} // namespace irregfix
