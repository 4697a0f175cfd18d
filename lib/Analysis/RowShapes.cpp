// The shapes of a thread's row and of loops over it that the range and
// neighbour-list patterns are built from (SiteFinder.cpp): reads of a pointer
// parameter, a row's start and end in an offsets array, a loop's head and bound.
#include "Analysis/RowShapes.h"
#include "Analysis/AstUtil.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace irregfix::rowshape {

// The index types irregfix::index_kind() maps to a kind the runtime reads.
bool isRuntimeIndexType(QualType T) {
  const auto *B = T.getCanonicalType()->getAs<BuiltinType>();
  if (!B)
    return false;
  switch (B->getKind()) {
  case BuiltinType::Int:
  case BuiltinType::UInt:
  case BuiltinType::Long:
  case BuiltinType::ULong:
  case BuiltinType::LongLong:
  case BuiltinType::ULongLong:
    return true;
  default:
    return false;
  }
}


std::optional<IndexRead> asParamSubscript(const Expr *E, const WriteSet &W) {
  const auto *AS = dyn_cast<ArraySubscriptExpr>(strip(throughLdg(E)));
  if (!AS)
    return std::nullopt;
  ArrayRef P = WriteSet::exactPointer(AS->getBase(), W);
  if (!P || P.isMultiDimensional()) // a row of a member of several dimensions is no index
    return std::nullopt;
  return IndexRead{P, AS->getIdx()};
}

// Follows unwritten integer/pointer locals (`start = B[t]`) to their initialisers.
const Expr *throughLocal(const Expr *E, const WriteSet &W) {
  for (int Depth = 0; Depth < 8; ++Depth) {
    const VarDecl *V = refToVar(E);
    if (!V || !V->isLocalVarDecl() || !V->hasInit() || W.writesScalar(V) || V->getType()->isReferenceType())
      return E;
    E = V->getInit();
  }
  return E;
}


std::optional<Row> rowOfThread(const Expr *X, const WriteSet &W) {
  if (isThreadIndex(X, W))
    return Row{ArrayRef(), X};
  if (auto C = asParamSubscript(throughLocal(X, W), W); C && isThreadIndex(C->Index, W))
    return Row{C->Array, C->Index};
  return std::nullopt;
}

// `X + 1` or `1 + X` → X.
const Expr *minusOne(const Expr *E) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  if (!BO || BO->getOpcode() != BO_Add)
    return nullptr;
  if (isIntLiteral(BO->getRHS(), 1))
    return BO->getLHS();
  if (isIntLiteral(BO->getLHS(), 1))
    return BO->getRHS();
  return nullptr;
}


std::optional<RowBound> rowStart(const Expr *E, const WriteSet &W) {
  auto S = asParamSubscript(throughLocal(E, W), W);
  if (!S)
    return std::nullopt;
  auto R = rowOfThread(S->Index, W);
  if (!R)
    return std::nullopt;
  return RowBound{S->Array, *R};
}

std::optional<RowBound> rowEnd(const Expr *E, const WriteSet &W) {
  auto S = asParamSubscript(throughLocal(E, W), W);
  if (!S)
    return std::nullopt;
  const Expr *X = minusOne(S->Index);
  auto R = X ? rowOfThread(X, W) : std::nullopt;
  if (!R)
    return std::nullopt;
  return RowBound{S->Array, *R};
}

bool sameRow(const RowBound &A, const RowBound &B, const WriteSet &W, const ASTContext &Ctx) {
  return A.Offsets == B.Offsets && A.R.Map == B.R.Map && sameThreadIndex(A.R.ThreadIndex, B.R.ThreadIndex, W, Ctx);
}

// True when S computes something from threadIdx/blockIdx without reading memory:
// an index that looks like a thread index but is not the 1-D global one.
bool mentionsBuiltinIndex(const Stmt *S) {
  if (isa_and_nonnull<ArraySubscriptExpr>(S) || isa_and_nonnull<CallExpr>(S))
    return false;
  if (const auto *E = dyn_cast_or_null<Expr>(S); E && isAnyBuiltinIndexRead(E))
    return true;
  if (const auto *DR = dyn_cast_or_null<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->isLocalVarDecl() && V->hasInit())
      if (mentionsBuiltinIndex(V->getInit()))
        return true;
  if (S)
    for (const Stmt *C : S->children())
      if (mentionsBuiltinIndex(C))
        return true;
  return false;
}

bool isIncrementOf(const Stmt *Inc, const VarDecl *K) {
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
    return UO->isIncrementOp() && refToVar(UO->getSubExpr()) == K;
  if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    return CA->getOpcode() == BO_AddAssign && refToVar(CA->getLHS()) == K && isIntLiteral(CA->getRHS(), 1);
  return false;
}


std::optional<LoopHead> loopHead(const ForStmt *For) {
  LoopHead H;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit())) {
    if (!DS->isSingleDecl())
      return std::nullopt;
    H.Var = dyn_cast<VarDecl>(DS->getSingleDecl());
    H.Start = H.Var ? H.Var->getInit() : nullptr;
    H.Declared = true;
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(For->getInit());
             BO && BO->getOpcode() == BO_Assign) {
    H.Var = refToVar(BO->getLHS());
    H.Start = BO->getRHS();
  }
  if (!H.Var || !H.Start || !H.Var->getType()->isIntegerType())
    return std::nullopt;
  return H;
}

// `for (..; j < X; ..)` or `j != X` → X.
const Expr *upperBound(const ForStmt *For, const VarDecl *J) {
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(For->getCond());
  if (!Cond || (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_NE) || refToVar(Cond->getLHS()) != J)
    return nullptr;
  return Cond->getRHS();
}

} // namespace irregfix::rowshape
