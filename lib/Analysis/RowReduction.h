// What a range loop that may run with several lanes a row computes, as plain
// data (CooperativeRows.h proves it): the variables the loop carries, each an
// accumulator of one associative, commutative operator, and where the loop
// stands in the kernel. The lanes strategy (Transform/Lanes/) writes the
// variant from it.
#pragma once

#include "Analysis/ArrayRef.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <string>
#include <utility>
#include <vector>

namespace irregfix {

// A variable the loop carries from one iteration to the next, and how the
// lanes' partial values combine into it.
struct RowAccumulator {
  enum Combine {
    Sum,        // v += e, v -= e, v = v + e, v++, v--: integers, or floating point (reassociated)
    Product,    // v *= e, v = v * e: integers
    Min,        // v = min(v, e), if (e < v) v = e
    Max,        // v = max(v, e), if (e > v) v = e
    BitAnd,     // v &= e, v = v & e
    BitOr,      // v |= e, v = v | e
    BitXor,     // v ^= e, v = v ^ e
    LogicalAnd, // v = v && e (v a bool)
    LogicalOr,  // v = v || e (v a bool)
    Flag,       // v = c, c the same loop-invariant value everywhere in the loop
  };
  const clang::VarDecl *Var = nullptr;
  Combine Op = Sum;
  // Each lane starts from v itself (the operator is idempotent: min, max, and,
  // or) rather than from the operator's identity.
  bool StartsFromValue = false;
  // A floating-point sum, min or max: several lanes change the result (--reassociate).
  bool Reassociated = false;
  // Flag: the value assigned (`found = 1`), as the loop writes it.
  const clang::Expr *FlagValue = nullptr;
  // Every expression of the loop that updates v (`v += e`, the `if` of a
  // conditional min, `v = c`), and each reference to v inside them.
  std::vector<const clang::Stmt *> Updates;
  std::vector<const clang::DeclRefExpr *> Refs;
};

// Whether a kernel's range loop may run with several lanes a row (warp-
// cooperative rows): each of L lanes takes iterations lane, lane + L, ... of
// the row, and the lanes combine their accumulators with shuffles.
struct CooperativeRows {
  bool Qualifies = false;
  std::string NotBecause;  // why not, when the kernel has a transformed range site
  unsigned SiteIndex = 0;  // the range site, an index into KernelInfo::Sites
  const clang::ForStmt *Loop = nullptr;
  std::vector<RowAccumulator> Accumulators; // in declaration order
  // A floating-point accumulator: allowed by --reassociate, results may differ
  // from the original's in the last bits.
  bool Reassociates = false;
  // A floating-point accumulator without --reassociate: the lanes load the
  // row's elements together (the loop's reads in Staged, each lane its own
  // element of every L), and every lane then runs the loop's body over the
  // row's elements in the original's order, reading them from the lane that
  // loaded each: the original's bits, with the loads no longer a chain.
  bool InOrder = false;
  // In order: the loop's reads the lanes load together, outermost first
  // (`x[col[k]]`, not also its `col[k]`): reads of a pointer parameter at the
  // loop's variable, or at such a read, that every iteration makes (not under
  // a condition, nor after a `continue`), of arithmetic values of 8 bytes or less.
  // A read written more than once (`s += A[k]; if (A[k] > m)`) is loaded once:
  // StagedUses maps every occurrence to its read in Staged.
  std::vector<const clang::ArraySubscriptExpr *> Staged;
  std::vector<std::pair<const clang::ArraySubscriptExpr *, unsigned>> StagedUses;
  // Compound statements around the loop, innermost first, with the statement
  // of each that holds it: lanes other than the row's first leave after it.
  std::vector<std::pair<const clang::CompoundStmt *, const clang::Stmt *>> Enclosing;
  // The arrays the kernel writes, each only at its thread index (`y[t] = s`):
  // IRREGFIX_VERIFY runs the original beside the variant into copies of them
  // and compares. Empty, with the reason, when the kernel writes otherwise.
  std::vector<ArrayRef> StoredAtThread;
  std::string NoReferenceBecause;
};

} // namespace irregfix
