// Irregular reductions: a kernel whose threads each add one value to an
// element chosen through an index array, `A[f[t]] += e;` or
// `atomicAdd(&A[f[t]], e);`. Such a scatter update is rewritten by the scatter
// strategy (an inspector-executor: the kernel writes e to contrib[t], the
// runtime sums each element's contributions in thread order). The analysis
// finds the updates and proves the rewrite safe, or says why not.
#pragma once

#include "Analysis/ArrayRef.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <string>
#include <vector>

namespace irregfix {

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
  bool Atomic = false;                         // atomicAdd rather than +=
  // Arrays the kernel reads or writes besides A: checked at each launch not
  // to share A's allocation.
  std::vector<ArrayRef> AliasChecks;
  std::string RefusedBecause;                  // empty: the update is rewritten
  bool transformable() const { return RefusedBecause.empty(); }
};

// Every update of the kernel that adds to an element chosen by a loaded index
// (`A[g[...]] += e`, `atomicAdd(&A[g[...]], e)`), each with its verdict. At
// most one per kernel is rewritten: a kernel with two refuses both.
std::vector<ScatterSite> findScatterSites(const clang::FunctionDecl *Kernel, clang::ASTContext &Ctx);

// The one that is rewritten, or null.
inline const ScatterSite *transformableScatter(const std::vector<ScatterSite> &Sites) {
  for (const ScatterSite &S : Sites)
    if (S.transformable())
      return &S;
  return nullptr;
}

} // namespace irregfix
