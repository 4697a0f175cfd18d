#include "Analysis/InlineCalls.h"
#include "Analysis/AstUtil.h"
#include "Analysis/LibraryCalls.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace irregfix {

namespace {

// Whether S stores nothing: no assignment, increment, new, or call of a
// function that is neither a library function nor itself inlinable.
bool storesNothing(const Stmt *S, int Depth) {
  if (!S)
    return true;
  if (Depth > 64)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->isIncrementDecrementOp())
    return false;
  if (isa<CXXNewExpr>(S) || isa<CXXDeleteExpr>(S) || isa<LambdaExpr>(S) || isa<StmtExpr>(S))
    return false;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *F = C->getDirectCallee();
    if (!F)
      return false;
    if (!computesFromArguments(C, F, F->getASTContext().getSourceManager()) && !(Depth < 16 && inlinableReturn(F)))
      return false;
  }
  for (const Stmt *Child : S->children())
    if (!storesNothing(Child, Depth + 1))
      return false;
  return true;
}

} // namespace

const Expr *inlinableReturn(const FunctionDecl *F) {
  if (!F)
    return nullptr;
  const FunctionDecl *Def = F->getDefinition();
  if (!Def || !Def->hasBody())
    return nullptr;
  if (const auto *M = dyn_cast<CXXMethodDecl>(Def); M && (M->isVirtual() || isa<CXXConstructorDecl>(M)))
    return nullptr;
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  if (!Ret || !Ret->getRetValue() || !Def->getReturnType()->isIntegralOrEnumerationType())
    return nullptr;
  if (Def->isVariadic())
    return nullptr;
  for (const ParmVarDecl *P : Def->parameters())
    if (P->getType()->isReferenceType() && !P->getType().getNonReferenceType().isConstQualified())
      return nullptr;
  return storesNothing(Ret->getRetValue(), 0) ? Ret->getRetValue() : nullptr;
}

ArrayRef namedMemory(const Expr *E, const WriteSet &W, const InlineScope *Scope) {
  llvm::SmallVector<const FieldDecl *, 2> Fields;
  auto Extend = [&](const ArrayRef &Root) {
    if (!Root)
      return ArrayRef();
    llvm::SmallVector<const FieldDecl *, 2> All(Root.fields().begin(), Root.fields().end());
    All.append(Fields.begin(), Fields.end());
    return ArrayRef(Root.param(), std::move(All));
  };
  E = strip(E);
  for (int Depth = 0; Depth < 16; ++Depth) {
    if (const auto *M = dyn_cast<MemberExpr>(E)) {
      const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
      if (!F)
        return ArrayRef();
      Fields.insert(Fields.begin(), F);
      if (M->isArrow()) // only this->f: a member of the object of the function inlined
        return Scope && isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()) ? Extend(Scope->Object) : ArrayRef();
      E = strip(M->getBase());
      continue;
    }
    if (isa<CXXThisExpr>(E))
      return Scope ? Extend(Scope->Object) : ArrayRef();
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref && Scope &&
                                                    isa<CXXThisExpr>(U->getSubExpr()->IgnoreParenImpCasts()))
      return Extend(Scope->Object); // (*this).f
    break;
  }
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!V)
    return ArrayRef();
  if (Scope) {
    const int I = parameterIndex(V, Scope);
    return I < 0 ? ArrayRef() : Extend(Scope->Params[I]);
  }
  const auto *P = dyn_cast<ParmVarDecl>(V);
  if (P && P->getType()->isRecordType()) // the kernel's struct parameter, or a field of it
    return W.writesScalar(P) ? ArrayRef() : Extend(ArrayRef(P));
  return Fields.empty() ? WriteSet::exactPointer(E, W) : ArrayRef(); // a member of a local struct
}

int parameterIndex(const VarDecl *V, const InlineScope *Scope) {
  const auto *P = dyn_cast_or_null<ParmVarDecl>(V);
  if (!Scope || !P || P->getDeclContext() != Scope->Callee)
    return -1;
  const unsigned I = P->getFunctionScopeIndex();
  return I < Scope->Params.size() ? static_cast<int>(I) : -1;
}

InlineScope enterCall(const CallExpr *C, const WriteSet &W, const InlineScope *Outer) {
  InlineScope S;
  S.Callee = C->getDirectCallee() ? C->getDirectCallee()->getDefinition() : nullptr;
  if (!S.Callee)
    return S;
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(C)) {
    const Expr *Object = M->getImplicitObjectArgument();
    const auto *Callee = dyn_cast<MemberExpr>(M->getCallee()->IgnoreParens());
    // p->degree(v): an object in memory, not one the launch names.
    if (Object && !(Callee && Callee->isArrow() && !isa<CXXThisExpr>(strip(Object))))
      S.Object = namedMemory(Object, W, Outer);
  } else if (isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(S.Callee)) {
    S.Object = namedMemory(C->getArg(0), W, Outer);
  }
  const std::vector<const Expr *> Args = callArguments(C, S.Callee);
  for (const ParmVarDecl *P : S.Callee->parameters()) {
    const unsigned I = P->getFunctionScopeIndex();
    const QualType T = P->getType().getNonReferenceType();
    const bool Memory = T->isPointerType() || T->isArrayType() || T->isRecordType();
    S.Params.push_back(Memory && I < Args.size() ? namedMemory(Args[I], W, Outer) : ArrayRef());
  }
  return S;
}

std::string inlineProblem(const CallExpr *C, const InlineScope &S, const std::vector<const FunctionDecl *> &Open) {
  const std::string Name = quoted(C->getDirectCallee());
  if (Open.size() >= static_cast<size_t>(kMaxInlineDepth) || llvm::is_contained(Open, S.Callee))
    return "it calls " + Name + " within calls nested too deeply";
  if (const auto *M = dyn_cast<CXXMethodDecl>(S.Callee); M && !M->isStatic() && !S.Object)
    return "it calls " + Name + " on an object the launch cannot name";
  return "";
}

} // namespace irregfix
