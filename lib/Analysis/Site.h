// Plain descriptions of indirect-read sites, produced by the analyses and
// consumed by the rewriters. Nothing here edits text.
#pragma once

#include "Analysis/ArrayRef.h"
#include "Analysis/CallChains.h"
#include "Analysis/IndirectReads.h"
#include "Analysis/RowReduction.h"

#include <irregfix/pattern.h>

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace irregfix {

// A site's pattern is irregfix::Pattern (irregfix/pattern.h): one table of
// numbers and names for the tool and the runtime.
inline bool isRangePattern(Pattern P) { return P == kPatternRange || P == kPatternRange2; }

// A field of a structure element that a site reads, and where its piece keeps it.
struct PieceField {
  const clang::FieldDecl *Field = nullptr;
  unsigned Offset = 0;      // bytes into the element (the record's layout)
  unsigned Size = 0;        // 4 or 8
  unsigned PieceOffset = 0; // bytes into its piece
};

// One aligned piece of a field copy: the fields it holds, by offset.
struct FieldPiece {
  unsigned Size = 0; // 16, 8, or 4 for a lone 4-byte field; also its alignment
  std::vector<PieceField> Fields;
};

// Whether a site's copy of an array of structures holds only the fields the
// kernel reads, grouped into pieces (see FieldUse.h).
struct FieldSplit {
  std::vector<FieldPiece> Pieces; // empty: the copy holds whole elements
  std::string WholeBecause;       // why whole, for an element that is a structure the tool could split
  unsigned ElementSize = 0;       // bytes
  // The reads redirected to the pieces: `A[..].f` read as a value ...
  std::vector<const clang::MemberExpr *> FieldReads;
  // ... and `T v = A[..]` (the read), whose local is used only through its fields.
  std::vector<std::pair<const clang::Expr *, const clang::VarDecl *>> LocalReads;

  bool split() const { return !Pieces.empty(); }
  // The piece holding F (its index in *Piece), or null.
  const PieceField *find(const clang::FieldDecl *F, unsigned *Piece) const {
    for (unsigned P = 0; P < Pieces.size(); ++P)
      for (const PieceField &PF : Pieces[P].Fields)
        if (PF.Field == F) {
          *Piece = P;
          return &PF;
        }
    return nullptr;
  }
  unsigned pieceBytes() const {
    unsigned Sum = 0;
    for (const FieldPiece &P : Pieces)
      Sum += P.Size;
    return Sum;
  }
};

// One array the site reads indirectly, and every subscript that reads it.
struct SiteArray {
  ArrayRef Array;                                      // A
  // A[k] (range), A[B[t]] (gather); any read of A at the site's index (indexed sites)
  std::vector<const clang::Expr *> Reads;
  // A[k] also appears other than as a plain read (stored to, address taken).
  bool OtherUse = false;
  // Set when A cannot be remapped; the reads are left alone and the reason reported.
  std::string RefusedBecause;
  // An array of structures: the fields its copy holds.
  FieldSplit Fields;
};

struct Site {
  irregfix::Pattern Pattern = kPatternRange;
  const clang::FunctionDecl *Kernel = nullptr;
  clang::SourceLocation Loc;           // where remarks point: the loop or the read

  ArrayRef Offsets; // B (NB for neighbour lists)
  ArrayRef RowMap;  // C in B[C[t]] (two-level patterns)
  const clang::Expr *ThreadIndex = nullptr;    // t as written where it is read
  // How many threads the copies cover (n), evaluated at the launch: the guard's
  // bound `t < n` (kernel parameters only); for a linear index of 2-D or 3-D
  // thread indices (`i + nx * j`), the product of each index's bound, nx, ny
  // (and nz) in ActiveExtents; with neither, LaunchThreads.
  const clang::Expr *ActiveThreads = nullptr;
  std::vector<const clang::Expr *> ActiveExtents;

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

  // A range site's gathers `X[P[k]]` through one of its copies P whose values
  // the kernel uses for nothing else, of arrays X it reads nowhere else: the
  // runtime may renumber P's copy in the locality order and have the kernel
  // read each X through a copy in that order (SiteInfo::renumbered). See
  // RenumberedGathers.h.
  struct RenumberedGather {
    unsigned Through = 0; // P, by its position in remappedArrays()
    struct Gathered {
      ArrayRef Array;                         // X
      std::vector<const clang::Expr *> Bases; // `X` in each of its reads, where the kernel spells it
    };
    std::vector<Gathered> Arrays; // in the order of their first reads
  };
  std::optional<RenumberedGather> Renumbered;

  // Indexed sites: the arrays in Arrays are read at the indices of Indices (one
  // form each, in the same order), computed by generated kernels.
  struct IndexedCopy {
    const clang::Expr *Index = nullptr; // the index as the first read writes it
    FormRef Form;
    // Added to Index where the read is through a local pointer into the array
    // (`p[0]` with `p = &A[B[t]]`: PointerAliases.h).
    llvm::SmallVector<const clang::Expr *, 2> Offsets;
    // A read of a member of several dimensions (`p->m[a][b]`): the subscripts
    // before Index, each times its stride in the flat array (MemoryRead::Rows).
    RowSubscripts Rows;
  };
  std::vector<IndexedCopy> Indices;
  LoopShape IndexedLoop;                // Loop set: a loop site (copies over its iterations)
  // Loops nested in IndexedLoop whose variables the indices use too,
  // outermost first: the site's iterations are those of the whole nest, the
  // innermost loop's numbered fastest. Their bounds are the same at every
  // iteration of the loops around them (the nest is rectangular).
  std::vector<LoopShape> IndexedInnerLoops;
  // A ragged nest: one inner loop whose bounds follow IndexedLoop's variable,
  // reached at every iteration of IndexedLoop. Its iterations are numbered
  // one after the other across IndexedLoop's, the kernel counting them.
  bool IndexedRagged = false;
  std::vector<ArrayRef> IndexSources;   // arrays the index (and loop bound) forms read
  std::vector<const clang::Expr *> KeyScalars; // invariant integers they use (the cache key holds them)
  // No guard bounds the thread index: the active threads are the launch's
  // grid.x * blockDim.x (every thread index is below it).
  bool LaunchThreads = false;
  // Indexed sites whose indices use the thread's position in the launch other
  // than its global index (threadIdx.y, blockIdx.y, the global index in y):
  // the copies number every thread of the launch as the launch does (blocks
  // in grid order, threads in block order, x fastest), and their index
  // kernels run with the kernel's grid and blocks.
  bool LaunchNumbered = false;

  // A site in a device function the kernel calls (CallChains.h): the calls that
  // reach it, and its arrays as that function names them. The site's own
  // arrays (Offsets, RowMap, Arrays) are the kernel's; its expressions (reads,
  // loop, thread index) are the function's, rewritten in the function's copy.
  struct InCallee {
    CallChain Chain;
    std::map<ArrayRef, ArrayRef> KernelArrays; // the function's array -> the kernel's
    // A kernel array the function's parameter is a view of (`f(P + e)`, e
    // computable at the launch) -> the offsets whose sum is e, written in the
    // kernel: the launch hands the runtime P + e, the element the function's
    // index 0 reads.
    std::map<ArrayRef, std::vector<const clang::Expr *>> KernelOffsets;
    ArrayRef Offsets, RowMap;                 // B and C as the function names them
    std::set<const clang::ParmVarDecl *> ThreadParams; // its parameters holding t
  };
  std::optional<InCallee> Callee;
  // An array the site's code names (the function's, for a site in a callee) as
  // the kernel names it; none when it is not a kernel array.
  ArrayRef kernelArray(const ArrayRef &A) const;

  // Arrays that will be remapped, in order.
  std::vector<const SiteArray *> remappedArrays() const;
  // At least one array is remapped (none when the site is refused).
  bool transformable() const {
    return RefusedBecause.empty() &&
           std::any_of(Arrays.begin(), Arrays.end(), [](const SiteArray &A) { return A.RefusedBecause.empty(); });
  }

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

// What became of one indirect read of the kernel: the report lists them all.
struct ReadVerdict {
  enum Kind {
    Rewritten,     // read through a coalesced copy
    IndexRemapped, // its index comes from a copy; the array itself is read in place
    NotRewritten,  // left as it is: Reason says why
    Renumbered,    // left as written, its arrays kept in a locality order by program-wide renumbering
  };
  const clang::Expr *Read = nullptr;
  std::string Array;   // as written: 'x', 'g.col', or the base expression
  // A read through a local pointer into Array: the offsets its subscript is at.
  llvm::SmallVector<const clang::Expr *, 2> Offsets;
  // The pattern of the site (or scatter update) that holds the read ...
  std::optional<irregfix::Pattern> Pattern;
  // ... or, where none does, what the read looks like ("gather in a loop").
  std::string Shape;
  Kind Verdict = NotRewritten;
  std::string Reason;
  std::string In;      // the device function the read is in ("": the kernel)
  // The report's pattern column: the holder's pattern, else the shape.
  std::string shape() const { return Pattern ? pattern_name(*Pattern) : Shape; }
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
  CooperativeRows Lanes; // several lanes a row (RowReduction.h)
  std::vector<ReadVerdict> Reads; // every indirect read, in source order
  WriteSet Writes;                // what the kernel writes (WriteSet.h)
  // The block size its thread index is written with (`blockIdx.x * 256 +
  // threadIdx.x`), which its launches must have; 0 when it uses blockDim.x.
  unsigned RequiredBlockX = 0;
  // No transformable site, but indirect reads and threads that may be
  // permuted: its launches may run in a locality order another site computed
  // (OrderedLaunches.h). Perm then names its thread index.
  bool OrderOnly = false;
  std::vector<std::pair<ArrayRef, ArrayRef>> OrderAliasChecks; // (written, read): checked at each launch
  bool hasTransformableSite() const;
};

} // namespace irregfix
