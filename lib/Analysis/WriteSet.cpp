#include "Analysis/WriteSet.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace irregfix {

namespace {

// `g.f` or `g.a.f` with g a by-value struct parameter and f a pointer or array
// field: the parameter and the field path, or none.
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

} // namespace

ArrayRef WriteSet::pointerBase(const Expr *E, const WriteSet *Writes) {
  for (int Depth = 0; E && Depth < 16; ++Depth) {
    E = strip(E);
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl())) {
        // A parameter that is itself reassigned no longer names one array.
        if (Writes && Writes->writesScalar(P))
          return ArrayRef();
        return isArrayParam(P) ? ArrayRef(P) : ArrayRef();
      }
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      // A local pointer copy: follow it only if it is never reassigned.
      if (!V || !V->isLocalVarDecl() || !V->hasInit() || !Writes || Writes->writesScalar(V))
        return ArrayRef();
      E = V->getInit();
      continue;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() != BO_Add && BO->getOpcode() != BO_Sub)
        return ArrayRef();
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() != UO_AddrOf)
        return ArrayRef();
      E = UO->getSubExpr();
      continue;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) { // &P[i]
      E = AS->getBase();
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ArrayRef F = fieldOfParam(ME)) { // g.f: the struct parameter's array
        if (Writes && Writes->writesScalar(F.param()))
          return ArrayRef();
        return F;
      }
      // &P->field, &P[i].field: inside P's array.
      if (!ME->isArrow() && !isa<ArraySubscriptExpr>(strip(ME->getBase())))
        return ArrayRef();
      E = ME->getBase();
      continue;
    }
    return ArrayRef();
  }
  return ArrayRef();
}

ArrayRef WriteSet::exactPointer(const Expr *E, const WriteSet &Writes) {
  for (int Depth = 0; E && Depth < 16; ++Depth) {
    E = strip(E);
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      ArrayRef F = fieldOfParam(ME);
      return F && !Writes.writesScalar(F.param()) ? F : ArrayRef();
    }
    const auto *DR = dyn_cast<DeclRefExpr>(E);
    if (!DR)
      return ArrayRef();
    if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()))
      return isArrayParam(P) && !Writes.writesScalar(P) ? ArrayRef(P) : ArrayRef();
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V || !V->isLocalVarDecl() || !V->hasInit() || !V->getType()->isPointerType() ||
        Writes.writesScalar(V))
      return ArrayRef();
    E = V->getInit();
  }
  return ArrayRef();
}

// Collects writes in a kernel body.
class WriteCollector : public RecursiveASTVisitor<WriteCollector> {
public:
  explicit WriteCollector(WriteSet &W) : W(W) {}

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      noteStore(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      noteStore(UO->getSubExpr());
    else if (UO->getOpcode() == UO_AddrOf)
      noteEscape(UO->getSubExpr(), UO->getType());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
    if (C->isAssignmentOp() || C->getOperator() == OO_PlusPlus || C->getOperator() == OO_MinusMinus)
      if (C->getNumArgs() > 0)
        noteStore(C->getArg(0));
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    // A pointer (or reference) to non-const memory handed to a callee may be
    // written by it: atomics, device functions, memcpy, placement stores.
    const FunctionDecl *Callee = C->getDirectCallee();
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      const Expr *Arg = C->getArg(I);
      QualType PT;
      if (Callee && I < Callee->getNumParams())
        PT = Callee->getParamDecl(I)->getType();
      else
        PT = Arg->getType();
      if (const auto *Ref = PT->getAs<ReferenceType>()) {
        if (!Ref->getPointeeType().isConstQualified())
          noteStore(Arg);
        continue;
      }
      if (PT->isPointerType() && !PT->getPointeeType().isConstQualified())
        notePointerEscape(Arg);
    }
    return true;
  }
  // for (int e = <global index>; e < n; e += blockDim.x * gridDim.x)
  bool VisitForStmt(ForStmt *For) {
    const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
    const auto *V = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    const auto *Step = dyn_cast_or_null<CompoundAssignOperator>(For->getInc());
    if (!V || !V->hasInit() || !Step || Step->getOpcode() != BO_AddAssign)
      return true;
    const auto *LHS = dyn_cast<DeclRefExpr>(strip(Step->getLHS()));
    const auto *Mul = dyn_cast<BinaryOperator>(strip(Step->getRHS()));
    if (!LHS || LHS->getDecl() != V || !Mul || Mul->getOpcode() != BO_Mul)
      return true;
    bool GridSize = (isBuiltinIndexRead(Mul->getLHS(), "blockDim", 'x') && isBuiltinIndexRead(Mul->getRHS(), "gridDim", 'x')) ||
                    (isBuiltinIndexRead(Mul->getLHS(), "gridDim", 'x') && isBuiltinIndexRead(Mul->getRHS(), "blockDim", 'x'));
    if (GridSize && isGlobalThreadIndexArithmetic(V->getInit()))
      W.GridStride[V] = For;
    return true;
  }

  bool VisitDeclStmt(DeclStmt *DS) {
    // Binding a non-const reference to memory lets it be written later.
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        if (V->getType()->isReferenceType() && !V->getType()->getPointeeType().isConstQualified() &&
            V->hasInit())
          noteStore(V->getInit());
    return true;
  }

