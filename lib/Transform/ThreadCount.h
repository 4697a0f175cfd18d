// The number of threads a site's copies cover, n, as the generated launcher
// computes it from the kernel's arguments and the launch's configuration.
#pragma once

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"

#include <string>

namespace irregfix {

// `(long long)(n)` for a 1-D guard; `(long long)(nx) * (long long)(ny)` for a
// linear index of 2-D (3-D) thread indices; the launch's
// `(long long)__irregfix_grid.x * __irregfix_block.x` when no guard bounds the
// thread index (the launcher's own dim3 parameters: whatever the launch wrote,
// a number, a dim3 variable or an expression, has become one). "" when the
// site has none of these (not reached for a site the analysis accepted).
std::string activeThreadsText(const Site &S, clang::ASTContext &Ctx);

// A guard bound as the launch spells it: the kernel's text, each local that
// holds a value of the arguments replaced by its initialiser, parenthesised
// (isGuardBoundEvaluable). "" if the text cannot be made.
std::string guardBoundText(const clang::Expr *N, clang::ASTContext &Ctx);

} // namespace irregfix
