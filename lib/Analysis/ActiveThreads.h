// The number of active threads n: the bound of the kernel's guard on the global
// thread index, `if (t < n) { ... }` or `if (t >= n) return;`; for a linear
// index of 2-D or 3-D indices the product of each index's bound; for a kernel
// whose threads nothing bounds, the launch's own thread count.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <string>
#include <vector>

namespace irregfix {

class WriteSet;

// How many threads a site's copies cover (n), as the launch computes it.
struct ActiveThreadCount {
  const clang::Expr *Bound = nullptr;       // a 1-D index: the guard's n
  std::vector<const clang::Expr *> Extents; // a linear index: the guards' nx (or the row pitch), ny (, nz); n is their product
  bool Launch = false;                      // no guard: every launched thread, grid.x * block.x
  std::string RefusedBecause;               // none of these, and why
};

// n for a site whose thread index is ThreadIndex (the 1-D index or a linear
// one), read where Anchor runs. A linear index must be one-to-one: each of
// i, j, k bounded by a guard (i < nx, j < ny, k < nz), j multiplied by exactly
// nx and k by nx * ny. With AcceptPitch, j may be multiplied by a row pitch P
// that is certainly at least the x bound (`i < P - 1`, a constant taken from
// P in signed arithmetic): n is then P * ny, and the positions of each row
// past the bound are no thread's. Only for sites whose copies are built from
// indices computed with checked loads (indexed sites), which may compute those
// positions' indices: no array is read unchecked at every position below n.
// A 1-D index no guard bounds covers the launch's threads when no condition on
// the thread's position (or on a value read at it) stands between the
// kernel's entry and Anchor: a bound the tool cannot read is refused, not
// widened to the launch.
ActiveThreadCount countActiveThreads(const clang::Expr *ThreadIndex, const clang::Stmt *Anchor,
                                     clang::ASTContext &Ctx, const WriteSet &Writes, bool AcceptPitch = false);

// The guard bound that holds wherever S runs, or null if S is not guarded.
const clang::Expr *findActiveThreads(const clang::Stmt *S, clang::ASTContext &Ctx,
                                     const WriteSet &Writes);

// True when N can be evaluated at the launch from the kernel's arguments:
// literals, unwritten by-value parameters, their fields, and arithmetic on those.
bool isLaunchEvaluable(const clang::Expr *N, const WriteSet &Writes);

// isLaunchEvaluable, and also through the kernel's locals that only hold a
// value computed from its arguments (`int total = n * c4;`: initialised, never
// assigned, incremented or addressed, not spelled through a macro) and through
// `c ? a : b`: a guard bound is spelled at the launch with each such local
// replaced by its initialiser (guardBoundLocals).
bool isGuardBoundEvaluable(const clang::Expr *N, const WriteSet &Writes);

// The references to such locals in N, outermost first, that the launch spells
// through their initialisers.
std::vector<const clang::DeclRefExpr *> guardBoundLocals(const clang::Expr *N);

} // namespace irregfix
