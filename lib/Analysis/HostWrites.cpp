#include "Analysis/HostWrites.h"
#include "Analysis/LibraryCalls.h"
#include "Analysis/RunTimeCode.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace irregfix {

const char *causeMacro(DropCause C) {
  switch (C) {
  case DropCause::UntracedKernel:
    return "IRREGFIX_CAUSE_UNTRACED_KERNEL";
  case DropCause::LaunchApi:
    return "IRREGFIX_CAUSE_LAUNCH_API";
  case DropCause::UnseenCall:
    return "IRREGFIX_CAUSE_UNSEEN_CALL";
  case DropCause::Entry:
    return "IRREGFIX_CAUSE_ENTRY";
  case DropCause::UnnamedCopy:
    return "IRREGFIX_CAUSE_UNNAMED_COPY";
  case DropCause::DeviceReset:
    return "IRREGFIX_CAUSE_DEVICE_RESET";
  case DropCause::None:
    break;
  }
  return "0";
}

namespace {

std::string quotedName(const FunctionDecl *F) {
  if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->getParent()->isLambda())
    return "a lambda";
  return "'" + F->getQualifiedNameAsString() + "'";
}

HostEffect dropAll(DropCause Cause, std::string Why, bool Unseen = false) {
  HostEffect E;
  E.Drop = Cause;
  E.Why = std::move(Why);
  E.RunsUnseenCode = Unseen;
  return E;
}

// cudaMemcpy's kind argument, when it says the destination is host memory
// (which no cached copy is built from).
bool copiesToHost(const Expr *Kind) {
  const auto *DR = Kind ? dyn_cast<DeclRefExpr>(Kind->IgnoreParenImpCasts()) : nullptr;
  return DR && DR->getDecl()->getName() == "cudaMemcpyDeviceToHost";
}

} // namespace

bool HostWriteAnalysis::rewritten(const FunctionDecl *F) const {
  const FunctionDecl *Def = F ? F->getDefinition() : nullptr;
  return Def && Rewritten(Def->getLocation());
}

HostEffect HostWriteAnalysis::ofCall(const CallExpr *C) {
  if (const auto *L = dyn_cast<CUDAKernelCallExpr>(C))
    return ofLaunch(L);
  const FunctionDecl *F = C->getDirectCallee();
  if (!F) {
    if (isa<CXXPseudoDestructorExpr>(C->getCallee()->IgnoreParens()))
      return HostEffect();
    // A call through a pointer or a std::function: the callee is unknown.
    return dropAll(DropCause::UnseenCall, "it calls a function through a pointer", true);
  }
  // A virtual call through a pointer or a reference may reach an override in any file.
  // (A standard library's virtual method, such as std::exception::what, is
  // taken to do what the library's does.)
  if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->isVirtual() && !M->hasAttr<FinalAttr>() &&
                                                 !M->getParent()->hasAttr<FinalAttr>() &&
                                                 !isLibraryFunction(F, Ctx.getSourceManager()))
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C)) {
      const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
      const Expr *Obj = MC->getImplicitObjectArgument();
      const auto *DR = Obj ? dyn_cast<DeclRefExpr>(Obj->IgnoreParenImpCasts()) : nullptr;
      bool Static = ME && !ME->isArrow() && DR && !DR->getDecl()->getType()->isReferenceType();
      if (!Static)
        return dropAll(DropCause::UnseenCall, "it makes a virtual call of " + quotedName(F), true);
    }
  return ofFunction(C, F, callArguments(C, F));
}

HostEffect HostWriteAnalysis::ofConstruct(const CXXConstructExpr *C) {
  const CXXConstructorDecl *Ctor = C->getConstructor();
  if (!Ctor || Ctor->isTrivial() || (Ctor->isDefaulted() && !Ctor->getParent()->hasNonTrivialDestructor() &&
                                     Ctor->getParent()->hasTrivialDefaultConstructor()))
    return HostEffect();
  return ofFunction(C, Ctor, std::vector<const Expr *>(C->arg_begin(), C->arg_end()));
}

