#include "Analysis/ThreadIndex.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace irregfix {

// threadIdx.x is a MSProperty reference in Clang's CUDA headers; a plain member
// of a struct variable in simple stubs. Accept both.
bool isBuiltinIndexRead(const Expr *E, const char *Var, char Field) {
  E = strip(E);
  const Expr *Base = nullptr;
  StringRef Member;
  if (const auto *PR = dyn_cast<PseudoObjectExpr>(E))
    E = strip(PR->getSyntacticForm());
  if (const auto *MP = dyn_cast<MSPropertyRefExpr>(E)) {
    Base = MP->getBaseExpr();
    Member = MP->getPropertyDecl()->getName();
  } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    Base = ME->getBase();
    Member = ME->getMemberDecl()->getName();
  } else {
    return false;
  }
  if (Field && Member != StringRef(&Field, 1))
    return false;
  const auto *DR = dyn_cast<DeclRefExpr>(strip(Base));
  return DR && DR->getDecl()->getName() == Var;
}

static bool isProduct(const Expr *E, const char *A, const char *B) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  if (!BO || BO->getOpcode() != BO_Mul)
    return false;
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  return (isBuiltinIndexRead(L, A, 'x') && isBuiltinIndexRead(R, B, 'x')) ||
         (isBuiltinIndexRead(L, B, 'x') && isBuiltinIndexRead(R, A, 'x'));
}

bool isGlobalThreadIndexArithmetic(const Expr *E) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  if (!BO || BO->getOpcode() != BO_Add)
    return false;
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  auto IsBlockOffset = [](const Expr *X) { return isProduct(X, "blockIdx", "blockDim"); };
  return (IsBlockOffset(L) && isBuiltinIndexRead(R, "threadIdx", 'x')) ||
         (IsBlockOffset(R) && isBuiltinIndexRead(L, "threadIdx", 'x'));
}

bool isGlobalThreadIndex(const Expr *E, const WriteSet &Writes) {
  E = strip(E);
  if (isGlobalThreadIndexArithmetic(E))
    return true;
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  if (!DR)
    return false;
  const auto *V = dyn_cast<VarDecl>(DR->getDecl());
  if (!V || !V->isLocalVarDecl() || !V->getType()->isIntegerType() || !V->hasInit() ||
      Writes.writesScalar(V))
    return false;
  // A grid-stride loop variable stands for one index in [0, n) per iteration.
  return Writes.gridStrideLoop(V) || isGlobalThreadIndex(V->getInit(), Writes);
}

bool isGlobalThreadIndexPlusOne(const Expr *E, const WriteSet &Writes) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  if (!BO || BO->getOpcode() != BO_Add)
    return false;
  auto IsOne = [](const Expr *X) {
    const auto *IL = dyn_cast<IntegerLiteral>(strip(X));
    return IL && IL->getValue() == 1;
  };
  return (isGlobalThreadIndex(BO->getLHS(), Writes) && IsOne(BO->getRHS())) ||
         (IsOne(BO->getLHS()) && isGlobalThreadIndex(BO->getRHS(), Writes));
}

} // namespace irregfix
