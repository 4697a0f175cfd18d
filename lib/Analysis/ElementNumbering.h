// Whether a kernel runs unchanged in any numbering of its elements, for
// program-wide renumbering (docs/DESIGN.md): the runtime may keep the arrays
// it indexes by element number in a locality order, translating the numbers
// stored in the arrays that hold them, as long as the kernel uses an element
// number (its thread index, or a number it loads) only to index those arrays,
// to compare for equality with another number, or to store in an array of
// numbers. Each pointer parameter gets a role: indexed by element number
// (elements: `a[t]`, `a[j*n + t]`, `a[q]` for a loaded number q), holding
// numbers, both (a neighbour list), or indexed by other values (kept in the
// program's numbering).
#pragma once

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"

#include <string>
#include <vector>

namespace irregfix {

// irregfix::NumberingRole's bits (runtime/include/irregfix/irregfix.cuh).
enum NumberingRoleBits : unsigned {
  kRoleNone = 0,
  kRoleElements = 1,
  kRoleNumbers = 2,
  kRoleOther = 4,
  kRoleRows = 8,      // the starts of the rows' segments (CSR): read at [t] and [t + 1]
  kRoleSegments = 16, // stored along the rows' segments (CSR values, or columns with kRoleNumbers)
};

struct NumberingParam {
  const clang::ParmVarDecl *Param = nullptr;
  unsigned Role = kRoleNone;
  bool Written = false;
  unsigned Bytes = 0; // the size of what it points to
};

struct KernelNumbering {
  const clang::FunctionDecl *Kernel = nullptr;
  std::string NotBecause;                      // empty: the kernel is indifferent to the numbering
  const clang::ParmVarDecl *Count = nullptr;   // n, the bound of its thread index (null: unbounded or none)
  std::vector<NumberingParam> Pointers;        // its pointer parameters, in order
  // The graph an order may be computed from, in Pointers: a neighbour list
  // NB[j*n + t] and its counts, or the rows' columns and their row starts.
  int Graph = -1, GraphCounts = -1, GraphRows = -1;
  // A grid-stride reduction over the elements (read only, summed): it runs in
  // any numbering as another grouping of its sums; Reassociates when that
  // changes the result (floating point, or partials combined unseen).
  bool Reduction = false, Reassociates = false;
  // A reduction whose sum another grouping would change, without
  // --reassociate: it qualifies by reading each element where the order put
  // it (ElementReads, `a[i]` read as `a[position of i]`), so that every thread
  // sums the same terms in the same order as numbered: a variant of the kernel
  // does (Transform/Positions), launched in place of the original.
  // Where no variant can be launched, RegroupedBecause is why it is not
  // indifferent after all.
  bool ThroughOrder = false;
  std::vector<const clang::ArraySubscriptExpr *> ElementReads;
  std::string RegroupedBecause;
  // Threads an element: a group of Lanes consecutive threads (a power of two
  // up to 32, `row = t / G`) shares each row, its lanes striding the row's
  // segment and combining their sums by warp shuffles within the group; 1: a
  // thread an element.
  unsigned Lanes = 1;
  // The group is a block's row of threads in x (`row = blockIdx.x *
  // blockDim.y + threadIdx.y`, the lane threadIdx.x, the loop striding by
  // Lanes): each launch's blocks must be exactly Lanes threads in x.
  bool LanesInX = false;
  bool indifferent() const { return NotBecause.empty(); }
  bool hasElements() const;
};

// The kernel's roles and whether it is indifferent to the numbering. A
// template, a kernel without a thread index local `t = blockIdx.x *
// blockDim.x + threadIdx.x` (never written), or one whose threads cooperate
// (shared memory, barriers, warp operations, floating-point atomics) is not,
// unless it only reduces its elements (KernelNumbering::Reduction). Rows of a
// sparse matrix (CSR) are read as kRoleRows and kRoleSegments, by a thread a
// row or by a group of lanes a row (KernelNumbering::Lanes): the element is
// then the group's index `t / G`, or the block's row of threads in x
// `blockIdx.x * blockDim.y + threadIdx.y`, and the lanes may exchange values
// only within their group.
// `Reassociate` (--reassociate): reductions whose result another grouping
// changes qualify too.
KernelNumbering analyzeNumbering(const KernelInfo &Info, clang::ASTContext &Ctx, bool Reassociate);

} // namespace irregfix