HostEffect HostWriteAnalysis::ofFunction(const Expr *Call, const FunctionDecl *F,
                                         const std::vector<const Expr *> &Args) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (isLibraryFunction(F, SM))
    return ofLibrary(Call, F, Args);
  if (rewritten(F))
    return HostEffect();
  const FunctionDecl *Def = F->getDefinition();
  if (!Def || !Def->hasBody()) {
    if (F->isDefaulted() || F->isTrivial())
      return HostEffect();
    return dropAll(DropCause::UnseenCall,
                   "it calls " + quotedName(F) + ", whose body is not in this file", true);
  }
  if (InProgress.count(Def->getCanonicalDecl()))
    return dropAll(DropCause::UnseenCall, "it calls " + quotedName(F) + " recursively", true);
  const Summary &S = summary(Def);
  HostEffect E;
  E.Drop = S.Drop;
  E.RunsUnseenCode = S.RunsUnseenCode;
  if (S.Drop != DropCause::None)
    E.Why = "it calls " + quotedName(F) + ", which " + S.Why;
  for (auto [I, Frees] : S.Params) {
    if (I >= Args.size())
      return dropAll(DropCause::UnseenCall, "it calls " + quotedName(F) + ", which writes a default argument",
                     S.RunsUnseenCode);
    WriteTarget T;
    T.Arg = Args[I];
    E.Targets.push_back(T);
    E.Frees |= Frees;
  }
  for (const VarDecl *V : S.Symbols) {
    WriteTarget T;
    T.Symbol = V;
    E.Targets.push_back(T);
  }
  for (unsigned I : S.CalledParams)
    if (I >= Args.size() || !unseenCallable({Args[I]}).empty())
      return dropAll(DropCause::UnseenCall, "it calls " + quotedName(F) + ", which calls a function it is given", true);
  return E;
}

std::string HostWriteAnalysis::unseenCallable(const std::vector<const Expr *> &Args) const {
  for (const Expr *Arg : Args) {
    const Expr *E = strip(Arg);
    QualType T = E->getType();
    if (T->isFunctionPointerType() || T->isFunctionType() || T->isFunctionReferenceType()) {
      const auto *DR = dyn_cast<DeclRefExpr>(E);
      if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
        DR = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts());
      const auto *Fn = DR ? dyn_cast<FunctionDecl>(DR->getDecl()) : nullptr;
      if (!Fn || !rewritten(Fn))
        return "it hands a function it cannot see into to a library call";
      continue;
    }
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    if (!RD || !RD->hasDefinition())
      continue;
    bool Callable = false;
    for (const CXXMethodDecl *M : RD->methods())
      Callable |= M->getOverloadedOperator() == OO_Call;
    if (!Callable)
      continue;
    // A lambda or a function object whose call operator this file defines.
    for (const CXXMethodDecl *M : RD->methods())
      if (M->getOverloadedOperator() == OO_Call && !Rewritten(M->getLocation()))
        return "it hands a callable it cannot see into (" + RD->getNameAsString() + ") to a library call";
  }
  return "";
}

