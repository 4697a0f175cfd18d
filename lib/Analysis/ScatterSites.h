// Irregular reductions and assignments: a kernel whose threads each add one
// value to an element chosen through an index array, `A[f[t]] += e;` or
// `atomicAdd(&A[f[t]], e);` (or subtract it: `-=`, atomicSub), or assign it,
// `A[f[t]] = e;` or `atomicExch(&A[f[t]], e);`. Such a scatter update is rewritten by the scatter
// strategy (an inspector-executor: the kernel writes e to contrib[t], the
// runtime sums each element's contributions in thread order, or keeps the
// highest thread's value of an assigned element). The analysis
// finds the updates and proves the rewrite safe, or says why not.
#pragma once

#include "Analysis/ArrayRef.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <string>
#include <vector>

namespace irregfix {

class DeviceOnlyCode;

struct ScatterSite {
  const clang::FunctionDecl *Kernel = nullptr;
  clang::SourceLocation Loc;                   // where remarks point: the update
  const clang::Expr *Update = nullptr;         // `A[f[t]] += e` or the atomicAdd call, a statement of its own
  const clang::Expr *Element = nullptr;        // A[f[t]], the element it adds to
  const clang::Expr *Contribution = nullptr;   // e
  const clang::Expr *ThreadIndex = nullptr;    // t, as f[t] writes it
  const clang::Expr *ActiveThreads = nullptr;  // n, from the guard
  ArrayRef Target;                             // A
  ArrayRef Index;                              // f
  bool Assign = false;                         // `A[f[t]] = e`: the highest thread's value is kept
  bool Negated = false;                        // `A[f[t]] -= e`, atomicSub: the contribution is -e
  // The kernel's updates of A are rewritten together: this one is update Slot
  // of Updates, and writes contribution t * Updates + Slot.
  int Slot = 0;
  int Updates = 1;
  // Arrays the kernel reads or writes besides A: checked at each launch not
  // to share A's allocation.
  std::vector<ArrayRef> AliasChecks;
  std::string RefusedBecause;                  // empty: the update is rewritten
  bool transformable() const { return RefusedBecause.empty(); }
};

// The most updates a thread may make (the runtime's ScatterIndices::kMax).
constexpr int kMaxScatterUpdates = 4;

// Every update of the kernel that adds to or assigns an element chosen by a
// loaded index (`A[g[...]] += e`, `atomicAdd(&A[g[...]], e)`, `A[g[...]] = e`),
// each with its verdict. The
// updates of one kernel are rewritten together or not at all: up to four, all
// of one array and all adds or all assignments, at one thread index under one
// guard (an edge adding to both
// its ends: `atomicAdd(&r[a[t]], x); atomicAdd(&r[b[t]], -x);`).
std::vector<ScatterSite> findScatterSites(const clang::FunctionDecl *Kernel, clang::ASTContext &Ctx,
                                          const DeviceOnlyCode *DeviceOnly);

// The updates that are rewritten (all of the kernel's, or none), in slot order.
inline std::vector<const ScatterSite *> transformableScatters(const std::vector<ScatterSite> &Sites) {
  std::vector<const ScatterSite *> Out;
  for (const ScatterSite &S : Sites)
    if (S.transformable())
      Out.push_back(&S);
  return Out;
}


} // namespace irregfix
