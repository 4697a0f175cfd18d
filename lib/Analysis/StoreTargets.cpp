#include "Analysis/StoreTargets.h"
#include "Analysis/AstUtil.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace irregfix {

std::string spelled(const Expr *E) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  PrintingPolicy Policy{LangOptions()};
  Policy.SuppressImplicitBase = true;
  strip(E)->printPretty(OS, nullptr, Policy);
  if (S.size() > 40)
    S = S.substr(0, 37) + "...";
  return "'" + S + "'";
}

ArrayRef fieldOfParam(const MemberExpr *ME) {
  llvm::SmallVector<const FieldDecl *, 2> Fields;
  const Expr *E = ME;
  while (const auto *M = dyn_cast<MemberExpr>(strip(E))) {
    const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (!F || M->isArrow())
      return ArrayRef();
    Fields.insert(Fields.begin(), F);
    E = M->getBase();
  }
  const auto *DR = dyn_cast<DeclRefExpr>(strip(E));
  const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
  if (!P || !P->getType()->isRecordType() || Fields.empty())
    return ArrayRef();
  QualType Leaf = Fields.back()->getType();
  if (!Leaf->isPointerType() && !Leaf->isArrayType())
    return ArrayRef();
  return ArrayRef(P, std::move(Fields));
}

bool isArrayParam(const ParmVarDecl *P) { return P->getType()->isPointerType() || P->getType()->isArrayType(); }

StoreTarget pointerTarget(const Expr *E, const WriteSet *W, int Depth) {
  if (!E || Depth > 32)
    return StoreTarget::unknown("a pointer the analysis cannot follow");
  E = strip(E);
  if (isa<CXXThisExpr>(E))
    return StoreTarget::of(StoreTarget::This);
  if (E->getType()->isArrayType()) // an array lvalue used as a pointer: its own memory
    return lvalueTarget(E, W, Depth + 1);
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V)
      return StoreTarget::unknown("stores through " + spelled(E));
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      if (W && W->writesScalar(P))
        return StoreTarget::unknown("stores through " + spelled(E) + ", a parameter assigned in the function");
      if (isArrayParam(P))
        return StoreTarget::array(ArrayRef(P));
      if (P->getType()->isReferenceType() && P->getType().getNonReferenceType()->isPointerType())
        return StoreTarget::unknown("stores through " + spelled(E) + ", a pointer passed by reference");
      return StoreTarget::unknown("stores through " + spelled(E));
    }
    if (isDeviceSymbol(V))
      return StoreTarget::unknown("stores through " + spelled(E) + ", a pointer loaded from a __device__ variable");
    if (V->isLocalVarDecl() || V->isStaticLocal()) {
      if (V->hasAttr<CUDASharedAttr>())
        return StoreTarget::of(StoreTarget::Local, V);
      if (V->hasInit() && W && !W->writesScalar(V) && !V->getType()->isReferenceType())
        return pointerTarget(V->getInit(), W, Depth + 1);
      if (V->hasInit() && V->getType()->isReferenceType())
        return pointerTarget(V->getInit(), W, Depth + 1);
      return StoreTarget::unknown("stores through " + spelled(E) + ", a pointer assigned in the function");
    }
    return StoreTarget::unknown("stores through " + spelled(E));
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)
      return pointerTarget(BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS(), W, Depth + 1);
    if (BO->getOpcode() == BO_Comma)
      return pointerTarget(BO->getRHS(), W, Depth + 1);
    return StoreTarget::unknown("stores through " + spelled(E));
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf)
      return lvalueTarget(UO->getSubExpr(), W, Depth + 1);
    return StoreTarget::unknown("stores through " + spelled(E));
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    StoreTarget T = pointerTarget(CO->getTrueExpr(), W, Depth + 1);
    StoreTarget F = pointerTarget(CO->getFalseExpr(), W, Depth + 1);
    if (T.sameMemory(F))
      return T;
    return StoreTarget::unknown("stores through " + spelled(E) + ", one of several pointers");
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ArrayRef F = fieldOfParam(ME)) { // g.f: the struct parameter's array
      if (W && W->writesScalar(F.param()))
        return StoreTarget::unknown("stores through " + spelled(E) + ", a field of a parameter assigned in the function");
      return StoreTarget::array(F);
    }
    return StoreTarget::unknown("stores through " + spelled(E) + ", a pointer loaded from memory");
  }
  if (isa<ArraySubscriptExpr>(E) || isa<CallExpr>(E) ||
      (isa<UnaryOperator>(E) && cast<UnaryOperator>(E)->getOpcode() == UO_Deref))
    return StoreTarget::unknown("stores through " + spelled(E) + ", a pointer loaded from memory");
  return StoreTarget::unknown("stores through " + spelled(E));
}

StoreTarget lvalueTarget(const Expr *E, const WriteSet *W, int Depth) {
  if (!E || Depth > 32)
    return StoreTarget::unknown("a store the analysis cannot follow");
  E = E->IgnoreParens();
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E); ICE && ICE->getCastKind() == CK_NoOp)
    return lvalueTarget(ICE->getSubExpr(), W, Depth + 1);
  if (isa<MaterializeTemporaryExpr>(E))
    return StoreTarget::of(StoreTarget::Local);
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V)
      return StoreTarget::unknown("stores to " + spelled(E));
    if (const auto *P = dyn_cast<ParmVarDecl>(V))
      return P->getType()->isReferenceType() ? StoreTarget::of(StoreTarget::Reference, P) : StoreTarget::of(StoreTarget::Local, P);
    if (V->getType()->isReferenceType())
      return V->hasInit() ? lvalueTarget(V->getInit(), W, Depth + 1)
                          : StoreTarget::unknown("stores through the reference " + spelled(E));
    if (isDeviceSymbol(V))
      return StoreTarget::of(StoreTarget::Symbol, V);
    if (V->isLocalVarDecl() || V->isStaticLocal() || V->hasAttr<CUDASharedAttr>())
      return StoreTarget::of(StoreTarget::Local, V);
    return StoreTarget::unknown("stores to " + spelled(E) + ", a variable outside device memory the analysis knows");
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return pointerTarget(AS->getBase(), W, Depth + 1);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref)
      return pointerTarget(UO->getSubExpr(), W, Depth + 1);
    if (UO->getOpcode() == UO_PreInc || UO->getOpcode() == UO_PreDec)
      return lvalueTarget(UO->getSubExpr(), W, Depth + 1);
    return StoreTarget::unknown("stores to " + spelled(E));
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? pointerTarget(ME->getBase(), W, Depth + 1) : lvalueTarget(ME->getBase(), W, Depth + 1);
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    StoreTarget T = lvalueTarget(CO->getTrueExpr(), W, Depth + 1);
    StoreTarget F = lvalueTarget(CO->getFalseExpr(), W, Depth + 1);
    if (T.sameMemory(F))
      return T;
    return StoreTarget::unknown("stores to " + spelled(E) + ", one of several places");
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->getOpcode() == BO_Comma) // (a = b) = c, (x, a) = c
      return lvalueTarget(BO->isAssignmentOp() ? BO->getLHS() : BO->getRHS(), W, Depth + 1);
  }
  if (isa<CompoundLiteralExpr>(E) || isa<CXXTemporaryObjectExpr>(E))
    return StoreTarget::of(StoreTarget::Local);
  if (isa<CallExpr>(E))
    return StoreTarget::unknown("stores through " + spelled(E) + ", a reference returned by a call");
  return StoreTarget::unknown("stores to " + spelled(E));
}

} // namespace irregfix