HostEffect HostWriteAnalysis::ofLibrary(const Expr *Call, const FunctionDecl *F,
                                        const std::vector<const Expr *> &Args) {
  const SourceManager &SM = Ctx.getSourceManager();
  LibraryCall L = classifyLibraryCall(F, SM);
  const std::string Name = quotedName(F);
  switch (L.Kind) {
  case LibraryKind::NoDeviceWrites: {
    // Calling a callable object of the library (std::function) runs unknown code.
    if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->getOverloadedOperator() == OO_Call)
      return dropAll(DropCause::UnseenCall, "it calls " + Name + ", a callable the tool cannot see into", true);
    if (std::string Why = unseenCallable(Args); !Why.empty())
      return dropAll(DropCause::UnseenCall, Why + " (" + Name + ")", true);
    return HostEffect();
  }
  case LibraryKind::CopiesInto: {
    if (L.Destination >= Args.size())
      return HostEffect();
    if (L.KindArgument >= 0 && static_cast<unsigned>(L.KindArgument) < Args.size() &&
        copiesToHost(Args[L.KindArgument]))
      return HostEffect(); // host memory: no cached copy is built from it
    HostEffect E;
    WriteTarget T;
    T.Arg = Args[L.Destination];
    E.Targets.push_back(T);
    return E;
  }
  case LibraryKind::Frees: {
    HostEffect E;
    if (Args.empty())
      return E;
    WriteTarget T;
    T.Arg = Args[0];
    E.Targets.push_back(T);
    E.Frees = true;
    return E;
  }
  case LibraryKind::CopiesToSymbol: {
    if (Args.empty())
      return HostEffect();
    HostEffect E;
    WriteTarget T;
    T.Arg = Args[0];
    T.SymbolArg = true;
    T.SymbolByReference = F->getNumParams() > 0 && F->getParamDecl(0)->getType()->isReferenceType();
    E.Targets.push_back(T);
    return E;
  }
  case LibraryKind::Launches:
    return dropAll(DropCause::LaunchApi, "it launches work the tool cannot follow (" + Name + ")");
  case LibraryKind::UnnamedCopy:
    return dropAll(DropCause::UnnamedCopy, "it writes device memory the tool cannot name (" + Name + ")");
  case LibraryKind::ResetsDevice: // the runtime frees its copies before the call: they die with the device
    return dropAll(DropCause::DeviceReset, "it resets the device (" + Name + "): the runtime frees its copies first",
                   true);
  case LibraryKind::WritesPointerArgs: {
    HostEffect E;
    for (unsigned I = 0; I < Args.size(); ++I) {
      const Expr *Arg = Args[I];
      QualType PT = I < F->getNumParams() ? F->getParamDecl(I)->getType() : Arg->getType();
      QualType AT = strip(Arg)->getType(); // as the caller has it, before conversions
      if (PT->isReferenceType())
        PT = PT.getNonReferenceType();
      if (AT->isReferenceType())
        AT = AT.getNonReferenceType();
      if (reachesOtherMemory(AT) || (PT->isPointerType() && reachesOtherMemory(PT)))
        return dropAll(DropCause::UnseenCall,
                       "it passes memory holding pointers to " + Name + ", which may write through them");
      if (PT->isPointerType() && !PT->getPointeeType().isConstQualified() && AT->isPointerType() &&
          !(AT->getPointeeType()->isRecordType() && !AT->getPointeeType()->getAsRecordDecl()->getDefinition())) {
        WriteTarget T;
        T.Arg = Arg;
        E.Targets.push_back(T);
      }
    }
    if (std::string Why = unseenCallable(Args); !Why.empty())
      return dropAll(DropCause::UnseenCall, Why + " (" + Name + ")", true);
    return E;
  }
  case LibraryKind::Unknown:
    break;
  }
  return dropAll(DropCause::UnseenCall, "it calls " + Name + ", a library function the tool does not know", true);
}

