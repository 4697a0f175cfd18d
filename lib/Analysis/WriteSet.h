// What a kernel writes: pointer parameters written through (directly, through
// local copies, by atomics, or by passing them to functions that may write),
// scalar locals assigned, and whether some write goes through a pointer that
// cannot be traced back to a parameter.
#pragma once

#include "Analysis/ArrayRef.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <set>

namespace irregfix {

class WriteSet {
public:
  // Analyses the body of Fn.
  static WriteSet of(const clang::FunctionDecl *Fn);

  bool writesThrough(const ArrayRef &A) const { return WrittenArrays.count(A); }
  // True when V is assigned after its initialisation (a grid-stride loop's own
  // step `e += blockDim.x * gridDim.x` does not count).
  bool writesScalar(const clang::VarDecl *V) const;
  // The grid-stride loop that V is the variable of, or null.
  const clang::ForStmt *gridStrideLoop(const clang::VarDecl *V) const {
    auto It = GridStride.find(V);
    return It == GridStride.end() ? nullptr : It->second;
  }
  bool hasUntracedWrite() const { return UntracedWrite != nullptr; }
  const clang::Expr *untracedWrite() const { return UntracedWrite; }
  const std::set<ArrayRef> &writtenArrays() const { return WrittenArrays; }

  // The array a pointer expression is derived from (P, P + i, &P[i], g.f, a
  // local initialised from one of those and never reassigned), or none.
  // Conservative for writes: any pointer into P's array counts.
  static ArrayRef pointerBase(const clang::Expr *E, const WriteSet *Writes);

  // The array E is exactly (P or g.f itself, or an unwritten local copy `T *a = P;`),
  // or none. For reads that will be redirected: an offset would change the element.
  static ArrayRef exactPointer(const clang::Expr *E, const WriteSet &Writes);

private:
  friend class WriteCollector;
  std::set<ArrayRef> WrittenArrays;
  llvm::DenseMap<const clang::VarDecl *, unsigned> WrittenScalars; // how many stores
  llvm::DenseMap<const clang::VarDecl *, const clang::ForStmt *> GridStride;
  const clang::Expr *UntracedWrite = nullptr;
};

// Write sets of the kernels of one translation unit, each computed once.
class WriteSets {
public:
  const WriteSet &of(const clang::FunctionDecl *Fn) {
    auto It = Known.find(Fn);
    if (It == Known.end())
      It = Known.emplace(Fn, WriteSet::of(Fn)).first;
    return It->second;
  }

private:
  std::map<const clang::FunctionDecl *, WriteSet> Known;
};

} // namespace irregfix
