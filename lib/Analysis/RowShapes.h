// The shapes of a thread's row and of loops over it, from which SiteFinder
// builds the range and neighbour-list patterns.
#pragma once

#include "Analysis/ArrayRef.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <optional>

namespace irregfix::rowshape {

// P[e], with P exactly a pointer parameter (or an exact local copy of one).
struct IndexRead {
  ArrayRef Array;
  const clang::Expr *Index = nullptr;
};

// The row a thread works on: t itself, or C[t] (two-level). Two rows are the
// same when both have the same C (or none).
struct Row {
  ArrayRef Map; // C, or none for t
  const clang::Expr *ThreadIndex = nullptr;
};

// B[row], B[row + 1]: the start and end of a thread's row in B.
struct RowBound {
  ArrayRef Offsets;
  Row R;
};

// A for-loop's variable, its start value, and whether it is declared in the loop.
struct LoopHead {
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Start = nullptr;
  bool Declared = false;
};

// The index types irregfix::index_kind() maps to a kind the runtime reads.
bool isRuntimeIndexType(clang::QualType T);

std::optional<IndexRead> asParamSubscript(const clang::Expr *E, const WriteSet &W);

// Follows unwritten integer/pointer locals (`start = B[t]`) to their initialisers.
const clang::Expr *throughLocal(const clang::Expr *E, const WriteSet &W);

// `X + 1` or `1 + X` -> X (null otherwise).
const clang::Expr *minusOne(const clang::Expr *E);

// t, or C[t], with t the thread index (1-D or linear, isThreadIndex).
std::optional<Row> rowOfThread(const clang::Expr *X, const WriteSet &W);

std::optional<RowBound> rowStart(const clang::Expr *E, const WriteSet &W);

std::optional<RowBound> rowEnd(const clang::Expr *E, const WriteSet &W);

// The same row of the same offsets, read at thread indices that number the threads alike.
bool sameRow(const RowBound &A, const RowBound &B, const WriteSet &W, const clang::ASTContext &Ctx);

// True when S computes something from threadIdx/blockIdx without reading memory:
// an index that looks like a thread index but is not the 1-D global one.
bool mentionsBuiltinIndex(const clang::Stmt *S);

bool isIncrementOf(const clang::Stmt *Inc, const clang::VarDecl *K);

std::optional<LoopHead> loopHead(const clang::ForStmt *For);

// `for (..; j < X; ..)` or `j != X` -> X.
const clang::Expr *upperBound(const clang::ForStmt *For, const clang::VarDecl *J);

} // namespace irregfix::rowshape
