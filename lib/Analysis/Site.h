// Plain descriptions of indirect-read sites, produced by the analyses and
// consumed by the rewriters. Nothing here edits text.
#pragma once

#include "Analysis/ArrayRef.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <string>
#include <utility>
#include <vector>

namespace irregfix {

enum class SitePattern {
  Range,     // for (k = B[t]; k < B[t+1]; ++k) ... A[k]
  Range2,    // the same with the row r = C[t]: B[C[t]] .. B[C[t]+1]
  Gather,    // A[B[t]]
  Gather2,   // A[B[C[t]]]
  Neighbors, // for (j = 0; j < m or counts[t]; ++j) ... A[NB[j*M + t]]
};

inline bool isRangePattern(SitePattern P) { return P == SitePattern::Range || P == SitePattern::Range2; }

const char *patternName(SitePattern P);

// One array the site reads indirectly, and every subscript that reads it.
struct SiteArray {
  ArrayRef Array;                                      // A
  std::vector<const clang::ArraySubscriptExpr *> Reads; // A[k] (range) or A[B[t]] (gather)
  // A[k] also appears other than as a plain read (stored to, address taken).
  bool OtherUse = false;
  // Set when A cannot be remapped; the reads are left alone and the reason reported.
  std::string RefusedBecause;
};

struct Site {
  SitePattern Pattern = SitePattern::Range;
  const clang::FunctionDecl *Kernel = nullptr;
  clang::SourceLocation Loc;           // where remarks point: the loop or the read

  ArrayRef Offsets; // B (NB for neighbour lists)
  ArrayRef RowMap;  // C in B[C[t]] (two-level patterns)
  const clang::Expr *ThreadIndex = nullptr;    // t as written where it is read
  const clang::Expr *ActiveThreads = nullptr;  // n, from the guard `t < n`; kernel parameters only

  // Range and neighbour sites.
  const clang::ForStmt *Loop = nullptr;
  const clang::VarDecl *LoopVar = nullptr;       // k (range), i (counted range), j (neighbours)
  bool LoopVarDeclaredInLoop = false;
  bool LoopVarUsedElsewhere = false; // k is used other than as a remapped subscript: rebind it
  // Counted range form `for (i = 0; i < len; i++) A[start + i]`: i is the iteration
  // itself, not an element index.
  bool LoopVarIsIteration = false;

  // Neighbour sites: NB[j * Stride + t] (column-major) or NB[t * Stride + j] (row-major),
  // for j below Bound (launch-evaluable) or Counts[t].
  const clang::Expr *NeighborStride = nullptr;
  bool NeighborRowMajor = false;
  const clang::Expr *NeighborBound = nullptr;
  ArrayRef NeighborCounts;

  std::vector<SiteArray> Arrays;

  // (written, read) parameter pairs that may alias: checked at each launch.
  std::vector<std::pair<ArrayRef, ArrayRef>> AliasChecks;
  // (__device__ variable the kernel writes, array read): checked at each launch too.
  std::vector<std::pair<const clang::VarDecl *, ArrayRef>> SymbolAliasChecks;

  std::string RefusedBecause; // the whole site is refused, and why

  // Arrays that will be remapped, in order.
  std::vector<const SiteArray *> remappedArrays() const;
  // At least one array is remapped (none when the site is refused).
  bool transformable() const { return !remappedArrays().empty(); }

  // The index arrays the runtime reads to build the copies (B, C, counts).
  std::vector<ArrayRef> indexArrays() const;
};

// Everything the rewriters need to know about one kernel.
// Whether the runtime may permute the kernel's threads (SELL-32-sigma); see
// Permutability.h.
struct Permutability {
  bool Permutable = false;
  std::string NotBecause;                     // why not, when not
  const clang::VarDecl *ThreadVar = nullptr;   // the thread index local, when permutable
  const clang::DeclStmt *ThreadDecl = nullptr; // its declaration, alone in a block
};

// Whether a launch of the kernel may be split into launches of fewer blocks
// (a pipelined launch computes chunk c while chunk c+1 is remapped); see
// Chunkability.h.
struct Chunkability {
  bool Chunkable = false;
  std::string NotBecause;                        // why not, when not
  std::vector<const clang::Expr *> BlockReads;   // each `blockIdx.x` of the kernel's own text
};

// Whether the runtime may stage a neighbour-list site's copy in shared memory
// (the sharing layout); see Shareability.h.
struct Shareability {
  bool Shareable = false;
  std::string NotBecause; // why not, when not
  unsigned SiteIndex = 0; // the shared site, an index into KernelInfo::Sites
};

// Whether the kernel's loop site can run from the host (--hoist); see Hoistability.h.
struct Hoisting {
  bool Requested = false;  // --hoist names this kernel (or every kernel)
  bool Hoistable = false;
  std::string NotBecause;  // why not, when requested and not hoistable
  unsigned SiteIndex = 0;  // the hoisted site, an index into KernelInfo::Sites
  const clang::ForStmt *Loop = nullptr; // its loop (Site::Loop is set for ranges only)
  // Locals declared before the loop that its body modifies: carried between
  // launches in per-thread buffers, in declaration order.
  std::vector<const clang::VarDecl *> Live;
  // Compound statements enclosing the loop, innermost first, with the statement
  // of each that holds the loop: code after it is reached only by threads that
  // skip the loop.
  std::vector<std::pair<const clang::CompoundStmt *, const clang::Stmt *>> Enclosing;
};

struct KernelInfo {
  // The kernel analysed. For a kernel template, one of its instantiations (sites
  // point into the template's text, which all instantiations share) ...
  const clang::FunctionDecl *Kernel = nullptr;
  // ... and the template's own declaration, whose text and types the rewriters use.
  const clang::FunctionDecl *Template = nullptr;
  // The declaration whose text is rewritten and whose parameters the launcher takes.
  const clang::FunctionDecl *source() const { return Template ? Template : Kernel; }
  std::vector<Site> Sites;
  std::string RefusedBecause; // the kernel as a whole cannot be transformed
  Permutability Perm;
  Chunkability Chunks;
  Shareability Share;
  Hoisting Hoist;
  bool hasTransformableSite() const;
};

} // namespace irregfix