HostEffect HostWriteAnalysis::ofLaunch(const CUDAKernelCallExpr *L) {
  const FunctionDecl *K = L->getDirectCallee();
  if (!K)
    return dropAll(DropCause::LaunchApi, "it launches a kernel through a pointer");
  const FunctionDecl *Def = K->getDefinition();
  std::string Name = quoted(K);
  if (!Def)
    return dropAll(DropCause::UntracedKernel, "kernel " + Name + " is defined in another file");
  const WriteSet &W = Kernels.of(Def);
  if (W.hasUntracedWrite())
    return dropAll(DropCause::UntracedKernel, "kernel " + Name + " " + W.untracedWhy().substr(
                                                  W.untracedWhy().rfind("it ", 0) == 0 ? 3 : 0));
  if (W.writesThis() || !W.writtenReferences().empty())
    return dropAll(DropCause::UntracedKernel, "kernel " + Name + " stores through memory its launch cannot name");
  HostEffect E;
  for (const ArrayRef &A : W.writtenArrays()) {
    const ParmVarDecl *P = A.param();
    unsigned I = P->getFunctionScopeIndex();
    if (P->getDeclContext() != Def || I >= L->getNumArgs())
      return dropAll(DropCause::UntracedKernel, "kernel " + Name + " stores through memory its launch cannot name");
    WriteTarget T;
    T.Arg = L->getArg(I);
    if (A.isField())
      T.Member = A.spelling().substr(P->getName().size());
    E.Targets.push_back(T);
  }
  for (const VarDecl *V : W.writtenSymbols()) {
    if (symbolSpelling(V).empty())
      return dropAll(DropCause::UntracedKernel, "kernel " + Name + " writes __device__ variable '" +
                                                    V->getNameAsString() + "', which host code cannot name here");
    WriteTarget T;
    T.Symbol = V;
    E.Targets.push_back(T);
  }
  return E;
}

namespace {

// Every host call in a function body that may run, lambdas it defines included.
class CallCollector : public RunTimeCodeVisitor<CallCollector> {
public:
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitCallExpr(CallExpr *C) {
    Calls.push_back(C);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    Calls.push_back(C);
    return true;
  }
  std::vector<const Expr *> Calls;
};

} // namespace

const HostWriteAnalysis::Summary &HostWriteAnalysis::summary(const FunctionDecl *Def) {
  const FunctionDecl *Key = Def->getCanonicalDecl();
  auto It = Summaries.find(Key);
  if (It != Summaries.end())
    return It->second;
  InProgress.insert(Key);
  Summary S;
  CallCollector Collect;
  Collect.TraverseStmt(Def->getBody());
  auto Drop = [&](DropCause C, const std::string &Why) {
    if (S.Drop == DropCause::None) {
      S.Drop = C;
      S.Why = Why;
    }
  };
  for (const Expr *Call : Collect.Calls) {
    // A call of a function-pointer parameter runs what the caller passes.
    if (const auto *CE = dyn_cast<CallExpr>(Call); CE && !CE->getDirectCallee())
      if (const auto *DR = dyn_cast<DeclRefExpr>(strip(CE->getCallee())))
        if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()); P && P->getDeclContext() == Def) {
          S.CalledParams.insert(P->getFunctionScopeIndex());
          continue;
        }
    HostEffect E = isa<CallExpr>(Call) ? ofCall(cast<CallExpr>(Call)) : ofConstruct(cast<CXXConstructExpr>(Call));
    S.RunsUnseenCode |= E.RunsUnseenCode;
    if (E.Drop != DropCause::None) {
      llvm::StringRef Inner = E.Why;
      Inner.consume_front("it ");
      Drop(E.Drop, Inner.str());
    }
    for (const WriteTarget &T : E.Targets) {
      if (T.Symbol) {
        S.Symbols.insert(T.Symbol);
        continue;
      }
      const auto *DR = dyn_cast<DeclRefExpr>(strip(T.Arg));
      if (const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr; T.SymbolArg && V && isDeviceSymbol(V)) {
        S.Symbols.insert(V);
        continue;
      }
      const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
      if (P && P->getDeclContext() == Def && !T.SymbolArg && T.Member.empty() && P->getType()->isPointerType()) {
        bool &Frees = S.Params[P->getFunctionScopeIndex()];
        Frees |= E.Frees;
        continue;
      }
      Drop(DropCause::UnseenCall, "writes device memory its caller cannot name");
    }
  }
  InProgress.erase(Key);
  return Summaries.emplace(Key, std::move(S)).first->second;
}

} // namespace irregfix