private:
  // `E` is the target of a store.
  void noteStore(const Expr *E) {
    E = strip(E);
    if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        ++W.WrittenScalars[V];
      return;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      return notePointerWrite(AS->getBase(), E);
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref)
      return notePointerWrite(UO->getSubExpr(), E);
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return notePointerWrite(ME->getBase(), E);
      return noteStore(ME->getBase()); // s.f = ..., a[i].f = ...
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      noteStore(CO->getTrueExpr());
      return noteStore(CO->getFalseExpr());
    }
    if (!W.UntracedWrite)
      W.UntracedWrite = E;
  }

  // A store through pointer expression Ptr.
  void notePointerWrite(const Expr *Ptr, const Expr *Store) {
    Ptr = strip(Ptr);
    // Local arrays and shared memory are not device-memory parameters.
    if (const auto *DR = dyn_cast<DeclRefExpr>(Ptr))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->getType()->isArrayType())
        return;
    // Resolved once all scalar writes are known: locals and parameters may be reassigned.
    Deferred.push_back({Ptr, Store});
  }

  // `&X` where X may then be written through the resulting pointer.
  void noteEscape(const Expr *X, QualType PtrType) {
    if (PtrType->isPointerType() && PtrType->getPointeeType().isConstQualified())
      return;
    noteStore(X);
  }

  void notePointerEscape(const Expr *Arg) {
    const Expr *E = strip(Arg);
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
      return noteStore(UO->getSubExpr());
    if (isa<DeclRefExpr>(E) || isa<BinaryOperator>(E) || isa<ArraySubscriptExpr>(E) || isa<MemberExpr>(E))
      if (E->getType()->isPointerType())
        return notePointerWrite(E, Arg);
  }

public:
  void resolveDeferred() {
    for (auto &[Ptr, Store] : Deferred) {
      if (ArrayRef A = WriteSet::pointerBase(Ptr, &W)) {
        W.WrittenArrays.insert(A);
        continue;
      }
      const auto *DR = dyn_cast<DeclRefExpr>(strip(Ptr));
      const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
      // A local array or a pointer to __shared__ memory is not a source.
      if (V && (V->getType()->isArrayType() || V->hasAttr<CUDASharedAttr>()))
        continue;
      if (!W.UntracedWrite)
        W.UntracedWrite = Store;
    }
  }

private:
  WriteSet &W;
  std::vector<std::pair<const Expr *, const Expr *>> Deferred;
};

bool WriteSet::writesScalar(const VarDecl *V) const {
  auto It = WrittenScalars.find(V);
  unsigned Stores = It == WrittenScalars.end() ? 0 : It->second;
  return Stores > (GridStride.count(V) ? 1u : 0u);
}

WriteSet WriteSet::of(const FunctionDecl *Fn) {
  WriteSet W;
  if (!Fn || !Fn->hasBody())
    return W;
  WriteCollector C(W);
  C.TraverseStmt(Fn->getBody());
  C.resolveDeferred();
  return W;
}

} // namespace irregfix
